"""KB007 write-outside-inbox: cases that fire and cases that must not."""

from __future__ import annotations

import pytest
from gitrepo import GitRepo

from kbcheck import git
from kbcheck.authors import judged_as
from kbcheck.config import Author, Config
from kbcheck.engine import RunOptions, check
from kbcheck.findings import Problem
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.rules import get_rule
from kbcheck.rules import kb007_write_outside_inbox as kb007
from kbcheck.sources import Change, select

AUTHORS = {
    "tom": Author("tom", ("tom@example.org",), "writer"),
    "jay": Author("jay", ("jay@example.org",), "writer"),
    "mia": Author("mia", ("mia@example.org",), "maintainer"),
    "ghost": Author("ghost", ("ghost@example.org",), "phantom"),
}
CONFIG = Config(authors=AUTHORS, source=".kbcheck.toml")


def problems(changes: list[Change], config: Config = CONFIG) -> list[Problem]:
    return list(kb007.check_changes(changes, config))


def tom(status: str, path: str, old: str | None = None, commit: str | None = None) -> Change:
    return Change(status, path, old, "tom", "tom@example.org", commit)


# -- fires -------------------------------------------------------------------------------

def test_writer_writes_another_inbox() -> None:
    found = problems([tom("A", "inbox/jay/brief.md")])
    assert found == [Problem(
        path="inbox/jay/brief.md", line=1, column=1, subject="inbox/jay/brief.md", file_level=True,
        facts=kb007.WriteOutsideInbox("tom", True, "writer", ("inbox/tom/**",), ".kbcheck.toml [authors]",
                                      "A", "inbox/jay/brief.md", None, None, None),
    )]
    assert found[0].message == "tom (role writer) may write only inbox/tom/**; the staged change adds inbox/jay/brief.md"


@pytest.mark.parametrize("status, verb", [("M", "modifies"), ("D", "deletes")])
def test_modify_and_delete_outside(status: str, verb: str) -> None:
    found = problems([tom(status, "organized/knowledge/inference.md")])
    assert [p.message for p in found] == [
        f"tom (role writer) may write only inbox/tom/**; the staged change {verb} organized/knowledge/inference.md"]


def test_rename_out_of_the_inbox_reports_the_new_side() -> None:
    found = problems([tom("R", "organized/guides/draft.md", "inbox/tom/draft.md")])
    assert [(p.path, p.subject) for p in found] == [("organized/guides/draft.md", "organized/guides/draft.md")]
    assert found[0].message.endswith("renames inbox/tom/draft.md to organized/guides/draft.md")


def test_rename_into_the_inbox_reports_the_old_side() -> None:
    found = problems([tom("R", "inbox/tom/stolen.md", "inbox/jay/stolen.md")])
    assert [p.path for p in found] == ["inbox/jay/stolen.md"]


def test_rename_with_both_sides_outside_reports_both() -> None:
    found = problems([tom("R", "organized/b.md", "organized/a.md")])
    assert [p.path for p in found] == ["organized/b.md", "organized/a.md"]


def test_commit_is_named_in_range_mode() -> None:
    sha = "a1b2c3d4e5f6" + "0" * 28
    found = problems([tom("A", "inbox/jay/x.md", commit=sha)])
    assert found[0].message == "tom (role writer) may write only inbox/tom/**; commit a1b2c3d4e5f6 adds inbox/jay/x.md"


def test_unknown_author_gets_one_finding_per_path() -> None:
    changes = [
        Change("A", "inbox/stranger/a.md", None, None, "stranger@elsewhere.net", "c1"),
        Change("M", "inbox/stranger/a.md", None, None, "stranger@elsewhere.net", "c2"),
        Change("R", "inbox/stranger/c.md", "inbox/stranger/b.md", None, "stranger@elsewhere.net", "c3"),
    ]
    found = problems(changes)
    assert [p.path for p in found] == ["inbox/stranger/a.md", "inbox/stranger/c.md", "inbox/stranger/b.md"]
    assert found[0].message == (
        "author stranger@elsewhere.net is not configured in .kbcheck.toml [authors]; "
        "add it or set allow-unknown-authors (commit c1 adds inbox/stranger/a.md)"
    )
    assert all(p.file_level and p.line == 1 and p.column == 1 for p in found)


def test_unknown_author_message_names_pyproject() -> None:
    config = Config(authors=AUTHORS, source="pyproject.toml")
    found = problems([Change("A", "x.md", None, None, "zed (from --author; no such author)")], config)
    assert found[0].message.startswith(
        "author zed (from --author; no such author) is not configured in pyproject.toml [tool.kbcheck.authors];")


def test_role_without_globs_writes_nothing() -> None:
    found = problems([Change("A", "inbox/ghost/a.md", None, "ghost", "ghost@example.org")])
    assert found[0].message.startswith("ghost (role phantom) may write nothing: role 'phantom' has no globs")


def test_same_path_twice_is_reported_once() -> None:
    found = problems([tom("A", "inbox/jay/x.md", commit="c1"), tom("M", "inbox/jay/x.md", commit="c2")])
    assert len(found) == 1 and "commit c1" in found[0].message


# -- must not fire -----------------------------------------------------------------------

