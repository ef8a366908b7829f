"""A chronological index: a living document whose sections are periods (`## 2025`, `## 2025-06`,
`## 2025年6月`, `## Week of June 23 - June 29, 2025`). A new note goes in the current period's
section, not in the section whose words it shares: the digest proposes that section, or, when the
index has none for the period yet, a new one named in the style of its newest.

The period is the note's own date (frontmatter or metadata header `date`, `created`, `added`,
`collected`), else the
date of the digest's head commit. A document is such an index when at least three of its sections,
and 60 % of those with a heading, are headed by a date that lists material (they cite or link
something); the finest unit three of them carry (day, month, year) is the period, and those
sections name distinct periods (`ACL 2023`, `EMNLP 2023` list venues of one year, not periods). With days
(weekly or daily lists), the current section is the latest that starts on or before the date and
no further back than the index's usual step between sections.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from kbcheck import git
from kbcheck.model.document import inline_text
from kbcheck.regex import lazy
from kbcheck.suggest.rank import Suggestion
from kbcheck.suggest.reasons import reason

if TYPE_CHECKING:
    from kbcheck.git import Repository
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.suggest.index import IndexedSection, SectionIndex

_MONTHS = {name: number for number, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
    ("november", "nov"), ("december", "dec")), 1) for name in names}
_YEAR = r"(?<!\d)((?:19|20)\d{2})(?!\d)"
_NUMERIC = lazy(_YEAR + r"(?:\s*[-./年]\s*(\d{1,2})(?!\d)(?:\s*月)?(?:\s*[-./]\s*(\d{1,2})(?!\d)\s*日?)?)?")
_NAMED = lazy(r"(?i)\b(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?(?:\s+(\d{1,2})(?!\d))?")
DAY, MONTH, YEAR = "day", "month", "year"
#: sections (at least) and share of the headed sections that must be dated for an index
_DATED_SECTIONS, _DATED_SHARE = 3, 0.6
#: the fields a note's own date is read from, in order
DATE_FIELDS = ("date", "created", "added", "collected")


@dataclass(frozen=True)
class Dated:
    """A section headed by a date: its start, and the finest unit the heading gives."""

    section: IndexedSection
    start: dt.date
    unit: str


def heading_date(heading: str) -> tuple[dt.date, str] | None:
    """The date a heading opens with, and its unit: `2025-06` -> (2025-06-01, month); None when it names none."""
    text = inline_text(heading)
    numeric = _NUMERIC.search(text)
    named = _NAMED.search(text)
    if numeric is None:
        return None
    year = int(numeric.group(1))
    month = int(numeric.group(2)) if numeric.group(2) else None
    day = int(numeric.group(3)) if numeric.group(3) else None
    if month is None and named is not None:
        month = _MONTHS[named.group(1).lower()]
        day = int(named.group(2)) if named.group(2) else None
    try:
        if month is None:
            return dt.date(year, 1, 1), YEAR
        if day is None:
            return dt.date(year, month, 1), MONTH
        return dt.date(year, month, day), DAY
    except ValueError:
        return None


def chronological_sections(index: SectionIndex, doc: str) -> list[Dated] | None:
    """The dated sections of the period unit of a chronological index, newest first; None when the
    document is no such index."""
    sections = [index.candidates[n] for n in index.numbers_of(doc)]
    headed = [s for s in sections if s.heading]
    dated = [Dated(s, *found) for s in headed if (found := heading_date(s.heading)) is not None and s.targets]
    if len(dated) < _DATED_SECTIONS or len(dated) < _DATED_SHARE * len(headed):
        return None
    for unit in (DAY, MONTH, YEAR):
        of_unit = [d for d in dated if d.unit == unit]
        # one section per period: `ACL 2023`, `EMNLP 2023`, `NAACL 2023` list venues, not periods
        starts = {d.start for d in of_unit}
        if len(starts) >= _DATED_SECTIONS and len(starts) >= _DATED_SHARE * len(of_unit):
            return sorted(of_unit, key=lambda d: d.start, reverse=True)
    return None


def note_date(kb: KnowledgeBase, path: str, fallback: dt.date | None) -> dt.date | None:
    """The note's own date from its frontmatter or metadata header (`Date: …` on top), else `fallback`."""
    from kbcheck.digest.gist import header_fields
    from kbcheck.digest.items import front_fields

    fields = front_fields(kb, path)
    if fields is None:
        text = kb.text(path)
        fields = header_fields(text) if text is not None else {}
    for name in DATE_FIELDS:
        value = fields.get(name)
        found = as_date(value)
        if found is not None:
            return found
    return fallback


