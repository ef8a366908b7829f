"""An edit that keeps a note, not one that adds to it: housekeeping, a review item.

A modification is housekeeping when every field it changed is a date, a flag, a
status or a tag (`tags`, `keywords`, `aliases`, `category`…), and every body line it
added, removed or rewrote is either in an open-question section (`待追问`, `Open
questions`, the configured open-question heading) or the same line with only a date
or a status marker changed (`[ ]` → `[x]`, `✅`, `updated 2026-04-20` → `2026-04-21`).
For a note (not a card, whose frontmatter is its content) an edit of the frontmatter
alone is housekeeping too, unless it changed a summary field (`tldr`, `summary`…).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kbcheck.digest.gist import SUMMARY_FIELDS
from kbcheck.model.cards import split_frontmatter
from kbcheck.model.document import OPEN_QUESTION
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.model.document import Document
    from kbcheck.patterns import HeadingRegex

#: headings of sections that hold questions and chores, never findings (besides the configured
#: open-question heading)
QUESTION_HEADING = lazy(r"(?i)待追问|待解决|待确认|待办|开放问题|未解决|\bopen (?:questions?|issues?)\b|\bto-?dos?\b"
                              r"|\bfollow-?ups?\b")
#: frontmatter fields that record a note's state rather than its content
STATUS_FIELDS = frozenset({"status", "state", "stage", "progress", "confidence", "processed", "reviewed",
                           "last_reviewed", "updated", "modified", "date", "possibly_outdated", "read", "done"})
#: frontmatter fields that file a note rather than say what it holds
TAG_FIELDS = frozenset({"tags", "tag", "keywords", "aliases", "category", "categories", "topics", "labels"})
_DATE = lazy(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?")
_BOX = lazy(r"\[[ xX✓✔-]\]")
_STATUS_MARKS = lazy(r"[✅☑✔✓❌⏳🚧🟢🟡🔴⬜⭕]|\((?:done|todo|wip|in progress)\)|（(?:已完成|进行中|待办)）",
                           re.IGNORECASE)


def _state_value(value: Any) -> bool:
    return value is None or isinstance(value, bool) or (isinstance(value, str) and bool(_DATE.fullmatch(value.strip())))


def _housekeeping_field(name: str, pair: Any) -> bool:
    if name in STATUS_FIELDS or name in TAG_FIELDS:
        return True
    return isinstance(pair, list) and len(pair) == 2 and all(_state_value(v) for v in pair)


def filing_only(changed_fields: Mapping[str, Any]) -> bool:
    """True when the edit is to the frontmatter alone and changed more than dates and states (tags,
    a venue): the note was filed again, its text untouched."""
    return "body" not in changed_fields and not all(
        name in STATUS_FIELDS or (isinstance(pair, list) and len(pair) == 2 and all(_state_value(v) for v in pair))
        for name, pair in changed_fields.items())


def _normal(line: str) -> str:
    """A line with its dates and status markers taken out."""
    return " ".join(_STATUS_MARKS.sub("", _BOX.sub("[]", _DATE.sub("D", line))).split())


class _Sections:
    """Line -> whether it lies in a question section of the document."""

    def __init__(self, doc: Document | None, question_heading: HeadingRegex | None) -> None:
        self.starts = [s.line for s in doc.sections] if doc else []
        self.questions = [bool(doc) and (s.role == OPEN_QUESTION or bool(s.heading and (
            QUESTION_HEADING.search(s.heading) or (question_heading and question_heading.search(s.heading)))))
            for s in (doc.sections if doc else [])]
        # a sub-section of a question section is one too
        if doc:
            for s in doc.sections:
                if s.parent is not None and self.questions[s.parent]:
                    self.questions[s.index] = True

    def in_question(self, line: int) -> bool:
        at = bisect.bisect_right(self.starts, line) - 1
        return at >= 0 and self.questions[at]


def is_housekeeping(old_doc: Document | None, old_text: str, new_doc: Document | None, new_text: str,
                    changed_fields: Mapping[str, Any], question_heading: HeadingRegex | None = None,
                    card: bool = False) -> bool:
    """True when the modification changed nothing but state (module docstring); a change with
    nothing in it is not housekeeping (it is formatting). `card`: the file is a card, whose
    frontmatter fields are its content."""
    if not changed_fields:
        return False
    if not card and "body" not in changed_fields and not any(name in SUMMARY_FIELDS for name in changed_fields):
        return True
    if not all(_housekeeping_field(name, pair) for name, pair in changed_fields.items() if name != "body"):
        return False
    if "body" not in changed_fields:
        return True
    old_start, new_start = split_frontmatter(old_text)[1], split_frontmatter(new_text)[1]
    old = old_text.split("\n")[old_start - 1:]
    new = new_text.split("\n")[new_start - 1:]
    old_sections, new_sections = _Sections(old_doc, question_heading), _Sections(new_doc, question_heading)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        removed = [(old_start + i, old[i]) for i in range(i1, i2) if old[i].strip()]
        added = [(new_start + j, new[j]) for j in range(j1, j2) if new[j].strip()]
        removed = [(n, line) for n, line in removed if not old_sections.in_question(n)]
        added = [(n, line) for n, line in added if not new_sections.in_question(n)]
        if len(removed) != len(added):
            return False
        if any(_normal(a) != _normal(b) for (_n, a), (_m, b) in zip(removed, added)):
            return False
    return True


__all__ = ["QUESTION_HEADING", "STATUS_FIELDS", "TAG_FIELDS", "filing_only", "is_housekeeping"]
