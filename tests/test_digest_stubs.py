"""Stubs and metadata edits are review items, not increments: a note with nothing written yet, a
retagging, an edit of a note's frontmatter alone (hand-written fixtures shaped like a reading list
of generated paper stubs and a folder of tutorial READMEs)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kbcheck.cli import main
from tests.gitrepo import GitRepo
from tests.kbtools import mapping
from tests.test_digest import BASE, JEV, card

CONFIG = mapping(["overview/*.md"], ["notes/**/*.md"])
OVERVIEW = "# Decoding\n\n## Methods\n\nBeam search and sampling.\n"
STUB = """---
title: A Textbook of Statistical Learning
tags: [paper, other]
reading_status: TBD
---

[semanticscholar url](https://www.semanticscholar.org/paper/abc)
"""
CODE_ONLY = "# A tiny dialect\n\n```bash\nbash compile.sh\nbash run.sh\n```\n"
EMPTY_TEMPLATE = "# A paper\n\n## Idea\n\n## Results\n\n## Thoughts\n"
SHORT_NOTE = "# Draft tokens\n\nThe draft proposes four tokens per step.\n"
DESCRIBED = "---\ndescription: Drafts verified in one pass by the large model.\n---\n\n# Drafts\n"
NOTE = """---
title: Scene text recognition compared
tags: [paper, other]
venue: ''
---

# Scene text recognition compared

The comparison fixes the training data and finds most reported gains come from the data.
"""


def _digest(base: str, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    return {i["path"]: i for i in json.loads(capsys.readouterr().out)["items"]}


#: a lone link line (no prose) to the overview: each note has somewhere to go, so a note with prose
#: is an increment (`kbcheck.digest.no_home`)
TO_OVERVIEW = "\n[Decoding](../overview/decoding.md)\n"


def _land(repo: GitRepo, notes: dict[str, str], before: dict[str, str] | None = None) -> str:
    linked = {path: text + TO_OVERVIEW for path, text in (before or {}).items()}
    repo.write_many({".kbcheck.toml": CONFIG, "overview/decoding.md": OVERVIEW, **linked})
    base = repo.commit_all("base", author="tom")
    repo.write_many({path: text + TO_OVERVIEW for path, text in notes.items()})
    repo.commit_all("notes", author="tom")
    return base


STUB_REASON = "stub: nothing written yet (a title, links, code or the paper's abstract only), nothing to fold in"


LINKS_ONLY = "# Concepts of a paper\n\n## Concepts\n\n- [[few-shot-learning]]\n- [paper](https://arxiv.org/abs/2609.01234)\n"
#: what a reference manager writes: the paper's link and its abstract, none of the reader's words
ABSTRACT_ONLY = STUB + "\n# A Textbook of Statistical Learning\n\n## Abstract\n\nWe survey the methods of statistical learning " \
    "and show that a single framework covers them.\n"
#: `摘要` names a summary too, often the reader's own: a note with one is no stub
ZH_SUMMARY = "# 一种新的检索方法\n\n## 摘要\n\n本文提出一种新的稠密检索方法，并在三个数据集上验证。\n"
#: the abstract and the paper's references, copied in together: still none of the reader's words
REFERENCES = "\n## Paper References\n\n1. [Boosting with stumps](https://example.org/a) - 2001\n" \
    "2. [Margins of large classifiers](https://example.org/b) - 2003\n"
ABSTRACT_AND_REFERENCES = ABSTRACT_ONLY + REFERENCES
#: the abstract and a line of the reader's own: something was read
ABSTRACT_AND_NOTE = ABSTRACT_ONLY + "\n## Notes\n\nThe framework is the one the course uses in week three.\n" + REFERENCES


@pytest.mark.parametrize("text", [STUB, CODE_ONLY, EMPTY_TEMPLATE, LINKS_ONLY, ABSTRACT_ONLY, ABSTRACT_AND_REFERENCES])
def test_a_note_with_nothing_written_is_a_stub(git_repo: GitRepo, capsys, text: str) -> None:  # type: ignore[no-untyped-def]
    item = _digest(_land(git_repo, {"notes/new.md": text}), capsys)["notes/new.md"]
    assert (item["class"], item["reason"]) == ("review", STUB_REASON)


@pytest.mark.parametrize("text", [SHORT_NOTE, DESCRIBED, ABSTRACT_AND_NOTE, ZH_SUMMARY])
def test_a_short_note_that_says_something_is_no_stub(git_repo: GitRepo, capsys, text: str) -> None:  # type: ignore[no-untyped-def]
    assert _digest(_land(git_repo, {"notes/new.md": text}), capsys)["notes/new.md"]["class"] == "increment"


def test_filling_a_stub_is_new_material(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = _land(git_repo, {"notes/new.md": EMPTY_TEMPLATE.replace("## Idea\n", "## Idea\n\nDrafts are verified in one pass.\n")},
                 before={"notes/new.md": EMPTY_TEMPLATE})
    assert _digest(base, capsys)["notes/new.md"]["class"] == "increment"


def test_a_retagging_is_metadata_only(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = _land(git_repo, {"notes/str.md": NOTE.replace("[paper, other]", "[paper, ocr]")}, before={"notes/str.md": NOTE})
    item = _digest(base, capsys)["notes/str.md"]
    assert item["class"] == "review"
    assert item["reason"] == ('metadata only (tags, dates, status in the frontmatter), not new material: '
                              'tags ["paper", "other"] → ["paper", "ocr"]')


def test_any_frontmatter_only_edit_of_a_note_is_metadata_only(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = _land(git_repo, {"notes/str.md": NOTE.replace("venue: ''", "venue: ECCV")}, before={"notes/str.md": NOTE})
    assert _digest(base, capsys)["notes/str.md"]["class"] == "review"


def test_a_new_summary_or_body_line_is_no_metadata_edit(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    summary = NOTE.replace("venue: ''", "venue: ''\nsummary: Gains come from the data.")
    body = NOTE + "\nA new model closes half the gap.\n"
    base = _land(git_repo, {"notes/a.md": summary, "notes/b.md": body}, before={"notes/a.md": NOTE, "notes/b.md": NOTE})
    items = _digest(base, capsys)
    assert items["notes/a.md"]["class"] == "increment"
    assert items["notes/b.md"]["class"] == "increment"


def test_a_card_retagging_is_housekeeping_but_a_new_tldr_is_not(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.commit_files({**BASE, JEV: card("2610.02076", "JEV", tags="[a]")}, "base")
    base = git_repo.git("rev-parse", "HEAD").strip()
    git_repo.commit_files({JEV: card("2610.02076", "JEV", tags="[b]")}, "retag")
    assert _digest(base, capsys)[JEV]["class"] == "review"
    git_repo.commit_files({JEV: card("2610.02076", "JEV", tags="[b]", tldr="Joint evaluation of verifiers.")}, "tldr")
    assert _digest(f"{base}", capsys)[JEV]["class"] == "increment"
