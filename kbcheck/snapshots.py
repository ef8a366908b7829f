"""The knowledge base's files at one point: the working tree, the index or a commit.

A snapshot lists regular files and reads their bytes, and never reads
anything that would resolve outside the repository. A commit's snapshot is
safe in partial clones: asking `git cat-file --batch` for a missing blob
makes git try to fetch it from the promisor remote, and when that fails the
batch process dies and every later read fails with it. So the missing blobs
are listed first with `git rev-list --missing=print`, which never fetches,
and such files read as absent.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import posixpath
import stat
from abc import ABC, abstractmethod
from collections.abc import Iterable
from pathlib import Path

from kbcheck import git
from kbcheck.files import regular_bytes
from kbcheck.globs import globset


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
    #: True when paths are `sys.intern`ed, shared with other snapshots of the repository
    interned = False
    #: a name for exactly these files and contents when one is known (a commit), else None:
    #: what a fact that depends on the whole knowledge base, not one file, is cached under
    state: str | None = None

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

    def every_path(self) -> list[str]:
        """Every entry of the tree, excluded ones too (a link to an excluded file is not broken), sorted."""
        return self._sorted()

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


    def tracked(self, path: str) -> bool:
        """`exists`, for what the repository holds: a file only on this disk is missing for everyone else."""
        return self.exists(path)

    def listing_state(self) -> str | None:
        """`state`, or, for a snapshot that names no commit, a name worked out from reading
        its whole listing (what a run over every file pays anyway); None when there is none."""
        return self.state

    def ignores_state(self) -> str | None:
        """What decides what git ignores, for a snapshot that names no commit (the work tree); None
        for the others (a commit's files are kept by its `state`, the index's by none)."""
        return None

    def read_excluded(self, paths: Iterable[str]) -> dict[str, bytes]:
        """The bytes of the files among `paths` the configuration excludes (page templates): what the
        checked files were copied from, read for that alone and never checked. Only a git tree (a
        commit, the index) is read so; a working tree gives none."""
        return {}


class _GitTreeSnapshot(Snapshot):
    """A snapshot whose files are git objects: the index or a commit's tree."""

    #: blobs a partial clone lacks: they read as absent, never fetched
    missing: frozenset[str] = frozenset()

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

    def read_excluded(self, paths: Iterable[str]) -> dict[str, bytes]:
        wanted = {p: meta[self._sha] for p in paths
                  if (meta := self.entries.get(p)) is not None and meta[:6] in git.REGULAR_MODES and self.excluded(p)}
        blobs = git.read_blobs(self.repo, [sha for sha in wanted.values() if sha not in self.missing])
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
        self.state = self.commit


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
        named = {p for p in (normalise_path(e) for e in extra) if p is not None}
        #: files named on the command line that git does not track
        self._untracked = frozenset(named - candidates)
        candidates.update(named)
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
        self._object_format = git.object_format(repo)
        self._listing_state: str | None = None
        self._ignores_state: str | None = None

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

    def tracked(self, path: str) -> bool:
        return normalise_path(path) not in self._untracked and self.exists(path)

    def read(self, path: str) -> bytes | None:
        if self._last_read is not None and self._last_read[0] == path:
            return self._last_read[1]
        if path not in self._regular_files():
            return None
        if path in self._off_disk:
            sha = self._off_disk[path][7:]
            return git.read_blobs(self.repo, [sha]).get(sha)
        data = regular_bytes(self.root / path)
        if data is None:
            return None
        self._last_read = (path, data)
        return data

    def listing_state(self) -> str | None:
        """Every entry with its blob id (a symlink, a submodule or an excluded file by name
        alone), which files are untracked, and what git ignores (`git.ignore_rules_digest`):
        the same name exactly when a check of every file would read the same."""
        if self._listing_state is None:
            digest = hashlib.sha1(f"worktree\0{self._object_format}\n".encode())
            regular = self._regular_files()
            for path in self._entries():
                blob = (self.blob_id(path) or "-") if path in regular else "-"
                mark = "?" if path in self._untracked else ""
                digest.update(f"{path}\0{blob}{mark}\n".encode("utf-8", "surrogateescape"))
            digest.update(self.ignores_state().encode())
            self._listing_state = digest.hexdigest()
        return self._listing_state

    def ignores_state(self) -> str:
        if self._ignores_state is None:
            self._ignores_state = git.ignore_rules_digest(self.repo)
        return self._ignores_state

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
        digest = git.blob_id(data, self._object_format)
        self._blob_ids[path] = digest
        return digest


