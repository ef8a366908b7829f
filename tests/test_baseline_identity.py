"""What the baseline accepts: never a new finding in an old one's place, and a renamed file keeps its own."""

from __future__ import annotations

import json
from typing import Any

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

from kbcheck.findings import fingerprint

BASELINE = ".kbcheck/baseline.json"
NOTE = "notes/detection.md"
#: what KB009 names: the link resolved from the note
SUBJECT = "notes/pointpillars.md"
CONFIG = """\
[authors.tom]
emails = ["tom@example.org"]
role = "maintainer"
"""
# two accepted broken links to the same file, at lines 8 and 26
LINES = ["# Detection notes", "", "Point clouds as pillars.", "", "## Methods", "", "Pillars are cheap.",
         "Read [the pillar paper](pointpillars.md) first.", *[f"Paragraph {n}." for n in range(9, 26)],
         "Compare with [PointPillars](pointpillars.md) again."]


def text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def findings(*argv: str) -> tuple[int, list[tuple[int, str]], str]:
    code, out, err = run("check", *argv, "--format", "json")
    assert code in (0, 1), err
    return code, [(f["line"], f["subject"]) for f in json.loads(out)["findings"]], err


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files({".kbcheck.toml": CONFIG, NOTE: text(LINES)}, "notes")
    code, _, err = run("baseline", "update")
    assert code == 0, err
    git_repo.commit_all("accept the broken links")
    assert findings("--all")[1] == []
    return git_repo


def test_a_new_line_repeating_an_accepted_finding_is_new(kb: GitRepo) -> None:
    lines = list(LINES)
    lines.insert(2, "See [PP](pointpillars.md)")
    kb.commit_files({NOTE: text(lines)}, "one more link")
    assert findings("--diff", "HEAD~1")[1] == [(3, SUBJECT)]
    assert findings("--all")[1] == [(3, SUBJECT)]


def test_a_copy_of_an_accepted_line_is_new_where_it_was_added(kb: GitRepo) -> None:
    lines = list(LINES)
    lines.insert(2, LINES[7])  # the very same line, above the accepted one
    kb.write(NOTE, text(lines))
    kb.stage(NOTE)
    assert findings("--staged", "--filter", "added")[1] == [(3, SUBJECT)]
    assert findings("--staged")[1] == [(3, SUBJECT)]
    kb.commit("copy a line")
    assert findings("--diff", "HEAD~1")[1] == [(3, SUBJECT)]


def test_moving_the_accepted_lines_accepts_them_still(kb: GitRepo) -> None:
    lines = ["Intro.", "", *LINES[:8], "", *LINES[8:]]
    kb.commit_files({NOTE: text(lines)}, "more above")
    assert findings("--diff", "HEAD~1")[1] == []
    assert findings("--all")[1] == []


def test_a_renamed_file_keeps_its_accepted_findings(kb: GitRepo) -> None:
    kb.move(NOTE, "notes/pillars.md")
    assert findings("--staged")[1] == []
    assert findings("--all")[1] == []
    kb.commit("rename")
    assert findings("--diff", "HEAD~1")[1] == []
    assert findings("--all")[1] == []
    kb.move("notes/pillars.md", "notes/pillars-2020.md")
    assert findings("--staged")[1] == []  # renamed twice: in history, then in the index


def test_a_renamed_file_with_a_new_finding_reports_only_that(kb: GitRepo) -> None:
    lines = list(LINES)
    lines.insert(2, "See [PP](pointpillars.md)")
    kb.remove(NOTE)
    kb.write("notes/pillars.md", text(lines))
    kb.stage(NOTE, "notes/pillars.md")
    assert findings("--staged")[1] == [(3, SUBJECT)]


def test_a_first_format_baseline_is_still_read(kb: GitRepo) -> None:
    """A baseline written before fingerprints held line text: accepted as before, and a notice says to rewrite it."""
    old = {"commit": kb.head(), "date": "2026-10-29T12:00:00+00:00",
           "fingerprints": sorted(fingerprint("KB009", NOTE, SUBJECT, n) for n in range(2))}
    kb.commit_files({BASELINE: json.dumps(old)}, "old baseline")
    code, found, err = findings("--all")
    assert code == 0 and found == []
    assert "first format" in err and "kbcheck baseline update" in err
    lines = list(LINES)
    lines.insert(2, "See [PP](pointpillars.md)")
    kb.commit_files({NOTE: text(lines)}, "one more link")
    # even without line text, the new occurrence is the one on the added line
    assert findings("--diff", "HEAD~1")[1] == [(3, SUBJECT)]
    code, out, _ = run("baseline", "show")
    assert code == 0 and "accepted findings: 2" in out and "first format" in out


def test_baseline_show_counts_each_accepted_subject(kb: GitRepo) -> None:
    code, out, _ = run("baseline", "show")
    assert code == 0
    assert out.splitlines()[-2:] == ["file                rule   count  subject",
                                     f"{NOTE}  KB009  2      {SUBJECT}"]


def test_an_unknown_baseline_version_is_refused(kb: GitRepo) -> None:
    data: dict[str, Any] = json.loads((kb.path / BASELINE).read_text(encoding="utf-8"))
    data["version"] = 9
    kb.write(BASELINE, json.dumps(data))
    code, out, err = run("check", "--all")
    assert code == 2 and out == ""
    assert err == (f"kbcheck: error: baseline {BASELINE} has version 9, which this kbcheck does not read; "
                   "upgrade kbcheck or rewrite it with kbcheck baseline update\n")
