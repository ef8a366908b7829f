"""Real git repositories for tests: pinned authors, no user or system git config.

    repo = GitRepo.create(tmp_path / "kb")
    repo.write("inbox/tom/a.md", "# hi\\n")
    sha = repo.commit_all("first", author="tom")

Every git call here runs with `isolated_env()`; the `git_repo` fixture in
`conftest.py` also puts that environment into `os.environ`, so the code
under test cannot see the developer's `~/.gitconfig`, a `KBCHECK_AUTHOR`, or
the `GIT_DIR` / `GIT_INDEX_FILE` git exports while it runs a hook.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

DEFAULT_NAME = "Tom"
DEFAULT_EMAIL = "tom@example.org"
#: well-known authors for `commit(author=...)`: slug -> (name, email)
AUTHORS = {
    "tom": ("Tom", "tom@example.org"),
    "jay": ("Jay", "jay@example.org"),
    "spark": ("Spark", "spark@example.org"),
    "mia": ("Mia", "mia@example.org"),
    "stranger": ("Stranger", "stranger@elsewhere.net"),
}
#: environment variables that would make git or kbcheck look outside the test repo
LEAKY = ("KBCHECK_AUTHOR", "PRE_COMMIT", "EMAIL", "HOME", "XDG_CONFIG_HOME")
DATE = "2026-10-29T12:00:00+00:00"


def isolated_env(home: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default os.environ) without GIT_* and kbcheck variables, with an empty global config in `home`."""
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if not k.startswith("GIT_") and k not in LEAKY}
    home.mkdir(parents=True, exist_ok=True)
    config = home / "gitconfig"
    if not config.exists():
        config.write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n", encoding="utf-8")
    env.update({
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_CONFIG_GLOBAL": str(config),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "LC_ALL": "C.UTF-8",
    })
    return env


class GitRepo:
    """A work tree for tests, driven with the git command line."""

    def __init__(self, path: Path, env: dict[str, str]) -> None:
        self.path = path
        self.env = env

    @classmethod
    def create(cls, path: Path, *, name: str = DEFAULT_NAME, email: str = DEFAULT_EMAIL,
               home: Path | None = None) -> GitRepo:
        """`git init` a new repository whose configured identity is `name <email>`."""
        path.mkdir(parents=True, exist_ok=True)
        env = isolated_env(home if home is not None else path.parent / f".{path.name}-home")
        repo = cls(path, env)
        repo.git("init", "-q", "-b", "main")
        repo.git("config", "user.name", name)
        repo.git("config", "user.email", email)
        repo.git("config", "commit.gpgsign", "false")
        return repo

    # -- running git -----------------------------------------------------------------
    def run(self, *args: str, env: Mapping[str, str] | None = None, check: bool = True,
            input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        merged = dict(self.env)
        if env:
            merged.update(env)
        result = subprocess.run(["git", *args], cwd=self.path, env=merged, input=input,
                                capture_output=True, check=False)
        if check and result.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {result.stderr.decode(errors='replace')}")
        return result

    def git(self, *args: str, env: Mapping[str, str] | None = None) -> str:
        """Run git; its stdout as text without the final newline."""
        return self.run(*args, env=env).stdout.decode("utf-8", "surrogateescape").rstrip("\n")

    # -- files -----------------------------------------------------------------------
    def write(self, rel: str, content: str | bytes = "") -> Path:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            target.write_bytes(content.encode("utf-8"))
        else:
            target.write_bytes(content)
        return target

    def write_many(self, files: Mapping[str, str | bytes]) -> None:
        for rel, content in files.items():
            self.write(rel, content)

    def remove(self, rel: str) -> None:
        (self.path / rel).unlink()

    def stage(self, *rels: str) -> None:
        """`git add` these paths (all changes, deletions included, when none are named)."""
        if rels:
            self.git("add", "--", *rels)
        else:
            self.git("add", "-A")

    def unstage_all(self) -> None:
        self.git("reset", "-q")

    def move(self, old: str, new: str) -> None:
        (self.path / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", "--", old, new)

    def delete(self, rel: str) -> None:
        self.git("rm", "-q", "--", rel)

    # -- commits ---------------------------------------------------------------------
    def commit(self, message: str = "change", *, author: str | None = None, name: str | None = None,
               email: str | None = None, allow_empty: bool = False, date: str = DATE) -> str:
        """Commit what is staged as `author` (a key of AUTHORS) or `name <email>`; the new sha."""
        if author is not None:
            name, email = AUTHORS[author]
        name = name or DEFAULT_NAME
        email = email if email is not None else DEFAULT_EMAIL
        identity = {
            "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email, "GIT_COMMITTER_DATE": date,
        }
        args = ["commit", "-q", "--no-verify", "-m", message]
        if allow_empty:
            args.append("--allow-empty")
        self.git(*args, env=identity)
        return self.head()

    def commit_all(self, message: str = "change", **kwargs: object) -> str:
        """Stage everything (deletions too) and commit."""
        self.stage()
        return self.commit(message, **kwargs)  # type: ignore[arg-type]

    def commit_files(self, files: Mapping[str, str | bytes], message: str = "change", **kwargs: object) -> str:
        """Write these files, stage exactly them and commit."""
        self.write_many(files)
        self.stage(*files)
        return self.commit(message, **kwargs)  # type: ignore[arg-type]

    def partial_clone(self, dest: Path, *flags: str) -> Path:
        """Clone with a blob filter (`--filter=…`) from a copy that then vanishes: missing blobs stay missing.

        Skips the calling test when this git cannot make partial clones.
        """
        import pytest

        self.git("config", "uploadpack.allowFilter", "true")
        source = dest.parent / f"{dest.name}-source"
        shutil.copytree(self.path, source)
        result = subprocess.run(["git", "clone", "-q", *flags, f"file://{source}", str(dest)],
                                env=self.env, capture_output=True, check=False)
        if result.returncode != 0:
            pytest.skip(f"this git cannot make a partial clone: {result.stderr.decode(errors='replace')}")
        shutil.rmtree(source)  # the promisor remote is gone: missing blobs cannot be fetched
        return dest

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")

    def branch(self, name: str, start: str = "HEAD") -> None:
        self.git("branch", name, start)

    def checkout(self, ref: str) -> None:
        self.git("checkout", "-q", ref)

    def merge(self, ref: str, message: str = "merge", *, author: str = "tom") -> str:
        """A real merge commit (never fast-forward); its sha."""
        name, email = AUTHORS[author]
        identity = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": DATE,
                    "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email, "GIT_COMMITTER_DATE": DATE}
        self.git("merge", "-q", "--no-ff", "--no-edit", "-m", message, ref, env=identity)
        return self.head()

    def blob_sha(self, content: bytes) -> str:
        """The blob id git gives this content."""
        return self.run("hash-object", "--stdin", input=content).stdout.decode().strip()
