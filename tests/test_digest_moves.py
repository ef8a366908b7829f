"""A note moved to another folder and rewritten there is one note moved, not a deletion and an
addition (hand-written fixtures in the shape of a paper-notes collection: one folder per paper
holding a README, a template copy filled in after it moved)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kbcheck.cli import main
from kbcheck.digest.moves import paired_moves
from kbcheck.git import Change
from tests.gitrepo import GitRepo
from tests.kbtools import mapping

CONFIG = mapping(["overview/*.md"], ["papers/**/*.md", "surveys/**/*.md"])
OVERVIEW = "# Decoding\n\n## Methods\n\nBeam search and sampling.\n"
TEMPLATE = "# Tree Drafts\n\n## Abstract\n\n### Method\n\n### Results\n\n## Reviews\n"
FILLED = """# Tree Drafts

## Abstract

The note reads a paper that builds a tree of draft continuations and verifies each branch in
one pass of the target model, so that long prefixes are accepted at once.

## Results

Accepted prefixes are twice as long on four benchmarks, at the same output quality.

[Decoding](../../overview/decoding.md)
"""


def _digest(base: str, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    return {i["path"]: i for i in json.loads(capsys.readouterr().out)["items"]}


def _moved(repo: GitRepo, old: str, new: str, extra: dict[str, str] | None = None) -> str:
    repo.write_many({".kbcheck.toml": CONFIG, "overview/decoding.md": OVERVIEW, old: TEMPLATE, **(extra or {})})
    base = repo.commit_all("base", author="tom")
    repo.delete(old)
    repo.write(new, FILLED)
    repo.commit_all("move and fill", author="tom")
    return base


def test_a_template_moved_and_filled_in_is_one_note_modified(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = _moved(git_repo, "papers/Tree Drafts/README.md", "surveys/Tree Drafts/README.md",
                  {"papers/Beam Search/README.md": "# Beam Search\n\nKeeps the k best prefixes.\n"})
    items = _digest(base, capsys)
    assert "papers/Tree Drafts/README.md" not in items
    item = items["surveys/Tree Drafts/README.md"]
    assert (item["change"], item["old_path"]) == ("modified", "papers/Tree Drafts/README.md")
    assert (item["class"], item["reason"]) == ("increment", "modified: body changed")


def test_a_distinctive_file_name_moved_is_one_note(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = _moved(git_repo, "papers/tree-drafts.md", "surveys/tree-drafts.md")
    item = _digest(base, capsys)["surveys/tree-drafts.md"]
    assert (item["change"], item["old_path"]) == ("modified", "papers/tree-drafts.md")


def test_notes_of_different_folders_sharing_a_common_name_stay_a_deletion_and_an_addition(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = _moved(git_repo, "papers/Tree Drafts/README.md", "surveys/Beam Search/README.md")
    items = _digest(base, capsys)
    assert items["papers/Tree Drafts/README.md"]["change"] == "deleted"
    assert items["surveys/Beam Search/README.md"]["change"] == "added"


def test_a_name_another_file_holds_pairs_nothing() -> None:
    changes = [Change("D", "a/notes.md"), Change("A", "b/notes.md")]
    # a third `notes.md` in the tree: the name says nothing of which note moved
    trees = ["a/notes.md", "b/notes.md", "c/notes.md"]
    assert paired_moves(changes, lambda: trees[:1] + trees[2:], lambda: trees[1:]) == changes


def test_two_deleted_and_two_added_of_one_name_are_not_guessed_apart() -> None:
    changes = [Change("D", "a/x/README.md"), Change("D", "b/x/README.md"), Change("A", "c/x/README.md"),
               Change("A", "d/x/README.md")]
    paths = [c.path for c in changes]
    assert paired_moves(changes, lambda: paths[:2], lambda: paths[2:]) == changes


def test_a_pair_becomes_one_rename_in_place() -> None:
    changes = [Change("M", "o.md"), Change("D", "a/t.md"), Change("A", "b/t.md")]
    assert paired_moves(changes, lambda: ["o.md", "a/t.md"], lambda: ["o.md", "b/t.md"]) == [
        Change("M", "o.md"), Change("R", "b/t.md", old_path="a/t.md")]
