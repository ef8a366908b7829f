"""Whether a folder of guides is a folder of notes about one work each, for `kbcheck init`.

Where most notes of a folder name their one work at the head (a venue or
authors under the title, a paper link, a file named after the title and a
year: the shapes of `evidence/head.py`), the folder holds one note per work,
and a note of it whose head is its title alone is about the work its title
names too. Init proposes `one-work-notes` for such a folder and says how many
of its sampled notes showed it (docs/adopting.md); a folder of fewer than
`MIN_NOTES` notes is judged with the folders beside it.

A folder the collection names as notes on one kind of work (`BookNotes/`,
`Course Notes/`, `paper-notes/`, `论文笔记/`), or as papers (`papers/`,
`ResearchPapers/`), says the same by its name: its notes are filed one per
book, course or paper, whatever their heads show. A folder of notes on
something else (`ProjectNotes/`, `dataset-notes/`) or of the author's own
writing (`articles/`) says nothing.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from kbcheck.i18n import _, clauses, ngettext
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from collections.abc import Iterable

    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.snapshots import Snapshot

#: notes sampled per folder, the fewest that can show a habit, and the share that makes it one
SAMPLE = 40
MIN_NOTES = 10
MIN_SHARE = 0.8
#: notes parsed at most over all folders (a collection of a hundred topic folders is read in seconds)
BUDGET = 400
#: a folder named as notes on one kind of work, its words split (`BookNotes` → `book notes`)
_WORK_NOTES = lazy(r"(?:^|[^a-z])(?:(?:papers?|books?|courses?|lectures?|talks?|articles?|chapters?)[\s_-]*notes?"
                   r"|papers)$|(?:论文|读书|书籍|课程|讲座)笔记$")
_CAMEL = lazy(r"(?<=[a-z])(?=[A-Z])")


def one_work_folders(snapshot: Snapshot, guides: list[str], knowledge: list[str]) -> tuple[list[str], str]:
    """The guide globs (`folder/**/*.md`) whose sampled notes mostly name one work, and why
    (`knowledge`: the living documents init proposes, which are no guides)."""
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import GUIDE, KnowledgeBase

    kb = KnowledgeBase(snapshot, Config(guides=tuple(guides), knowledge=tuple(knowledge)))
    paths = sorted(p for p in snapshot.paths() if p.lower().endswith(".md"))
    per_folder = min(SAMPLE, max(MIN_NOTES, BUDGET // max(1, len(guides))))
    counts: dict[str, tuple[int, int]] = {}  # glob -> (notes naming one work, notes sampled)
    for glob in guides:
        if glob.startswith("!"):  # a negation takes files out of a folder; it names none of its own
            continue
        folder = glob.split("/**", 1)[0]
        notes = [p for p in paths if p.startswith(folder + "/") and kb.kind_of(p) == GUIDE]
        sample = notes[:: max(1, len(notes) // per_folder)][:per_folder]
        named = sum(1 for path in sample if _names_one_work(kb, path))
        counts[glob] = (named, len(sample))
    # a folder too small to show a habit takes its sibling folders' (`docs/ACL/robotics` beside
    # `docs/ACL/retrieval`): one collection, one way of writing a note
    pooled: dict[str, tuple[int, int]] = {}
    for glob, (named, sampled) in counts.items():
        parent = posixpath.dirname(glob.split("/**", 1)[0])
        total = pooled.get(parent, (0, 0))
        pooled[parent] = (total[0] + named, total[1] + sampled)
    chosen: list[str] = []
    said: list[str] = []
    for glob, (named, sampled) in counts.items():
        folder = glob.split("/**", 1)[0]
        pooled_in = sampled < MIN_NOTES
        if pooled_in:
            named, sampled = pooled[posixpath.dirname(folder)]
        if sampled >= MIN_NOTES and named >= MIN_SHARE * sampled:
            chosen.append(glob)
            said.append(_("{named} of {sampled} sampled notes in the folders beside {folder}/", named=named,
                          sampled=sampled, folder=folder) if pooled_in else
                        _("{named} of {sampled} sampled notes in {folder}/", named=named, sampled=sampled,
                          folder=folder))
    why: str = ""
    if said:
        shown = clauses(said[:3]) if len(said) <= 3 else _("{folders} and {more} more folders",
                                                           folders=clauses(said[:3]), more=len(said) - 3)
        why = _("{folders} name their one work at the head: a note there whose head is its title alone is about "
                "the work its title names", folders=shown)
    by_name = _named_for_works(p for p in paths if kb.kind_of(p) == GUIDE)
    if by_name:
        # a folder named for works covers the globs of its sub-folders
        chosen = [*(g for g in chosen if not any(g.startswith(f + "/") for f in by_name)),
                  *(f"{f}/**/*.md" for f in by_name)]
        chosen.sort()
        folders = ", ".join(f"{f}/" for f in by_name[:3])
        named_for = (ngettext("{folders} is named as notes on one kind of work: each note there is about the work "
                              "its title names",
                              "{folders} are named as notes on one kind of work: each note there is about the work "
                              "its title names", len(by_name), folders=folders) if len(by_name) <= 3 else
                     _("{folders} and {more} more are named as notes on one kind of work: each note there is about "
                       "the work its title names", folders=folders, more=len(by_name) - 3))
        why = clauses([why, named_for]) if why else named_for
    return chosen, why


def _named_for_works(guides: Iterable[str]) -> list[str]:
    """The shallowest folders, among the guides' folders, whose name says they hold notes on one kind of work."""
    named: set[str] = set()
    for path in guides:
        parts = path.split("/")[:-1]
        for depth, part in enumerate(parts, 1):
            if _WORK_NOTES.search(_CAMEL.sub(" ", part).lower()):
                named.add("/".join(parts[:depth]))
                break
    return sorted(named)


def _names_one_work(kb: KnowledgeBase, path: str) -> bool:
    from kbcheck.evidence.head import one_work
    from kbcheck.model.cards import frontmatter_fields

    doc = kb.document(path)
    return doc is not None and bool(one_work(doc, kb.resolve(path), frontmatter_fields(kb.text(path) or "")[0],
                                             path).shapes)


__all__ = ["one_work_folders"]
