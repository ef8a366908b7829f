"""The hooks work for real: the pre-commit framework installing this repository, and the plain git hook.

A session fixture copies this repository's working files (tracked and
untracked, so uncommitted work is tested) into a temporary repository and
commits them; knowledge-base repositories then point `.pre-commit-config.yaml`
at that copy. pre-commit builds kbcheck's environment once per session with
a real, non-editable `pip install` (slow: it fetches the dependencies from
the package index), which also lets us check that the installed package
carries the example knowledge base and runs `kbcheck demo`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from gitrepo import AUTHORS, GitRepo, isolated_env

ROOT = Path(__file__).resolve().parents[1]
PLAIN_HOOK = ROOT / "hooks" / "pre-commit"

pytestmark = pytest.mark.skipif(os.name == "nt", reason="the hooks are exercised through POSIX shells")

KB_CONFIG = """\
[authors.tom]
emails = ["tom@example.org"]
role = "writer"

[authors.jay]
emails = ["jay@example.org"]
role = "writer"

[authors.lead]
emails = ["lead@example.org"]
role = "maintainer"
"""

CLEAN_BRIEF = """\
# tom · 简报(2026-10-30)

## 复查项

来源：organized/repo_cards/4572-recursive-oss-rec.md

卡片现为 245⭐ / 周增 +14，只需更新活文档里的数字。
"""

REC_CARD = """\
---
repo: recursive-oss/rec
stars: 245
weekly_growth: 14
---

# recursive-oss/rec
"""

#: an arXiv id with no paper card: KB004, an error in briefs
UNKNOWN_PAPER_BRIEF = "# tom\n\n- 新论文 arXiv:2610.99999 值得一读。\n"


def run(args: list[str], cwd: Path, env: Mapping[str, str], check: bool = False) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=cwd, env=dict(env), capture_output=True, text=True, check=False)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def working_files(root: Path) -> list[str]:
    """This repository's tracked and untracked files (not ignored ones), as they are on disk."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=root, capture_output=True, check=False)
    if listed.returncode != 0:  # not a git checkout (an unpacked sdist): every file but caches
        skip = {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".venv", "build", "dist"}
        return [str(p.relative_to(root)) for p in root.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(root).parts) and ".egg-info" not in str(p)]
    names = sorted({name for name in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if name})
    return [name for name in names if (root / name).is_file() or (root / name).is_symlink()]


@dataclass
class HookSource:
    """The temporary copy of this repository that knowledge bases install the hooks from."""

    path: Path
    sha: str


