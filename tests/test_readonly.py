"""The read-only promise (`docs/architecture.md`): kbcheck never changes a checked file.

Only `baseline update`, `init`, `digest --output` and the cache under the git
dir write, and each writes atomically (a temporary file, then a rename). The
autouse guard in `conftest.py` (`tests/readonly.py`) holds every CLI test to
this; the tests here prove the guard itself and pin each command's exact
set of written paths.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run
from readonly import Guard, changed, find_repository, guard_cli, tree_state

from kbcheck.cache import LOCK_NAME

CONFIG = '[authors.tom]\nemails = ["tom@example.org"]\nrole = "writer"\n'
FILES = {
    ".kbcheck.toml": CONFIG,
    "organized/knowledge/inference.md": (
        "# 推理\n\n## §3 调度\n\n- SpecBound（arXiv:2610.08815）提速 2.7x。\n\n"
        "## §6.2 趋势\n\n- 草稿预算走向按请求调度。\n\n## §七 引用列表\n\n- arXiv:2610.08815\n- arXiv:2610.02076\n"
    ),
    "organized/paper_cards/1748-2610-08815.md": '---\narxiv: "2610.08815"\ntitle: "SpecBound"\n---\n\n2.7x\n',
    "inbox/tom/brief.md": "# 简报\n\n- 周增 +26，来源不明。\n",
}


def state(repo: GitRepo) -> dict[str, tuple[str, str]]:
    """The work tree and the git dir, without kbcheck's own cache."""
    return tree_state(repo.path, [repo.path / ".git" / "kbcheck"])


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files(FILES, "knowledge base")
    git_repo.write("inbox/tom/draft.md", "# 草稿\n\n- 5x faster\n")
    git_repo.stage("inbox/tom/draft.md")
    git_repo.write("inbox/tom/brief.md", FILES["inbox/tom/brief.md"] + "\n- 12% 未暂存\n")  # unstaged edit
    return git_repo


# -- each command's documented writes ---------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["check", "--all"],
    ["check", "--staged", "--format", "json"],
    ["check", "--diff", "HEAD", "--format", "sarif"],
    ["check", "inbox/tom", "--format", "github"],
    ["check", "--all", "--format", "gitlab", "--no-cache"],
    ["digest", "--since", "HEAD"],
    ["digest", "--since", "HEAD", "--format", "json"],
    ["rules"],
    ["explain", "KB005"],
    ["baseline", "show"],
    ["check", "--config", "missing.toml"],
    ["check", "--diff", "no-such-rev"],
])
def test_commands_that_write_nothing_leave_the_tree_and_git_dir_as_they_were(kb: GitRepo, argv: list[str]) -> None:
    before = state(kb)
    _code, _, err = run(*argv)
    assert "internal error" not in err
    assert changed(before, state(kb)) == []


def test_check_writes_only_its_cache_under_the_git_dir(kb: GitRepo) -> None:
    cache = kb.path / ".git" / "kbcheck" / "cache"
    before = tree_state(kb.path)
    assert run("check", "--all")[0] in (0, 1)
    written = changed(before, tree_state(kb.path))
    assert written and all(p.startswith(".git/kbcheck/cache/") for p in written)
    # shards and the writers' lock files, no temporary file left behind
    assert all(p.endswith(".shard") or p.endswith(f"/{LOCK_NAME}") for p in written)
    assert cache.is_dir()


def test_baseline_update_writes_only_the_baseline(kb: GitRepo) -> None:
    before = state(kb)
    assert run("baseline", "update")[0] == 0
    assert changed(before, state(kb)) == [".kbcheck/baseline.json"]


def test_configured_baseline_path_is_the_only_write(kb: GitRepo) -> None:
    kb.write(".kbcheck.toml", CONFIG.replace("[authors.tom]", 'baseline = "meta/accepted.json"\n\n[authors.tom]'))
    before = state(kb)
    assert run("baseline", "update")[0] == 0
    assert changed(before, state(kb)) == ["meta/accepted.json"]


def test_init_writes_only_the_config(kb: GitRepo) -> None:
    (kb.path / ".kbcheck.toml").unlink()
    before = state(kb)
    assert run("init")[0] == 0
    assert changed(before, state(kb)) == [".kbcheck.toml"]


def test_digest_output_writes_only_that_file(kb: GitRepo) -> None:
    before = state(kb)
    assert run("digest", "--since", "HEAD", "--output", "brief-out.md")[0] == 0
    assert changed(before, state(kb)) == ["brief-out.md"]


def test_a_refused_command_writes_nothing(kb: GitRepo) -> None:
    before = state(kb)
    code, _, err = run("digest", "--since", "no-such-rev", "--output", "brief-out.md")
    assert code == 2 and err == "kbcheck: error: unknown revision 'no-such-rev'\n"
    code, _, err = run("baseline", "update", "no-such-rev")
    assert code == 2 and "unknown revision" in err
    assert changed(before, state(kb)) == []


def test_cache_clear_removes_only_the_cache(kb: GitRepo) -> None:
    run("check", "--all")
    before = state(kb)
    assert run("cache", "clear")[0] == 0
    assert changed(before, state(kb)) == []
    assert not (kb.path / ".git" / "kbcheck" / "cache").exists()


