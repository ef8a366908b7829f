"""The git layer against real repositories."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo

from kbcheck import git
from kbcheck.errors import GitError
from kbcheck.sources import Change

ODD_NAMES = ["with space.md", "中文 笔记.md", "-leading-dash.md", "new\nline.md", 'quote"tab\t.md']


@pytest.fixture
def repo(git_repo: GitRepo):
    handle = git.open_repository(git_repo.path)
    yield handle
    handle.close()


def statuses(changes: list[Change]) -> set[tuple[str, str, str | None]]:
    return {(c.status, c.path, c.old_path) for c in changes}


def staged(repo: git.Repository) -> list[Change]:
    """The staged changes, checking that the one-command reading agrees with the two separate ones."""
    changes = git.staged_changes(repo)
    assert git.staged_diff(repo) == (changes, git.added_lines(repo, staged=True))
    return changes


# -- opening -----------------------------------------------------------------------------

def test_open_from_a_subfolder_finds_the_top(git_repo: GitRepo) -> None:
    git_repo.write("inbox/tom/a.md", "a\n")
    with git.open_repository(git_repo.path / "inbox" / "tom") as handle:
        assert handle.root == git_repo.path.resolve()
        assert handle.git_dir == (git_repo.path / ".git").resolve()
        assert handle.common_dir == handle.git_dir


def test_open_outside_a_repository_is_a_one_line_git_error(tmp_path: Path) -> None:
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    with pytest.raises(GitError) as info:
        git.open_repository(lonely)
    assert str(info.value).startswith("not a git repository")
    assert str(lonely) in str(info.value)
    assert "\n" not in str(info.value)


def test_open_a_missing_folder_is_a_git_error(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="not a git repository"):
        git.open_repository(tmp_path / "nowhere")


def test_linked_worktree_has_its_own_git_dir(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    other = tmp_path / "other-tree"
    git_repo.git("worktree", "add", "-q", str(other), "-b", "side")
    with git.open_repository(other) as handle:
        assert handle.root == other.resolve()
        assert handle.git_dir == (git_repo.path / ".git" / "worktrees" / "other-tree").resolve()
        assert handle.common_dir == (git_repo.path / ".git").resolve()
        assert git.head_sha(handle) == git_repo.head()


# -- revisions ---------------------------------------------------------------------------

def test_empty_repository_has_no_head(repo: git.Repository) -> None:
    assert git.head_sha(repo) is None
    with pytest.raises(GitError, match="unknown revision 'HEAD': the repository has no commits yet"):
        git.resolve(repo, "HEAD")


def test_resolve_gives_the_full_sha(git_repo: GitRepo, repo: git.Repository) -> None:
    first = git_repo.commit_files({"a.md": "a\n"}, "first")
    second = git_repo.commit_files({"b.md": "b\n"}, "second")
    assert git.head_sha(repo) == second
    assert git.resolve(repo, "HEAD~1") == first
    assert git.resolve(repo, first[:10]) == first
    assert git.resolve(repo, "main") == second


def test_unknown_revision_message(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    with pytest.raises(GitError) as info:
        git.resolve(repo, "no-such-branch")
    assert str(info.value) == "unknown revision 'no-such-branch'"


@pytest.mark.parametrize("rev", ["--all", "-n", "", "a\nb"])
def test_option_like_revisions_are_refused(git_repo: GitRepo, repo: git.Repository, rev: str) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    with pytest.raises(GitError, match="unknown revision"):
        git.resolve(repo, rev)


def test_shallow_clone_says_to_fetch_full_history(git_repo: GitRepo, tmp_path: Path) -> None:
    first = git_repo.commit_files({"a.md": "a\n"}, "first")
    git_repo.commit_files({"b.md": "b\n"}, "second")
    git_repo.commit_files({"c.md": "c\n"}, "third")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{git_repo.path}", str(clone)],
                   env=git_repo.env, check=True, capture_output=True)
    with git.open_repository(clone) as handle:
        assert git.is_shallow(handle)
        with pytest.raises(GitError) as info:
            git.resolve(handle, first)
        message = str(info.value)
        assert message.startswith(f"unknown revision '{first}'")
        assert "shallow" in message and "fetch-depth: 0" in message
        with pytest.raises(GitError, match="shallow"):
            git.range_commits(handle, first)


def test_full_clone_is_not_shallow(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    assert not git.is_shallow(repo)


def test_commit_date_is_iso_with_its_offset(git_repo: GitRepo, repo: git.Repository) -> None:
    sha = git_repo.commit_files({"a.md": "a\n"}, date="2026-10-29T22:20:00+08:00")
    assert git.commit_date(repo, sha) == "2026-10-29T22:20:00+08:00"
    assert git.commit_date(repo, "HEAD") == "2026-10-29T22:20:00+08:00"


def test_config_value(git_repo: GitRepo, repo: git.Repository) -> None:
    assert git.config_value(repo, "user.email") == "tom@example.org"
    assert git.config_value(repo, "kbcheck.author") is None
    git_repo.git("config", "kbcheck.author", "jay")
    assert git.config_value(repo, "kbcheck.author") == "jay"


def test_ancestry(git_repo: GitRepo, repo: git.Repository) -> None:
    base = git_repo.commit_files({"a.md": "a\n"})
    git_repo.branch("side")
    main_tip = git_repo.commit_files({"b.md": "b\n"})
    git_repo.checkout("side")
    side_tip = git_repo.commit_files({"c.md": "c\n"})
    assert git.merge_base(repo, main_tip, side_tip) == base


# -- file lists --------------------------------------------------------------------------

def test_ls_index_with_odd_names(git_repo: GitRepo, repo: git.Repository) -> None:
    for i, name in enumerate(ODD_NAMES):
        git_repo.write(f"inbox/tom/{name}", f"{i}\n")
    git_repo.stage()
    entries = git.ls_index(repo)
    assert sorted(entries) == sorted(f"inbox/tom/{name}" for name in ODD_NAMES)
    for i, name in enumerate(ODD_NAMES):
        sha = git_repo.blob_sha(f"{i}\n".encode())
        meta = entries[f"inbox/tom/{name}"]
        assert meta == f"100644 {sha} 0"
        assert meta[git.INDEX_SHA] == sha


def test_ls_index_takes_our_side_of_a_conflict(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"doc.md": "base\n", "other.md": "x\n"})
    git_repo.branch("theirs")
    git_repo.commit_files({"doc.md": "ours\n"})
    git_repo.checkout("theirs")
    git_repo.commit_files({"doc.md": "theirs\n"})
    git_repo.checkout("main")
    result = git_repo.run("merge", "theirs", check=False)
    assert result.returncode != 0  # a real conflict
    entries = git.ls_index(repo)
    assert entries["doc.md"][git.INDEX_SHA] == git_repo.blob_sha(b"ours\n")
    assert entries["other.md"][git.INDEX_SHA] == git_repo.blob_sha(b"x\n")
    assert list(entries) == ["doc.md", "other.md"]


def test_ls_tree_lists_files_symlinks_and_submodules(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write("organized/中文.md", "x\n")
    (git_repo.path / "link.md").symlink_to("organized/中文.md")
    git_repo.stage()
    gitlink = "1" * 40
    git_repo.git("update-index", "--add", "--cacheinfo", f"160000,{gitlink},vendor/sub")
    sha = git_repo.commit("with links")
    entries = git.ls_tree(repo, sha)
    sha = git_repo.blob_sha(b"x\n")
    assert entries["organized/中文.md"] == f"100644 blob {sha}"
    assert entries["organized/中文.md"][git.TREE_SHA] == sha
    assert entries["link.md"][:6] == git.SYMLINK_MODE
    assert entries["vendor/sub"] == f"{git.GITLINK_MODE} commit {gitlink}"


def test_ls_tree_unknown_rev(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    with pytest.raises(GitError, match="unknown revision 'v9'"):
        git.ls_tree(repo, "v9")


def test_ls_worktree_tracked_and_untracked(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write(".gitignore", "*.tmp\n")
    git_repo.commit_files({"-a.md": "a\n", "dir/b c.md": "b\n"})
    git_repo.write("new.md", "n\n")
    git_repo.write("junk.tmp", "j\n")
    assert git.ls_worktree(repo) == ["-a.md", "dir/b c.md"]
    assert git.ls_worktree(repo, untracked=True) == ["-a.md", ".gitignore", "dir/b c.md", "new.md"]
    assert git.ls_worktree(repo, untracked=True, under=["dir"]) == ["dir/b c.md"]


# -- blobs -------------------------------------------------------------------------------

def test_read_blobs_many_at_once_and_a_few_one_by_one(git_repo: GitRepo, repo: git.Repository) -> None:
    contents = {f"organized/paper_cards/{i:04d}.md": f"card {i}\n".encode() * (i % 7 + 1) for i in range(300)}
    contents["bin.dat"] = bytes(range(256)) * 3  # binary, with NUL and newlines
    contents["big.md"] = "长文本\n".encode() * 200_000  # larger than any pipe buffer
    git_repo.write_many(contents)
    git_repo.stage()
    entries = git.ls_index(repo)
    blobs = git.read_blobs(repo, [meta[git.INDEX_SHA] for meta in entries.values()])  # pipelined: one batch process
    assert {path: blobs[entries[path][git.INDEX_SHA]] for path in contents} == contents
    assert repo.handle.git.cat_file_all is None  # the persistent process was not needed
    again = git.read_blobs(repo, [entries["bin.dat"][git.INDEX_SHA]])
    assert again == {entries["bin.dat"][git.INDEX_SHA]: contents["bin.dat"]}
    process = repo.handle.git.cat_file_all
    assert process is not None
    git.read_blobs(repo, [entries["big.md"][git.INDEX_SHA]])
    assert repo.handle.git.cat_file_all is process  # still the same persistent process


def test_a_batch_skips_missing_ids_and_trees(git_repo: GitRepo, repo: git.Repository) -> None:
    files = {f"{i}.md": f"{i}\n" for i in range(20)}
    git_repo.commit_files(files)
    shas = [git_repo.blob_sha(text.encode()) for text in files.values()]
    tree = git_repo.git("rev-parse", "HEAD^{tree}")
    missing = "0123456789" * 4
    blobs = git.read_blobs(repo, [missing, *shas[:10], tree, *shas[10:], missing])
    assert blobs == {sha: text.encode() for sha, text in zip(shas, files.values())}


def test_read_blobs_skips_missing_and_malformed(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    real = git_repo.blob_sha(b"a\n")
    missing = "0123456789" * 4
    blobs = git.read_blobs(repo, [missing, real, "not-a-sha", "HEAD", real])
    assert blobs == {real: b"a\n"}
    # a tree id is not a blob
    tree = git_repo.git("rev-parse", "HEAD^{tree}")
    assert git.read_blobs(repo, [tree]) == {}


# -- changes -----------------------------------------------------------------------------

def test_staged_add_modify_delete_rename(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({
        "inbox/tom/keep.md": "keep\n",
        "inbox/tom/gone.md": "gone\n",
        "inbox/tom/move.md": "a long enough body to be recognised as a rename\n" * 5,
    })
    git_repo.write("inbox/tom/keep.md", "changed\n")
    git_repo.write("inbox/tom/new.md", "new\n")
    git_repo.delete("inbox/tom/gone.md")
    git_repo.move("inbox/tom/move.md", "organized/guides/move.md")
    git_repo.stage()
    assert statuses(staged(repo)) == {
        ("M", "inbox/tom/keep.md", None),
        ("A", "inbox/tom/new.md", None),
        ("D", "inbox/tom/gone.md", None),
        ("R", "organized/guides/move.md", "inbox/tom/move.md"),
    }


def test_staged_changes_ignore_unstaged_edits(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    git_repo.write("a.md", "edited but not staged\n")
    git_repo.write("b.md", "untracked\n")
    assert staged(repo) == []


def test_staged_changes_in_an_empty_repository(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write_many({"inbox/tom/a.md": "a\n", "中文.md": "b\n"})
    git_repo.stage()
    assert statuses(staged(repo)) == {("A", "inbox/tom/a.md", None), ("A", "中文.md", None)}
    assert git.added_lines(repo, staged=True) == {"inbox/tom/a.md": {1}, "中文.md": {1}}


def test_staged_changes_with_odd_names(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"seed.md": "s\n"})
    for name in ODD_NAMES:
        git_repo.write(name, "x\n")
    git_repo.stage()
    assert statuses(staged(repo)) == {("A", name, None) for name in ODD_NAMES}


def test_a_copy_is_an_addition(git_repo: GitRepo, repo: git.Repository) -> None:
    body = "the same long body, copied verbatim into a second file\n" * 5
    git_repo.commit_files({"inbox/tom/a.md": body})
    git_repo.git("config", "diff.renames", "copies")
    git_repo.write("organized/a-copy.md", body)
    git_repo.stage()
    assert statuses(staged(repo)) == {("A", "organized/a-copy.md", None)}


def test_detached_head(git_repo: GitRepo, repo: git.Repository) -> None:
    first = git_repo.commit_files({"a.md": "a\n"}, author="tom")
    second = git_repo.commit_files({"b.md": "b\n"}, author="jay")
    git_repo.checkout(second)  # detached
    assert git_repo.run("symbolic-ref", "-q", "HEAD", check=False).returncode != 0
    assert git.head_sha(repo) == second
    assert git.resolve(repo, "HEAD") == second
    commits = git.range_commits(repo, first)
    assert [(c.sha, c.author_email) for c in commits] == [(second, "jay@example.org")]
    git_repo.write("c.md", "c\n")
    git_repo.stage()
    assert statuses(staged(repo)) == {("A", "c.md", None)}


def test_range_commits_with_a_merge(git_repo: GitRepo, repo: git.Repository) -> None:
    base = git_repo.commit_files({"organized/knowledge/inference.md": "# doc\n"}, author="mia")
    git_repo.branch("feature")
    git_repo.checkout("feature")
    c_jay = git_repo.commit_files({"inbox/jay/brief.md": "jay\n"}, "jay writes", author="jay")
    git_repo.move("inbox/jay/brief.md", "inbox/jay/2026/brief.md")
    c_spark = git_repo.commit("spark moves", author="spark")
    git_repo.checkout("main")
    c_tom = git_repo.commit_files({"inbox/tom/中文 brief.md": "tom\n"}, "tom writes", author="tom")
    merge = git_repo.merge("feature", author="mia")
    commits = git.range_commits(repo, base)
    assert merge not in {c.sha for c in commits}  # the merge contributes no paths of its own
    by_sha = {c.sha: c for c in commits}
    assert set(by_sha) == {c_jay, c_spark, c_tom}
    assert (by_sha[c_jay].author_name, by_sha[c_jay].author_email) == ("Jay", "jay@example.org")
    assert statuses(by_sha[c_jay].changes) == {("A", "inbox/jay/brief.md", None)}
    assert statuses(by_sha[c_spark].changes) == {("R", "inbox/jay/2026/brief.md", "inbox/jay/brief.md")}
    assert by_sha[c_spark].author_email == "spark@example.org"
    assert statuses(by_sha[c_tom].changes) == {("A", "inbox/tom/中文 brief.md", None)}
    # oldest first along each line of history
    order = [c.sha for c in commits]
    assert order.index(c_jay) < order.index(c_spark)


def test_range_commits_odd_authors_and_empty_commits(git_repo: GitRepo, repo: git.Repository) -> None:
    base = git_repo.commit_files({"a.md": "a\n"})
    empty = git_repo.commit("nothing", allow_empty=True, name="Zoë 中", email="")
    named = git_repo.commit_files({"b.md": "b\n"}, name="-dash name", email="odd+tag@example.org")
    commits = git.range_commits(repo, base)
    assert [(c.sha, c.author_name, c.author_email, c.changes) for c in commits] == [
        (empty, "Zoë 中", "", []),
        (named, "-dash name", "odd+tag@example.org", [Change("A", "b.md")]),
    ]


def test_range_commits_empty_range(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    assert git.range_commits(repo, "HEAD") == []


def test_diff_paths_with_rename(git_repo: GitRepo, repo: git.Repository) -> None:
    body = "a card body long enough for rename detection\n" * 4
    base = git_repo.commit_files({"inbox/tom/a.md": body, "x.md": "x\n"})
    git_repo.move("inbox/tom/a.md", "organized/paper_cards/a.md")
    git_repo.delete("x.md")
    head = git_repo.commit_files({"y.md": "y\n"})
    assert statuses(git.diff_paths(repo, base, head)) == {
        ("R", "organized/paper_cards/a.md", "inbox/tom/a.md"),
        ("D", "x.md", None),
        ("A", "y.md", None),
    }
    with pytest.raises(GitError, match="unknown revision"):
        git.diff_paths(repo, "nope", head)


# -- added lines -------------------------------------------------------------------------

def test_added_lines_staged_hunks(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"doc.md": "".join(f"line {i}\n" for i in range(1, 11)), "gone.md": "g\n"})
    lines = [f"line {i}\n" for i in range(1, 11)]
    lines[2] = "changed 3\n"          # modified line 3
    del lines[5]                      # removed old line 6 (nothing added there)
    lines.insert(7, "inserted\n")     # new line 8 in the new version
    lines.append("appended\n")        # new last line (11)
    git_repo.write("doc.md", "".join(lines))
    git_repo.delete("gone.md")
    git_repo.stage()
    git_repo.write("doc.md", "unstaged edits do not count\n")
    assert git.added_lines(repo, staged=True) == {"doc.md": {3, 8, 11}}
    assert git.staged_diff(repo) == ([Change("M", "doc.md"), Change("D", "gone.md")], {"doc.md": {3, 8, 11}})


def test_added_lines_working_tree(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"doc.md": "a\nb\n"})
    git_repo.write("doc.md", "a\nB\nc\n")
    assert git.added_lines(repo) == {"doc.md": {2, 3}}


def test_added_lines_range_from_the_merge_base(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"doc.md": "1\n2\n3\n", "main.md": "m\n"})
    git_repo.branch("feature")
    git_repo.commit_files({"main.md": "m\nmain moved on\n"})  # not part of the feature's change
    git_repo.checkout("feature")
    git_repo.commit_files({"doc.md": "1\ntwo\n3\n", "with space 中.md": "x\ny\n"})
    assert git.added_lines(repo, base="main") == {"doc.md": {2}, "with space 中.md": {1, 2}}


def test_added_lines_quoted_names(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"seed.md": "s\n"})
    for name in ODD_NAMES:
        git_repo.write(name, "one\ntwo\n")
    git_repo.stage()
    assert git.added_lines(repo, staged=True) == {name: {1, 2} for name in ODD_NAMES}


def test_added_lines_unrelated_histories(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.commit_files({"a.md": "a\n"})
    git_repo.git("checkout", "-q", "--orphan", "other")
    git_repo.commit_files({"b.md": "b\n"})
    with pytest.raises(GitError, match="no common ancestor"):
        git.added_lines(repo, base="main")


def test_parse_added_lines() -> None:
    patch = (
        b"diff --git a/x.md b/x.md\n"
        b"--- a/x.md\n+++ b/x.md\n"
        b"@@ -3 +3 @@\n-old\n+new\n"
        b"@@ -10,2 +9,0 @@\n-gone\n-gone\n"
        b"@@ -20,0 +19,3 @@\n+a\n+b\n+c\n"
        b'diff --git "a/na\\303\\257ve\\tname.md" "b/na\\303\\257ve\\tname.md"\n'
        b'--- /dev/null\n+++ "b/na\\303\\257ve\\tname.md"\n'
        b"@@ -0,0 +1 @@\n+x\n"
        b"diff --git a/del.md b/del.md\n--- a/del.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    )
    assert git.parse_added_lines(patch) == {"x.md": {3, 19, 20, 21}, "naïve\tname.md": {1}}


# -- import cost -------------------------------------------------------------------------

def test_importing_the_layer_does_not_import_gitpython() -> None:
    code = (
        "import sys, kbcheck.git, kbcheck.sources, kbcheck.authors, kbcheck.cache, "
        "kbcheck.rules.kb007_write_outside_inbox; print('git' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- ignored paths ---------------------------------------------------------------------

def test_ignore_checker_answers_batch_after_batch_from_one_process(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write(".gitignore", "raw/\n*.pdf\n!keep.pdf\n")
    git_repo.commit_all("ignore")
    checker = git.IgnoreChecker(repo)
    assert checker.ignored(["raw/a.pdf", "notes/a.md", "中文/论文.pdf"]) == {"raw/a.pdf": "raw/", "中文/论文.pdf": "*.pdf"}
    first = checker._process
    assert checker.ignored(["keep.pdf", "notes/b.md"]) == {}  # a negated pattern keeps a path in
    assert checker.ignored(["raw/deep/x.png"]) == {"raw/deep/x.png": "raw/"}
    assert checker._process is first
    checker.close()


def test_ignore_checker_refused_path_clears_its_batch_only(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.write(".gitignore", "raw/\n")
    git_repo.commit_all("ignore")
    checker = git.IgnoreChecker(repo)
    # git refuses a path outside the repository and stops: nothing of that batch is ignored, as one call says
    assert checker.ignored(["raw/a.pdf", "../outside.md"]) == {}
    assert checker.ignored(["raw/b.pdf", "a.md"]) == {"raw/b.pdf": "raw/"}
    checker.close()
