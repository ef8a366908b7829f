"""What checking one file found at a commit, kept by blob id: a digest asked again checks nothing again.

A file's findings depend on more than its own content (the cards it cites,
the ids that have cards, the living documents that mention it), so they are
kept only for a snapshot that names all of its files at once: a commit's
tree (`Snapshot.state`). The key names that state, the file's path and
kind, the whole configuration, the rules run and kbcheck's own source; the
value is the file's stamped problems and the notices its check gave. The
work tree and the index name no state: a hook or `check --all` never uses it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.rules.base import Rule

#: the cache namespace (`docs/architecture.md`)
NAMESPACE = "checked"
#: bump when the value's shape changes
_VERSION = "checked-1"


@cache
def source_digest() -> str:
    """A digest of kbcheck's own source: what a rule finds depends on every part of it."""
    digest = hashlib.sha1()
    here = Path(__file__).parent
    for source in sorted(here.rglob("*.py")):
        digest.update(source.relative_to(here).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def _canonical(value: Any) -> str:
    """A value of the configuration as text that is the same in every process (sets sorted)."""
    if isinstance(value, re.Pattern):
        return f"re({value.pattern!r},{value.flags})"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(_canonical(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_canonical(k)}:{_canonical(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, (list, tuple)):
        return "(" + ",".join(_canonical(v) for v in value) + ")"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _canonical({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    return repr(value)


def config_digest(config: Config) -> str:
    """Every setting of the configuration, as one digest."""
    return hashlib.sha1(_canonical(config).encode("utf-8", "surrogatepass")).hexdigest()


class CheckedFiles:
    """The kept results of one run's file checks, for one snapshot, configuration and set of rules."""

    def __init__(self, kb: KnowledgeBase, state: str, run_key: str) -> None:
        self.kb = kb
        self._prefix = f"{_VERSION}\0{state}\0{run_key}"

    @classmethod
    def for_run(cls, kb: KnowledgeBase, config: Config, rules: list[Rule], unused: bool) -> CheckedFiles | None:
        """The kept results for this run, or None when the snapshot names no state or nothing is cached."""
        state = kb.snapshot.state
        if state is None or not kb.facts.cached:
            return None
        run_key = "\0".join((source_digest(), config_digest(config), ",".join(sorted(r.id for r in rules)),
                             "unused" if unused else ""))
        return cls(kb, state, run_key)

    def _key(self, path: str, kind: str) -> str:
        return f"{self._prefix}\0{kind}\0{path}"

    def get(self, path: str, kind: str) -> object | None:
        """What `put` kept for the file's check (plain data), or None."""
        return self.kb.facts.recorded(NAMESPACE, path, self._key(path, kind))

    def put(self, path: str, kind: str, value: object) -> None:
        """Keep what the file's check found (plain data: the engine encodes its stamped problems)."""
        self.kb.facts.record(NAMESPACE, path, self._key(path, kind), value)


__all__ = ["NAMESPACE", "CheckedFiles", "config_digest", "source_digest"]
