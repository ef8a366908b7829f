"""A full check of the work tree keeps each file's findings with the files its check read
(`kbcheck.checked.FileReads`, docs/architecture.md "Kept checks").

After an edit, only the edited file and the files that read it are checked
again, and the report is exactly what a check without the cache gives:
findings, notices and all.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from gitrepo import GitRepo

from kbcheck import git
from kbcheck.cache import repository_cache
from kbcheck.cli import main
from kbcheck.config import Config
from kbcheck.digest.build import findings_in
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.snapshots import tree_snapshot

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "knowledge-base"
LIVING = "organized/knowledge/inference.md"
CARD = "organized/repo_cards/4572-recursive-oss-rec.md"
#: the brief that cites the card besides the living document
CITING_BRIEF = "inbox/tom/2026-10-29-inference-e1prep.md"


@pytest.fixture
def example(git_repo: GitRepo) -> GitRepo:
    shutil.copytree(EXAMPLE, git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base")
    return git_repo


def _check(*extra: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", "--all", "--format", "json", *extra], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def _replace(repo: GitRepo, path: str, old: str, new: str) -> None:
    """Edit the work tree only, as between two runs in CI or an editor."""
    target = repo.path / path
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1
    target.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edited_card_is_checked_again_with_the_files_that_cite_it(example: GitRepo, rule_runs: list[str]) -> None:
    _check()
    every_file = set(rule_runs)
    rule_runs.clear()
    _replace(example, CARD, "weekly_growth: 14", "weekly_growth: 17")
    kept = _check()
    assert set(rule_runs) == {CARD, LIVING, CITING_BRIEF}
    assert len(every_file) == 21
    rule_runs.clear()
    assert kept == _check("--no-cache")
    assert '"subject": "周增 +14"' in kept[1]  # the living document is stale now (KB006)


def test_a_note_nothing_reads_is_checked_again_alone(git_repo: GitRepo, rule_runs: list[str]) -> None:
    git_repo.commit_files({"notes/a.md": "# A\n\nSee [B](b.md).\n", "notes/b.md": "# B\n\nPlain.\n",
                           "notes/c.md": "# C\n\nPlain.\n"}, "notes")
    _check()
    rule_runs.clear()
    git_repo.write("notes/c.md", "# C\n\nThe router paper arXiv:2610.99999 and [a link](gone.md).\n")
    kept = _check()
    assert rule_runs == ["notes/c.md"]
    assert '"rule": "KB009"' in kept[1]  # the link to nowhere
    assert kept == _check("--no-cache")


def test_an_unedited_work_tree_is_checked_again_nowhere(example: GitRepo, rule_runs: list[str]) -> None:
    first = _check()
    rule_runs.clear()
    assert _check() == first
    assert rule_runs == []


def test_a_notice_another_file_said_first_is_still_said(git_repo: GitRepo, rule_runs: list[str]) -> None:
    """Two notes cite arXiv ids and there are no cards: both say KB004's notice; the first, edited,
    no longer does, and the kept second still says it."""
    git_repo.commit_files({"a.md": "# A\n\nSee arXiv:2101.00001.\n", "b.md": "# B\n\nSee arXiv:2101.00002.\n"}, "notes")
    first = _check()
    assert "KB004 not evaluated" in first[2]
    git_repo.write("a.md", "# A\n\nNo id here.\n")
    rule_runs.clear()
    kept = _check()
    assert rule_runs == ["a.md"]
    assert "KB004 not evaluated" in kept[2]
    assert kept == _check("--no-cache")


def test_an_unreadable_note_read_first_by_another_file_keeps_its_finding(git_repo: GitRepo,
                                                                         rule_runs: list[str]) -> None:
    """The living document reads the note it links first (the id it stands for), so the note is
    found unreadable during the document's check; edited not to link it, the note still says so."""
    git_repo.commit_files({
        LIVING: "# 活文档\n\n## §1 路由\n\n- 见 [笔记](../../notes/raw.md)。\n",
        "notes/raw.md": b"\x00\x01 binary\n",
    }, "notes")
    _check()
    git_repo.write(LIVING, "# 活文档\n\n## §1 路由\n\n- 没有链接。\n")
    rule_runs.clear()
    kept = _check()
    assert rule_runs == [LIVING]
    assert '"path": "notes/raw.md"' in kept[1]
    assert kept == _check("--no-cache")


