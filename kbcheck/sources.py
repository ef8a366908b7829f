"""Which files a run looks at, and which change KB007 judges (docs/architecture.md).

A `Selection` is a snapshot plus the files to report on, the changed paths
KB007 judges and the lines the change touched. The mode chooses where
content comes from and which changes there are; paths, when given, choose
the files to report on. Who each change is judged as is decided apart from
this, in `kbcheck.authors`, under the trusted policy.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kbcheck import git, i18n
from kbcheck.errors import GitError, UsageError
from kbcheck.git import Change
from kbcheck.snapshots import (
    GivenFileSnapshot,
    IndexSnapshot,
    Snapshot,
    TreeSnapshot,
    WorktreeSnapshot,
    is_partial_clone,
    normalise_path,
    tree_snapshot,
)

if TYPE_CHECKING:
    from kbcheck.config import Config

MODES = ("staged", "diff", "all", "paths")
#: pre-commit sets this in the environment of every hook it runs (`pre_commit/commands/run.py`)
PRE_COMMIT_ENV = "PRE_COMMIT"
#: and these for `pre-commit run --from-ref A --to-ref B` (the range `A...B`)
PRE_COMMIT_RANGE_ENV = ("PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF")

__all__ = [
    "MODES", "PRE_COMMIT_ENV", "Change", "IndexSnapshot", "Selection", "Snapshot", "TreeSnapshot",
    "WorktreeSnapshot", "default_mode", "normalise_path", "pre_commit_range", "select",
]


@dataclass
class Selection:
    """What one `check` run looks at and reports on."""

    snapshot: Snapshot
    #: the files to report on, sorted
    paths: list[str]
    #: changed paths for KB007 (empty for `--all` and plain paths)
    changes: list[Change]
    #: lines the change added or modified per file; None when there is no line information
    added_lines: dict[str, set[int]] | None
    #: "staged", "diff", "all" or "paths"
    mode: str
    #: one-line notes about named paths that were skipped (a symlink, a special file)
    notices: list[str] = field(default_factory=list)
    #: the revision the change is compared with: HEAD for "staged", the base for "diff", else None
    base: str | None = None


def default_mode(environ: Mapping[str, str] | None = None) -> str:
    """`staged` inside a pre-commit run (pre-commit sets PRE_COMMIT=1 for its hooks), `diff` when
    that run is over a range (`--from-ref`/`--to-ref`), else `all`."""
    env = os.environ if environ is None else environ
    if env.get(PRE_COMMIT_ENV) != "1":
        return "all"
    return "diff" if pre_commit_range(env) is not None else "staged"


def pre_commit_range(environ: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(from, to) of a `pre-commit run --from-ref FROM --to-ref TO`, else None."""
    env = os.environ if environ is None else environ
    start, stop = (env.get(name, "").strip() for name in PRE_COMMIT_RANGE_ENV)
    return (start, stop) if env.get(PRE_COMMIT_ENV) == "1" and start and stop else None


def _hook_range(repo: git.Repository) -> str:
    """The base of the pre-commit range; it must end at HEAD, which is what kbcheck checks out of."""
    refs = pre_commit_range()
    assert refs is not None
    start, stop = refs
    if git.resolve(repo, stop) != git.head_sha(repo):
        raise UsageError(i18n._("pre-commit asks for the range {start}...{stop}, but kbcheck checks ranges "
                                "that end at HEAD; check out {stop} first", start=start, stop=stop))
    return start


