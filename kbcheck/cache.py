"""Facts cached by git blob id, so a file is parsed once per content (see `docs/architecture.md`).

Entries live under `<git_dir>/kbcheck/cache/<namespace>/` in 64 shards
named by the first six bits of the blob id (`shard_of`): few enough that a
cold run creates few files, small enough that a hook loads little. A shard is
loaded the first time one of its blobs is looked up and written back,
atomically, only when something new was put in it.

One encoding for everything: a value is plain data (tuples, lists, dicts,
sets, str, bytes, int, float, bool, None; `kbcheck.model.plain` turns the
model's dataclasses into that) written with `marshal`, which builds values
and never runs code. Each entry is its own marshalled bytes, so a loaded
shard stays compact and only the entries a run asks for become objects. A
shard starts with a header line carrying a checksum of the rest. The cache
is best effort: a shard that is truncated, corrupt, foreign or from
another kbcheck version is treated as empty and rebuilt, anything that is
not a regular file (a FIFO, a device, a symlink) is never opened, and a
cache that cannot be written is silently skipped. The checksum is not keyed:
it catches damage, not a forgery, so whoever may write the cache folder is
trusted (docs/trust-model.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import shutil
import stat
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

from kbcheck.files import regular_bytes, write_replacing
from kbcheck.regex import lazy

#: bumped when the shard layout changes
FORMAT = 3
#: the file each namespace's writers lock while they merge and write shards
LOCK_NAME = "lock"
#: what a shard file's name ends with
SUFFIX = ".shard"
#: the newest entries kept per shard: 64 shards x 16384 bounds a namespace at ~1M entries
MAX_PER_SHARD = 16384
#: marshal without back-references (version 2): from version 3 on, marshal writes one for
#: every object something else also holds, so a name index built from shared path strings
#: loaded in twice the time, and the same value written by two commands differed
MARSHAL_VERSION = 2
_MAGIC = b"kbcheck-cache"
#: a run asks with few shared keys for thousands of blobs: their digests are remembered
_KEYS_REMEMBERED = 256
_HEADER_MAX = 128
#: what an entry held in memory costs besides its bytes: its key and its slot in two dicts
_ENTRY_COST = 160
_BLOB_ID = lazy(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_NAMESPACE = lazy(r"[A-Za-z0-9_.-]{1,64}")
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def shard_of(blob_id: str) -> str:
    """The shard a blob's entries live in: its id's first six bits, as two hex digits (`00`-`3f`)."""
    return f"{int(blob_id[:2], 16) >> 2:02x}"


def cache_root(git_dir: Path) -> Path:
    return git_dir / "kbcheck" / "cache"


def encode(value: object) -> bytes:
    """Plain data as bytes; ValueError for anything else (a function, an object, a code object)."""
    # marshal refuses most objects, and (at this version, which writes no references) a cycle or a
    # nesting too deep; what it would still write that is no data, a code object, is looked for after
    packed = marshal.dumps(value, MARSHAL_VERSION)  # type: ignore[arg-type]  # checked below
    if not _is_data(value):
        raise ValueError(f"only plain data can be cached, not {type(value).__name__}")
    return packed


def decode(data: bytes) -> object | None:
    """What `encode` wrote; None when it is not that (a shard's checksum already vouches for it)."""
    try:
        value: object = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    return value


_ATOMS = frozenset({str, int, float, bool, bytes, type(None)})
_CONTAINERS = frozenset({tuple, list, frozenset, set})


def _is_data(value: object) -> bool:
    """True for plain data only: marshal would also write and read code objects. The value is one
    marshal wrote, so it holds no cycle: each item is visited once, without recursion."""
    stack: list[Any] = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind in _ATOMS:
            continue
        if kind is dict:
            extend(item)
            extend(item.values())
        elif kind in _CONTAINERS:
            extend(item)
        else:
            return False
    return True


def pack_shard(version: str, namespace: str, entries: dict[str, bytes]) -> bytes:
    """A shard file's bytes: a header line (magic, format, checksum of the rest), then the payload."""
    payload = marshal.dumps((version, namespace, entries), MARSHAL_VERSION)
    return b" ".join((_MAGIC, str(FORMAT).encode(), _checksum(payload))) + b"\n" + payload


def unpack_shard(data: bytes) -> tuple[str, str, dict[str, bytes]] | None:
    """(version, namespace, entries) of a shard file's bytes; None when truncated, corrupted
    (its checksum does not match) or not a shard of this format."""
    header = data[:_HEADER_MAX].partition(b"\n")[0]
    fields = header.split(b" ")
    if len(fields) != 3 or fields[0] != _MAGIC or fields[1] != str(FORMAT).encode():
        return None
    payload = data[len(header) + 1:]
    if fields[2] != _checksum(payload):
        return None
    stored = decode(payload)
    if (not isinstance(stored, tuple) or len(stored) != 3 or not isinstance(stored[0], str)
            or not isinstance(stored[1], str) or not isinstance(stored[2], dict)):
        return None
    return stored[0], stored[1], stored[2]


def _checksum(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=16).hexdigest().encode("ascii")


def _inside(path: Path, parent: Path) -> bool:
    """True when `path` really is under `parent`, symlinks resolved."""
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(parent))
    except ValueError:
        return False
    return True


