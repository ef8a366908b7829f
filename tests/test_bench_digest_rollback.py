"""The digest harness's roll-back: the living documents as at the range's start, on top of its head,
and the clone's HEAD left where it was (every later range is read from it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from tests.gitrepo import GitRepo

RUN = Path(__file__).resolve().parents[1] / "bench" / "digest" / "run.py"


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_digest_run", RUN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rolling_back_leaves_the_clone_head_where_it_was(git_repo: GitRepo) -> None:
    git_repo.write_many({".kbcheck.toml": 'knowledge = ["pages/*.md"]\nguides = ["notes/*.md"]\n',
                         "pages/a.md": "# A\n\nbefore\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"pages/a.md": "# A\n\nafter\n", "pages/b.md": "# B\n", "notes/n.md": "# N\n\nnew\n"})
    head = git_repo.commit_all("notes and pages", author="tom")
    git_repo.write("notes/m.md", "# M\n\nlater\n")
    tip = git_repo.commit_all("later", author="tom")
    rolled = _harness().rolled_back(git_repo.path, base, head)
    assert git_repo.git("rev-parse", "HEAD").strip() == tip
    assert git_repo.git("show", f"{rolled}:pages/a.md") == "# A\n\nbefore"
    assert "pages/b.md" not in git_repo.git("ls-tree", "-r", "--name-only", rolled)
    assert "notes/n.md" in git_repo.git("ls-tree", "-r", "--name-only", rolled)
