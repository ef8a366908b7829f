"""`kbcheck suggest PATH…`: the sections of the living documents each note most likely belongs to."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from kbcheck.commands import configuration, notify, repository
from kbcheck.errors import UsageError
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.suggest import Suggestion

#: the version of the JSON shape, not of kbcheck
JSON_VERSION = 1


@dataclass(frozen=True)
class SuggestOptions:
    """What `kbcheck suggest` was asked; the defaults are the command line's."""

    paths: Sequence[str] = ()
    top: int = 3
    format: str = "text"
    config: str | None = None
    no_cache: bool = False


@dataclass
class _Item:
    path: str
    suggestions: list[Suggestion]


def run_suggest(options: SuggestOptions, out: TextIO, err: TextIO) -> int:
    """Rank sections for each named markdown file, as text or JSON."""
    from kbcheck.cache import repository_cache
    from kbcheck.model.document import MARKDOWN_SUFFIXES
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.sources import select
    from kbcheck.suggest import Suggester, suggestion_json

    repo = repository()
    config = configuration(repo, options.config)
    if options.top < 1:
        raise UsageError(_("--top must be at least 1"))
    selection = select(repo, config, mode="paths", paths=list(options.paths), rev=None)
    kb = KnowledgeBase(selection.snapshot, config, None if options.no_cache else repository_cache(repo))
    suggester = Suggester(kb)
    items = [_Item(path, suggester.suggest(path, options.top)) for path in selection.paths
             if path.lower().endswith(MARKDOWN_SUFFIXES)]
    kb.facts.flush()
    notify([*selection.notices, *kb.notices], err)
    if options.format == "json":
        data = {"version": JSON_VERSION,
                "items": [{"path": i.path, "suggestions": [suggestion_json(s) for s in i.suggestions]} for i in items]}
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        _render_text(items, out)
    return 0


def _render_text(items: list[_Item], out: TextIO) -> None:
    from kbcheck.model.document import inline_text  # a heading that is a link shows its text

    for item in items:
        print(item.path, file=out)
        if not item.suggestions:
            print("  (no section found)", file=out)
        for suggestion in item.suggestions:
            section = inline_text(suggestion.section) or "(before the first heading)"
            print(f"  {suggestion.score:.2f}  {suggestion.living_doc}:{suggestion.line}  {section}", file=out)
            for why in suggestion.why:
                print(f"        - {why}", file=out)


__all__ = ["JSON_VERSION", "SuggestOptions", "run_suggest"]
