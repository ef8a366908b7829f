"""KB009: the links into a folder the tree does not hold are one finding for the folder
(docs/rules.md, KB009 "A missing folder is one finding"); the baseline accepts the folder whole."""

from __future__ import annotations

import json

import pytest
from gitrepo import GitRepo
from kbtools import found, md, run, run_cli


def note(*links: str) -> str:
    return "# A note\n\n" + "".join(f"See [{n}]({link}).\n\n" for n, link in enumerate(links)) + "The end.\n"


def test_links_into_a_missing_folder_are_one_finding_at_the_first() -> None:
    report = run({
        "notes/a.md": note("../archive/2023/x.md", "../archive/2023/y.md"),
        "notes/b.md": note("../archive/2024/z.md"),
        "notes/c.md": "# C\n",
    }, select={"KB009"})
    assert found(report) == [("KB009", "notes/a.md", 3, "archive/")]
    facts = report.findings[0].facts
    assert facts is not None and facts.data() == {
        "folder": "archive", "written": "../archive/2023/x.md", "target": "archive/2023/x.md", "files": 2,
        "places": ["notes/a.md:3", "notes/a.md:5", "notes/b.md:3"],
    }
    assert report.findings[0].message.startswith("archive/ is not in the checked tree: 3 links in 2 files")


def test_the_outermost_missing_folder_is_the_one_named() -> None:
    report = run({
        "notes/a.md": note("old/sub/x.md", "old/other/y.md"),
    }, select={"KB009"})
    assert found(report) == [("KB009", "notes/a.md", 3, "notes/old/")]


def test_one_link_into_a_missing_folder_stays_a_link_finding() -> None:
    report = run({"notes/a.md": note("../archive/2023/x.md")}, select={"KB009"})
    assert found(report) == [("KB009", "notes/a.md", 3, "archive/2023/x.md")]


def test_missing_files_in_a_folder_that_exists_stay_one_finding_each() -> None:
    report = run({
        "notes/a.md": note("x.md", "y.md"),
        "notes/b.md": note("z.md"),
    }, select={"KB009"})
    assert found(report) == [("KB009", "notes/a.md", 3, "notes/x.md"), ("KB009", "notes/a.md", 5, "notes/y.md"),
                             ("KB009", "notes/b.md", 3, "notes/z.md")]


def test_a_link_with_a_near_file_keeps_its_own_finding_and_fix() -> None:
    report = run({
        "notes/a.md": note("../archive/x.md", "../archive/y.md", "../papers/detection.md"),
        "paper/detection.md": "# Detection\n",
    }, select={"KB009"})
    assert found(report) == [("KB009", "notes/a.md", 3, "archive/"),
                             ("KB009", "notes/a.md", 7, "papers/detection.md")]
    assert report.findings[1].fix is not None


def test_wikilinks_are_never_folded() -> None:
    report = run({"notes/a.md": md("""
        # A

        [[gone/one]] and [[gone/two]].
        """)}, select={"KB009"})
    assert [f.subject for f in report.findings] == ["[[gone/one]]", "[[gone/two]]"]


def test_a_disabled_link_is_left_out_of_the_folder() -> None:
    report = run({"notes/a.md": md("""
        # A

        See [x](../archive/x.md).

        <!-- kbcheck: disable=KB009 -->
        See [y](../archive/y.md).
        """)}, select={"KB009"})
    assert found(report) == [("KB009", "notes/a.md", 3, "archive/x.md")]


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files({".kbcheck.toml": '[authors.tom]\nemails = ["tom@example.org"]\nrole = "maintainer"\n',
                           "notes/a.md": note("../archive/x.md", "../archive/y.md")}, "notes")
    return git_repo


def subjects(*argv: str) -> list[str]:
    code, out, err = run_cli("check", *argv, "--format", "json")
    assert code in (0, 1), err
    return [f["subject"] for f in json.loads(out)["findings"]]


def test_the_baseline_accepts_the_folder_and_new_links_into_it(kb: GitRepo) -> None:
    assert subjects("--all") == ["archive/"]
    code, _, err = run_cli("baseline", "update")
    assert code == 0, err
    kb.commit_all("accept the missing folder")
    assert subjects("--all") == []
    kb.commit_files({"notes/b.md": note("../archive/z.md", "../elsewhere/w.md")}, "more links")
    assert subjects("--all") == ["elsewhere/w.md"]


def test_sarif_gives_the_other_links_as_related_locations(kb: GitRepo) -> None:
    import jsonschema  # type: ignore[import-untyped]
    from test_reporters import SCHEMA

    code, out, err = run_cli("check", "--all", "--format", "sarif")
    assert code in (0, 1), err
    log = json.loads(out)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert list(jsonschema.Draft7Validator(schema).iter_errors(log)) == []
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    assert [(r["physicalLocation"]["artifactLocation"]["uri"], r["physicalLocation"]["region"]["startLine"])
            for r in result["relatedLocations"]] == [("notes/a.md", 5)]
