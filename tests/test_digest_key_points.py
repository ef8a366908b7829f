"""Key points from a note's substance: a metadata header is metadata, template text is no key
point, a summary section or the sentence that says what the work does comes first (hand-written
fixtures in the shapes of a blog exported from a static site, a paper-note template filled in or
not, and study notes whose first lines are background)."""

from __future__ import annotations

import pytest

from kbcheck.digest.metadata_header import metadata_header, without_header
from tests.test_digest_wiki_brief import _added

PELICAN_NOTE = """Title: Why drafts are cheap
Date: 2019-03-02 10:15
Category: decoding
Tags: drafts, speed
Summary: A small model guesses, the big one checks.

# Outline

A small model proposes four tokens; the target accepts the longest right prefix.
"""
MULTIMARKDOWN_NOTE = """Title:  Verifier costs
Author: Ann Example
Keywords: decoding,
    verification

The verifier runs once per draft, so its cost is amortised over the accepted tokens.
"""


def _note(git_repo, text: str, capsys) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return _added(git_repo, {"wiki/sources/note.md": text}, capsys)["wiki/sources/note.md"]  # type: ignore[no-any-return]


# -- a metadata header -----------------------------------------------------------------------------

def test_a_metadata_header_gives_the_title_and_its_summary_the_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, PELICAN_NOTE, capsys)
    assert item["title"] == "Why drafts are cheap"
    assert item["key_points"] == "A small model guesses, the big one checks."


def test_without_a_summary_key_points_come_from_the_body_under_the_header(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, MULTIMARKDOWN_NOTE, capsys)
    assert item["title"] == "Verifier costs"
    assert item["key_points"] == "The verifier runs once per draft, so its cost is amortised over the accepted tokens."


def test_the_header_is_read_as_fields_with_continued_values() -> None:
    header = metadata_header(MULTIMARKDOWN_NOTE)
    assert header is not None and header.end_line == 4
    assert header.fields == {"title": "Verifier costs", "author": "Ann Example", "keywords": "decoding, verification"}
    assert without_header(MULTIMARKDOWN_NOTE).split("\n")[:5] == ["", "", "", "", ""]


@pytest.mark.parametrize("text", [
    # two labels of prose, not keys a metadata format defines
    "Problem: the draft is too slow.\nAnswer: make it smaller.\n\nMore text.\n",
    # one known key is a byline, not a header
    "Date: 2019-03-02\nThe draft runs first.\n",
    # a header must open the file
    "# Drafts\n\nTitle: Drafts\nDate: 2019-03-02\n",
    # a line that is not `Key: value` ends it being a header
    "Title: Drafts\nDate: 2019-03-02\nthe draft runs first, then the target.\n",
    # a web address is no key
    "Title: Drafts\nhttps://example.org/drafts\n",
    # frontmatter is read as frontmatter
    "---\ntitle: Drafts\ndate: 2019-03-02\n---\n\nText.\n",
])
def test_text_that_only_looks_like_a_header_is_none(text: str) -> None:
    assert metadata_header(text) is None


def test_a_note_opening_with_labelled_prose_keeps_it_as_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, "Problem: the draft is too slow.\nAnswer: make it smaller.\n", capsys)
    assert item["key_points"] == "Problem: the draft is too slow. Answer: make it smaller."
    assert item["title"] == "note.md"


def test_a_header_with_nothing_under_it_and_no_summary_is_a_stub(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, "Title: Drafts\nDate: 2019-03-02\nTags: drafts\n", capsys)
    assert item["class"] == "review" and item["reason"].startswith("stub"), item["reason"]