@dataclass
class _Named:
    """Paths named on the command line, made repo-relative."""

    files: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    #: named paths that are not on disk (fine for --staged and --diff: they may be in the snapshot)
    missing: list[tuple[str, str]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def covers(self, path: str) -> bool:
        return path in self.files or any(f == "" or path.startswith(f + "/") for f in self.folders)


def _repo_relative(repo: git.Repository, arg: str) -> tuple[str, Path]:
    """The repo-relative form of a command-line path; UsageError when outside the repository."""
    if not arg or "\0" in arg:
        raise UsageError(i18n._("not a valid path: {path}", path=repr(arg)))
    absolute = Path(os.path.abspath(arg))
    # folders on the way may be symlinks (a symlinked checkout dir); the last component is never followed
    real_parent = Path(os.path.realpath(absolute.parent))
    candidate = real_parent / absolute.name if absolute.name else real_parent
    root = Path(os.path.realpath(repo.root))
    try:
        rel = candidate.relative_to(root)
    except ValueError:
        raise UsageError(i18n._("path is outside the repository: {path}", path=arg)) from None
    text = rel.as_posix()
    text = "" if text == "." else text
    if text.split("/", 1)[0] == ".git" or candidate == Path(os.path.realpath(repo.git_dir)):
        raise UsageError(i18n._("path is inside the git directory: {path}", path=arg))
    return text, candidate


def _name_paths(repo: git.Repository, args: Iterable[str]) -> _Named:
    named = _Named()
    for arg in args:
        rel, on_disk = _repo_relative(repo, arg)
        try:
            st = os.lstat(on_disk)
        except OSError:
            named.missing.append((arg, rel))
            continue
        if stat.S_ISLNK(st.st_mode):
            named.notices.append(i18n._("{path}: skipped: symlink (not followed)", path=rel or arg))
        elif stat.S_ISDIR(st.st_mode):
            named.folders.append(rel)
        elif stat.S_ISREG(st.st_mode):
            named.files.append(rel)
        else:
            named.notices.append(i18n._("{path}: skipped: not a regular file", path=rel or arg))
    return named


def _without_lines(repo: git.Repository, notices: list[str], exc: GitError) -> None:
    """A change's lines are unknown when a partial clone lacks old versions it cannot fetch:
    then every finding in the changed files is reported (as `--filter file`), with a notice."""
    if not is_partial_clone(repo):
        raise exc
    notices.append(i18n._("changed lines unknown: this partial clone lacks earlier versions and cannot fetch them "
                     "({reason}); reporting every finding in the changed files", reason=str(exc)))


def _staged(repo: git.Repository, notices: list[str]) -> tuple[list[Change], dict[str, set[int]] | None]:
    """The staged changes and their added lines (None when a partial clone cannot tell)."""
    try:
        return git.staged_diff(repo)
    except GitError as exc:
        _without_lines(repo, notices, exc)
        return git.staged_changes(repo), None


def _range_lines(repo: git.Repository, notices: list[str], base: str) -> dict[str, set[int]] | None:
    """The lines `base...HEAD` added (None when a partial clone cannot tell)."""
    try:
        return git.added_lines(repo, base=base)
    except GitError as exc:
        _without_lines(repo, notices, exc)
        return None


def select(
    repo: git.Repository,
    config: Config,
    *,
    mode: str | None,
    paths: list[str],
    rev: str | None,
    net: bool = False,
    given: tuple[str, bytes] | None = None,
) -> Selection:
    """Build the selection for a `check` run.

    - `staged`: content from the index; reports on the staged added, modified
      and renamed files (deleted ones appear only in `changes`); with paths,
      on the named files as staged (pre-commit names the files it commits;
      `pre-commit run --all-files` names every file). While a merge is in
      progress, `changes` holds only what differs from every merged commit.
    - `diff`: content at HEAD; reports on the files that the commits
      REV..HEAD changed and that still exist at HEAD; with paths, on the
      named files at HEAD. Each change carries its own commit and the author
      that commit records; with `net`, `changes` is instead the net change
      `REV...HEAD`, as a pull request shows it.
    - `all`: every tracked file as it is in the working tree.
    - `paths`: the named files, and the files under named folders (tracked,
      or untracked and not ignored), as they are on disk.

    With no mode: inside a pre-commit run `staged` (or `diff` from
    `--from-ref` when pre-commit runs over a range), else `paths` when paths
    are given, else `all`.

    `given` (`--stdin-filename`): a path and its bytes, read from standard
    input; the run reports on that one file as the given bytes say, the rest of
    the working tree as it is on disk.

    With a mode, `changes` is always the whole staged change or range: KB007
    judges the commit, and pre-commit never names deleted paths or the old
    side of a rename. `exclude` removes files from the snapshot and the
    report, not from `changes`.
    """
    if given is not None:
        if mode is not None or paths:
            raise UsageError(i18n._("--stdin-filename checks the one file read from standard input: "
                                    "give no paths and no --staged, --all or --diff"))
        rel, _on_disk = _repo_relative(repo, given[0])
        given_snapshot = GivenFileSnapshot(repo, rel, given[1], config.exclude)
        return Selection(given_snapshot, [p for p in given_snapshot.paths() if p == rel], [], None, "paths")
    if mode is None:
        mode = default_mode()
        if mode == "diff":
            rev = _hook_range(repo)
        elif mode == "all" and paths:
            mode = "paths"
    if mode not in MODES:
        raise UsageError(i18n._("unknown mode '{mode}'; expected one of {modes}", mode=mode, modes=", ".join(MODES)))
    if mode == "diff" and not rev:
        raise UsageError(i18n._("--diff needs a revision, e.g. --diff origin/main"))
    if mode == "all" and paths:
        raise UsageError(i18n._("--all checks every tracked file; give either --all or paths, not both"))
    if mode == "paths" and not paths:
        raise UsageError(i18n._("no paths given"))
    if net and mode != "diff":
        raise UsageError(i18n._("--actor judges the net change of a range: give it with --diff REV"))

    named = _name_paths(repo, paths)
    exclude = config.exclude

    if mode == "paths":
        for arg, _ in named.missing:
            raise UsageError(i18n._("path does not exist: {path}", path=arg))
        extra = list(named.files)
        if named.folders:
            extra += git.ls_worktree(repo, untracked=True, under=named.folders)
        snapshot: Snapshot = WorktreeSnapshot(repo, exclude, extra)
        selected = [p for p in snapshot.paths() if named.covers(p)]
        return Selection(snapshot, selected, [], None, mode, named.notices)

    if mode == "all":
        snapshot = WorktreeSnapshot(repo, exclude)
        return Selection(snapshot, snapshot.paths(), [], None, mode, named.notices)

    if mode == "staged":
        snapshot = IndexSnapshot(repo, exclude)
        staged, added = _staged(repo, named.notices)
        changes = git.staged_merge_only(repo, staged)
        base = "HEAD" if git.head_sha(repo) is not None else None
    else:
        assert rev is not None
        snapshot = tree_snapshot(repo, "HEAD", exclude)
        if net:
            changes = [replace(c, range=f"{rev}...HEAD") for c in git.net_changes(repo, rev)]
        else:
            changes = [
                replace(change, commit=commit.sha, recorded_author=commit.author_email or commit.author_name)
                for commit in git.range_commits(repo, rev) for change in commit.changes
            ]
        added = _range_lines(repo, named.notices, rev)
        base = rev

    if paths:
        for arg, rel in named.missing:
            if not snapshot.exists(rel):
                raise UsageError(i18n._("path does not exist: {path}", path=arg))
            (named.files if snapshot.blob_id(rel) is not None else named.folders).append(rel)
        selected = [p for p in snapshot.paths() if named.covers(p)]
    else:  # a regular file, not excluded: what `paths()` lists
        selected = sorted({c.path for c in changes if c.status != "D" and snapshot.blob_id(c.path) is not None})
    missing: frozenset[str] = getattr(snapshot, "missing", frozenset())
    named.notices += [i18n._("{path}: skipped: content missing from this partial clone", path=p) for p in selected
                      if snapshot.blob_id(p) in missing]
    return Selection(snapshot, selected, changes, added, mode, named.notices, base)
