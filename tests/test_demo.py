"""`kbcheck demo` plays its story on a temporary repository and cleans up after itself."""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import isolated_env

import kbcheck.demo as demo
from kbcheck.cli import main

TREND = "同作者教学仓的热度正从推理原理单点迁向全栈课程"


@pytest.fixture
def quiet_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty current directory, a private temp folder, and no user git configuration."""
    for key, value in isolated_env(tmp_path / "home").items():
        monkeypatch.setenv(key, value)
    for key in [k for k in os.environ if k.startswith("GIT_") and k not in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT")]:
        monkeypatch.delenv(key)
    monkeypatch.delenv("KBCHECK_AUTHOR", raising=False)
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    yield here


def demo_folders() -> list[Path]:
    return sorted(Path(tempfile.gettempdir()).glob("kbcheck-demo-*"))


def test_demo_blocks_the_writers_commit_then_accepts_it(quiet_place: Path) -> None:
    out = io.StringIO()
    assert demo.run_demo(out) == 0
    text = out.getvalue()
    # the blocked commit: KB007 on both paths outside inbox/tom, KB001 on the new trend line
    assert re.search(r"inbox/jay/2026-10-29-1105-engineering-brief\.md:\d+:\d+: KB007 tom \(role writer\)", text)
    assert re.search(r"organized/knowledge/inference\.md:\d+:\d+: KB007 ", text)
    assert re.search(r"organized/knowledge/inference\.md:(\d+):\d+: KB001 trend line cites no source: \"" + TREND, text)
    assert "Blocked." in text and "Accepted" in text
    # the second attempt is clean, and the whole knowledge base shows the example's findings
    assert "No findings in 1 file." in text
    assert "KB006 [*] 243⭐ is stale" in text
    assert "[*] 1 fixable with `kbcheck check --fix`" in text
    assert "The demo did not go as intended" not in text


def test_demo_prints_the_digest_when_kbcheck_has_one(quiet_place: Path) -> None:
    out = io.StringIO()
    assert demo.run_demo(out) == 0
    text = out.getvalue()
    digest = text.split("$ kbcheck digest --lang en", 1)[1]
    # tom's brief is new material; the overnight card refresh is a review item with its fields
    assert demo.TOM_BRIEF in digest
    assert re.search(r"4572-recursive-oss-rec\.md.*stars 245 → 251", digest)


def test_demo_leaves_no_trace(quiet_place: Path) -> None:
    out = io.StringIO()
    assert demo.run_demo(out) == 0
    printed = re.search(r"^  (\S*kbcheck-demo-\S*)$", out.getvalue(), re.MULTILINE)
    assert printed is not None
    assert not Path(printed.group(1)).exists()
    assert demo_folders() == []
    assert list(quiet_place.iterdir()) == []
    assert Path.cwd() == quiet_place


def test_demo_cleans_up_when_a_step_fails(quiet_place: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An example without a reference section cannot take tom's trend line: the demo stops cleanly."""
    broken = tmp_path / "broken-example"
    shutil.copytree(demo.example_root(), broken)
    living = broken / demo.LIVING_DOCUMENT
    living.write_text(living.read_text(encoding="utf-8").split("\n## §七")[0] + "\n", encoding="utf-8")
    monkeypatch.setattr(demo, "example_root", lambda: broken)
    out = io.StringIO()
    assert demo.run_demo(out) == 2
    assert "has no reference section" in out.getvalue()
    assert demo_folders() == []
    assert Path.cwd() == quiet_place


def test_demo_subcommand_runs_the_demo(quiet_place: Path) -> None:
    out = io.StringIO()
    assert main(["demo"], out=out, err=out) == 0
    assert "== 3. The pre-commit hook runs and blocks the commit ==" in out.getvalue()


def test_example_root_is_the_checkout_copy_here() -> None:
    root = demo.example_root()
    assert (root / ".kbcheck.toml").is_file()
    assert (root / demo.LIVING_DOCUMENT).is_file()
    assert (root / demo.JAY_BRIEF).is_file()
    assert not (root / demo.TOM_BRIEF).exists()  # tom writes it during the demo


def test_demo_shows_where_a_paper_belongs(quiet_place: Path) -> None:
    out = io.StringIO()
    assert demo.run_demo(out) == 0
    text = out.getvalue()
    assert "$ kbcheck suggest organized/paper_cards/1695-2610-02076.md --top 2" in text
    after = text.split("$ kbcheck suggest", 1)[1]
    assert re.search(r"^  0\.\d\d  organized/knowledge/inference\.md:21  §3\.1 调度理论与路由$", after, re.M)
    assert "Suggested place" in text