@pytest.fixture(scope="session")
def hook_source(tmp_path_factory: pytest.TempPathFactory) -> HookSource:
    target = tmp_path_factory.mktemp("kbcheck-source") / "kbcheck"
    for name in working_files(ROOT):
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, destination, follow_symlinks=False)
    repo = GitRepo.create(target, name="lead", email="lead@example.org",
                          home=tmp_path_factory.mktemp("kbcheck-source-home"))
    sha = repo.commit_all("kbcheck working files", name="lead", email="lead@example.org")
    return HookSource(target, sha)


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@dataclass
class KnowledgeBase:
    repo: GitRepo
    env: dict[str, str]

    def commit_as(self, who: str, message: str = "change") -> subprocess.CompletedProcess[str]:
        """`git commit` of what is staged, with the hooks, as `who`."""
        name, email = AUTHORS[who] if who in AUTHORS else (who, f"{who}@example.org")
        identity = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
                    "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email}
        return run(["git", "commit", "-m", message], self.repo.path, {**self.env, **identity})

    def pre_commit(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run([sys.executable, "-m", "pre_commit", *args], self.repo.path, self.env)


def make_knowledge_base(tmp_path: Path, source: HookSource, home: Path, hook_ids: tuple[str, ...],
                        args: tuple[str, ...] = ()) -> KnowledgeBase:
    repo = GitRepo.create(tmp_path / "kb", name="lead", email="lead@example.org", home=tmp_path / "home")
    with_args = f"        args: [{', '.join(args)}]\n" if args else ""
    hooks = "".join(f"      - id: {hook_id}\n{with_args}" for hook_id in hook_ids)
    repo.write_many({
        ".kbcheck.toml": KB_CONFIG,
        ".pre-commit-config.yaml": f"repos:\n  - repo: {source.path}\n    rev: {source.sha}\n    hooks:\n{hooks}",
        "inbox/jay/x.md": "# jay\n",
        "organized/repo_cards/4572-recursive-oss-rec.md": REC_CARD,
    })
    repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    env = {**repo.env, "PRE_COMMIT_HOME": str(home)}
    kb = KnowledgeBase(repo, env)
    installed = kb.pre_commit("install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    repo.git("config", "kbcheck.author", "tom")
    return kb


@pytest.fixture
def knowledge_base(tmp_path: Path, hook_source: HookSource, pre_commit_home: Path) -> KnowledgeBase:
    """A knowledge base whose clone has both hooks installed, worked on by tom."""
    return make_knowledge_base(tmp_path, hook_source, pre_commit_home, ("kbcheck", "kbcheck-write-scope"))


@pytest.fixture(scope="session")
def hook_environment(tmp_path_factory: pytest.TempPathFactory, hook_source: HookSource, pre_commit_home: Path) -> Path:
    """pre-commit's environment for the hooks (built once): the bin folder of a non-editable install."""
    kb = make_knowledge_base(tmp_path_factory.mktemp("warm-up"), hook_source, pre_commit_home, ("kbcheck",))
    result = kb.pre_commit("install-hooks")
    assert result.returncode == 0, result.stdout + result.stderr
    (bin_dir,) = {p.parent for p in pre_commit_home.glob("*/py_env-*/bin/kbcheck")}
    return bin_dir


# -- the pre-commit framework -----------------------------------------------------------
def test_writing_into_another_writers_inbox_is_blocked(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    repo = knowledge_base.repo
    before = repo.head()
    repo.write("inbox/jay/x.md", "# jay\n\ntom was here\n")
    repo.stage("inbox/jay/x.md")
    result = knowledge_base.commit_as("tom")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "KB007" in output and "inbox/jay/x.md" in output
    assert "may write only inbox/tom/**" in output
    assert repo.head() == before


def test_writing_into_ones_own_inbox_is_committed(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    repo = knowledge_base.repo
    repo.write("inbox/tom/x.md", CLEAN_BRIEF)
    repo.stage("inbox/tom/x.md")
    result = knowledge_base.commit_as("tom", "tom: brief")
    assert result.returncode == 0, result.stdout + result.stderr
    assert repo.git("log", "-1", "--format=%ae %s") == "tom@example.org tom: brief"
    assert repo.git("show", "--name-only", "--format=", "HEAD") == "inbox/tom/x.md"


def test_deleting_another_writers_file_is_blocked(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    """No file is left to pass to hooks: `always_run` is what makes KB007 see the deletion."""
    repo = knowledge_base.repo
    before = repo.head()
    repo.delete("inbox/jay/x.md")
    result = knowledge_base.commit_as("tom")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "KB007" in output and "deletes inbox/jay/x.md" in output
    assert repo.head() == before


#: a brief whose numbers cite nothing: two KB005 warnings, no error
UNSOURCED_BRIEF = "# tom\n\n- The new kernel is 3.5x faster and reaches 92% accuracy.\n"


def test_a_new_warning_fails_the_commit_and_its_writer_sees_it(knowledge_base: KnowledgeBase,
                                                                hook_environment: Path) -> None:
    """pre-commit hides a passing hook's output: a warning that passed would be seen by nobody."""
    repo = knowledge_base.repo
    before = repo.head()
    repo.write("inbox/tom/x.md", UNSOURCED_BRIEF)
    repo.stage("inbox/tom/x.md")
    result = knowledge_base.commit_as("tom")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert output.count("KB005") == 2 and "3.5x" in output and "92%" in output
    assert repo.head() == before


@pytest.mark.parametrize("args", [("--exit-zero",), ("--no-strict",)])
def test_a_writer_can_let_warnings_pass(tmp_path: Path, hook_source: HookSource, pre_commit_home: Path,
                                         hook_environment: Path, args: tuple[str, ...]) -> None:
    kb = make_knowledge_base(tmp_path, hook_source, pre_commit_home, ("kbcheck",), args)
    kb.repo.write("inbox/tom/x.md", UNSOURCED_BRIEF)
    kb.repo.stage("inbox/tom/x.md")
    result = kb.commit_as("tom", "tom: brief")
    assert result.returncode == 0, result.stdout + result.stderr
    assert kb.repo.git("log", "-1", "--format=%s") == "tom: brief"


def test_the_write_scope_hook_runs_only_kb007(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    repo = knowledge_base.repo
    # KB004 needs paper cards to compare with (with none, it gives one notice): a maintainer's card
    repo.write("organized/paper_cards/0001-2610-02076.md", '---\narxiv: "2610.02076"\ntitle: "A paper"\n---\n')
    repo.stage("organized/paper_cards/0001-2610-02076.md")
    repo.git("commit", "--no-verify", "-q", "-m", "maintainer: a paper card")
    repo.write("inbox/tom/new.md", UNKNOWN_PAPER_BRIEF)
    repo.stage("inbox/tom/new.md")
    scope = knowledge_base.pre_commit("run", "kbcheck-write-scope")
    assert scope.returncode == 0, scope.stdout + scope.stderr
    full = knowledge_base.pre_commit("run", "kbcheck")
    assert full.returncode != 0
    assert "KB004" in full.stdout and "2610.99999" in full.stdout


def test_the_author_can_come_from_the_environment(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    repo = knowledge_base.repo
    repo.git("config", "--unset", "kbcheck.author")
    repo.write("inbox/jay/y.md", "# jay\n")
    repo.stage("inbox/jay/y.md")
    as_jay = run(["git", "commit", "-m", "jay: y"], repo.path,
                 {**knowledge_base.env, "KBCHECK_AUTHOR": "jay", "GIT_AUTHOR_NAME": "Jay",
                  "GIT_AUTHOR_EMAIL": "jay@example.org", "GIT_COMMITTER_NAME": "Jay",
                  "GIT_COMMITTER_EMAIL": "jay@example.org"})
    assert as_jay.returncode == 0, as_jay.stdout + as_jay.stderr
    repo.write("inbox/jay/y.md", "# jay\n\nedited\n")
    repo.stage("inbox/jay/y.md")
    as_tom = run(["git", "commit", "-m", "tom edits y"], repo.path, {**knowledge_base.env, "KBCHECK_AUTHOR": "tom"})
    assert as_tom.returncode != 0 and "KB007" in as_tom.stdout + as_tom.stderr


# -- the installed package ---------------------------------------------------------------
def test_the_installed_package_carries_the_example(hook_environment: Path, tmp_path: Path) -> None:
    # -I: not the checkout in the current directory, only the environment's own site-packages
    result = run([str(hook_environment / "python"), "-I", "-c",
                  "import kbcheck.demo as d; print(d.example_root())"], tmp_path, os.environ, check=True)
    installed = Path(result.stdout.strip())
    assert installed.name == "example-kb" and "site-packages" in installed.parts
    expected = sorted(str(p.relative_to(ROOT / "examples/knowledge-base"))
                      for p in (ROOT / "examples/knowledge-base").rglob("*") if p.is_file())
    shipped = sorted(str(p.relative_to(installed)) for p in installed.rglob("*")
                     if p.is_file() and p.name != "README" and "__pycache__" not in p.parts)
    assert shipped == expected


def test_kbcheck_demo_runs_from_any_directory_after_a_plain_install(hook_environment: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = isolated_env(tmp_path / "home")
    result = run([str(hook_environment / "kbcheck"), "demo"], elsewhere, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "KB007" in result.stdout and "KB001" in result.stdout
    assert list(elsewhere.iterdir()) == []


# -- the plain git hook ---------------------------------------------------------------------
@pytest.fixture
def plain_hooked(tmp_path: Path) -> Iterator[KnowledgeBase]:
    """A knowledge base with hooks/pre-commit as its git hook and kbcheck on PATH."""
    repo = GitRepo.create(tmp_path / "kb", name="lead", email="lead@example.org", home=tmp_path / "home")
    repo.write_many({".kbcheck.toml": KB_CONFIG, "inbox/jay/x.md": "# jay\n"})
    repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    hook = repo.path / ".git" / "hooks" / "pre-commit"
    shutil.copy(PLAIN_HOOK, hook)
    hook.chmod(0o755)
    repo.git("config", "kbcheck.author", "tom")
    path = os.pathsep.join([str(Path(sys.executable).parent), repo.env["PATH"]])
    yield KnowledgeBase(repo, {**repo.env, "PATH": path})


def test_plain_hook_blocks_and_passes(plain_hooked: KnowledgeBase) -> None:
    assert shutil.which("kbcheck", path=plain_hooked.env["PATH"]), "kbcheck is not installed next to this Python"
    repo = plain_hooked.repo
    repo.write("inbox/jay/x.md", "# jay\n\ntom was here\n")
    repo.stage("inbox/jay/x.md")
    blocked = plain_hooked.commit_as("tom")
    assert blocked.returncode == 1 and "KB007" in blocked.stdout + blocked.stderr
    repo.git("checkout", "HEAD", "--", "inbox/jay/x.md")
    repo.write("inbox/tom/x.md", "# tom\n\n- 一条没有数字的笔记。\n")
    repo.stage("inbox/tom/x.md")
    passed = plain_hooked.commit_as("tom", "tom: note")
    assert passed.returncode == 0, passed.stdout + passed.stderr


def test_plain_hook_can_be_skipped_once(plain_hooked: KnowledgeBase) -> None:
    repo = plain_hooked.repo
    repo.write("inbox/jay/x.md", "# jay\n\ntom was here\n")
    repo.stage("inbox/jay/x.md")
    skipped = run(["git", "commit", "-m", "skip"], repo.path, {**plain_hooked.env, "KBCHECK_SKIP": "1"})
    assert skipped.returncode == 0
    assert "check skipped (KBCHECK_SKIP=1)" in skipped.stderr


def test_plain_hook_blocks_when_kbcheck_is_missing(plain_hooked: KnowledgeBase, tmp_path: Path) -> None:
    """Without the checker nothing would be checked: the hook says so and blocks."""
    only_git = tmp_path / "only-git"
    only_git.mkdir()
    git = shutil.which("git")
    assert git is not None
    (only_git / "git").symlink_to(git)
    repo = plain_hooked.repo
    repo.write("inbox/tom/x.md", "# tom\n")
    repo.stage("inbox/tom/x.md")
    result = run([str(only_git / "git"), "commit", "-m", "unchecked"], repo.path, {**plain_hooked.env, "PATH": str(only_git)})
    assert result.returncode == 1
    assert "kbcheck: not installed" in result.stderr
    assert "KBCHECK_SKIP=1" in result.stderr


# -- pre-commit over every file and over a range (what CI and pre-commit.ci run) ----------------
def commit_unknown_paper_brief(knowledge_base: KnowledgeBase) -> None:
    """A brief with a KB004 error, committed past the hooks: nothing is staged afterwards.

    KB004 needs paper cards to compare with (with none it gives one notice): a maintainer's card first.
    """
    repo = knowledge_base.repo
    repo.write("organized/paper_cards/0001-2610-02076.md", '---\narxiv: "2610.02076"\ntitle: "A paper"\n---\n')
    repo.stage("organized/paper_cards/0001-2610-02076.md")
    repo.commit("lead: a paper card", name="lead", email="lead@example.org")
    repo.write("inbox/tom/2026-10-30-brief.md", UNKNOWN_PAPER_BRIEF)
    repo.stage("inbox/tom/2026-10-30-brief.md")
    repo.commit("tom: brief", author="tom")


def test_run_all_files_checks_every_file(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    commit_unknown_paper_brief(knowledge_base)
    everything = run([str(hook_environment / "kbcheck"), "check", "--all"], knowledge_base.repo.path,
                     knowledge_base.env)
    assert everything.returncode == 1 and "KB004" in everything.stdout
    result = knowledge_base.pre_commit("run", "kbcheck", "--all-files")
    assert result.returncode != 0, result.stdout + result.stderr
    assert "inbox/tom/2026-10-30-brief.md" in result.stdout and "KB004" in result.stdout
    assert "2610.99999" in result.stdout
    assert "in 0 files" not in result.stdout


def test_run_all_files_passes_a_clean_knowledge_base(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    result = knowledge_base.pre_commit("run", "--all-files")
    assert result.returncode == 0, result.stdout + result.stderr


def test_run_over_a_range_judges_its_commits(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    repo = knowledge_base.repo
    repo.branch("tom/work")
    repo.checkout("tom/work")
    repo.write("inbox/jay/x.md", "# jay\n\ntom was here\n")
    repo.stage("inbox/jay/x.md")
    sha = repo.commit("tom: into jay's inbox", author="tom")
    for hook in ("kbcheck", "kbcheck-write-scope"):
        result = knowledge_base.pre_commit("run", hook, "--from-ref", "main", "--to-ref", "HEAD")
        assert result.returncode != 0, result.stdout + result.stderr
        assert f"commit {sha[:12]} modifies inbox/jay/x.md" in result.stdout


def test_run_over_a_range_passes_a_writer_in_his_inbox(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    repo = knowledge_base.repo
    repo.branch("tom/work")
    repo.checkout("tom/work")
    repo.write("inbox/tom/x.md", CLEAN_BRIEF)
    repo.stage("inbox/tom/x.md")
    repo.commit("tom: brief", author="tom")
    result = knowledge_base.pre_commit("run", "--from-ref", "main", "--to-ref", "HEAD")
    assert result.returncode == 0, result.stdout + result.stderr


def test_run_over_a_range_must_end_at_head(knowledge_base: KnowledgeBase, hook_environment: Path) -> None:
    repo = knowledge_base.repo
    repo.branch("before")
    repo.write("inbox/tom/x.md", CLEAN_BRIEF)
    repo.stage("inbox/tom/x.md")
    repo.commit("tom: brief", author="tom")
    at_head = knowledge_base.pre_commit("run", "kbcheck", "--from-ref", "before", "--to-ref", "main")
    assert at_head.returncode == 0, at_head.stdout + at_head.stderr  # main is HEAD: fine
    elsewhere = knowledge_base.pre_commit("run", "kbcheck", "--from-ref", "HEAD~1", "--to-ref", "before",
                                          "--files", "inbox/jay/x.md")
    assert elsewhere.returncode != 0
    assert "kbcheck checks ranges that end at HEAD; check out before first" in elsewhere.stdout


def test_try_repo_all_files_checks_every_file(knowledge_base: KnowledgeBase, hook_environment: Path,
                                              hook_source: HookSource) -> None:
    commit_unknown_paper_brief(knowledge_base)
    result = knowledge_base.pre_commit("try-repo", str(hook_source.path), "kbcheck", "--ref", hook_source.sha,
                                       "--all-files")
    assert result.returncode != 0, result.stdout + result.stderr
    assert "KB004" in result.stdout and "2610.99999" in result.stdout
