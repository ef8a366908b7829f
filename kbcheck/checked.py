"""What was worked out for a file at a commit, kept under the file's blob: asked again, it is not worked out again.

A file's findings (the engine) and an increment's placement (the digest)
depend on more than the file's own content (the cards it cites, the ids that
have cards, the living documents around it), so they are kept only for a
snapshot that names all of its files at once: a commit's tree
(`Snapshot.state`). The key is (what, the commit, the inputs it depends on:
the whole configuration, the rules run, the language...), under the file's
blob id; kbcheck's own code versions the whole cache (`kbcheck.version`).
The index and the work tree name no commit: a hook never uses it.

In the work tree a file's findings are kept with what its check read
instead (`FileReads`): the files whose facts it asked for, each with its
blob id, and the questions it asked of the listing, each with its answer
(`kbcheck.model.reads`), under what decides what git ignores
(`Snapshot.ignores_state`) and the site the links are read for. Asked
again, they are served while every one of those finds the same: after an
edit, or a note added, only the files that read it are checked again.

A full check of the work tree (`check --all`) is kept whole instead
(`WholeWorkTree`), under the work tree's state worked out from what the
check reads anyway (`Snapshot.listing_state`: every file's blob id, and what
git ignores): asked again of the very same work tree, nothing is checked
again. One entry per configuration and rule set, replaced by the next
state's, so checking, editing and checking again piles nothing up.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kbcheck.cache import decode, encode
from kbcheck.i18n import kept, restored

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KnowledgeBase


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


class AtCommit:
    """The kept values of one kind (`what`) for one commit and one set of inputs, by file."""

    def __init__(self, kb: KnowledgeBase, namespace: str, prefix: str) -> None:
        self.kb = kb
        self.namespace = namespace
        self._prefix = prefix

    @classmethod
    def for_run(cls, kb: KnowledgeBase, namespace: str, what: str, *inputs: str) -> AtCommit | None:
        """The kept values, or None when the snapshot names no commit or nothing is cached."""
        state = kb.snapshot.state
        if state is None or not kb.facts.cached:
            return None
        return cls(kb, namespace, "\0".join((what, state, *inputs)))

    def _key(self, path: str, parts: tuple[str, ...]) -> str:
        # the path too: two files of the same content are two files, each with its own findings
        return "\0".join((self._prefix, path, *parts))

    def get(self, path: str, *key: str) -> object | None:
        """What `put` kept for the file under `key` (plain data), or None."""
        return self.kb.facts.recorded(self.namespace, path, self._key(path, key))

    def put(self, path: str, value: object, *key: str) -> None:
        """Keep `value` (plain data) for the file under `key`."""
        self.kb.facts.record(self.namespace, path, self._key(path, key), value)


class FileReads:
    """The kept values of one kind for the files of a work tree, each with the files it read."""

    def __init__(self, kb: KnowledgeBase, namespace: str, prefix: str, shape: str) -> None:
        self._at = AtCommit(kb, namespace, prefix)
        self._shape = shape

    @classmethod
    def for_run(cls, kb: KnowledgeBase, namespace: str, what: str, *inputs: str) -> FileReads | None:
        """The kept values, or None when nothing is cached or the snapshot has no listing to keep them under."""
        if not kb.facts.cached:
            return None
        ignores = kb.snapshot.ignores_state()
        if ignores is None:
            return None
        shape = hashlib.sha1(f"{ignores}\0{kb.site!r}".encode("utf-8", "surrogateescape")).hexdigest()
        return cls(kb, namespace, "\0".join(("read", what, *inputs)), shape)

    def get(self, path: str, *key: str) -> object | None:
        """What `put` kept for the file, while each file it read and each question it asked finds
        what it found then; else None."""
        value = self._at.get(path, *key)
        if not (isinstance(value, tuple) and len(value) == 3 and value[0] == self._shape):
            return None
        reads = value[1]
        if not isinstance(reads, tuple) or len(reads) % 2:
            return None
        answer = self._at.kb.answer
        for at in range(0, len(reads), 2):
            if not isinstance(reads[at], str) or answer(reads[at]) != reads[at + 1]:
                return None
        kept_value: object = value[2]
        return kept_value

    def put(self, path: str, value: object, read: Iterable[str], *key: str) -> None:
        """Keep `value` (plain data) for the file, with what was `read` to work it out (files and
        questions, `kbcheck.model.reads`) and what each finds now."""
        answer = self._at.kb.answer
        # one flat tuple (read, answer, read, answer, ...): the cache checks a tuple of strings at C speed
        reads = tuple(part for p in sorted(read) for part in (p, answer(p)))
        self._at.put(path, (self._shape, reads, value), *key)


class WholeWorkTree:
    """What a full check of the work tree found, kept for the one state it was last checked at."""

    def __init__(self, kb: KnowledgeBase, namespace: str, key: str, state: str) -> None:
        self.kb = kb
        self.namespace = namespace
        self._key = key
        self._state = state

    @classmethod
    def for_run(cls, kb: KnowledgeBase, namespace: str, *inputs: str) -> WholeWorkTree | None:
        """The kept check, or None when nothing is cached or the snapshot is a commit's (kept per file,
        `AtCommit`) or names no state."""
        if not kb.facts.cached or kb.snapshot.state is not None:
            return None
        state = kb.snapshot.listing_state()
        return cls(kb, namespace, "\0".join(("whole", *inputs)), state) if state is not None else None

    def get(self) -> object | None:
        """What `put` kept, when it was kept at this very state; else None."""
        value = self.kb.facts.recorded_whole(self.namespace, self._key)
        if isinstance(value, tuple) and len(value) == 2 and value[0] == self._state and isinstance(value[1], bytes):
            # the check itself is packed apart: another state's is never unpacked
            check: object = restored(decode(value[1]))
            return check
        return None

    def put(self, value: object) -> None:
        """Keep `value` (plain data) as the check at this state, replacing the one kept before."""
        try:
            packed = encode(kept(value))  # messages keep how they were said (`kbcheck.i18n.Text`)
        except ValueError:
            return
        self.kb.facts.record_whole(self.namespace, self._key, (self._state, packed))


__all__ = ["AtCommit", "FileReads", "WholeWorkTree", "config_digest"]
