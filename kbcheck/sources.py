"""Which files a run looks at, and where their content comes from (SPEC section 3).

A `Snapshot` is the knowledge base at one point: the working tree, the index
or a commit. A `Selection` is a snapshot plus the files to report on, the
changed paths KB007 judges and the lines the change touched.

The mode chooses where content comes from and which changes KB007 sees;
paths, when given, choose the files to report on.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import posixpath
import stat
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kbcheck import git
from kbcheck.errors import GitError, UsageError
from kbcheck.globs import globset

if TYPE_CHECKING:
    from kbcheck.config import Config

MODES = ("staged", "diff", "all", "paths")
#: pre-commit sets this in the environment of every hook it runs (`pre_commit/commands/run.py`)
PRE_COMMIT_ENV = "PRE_COMMIT"
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class Change:
    """One changed path of a staged change or of a commit, with who made it."""

    #: "A", "M", "D" or "R" (a copy is an "A")
    status: str
    #: the new path; the deleted path for "D"
    path: str
    #: the path before a rename
    old_path: str | None = None
    #: the configured author slug; None when nobody configured this author
    author: str | None = None
    #: who made it, for messages (an email, a name or a slug and where it came from)
    author_label: str = ""
    #: the commit that made it (None for a staged change)
    commit: str | None = None


def normalise_path(path: str) -> str | None:
    """A repo-relative `/`-path, or None when it is absolute or leaves the repository."""
    if not path or "\0" in path or path.startswith("/"):
        return None
    normal = posixpath.normpath(path)
    if normal == "." or normal == ".." or normal.startswith("../") or posixpath.isabs(normal):
        return None
    return normal


class Snapshot(ABC):
    """The knowledge base's files at one point, read-only.

    Paths are repo-relative and `/`-separated; anything that would resolve
    outside the repository is never read. Files matching `exclude` are not
    listed and never read, but still exist (a link to them is not broken).
    """

    root: Path
    #: True when reading goes through the repository's `git cat-file` process (not the file system)
    reads_git = False
    #: True when paths are `sys.intern`ed, shared with other snapshots of the repository
    interned = False

    def __init__(self, root: Path, exclude: Iterable[str] = ()) -> None:
        self.root = root
        self._exclude = globset(tuple(exclude))
        self._sorted_entries: list[str] | None = None

    def excluded(self, path: str) -> bool:
        return self._exclude.match(path)

    def paths_under(self, prefixes: tuple[str, ...]) -> list[str]:
        """`paths()` that start with one of these folder prefixes (`""` is every path), sorted."""
        every = self.paths()
        if "" in prefixes:
            return every
        found: list[str] = []
        for prefix in sorted(set(prefixes)):
            start = bisect.bisect_left(every, prefix)
            stop = bisect.bisect_left(every, prefix + "\U0010ffff", start)
            found.extend(every[start:stop])
        return sorted(set(found)) if len(prefixes) > 1 else found

    def after_fork(self) -> None:
        """In a forked worker: stop sharing the parent's reading pipes (it reads anew on its own)."""
        return None  # a snapshot without pipes has nothing to let go

    def prepare(self) -> None:
        """Build the lookups every reader needs, once, before work is shared out to forked workers."""
        self._sorted()

    def _sorted(self) -> list[str]:
        """Every entry, sorted once: then a file is a binary search and a folder a prefix search."""
        if self._sorted_entries is None:
            self._sorted_entries = sorted(self._entries())
        return self._sorted_entries

    @abstractmethod
    def paths(self) -> list[str]:
        """Every regular file, sorted."""

    @abstractmethod
    def blob_id(self, path: str) -> str | None:
        """The git blob id of a regular file's content, None when there is none."""

    @abstractmethod
    def read(self, path: str) -> bytes | None:
        """A regular file's bytes; None when missing, a symlink, a submodule or unreadable."""

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        """The bytes of every readable path among `paths`."""
        found: dict[str, bytes] = {}
        for path in paths:
            data = self.read(path)
            if data is not None:
                found[path] = data
        return found

    @abstractmethod
    def _entries(self) -> Iterable[str]:
        """Every path present in the tree, of any type, excluded or not."""

    def exists(self, path: str) -> bool:
        """True for a file, or a folder with files under it, in this tree (`""` is the root)."""
        if path in ("", "."):
            return True
        normal = normalise_path(path)
        if normal is None:
            return False
        entries = self._sorted()
        at = bisect.bisect_left(entries, normal)
        if at < len(entries) and entries[at] == normal:
            return True
        prefix = normal + "/"
        at = bisect.bisect_left(entries, prefix, at)
        return at < len(entries) and entries[at].startswith(prefix)


