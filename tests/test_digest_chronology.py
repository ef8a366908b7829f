"""A chronological index takes a new note in the current period's section, or proposes that section
when it has none yet; a page whose headings merely hold a year is no such index (hand-written
fixtures shaped like a monthly reading list and a weekly paper digest)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from kbcheck.cli import main
from kbcheck.digest.chronology import DAY, MONTH, YEAR, heading_date
from tests.gitrepo import GitRepo
from tests.kbtools import mapping


@pytest.mark.parametrize("heading, found", [
    ("2025-06", (dt.date(2025, 6, 1), MONTH)),
    ("2025年6月", (dt.date(2025, 6, 1), MONTH)),
    ("2025.06.09", (dt.date(2025, 6, 9), DAY)),
    ("Top Papers of the Week (June 23 - June 29) - 2025", (dt.date(2025, 6, 23), DAY)),
    ("[2024](#2024)", (dt.date(2024, 1, 1), YEAR)),
    ("Transformer 架构", None),
    ("GPT-4 的能力", None),
])
def test_a_heading_names_its_period(heading: str, found: tuple[dt.date, str] | None) -> None:
    assert heading_date(heading) == found


CONFIG = mapping(["lists/*.md"], ["notes/*.md"])
MONTHLY = """# Reading list

## 2026-10

- [a](../notes/a.md)

## 2026-09

- [b](../notes/b.md)

## 2026-08

- [c](../notes/c.md)
"""
WEEKLY = """# Papers of the week

## Papers of the Week (October 19 - October 25) - 2026

- [a](../notes/a.md)

## Papers of the Week (October 12 - October 18) - 2026

- [b](../notes/b.md)

## Papers of the Week (October 5 - October 11) - 2026

- [c](../notes/c.md)
"""
VENUES = """# Venues

## ACL 2023

- [a](../notes/a.md)

## EMNLP 2023

- [b](../notes/b.md)

## NAACL 2023

- [c](../notes/c.md)
"""
OLD = {f"notes/{n}.md": f"# Note {n}\n\nAn older note on topic {n}.\n" for n in "abc"}


def _suggested(repo: GitRepo, page: str, note: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    repo.write_many({".kbcheck.toml": CONFIG, "lists/index.md": page, **OLD})
    base = repo.commit_all("base", author="tom")
    repo.write("notes/new.md", note)
    repo.commit_all("note", author="tom")  # the test repository's commits are dated 2026-10-29
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    [item] = [i for i in json.loads(capsys.readouterr().out)["items"] if i["path"] == "notes/new.md"]
    assert item["class"] == "increment"
    return [s for s in item.get("suggested_sections", []) if "period" in " ".join(s["why"])]


NOTE = "# Cache reuse\n\nKeys and values are reused across requests that share a prefix.\n"
DATED = "---\ndate: 2026-12-03\n---\n\n" + NOTE


def test_a_monthly_list_takes_the_note_in_this_month(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    [place] = _suggested(git_repo, MONTHLY, NOTE, capsys)
    assert (place["living_doc"], place["section"], place["line"]) == ("lists/index.md", "2026-10", 3)
    assert place["why"] == ["the current period's section of this chronological index (2026-10)"]


def test_a_month_the_list_lacks_is_proposed_in_its_style(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    [place] = _suggested(git_repo, MONTHLY, DATED, capsys)  # the note's own date, not the commit's
    assert place["section"] == "2026-12"
    assert place["why"] == ["a new section for the current period (2026-12): this chronological index has none yet"]


def test_a_weekly_list_takes_the_note_in_the_week_it_falls_in(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    [place] = _suggested(git_repo, WEEKLY, NOTE.replace("# Cache", "---\ndate: 2026-10-14\n---\n\n# Cache"), capsys)
    assert place["section"] == "Papers of the Week (October 12 - October 18) - 2026"


def test_venues_of_one_year_are_no_chronological_index(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the note links the list (somewhere to go, so an increment), which proposes no period for it
    assert _suggested(git_repo, VENUES, NOTE + "\n[the lists](../lists/index.md)\n", capsys) == []
