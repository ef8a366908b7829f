"""KB009's did-you-mean index: the same answers as comparing with every name, and the memory of
the groups asked about, not of the folder."""

from __future__ import annotations

import itertools

from kbcheck.links.near import NearNames, _shorter, loose


def _one_letter_apart(a: str, b: str) -> bool:
    """The definition the index answers: the loose keys are equal once at most one letter is
    left out of each (names of four letters or more)."""
    ka, kb = loose(a), loose(b)
    return bool(({ka} | _shorter(ka)) & ({kb} | _shorter(kb)))


def _digits(name: str) -> str:
    return "".join(c for c in loose(name) if c.isdigit())


def _brute(names: list[str], name: str) -> set[str]:
    exact = {n for n in names if loose(n) == loose(name)}
    if exact:
        return exact
    return {n for n in names if n != name and _one_letter_apart(n, name) and _digits(n) == _digits(name)}


NAMES = [
    "point_pillars.md", "PointPillars.md", "pointpilars.md", "voxelnet.md", "voxel-net-v2.md", "voxelnets.md",
    "2301.12345.md", "2301.12346.md", "2301.1234.md", "paper_notes", "paper_note", "papers_notes", "abc.md",
    "abd.md", "notes.md", "ontes.md", "snote.md", "note.md", "readme.md", "read-me.md", "readme2.md",
]
QUESTIONS = [
    "pointpillar.md", "Point Pillars.md", "voxelnet2.md", "voxelnt.md", "2301.12347.md", "2301.1235.md",
    "paper_nots", "papernotes", "abe.md", "notse.md", "nots.md", "readm.md", "readme3.md", "unrelated.md",
    "voxelnets.md", "xoxelnet.md",
]


def _tree(entries: list[str]) -> NearNames:
    """The index over these files, with their folders existing too (as git's tree has them)."""
    there = set(entries) | {path.rsplit("/", i)[0] for path in entries for i in range(1, path.count("/") + 1)}
    return NearNames(sorted(entries), there.__contains__)


def test_near_names_answer_as_a_comparison_with_every_name() -> None:
    near = _tree([f"notes/{n}" for n in NAMES])
    for question in QUESTIONS:
        assert set(near._near_in("notes", question)) == _brute(NAMES, question), question


def test_a_typo_finds_its_file_and_another_number_does_not() -> None:
    near = _tree(["cards/2301.12345.md", "cards/pointpillars.md", "guides/setup.md"])
    assert near.meant("cards/point_pilars.md") == "cards/pointpillars.md"
    assert near.meant("card/2301.12345.md") == "cards/2301.12345.md"
    assert near.meant("cards/2301.12346.md") is None


def test_one_question_in_a_large_numbered_folder_indexes_few_names() -> None:
    near = _tree([f"cards/{i:05d}-{j:04d}.md" for i, j in itertools.product(range(2000), range(5))])
    assert near.meant("cards/00017-0003.mdx") is None
    assert near.meant("card/00017-0003.md") == "cards/00017-0003.md"
    held = sum(len(index) for index in near._neighbourhoods.values())
    # the groups of that one number's length and digits, not the 10,000 names times their variants
    assert 0 < held < 40