class _GitTreeSnapshot(Snapshot):
    """A snapshot whose files are git objects: the index or a commit's tree."""

    reads_git = True

    def __init__(self, repo: git.Repository, entries: dict[str, str], sha: slice, exclude: Iterable[str]) -> None:
        super().__init__(repo.root, exclude)
        self.repo = repo
        #: path -> git's record of it, mode first; `sha` slices the object id out of a record
        self.entries = entries
        self._sha = sha
        self._paths: list[str] | None = None

    def _entries(self) -> Iterable[str]:
        return self.entries.keys()

    def after_fork(self) -> None:
        git.detach_readers(self.repo)

    def paths(self) -> list[str]:
        if self._paths is None:
            regular = git.REGULAR_MODES
            found = [p for p, meta in self.entries.items() if meta[:6] in regular]
            if self._exclude.patterns:
                found = [p for p in found if not self.excluded(p)]
            self._paths = sorted(found)  # git's order already, but for paths that are not UTF-8
        return list(self._paths)

    def blob_id(self, path: str) -> str | None:
        meta = self.entries.get(path)
        if meta is None or meta[:6] not in git.REGULAR_MODES or self.excluded(path):
            return None
        return meta[self._sha]

    def read(self, path: str) -> bytes | None:
        return self.read_many([path]).get(path)

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        wanted = {p: sha for p in paths if (sha := self.blob_id(p)) is not None}
        blobs = git.read_blobs(self.repo, wanted.values())
        return {p: blobs[sha] for p, sha in wanted.items() if sha in blobs}


class IndexSnapshot(_GitTreeSnapshot):
    """The staging area: what the next commit would hold."""

    def __init__(self, repo: git.Repository, exclude: Iterable[str] = ()) -> None:
        super().__init__(repo, git.ls_index(repo), git.INDEX_SHA, exclude)


class TreeSnapshot(_GitTreeSnapshot):
    """The tree of a commit."""

    interned = True

    def __init__(self, repo: git.Repository, rev: str, exclude: Iterable[str] = ()) -> None:
        self.commit = git.resolve(repo, rev)
        super().__init__(repo, git.ls_tree(repo, self.commit), git.TREE_SHA, exclude)


