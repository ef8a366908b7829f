"""`kbcheck suggest PATH…`: the sections of the living documents a note most likely belongs to.

The index of sections is built once per run (each document's summary cached
by blob id), so the digest asks it for every increment at the cost of one.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from kbcheck.cache import repository_cache
from kbcheck.errors import UsageError
from kbcheck.model.knowledge_base import KNOWLEDGE, KnowledgeBase
from kbcheck.sources import select
from kbcheck.suggest.index import Resolver, SectionIndex, build_index
from kbcheck.suggest.rank import Suggestion, make_query, rank

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Repository

#: the version of the JSON shape, not of kbcheck
JSON_VERSION = 1
DEFAULT_TOP = 3


class Suggester:
    """One index of a knowledge base's sections, asked for as many notes as needed."""

    def __init__(self, kb: KnowledgeBase, boilerplate: set[str] | None = None,
                 common_terms: set[str] | None = None) -> None:
        self.kb = kb
        self.resolver = Resolver(kb)
        self._index: SectionIndex | None = None
        #: targets (`repo:…`, `arxiv:…`) too common among the notes to tie a note to a section
        self.boilerplate = boilerplate or set()
        #: terms most notes hold (a shared header): they place no note
        self.common_terms = common_terms or set()

    @property
    def index(self) -> SectionIndex:
        if self._index is None:
            self._index = build_index(self.kb, self.resolver)
        return self._index

    def suggest(self, path: str, top: int = DEFAULT_TOP) -> list[Suggestion]:
        """The best `top` sections for the note at `path` (none for a living document or unreadable file)."""
        if self.kb.kind_of(path) == KNOWLEDGE:
            return []
        query = make_query(self.kb, self.resolver, path)
        if query is None:
            return []
        query.targets -= self.boilerplate - query.own
        if self.common_terms:
            query.terms = {t: n for t, n in query.terms.items() if t not in self.common_terms}
        return rank(self.kb, self.index, query, top)


def suggestion_json(suggestion: Suggestion) -> dict[str, Any]:
    return {"living_doc": suggestion.living_doc, "section": suggestion.section, "line": suggestion.line,
            "score": suggestion.score, "why": list(suggestion.why)}


@dataclass
class _Item:
    path: str
    suggestions: list[Suggestion]


def _render_text(items: list[_Item], out: TextIO) -> None:
    for item in items:
        print(item.path, file=out)
        if not item.suggestions:
            print("  (no section found)", file=out)
        for suggestion in item.suggestions:
            section = suggestion.section or "(before the first heading)"
            print(f"  {suggestion.score:.2f}  {suggestion.living_doc}:{suggestion.line}  {section}", file=out)
            for why in suggestion.why:
                print(f"        - {why}", file=out)


def run_suggest(repo: Repository, config: Config, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """`kbcheck suggest`: rank sections for each named file, as text or JSON."""
    if args.top < 1:
        raise UsageError("--top must be at least 1")
    selection = select(repo, config, mode="paths", paths=list(args.paths), rev=None)
    kb = KnowledgeBase(selection.snapshot, config, None if args.no_cache else repository_cache(repo))
    suggester = Suggester(kb)
    items = [_Item(path, suggester.suggest(path, args.top)) for path in selection.paths
             if path.lower().endswith((".md", ".markdown"))]
    kb.facts.flush()
    for notice in [*selection.notices, *kb.notices]:
        print(f"kbcheck: {notice}", file=err)
    if args.format == "json":
        data = {"version": JSON_VERSION,
                "items": [{"path": i.path, "suggestions": [suggestion_json(s) for s in i.suggestions]} for i in items]}
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        _render_text(items, out)
    return 0


__all__ = ["DEFAULT_TOP", "Suggester", "Suggestion", "run_suggest", "suggestion_json"]