def is_partial_clone(repo: git.Repository) -> bool:
    """True when some remote is a promisor (objects may be missing on purpose).

    The repository's own config file is read first: when it names no promisor
    and includes no other file, asking git (a process, ~15 ms) is not needed.
    """
    try:
        text = (repo.common_dir / "config").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        text = "include"
    if not any(word in text for word in ("promisor", "partialclone", "include")):
        return False
    status, out = git.run(repo, "config", "--get-regexp", r"^(remote\..*\.promisor|extensions\.partialclone)$",
                          check=False)
    return status == 0 and bool(out.strip())


def missing_blobs(repo: git.Repository, commits: Iterable[str]) -> frozenset[str]:
    """Objects of these commits' trees that are not in the local store (partial clones only)."""
    if not is_partial_clone(repo):
        return frozenset()
    status, out = git.run(repo, "rev-list", "--objects", "--missing=print",
                          *(f"{sha}^{{tree}}" for sha in commits), "--", check=False)
    if status != 0:
        return frozenset()
    return frozenset(line[1:].strip() for line in out.decode("ascii", "replace").splitlines() if line.startswith("?"))


class PresentTreeSnapshot(TreeSnapshot):
    """The tree of a commit whose missing blobs read as absent instead of being fetched."""

    def __init__(self, repo: git.Repository, rev: str, exclude: Iterable[str] = (),
                 missing: frozenset[str] = frozenset()) -> None:
        super().__init__(repo, rev, exclude)
        self.missing = missing
        # what reads as absent is part of what the files are
        listed = "\0".join(sorted(missing)).encode("ascii", "replace")
        self.state = f"{self.commit}-{hashlib.sha1(listed).hexdigest()}"

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        return super().read_many(p for p in paths if self.blob_id(p) not in self.missing)


def tree_snapshot(repo: git.Repository, rev: str, exclude: Iterable[str] = (),
                  missing: frozenset[str] | None = None) -> TreeSnapshot:
    """A snapshot of commit `rev`, safe in partial clones."""
    if missing is None:
        missing = missing_blobs(repo, [git.resolve(repo, rev)])
    return PresentTreeSnapshot(repo, rev, exclude, missing) if missing else TreeSnapshot(repo, rev, exclude)


class GivenFileSnapshot(WorktreeSnapshot):
    """The working tree with one file's bytes given instead of read from disk: the unsaved buffer
    an editor sends on standard input (`kbcheck check --stdin-filename PATH`). The file need not
    exist on disk, nor be tracked."""

    def __init__(self, repo: git.Repository, path: str, data: bytes, exclude: Iterable[str] = ()) -> None:
        super().__init__(repo, exclude, (path,))
        self._given_path = path
        self._given = data

    def _scan(self) -> None:
        super()._scan()
        assert self._present is not None and self._regular is not None
        if self._given_path not in self._regular and not self.excluded(self._given_path):
            self._present.append(self._given_path)
            self._regular[self._given_path] = None

    def read(self, path: str) -> bytes | None:
        return self._given if path == self._given_path else super().read(path)

    def blob_id(self, path: str) -> str | None:
        if path == self._given_path:
            return git.blob_id(self._given, self._object_format) if path in self._regular_files() else None
        return super().blob_id(path)
