"""One cache version: kbcheck's version and a digest of its installed source; `--version` tells the truth."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo

from kbcheck.version import cache_version, checkout_commit, source_digest, version

ROOT = Path(__file__).resolve().parent.parent
CARD = "organized/paper_cards/1802-2610-04418.md"


def _copy_of_kbcheck(dest: Path) -> Path:
    shutil.copytree(ROOT / "kbcheck", dest / "kbcheck", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _digest(repo: GitRepo, package: Path, base: str) -> str:
    """The markdown digest (which shows each item's title), made by the kbcheck in `package`."""
    env = {**repo.env, "PYTHONPATH": str(package)}
    result = subprocess.run([sys.executable, "-m", "kbcheck", "digest", "--since", base, "--lang", "en"],
                            cwd=repo.path, env=env, capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_an_edited_digest_is_seen_on_the_next_run_without_clearing_the_cache(git_repo: GitRepo, tmp_path: Path) -> None:
    base = git_repo.commit_files({"organized/knowledge/推理.md": "# 推理\n\n## §1 解码\n\n- 正文。\n"}, "base")
    git_repo.commit_files({CARD: '---\narxiv: "2610.04418"\ntitle: "EAGLE at long context"\n---\n\n长上下文。\n'},
                          "card")
    package = _copy_of_kbcheck(tmp_path / "copy")
    first = _digest(git_repo, package, base)
    assert "EAGLE at long context" in first
    assert _digest(git_repo, package, base) == first  # warm: from the cache
    items = package / "kbcheck" / "digest" / "items.py"
    source = items.read_text(encoding="utf-8")
    wanted = "            item.title = card.title\n"
    assert source.count(wanted) == 1
    items.write_text(source.replace(wanted, '            item.title = card.title.upper() + " (edited)"\n'),
                     encoding="utf-8")
    edited = _digest(git_repo, package, base)
    assert "EAGLE AT LONG CONTEXT (edited)" in edited and "EAGLE AT LONG CONTEXT (edited)" not in first


def test_the_cache_version_is_the_version_and_the_source(tmp_path: Path) -> None:
    from importlib.metadata import version as installed

    from kbcheck import __version__

    assert cache_version() == f"{__version__}+{source_digest()[:16]}"
    assert installed("kbcheck") == __version__  # the metadata is built from it
    assert len(source_digest()) == 40


def test_version_from_a_git_checkout_names_its_commit(git_repo: GitRepo) -> None:
    head = git_repo.commit_files({"a.md": "# a\n"}, "a")
    assert checkout_commit(git_repo.path) == head
    git_repo.run("pack-refs", "--all")  # a packed branch is found too
    assert checkout_commit(git_repo.path) == head
    git_repo.run("checkout", "-q", "--detach")
    assert checkout_commit(git_repo.path) == head
    worktree = git_repo.path.parent / "other-worktree"
    git_repo.run("worktree", "add", "-q", "--detach", str(worktree), head)
    assert checkout_commit(worktree) == head


def test_no_checkout_no_commit(tmp_path: Path) -> None:
    assert checkout_commit(tmp_path) is None


def test_version_says_the_release_and_the_checkouts_commit() -> None:
    commit = checkout_commit(ROOT)
    from importlib.metadata import version as installed

    release = installed("kbcheck")
    assert version() == (f"{release}.dev0+g{commit[:12]}" if commit else release)
    result = subprocess.run([sys.executable, "-m", "kbcheck", "--version"], capture_output=True, text=True,
                            check=False, cwd=ROOT)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"kbcheck {version()}\n", "")
