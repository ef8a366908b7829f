"""How the configuration maps the tree to kinds, said to the user: each file's kind and why
(`check --show-files`), the merged settings (`check --show-settings`), and the kinds whose
globs match nothing (a notice once per run)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kbcheck.globs import matches
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the configuration key of each kind, in the order kinds are matched
KIND_KEYS = (("knowledge", "knowledge"), ("paper_card", "paper-cards"), ("repo_card", "repo-cards"),
             ("brief", "briefs"), ("guide", "guides"), ("manifest", "manifests"))
_KEY_OF = dict(KIND_KEYS)
_SUFFIXES = (".md", ".markdown")


def _globs(config: Config, key: str) -> tuple[str, ...]:
    value: tuple[str, ...] = getattr(config, key.replace("-", "_"))
    return value


def why_kind(kb: KnowledgeBase, path: str) -> tuple[str, str]:
    """(kind, why) of one file: the key and glob that matched, or why none did."""
    kind = kb.kind_of(path)
    key = _KEY_OF.get(kind)
    if key is not None:
        glob = next((g for g in _globs(kb.config, key) if not g.startswith("!") and matches((g,), path)), "")
        return kind, f"{key} = {glob!r}" if glob else key
    if path.lower().endswith(_SUFFIXES):
        return "markdown", _("no kind's glob matches; a markdown file: ids, links and readability are checked")
    return "-", _("no kind's glob matches and it is not markdown: not read")


def show_files(kb: KnowledgeBase, paths: Iterable[str]) -> list[str]:
    """One line per file: its path, its kind and why."""
    rows = [(path, *why_kind(kb, path)) for path in paths]
    width = max((len(path) for path, _, _ in rows), default=0)
    kind_width = max((len(kind) for _, kind, _ in rows), default=0)
    return [f"{path.ljust(width)}  {kind.ljust(kind_width)}  {why}" for path, kind, why in rows]


def empty_kinds(kb: KnowledgeBase, config: Config, checked: Iterable[str] | None = None) -> tuple[list[str], str | None]:
    """The kinds whose globs match no file of the tree, and the one notice that says so, when some
    markdown file matches no kind either (none without a configuration file: the defaults
    describe a layout, not this knowledge base). `checked`: look for that file among these (the
    files a hook checks) rather than the whole tree, so a hook's cost stays that of its files."""
    if config.source is None:
        return [], None
    # every note has a kind: an unused kind is a knowledge base that has none yet, not a mapping to fix
    looked_at = kb.snapshot.paths() if checked is None else checked
    if not any(path.lower().endswith(_SUFFIXES) and kb.kind_of(path) == "other" for path in looked_at):
        return [], None
    empty = [key for kind, key in KIND_KEYS if _globs(config, key) and not kb.has_kind(kind)]
    if not empty:
        return [], None
    return empty, _("{keys} in {source}: no file matches; set a kind to [] when the knowledge base has none "
                    "(kbcheck check --show-files shows each file's kind)", keys=", ".join(empty), source=config.source)


def stale_globs(kb: KnowledgeBase, config: Config) -> str | None:
    """The one notice naming the globs that match no file of the tree, of the kinds that have files
    through another glob (a typo, a folder renamed since): a kind with no file at all is
    `empty_kinds`' to say."""
    if config.source is None:
        return None
    from kbcheck.model.knowledge_base import static_prefix

    paths = kb.snapshot.paths()
    stale: list[str] = []
    for _kind, key in KIND_KEYS:
        globs = [g for g in _globs(config, key) if not g.startswith("!")]
        if len(globs) < 2:
            continue
        # each search stops at the glob's first file: a run pays for the globs that match nothing
        unmatched = [glob for glob in globs if not _matches_any(glob, static_prefix(glob), paths)]
        if len(unmatched) < len(globs):
            stale.extend(f"{key} {glob!r}" for glob in unmatched)
    if not stale:
        return None
    return _("{globs} in {source}: no file matches; fix or remove the glob (kbcheck check --show-files shows "
             "each file's kind)", globs=", ".join(stale), source=config.source)


def _matches_any(glob: str, prefix: str, paths: Sequence[str]) -> bool:
    return any(path.startswith(prefix) and matches([glob], path) for path in paths)


def _plain(value: Any) -> Any:
    if isinstance(value, re.Pattern):
        return value.pattern
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.name != "slug"}
    return value


def settings_text(config: Config) -> str:
    """The merged configuration (defaults, then the file, then the command line) as TOML."""
    import json

    def toml(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)} = {toml(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(toml(v) for v in value) + "]"
        return json.dumps(value, ensure_ascii=False)

    lines = [f"# from {config.source or 'the defaults'}"]
    tables: list[str] = []
    for field in dataclasses.fields(config):
        if field.name in ("source", "message_lang", "unconfigured_base"):
            continue
        key, value = field.name.replace("_", "-"), _plain(getattr(config, field.name))
        if field.name in ("roles", "authors"):
            tables.append(f"\n[{key}]")
            tables.extend(f"{json.dumps(k, ensure_ascii=False) if not k.isidentifier() else k} = {toml(v)}"
                          for k, v in value.items())
            continue
        lines.append(f"{key} = {toml(value)}")
    return "\n".join(lines + tables) + "\n"


__all__ = ["KIND_KEYS", "empty_kinds", "settings_text", "show_files", "stale_globs", "why_kind"]
