"""Snapshots and selections against real repositories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gitrepo import GitRepo

from kbcheck import git
from kbcheck.authors import judged_as
from kbcheck.config import Author, Config
from kbcheck.errors import GitError, UsageError
from kbcheck.sources import (
    Change,
    IndexSnapshot,
    TreeSnapshot,
    WorktreeSnapshot,
    default_mode,
    normalise_path,
    select,
)

CONFIG = Config(authors={
    "tom": Author("tom", ("tom@example.org",), "writer"),
    "jay": Author("jay", ("Jay@Example.org",), "writer"),
    "mia": Author("mia", ("mia@example.org",), "maintainer"),
})


@pytest.fixture
def repo(git_repo: GitRepo):
    handle = git.open_repository(git_repo.path)
    yield handle
    handle.close()


def run_select(repo: git.Repository, mode: str | None = None, paths: list[str] | None = None,
               rev: str | None = None, config: Config = CONFIG, author: str | None = None):
    selection = select(repo, config, mode=mode, paths=paths or [], rev=rev)
    return judged_as(repo, config, selection, cli_author=author)


# -- paths -------------------------------------------------------------------------------

@pytest.mark.parametrize("path, expected", [
    ("a/b.md", "a/b.md"), ("a/./b.md", "a/b.md"), ("a/../b.md", "b.md"), ("dir/", "dir"),
    ("../x.md", None), ("a/../../x.md", None), ("/etc/passwd", None), ("..", None), (".", None), ("", None),
])
def test_normalise_path(path: str, expected: str | None) -> None:
    assert normalise_path(path) == expected


# -- worktree ----------------------------------------------------------------------------

def test_worktree_snapshot_lists_tracked_files_on_disk(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"b.md": "b\n", "a/中文 x.md": "a\n", "-d.md": "d\n", "gone.md": "g\n"})
    git_repo.remove("gone.md")          # tracked, but deleted on disk
    git_repo.write("untracked.md", "u\n")
    snap = WorktreeSnapshot(repo)
    assert snap.paths() == ["-d.md", "a/中文 x.md", "b.md"]
    assert snap.read("b.md") == b"b\n"
    assert snap.read("gone.md") is None
    assert snap.read("untracked.md") is None
    assert snap.exists("a") and snap.exists("a/") and snap.exists("a/中文 x.md") and snap.exists("")
    assert not snap.exists("gone.md") and not snap.exists("untracked.md") and not snap.exists("../b.md")


def test_worktree_blob_id_is_computed_like_git(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "committed\n"})
    git_repo.write("a.md", "edited on disk \u00e9\r\n")
    snap = WorktreeSnapshot(repo)
    assert snap.blob_id("a.md") == git_repo.blob_sha("edited on disk \u00e9\r\n".encode())
    assert snap.blob_id("missing.md") is None


def test_worktree_explicit_untracked_files(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    git_repo.write("inbox/tom/new.md", "new\n")
    snap = WorktreeSnapshot(repo, extra=["inbox/tom/new.md", "../outside.md"])
    assert snap.paths() == ["a.md", "inbox/tom/new.md"]
    assert snap.read("inbox/tom/new.md") == b"new\n"


def test_worktree_symlink_is_never_followed(git_repo: GitRepo, repo: git.Repository, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("secret outside the repository\n", encoding="utf-8")
    git_repo.write("a.md", "a\n")
    (git_repo.path / "link.md").symlink_to(secret)
    (git_repo.path / "inside-link.md").symlink_to("a.md")
    git_repo.commit_all("links")
    snap = WorktreeSnapshot(repo)
    assert snap.paths() == ["a.md"]
    for link in ("link.md", "inside-link.md"):
        assert snap.read(link) is None
        assert snap.blob_id(link) is None
        assert snap.exists(link)  # it is there, it is just not a regular file
    assert snap.read_many(["a.md", "link.md"]) == {"a.md": b"a\n"}


def test_worktree_symlinked_folder_leaving_the_repository(git_repo: GitRepo, repo: git.Repository,
                                                          tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret\n", encoding="utf-8")
    git_repo.commit_files({"a.md": "a\n"})
    (git_repo.path / "inbox").mkdir()
    (git_repo.path / "inbox" / "escape").symlink_to(outside, target_is_directory=True)
    snap = WorktreeSnapshot(repo, extra=["inbox/escape/secret.md"])
    assert snap.paths() == ["a.md"]
    assert snap.read("inbox/escape/secret.md") is None


def test_worktree_fifo_is_not_read(git_repo: GitRepo, repo: git.Repository) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    git_repo.commit_files({"a.md": "a\n"})
    os.mkfifo(git_repo.path / "pipe.md")
    snap = WorktreeSnapshot(repo, extra=["pipe.md"])
    assert snap.paths() == ["a.md"]
    assert snap.read("pipe.md") is None


def test_exclude_removes_files_but_not_their_existence(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"organized/big/x.md": "x\n", "organized/y.md": "y\n"})
    for snap in (WorktreeSnapshot(repo, ["organized/big/**"]), IndexSnapshot(repo, ["organized/big/**"]),
                 TreeSnapshot(repo, "HEAD", ["organized/big/**"])):
        assert snap.paths() == ["organized/y.md"]
        assert snap.read("organized/big/x.md") is None
        assert snap.blob_id("organized/big/x.md") is None
        assert snap.exists("organized/big/x.md")


# -- index and trees ---------------------------------------------------------------------

def test_index_snapshot_reads_staged_content(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "committed\n", "b.md": "b\n"})
    git_repo.write("a.md", "staged\n")
    git_repo.stage("a.md")
    git_repo.write("a.md", "on disk only\n")
    git_repo.git("update-index", "--add", "--cacheinfo", f"160000,{'2' * 40},vendor/sub")
    snap = IndexSnapshot(repo)
    assert snap.paths() == ["a.md", "b.md"]
    assert snap.read("a.md") == b"staged\n"
    assert snap.blob_id("a.md") == git_repo.blob_sha(b"staged\n")
    assert snap.read("vendor/sub") is None and snap.blob_id("vendor/sub") is None
    assert snap.exists("vendor/sub") and snap.exists("vendor")
    assert snap.read_many(["a.md", "b.md", "vendor/sub", "nope.md", "../a.md"]) == {
        "a.md": b"staged\n", "b.md": b"b\n"}


def test_index_snapshot_symlink_is_not_a_file(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write("a.md", "a\n")
    (git_repo.path / "l.md").symlink_to("/etc/hostname")
    git_repo.stage()
    snap = IndexSnapshot(repo)
    assert snap.paths() == ["a.md"]
    assert snap.read("l.md") is None


def test_tree_snapshot_at_an_older_commit(git_repo: GitRepo, repo: git.Repository) -> None:
    first = git_repo.commit_files({"a.md": "v1\n"})
    git_repo.commit_files({"a.md": "v2\n", "b.md": "b\n"})
    old = TreeSnapshot(repo, first)
    assert old.commit == first
    assert old.paths() == ["a.md"]
    assert old.read("a.md") == b"v1\n"
    assert TreeSnapshot(repo, "HEAD").read("a.md") == b"v2\n"
    with pytest.raises(GitError, match="unknown revision 'v0'"):
        TreeSnapshot(repo, "v0")



def test_an_excluded_file_is_read_only_as_excluded_and_only_from_git(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n", "templates/t.md": "- Source: [[Video]]\n"})
    tree = TreeSnapshot(repo, "HEAD", exclude=["templates/**"])
    assert tree.paths() == ["a.md"] and tree.read("templates/t.md") is None
    assert tree.read_excluded(["templates/t.md", "a.md", "gone.md"]) == {"templates/t.md": b"- Source: [[Video]]\n"}
    assert WorktreeSnapshot(repo, exclude=["templates/**"]).read_excluded(["templates/t.md"]) == {}

# -- default mode ------------------------------------------------------------------------

def test_default_mode_follows_pre_commit() -> None:
    assert default_mode({"PRE_COMMIT": "1"}) == "staged"
    assert default_mode({}) == "all"
    assert default_mode({"PRE_COMMIT": "0"}) == "all"


def test_no_mode_inside_pre_commit_is_staged(git_repo: GitRepo, repo: git.Repository,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.commit_files({"inbox/tom/a.md": "a\n"})
    git_repo.write("inbox/tom/b.md", "b\n")
    git_repo.stage()
    assert run_select(repo).mode == "all"
    monkeypatch.setenv("PRE_COMMIT", "1")
    selection = run_select(repo)
    assert selection.mode == "staged"
    assert selection.paths == ["inbox/tom/b.md"]


# -- staged ------------------------------------------------------------------------------

def test_select_staged(git_repo: GitRepo, repo: git.Repository) -> None:
    body = "long enough to be detected as the same file after a rename\n" * 4
    git_repo.commit_files({"inbox/tom/keep.md": "1\n2\n", "inbox/tom/gone.md": "g\n", "inbox/tom/mv.md": body,
                           "inbox/tom/untouched.md": "u\n"})
    git_repo.write("inbox/tom/keep.md", "1\ntwo\n")
    git_repo.write("inbox/tom/new.md", "n\n")
    git_repo.delete("inbox/tom/gone.md")
    git_repo.move("inbox/tom/mv.md", "organized/mv.md")
    git_repo.stage()
    git_repo.write("inbox/tom/keep.md", "unstaged\n")
    selection = run_select(repo, "staged")
    assert selection.mode == "staged"
    assert isinstance(selection.snapshot, IndexSnapshot)
    assert selection.paths == ["inbox/tom/keep.md", "inbox/tom/new.md", "organized/mv.md"]
    assert selection.snapshot.read("inbox/tom/keep.md") == b"1\ntwo\n"
    assert set(selection.changes) == {
        Change("M", "inbox/tom/keep.md", None, "tom", "tom@example.org"),
        Change("A", "inbox/tom/new.md", None, "tom", "tom@example.org"),
        Change("D", "inbox/tom/gone.md", None, "tom", "tom@example.org"),
        Change("R", "organized/mv.md", "inbox/tom/mv.md", "tom", "tom@example.org"),
    }
    assert selection.added_lines == {"inbox/tom/keep.md": {2}, "inbox/tom/new.md": {1}}


def test_select_staged_with_paths_is_the_staged_content_of_those_paths(git_repo: GitRepo,
                                                                      repo: git.Repository) -> None:
    git_repo.commit_files({"inbox/tom/a.md": "a\n", "inbox/tom/b.md": "b\n", "organized/c.md": "c\n"})
    git_repo.write("inbox/tom/a.md", "staged a\n")
    git_repo.write("inbox/jay/x.md", "x\n")
    git_repo.stage()
    git_repo.write("inbox/tom/a.md", "disk a\n")
    git_repo.write("inbox/tom/untracked.md", "u\n")
    # pre-commit names the staged files; `pre-commit run --all-files` names them all
    selection = run_select(repo, "staged", ["inbox/tom/a.md", "inbox/tom/untracked.md"])
    assert selection.paths == ["inbox/tom/a.md"]
    assert selection.snapshot.read("inbox/tom/a.md") == b"staged a\n"
    all_files = run_select(repo, "staged", ["inbox/tom/a.md", "inbox/tom/b.md", "organized/c.md", "inbox/jay/x.md"])
    assert all_files.paths == ["inbox/jay/x.md", "inbox/tom/a.md", "inbox/tom/b.md", "organized/c.md"]
    folder = run_select(repo, "staged", ["inbox/tom"])
    assert folder.paths == ["inbox/tom/a.md", "inbox/tom/b.md"]
    # KB007 still judges the whole staged change
    assert {c.path for c in selection.changes} == {"inbox/tom/a.md", "inbox/jay/x.md"}


def test_select_staged_path_deleted_on_disk_but_staged(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write("inbox/tom/a.md", "a\n")
    git_repo.stage()
    git_repo.remove("inbox/tom/a.md")
    selection = run_select(repo, "staged", ["inbox/tom/a.md"])
    assert selection.paths == ["inbox/tom/a.md"]
    with pytest.raises(UsageError, match=r"path does not exist: inbox/tom/nothing\.md"):
        run_select(repo, "staged", ["inbox/tom/nothing.md"])


def test_select_staged_in_an_empty_repository(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write_many({"inbox/tom/a.md": "a\nb\n", "organized/中文.md": "c\n"})
    git_repo.stage()
    selection = run_select(repo, "staged")
    assert selection.paths == ["inbox/tom/a.md", "organized/中文.md"]
    assert {(c.status, c.path) for c in selection.changes} == {("A", "inbox/tom/a.md"), ("A", "organized/中文.md")}
    assert selection.added_lines == {"inbox/tom/a.md": {1, 2}, "organized/中文.md": {1}}


def test_select_staged_unknown_author(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.git("config", "user.email", "stranger@elsewhere.net")
    git_repo.write("inbox/tom/a.md", "a\n")
    git_repo.stage()
    change, = run_select(repo, "staged").changes
    assert (change.author, change.author_label) == (None, "stranger@elsewhere.net")
    change, = run_select(repo, "staged", author="jay").changes
    assert (change.author, change.author_label) == ("jay", "jay")


def test_select_staged_excludes(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write_many({"inbox/tom/a.md": "a\n", "inbox/tom/raw/b.md": "b\n"})
    git_repo.stage()
    config = Config(authors=CONFIG.authors, exclude=("inbox/*/raw/**",))
    selection = run_select(repo, "staged", config=config)
    assert selection.paths == ["inbox/tom/a.md"]
    assert selection.snapshot.paths() == ["inbox/tom/a.md"]
    # exclusion is about reading: KB007 still sees the write
    assert {c.path for c in selection.changes} == {"inbox/tom/a.md", "inbox/tom/raw/b.md"}


# -- diff --------------------------------------------------------------------------------

def test_select_diff_judges_each_commit_by_its_author(git_repo: GitRepo, repo: git.Repository) -> None:
    base = git_repo.commit_files({"organized/knowledge/inference.md": "# doc\n", "inbox/jay/old.md": "o\n"},
                                 author="mia")
    git_repo.branch("pr")
    git_repo.checkout("pr")
    c1 = git_repo.commit_files({"inbox/jay/brief.md": "1\n2\n"}, author="jay")
    git_repo.delete("inbox/jay/old.md")
    c2 = git_repo.commit_files({"inbox/tom/brief.md": "t\n"}, author="tom")
    c3 = git_repo.commit_files({"inbox/tom/tmp.md": "t\n"}, author="stranger")
    git_repo.delete("inbox/tom/tmp.md")
    c4 = git_repo.commit("tidy", author="tom")
    git_repo.checkout("main")
    git_repo.commit_files({"organized/knowledge/inference.md": "# doc\nmain\n"}, author="mia")
    merge = git_repo.merge("pr", author="mia")
    selection = run_select(repo, "diff", rev=base)
    assert selection.mode == "diff"
    assert isinstance(selection.snapshot, TreeSnapshot) and selection.snapshot.commit == merge
    assert selection.paths == ["inbox/jay/brief.md", "inbox/tom/brief.md", "organized/knowledge/inference.md"]
    triples = {(c.commit, c.status, c.path, c.author, c.author_label) for c in selection.changes}
    assert (c1, "A", "inbox/jay/brief.md", "jay", "jay@example.org") in triples
    assert (c2, "D", "inbox/jay/old.md", "tom", "tom@example.org") in triples
    assert (c3, "A", "inbox/tom/tmp.md", None, "stranger@elsewhere.net") in triples
    assert (c4, "D", "inbox/tom/tmp.md", "tom", "tom@example.org") in triples
    assert all(c.commit != merge for c in selection.changes)
    assert selection.added_lines is not None
    assert selection.added_lines["inbox/jay/brief.md"] == {1, 2}


def test_select_diff_with_paths(git_repo: GitRepo, repo: git.Repository) -> None:
    base = git_repo.commit_files({"a.md": "a\n", "b.md": "b\n"})
    git_repo.commit_files({"a.md": "A\n", "c.md": "c\n"})
    selection = run_select(repo, "diff", ["b.md", "c.md"], rev=base)
    assert selection.paths == ["b.md", "c.md"]
    assert {c.path for c in selection.changes} == {"a.md", "c.md"}


def test_select_diff_errors(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    with pytest.raises(UsageError, match="--diff needs a revision"):
        run_select(repo, "diff")
    with pytest.raises(GitError, match="unknown revision 'origin/main'"):
        run_select(repo, "diff", rev="origin/main")


# -- all and paths -----------------------------------------------------------------------

def test_select_all(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"inbox/tom/a.md": "a\n", "organized/b.md": "b\n"})
    git_repo.write("inbox/tom/a.md", "disk\n")
    git_repo.write("untracked.md", "u\n")
    selection = run_select(repo, "all")
    assert isinstance(selection.snapshot, WorktreeSnapshot)
    assert selection.paths == ["inbox/tom/a.md", "organized/b.md"]
    assert selection.snapshot.read("inbox/tom/a.md") == b"disk\n"
    assert selection.changes == [] and selection.added_lines is None
    with pytest.raises(UsageError, match="either --all or paths"):
        run_select(repo, "all", ["organized/b.md"])


def test_select_all_in_an_empty_repository(git_repo: GitRepo, repo: git.Repository) -> None:
    selection = run_select(repo, "all")
    assert selection.paths == [] and selection.changes == []


def test_select_paths_files_and_folders(git_repo: GitRepo, repo: git.Repository,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.write(".gitignore", "*.tmp\n")
    git_repo.commit_files({"inbox/tom/a.md": "a\n", "inbox/jay/b.md": "b\n", "organized/c.md": "c\n"})
    git_repo.write("inbox/tom/new.md", "new\n")
    git_repo.write("inbox/tom/ignored.tmp", "i\n")
    git_repo.write("loose.md", "l\n")
    selection = run_select(repo, paths=["inbox/tom", "loose.md"])
    assert selection.mode == "paths"
    assert selection.paths == ["inbox/tom/a.md", "inbox/tom/new.md", "loose.md"]
    assert selection.snapshot.read("loose.md") == b"l\n"
    assert "inbox/jay/b.md" in selection.snapshot.paths()  # the whole tree is still the context
    monkeypatch.chdir(git_repo.path / "inbox" / "jay")
    assert run_select(repo, paths=["b.md", "../tom/a.md"]).paths == ["inbox/jay/b.md", "inbox/tom/a.md"]
    assert run_select(repo, paths=["../.."]).paths == [".gitignore", "inbox/jay/b.md", "inbox/tom/a.md",
                                                        "inbox/tom/new.md", "loose.md", "organized/c.md"]


def test_select_paths_outside_or_missing(git_repo: GitRepo, repo: git.Repository, tmp_path: Path) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    outside = tmp_path / "outside.md"
    outside.write_text("x\n", encoding="utf-8")
    with pytest.raises(UsageError) as info:
        run_select(repo, paths=[str(outside)])
    assert str(info.value) == f"path is outside the repository: {outside}"
    with pytest.raises(UsageError, match=r"path is outside the repository: \.\./outside\.md"):
        run_select(repo, paths=["../outside.md"])
    with pytest.raises(UsageError, match=r"path does not exist: nope\.md"):
        run_select(repo, paths=["nope.md"])
    with pytest.raises(UsageError, match="inside the git directory"):
        run_select(repo, paths=[".git/config"])


def test_select_paths_symlink_is_skipped_with_a_notice(git_repo: GitRepo, repo: git.Repository,
                                                       tmp_path: Path) -> None:
    (tmp_path / "t.md").write_text("target\n", encoding="utf-8")
    git_repo.commit_files({"a.md": "a\n"})
    (git_repo.path / "link.md").symlink_to(tmp_path / "t.md")
    selection = run_select(repo, paths=["link.md", "a.md"])
    assert selection.paths == ["a.md"]
    assert selection.notices == ["link.md: skipped: symlink (not followed)"]
    assert selection.snapshot.read("link.md") is None


def test_select_paths_excluded_file_is_dropped(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"raw/a.md": "a\n", "b.md": "b\n"})
    config = Config(exclude=("raw/**",))
    assert run_select(repo, paths=["raw/a.md", "b.md"], config=config).paths == ["b.md"]


def test_unknown_mode(git_repo: GitRepo, repo: git.Repository) -> None:
    with pytest.raises(UsageError, match="unknown mode 'everything'"):
        run_select(repo, "everything")


# -- inside a real git hook --------------------------------------------------------------

HOOK = """#!{python}
import json, sys
from pathlib import Path
from kbcheck.config import Config
from kbcheck.git import open_repository
from kbcheck.authors import judged_as
from kbcheck.sources import select

