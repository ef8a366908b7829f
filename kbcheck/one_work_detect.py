"""Whether a folder of guides is a folder of notes about one work each, for `kbcheck init`.

Where most notes of a folder name their one work at the head (a venue or
authors under the title, a paper link, a file named after the title and a
year: the shapes of `evidence/head.py`), the folder holds one note per work,
and a note of it whose head is its title alone is about the work its title
names too. Init proposes `one-work-notes` for such a folder and says how many
of its sampled notes showed it (docs/adopting.md); a folder of fewer than
`MIN_NOTES` notes is judged with the folders beside it.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.snapshots import Snapshot

#: notes sampled per folder, the fewest that can show a habit, and the share that makes it one
SAMPLE = 40
MIN_NOTES = 10
MIN_SHARE = 0.8
#: notes parsed at most over all folders (a collection of a hundred topic folders is read in seconds)
BUDGET = 400


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
        if sampled < MIN_NOTES:
            named, sampled = pooled[posixpath.dirname(folder)]
            where = f"the folders beside {folder}/"
        else:
            where = f"{folder}/"
        if sampled >= MIN_NOTES and named >= MIN_SHARE * sampled:
            chosen.append(glob)
            said.append(f"{named} of {sampled} sampled notes in {where}")
    more = f" and {len(said) - 3} more folders" if len(said) > 3 else ""
    return chosen, (f"{'; '.join(said[:3])}{more} name their one work at the head: a note there whose head is "
                    "its title alone is about the work its title names")


def _names_one_work(kb: KnowledgeBase, path: str) -> bool:
    from kbcheck.evidence.head import one_work
    from kbcheck.model.cards import frontmatter_fields

    doc = kb.document(path)
    return doc is not None and bool(one_work(doc, kb.resolve(path), frontmatter_fields(kb.text(path) or "")[0],
                                             path).shapes)


__all__ = ["one_work_folders"]