class WorktreeSnapshot(Snapshot):
    """Tracked files as they are on disk, plus files named explicitly (even untracked).

    Symlinks are never followed: a symlink is not a regular file, its target
    is never read, and a file reached through a symlinked folder that leaves
    the repository is not read either. In a sparse checkout, what exists is
    what git tracks: a file kept off the disk on purpose is read from the index.
    """

    def __init__(self, repo: git.Repository, exclude: Iterable[str] = (), extra: Iterable[str] = ()) -> None:
        super().__init__(repo.root, exclude)
        self.repo = repo
        self._real_root = os.path.realpath(repo.root)
        candidates = set(git.ls_worktree(repo))
        candidates.update(p for p in (normalise_path(e) for e in extra) if p is not None)
        self._candidates = sorted(candidates)
        self._present: list[str] | None = None
        self._regular: dict[str, None] | None = None
        self._inside: dict[str, bool] = {}
        self._blob_ids: dict[str, str] | None = None
        self._last_read: tuple[str, bytes] | None = None
        #: tracked files git keeps off the disk (sparse checkout): path -> "<mode> <sha>"
        self._off_disk: dict[str, str] = {}
        if git.config_value(repo, "core.sparseCheckout") == "true":
            self._off_disk = git.skip_worktree_entries(repo)
        self._hash = hashlib.sha256 if git.object_format(repo) == "sha256" else hashlib.sha1

    def _folder_inside(self, folder: str) -> bool:
        """True when a repo-relative folder really is inside the repository (no symlink escape)."""
        known = self._inside.get(folder)
        if known is None:
            real = os.path.realpath(self.root / folder) if folder else self._real_root
            known = real == self._real_root or real.startswith(self._real_root + os.sep)
            self._inside[folder] = known
        return known

    def _scan(self) -> None:
        present: list[str] = []
        regular: dict[str, None] = {}
        root = str(self.root)  # plain strings: pathlib costs more than the lstat itself here
        for path in self._candidates:
            folder, _, _ = path.rpartition("/")
            if not self._folder_inside(folder):
                continue
            try:
                st = os.lstat(os.path.join(root, path))
            except OSError:
                meta = self._off_disk.get(path)
                if meta is not None:
                    present.append(path)
                    if meta[:6] in git.REGULAR_MODES and not self.excluded(path):
                        regular[path] = None
                continue
            self._off_disk.pop(path, None)  # checked out after all: the disk has the file as it is now
            present.append(path)
            if stat.S_ISREG(st.st_mode) and not self.excluded(path):
                regular[path] = None
        self._present, self._regular = present, regular

    def _regular_files(self) -> dict[str, None]:
        if self._regular is None:
            self._scan()
        assert self._regular is not None
        return self._regular

    def _entries(self) -> Iterable[str]:
        if self._present is None:
            self._scan()
        assert self._present is not None
        return self._present

    def paths(self) -> list[str]:
        return list(self._regular_files())

    def read(self, path: str) -> bytes | None:
        if self._last_read is not None and self._last_read[0] == path:
            return self._last_read[1]
        if path not in self._regular_files():
            return None
        if path in self._off_disk:
            sha = self._off_disk[path][7:]
            return git.read_blobs(self.repo, [sha]).get(sha)
        try:
            fd = os.open(self.root / path, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_BINARY)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            chunks = []
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
        except OSError:
            return None
        finally:
            os.close(fd)
        data = b"".join(chunks)
        self._last_read = (path, data)
        return data

    def blob_id(self, path: str) -> str | None:
        """Computed as git does (`sha1(b"blob <size>\\0" + data)`), so a cache entry is shared with the index.

        A tracked file that git's stat check finds unchanged since it was
        staged takes its id from the index: a warm full check then reads only
        the files whose parse it does not have.
        """
        if self._blob_ids is None:
            self._blob_ids = git.worktree_blob_ids(self.repo)
        known = self._blob_ids.get(path)
        if known is None and path in self._off_disk and path in self._regular_files():
            return self._off_disk[path][7:]
        if known is not None:
            return known if path in self._regular_files() else None
        data = self.read(path)
        if data is None:
            return None
        digest = self._hash(b"blob %d\0" % len(data) + data).hexdigest()
        self._blob_ids[path] = digest
        return digest


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


def default_mode(environ: dict[str, str] | None = None) -> str:
    """`staged` inside a pre-commit run (pre-commit sets PRE_COMMIT=1 for its hooks), else `all`."""
    env = os.environ if environ is None else environ
    return "staged" if env.get(PRE_COMMIT_ENV) == "1" else "all"


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
        raise UsageError(f"not a valid path: {arg!r}")
    absolute = Path(os.path.abspath(arg))
    # folders on the way may be symlinks (a symlinked checkout dir); the last component is never followed
    real_parent = Path(os.path.realpath(absolute.parent))
    candidate = real_parent / absolute.name if absolute.name else real_parent
    root = Path(os.path.realpath(repo.root))
    try:
        rel = candidate.relative_to(root)
    except ValueError:
        raise UsageError(f"path is outside the repository: {arg}") from None
    text = rel.as_posix()
    text = "" if text == "." else text
    if text.split("/", 1)[0] == ".git" or candidate == Path(os.path.realpath(repo.git_dir)):
        raise UsageError(f"path is inside the git directory: {arg}")
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
            named.notices.append(f"{rel or arg}: skipped: symlink (not followed)")
        elif stat.S_ISDIR(st.st_mode):
            named.folders.append(rel)
        elif stat.S_ISREG(st.st_mode):
            named.files.append(rel)
        else:
            named.notices.append(f"{rel or arg}: skipped: not a regular file")
    return named


