"""The digest of a wiki as its maintainer would act on it: what is citable without paper cards,
what a new page cites, which notes a page already discusses, and text that reads as written
(hand-written fixtures in the shape of an Obsidian wiki: source notes, concept pages)."""

from __future__ import annotations

import json

import pytest

from kbcheck.cli import main
from kbcheck.digest.phrases import why
from kbcheck.digest.render_markdown import escape_markdown
from tests.test_digest_real_history import DRAFT_NOTE, PAGE_AFTER, TREE_NOTE, TWO_PAPERS, WIKI_CONFIG, ingest


def _digest(base: str, capsys: pytest.CaptureFixture[str], lang: str = "en") -> dict:  # type: ignore[type-arg]
    assert main(["digest", "--since", base, "--format", "json", "--lang", lang]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _items(base: str, capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:  # type: ignore[type-arg]
    return {i["path"]: i for i in _digest(base, capsys)["items"]}


# -- citable ids ----------------------------------------------------------------------------------

def test_without_paper_cards_every_arxiv_id_of_an_increment_is_citable(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/chen-2023-draft-2302-01318.md": DRAFT_NOTE,
                                         "wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE})
    document = _digest(base, capsys)
    # the tree note is an increment (only in the Sources list); the draft note is digested
    assert document["citable_ids"] == ["2401.02222"]


# -- a new page's sources -----------------------------------------------------------------------

NEW_PAGE = """# Draft Models

## Description

Small drafts, verified in one pass.

## Sources

- [[two-papers]]
- [[li-2024-tree-2401-02222]]
- [A blog post](https://blog.example.org/drafts)
"""


def test_a_new_page_counts_the_notes_and_pages_its_sources_list_links(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE,
                                         "wiki/sources/two-papers.md": TWO_PAPERS,
                                         "wiki/concepts/draft-models.md": NEW_PAGE,
                                         "wiki/concepts/empty.md": "# Empty\n\n## Sources\n\n- (none yet)\n"})
    items = _items(base, capsys)
    # the note naming two ids is still a source the page lists
    assert items["wiki/concepts/draft-models.md"]["reason"] == "new living document: 3 sections, 3 references"
    assert items["wiki/concepts/empty.md"]["reason"] == "new living document: 2 sections, 0 references"


# -- which notes a page already discusses ------------------------------------------------------------

LINKING_PAGE = PAGE_AFTER.replace("showed for large decoders.", "showed for large decoders; [[two-papers]] compares both.")


def test_a_note_a_page_body_links_is_discussed_whatever_its_ids(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, LINKING_PAGE, {"wiki/sources/two-papers.md": TWO_PAPERS})
    item = _items(base, capsys)["wiki/sources/two-papers.md"]
    assert (item["class"], item["reason"]) == ("review", "already digested: Description link this file")


def test_a_note_no_page_body_links_stays_new_material(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/two-papers.md": TWO_PAPERS})
    assert _items(base, capsys)["wiki/sources/two-papers.md"]["class"] == "increment"


BLOG_NOTE = """---
type: source
title: A blog post on draft models
url: https://blog.example.org/drafts
---

## Summary

The post walks through [[li-2024-tree-2401-02222]] and a few cheaper tricks.
"""


def test_a_note_does_not_inherit_the_id_of_a_sibling_note_it_links(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE,
                                         "wiki/sources/blog-drafts.md": BLOG_NOTE})
    items = _items(base, capsys)
    assert items["wiki/sources/blog-drafts.md"]["ids"] == []
    assert items["wiki/sources/li-2024-tree-2401-02222.md"]["ids"] == ["2401.02222"]


# -- files no rule reads ---------------------------------------------------------------------------

def test_an_image_matching_no_glob_gives_no_notice(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/a.md": "# A\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"wiki/assets/figure.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
                         "wiki/sources/broken.md": b"# Broken\n\0\0binary\n", "figure-2.png": b"\x89PNG\0"})
    git_repo.commit_all("images", author="tom")
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    notices = capsys.readouterr().err.splitlines()
    assert not [n for n in notices if "figure.png" in n], notices
    # a file the knowledge base maps is still said to be skipped
    assert [n for n in notices if "broken.md" in n and "binary" in n], notices


# -- text as written --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, shown", [
    ("2.5× faster", "2.5× faster"), ("+12.7% on MATH", "+12.7% on MATH"), ("-3 points", "-3 points"),
    ("1. one", "1\\. one"), ("+ plus", "\\+ plus"), ("---", "\\---"), ("2305.07185 is cited", "2305.07185 is cited"),
])
def test_only_what_would_open_a_block_is_escaped_at_the_start(text: str, shown: str) -> None:
    assert escape_markdown(text) == shown


def test_the_reasons_of_a_suggestion_are_said_in_the_digest_language() -> None:
    assert why("zh", "shared terms: draft, verify") == "共同词：draft、verify"
    assert why("zh", "the note links this document") == "本笔记链接了该文档"
    assert why("en", "shared terms: draft, verify") == "shared terms: draft, verify"
    assert why("zh", "something new") == "something new"
