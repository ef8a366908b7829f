"""With a cache, the fact store holds the texts and parses of the last few thousand files, not all.

A digest sweeps every note of the knowledge base more than once; holding
each note's text and parse for the whole run took gigabytes on 10k notes.
What is let go is read again when asked, and says the same.
"""

from __future__ import annotations

import io

import pytest
from gitrepo import GitRepo

import kbcheck.model.store as store
from kbcheck import git
from kbcheck.cache import repository_cache
from kbcheck.cli import main
from kbcheck.config import Config
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.model.recent import Recent
from kbcheck.snapshots import tree_snapshot

LIVING = "organized/knowledge/inference.md"
BRIEFS = {f"inbox/tom/2026-10-{n:03d}.md": f"# Brief {n}\n\nThe router paper (arXiv:2610.{n:05d}) reads token {n}.\n"
          for n in range(12)}
FILES = {**BRIEFS, LIVING: "# 推理系统活文档\n\n## §3 路由\n\n- 决策信号来自模型内部（arXiv:2610.00001）。\n"}


def test_recent_keeps_the_last_values_stored_and_every_none() -> None:
    held: Recent[str | None] = Recent(2)
    for key in "abc":
        held[key] = key.upper()
    held["x"] = None
    held["y"] = None
    assert held == {"b": "B", "c": "C", "x": None, "y": None}
    held["b"] = "B2"  # stored again: the newest
    held["d"] = "D"
    assert held == {"b": "B2", "d": "D", "x": None, "y": None}
    del held["b"]
    assert held.pop("d") == "D" and held.pop("d", None) is None
    held["e"], held["f"] = "E", "F"
    assert held == {"e": "E", "f": "F", "x": None, "y": None}


def test_recent_without_a_limit_keeps_everything() -> None:
    held: Recent[int] = Recent(None)
    for n in range(5000):
        held[str(n)] = n
    assert len(held) == 5000


def _kb(git_repo: GitRepo, cached: bool) -> KnowledgeBase:
    repo = git.open_repository(git_repo.path)
    config = Config()
    return KnowledgeBase(tree_snapshot(repo, "HEAD", config.exclude), config,
                         repository_cache(repo) if cached else None)


@pytest.fixture
def small_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "DOCUMENTS_HELD", 3)
    monkeypatch.setattr(store, "TEXTS_HELD", 3)


def test_with_a_cache_a_sweep_of_every_note_holds_the_last_few(git_repo: GitRepo, small_bounds: None) -> None:
    git_repo.commit_files(FILES, "notes")
    kb = _kb(git_repo, cached=True)
    living = kb.document(LIVING)
    first = {path: kb.document(path) for path in BRIEFS}
    texts = {path: kb.text(path) for path in BRIEFS}
    oldest = next(iter(BRIEFS))
    again = kb.document(oldest)
    assert again is not first[oldest] and again == first[oldest]  # let go, decoded again: the same parse
    assert kb.text(oldest) == texts[oldest] == BRIEFS[oldest]
    assert kb.document(LIVING) is living  # living documents are all held
    assert all(kb.document(path) == doc for path, doc in first.items())


def test_without_a_cache_every_parse_is_held(git_repo: GitRepo, small_bounds: None) -> None:
    git_repo.commit_files(FILES, "notes")
    kb = _kb(git_repo, cached=False)
    first = {path: kb.document(path) for path in BRIEFS}
    assert all(kb.document(path) is doc for path, doc in first.items())  # parsing again would cost more


def _digest() -> str:
    out, err = io.StringIO(), io.StringIO()
    assert main(["digest", "--since", "HEAD~1", "--format", "json", "--lang", "en"], out=out, err=err) == 0
    return out.getvalue()


def test_a_digest_that_lets_go_says_the_same(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.commit_files({LIVING: FILES[LIVING], **dict(list(BRIEFS.items())[:4])}, "first notes")
    git_repo.commit_files(dict(list(BRIEFS.items())[4:]), "more notes")
    held = _digest()
    assert "inbox/tom/2026-10-011.md" in held
    assert main(["cache", "clear"], out=io.StringIO(), err=io.StringIO()) == 0
    monkeypatch.setattr(store, "DOCUMENTS_HELD", 1)
    monkeypatch.setattr(store, "TEXTS_HELD", 1)
    assert _digest() == held
    assert _digest() == held  # and warm