def _with_author(changes: Iterable[Change], author: str | None, label: str, commit: str | None) -> list[Change]:
    return [replace(c, author=author, author_label=label, commit=commit) for c in changes]


def _without_lines(repo: git.Repository, notices: list[str], exc: GitError) -> None:
    """A change's lines are unknown when a partial clone lacks old versions it cannot fetch:
    then every finding in the changed files is reported (as `--filter file`), with a notice."""
    from kbcheck.digest.snapshots import is_partial_clone

    if not is_partial_clone(repo):
        raise exc
    notices.append(f"changed lines unknown: this partial clone lacks earlier versions and cannot fetch them "
                   f"({exc}); reporting every finding in the changed files")


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


def _head_snapshot(repo: git.Repository) -> Snapshot:
    """HEAD's tree; in a partial clone, files whose content is missing read as absent (never fetched)."""
    from kbcheck.digest.snapshots import tree_snapshot

    return tree_snapshot(repo, "HEAD")


def select(
    repo: git.Repository,
    config: Config,
    *,
    mode: str | None,
    paths: list[str],
    rev: str | None,
    cli_author: str | None,
) -> Selection:
    """Build the selection for a `check` run (SPEC section 3).

    - `staged`: content from the index; reports on the staged added, modified
      and renamed files (deleted ones appear only in `changes`); with paths,
      on the named files as staged (pre-commit names the files it commits;
      `pre-commit run --all-files` names every file).
    - `diff`: content at HEAD; reports on the files that the commits
      REV..HEAD changed and that still exist at HEAD; with paths, on the
      named files at HEAD. Each change carries its own commit's author.
    - `all`: every tracked file as it is in the working tree.
    - `paths` (no mode): the named files, and the files under named folders
      (tracked, or untracked and not ignored), as they are on disk.

    With a mode, `changes` is always the whole staged change or range: KB007
    judges the commit, and pre-commit never names deleted paths or the old
    side of a rename. `exclude` removes files from the snapshot and the
    report, not from `changes`.
    """
    from kbcheck.authors import author_for_email, resolve_run_author

    if mode is None:
        mode = "paths" if paths else default_mode()
    if mode not in MODES:
        raise UsageError(f"unknown mode '{mode}'; expected one of {', '.join(MODES)}")
    if mode == "diff" and not rev:
        raise UsageError("--diff needs a revision, e.g. --diff origin/main")
    if mode == "all" and paths:
        raise UsageError("--all checks every tracked file; give either --all or paths, not both")
    if mode == "paths" and not paths:
        raise UsageError("no paths given")

    named = _name_paths(repo, paths)
    exclude = config.exclude

    if mode == "paths":
        for arg, _ in named.missing:
            raise UsageError(f"path does not exist: {arg}")
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
        author, label = resolve_run_author(repo, config, cli_author)
        staged, added = _staged(repo, named.notices)
        changes = _with_author(staged, author, label, None)
    else:
        assert rev is not None
        snapshot = _head_snapshot(repo)
        changes = []
        for commit in git.range_commits(repo, rev):
            label = commit.author_email or commit.author_name or "an author with no email"
            author = author_for_email(config, commit.author_email)
            changes += _with_author(commit.changes, author, label, commit.sha)
        added = _range_lines(repo, named.notices, rev)

    if paths:
        for arg, rel in named.missing:
            if not snapshot.exists(rel):
                raise UsageError(f"path does not exist: {arg}")
            (named.files if snapshot.blob_id(rel) is not None else named.folders).append(rel)
        selected = [p for p in snapshot.paths() if named.covers(p)]
    else:  # a regular file, not excluded: what `paths()` lists
        selected = sorted({c.path for c in changes if c.status != "D" and snapshot.blob_id(c.path) is not None})
    missing: frozenset[str] = getattr(snapshot, "missing", frozenset())
    named.notices += [f"{p}: skipped: content missing from this partial clone" for p in selected
                      if snapshot.blob_id(p) in missing]
    return Selection(snapshot, selected, changes, added, mode, named.notices)
