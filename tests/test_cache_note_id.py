"""Which one source a note is about (`KnowledgeBase.note_id`) is cached by the note's blob id:
a warm run neither reads nor scans the note, and a changed note is worked out again."""

from __future__ import annotations

import pytest
from gitrepo import GitRepo

import kbcheck.model.knowledge_base as knowledge_base
from kbcheck import git
from kbcheck.cache import repository_cache
from kbcheck.config import Config, config_from_mapping
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.snapshots import tree_snapshot

NOTE = "organized/guides/harbor-notes.md"
CONCEPT = "organized/guides/sliding-window.md"
ABOUT_ARXIV = '---\nsource: "arXiv:2402.04321"\n---\n\n# Harbor: streaming attention (2024)\n\n要点：窗口外的 token 被丢弃。\n'
ABOUT_DOI = '---\nsource: "doi:10.1145/3600006.3613165"\n---\n\n# Harbor: streaming attention (2024)\n\n要点。\n'
NO_ID = "# 滑动窗口\n\n每次只看最近的 512 个位置。\n"


def note_ids(git_repo: GitRepo, config: Config | None = None) -> dict[str, tuple[str, str] | None]:
    repo = git.open_repository(git_repo.path)
    config = config or Config()
    kb = KnowledgeBase(tree_snapshot(repo, "HEAD", config.exclude), config, repository_cache(repo))
    found = {path: kb.note_id(path) for path in (NOTE, CONCEPT)}
    kb.facts.flush()
    return found


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The notes whose text is scanned for ids from now on."""
    scanned: list[str] = []
    names_an_id = KnowledgeBase._names_an_id

    def counting(self: KnowledgeBase, path: str) -> bool:
        scanned.append(path)
        return names_an_id(self, path)

    monkeypatch.setattr(knowledge_base.KnowledgeBase, "_names_an_id", counting)
    return scanned


def test_a_warm_run_does_not_scan_the_notes(git_repo: GitRepo, scans: list[str]) -> None:
    git_repo.commit_files({NOTE: ABOUT_ARXIV, CONCEPT: NO_ID}, "notes")
    assert note_ids(git_repo) == {NOTE: ("arxiv", "2402.04321"), CONCEPT: None}
    assert sorted(scans) == [NOTE, CONCEPT]
    scans.clear()
    assert note_ids(git_repo) == {NOTE: ("arxiv", "2402.04321"), CONCEPT: None}
    assert scans == []


def test_a_changed_note_is_worked_out_again(git_repo: GitRepo, scans: list[str]) -> None:
    git_repo.commit_files({NOTE: ABOUT_ARXIV, CONCEPT: NO_ID}, "notes")
    note_ids(git_repo)
    scans.clear()
    git_repo.commit_files({NOTE: ABOUT_DOI}, "the note's source is its DOI")
    assert note_ids(git_repo) == {NOTE: ("doi", "10.1145/3600006.3613165"), CONCEPT: None}
    assert scans == [NOTE]


def test_other_compared_kinds_are_worked_out_again(git_repo: GitRepo, scans: list[str]) -> None:
    git_repo.commit_files({NOTE: ABOUT_DOI, CONCEPT: NO_ID}, "notes")
    assert note_ids(git_repo)[NOTE] == ("doi", "10.1145/3600006.3613165")
    arxiv_only = config_from_mapping({"reference-kinds": ["arxiv"]}, "test")
    assert note_ids(git_repo, arxiv_only)[NOTE] is None
