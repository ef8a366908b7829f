"""What checking a file found is kept for the state it was checked at (`kbcheck.checked`).

A file's findings depend on other files, so they are served only for the very
commit (and configuration) they were found at, or the very work tree a full
check read: a file whose blob is unchanged at another commit, or in a work tree
with a card added for an id it cites, is checked again there. In the work tree a
full check serves each file's findings kept with what its check read
(tests/test_cache_kept_reads.py).
"""

from __future__ import annotations

import io
import json

import pytest
from gitrepo import GitRepo

from kbcheck import git
from kbcheck.cache import repository_cache
from kbcheck.checked import config_digest
from kbcheck.cli import main
from kbcheck.config import Config, config_from_mapping
from kbcheck.digest.build import findings_in
from kbcheck.engine import CHECKED as NAMESPACE
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.snapshots import tree_snapshot

LIVING = "organized/knowledge/inference.md"
BRIEF = "inbox/tom/2026-10-29-e1.md"
CARD = "organized/paper_cards/1695-2610-02076.md"
LIVING_TEXT = "# 推理系统活文档\n\n## §3 路由\n\n- 决策信号来自模型内部（arXiv:2610.02076）。\n"
BRIEF_TEXT = "# E1 brief\n\nThe router paper (arXiv:2610.02076) reads decisions off token probabilities.\n"
OTHER_CARD = "organized/paper_cards/1712-2610-05512.md"
OTHER_CARD_TEXT = '---\narxiv: "2610.05512"\ntitle: "When Dynamic LLM Routers Fail"\n---\n\n# Routers\n\n三类失败模式。\n'
CARD_TEXT = '---\narxiv: "2610.02076"\ntitle: "LLM-as-Jev"\n---\n\n# LLM-as-Jev\n\n用 token 概率直接读出决策。\n'


def _findings(git_repo: GitRepo, rev: str, config: Config | None = None) -> list[tuple[str, str, int, str]]:
    repo = git.open_repository(git_repo.path)
    config = config or Config()
    kb = KnowledgeBase(tree_snapshot(repo, rev, config.exclude), config, repository_cache(repo))
    found = findings_in(kb, config, {LIVING, BRIEF})
    kb.facts.flush()
    return [(f.rule, f.path, f.line, f.subject) for f in found]


@pytest.fixture
def history(git_repo: GitRepo) -> tuple[str, str]:
    """A commit citing a paper that has no card (another has one), then one adding the card (the citing files unchanged)."""
    before = git_repo.commit_files({LIVING: LIVING_TEXT, BRIEF: BRIEF_TEXT, OTHER_CARD: OTHER_CARD_TEXT},
                                   "notes")
    after = git_repo.commit_files({CARD: CARD_TEXT}, "the card")
    return before, after


def test_the_same_commit_asked_again_is_not_checked_again(git_repo: GitRepo, history: tuple[str, str],
                                                          rule_runs: list[str]) -> None:
    before, _ = history
    first = _findings(git_repo, before)
    assert ("KB004", BRIEF, 3, "2610.02076") in first
    assert sorted(rule_runs) == [BRIEF, LIVING]
    rule_runs.clear()
    assert _findings(git_repo, before) == first
    assert rule_runs == []
    assert any((git_repo.path / ".git" / "kbcheck" / "cache" / NAMESPACE).glob("*.shard"))


def test_an_unchanged_file_at_another_commit_is_checked_again(git_repo: GitRepo, history: tuple[str, str],
                                                              rule_runs: list[str]) -> None:
    before, after = history
    assert ("KB004", BRIEF, 3, "2610.02076") in _findings(git_repo, before)
    rule_runs.clear()
    # the brief's blob is the same; the card it cites now exists, so its finding is gone
    assert git_repo.git("rev-parse", f"{before}:{BRIEF}") == git_repo.git("rev-parse", f"{after}:{BRIEF}")
    assert [f for f in _findings(git_repo, after) if f[0] == "KB004"] == []
    assert sorted(rule_runs) == [BRIEF, LIVING]
    rule_runs.clear()
    # and the first commit's findings are still its own
    assert ("KB004", BRIEF, 3, "2610.02076") in _findings(git_repo, before)
    assert rule_runs == []


def test_another_configuration_is_checked_again(git_repo: GitRepo, history: tuple[str, str],
                                                rule_runs: list[str]) -> None:
    before, _ = history
    assert ("KB004", BRIEF, 3, "2610.02076") in _findings(git_repo, before)
    rule_runs.clear()
    quiet = config_from_mapping({"per-file-ignores": {"inbox/**": ["KB004"]}}, "test")
    assert [f for f in _findings(git_repo, before, quiet) if f[0] == "KB004" and f[1] == BRIEF] == []
    assert sorted(rule_runs) == [BRIEF, LIVING]


