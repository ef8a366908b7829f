"""Why a section is suggested, as data: a phrase key and its values, said in English by default.

`kbcheck suggest` prints a reason's English; the digest says it in its own
language from the same key (`digest/phrases.py`, whose table holds these
phrases too). Nothing reads a reason's text back: the key says which it is.
"""

from __future__ import annotations

from dataclasses import dataclass

#: every reason, by phrase key, in English
REASONS: dict[str, str] = {
    "why.cites_note": "already cites this note{ids}",
    "why.shares_ids": "shares ids: {ids}",
    "why.shares_repos": "shares repos: {ids}",
    "why.links_same": "links the same files: {files}",
    "why.reads_alike": "cites {path}, which reads alike ({terms})",
    "why.links_doc": "the note links this document",
    "why.named_for_work": "the page is named for this work ({name})",
    "why.cites_linked": "cites {path}, which the note links",
    "why.period_current": "the current period's section of this chronological index ({period})",
    "why.period_new": "a new section for the current period ({period}): this chronological index has none yet",
    "why.lists_material": "where this document lists {kinds} material",
    "why.shared_terms": "shared terms: {terms}",
}
#: the reasons that tell what the note and the section share by id or file (shown before shared terms)
SHARED_CITATIONS = frozenset({"why.cites_note", "why.shares_ids", "why.shares_repos", "why.links_same"})


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason: its phrase key (`REASONS`) and the values the phrase takes."""

    key: str
    values: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return REASONS[self.key].format(**dict(self.values))


def reason(key: str, **values: str) -> Reason:
    """The reason `key` with its values (`reason("why.shared_terms", terms="draft, verify")`)."""
    if key not in REASONS:
        raise KeyError(key)
    return Reason(key, tuple(values.items()))


__all__ = ["REASONS", "SHARED_CITATIONS", "Reason", "reason"]
