"""Near-copies (`kbcheck.digest.near_copy`): an added note that is a note already there but for a
line or two is review, "near-copy of …"; two notes filled in from one template are not copies."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kbcheck.cli import main
from kbcheck.digest.near_copy import MIN_LINES, body_lines, near_copies
from tests.gitrepo import GitRepo
from tests.kbtools import mapping

CONFIG = mapping(["overview/*.md"], ["notes/**/*.md"])
OVERVIEW = "# Overview\n\n## Hardware\n\nChips and how they got faster.\n"

LECTURE = """Title: A golden age for chips
Date: 2026-10-01 22:08
Status: draft
Summary: Why specialised chips are back.

The lecture looks back at sixty years of processor design.

## History

- Mainframes shared one instruction set across a product line.
- Microcode made complex instructions cheap to add.
- Reduced instruction sets won once compilers did the work.
- Very long instruction words needed compilers that never came.

## Now

- Single-thread speed grows a few percent a year.
- Domain-specific chips are where the gains are.
"""

TEMPLATE = """# {title}

## Problem

{problem}

## Method

{method}

## Results

{results}

## Questions

- What is the baseline?
- What does it cost?
- Does it scale to larger inputs?
- Is the code released?
- Which datasets were used?
- What would a reviewer ask first?
"""


def filled(title: str, word: str) -> str:
    return TEMPLATE.format(title=title, problem=f"How to {word} the data.", method=f"A {word} network.",
                           results=f"The {word} network wins on two benchmarks.")


def _items(repo: GitRepo, before: dict[str, str], new: dict[str, str],
           capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    repo.write_many({".kbcheck.toml": CONFIG, "overview/a.md": OVERVIEW, **before})
    base = repo.commit_all("base", author="tom")
    # the overview lists the new notes among its sources: each has somewhere to go
    sources = "".join(f"- [{path}](../{path})\n" for path in new)
    repo.write_many({**new, "overview/a.md": f"{OVERVIEW}\n## References\n\n{sources}"})
    repo.commit_all("new", author="tom")
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    items: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["items"]
    return {i["path"]: i for i in items}


def test_an_added_copy_with_one_line_changed_is_a_near_copy(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    copy = LECTURE.replace("Status: draft\n", "")
    items = _items(git_repo, {"notes/golden-age.md": LECTURE}, {"notes/golden-age-history.md": copy}, capsys)
    item = items["notes/golden-age-history.md"]
    assert (item["class"], item["reason"]) == (
        "review", "near-copy of notes/golden-age.md: the same text but for a line or two, not new material")


def test_two_copies_added_together_leave_the_shorter_path_as_the_original(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(git_repo, {}, {"notes/golden-age.md": LECTURE,
                                  "notes/golden-age-no1.md": LECTURE.replace("a few percent", "three percent")}, capsys)
    assert items["notes/golden-age-no1.md"]["reason"].startswith("near-copy of notes/golden-age.md")
    assert items["notes/golden-age.md"]["class"] == "increment"
    # the original says it was copied: a reader of its item sees the pair
    assert [w for w in items["notes/golden-age.md"]["warnings"] if w.startswith("copied")] == [
        "copied in this range: notes/golden-age-no1.md, the same text but for a line or two; one of them may be "
        "enough"]
    assert not [w for w in items["notes/golden-age-no1.md"]["warnings"] if w.startswith("copied")]


def test_an_original_copied_in_the_range_says_so_and_a_note_with_no_copy_does_not(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    before = {"notes/golden-age.md": LECTURE, "notes/seg.md": filled("Segmenting", "segment")}
    items = _items(git_repo, before, {"notes/golden-age-history.md": LECTURE.replace("Status: draft\n", ""),
                                      "notes/golden-age.md": LECTURE + "\nOne more line on the end of scaling.\n",
                                      "notes/det.md": filled("Detecting", "detect")}, capsys)
    assert [w[:28] for w in items["notes/golden-age.md"]["warnings"] if w.startswith("copied")] == [
        "copied in this range: notes/"]
    assert not [w for w in items["notes/det.md"]["warnings"] if w.startswith("copied")]


def test_two_notes_filled_from_one_template_are_not_copies(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(git_repo, {"notes/seg.md": filled("Segmenting", "segment")},
                   {"notes/det.md": filled("Detecting", "detect")}, capsys)
    item = items["notes/det.md"]
    assert item["class"] == "increment"
    assert "near-copy" not in item["reason"]


def test_the_measure() -> None:
    lines = body_lines(LECTURE)
    assert "status: draft" not in lines  # the metadata header is no body
    assert "## history" not in lines  # nor are headings: a template shares them
    assert "- mainframes shared one instruction set across a product line." in lines
    assert len(lines) >= MIN_LINES
    assert near_copies(lines, body_lines(LECTURE.replace("a few percent", "three percent")))
    # a stub and a note from the same template share too few lines
    assert not near_copies(body_lines("# A\n\nText.\n"), body_lines("# A\n\nText.\n"))
    assert not near_copies(body_lines(filled("A", "segment")), body_lines(filled("B", "detect")))
