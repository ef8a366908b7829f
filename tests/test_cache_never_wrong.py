"""A warm cache gives the same report as no cache, whatever changed around the content.

Each test warms the cache in a real repository, changes something a cached
fact does not see in the content (a file name, the kind globs, the size
limit) or damages the cache itself (a forged shard, a FIFO where a shard or
the cache folder should be), and compares the next run with `--no-cache`.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from kbcheck.cache import LOCK_NAME, SUFFIX, cache_root, shard_of
from kbcheck.cli import main

CARD = "organized/paper_cards/{seq}-2610-{num}.md"
BRIEF = "inbox/tom/2026-10-30-路由简报.md"


def _card(seq: int, arxiv: str, stars: int = 12) -> str:
    return (f'---\narxiv: "{arxiv}"\ntitle: "Speculative routing {seq}"\ns2_citations: {stars}\n---\n\n'
            f"# 推测路由 {seq}\n\n在 H200 上加速 {1 + seq % 7}.5×。\n")


def _knowledge_base(repo: GitRepo, config: str = "") -> None:
    files = {CARD.format(seq=1000 + i, num=f"{10000 + i:05d}"): _card(1000 + i, f"2610.{10000 + i:05d}")
             for i in range(6)}
    files[BRIEF] = ("# 路由简报\n\nThe router papers arXiv:2610.10000, arXiv:2610.10004 and arXiv:2610.10005 "
                    "agree; arXiv:2610.99999 is new.\n\n待读：arXiv:2610.10003。\n")
    files[".kbcheck.toml"] = config
    repo.commit_files(files, "knowledge base")


def _run(*args: str) -> tuple[int, dict[str, Any], str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", "--all", "--format", "json", *args], out=out, err=err)
    assert status in (0, 1), err.getvalue()
    return status, json.loads(out.getvalue()), err.getvalue()


def _keys(report: dict[str, Any]) -> list[tuple[str, str, int, str]]:
    return sorted((f["rule"], f["path"], f["line"], f["subject"]) for f in report["findings"])


def _same_as_without_cache() -> list[tuple[str, str, int, str]]:
    warm = _run()
    cold = _run("--no-cache")
    assert warm == cold
    return _keys(warm[1])


def test_a_card_renamed_to_a_wrong_file_name_is_malformed_with_a_warm_cache(git_repo: GitRepo) -> None:
    _knowledge_base(git_repo)
    assert [k for k in _keys(_run()[1]) if k[0] == "KB008"] == []  # the cache is warm now
    old = CARD.format(seq=1002, num="10002")
    new = CARD.format(seq=1002, num="10020")
    git_repo.git("mv", old, new)  # the same content: the same blob id
    git_repo.commit("renamed to a name that disagrees with its arxiv field")
    found = [k for k in _same_as_without_cache() if k[0] == "KB008"]
    assert found == [("KB008", new, 2, new)]


def test_a_card_renamed_to_its_right_name_passes_with_a_warm_cache(git_repo: GitRepo) -> None:
    _knowledge_base(git_repo)
    wrong = CARD.format(seq=1002, num="10020")
    git_repo.git("mv", CARD.format(seq=1002, num="10002"), wrong)
    git_repo.commit("wrong name")
    assert [k[1] for k in _keys(_run()[1]) if k[0] == "KB008"] == [wrong]
    git_repo.git("mv", wrong, CARD.format(seq=1002, num="10002"))
    git_repo.commit("right name again")
    assert [k for k in _same_as_without_cache() if k[0] == "KB008"] == []


def test_narrowing_the_paper_cards_glob_after_a_warm_run_finds_the_unknown_ids(git_repo: GitRepo) -> None:
    _knowledge_base(git_repo)
    before = [k[3] for k in _keys(_run()[1]) if k[:2] == ("KB004", BRIEF)]
    assert before == ["2610.99999"]
    git_repo.commit_files({".kbcheck.toml": 'paper-cards = ["organized/paper_cards/100[0-2]-*.md"]\n'}, "fewer cards")
    after = [k[3] for k in _same_as_without_cache() if k[:2] == ("KB004", BRIEF)]
    assert sorted(after) == ["2610.10003", "2610.10004", "2610.10005", "2610.99999"]


def test_lowering_max_file_size_on_a_warm_cache_skips_the_file_and_its_findings(git_repo: GitRepo) -> None:
    _knowledge_base(git_repo)
    assert ("KB004", BRIEF, 3, "2610.99999") in _keys(_run()[1])
    git_repo.commit_files({".kbcheck.toml": "max-file-size = 150\n"}, "a small size limit")
    status, report, err = _run()
    assert (status, report, err) == _run("--no-cache")
    # what was in it is not checked: the one finding is that it was not read (KB000)
    assert [k for k in _keys(report) if k[1] == BRIEF] == [("KB000", BRIEF, 1, BRIEF)]
    size = len((git_repo.path / BRIEF).read_bytes())
    unread = [f["data"]["reason"] for f in report["findings"] if f["rule"] == "KB000"]
    assert unread == [f"skipped: {size} bytes is over max-file-size (150)"]
    assert f"{BRIEF}: skipped" not in err  # the finding says it: no notice repeats it


def test_raising_max_file_size_back_reports_the_findings_again(git_repo: GitRepo) -> None:
    _knowledge_base(git_repo, "max-file-size = 150\n")
    assert [k for k in _keys(_run()[1]) if k[1] == BRIEF] == [("KB000", BRIEF, 1, BRIEF)]
    git_repo.commit_files({".kbcheck.toml": ""}, "default size limit")
    assert ("KB004", BRIEF, 3, "2610.99999") in _same_as_without_cache()


class _Planted:
    """A pickle that creates a file when it is loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.marker),))


