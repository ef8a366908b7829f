"""`kbcheck suggest PATH…`: the sections of the living documents a note most likely belongs to.

The index of sections is built once per run (each document's summary cached
by blob id), so the digest asks it for every increment at the cost of one.
"""

from __future__ import annotations

from typing import Any

from kbcheck.model.knowledge_base import KNOWLEDGE, KnowledgeBase
from kbcheck.suggest.background import Background
from kbcheck.suggest.index import Resolver, SectionIndex, build_index
from kbcheck.suggest.rank import Suggestion, make_query, material_cited, overviews, rank

DEFAULT_TOP = 3


class Suggester:
    """One index of a knowledge base's sections, asked for as many notes as needed."""

    def __init__(self, kb: KnowledgeBase, background: Background | None = None) -> None:
        self.kb = kb
        self.resolver = Resolver(kb)
        self._index: SectionIndex | None = None
        self._background = background
        self._overviews: set[str] | None = None
        self._cited: dict[str, int] | None = None
        self._pages_by_name: dict[str, list[str]] | None = None

    @property
    def background(self) -> Background:
        """What the notes all repeat (ids of a shared header, its words): they place no note."""
        if self._background is None:
            self._background = Background(self.kb, self.resolver)
        return self._background

    @property
    def index(self) -> SectionIndex:
        if self._index is None:
            self._index = build_index(self.kb, self.resolver)
        return self._index

    @property
    def overviews(self) -> set[str]:
        """The living documents that cover what the knowledge base collects, not one topic of it."""
        if self._overviews is None:
            self._overviews = overviews(self.kb, self.material_cited)
        return self._overviews

    @property
    def material_cited(self) -> dict[str, int]:
        """Each living document -> how many notes and cards it links (`rank.material_cited`)."""
        if self._cited is None:
            self._cited = material_cited(self.kb, self.index)
        return self._cited

    @property
    def pages_by_name(self) -> dict[str, list[str]]:
        """A name (compacted, `evidence.discussed.page_names`) -> the living documents it names."""
        if self._pages_by_name is None:
            from kbcheck.evidence.discussed import page_names

            self._pages_by_name = {}
            for path, document in self.index.documents.items():
                for name in page_names(path, document.title):
                    self._pages_by_name.setdefault(name, []).append(path)
        return self._pages_by_name

    def suggest(self, path: str, top: int = DEFAULT_TOP) -> list[Suggestion]:
        """The best `top` sections for the note at `path` (none for a living document or unreadable file)."""
        if self.kb.kind_of(path) == KNOWLEDGE:
            return []
        query = make_query(self.kb, self.resolver, path)
        if query is None:
            return []
        background = self.background
        query.targets -= background.repeated - query.own
        query.terms = {t: n for t, n in query.terms.items() if t not in background.common_terms}
        return rank(self.kb, self.index, query, top, self.overviews)


def suggestion_json(suggestion: Suggestion) -> dict[str, Any]:
    return {"living_doc": suggestion.living_doc, "section": suggestion.section, "line": suggestion.line,
            "score": suggestion.score, "why": [str(w) for w in suggestion.why]}


__all__ = ["DEFAULT_TOP", "Background", "Suggester", "Suggestion", "suggestion_json"]
