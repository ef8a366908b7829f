"""Which kbcheck this is: its version for people (`--version`, SARIF) and for the cache.

The version is the installed package's (`importlib.metadata`). Run from a
git checkout of kbcheck, it is a development version naming the commit,
`0.1.0.dev0+g1a2b3c4d5e6f` (PEP 440: the release it leads to, then the
commit as a local label), read from the checkout's files without running
git, so `--version` stays instant. The cache is versioned by the version and
a digest of the installed source (every module and message catalog): any
edit to kbcheck, released or not, is a new cache version
(`docs/architecture.md`, "One cache version"). The cache reads the release
from `kbcheck.__version__`, which the package metadata is built from:
importing `importlib.metadata` costs a hook more than its whole check.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
#: what the cache's version digests, besides the version: the code and what it says
_SOURCES = ("**/*.py", "locale/**/*.mo")


@cache
def version() -> str:
    """`0.1.0` when installed from a release; `0.1.0.dev0+g<commit>` when run from a git checkout."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        release = installed("kbcheck")
    except PackageNotFoundError:
        from kbcheck import __version__ as release
    commit = checkout_commit(PACKAGE.parent)
    return f"{release}.dev0+g{commit[:12]}" if commit else release


def checkout_commit(root: Path) -> str | None:
    """The commit checked out at `root` (its `.git` folder, or a worktree's `.git` file), or None."""
    dot_git = root / ".git"
    try:
        if dot_git.is_file():
            pointer = dot_git.read_text(encoding="utf-8").strip()
            if not pointer.startswith("gitdir:"):
                return None
            git_dir = (root / pointer.removeprefix("gitdir:").strip()).resolve()
        elif dot_git.is_dir():
            git_dir = dot_git
        else:
            return None
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref:"):
            return head or None
        ref = head.removeprefix("ref:").strip()
        common = git_dir
        if (git_dir / "commondir").is_file():  # a worktree keeps its branches in the main git dir
            common = (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
        for folder in (git_dir, common):
            loose = folder / ref
            if loose.is_file():
                return loose.read_text(encoding="utf-8").strip() or None
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text(encoding="utf-8").splitlines():
                sha, _, name = line.partition(" ")
                if name == ref:
                    return sha
    except (OSError, UnicodeDecodeError):
        return None
    return None


@cache
def source_digest() -> str:
    """A digest of kbcheck's installed source: its modules and its compiled message catalogs."""
    digest = hashlib.sha1()
    files = sorted({path for pattern in _SOURCES for path in PACKAGE.glob(pattern) if path.is_file()})
    for path in files:
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def cache_version() -> str:
    """What every cache entry is written under: the release and the source's digest."""
    from kbcheck import __version__

    return f"{__version__}+{source_digest()[:16]}"


__all__ = ["cache_version", "checkout_commit", "source_digest", "version"]
