"""Restored notes and index pages (`chronology.restored_day`, `layout_detect.is_link_list`): an added
note dated years before the commit that added it is old material brought back, and a note that is a
list of links to notes is an index page: both review items, not increments."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kbcheck.cli import main
from tests.gitrepo import GitRepo
from tests.kbtools import mapping

CONFIG = mapping(["overview/*.md"], ["notes/**/*.md"])
OVERVIEW = "# Overview\n\n## Systems\n\nServers and their logs.\n"
BODY = "\nA scanner left an address in the referrer field of the access log.\n\nIt was worth a look.\n"


def _items(repo: GitRepo, new: dict[str, str], capsys: pytest.CaptureFixture[str],
           config: str = CONFIG) -> dict[str, dict[str, Any]]:
    repo.write_many({".kbcheck.toml": config, "overview/a.md": OVERVIEW, "notes/seen.md": "# Seen\n\nText.\n"})
    base = repo.commit_all("base", author="tom")
    # the overview lists the new notes among its sources: each has somewhere to go
    sources = "".join(f"- [{path}](../{path})\n" for path in new)
    repo.write_many({**new, "overview/a.md": f"{OVERVIEW}\n## References\n\n{sources}"})
    repo.commit_all("backup", author="tom")  # dated 2026-10-29
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    return {i["path"]: i for i in json.loads(capsys.readouterr().out)["items"] if i["class"] != "living-doc"}


def test_a_note_dated_years_before_its_commit_is_restored(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(git_repo, {
        "notes/referrer.md": "Title: A referrer in the log\nDate: 2016-11-19 23:24\n" + BODY,
        "notes/2018-05-01-trip.md": "# A trip\n" + BODY,
        "notes/dated.md": "---\ncreated: 2019-02-03\n---\n\n# Dated\n" + BODY,
    }, capsys)
    assert (items["notes/referrer.md"]["class"], items["notes/referrer.md"]["reason"]) == (
        "review", "restored: dated 2016-11-19, more than 1 year before the commit that added it; "
                  "old material, not news")
    assert items["notes/2018-05-01-trip.md"]["reason"].startswith("restored: dated 2018-05-01")
    assert items["notes/dated.md"]["reason"].startswith("restored: dated 2019-02-03")


def test_a_recent_or_undated_note_is_no_restored_material(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(git_repo, {
        "notes/recent.md": "Title: A referrer in the log\nDate: 2026-06-01 10:00\n" + BODY,
        "notes/undated.md": "# Undated\n" + BODY,
        "notes/2018-attention-everywhere.md": "# Attention Everywhere\n" + BODY,  # a year, not a date
    }, capsys)
    assert {path: item["class"] for path, item in items.items()} == {
        "notes/recent.md": "increment", "notes/undated.md": "increment", "notes/2018-attention-everywhere.md": "increment"}


def test_the_age_is_configurable(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(git_repo, {"notes/referrer.md": "Title: A referrer\nDate: 2016-11-19 23:24\n" + BODY}, capsys,
                   CONFIG + "restored-age-years = 20\n")
    assert items["notes/referrer.md"]["class"] == "increment"


def test_the_age_is_said_in_years_as_english_counts_them(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(git_repo, {"notes/referrer.md": "Title: A referrer\nDate: 2016-11-19 23:24\n" + BODY}, capsys,
                   CONFIG + "restored-age-years = 2\n")
    assert "more than 2 years before the commit" in items["notes/referrer.md"]["reason"]


INDEX = """# Reading map

## Systems

- [Logs](logs/access.md) and what they hold
- [Caches](cache.md)
- [Queues](../queues.md)

## Models

- [Attention](attention.md)
- [Pruning](pruning%20notes.md)
- [Decoding](decoding.md#beam)
"""


def test_a_list_of_links_to_notes_is_an_index_page(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(git_repo, {"notes/drafts/old-readme.md": INDEX}, capsys)
    item = items["notes/drafts/old-readme.md"]
    assert (item["class"], item["reason"]) == ("review", "index page: a list of links to notes, not a note")


def test_a_note_with_prose_or_about_one_work_is_no_index_page(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    prose = INDEX.replace("## Models", "These notes grew over a year of reading; most of them start from a "
                          "question a colleague asked and end with what I would try next, in a few paragraphs "
                          "each, with the numbers I could check myself and the ones I could not.\n\n## Models")
    paper = ("# Channel Pruning for Deep Networks\n\nAuthors: A. Author, B. Author\n\n## References\n\n"
             + "".join(f"- [Cited {n}](cited-{n}.md)\n" for n in range(6)))
    links_out = "".join(f"- [Site {n}](https://example.org/{n})\n" for n in range(8))
    items = _items(git_repo, {"notes/map.md": prose, "notes/pruning.md": paper, "notes/links.md": links_out}, capsys)
    assert not [path for path, item in items.items() if item["reason"].startswith("index page")]
