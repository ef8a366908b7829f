"""A full check goes through the files shard by shard and lets each shard's cached parses go.

The cached parse of every note is the largest thing a warm full check
reads (1.5 times the markdown): held for the whole run, a knowledge base of
10k notes kept all of it at once. Checked in the order of their blob's cache
shard, the run holds one shard's parses at a time, and finds the same.
"""

from __future__ import annotations

import io
import shutil

import pytest
from gitrepo import GitRepo

import kbcheck.engine as engine
import kbcheck.model.store as store
from kbcheck.cache import BlobCache, shard_of
from kbcheck.cli import main
from kbcheck.model.store import DOCS, FactStore

BRIEFS = {
    f"inbox/tom/2026-10-{n:03d}.md": f"# Brief {n}\n\nThe router paper (arXiv:2610.{n:05d}) reads token {n}.\n"
    for n in range(90)
} | {"organized/paper_cards/1695-2610-00001.md": '---\narxiv: "2610.00001"\ntitle: "Routers"\n---\n\n# Routers\n'}


def _another_state(git_repo: GitRepo) -> None:
    """A setting that no finding here depends on changed: every file is checked again, from warm
    parses (a file's kept check is for one configuration, `kbcheck.checked`)."""
    limit = 4 * 1024 * 1024 + len(git_repo.git("log", "--oneline").splitlines())
    git_repo.commit_files({".kbcheck.toml": f"max-file-size = {limit}\n"}, "another setting")


def _check() -> str:
    out, err = io.StringIO(), io.StringIO()
    main(["check", "--all", "--format", "json"], out=out, err=err)
    return out.getvalue()


@pytest.fixture
def briefs(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files(BRIEFS, "briefs")
    blobs = {git_repo.git("rev-parse", f"HEAD:{path}") for path in BRIEFS}
    assert len({shard_of(blob) for blob in blobs}) > 30  # spread over the shards
    return git_repo


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many shards of parses the cache holds each time a parse is asked for."""
    counts: list[int] = []
    get = BlobCache.get

    def watching(self: BlobCache, blob_id: str, key: str = "") -> object | None:
        value = get(self, blob_id, key)
        if self.namespace == DOCS:
            counts.append(len(self._shards))
        return value

    monkeypatch.setattr(BlobCache, "get", watching)
    return counts


def test_a_warm_full_check_holds_one_shard_of_parses_at_a_time(briefs: GitRepo, held: list[int]) -> None:
    cold = _check()
    assert '"KB004"' in cold
    held.clear()
    _another_state(briefs)
    assert _check() == cold
    assert len(held) == len(BRIEFS) - 1  # the card's parse is not a document's
    assert max(held) == 1


def test_a_run_that_lets_nothing_go_holds_every_shard(briefs: GitRepo, held: list[int],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    cold = _check()
    monkeypatch.setattr(FactStore, "let_go_parses", lambda self: None)
    held.clear()
    _another_state(briefs)
    assert _check() == cold
    assert max(held) > 30


def test_the_order_of_the_files_changes_no_finding(briefs: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    by_shard = _check()
    assert '"KB004"' in by_shard
    monkeypatch.setattr(engine, "by_shard", lambda kb, targets: sorted(targets, reverse=True))
    _another_state(briefs)
    assert _check() == by_shard


@pytest.fixture
def flushes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The namespace of every cache flush that had something to write, in one process."""
    monkeypatch.setenv("KBCHECK_JOBS", "1")
    written: list[str] = []
    flush = BlobCache.flush

    def watching(self: BlobCache) -> None:
        if self.unwritten:
            written.append(self.namespace)
        flush(self)

    monkeypatch.setattr(BlobCache, "flush", watching)
    return written


def test_a_cold_full_check_writes_its_parses_once_at_the_end_when_they_are_few(briefs: GitRepo,
                                                                              flushes: list[str]) -> None:
    assert '"KB004"' in _check()
    assert flushes.count(DOCS) == 1


def test_a_cold_full_check_writes_what_it_learned_as_it_goes_past_the_bound(briefs: GitRepo, flushes: list[str],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    at_the_end = _check()
    shutil.rmtree(briefs.path / ".git" / "kbcheck")  # cold again
    flushes.clear()
    monkeypatch.setattr(store, "UNWRITTEN_MAX", 0)
    assert _check() == at_the_end
    # written shard by shard: a worker holds one shard's new parses, not its whole share's
    assert flushes.count(DOCS) > 30
    flushes.clear()
    _another_state(briefs)
    assert _check() == at_the_end  # and read back warm, the same
    assert DOCS not in flushes