class AddedDays:
    """The day the range's first commit that added each file was made: a note's date, when it
    states none, as a maintainer reads it in the log (not the day of a later commit that only
    rewrote the living documents). With no `base`, the range is the whole history up to `head`.
    Read with one `git log` when first asked."""

    def __init__(self, repo: Repository, base: str | None, head: str) -> None:
        self.repo, self.base, self.head = repo, base, head
        self._days: dict[str, dt.date] | None = None

    def of(self, path: str) -> dt.date | None:
        if self._days is None:
            self._days = {}
            status, out = git.run(self.repo, "log", "--diff-filter=A", "--no-renames", "--format=%x01%cI",
                                  "--name-only", "-z", f"{self.base}..{self.head}" if self.base else self.head,
                                  check=False)
            for commit in out.decode("utf-8", "surrogateescape").split("\x01")[1:] if status == 0 else ():
                stamp, _, names = commit.partition("\0")
                day = as_date(stamp)
                for name in names.strip("\n").split("\0"):
                    if name and day is not None:
                        self._days[name] = day  # newest first: the last one written is the first commit
        return self._days.get(path)


def restored_day(kb: KnowledgeBase, path: str, added: Callable[[str], dt.date | None], years: int) -> dt.date | None:
    """The note's own date (its fields, else a whole date in its file name, `2018-05-01-….md`) when it
    is more than `years` before the day the note was added (`added`, asked only of a dated note): a backup or a migration bringing back
    old notes, not news."""
    from kbcheck.evidence.head import FILE_DATE

    own = note_date(kb, path, None)
    if own is None:
        found = FILE_DATE.search(PurePosixPath(path).stem)
        own = as_date(_dashed(found.group(0))) if found is not None else None
    if own is None:
        return None
    day = added(path)
    if day is None or (day - own).days <= years * 365.25:
        return None
    return own


def _dashed(digits: str) -> str:
    """`20180501`, `2018_05_01` or `2018.05.01` as `2018-05-01`."""
    plain = re.sub(r"\D", "", digits)
    return f"{plain[:4]}-{plain[4:6]}-{plain[6:8]}"


def as_date(value: object) -> dt.date | None:
    """A date from a YAML date or an ISO text (`2026-04-20`, `2026-04-20T12:00:00+00:00`)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    match = re.match(r"\s*(\d{4})-(\d{1,2})-(\d{1,2})", str(value)) if isinstance(value, str) else None
    if match is None:
        return None
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def _label(day: dt.date, unit: str) -> str:
    return str(day.year) if unit == YEAR else f"{day.year}-{day.month:02d}" if unit == MONTH else day.isoformat()


def _new_heading(newest: Dated, day: dt.date) -> str:
    """The newest section's heading with its date replaced by `day`'s period, when it writes the date
    in figures; else the period as a label."""
    heading = inline_text(newest.section.heading)
    numeric = _NUMERIC.search(heading)
    if numeric is None or (newest.unit != YEAR and numeric.group(2) is None):
        return _label(day, newest.unit)
    written = numeric.group(0)
    out = written.replace(numeric.group(1), str(day.year), 1)
    if numeric.group(2):
        month = f"{day.month:0{len(numeric.group(2))}d}"
        out = out[:len(str(day.year))] + out[len(str(day.year)):].replace(numeric.group(2), month, 1)
    return heading.replace(written, out, 1) if newest.unit != DAY else _label(day, DAY)


def current_period(sections: list[Dated], day: dt.date, doc: str) -> Suggestion:
    """The section of the period `day` falls in, or a new one (module docstring)."""
    unit = sections[0].unit
    period = _label(day, unit)
    for dated in sections:
        same = (dated.start.year == day.year if unit == YEAR else
                (dated.start.year, dated.start.month) == (day.year, day.month) if unit == MONTH else False)
        if same:
            return Suggestion(doc, dated.section.heading, dated.section.line, 1.0, (reason("why.period_current", period=period),))
    if unit == DAY:
        starts = [d.start for d in sections]
        steps = [abs((a - b).days) for a, b in itertools.pairwise(starts) if a != b]
        step = statistics.median(steps) if steps else 7
        for dated in sections:  # newest first: the latest start on or before the day
            if dated.start <= day:
                if (day - dated.start).days < step:
                    return Suggestion(doc, dated.section.heading, dated.section.line, 1.0,
                                      (reason("why.period_current", period=inline_text(dated.section.heading)),))
                break
    newest = sections[0]
    return Suggestion(doc, _new_heading(newest, day), newest.section.line, 1.0, (reason("why.period_new", period=period),))


class Chronology:
    """The chronological indexes among the living documents, found once per digest."""

    def __init__(self, index: SectionIndex) -> None:
        self.indexes: dict[str, list[Dated]] = {}
        for doc in index.documents:
            found = chronological_sections(index, doc)
            if found is not None:
                self.indexes[doc] = found

    def places(self, day: dt.date | None) -> list[Suggestion]:
        """Each index's section for the period of `day` (none without a date)."""
        if day is None:
            return []
        return [current_period(sections, day, doc) for doc, sections in sorted(self.indexes.items())]


__all__ = ["DATE_FIELDS", "AddedDays", "Chronology", "as_date", "chronological_sections", "current_period", "heading_date", "note_date", "restored_day"]
