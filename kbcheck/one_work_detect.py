"""Whether a folder of guides is a folder of notes about one work each, for `kbcheck init`.

Where most notes of a folder name their one work at the head (a venue or
authors under the title, a paper link, a file named after the title and a
year: the shapes of `evidence/head.py`), the folder holds one note per work,
and a note of it whose head is its title alone is about the work its title
names too. Init proposes `one-work-notes` for such a folder and says how many
of its sampled notes showed it (docs/adopting.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kbcheck import git

#: notes sampled per folder, the fewest that can show a habit, and the share that makes it one
SAMPLE = 40
MIN_NOTES = 10
MIN_SHARE = 0.8
#: notes parsed at most over all folders (a collection of a hundred topic folders is read in seconds)
BUDGET = 400


def one_work_folders(repo: git.Repository, guides: list[str], knowledge: list[str]) -> tuple[list[str], str]:
    """The guide globs (`folder/**/*.md`) whose sampled notes mostly name one work, and why
    (`knowledge`: the living documents init proposes, which are no guides)."""
    from kbcheck.config import Config
    from kbcheck.evidence.head import one_work
    from kbcheck.model.cards import frontmatter_fields
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.snapshots import WorktreeSnapshot

    snapshot = WorktreeSnapshot(repo)
    kb = KnowledgeBase(snapshot, Config(guides=tuple(guides), knowledge=tuple(knowledge)))
    chosen: list[str] = []
    said: list[str] = []
    paths = sorted(p for p in snapshot.paths() if p.lower().endswith(".md"))
    per_folder = min(SAMPLE, max(MIN_NOTES, BUDGET // max(1, len(guides))))
    for glob in guides:
        folder = glob.split("/**", 1)[0]
        notes = [p for p in paths if p.startswith(folder + "/") and kb.kind_of(p) == "guide"]
        sample = notes[:: max(1, len(notes) // per_folder)][:per_folder]
        if len(sample) < MIN_NOTES:
            continue
        named = 0
        for path in sample:
            doc = kb.document(path)
            if doc is not None and one_work(doc, kb.resolve(path), frontmatter_fields(kb.text(path) or "")[0],
                                            path).shapes:
                named += 1
        if named >= MIN_SHARE * len(sample):
            chosen.append(glob)
            said.append(f"{named} of {len(sample)} sampled notes in {folder}/")
    more = f" and {len(said) - 3} more folders" if len(said) > 3 else ""
    return chosen, (f"{'; '.join(said[:3])}{more} name their one work at the head: a note there whose head is "
                    "its title alone is about the work its title names")


__all__ = ["one_work_folders"]