def test_the_configuration_digest_is_the_same_in_every_process() -> None:
    one = config_from_mapping({"ignore": ["KB002", "KB005", "KB001"], "severity": {"KB004": "error"}}, "a")
    two = config_from_mapping({"ignore": ["KB001", "KB002", "KB005"], "severity": {"KB004": "error"}}, "a")
    assert config_digest(one) == config_digest(two)
    assert config_digest(one) != config_digest(Config())


def _check_all(*args: str) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    main(["check", *args, "--format", "json"], out=out, err=err)
    return dict(json.loads(out.getvalue()))


def _kb004(report: dict[str, object]) -> list[tuple[str, int]]:
    findings = report["findings"]
    assert isinstance(findings, list)
    return [(f["path"], f["line"]) for f in findings if f["rule"] == "KB004"]


#: the brief and the living document cite a paper without a card; every file of that work tree
UNCARDED = [(BRIEF, 3), (LIVING, 5)]
EVERY_FILE = sorted([BRIEF, LIVING, OTHER_CARD])


@pytest.fixture
def uncarded(git_repo: GitRepo) -> None:
    """A work tree whose brief cites a paper without a card (another paper has one)."""
    git_repo.commit_files({LIVING: LIVING_TEXT, BRIEF: BRIEF_TEXT, OTHER_CARD: OTHER_CARD_TEXT}, "notes")


def test_a_full_check_of_the_same_work_tree_is_not_checked_again(git_repo: GitRepo, uncarded: None,
                                                                 rule_runs: list[str]) -> None:
    first = _check_all("--all")
    assert _kb004(first) == UNCARDED
    assert sorted(rule_runs) == EVERY_FILE
    rule_runs.clear()
    assert _check_all("--all") == first
    assert rule_runs == []


def test_a_card_added_or_removed_checks_again_the_files_that_cite_its_id(git_repo: GitRepo, uncarded: None,
                                                                        rule_runs: list[str]) -> None:
    assert _kb004(_check_all("--all")) == UNCARDED
    rule_runs.clear()
    # the card is written and staged: the brief is the same bytes, its finding is gone
    git_repo.write(CARD, CARD_TEXT)
    git_repo.git("add", CARD)
    assert _kb004(_check_all("--all")) == []
    assert sorted(rule_runs) == sorted([BRIEF, LIVING, CARD])  # the other card asked nothing of it
    rule_runs.clear()
    # back as it was: a file's check is kept for its last state only, so the citing files are checked again
    git_repo.git("rm", "-q", "--cached", CARD)
    (git_repo.path / CARD).unlink()
    assert _kb004(_check_all("--all")) == UNCARDED
    assert sorted(rule_runs) == [BRIEF, LIVING]


def test_what_git_ignores_is_part_of_the_work_tree_state(git_repo: GitRepo, uncarded: None,
                                                         rule_runs: list[str]) -> None:
    _check_all("--all")
    rule_runs.clear()
    # an untracked file is no part of the check, so nothing is checked again ...
    git_repo.write("scratch.txt", "x\n")
    _check_all("--all")
    assert rule_runs == []
    # ... but what git ignores decides whether a link is local by design (KB009)
    exclude = git_repo.path / ".git" / "info" / "exclude"
    exclude.parent.mkdir(exist_ok=True)
    exclude.write_text("raw/\n")
    _check_all("--all")
    assert sorted(rule_runs) == EVERY_FILE


def test_a_check_of_named_files_keeps_nothing(git_repo: GitRepo, uncarded: None) -> None:
    assert _kb004(_check_all(BRIEF)) == [(BRIEF, 3)]
    assert not any((git_repo.path / ".git" / "kbcheck" / "cache" / NAMESPACE).glob("*.shard"))


def test_a_digest_asked_again_gives_the_same_brief(git_repo: GitRepo, history: tuple[str, str],
                                                   rule_runs: list[str]) -> None:
    git_repo.commit_files({BRIEF: BRIEF_TEXT + "\nA second look at arXiv:2610.99999.\n"}, "brief")

    def digest() -> str:
        out, err = io.StringIO(), io.StringIO()
        assert main(["digest", "--since", "HEAD~2", "--format", "json", "--lang", "en"], out=out, err=err) == 0
        return out.getvalue()

    first = digest()
    assert "2610.99999" in json.dumps(json.loads(first)["findings_new"])
    assert rule_runs
    rule_runs.clear()
    assert digest() == first
    assert rule_runs == []
