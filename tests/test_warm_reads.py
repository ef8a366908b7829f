"""A warm full check knows which files hold disable comments without reading any file."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

import kbcheck.snapshots
from kbcheck.cache import SUFFIX, cache_root, shard_of
from kbcheck.cli import main

CARD = "organized/paper_cards/{seq}-2610-{num}.md"
BRIEF = "inbox/tom/2026-10-30-routing-brief.md"
#: a guide whose disable comment hides its unknown id, written in Chinese
GUIDE = "organized/guides/路由指南.md"


def _knowledge_base(repo: GitRepo) -> None:
    files = {CARD.format(seq=1000 + i, num=f"{10000 + i:05d}"):
             f'---\narxiv: "2610.{10000 + i:05d}"\ntitle: "Routing {i}"\n---\n\n# 路由 {i}\n\n提速 {i + 1}.5×。\n'
             for i in range(4)}
    files[BRIEF] = "# Routing brief\n\nThe papers arXiv:2610.10000 and arXiv:2610.99999 agree.\n"
    files[GUIDE] = ("# 路由指南\n\n<!-- kbcheck: disable=KB004 -->\n- 新方法见 arXiv:2610.88888。\n\n"
                    "- 另一篇 arXiv:2610.77777。\n")
    files[".kbcheck.toml"] = ""
    repo.commit_files(files, "knowledge base")


def _check() -> tuple[list[tuple[str, str, int]], str]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", "--all", "--format", "json"], out=out, err=err) == 1, err.getvalue()
    report: dict[str, Any] = json.loads(out.getvalue())
    return sorted((f["rule"], f["path"], f["line"]) for f in report["findings"]), err.getvalue()


def test_a_warm_check_reads_no_file_and_still_honours_disable_comments(git_repo: GitRepo,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _knowledge_base(git_repo)
    cold = _check()
    # the guide's first id is disabled, its second reported; the brief's unknown id is reported
    assert ("KB004", GUIDE, 6) in cold[0] and ("KB004", BRIEF, 3) in cold[0]
    assert ("KB004", GUIDE, 4) not in cold[0]
    read: list[str] = []
    original = kbcheck.snapshots.regular_bytes

    def counting(path: Path) -> bytes | None:
        read.append(os.path.basename(path))
        return original(path)

    monkeypatch.setattr(kbcheck.snapshots, "regular_bytes", counting)
    assert _check() == cold
    # the guide's disable comments come with its cached parse: no file is read again
    assert read == []


def test_a_shard_whose_place_holds_a_symlink_is_not_replaced(git_repo: GitRepo, tmp_path: Path) -> None:
    _knowledge_base(git_repo)
    root = cache_root(git_repo.path / ".git")
    blob = git_repo.git("rev-parse", f"HEAD:{BRIEF}").strip()
    (root / "refs").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("not kbcheck's\n", encoding="utf-8")
    shard = root / "refs" / f"{shard_of(blob)}{SUFFIX}"
    shard.symlink_to(elsewhere)
    first = _check()
    assert _check() == first
    assert shard.is_symlink() and elsewhere.read_text(encoding="utf-8") == "not kbcheck's\n"
