"""Parsed summaries cached by git blob id, so a card is parsed once per content.

Entries live under `<git_dir>/kbcheck/cache/<namespace>/` in 64 pickle
shards named by the first six bits of the blob id (`shard_of`): few enough
that a cold run creates few files, small enough that a hook loads little. A shard is loaded
the first time one of its blobs is looked up and written back, atomically,
only when something new was put in it. The cache is best effort: a shard
that is corrupt, truncated, foreign or from another kbcheck version is
treated as empty, and a cache that cannot be written is silently skipped.

Pickle runs code on load, so a shard is trusted like the rest of the git dir
(`.git/hooks` runs code too); git never transfers the git dir on clone.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import re
import shutil
import tempfile
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

#: bumped when the shard layout changes
FORMAT = 2
#: the file each namespace's writers lock while they merge and write shards
LOCK_NAME = "lock"
#: the newest entries kept per shard: 64 shards x 16384 bounds a namespace at ~1M entries
MAX_PER_SHARD = 16384
_MAGIC = "kbcheck-blob-cache"
_BLOB_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_NAMESPACE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def shard_of(blob_id: str) -> str:
    """The shard a blob's entries live in: its id's first six bits, as two hex digits (`00`-`3f`)."""
    return f"{int(blob_id[:2], 16) >> 2:02x}"


def cache_root(git_dir: Path) -> Path:
    return git_dir / "kbcheck" / "cache"


def _inside(path: Path, parent: Path) -> bool:
    """True when `path` really is under `parent`, symlinks resolved."""
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(parent))
    except ValueError:
        return False
    return True


class BlobCache:
    """Values keyed by (blob id, key) for one namespace and kbcheck version; `git_dir=None` caches nothing."""

    def __init__(self, git_dir: Path | None, namespace: str, version: str) -> None:
        if not _NAMESPACE.fullmatch(namespace) or namespace in (".", ".."):
            raise ValueError(f"cache namespace must be a short plain name, not {namespace!r}")
        self.namespace = namespace
        self.version = version
        self.directory: Path | None = None
        if git_dir is not None:
            self.directory = cache_root(git_dir) / namespace
            self._git_dir = git_dir
        self._shards: dict[str, dict[str, Any]] = {}
        self._new: dict[str, dict[str, Any]] = {}
        self._dropped: dict[str, set[str]] = {}
        self._key_digests: dict[str, str] = {}

    def _entry_key(self, blob_id: str, key: str) -> str:
        if not key:
            return blob_id
        digest = self._key_digests.get(key)
        if digest is None:  # a run asks with few distinct keys, for thousands of blobs
            digest = hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
            self._key_digests[key] = digest
        return f"{blob_id}:{digest}"

    def _shard_path(self, prefix: str) -> Path:
        assert self.directory is not None
        return self.directory / f"{prefix}.pickle"

    def _load(self, prefix: str) -> dict[str, Any]:
        """The entries of a shard on disk; empty when missing, unreadable, corrupt or foreign."""
        try:
            with open(self._shard_path(prefix), "rb") as handle:
                payload = pickle.load(handle)
        except Exception:
            return {}
        if (
            not isinstance(payload, dict)
            or payload.get("magic") != _MAGIC
            or payload.get("format") != FORMAT
            or payload.get("version") != self.version
            or payload.get("namespace") != self.namespace
            or not isinstance(payload.get("entries"), dict)
        ):
            return {}
        entries: dict[str, Any] = payload["entries"]
        return entries

    def _shard(self, prefix: str) -> dict[str, Any]:
        shard = self._shards.get(prefix)
        if shard is None:
            shard = self._load(prefix)
            self._shards[prefix] = shard
        return shard

    def get(self, blob_id: str, key: str = "") -> object | None:
        """The value stored for this content and key, or None."""
        if self.directory is None or not _BLOB_ID.fullmatch(blob_id):
            return None
        return self._shard(shard_of(blob_id)).get(self._entry_key(blob_id, key))

    def take(self, blob_id: str, key: str = "") -> object | None:
        """Like `get`, but the loaded shard lets go of the value (for what a run reads once)."""
        value = self.get(blob_id, key)
        if value is not None:
            prefix = shard_of(blob_id)
            entry = self._entry_key(blob_id, key)
            if entry not in self._new.get(prefix, {}):
                self._shards[prefix].pop(entry, None)
        return value

    def put(self, blob_id: str, value: object, key: str = "") -> None:
        """Remember a value for this content and key until `flush()` writes it."""
        if self.directory is None or value is None or not _BLOB_ID.fullmatch(blob_id):
            return
        prefix = shard_of(blob_id)
        entry = self._entry_key(blob_id, key)
        self._shard(prefix)[entry] = value
        self._new.setdefault(prefix, {})[entry] = value

    def drop(self, blob_id: str, key: str = "") -> None:
        """Remove an entry, in memory now and on disk at `flush()` (a value superseded for good)."""
        if self.directory is None or not _BLOB_ID.fullmatch(blob_id):
            return
        prefix = shard_of(blob_id)
        entry = self._entry_key(blob_id, key)
        self._shard(prefix).pop(entry, None)
        self._new.get(prefix, {}).pop(entry, None)
        self._dropped.setdefault(prefix, set()).add(entry)

    def flush(self) -> None:
        """Write the shards that gained entries, each atomically, holding the namespace's lock.

        Each shard is re-read under the lock just before it is written, so
        what another process wrote meanwhile is kept: two hooks, or a run's
        worker processes, may flush at once without losing entries. A written
        shard is let go from memory (read again if asked again).
        """
        if self.directory is None or not (self._new or self._dropped):
            return
        if not _inside(self.directory, self._git_dir):  # a symlink planted inside the git dir
            self._new.clear()
            self._dropped.clear()
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        with _locked(self.directory / LOCK_NAME):
            for prefix in sorted(self._new.keys() | self._dropped.keys()):
                new = self._new.pop(prefix, {})
                merged = self._load(prefix)
                for entry in self._dropped.pop(prefix, ()):
                    merged.pop(entry, None)
                for entry in new:
                    merged.pop(entry, None)  # re-insert: the newest entries are the last ones
                merged.update(new)
                if len(merged) > MAX_PER_SHARD:
                    merged = dict(list(merged.items())[-MAX_PER_SHARD:])
                if self._write(prefix, merged):
                    self._shards.pop(prefix, None)
                else:  # not written: this run still sees its entries
                    self._shards[prefix] = merged

    def _write(self, prefix: str, entries: dict[str, Any]) -> bool:
        """Replace a shard atomically; False when it could not be written."""
        assert self.directory is not None
        payload = {
            "magic": _MAGIC, "format": FORMAT, "version": self.version,
            "namespace": self.namespace, "entries": entries,
        }
        try:
            fd, temp = tempfile.mkstemp(prefix=f".{prefix}.", suffix=".tmp", dir=self.directory)
        except OSError:  # a read-only or full disk
            return False
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, self._shard_path(prefix))
            return True
        except Exception:
            try:
                os.unlink(temp)
            except OSError:
                pass
            return False

    def forget(self, prefixes: Collection[str]) -> None:
        """Re-read these shards (another process has written them), keeping the entries not yet written."""
        for prefix in prefixes:
            self._shards.pop(prefix, None)
            new = self._new.get(prefix)
            if new:
                self._shards[prefix] = {**self._load(prefix), **new}

    def clear(self) -> None:
        """Forget this namespace, in memory and on disk."""
        self._shards.clear()
        self._new.clear()
        self._dropped.clear()
        if self.directory is not None and _inside(self.directory, self._git_dir):
            shutil.rmtree(self.directory, ignore_errors=True)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on a file, for as long as the block runs (none where `fcntl` is missing,
    or the file cannot be opened: the cache is best effort, and a write is atomic either way)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def clear_cache(git_dir: Path) -> int:
    """Remove every cached entry under the git dir (`kbcheck cache clear`); the number of shards removed."""
    root = cache_root(git_dir)
    if not root.is_dir() or not _inside(root, git_dir):
        return 0
    count = sum(1 for p in root.rglob("*.pickle") if p.is_file())
    shutil.rmtree(root, ignore_errors=True)
    return count


def repository_cache(repo: Any) -> Callable[[str], BlobCache]:
    """The cache every command shares: under the common git dir, keyed by kbcheck's
    version and the model's layout, one `BlobCache` per namespace."""
    from kbcheck import __version__
    from kbcheck.model import layout_version

    version = f"{__version__}+{layout_version()}"
    caches: dict[str, BlobCache] = {}

    def factory(namespace: str) -> BlobCache:
        if namespace not in caches:
            caches[namespace] = BlobCache(repo.common_dir, namespace, version)
        return caches[namespace]

    return factory