def test_a_forged_shard_that_would_run_code_is_never_loaded(git_repo: GitRepo, tmp_path: Path) -> None:
    _knowledge_base(git_repo)
    expected = _run("--no-cache")
    marker = tmp_path / "ran"
    evil = pickle.dumps(_Planted(marker))
    root = cache_root(git_repo.path / ".git")
    for namespace in ("card", "refs", "doc", "doc-card", "index"):
        (root / namespace).mkdir(parents=True, exist_ok=True)
        for prefix in (f"{n:02x}" for n in range(64)):
            for suffix in (SUFFIX, ".pickle"):
                (root / namespace / f"{prefix}{suffix}").write_bytes(evil)
    assert _run()[:2] == expected[:2]
    assert not marker.exists()
    assert _run()[:2] == expected[:2]  # rebuilt over the forged shards
    assert not marker.exists()


def _run_in_a_process(repo: GitRepo, *args: str) -> subprocess.CompletedProcess[str]:
    """kbcheck as a hook runs it, with a deadline: a blocking open would hang the test otherwise."""
    return subprocess.run([sys.executable, "-m", "kbcheck", "check", "--all", "--format", "json", *args],
                          cwd=repo.path, env=repo.env, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("where", ["shard", "namespace", "cache", "lock"])
def test_a_fifo_in_the_cache_is_skipped_never_opened(git_repo: GitRepo, where: str) -> None:
    _knowledge_base(git_repo)
    expected = _run_in_a_process(git_repo, "--no-cache")
    assert expected.returncode == 1, expected.stderr
    root = cache_root(git_repo.path / ".git")
    assert _run_in_a_process(git_repo).stdout == expected.stdout  # warm now
    blob = git_repo.git("rev-parse", f"HEAD:{BRIEF}").strip()
    target = {
        "shard": root / "refs" / f"{shard_of(blob)}{SUFFIX}",
        "namespace": root / "card",
        "cache": root,
        "lock": root / "refs" / LOCK_NAME,
    }[where]
    subprocess.run(["rm", "-rf", str(target)], check=True)
    os.mkfifo(target)
    if where == "lock":  # only a run that writes opens the lock: make refs cold
        for shard in (root / "refs").glob(f"*{SUFFIX}"):
            shard.unlink()
    for _ in range(2):
        again = _run_in_a_process(git_repo)
        assert (again.returncode, again.stdout) == (expected.returncode, expected.stdout), again.stderr
    assert target.exists() and not target.is_file() and not target.is_dir()  # left as it was