def test_a_linked_worktree_keeps_the_cache_in_the_shared_git_dir(kb: GitRepo, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    worktree = tmp_path / "wt"
    kb.git("worktree", "add", "-q", str(worktree), "-b", "side")
    before = tree_state(worktree), tree_state(kb.path / ".git" / "worktrees")
    monkeypatch.chdir(worktree)
    assert run("check", "--all")[0] in (0, 1)
    assert changed(before[0], tree_state(worktree)) == []
    assert changed(before[1], tree_state(kb.path / ".git" / "worktrees")) == []
    assert any((kb.path / ".git" / "kbcheck" / "cache").rglob("*.shard"))


# -- atomic writes --------------------------------------------------------------------------------

def _hard_link(path: Path, tmp_path: Path) -> Path:
    """A second name for a file: an in-place write would change it, a rename leaves it alone."""
    link = tmp_path / f"old-{path.name}"
    os.link(path, link)
    return link


@pytest.mark.parametrize("argv, target", [
    (["baseline", "update"], ".kbcheck/baseline.json"),
    (["init", "--force"], ".kbcheck.toml"),
    (["digest", "--since", "HEAD", "--output", "out/brief.md"], "out/brief.md"),
])
def test_writes_replace_the_file_atomically(kb: GitRepo, tmp_path: Path, argv: list[str], target: str) -> None:
    path = kb.write(target, "old content\n")
    old = _hard_link(path, tmp_path)
    assert run(*argv)[0] == 0
    assert old.read_text(encoding="utf-8") == "old content\n"  # the old file was replaced, not rewritten
    assert path.read_text(encoding="utf-8") != "old content\n"
    assert os.stat(path).st_ino != os.stat(old).st_ino
    assert sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")) == []
    assert oct(os.stat(path).st_mode & 0o777) == oct(0o644)


# -- the guard itself -------------------------------------------------------------------------------

def test_guard_reports_an_undocumented_write(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.commit_files({"inbox/tom/a.md": "# a\n"}, "a")
    guard = Guard(tmp_path)

    def careless(args: object, out: object, err: object) -> int:
        (git_repo.path / "inbox/tom/a.md").write_text("# rewritten\n", encoding="utf-8")
        (git_repo.path / "stray.tmp").write_text("", encoding="utf-8")
        (git_repo.path / ".git" / "kbcheck").mkdir()
        (git_repo.path / ".git" / "kbcheck" / "fine.pickle").write_bytes(b"cache")
        return 0

    assert guard.wrap("cmd_check", careless)(None, None, None) == 0
    assert guard.violations == [f"`kbcheck check` in {git_repo.path} changed tree:inbox/tom/a.md, tree:stray.tmp"]


def test_guard_sees_the_git_dir_but_not_the_cache(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.commit_files({"inbox/tom/a.md": "# a\n"}, "a")
    guard = Guard(tmp_path)

    def touches_git(args: object, out: object, err: object) -> int:
        with open(git_repo.path / ".git" / "config", "a", encoding="utf-8") as handle:
            handle.write("[kbcheck]\n\tauthor = tom\n")
        return 0

    guard.wrap("cmd_baseline_update", touches_git)(None, None, None)
    assert guard.violations == [f"`kbcheck baseline update` in {git_repo.path} changed git:.git:config"]


def test_guard_allows_only_the_documented_file(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.commit_files({"inbox/tom/a.md": "# a\n"}, "a")
    guard = Guard(tmp_path)

    class Args:
        output = "brief.md"

    def writes(args: object, out: object, err: object) -> int:
        (git_repo.path / "brief.md").write_text("brief\n", encoding="utf-8")
        (git_repo.path / ".kbcheck.toml").write_text("", encoding="utf-8")
        return 0

    guard.wrap("cmd_digest", writes)(Args(), None, None)
    assert guard.violations == [f"`kbcheck digest` in {git_repo.path} changed tree:.kbcheck.toml"]


def test_guard_never_follows_symlinks_or_opens_fifos(git_repo: GitRepo, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret\n", encoding="utf-8")
    os.symlink(outside, git_repo.path / "ext")
    os.symlink(outside / "secret.md", git_repo.path / "link.md")
    os.mkfifo(git_repo.path / "pipe")
    states = tree_state(git_repo.path)
    assert states["ext"] == ("link", str(outside))
    assert states["link.md"] == ("link", str(outside / "secret.md"))
    assert states["pipe"] == ("other", "p")
    assert not any(key.startswith("ext/") for key in states)


def test_guard_finds_the_repository_of_a_linked_worktree(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.commit_files({"a.md": "# a\n"}, "a")
    worktree = tmp_path / "wt"
    git_repo.git("worktree", "add", "-q", str(worktree), "-b", "side")
    found = find_repository(worktree / "sub" if (worktree / "sub").exists() else worktree)
    assert found is not None
    root, git_dirs = found
    assert root == worktree
    assert git_dirs == [(git_repo.path / ".git" / "worktrees" / "wt").resolve(), (git_repo.path / ".git").resolve()]


def test_guard_is_wired_into_every_cli_handler(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch,
                                                tmp_path_factory: pytest.TempPathFactory) -> None:
    import kbcheck.cli as cli

    guard = guard_cli(monkeypatch, tmp_path_factory.getbasetemp())
    handlers = [name for name in dir(cli) if name.startswith("cmd_")]
    assert {"cmd_check", "cmd_digest", "cmd_baseline_update", "cmd_init"} <= set(handlers)
    assert all(getattr(cli, name).__wrapped__ is not None for name in handlers)
    run("rules")
    run("check", "--all")
    assert guard.calls == 2 and guard.violations == []
