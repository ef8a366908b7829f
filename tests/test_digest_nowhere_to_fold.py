"""A knowledge base with no living document has nowhere to fold a note: its new and changed notes
are notes to read, not increments, unless a note links a page still to be written (hand-written
fixtures in the shape of a one-note-per-paper collection and of a collection before its pages)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kbcheck.cli import main
from tests.gitrepo import GitRepo
from tests.kbtools import mapping

NOTES_ONLY = mapping([], ["papers/**/README.md"])
WITH_OVERVIEW = NOTES_ONLY.replace("knowledge = []", 'knowledge = ["overview/*.md"]')
NOTE = """# Draft and Verify

[paper link](https://arxiv.org/abs/2302.01318)

## Idea

A small draft model proposes four tokens and the large model checks them in one pass.
"""
OTHER_NOTE = """# Tree Attention

[paper link](https://arxiv.org/abs/2401.02222)

## Idea

Candidate continuations are arranged as a tree and verified together.
"""
OVERVIEW = "# Decoding\n\n## Methods\n\nBeam search and sampling.\n"
UNFOLDED = "a note to read: the knowledge base keeps no living documents to fold it into"


def _digest(base: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def _notes_land(git_repo: GitRepo, config: str, base_files: dict[str, str] | None = None,
                draft: str = NOTE) -> str:
    git_repo.write_many({".kbcheck.toml": config, "papers/tree/README.md": OTHER_NOTE, **(base_files or {})})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"papers/draft/README.md": draft,
                         "papers/tree/README.md": OTHER_NOTE + "\nIt reuses the draft's cache.\n"})
    git_repo.commit_all("notes", author="tom")
    return base


def _items(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {i["path"]: i for i in document["items"]}


def test_without_living_documents_new_and_changed_notes_are_notes_to_read(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    document = _digest(_notes_land(git_repo, NOTES_ONLY), capsys)
    items = _items(document)
    assert (items["papers/draft/README.md"]["class"], items["papers/draft/README.md"]["reason"]) == ("review", UNFOLDED)
    assert (items["papers/tree/README.md"]["class"], items["papers/tree/README.md"]["reason"]) == (
        "review", f"{UNFOLDED} (body changed)")
    assert document["counts"] == {"increment": 0, "review": 2, "living-doc": 0}
    assert document["merge_actions"] == []


def test_with_a_living_document_the_same_notes_are_increments(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(_digest(_notes_land(git_repo, WITH_OVERVIEW, {"overview/decoding.md": OVERVIEW}), capsys))
    assert (items["papers/draft/README.md"]["class"], items["papers/draft/README.md"]["reason"]) == (
        "increment", "new material: arXiv:2302.01318 is absent from the living documents")
    assert items["papers/tree/README.md"]["class"] == "increment"


def test_before_any_page_a_note_linking_a_page_to_write_proposes_it(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the living documents' globs are set, no page exists yet: the collection before its first page
    linking = NOTE + "\nSee [speculation](../../overview/speculation.md).\n"
    document = _digest(_notes_land(git_repo, WITH_OVERVIEW, draft=linking), capsys)
    items = _items(document)
    assert items["papers/draft/README.md"]["class"] == "increment"
    assert items["papers/tree/README.md"]["class"] == "review"  # it names no page to write
    assert [a["path"] for a in document["merge_actions"]] == ["overview/speculation.md"]


def test_the_markdown_lists_them_under_review_in_chinese(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = _notes_land(git_repo, NOTES_ONLY)
    assert main(["digest", "--since", base, "--lang", "zh"]) == 0
    text = capsys.readouterr().out
    assert "待阅读：知识库没有可归入的活文档" in text
    assert "a note to read" not in text