def _free_for_a_shard(path: Path) -> bool:
    """True when nothing, or a shard file, is at `path`: a FIFO, a folder or a symlink planted
    there is left as it is (the shard is then not written)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _is_folder(path: Path) -> bool:
    """True for a real folder (not a symlink to one, not a FIFO or file in its place)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


class BlobCache:
    """Plain-data values keyed by (blob id, key) for one namespace and kbcheck version;
    `git_dir=None` caches nothing. The key names everything else the value depends on."""

    def __init__(self, git_dir: Path | None, namespace: str, version: str) -> None:
        if not _NAMESPACE.fullmatch(namespace) or namespace in (".", ".."):
            raise ValueError(f"cache namespace must be a short plain name, not {namespace!r}")
        self.namespace = namespace
        self.version = version
        self.directory: Path | None = None
        if git_dir is not None:
            self.directory = cache_root(git_dir) / namespace
            self._git_dir = git_dir
        #: entries as their encoded bytes: only what a run asks for becomes objects
        self._shards: dict[str, dict[str, bytes]] = {}
        self._new: dict[str, dict[str, bytes]] = {}
        self._dropped: dict[str, set[str]] = {}
        self._key_digests: dict[str, str] = {}
        #: the bytes of the entries not written yet (a key and its dict slot count as `_ENTRY_COST`)
        self.unwritten = 0

    def _entry_key(self, blob_id: str, key: str) -> str:
        if not key:
            return blob_id
        digest = self._key_digests.get(key)
        if digest is None:
            digest = hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
            if len(self._key_digests) >= _KEYS_REMEMBERED:  # a card's key names its path: one per card
                self._key_digests.clear()
            self._key_digests[key] = digest
        return f"{blob_id}:{digest}"

    def _shard_path(self, prefix: str) -> Path:
        assert self.directory is not None
        return self.directory / f"{prefix}{SUFFIX}"

    def _load(self, prefix: str) -> dict[str, bytes]:
        """The entries of a shard on disk; empty when missing, not a regular file, corrupt or foreign."""
        data = regular_bytes(self._shard_path(prefix))
        stored = unpack_shard(data) if data is not None else None
        if stored is None or stored[:2] != (self.version, self.namespace):
            return {}
        return stored[2]

    def _shard(self, prefix: str) -> dict[str, bytes]:
        shard = self._shards.get(prefix)
        if shard is None:
            shard = self._load(prefix)
            self._shards[prefix] = shard
        return shard

    def get(self, blob_id: str, key: str = "") -> object | None:
        """The value stored for this content and key, or None."""
        if self.directory is None or not _BLOB_ID.fullmatch(blob_id):
            return None
        packed = self._shard(shard_of(blob_id)).get(self._entry_key(blob_id, key))
        return decode(packed) if isinstance(packed, bytes) else None

    def has(self, blob_id: str, key: str = "") -> bool:
        """True when a value is stored for this content and key (nothing is decoded)."""
        if self.directory is None or not _BLOB_ID.fullmatch(blob_id):
            return False
        return self._entry_key(blob_id, key) in self._shard(shard_of(blob_id))

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
        """Remember a value (plain data only) for this content and key until `flush()` writes it."""
        if self.directory is None or value is None or not _BLOB_ID.fullmatch(blob_id):
            return
        try:
            packed = encode(value)
        except ValueError:  # not data: never cached
            return
        prefix = shard_of(blob_id)
        entry = self._entry_key(blob_id, key)
        self._shard(prefix)[entry] = packed
        self._new.setdefault(prefix, {})[entry] = packed
        self.unwritten += len(packed) + _ENTRY_COST

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
        self.unwritten = 0
        if not _inside(self.directory, self._git_dir):  # a symlink planted inside the git dir
            self._new.clear()
            self._dropped.clear()
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        if not _is_folder(self.directory):
            return
        with _locked(self.directory / LOCK_NAME) as locked:
            if not locked:  # something that is not a lock file holds its place: write nothing
                return
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

    def _write(self, prefix: str, entries: dict[str, bytes]) -> bool:
        """Replace a shard atomically; False when it could not be written."""
        assert self.directory is not None
        if not _free_for_a_shard(self._shard_path(prefix)):
            return False
        data = pack_shard(self.version, self.namespace, entries)
        try:
            # private and not synced: a cache entry lost in a crash is only computed again
            return write_replacing(self._shard_path(prefix), data, mode=None, sync=False)
        except OSError:  # a read-only or full disk
            return False

    def let_go(self) -> None:
        """Let go of every loaded shard that holds nothing unwritten (one is read again if asked
        again): a run that works through the files shard by shard then holds one shard at a time."""
        for prefix in [p for p in self._shards if p not in self._new and p not in self._dropped]:
            del self._shards[prefix]

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
        self.unwritten = 0
        if self.directory is not None and _inside(self.directory, self._git_dir):
            shutil.rmtree(self.directory, ignore_errors=True)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[bool]:
    """An exclusive lock on a file, for as long as the block runs (none where `fcntl` is missing,
    or the file cannot be opened: the cache is best effort, and a write is atomic either way).
    Yields False when something other than a regular file is in the lock's place."""
    try:
        import fcntl
    except ImportError:
        yield True
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _O_NOFOLLOW | _O_NONBLOCK, 0o644)
    except OSError:
        yield not os.path.lexists(path)
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            yield False
            return
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(fd)  # closing releases the lock


def clear_cache(git_dir: Path) -> int:
    """Remove every cached entry under the git dir (`kbcheck cache clear`); the number of shards removed."""
    root = cache_root(git_dir)
    if not _is_folder(root) or not _inside(root, git_dir):
        return 0
    count = sum(1 for p in root.rglob(f"*{SUFFIX}") if p.is_file())
    shutil.rmtree(root, ignore_errors=True)
    return count


def repository_cache(repo: Any) -> Callable[[str], BlobCache]:
    """The cache every command shares: under the common git dir, written under kbcheck's version
    and a digest of its source (`kbcheck.version.cache_version`), one `BlobCache` per namespace."""
    from kbcheck.version import cache_version

    version = cache_version()
    caches: dict[str, BlobCache] = {}

    def factory(namespace: str) -> BlobCache:
        if namespace not in caches:
            caches[namespace] = BlobCache(repo.common_dir, namespace, version)
        return caches[namespace]

    return factory