with open_repository(Path.cwd()) as repo:
    selection = judged_as(repo, Config(), select(repo, Config(), mode=None, paths=[], rev=None))
    report = {{"mode": selection.mode, "paths": selection.paths,
              "content": {{p: selection.snapshot.read(p).decode() for p in selection.paths}},
              "changes": [[c.status, c.path, c.author_label] for c in selection.changes]}}
Path({out!r}).write_text(json.dumps(report), encoding="utf-8")
"""


def test_inside_a_git_hook_sees_what_is_being_committed(git_repo: GitRepo, tmp_path: Path) -> None:
    """`git commit -a` commits through a temporary index (GIT_INDEX_FILE): the hook must see that."""
    import json
    import sys

    git_repo.commit_files({"inbox/tom/a.md": "old\n", "inbox/tom/b.md": "b\n"})
    out = tmp_path / "hook-output.json"
    hook = git_repo.path / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(HOOK.format(python=sys.executable, out=str(out)), encoding="utf-8")
    hook.chmod(0o755)
    git_repo.write("inbox/tom/a.md", "new, never staged by hand\n")
    project = Path(__file__).resolve().parents[1]
    result = git_repo.run("commit", "-q", "-a", "-m", "via hook",
                          env={"PRE_COMMIT": "1", "PYTHONPATH": str(project)}, check=False)
    assert result.returncode == 0, result.stderr.decode()
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen == {
        "mode": "staged",
        "paths": ["inbox/tom/a.md"],
        "content": {"inbox/tom/a.md": "new, never staged by hand\n"},
        "changes": [["M", "inbox/tom/a.md", "tom@example.org"]],
    }


def test_inside_a_git_hook_the_commit_author_is_the_one_git_will_record(git_repo: GitRepo, tmp_path: Path) -> None:
    """`git commit --author=...` exports GIT_AUTHOR_EMAIL to the hook: KB007 judges that author."""
    import json
    import sys

    git_repo.commit_files({"inbox/jay/a.md": "old\n"})
    out = tmp_path / "hook-output.json"
    hook = git_repo.path / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(HOOK.format(python=sys.executable, out=str(out)), encoding="utf-8")
    hook.chmod(0o755)
    git_repo.write("inbox/jay/a.md", "jay's edit\n")
    git_repo.stage()
    project = Path(__file__).resolve().parents[1]
    result = git_repo.run("commit", "-q", "--author=Jay <jay@example.org>", "-m", "as jay",
                          env={"PRE_COMMIT": "1", "PYTHONPATH": str(project)}, check=False)
    assert result.returncode == 0, result.stderr.decode()
    assert json.loads(out.read_text(encoding="utf-8"))["changes"] == [["M", "inbox/jay/a.md", "jay@example.org"]]
