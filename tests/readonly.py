"""The read-only promise (`docs/architecture.md`) as a guard around every CLI command a test runs.

`guard_cli` wraps each `cmd_*` handler of `kbcheck.cli` (looked up by name
when `main` builds its parser, so tests that imported `main` are covered too).
Around each call it hashes the repository the command runs in, working tree
and git dir alike, and records every file that changed, appeared or vanished
other than the ones that command is documented to write:

- every command: its own cache under the git dir (`<git dir>/kbcheck/`);
- `baseline update`: the configured baseline file;
- `init`: `.kbcheck.toml`;
- `digest --output FILE`: FILE;
- `check --fix` (without `--diff`): the files git tracks in the work tree,
  in place (a new file, such as a leftover temporary one, is still caught,
  and so is any change under the git dir, the index included).

A leftover temporary file of an atomic write is a new file, so it is caught
too. Only repositories under pytest's temporary folder are hashed: a test
that runs the CLI in the project's own checkout is not guarded (other people
edit that tree while tests run).
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

#: a file's state: ("file", sha256) / ("link", target) / ("other", kind)
State = tuple[str, str]
#: under the git dir, where kbcheck keeps its cache (`kbcheck/cache.py`)
CACHE_FOLDER = "kbcheck"


def _digest(path: str) -> str:
    hasher = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        while chunk := handle.read(1 << 20):
            hasher.update(chunk)
    return hasher.hexdigest()


def _state(path: str, mode: int) -> State:
    if stat.S_ISLNK(mode):
        return "link", os.readlink(path)
    if stat.S_ISREG(mode):
        try:
            return "file", _digest(path)
        except OSError as exc:
            return "unreadable", exc.strerror or str(exc)
    return "other", stat.filemode(mode)[0]


def tree_state(root: Path, skip: Iterable[Path] = ()) -> dict[str, State]:
    """Every entry under `root` (symlinks never followed, FIFOs never opened) -> its state.

    Folders in `skip` are left out whole (a cache the command may write).
    """
    skipped = {os.path.normpath(str(p)) for p in skip}
    states: dict[str, State] = {}
    top = str(root)
    for folder, dirs, files in os.walk(top, followlinks=False):
        kept = []
        for name in dirs:
            full = os.path.join(folder, name)
            if os.path.normpath(full) in skipped:
                continue
            if os.path.islink(full):  # a symlinked folder is an entry, never a way out
                states[os.path.relpath(full, top)] = ("link", os.readlink(full))
                continue
            kept.append(name)
        dirs[:] = kept
        for name in files:
            full = os.path.join(folder, name)
            try:
                mode = os.lstat(full).st_mode
            except OSError:
                continue
            states[os.path.relpath(full, top)] = _state(full, mode)
    return states


def changed(before: dict[str, State], after: dict[str, State]) -> list[str]:
    """Relative paths that appeared, vanished or changed, sorted."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def find_repository(start: Path) -> tuple[Path, list[Path]] | None:
    """(work tree, git dirs) of the repository containing `start`, or None outside one.

    A `.git` file (linked worktree, submodule) names the real git dir; a
    linked worktree's git dir names the shared one in `commondir`.
    """
    for folder in (start, *start.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return folder, [dot_git]
        if dot_git.is_file():
            text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                return None
            git_dir = (folder / text.removeprefix("gitdir:").strip()).resolve()
            dirs = [git_dir]
            common = git_dir / "commondir"
            if common.is_file():
                dirs.append((git_dir / common.read_text(encoding="utf-8").strip()).resolve())
            return folder, dirs
    return None


class Guard:
    """Hashes one repository around one command and reports undocumented writes."""

    def __init__(self, base: Path) -> None:
        self.base = base.resolve()
        self.violations: list[str] = []
        self.calls = 0

    def _inside_base(self, path: Path) -> bool:
        try:
            path.resolve().relative_to(self.base)
        except ValueError:
            return False
        return True

    def _roots(self) -> tuple[Path, list[Path]] | None:
        cwd = Path.cwd()
        if not self._inside_base(cwd):
            return None
        found = find_repository(cwd.resolve())
        if found is None:
            return cwd.resolve(), []
        work_tree, git_dirs = found
        return (work_tree, git_dirs) if self._inside_base(work_tree) else None

    def snapshot(self, roots: tuple[Path, list[Path]]) -> dict[str, State]:
        work_tree, git_dirs = roots
        skip = [d for d in git_dirs if d.parent == work_tree]  # hashed below, without the cache
        states = {f"tree:{k}": v for k, v in tree_state(work_tree, skip).items()}
        for git_dir in git_dirs:
            cache = [git_dir / CACHE_FOLDER]
            states.update({f"git:{git_dir.name}:{k}": v for k, v in tree_state(git_dir, cache).items()})
        return states

    def allowed(self, command: str, args: Any, roots: tuple[Path, list[Path]]) -> set[str]:
        """The documented writes of this command, as snapshot keys."""
        work_tree, _ = roots
        allowed: set[str] = set()

        def allow(path: Path) -> None:
            try:
                rel = os.path.relpath(os.path.abspath(path), work_tree)
            except ValueError:
                return
            if not rel.startswith(".."):
                allowed.add(f"tree:{os.path.normpath(rel)}")

        if command == "cmd_baseline_update":
            allow(work_tree / _configured_baseline(work_tree, getattr(args, "config", None)))
        elif command == "cmd_init":
            allow(work_tree / ".kbcheck.toml")
            allow(Path.cwd() / ".kbcheck.toml")
        elif command == "cmd_digest" and getattr(args, "output", None):
            allow(Path(args.output))
        elif command == "cmd_check" and getattr(args, "fix", False) and getattr(args, "rev", None) != "":
            for path in _tracked(work_tree):
                allow(work_tree / path)
        return allowed

    def wrap(self, name: str, handler: Callable[..., int]) -> Callable[..., int]:
        @functools.wraps(handler)
        def guarded(args: Any, out: Any, err: Any) -> int:
            roots = self._roots()
            if roots is None:
                return handler(args, out, err)
            self.calls += 1
            before = self.snapshot(roots)
            try:
                return handler(args, out, err)
            finally:
                after = self.snapshot(roots)
                extra = [p for p in changed(before, after) if p not in self.allowed(name, args, roots)]
                if extra:
                    command = name.removeprefix("cmd_").replace("_", " ")
                    self.violations.append(f"`kbcheck {command}` in {roots[0]} changed {', '.join(extra)}")

        return guarded


def _configured_baseline(root: Path, config_file: str | None) -> str:
    """The baseline path the command will write (the default when the config cannot be read)."""
    from kbcheck.config import load_config
    from kbcheck.errors import KbcheckError

    try:
        return load_config(root, config_file).baseline
    except KbcheckError:
        return ".kbcheck/baseline.json"


def _tracked(work_tree: Path) -> list[str]:
    """The paths git tracks in this work tree (what `--fix` may rewrite)."""
    import subprocess

    listed = subprocess.run(["git", "ls-files", "-z"], cwd=work_tree, capture_output=True, check=False)
    return [p for p in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def guard_cli(monkeypatch: Any, base: Path) -> Guard:
    """Wrap every `cmd_*` handler of `kbcheck.cli` for the duration of one test."""
    import kbcheck.cli as cli

    guard = Guard(base)
    for name in dir(cli):
        handler = getattr(cli, name)
        if name.startswith("cmd_") and callable(handler):
            monkeypatch.setattr(cli, name, guard.wrap(name, handler))
    return guard
