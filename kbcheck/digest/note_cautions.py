"""Cautions from reading a note, as a hand-written brief gives them for notes as for cards.

- **One id under two titles**: the paper a note about one work stands for (its frontmatter, title
  heading or head names exactly one) is also the paper of other such notes with another title (a
  paper link copied from a template): one of them names the wrong paper. Under the same title, it
  is **a second note on one paper** (a note filed twice, a copy under another folder).
- **A namesake**: an added note whose file name (without its suffix, case, a year standing alone
  and separators aside: `2001-the-elements-of-statistical-learning.md` and
  `2003-the-elements-of-statistical-learning.md`) is long enough to name one work
  (`moves.work_key`) is the name of another note: a
  second note on the same work (a paper noted under two venues or two years, a course's folder
  copied), or one to merge. A folder's own page (`README.md`) names no work; a note whose
  near-copy, or second note on its paper id, the digest already names is not told again.
- **Back-filled**: the note's paper (an arXiv id tells its month; not an id under two titles,
  which may be another paper's) is older than
  `backfill-age-years` at the note's date (frontmatter `date`, `created`, `added`, `collected`,
  else the day the range's first commit that added it was made, else the head commit's): not
  news, and newer work may have overtaken it. Not said where back-filling is the habit: when more
  than half of the other dated notes filed in the note's folder (`moves.note_folder`; at least
  five of them, dated as above, a note older than the range by the history's first commit that
  added it) are back-filled too (a folder of classics). A caution marks what is unusual, and what
  most of a folder's notes do is not. Said in a knowledge base without living documents too: a
  note there is a note to read, and its reader wants to know the paper is old.
- **A year the id rules out**: the note gives its paper a year (frontmatter `year`, a `Year:` line or a
  table column headed `Year` under the title, `model.particulars.stated_year`) more than
  `YEAR_SLACK` away from its arXiv id's (a venue's year may follow its preprint's by one, and a
  preprint sent at the year's turn is numbered for the next): the year, or the paper link, is
  wrong. Not said beside an id under two titles, which says the id may be wrong already.
- **A paragraph written twice**: a paragraph of at least `REPEATED_WORDS` words (a CJK word per
  two characters) that the note writes again word for word (spaces aside) further down: a paste
  or a draft to tidy up. Short lines (`See above.`) and formulas written as text repeat on purpose.
- **Unread**: the note says it was not read (`read_status: unread`, `reading_status: TBD`,
  `status: to-read`) or marks itself possibly outdated (`possibly_outdated: true`, said only when
  the back-fill caution does not already say it): its text is not its author's reading.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbcheck.digest.chronology import note_date
from kbcheck.digest.model import ADDED, DELETED, Item
from kbcheck.digest.moves import INDEX_STEMS, work_key
from kbcheck.digest.phrases import plural, say
from kbcheck.evidence.discussed import SEPARATORS
from kbcheck.evidence.head import FILE_YEAR
from kbcheck.model.document import file_title, word_count
from kbcheck.model.knowledge_base import BRIEF, GUIDE
from kbcheck.model.particulars import stated_year
from kbcheck.regex import lazy

if TYPE_CHECKING:
    import datetime as dt

    from kbcheck.config import Config
    from kbcheck.digest.chronology import AddedDays
    from kbcheck.model.knowledge_base import KnowledgeBase

#: fields that record whether a note was read, and the values that say it was not
READ_FIELDS = ("read_status", "reading_status", "reading", "status")
UNREAD_VALUES = frozenset({"unread", "tbd", "to-read", "to read", "toread", "todo", "not read", "unreviewed", "未读",
                           "待读"})
OUTDATED_FIELDS = ("possibly_outdated", "outdated")
_TWINS_SHOWN = 2
#: back-filling is a folder's habit when more than this share of its other dated notes is back-filled ...
HABIT_SHARE = 0.5
#: ... and at least this many of them are dated (fewer tell no habit)
HABIT_NOTES = 5
#: a paper's year may differ from its id's by one (an ICLR paper posted the autumn before; a
#: preprint sent on 31 December is numbered for January); by more, the year or the id is wrong
YEAR_SLACK = 1
#: a paragraph this long written twice is a paste, not a refrain (`Conclusion: see above.` may repeat)
REPEATED_WORDS = 12
#: a formula written as text (`[ V^\pi(s) = \sum … ]`) is restated on purpose, as a derivation does
_FORMULA = lazy(r"\\[A-Za-z]+")
_ARXIV = lazy(r"^\d{4}\.\d{4,5}$")


def _shown(paths: list[str]) -> str:
    return ", ".join(paths[:_TWINS_SHOWN]) + (f" +{len(paths) - _TWINS_SHOWN}" if len(paths) > _TWINS_SHOWN else "")


def _file_name(path: str) -> str | None:
    """A note's file name as a key (casefolded; a year standing alone left out, as a bibliography
    files a work under its year; every run of separators one space), when it is long enough to name
    one work (`moves.work_key`)."""
    stem = posixpath.splitext(posixpath.basename(path))[0].casefold()
    if stem in INDEX_STEMS:
        return None
    return work_key(FILE_YEAR.sub(" ", stem))


def _same_title(a: str, b: str) -> bool:
    return SEPARATORS.sub("", a).lower() == SEPARATORS.sub("", b).lower()


class NoteCautions:
    """What reading the knowledge base's notes tells about a changed one (module docstring)."""

    def __init__(self, kb: KnowledgeBase, config: Config, head_day: dt.date | None,
                 added: AddedDays | None = None, history: AddedDays | None = None) -> None:
        self.kb = kb
        self.config = config
        self.head_day = head_day
        #: the day each file was first added in the range, and in the whole history (`chronology.AddedDays`)
        self.added, self.history = added, history
        self._by_id: dict[str, list[str]] | None = None
        self._sole: dict[str, str] = {}
        self._habits: dict[str, dict[str, bool]] = {}
        self._by_name: dict[str, list[str]] | None = None

    def _sole_id(self, path: str) -> str | None:
        """The paper a note about one work stands for (`kbcheck.evidence.head.one_work`), else None."""
        from kbcheck.digest.items import front_fields
        from kbcheck.evidence.head import one_work

        own = self.kb.note_id(path)
        if own is not None:
            return own[1] if own[0] in ("arxiv", "doi") else None
        doc = self.kb.document(path)
        if doc is None:
            return None
        head = one_work(doc, self.kb.resolve(path), front_fields(self.kb, path))
        ids = {c.id for c in head.citations if c.kind in ("arxiv", "doi")}
        return next(iter(ids)) if len(ids) == 1 else None

    def _read_ids(self) -> None:
        if self._by_id is None:
            self._by_id = {}
            for path in self.kb.paths_of_kind(GUIDE, BRIEF):
                sole = self._sole_id(path)
                if sole is not None:
                    self._by_id.setdefault(sole, []).append(path)
                    self._sole[path] = sole

    @property
    def by_id(self) -> dict[str, list[str]]:
        """paper id -> the notes whose one paper id it is."""
        self._read_ids()
        assert self._by_id is not None
        return self._by_id

    @property
    def soles(self) -> dict[str, str]:
        """note path -> the one paper id it stands for, for the notes that stand for one."""
        self._read_ids()
        return self._sole

    def of(self, item: Item, lang: str, copies: Sequence[str] = ()) -> list[str]:
        """The cautions of a changed note (none for cards, living documents and deleted files);
        `copies` are the notes the digest already names as its near-copies."""
        if item.change == DELETED or item.kind not in (GUIDE, BRIEF) or not item.consumed:
            return []
        sole = self._sole_id(item.path)
        out, same = self._twins(item, sole, lang) if sole is not None else ([], [])
        # an id another note claims under another title may be the wrong paper's: no date is read from it
        backfilled = None if out else self._backfilled(item, sole, lang)
        if not out and sole is not None:
            out += self._year_off(item.path, sole, lang)
        out += same
        if not out and item.change == ADDED and item.copy_of is None:
            out += self._namesakes(item, lang, copies)
        if backfilled:
            out.append(backfilled)
        if not item.stub:  # an empty note's reason says there is nothing in it to read or cite
            out += self._unread(item, lang, bool(backfilled))
        out += self._repeated(item.path, lang)
        return out

    def _repeated(self, path: str, lang: str) -> list[str]:
        """The caution of the first paragraph the note writes twice, word for word (module docstring)."""
        doc = self.kb.document(path)
        first: dict[str, int] = {}
        for block in doc.blocks if doc is not None else ():
            if block.kind != "paragraph" or word_count(block.text) < REPEATED_WORDS or _FORMULA.search(block.text):
                continue
            text = " ".join(block.text.split())
            if text in first:
                return [say(lang, "caution.repeated", line=block.line, first=first[text])]
            first[text] = block.line
        return []

    def _twins(self, item: Item, sole: str, lang: str) -> tuple[list[str], list[str]]:
        """The cautions of the other notes on the item's paper: those under another title (one names
        the wrong paper) and, when there are none, those under the same title (a second note)."""
        others, copies = [], []
        mine = file_title(self.kb.document(item.path), item.path)
        for path in self.by_id.get(sole, ()):
            if path == item.path:
                continue
            title = file_title(self.kb.document(path), path)
            if _same_title(title, mine):
                copies.append(path)
            else:
                others.append(f"{path}（{title}）" if lang == "zh" else f"{path} ({title})")
        display = f"arXiv:{sole}" if _ARXIV.match(sole) else sole
        if others:
            return [say(lang, "caution.id_twins", id=display, others=_shown(others))], []
        # a second note under the same title: the same paper noted twice (a copy, a note filed twice)
        second = [say(lang, "caution.same_paper", id=display, others=_shown(copies))] if copies else []
        return [], second

    def _year_off(self, path: str, sole: str, lang: str) -> list[str]:
        """The caution of a year the note gives its paper that its arXiv id rules out (module docstring)."""
        from kbcheck.digest.items import front_fields
        from kbcheck.digest.placement import paper_month

        published = paper_month(sole) if _ARXIV.match(sole) else None
        doc = self.kb.document(path)
        year = stated_year(doc, front_fields(self.kb, path)) if published is not None and doc is not None else None
        if year is None or published is None or abs(year - published.year) <= YEAR_SLACK:
            return []
        return [say(lang, "caution.year_off", year=year, id=f"arXiv:{sole}", published=published.strftime("%Y-%m"))]

    def _namesakes(self, item: Item, lang: str, copies: Sequence[str]) -> list[str]:
        """The caution of the other notes under the item's file name, when that name names one work."""
        name = _file_name(item.path)
        if name is None:
            return []
        if self._by_name is None:
            self._by_name = {}
            for path in self.kb.paths_of_kind(GUIDE, BRIEF):
                key = _file_name(path)
                if key is not None:
                    self._by_name.setdefault(key, []).append(path)
        others = [p for p in self._by_name.get(name, ()) if p != item.path and p not in copies]
        return [say(lang, "caution.namesake", others=_shown(others))] if others else []

    def _backfilled(self, item: Item, sole: str | None, lang: str) -> str | None:
        if item.change != ADDED or sole is None or not _ARXIV.match(sole):
            return None
        dates = self._dates(item.path, sole, self.added)
        if dates is None or not self._older(*dates) or self._habitual(item.path):
            return None
        published, noted = dates
        return say(lang, "caution.backfilled_note", published=published.strftime("%Y-%m"), noted=noted.isoformat(),
                   years=self.config.backfill_age_years, s=plural(self.config.backfill_age_years))

    def _dates(self, path: str, sole: str, added: AddedDays | None) -> tuple[dt.date, dt.date] | None:
        """The month of the note's paper (arXiv id `sole`) and the note's date: its fields, else the
        day `added` says it was added, else the head commit's; None when either is unknown."""
        from kbcheck.digest.placement import paper_month

        published = paper_month(sole)
        noted = note_date(self.kb, path, (added.of(path) if added is not None else None) or self.head_day)
        return (published, noted) if published is not None and noted is not None else None

    def _older(self, published: dt.date, noted: dt.date) -> bool:
        return (noted - published).days / 365.25 > self.config.backfill_age_years

    def _habitual(self, path: str) -> bool:
        """Whether back-filling is the habit of the folder `path` is filed in (module docstring)."""
        from kbcheck.digest.moves import note_folder

        others = [old for other, old in self._folder_ages(note_folder(path)).items() if other != path]
        return len(others) >= HABIT_NOTES and sum(others) > HABIT_SHARE * len(others)

    def _folder_ages(self, folder: str) -> dict[str, bool]:
        """Each dated note on one arXiv paper filed in `folder` -> whether it is back-filled (read once
        per folder; the note asking is left out by `_habitual`, so the answer is the same whichever asks)."""
        from kbcheck.digest.moves import note_folder

        if folder not in self._habits:
            ages: dict[str, bool] = {}
            for other, sole in self.soles.items():
                if note_folder(other) == folder and _ARXIV.match(sole):
                    dates = self._dates(other, sole, self.history)
                    if dates is not None:
                        ages[other] = self._older(*dates)
            self._habits[folder] = ages
        return self._habits[folder]

    def _unread(self, item: Item, lang: str, backfilled: bool) -> list[str]:
        from kbcheck.digest.items import front_fields

        fields = front_fields(self.kb, item.path)
        out: list[str] = []
        for name in READ_FIELDS:
            value = (fields or {}).get(name)
            if isinstance(value, str) and value.strip().lower() in UNREAD_VALUES:
                out.append(say(lang, "caution.unread", field=name, value=value.strip()))
                break
        if not backfilled:
            for name in OUTDATED_FIELDS:
                if (fields or {}).get(name) is True:
                    out.append(say(lang, "caution.outdated", field=name))
                    break
        return out


__all__ = ["OUTDATED_FIELDS", "READ_FIELDS", "UNREAD_VALUES", "NoteCautions"]