def test_a_link_target_edited_rechecks_the_note_that_links_it(git_repo: GitRepo, rule_runs: list[str]) -> None:
    """A link to a note about one paper stands for its id (`KnowledgeBase.note_id`): the linking
    note read the linked one, so editing the linked note checks the linking one again."""
    git_repo.commit_files({
        "notes/router.md": "# Router\n\nSee [the paper note](paper.md).\n",
        "notes/paper.md": "# Paper\n\narXiv:2101.00001\n",
        "notes/alone.md": "# Alone\n\nNothing here.\n",
    }, "notes")
    _check()
    rule_runs.clear()
    git_repo.write("notes/paper.md", "# Paper\n\narXiv:2101.00003\n")
    kept = _check()
    assert sorted(rule_runs) == ["notes/paper.md", "notes/router.md"]
    assert kept == _check("--no-cache")


def test_two_files_of_the_same_content_at_a_commit_keep_their_own_findings(git_repo: GitRepo) -> None:
    text = "# E1 brief\n\nThe router paper (arXiv:2610.02076) reads decisions off token probabilities.\n"
    card = '---\narxiv: "2610.05512"\ntitle: "Routers"\n---\n\n# Routers\n'
    git_repo.commit_files({"inbox/tom/a.md": text, "inbox/tom/b.md": text,
                           "organized/paper_cards/1712-2610-05512.md": card}, "briefs")
    repo = git.open_repository(git_repo.path)

    def found() -> list[tuple[str, str]]:
        kb = KnowledgeBase(tree_snapshot(repo, "HEAD", ()), Config(), repository_cache(repo))
        findings = findings_in(kb, Config(), {"inbox/tom/a.md", "inbox/tom/b.md"})
        kb.facts.flush()
        return sorted((f.rule, f.path) for f in findings if f.rule == "KB004")

    expected = [("KB004", "inbox/tom/a.md"), ("KB004", "inbox/tom/b.md")]
    assert found() == expected
    assert found() == expected  # the second time from the cache


def test_a_card_added_rechecks_the_files_that_cite_its_id_and_no_other(example: GitRepo,
                                                                      rule_runs: list[str]) -> None:
    first = _check()
    assert '"subject": "2610.99999"' not in first[1]
    (example.path / "inbox/jay/2026-10-30-router.md").write_text(
        "# router\n\nThe router paper arXiv:2610.99999 looks promising.\n", encoding="utf-8")
    example.git("add", "inbox/jay/2026-10-30-router.md")
    assert '"subject": "2610.99999"' in _check()[1]
    rule_runs.clear()
    example.write("organized/paper_cards/1800-2610-99999.md",
                  '---\narxiv: "2610.99999"\ntitle: "Routers"\n---\n\n# Routers\n\nA card.\n')
    example.git("add", "organized/paper_cards/1800-2610-99999.md")
    kept = _check()
    assert sorted(rule_runs) == ["inbox/jay/2026-10-30-router.md", "organized/paper_cards/1800-2610-99999.md"]
    assert '"subject": "2610.99999"' not in kept[1]
    assert kept == _check("--no-cache")


def test_a_note_added_under_a_missing_wikilink_name_rechecks_the_linking_note(git_repo: GitRepo,
                                                                             rule_runs: list[str]) -> None:
    git_repo.write(".obsidian/app.json", "{}\n")
    git_repo.commit_files({"notes/hub.md": "# Hub\n\nSee [[Routing]].\n", "notes/other.md": "# Other\n\nPlain.\n"},
                          "notes")
    assert '"rule": "KB009"' in _check()[1]
    rule_runs.clear()
    git_repo.write("notes/deep/Routing.md", "# Routing\n\nA page.\n")
    git_repo.git("add", "notes/deep/Routing.md")
    kept = _check()
    assert sorted(rule_runs) == ["notes/deep/Routing.md", "notes/hub.md"]
    assert '"rule": "KB009"' not in kept[1]
    assert kept == _check("--no-cache")


def test_a_linked_note_removed_rechecks_the_note_that_links_it(git_repo: GitRepo, rule_runs: list[str]) -> None:
    git_repo.commit_files({"notes/a.md": "# A\n\nSee [B](b.md).\n", "notes/b.md": "# B\n\nPlain.\n",
                           "notes/c.md": "# C\n\nPlain.\n"}, "notes")
    _check()
    rule_runs.clear()
    git_repo.git("rm", "-q", "notes/b.md")
    kept = _check()
    assert rule_runs == ["notes/a.md"]
    assert '"rule": "KB009"' in kept[1]
    assert kept == _check("--no-cache")
