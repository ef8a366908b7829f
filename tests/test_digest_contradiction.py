"""A number the note and a living document state differently about the same work is a caution; one
that agrees, that is about another work, or that either side states several ways is not
(hand-written fixtures shaped like a wiki's source note and the concept page citing it)."""

from __future__ import annotations

import json

import pytest

from kbcheck.cli import main
from kbcheck.digest.contradiction import quantities
from tests.gitrepo import GitRepo
from tests.test_digest_real_history import WIKI_CONFIG


@pytest.mark.parametrize("text, found", [
    ("the target has 24 layers", {"layers": {24.0: "24 layers"}}),
    ("草稿模型只有 6 层", {"layers": {6.0: "6 层"}}),
    ("a 7B-parameter model", {"parameters": {7e9: "7B-parameter"}}),
    ("70亿参数", {"parameters": {7e9: "70亿参数"}}),
    ("ResNet-50 on 8 GPUs", {"GPUs": {8.0: "8 GPUs"}}),
    ("3 players and 2 playoffs", {}),
])
def test_counted_things_are_read_with_their_magnitude(text: str, found: dict[str, dict[float, str]]) -> None:
    assert quantities([text]) == found


PAGE = """# Speculative Decoding

## Description

The draft model of DraftLM ([[chen-2023-draft-2302-01318]]) has 6 层, verified by the target in one pass.

Other drafts, as in [[li-2024-tree-2401-02222]], use 2 layers.

The BigTarget model, the target in [[chen-2023-draft-2302-01318]], has 96 layers.

## Sources

- [[chen-2023-draft-2302-01318]]
"""
NOTE = """---
title: "DraftLM: accelerating decoding with drafts"
arxiv_id: 2302.01318
---

# DraftLM: accelerating decoding with drafts

The draft model has {layers} and proposes four tokens per step.
"""


def _warnings(git_repo: GitRepo, note: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/speculative-decoding.md": PAGE})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/chen-2023-draft-2302-01318.md", note)
    git_repo.commit_all("note", author="tom")
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    [item] = [i for i in json.loads(capsys.readouterr().out)["items"]
              if i["path"] == "wiki/sources/chen-2023-draft-2302-01318.md"]
    return [w for w in item["warnings"] if w.startswith("numbers differ")]


def test_a_number_the_page_states_otherwise_is_a_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _warnings(git_repo, NOTE.format(layers="24 layers"), capsys) == [
        "numbers differ: the note says 24 layers, wiki/concepts/speculative-decoding.md:5 says 6 层 about the same "
        "work; check which is right"]


@pytest.mark.parametrize("layers", ["6 layers", "6.02 layers on average", "a 6-layer stack and a 24-layer target, 24 layers in all"])
def test_an_agreeing_or_ambiguous_number_is_no_caution(git_repo: GitRepo, capsys, layers: str) -> None:  # type: ignore[no-untyped-def]
    assert _warnings(git_repo, NOTE.format(layers=layers), capsys) == []


def test_a_line_about_another_work_is_not_compared(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the page's `2 layers` cites the tree note, not this one: no caution for 2 against 24 there
    warnings = _warnings(git_repo, NOTE.format(layers="24 layers"), capsys)
    assert not [w for w in warnings if "says 2 layers" in w]


def test_a_line_citing_the_note_about_another_model_is_not_compared(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # line 9 cites the note but is about BigTarget, which the note's title does not name: 96 against 24 is no caution
    warnings = _warnings(git_repo, NOTE.format(layers="24 layers"), capsys)
    assert not [w for w in warnings if "96 layers" in w]


def test_a_title_without_a_name_compares_nothing(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    plain = NOTE.format(layers="24 layers").replace("DraftLM: accelerating", "Accelerating")
    assert _warnings(git_repo, plain, capsys) == []