def test_writer_in_own_inbox() -> None:
    assert problems([tom("A", "inbox/tom/a.md"), tom("D", "inbox/tom/old.md"),
                     tom("R", "inbox/tom/2026/a.md", "inbox/tom/a.md")]) == []


def test_maintainer_anywhere() -> None:
    mia = [Change(s, p, o, "mia", "mia@example.org") for s, p, o in [
        ("M", "organized/knowledge/inference.md", None), ("D", "inbox/jay/x.md", None),
        ("R", "organized/guides/x.md", "inbox/tom/x.md")]]
    assert problems(mia) == []


def test_unknown_author_allowed_by_config() -> None:
    config = Config(authors=AUTHORS, allow_unknown_authors=True)
    assert problems([Change("A", "organized/x.md", None, None, "stranger@elsewhere.net")], config) == []


def test_no_changes() -> None:
    assert problems([]) == []


# -- the rule as the registry and `explain` see it ---------------------------------------

def test_rule_shape_and_documentation() -> None:
    rule = get_rule("KB007")
    assert (rule.id, rule.name, rule.severity, rule.kinds) == ("KB007", "write-outside-inbox", "error", frozenset())
    assert rule.check_changes is kb007.check_changes and rule.check_file is None
    assert rule.summary.endswith(".") and "\n" not in rule.summary
    for part in ("**What it catches.**", "**Why it matters.**", "**Fires:**", "**Passes:**",
                 "**How to fix.**", "**How to suppress.**"):
        assert part in rule.doc


# -- end to end: a real staged change through the engine ---------------------------------

@pytest.fixture
def repo(git_repo: GitRepo):
    handle = git.open_repository(git_repo.path)
    yield handle
    handle.close()


def run_check(repo: git.Repository, config: Config = CONFIG, *, cli_author: str | None = None, **kwargs: object):
    selection = judged_as(repo, config, select(repo, config, **kwargs), cli_author=cli_author)  # type: ignore[arg-type]
    kb = KnowledgeBase(selection.snapshot, config)
    return check(kb, config, selection, RunOptions(filter="added", select=frozenset({"KB007"})))


def test_staged_write_into_another_inbox_fails_the_run(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"inbox/jay/old.md": "o\n"}, author="jay")
    git_repo.write("inbox/tom/mine.md", "mine\n")
    git_repo.write("inbox/jay/new.md", "not mine\n")
    git_repo.stage()
    report = run_check(repo, mode="staged", paths=[], rev=None, cli_author=None)
    assert [(f.rule, f.severity, f.path, f.line) for f in report.findings] == [
        ("KB007", "error", "inbox/jay/new.md", 1)]


def test_a_staged_deletion_alone_counts_as_a_file_judged(git_repo: GitRepo, repo: git.Repository) -> None:
    """No file rule reads a deleted file, yet the summary of its finding is never `in 0 files`."""
    git_repo.commit_files({"organized/knowledge/inference.md": "# doc\n", "inbox/tom/a.md": "a\n"}, author="mia")
    git_repo.delete("organized/knowledge/inference.md")
    report = run_check(repo, mode="staged", paths=[], rev=None, cli_author="tom")
    assert [(f.rule, f.path) for f in report.findings] == [("KB007", "organized/knowledge/inference.md")]
    assert report.files == 1


def test_range_commits_each_judged_by_its_author(git_repo: GitRepo, repo: git.Repository) -> None:
    base = git_repo.commit_files({"organized/knowledge/inference.md": "# doc\n"}, author="mia")
    git_repo.commit_files({"inbox/tom/a.md": "a\n"}, author="tom")
    git_repo.commit_files({"organized/knowledge/inference.md": "# doc\nedit\n"}, author="mia")
    git_repo.move("inbox/tom/a.md", "organized/guides/a.md")
    bad = git_repo.commit("tom moves his brief out", author="tom")
    report = run_check(repo, mode="diff", paths=[], rev=base, cli_author=None)
    assert [(f.path, f.subject) for f in report.findings] == [("organized/guides/a.md", "organized/guides/a.md")]
    assert f"commit {bad[:12]} renames inbox/tom/a.md to organized/guides/a.md" in report.findings[0].message


def test_all_mode_does_not_evaluate_kb007(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"organized/x.md": "x\n"}, author="stranger")
    report = run_check(repo, mode="all", paths=[], rev=None, cli_author=None)
    assert report.findings == ()


def test_the_author_label_is_said_in_the_run_language(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Who the change is judged as is part of the message: in Chinese it is Chinese too."""
    from kbtools import run_cli

    git_repo.commit_files({".kbcheck.toml": "[authors.mia]\nemails = [\"mia@example.org\"]\nrole = \"maintainer\"\n"},
                          "config", author="mia")
    git_repo.write("organized/knowledge/inference.md", "# doc\n")
    git_repo.stage()
    monkeypatch.setenv("KBCHECK_AUTHOR", "zed")
    _, out, _ = run_cli("check", "--staged", "--lang", "zh")
    assert "KB007 作者 zed（取自 KBCHECK_AUTHOR，并无此作者） 未在 .kbcheck.toml [authors] 中配置" in out
    _, out, _ = run_cli("check", "--staged")
    assert "KB007 author zed (from KBCHECK_AUTHOR; no such author) is not configured" in out
