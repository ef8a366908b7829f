"""What the knowledge base's notes all repeat, and so says nothing about any one of them.

A collection's notes share a header or footer: the owner's index repository
linked from every note, the fixed words of a title template, `model` in a wiki
of model papers. Such an id is no evidence of where a note belongs nor of what
it adds; such a word is no evidence of its topic. This is the one place that
decides it, for the placement (`kbcheck suggest`, the digest's suggestions)
and for the digest's increment-or-review call alike.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from kbcheck.model.knowledge_base import BRIEF, GUIDE, KnowledgeBase

if TYPE_CHECKING:
    from kbcheck.suggest.index import Resolver

#: an id cited by this many notes, and this share of them, is a header's boilerplate
REPEATED_NOTES, REPEATED_ID_SHARE = 5, 0.1
#: a term in this share of the notes (and at least `REPEATED_NOTES` of them) is boilerplate to them
COMMON_TERM_SHARE = 0.25


class Background:
    """The ids and terms of a knowledge base's notes (guides and briefs), counted once per run."""

    def __init__(self, kb: KnowledgeBase, resolver: Resolver) -> None:
        from kbcheck.suggest.index import note_summary

        self.notes = kb.paths_of_kind(GUIDE, BRIEF)
        kb.preload(self.notes)
        self.term_df: Counter[str] = Counter()
        target_df: Counter[str] = Counter()
        for path in self.notes:
            summary = note_summary(kb, path)
            if summary is None:
                continue
            _title, terms, refs = summary
            self.term_df.update(terms.keys())
            targets, _kinds = resolver.resolve(path, refs)
            target_df.update(t for t in targets if not t.startswith("path:"))
        floor = max(REPEATED_NOTES, len(self.notes) * REPEATED_ID_SHARE)
        #: ids (`repo:owner/notes-index`, `arxiv:…`) so many notes cite that they place nothing
        self.repeated: frozenset[str] = frozenset(t for t, n in target_df.items() if n >= floor)
        floor = max(REPEATED_NOTES, len(self.notes) * COMMON_TERM_SHARE)
        #: terms so many notes hold that they say nothing about one
        self.common_terms: frozenset[str] = frozenset(t for t, n in self.term_df.items() if n >= floor)

    def is_repeated(self, kind: str, ident: str) -> bool:
        """An id a header repeats (`repo`, `owner/notes-index`)."""
        return f"{kind}:{ident}" in self.repeated

__all__ = ["COMMON_TERM_SHARE", "REPEATED_ID_SHARE", "REPEATED_NOTES", "Background"]
