"""The blob cache: round trips, broken shards, versions, concurrency, and where it writes."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from pathlib import Path

import pytest

from kbcheck.cache import (
    FORMAT,
    LOCK_NAME,
    MAX_PER_SHARD,
    SUFFIX,
    BlobCache,
    cache_root,
    clear_cache,
    pack_shard,
    shard_of,
    unpack_shard,
)


def blob(n: int, prefix: str = "") -> str:
    digest = hashlib.sha1(str(n).encode()).hexdigest()
    return (prefix + digest)[:40]


@pytest.fixture
def git_dir(tmp_path: Path) -> Path:
    path = tmp_path / "repo" / ".git"
    path.mkdir(parents=True)
    return path


def files_under(path: Path) -> list[Path]:
    """Every file but the writers' lock files."""
    return sorted(p for p in path.rglob("*") if p.is_file() and p.name != LOCK_NAME)


def test_round_trip_through_disk(git_dir: Path) -> None:
    cache = BlobCache(git_dir, "card", "1.0")
    values = {blob(i): {"id": i, "title": f"卡片 {i}"} for i in range(50)}
    for blob_id, value in values.items():
        cache.put(blob_id, value, key="paper")
    assert cache.get(blob(3), "paper") == {"id": 3, "title": "卡片 3"}  # visible before flushing
    cache.flush()
    fresh = BlobCache(git_dir, "card", "1.0")
    for blob_id, value in values.items():
        assert fresh.get(blob_id, "paper") == value
    assert fresh.get(blob(3), "repo") is None  # another key is another entry
    assert fresh.get(blob(999), "paper") is None
    shards = files_under(cache_root(git_dir))
    assert shards and all(p.parent == cache_root(git_dir) / "card" and p.suffix == SUFFIX for p in shards)
    assert {p.stem for p in shards} == {shard_of(b) for b in values}


def test_shards_are_the_first_six_bits_of_the_blob_id() -> None:
    assert [shard_of(p + "0" * 38) for p in ("00", "03", "04", "a9", "aa", "ff")] == ["00", "00", "01", "2a", "2a", "3f"]
    assert len({shard_of(f"{n:02x}" + "0" * 38) for n in range(256)}) == 64


def test_keys_and_namespaces_are_separate(git_dir: Path) -> None:
    doc = BlobCache(git_dir, "doc", "1.0")
    card = BlobCache(git_dir, "card", "1.0")
    doc.put(blob(1), "parsed as a document", key="k1")
    doc.put(blob(1), "parsed with other patterns", key="k2")
    card.put(blob(1), "parsed as a card")
    doc.flush()
    card.flush()
    assert BlobCache(git_dir, "doc", "1.0").get(blob(1), "k1") == "parsed as a document"
    assert BlobCache(git_dir, "doc", "1.0").get(blob(1), "k2") == "parsed with other patterns"
    assert BlobCache(git_dir, "card", "1.0").get(blob(1)) == "parsed as a card"
    assert BlobCache(git_dir, "card", "1.0").get(blob(1), "k1") is None


def test_entries_of_another_version_are_ignored(git_dir: Path) -> None:
    old = BlobCache(git_dir, "doc", "0.9")
    old.put(blob(1), "old parse")
    old.flush()
    new = BlobCache(git_dir, "doc", "1.0")
    assert new.get(blob(1)) is None
    new.put(blob(1), "new parse")
    new.flush()
    assert BlobCache(git_dir, "doc", "1.0").get(blob(1)) == "new parse"
    assert BlobCache(git_dir, "doc", "0.9").get(blob(1)) is None


_GOOD = pack_shard("1.0", "doc", {"x": b"\xe9\x01\x00\x00\x00"})


@pytest.mark.parametrize("content", [
    b"",
    b"garbage, not a shard at all",
    _GOOD[:-3],                                                                      # truncated
    _GOOD[:-1] + b"\x02",                                                            # corrupted
    _GOOD.replace(b"kbcheck-cache", b"kbcheck-other", 1),                            # foreign magic
    _GOOD.replace(f" {FORMAT} ".encode(), b" 1 ", 1),                                # older format
    pack_shard("1.0", "card", {}),                                                   # another namespace
    b"kbcheck-cache 3 0123456789abcdef0123456789abcdef\n" + _GOOD.split(b"\n", 1)[1],  # forged checksum
    # a pickle that would run code when loaded: never unpickled
    b"\x80\x05\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\x0cno_such_mod\x94\x8c\x01X\x94\x93\x94.",
])
def test_corrupt_shard_is_ignored_and_rebuilt(git_dir: Path, content: bytes) -> None:
    blob_id = blob(7)
    shard = cache_root(git_dir) / "doc" / f"{shard_of(blob_id)}{SUFFIX}"
    shard.parent.mkdir(parents=True)
    shard.write_bytes(content)
    cache = BlobCache(git_dir, "doc", "1.0")
    assert cache.get(blob_id) is None
    cache.put(blob_id, "rebuilt")
    cache.flush()
    assert BlobCache(git_dir, "doc", "1.0").get(blob_id) == "rebuilt"


def test_unreadable_shard_is_a_cold_cache(git_dir: Path) -> None:
    blob_id = blob(8)
    shard = cache_root(git_dir) / "doc" / f"{shard_of(blob_id)}{SUFFIX}"
    shard.mkdir(parents=True)  # a folder where a shard should be
    cache = BlobCache(git_dir, "doc", "1.0")
    assert cache.get(blob_id) is None
    cache.put(blob_id, "value")
    cache.flush()  # cannot replace a folder: skipped, no exception
    assert cache.get(blob_id) == "value"


def test_no_git_dir_is_a_no_op(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cache = BlobCache(None, "doc", "1.0")
    cache.put(blob(1), "value")
    assert cache.get(blob(1)) is None
    cache.flush()
    cache.clear()
    assert files_under(tmp_path) == []


def test_flush_writes_only_dirty_shards_atomically(git_dir: Path) -> None:
    cache = BlobCache(git_dir, "doc", "1.0")
    cache.flush()
    assert not cache_root(git_dir).exists()  # nothing new, nothing written
    first, second = blob(1, "aa"), blob(2, "bb")
    cache.put(first, 1)
    cache.put(second, 2)
    cache.flush()
    shard_a = cache_root(git_dir) / "doc" / f"{shard_of('aa')}{SUFFIX}"
    shard_b = cache_root(git_dir) / "doc" / f"{shard_of('bb')}{SUFFIX}"
    os.utime(shard_b, (1, 1))
    reader = BlobCache(git_dir, "doc", "1.0")
    assert reader.get(second) == 2
    reader.put(blob(3, "aa"), 3)
    reader.flush()
    assert os.stat(shard_b).st_mtime == 1  # loaded but clean: not rewritten
    assert BlobCache(git_dir, "doc", "1.0").get(blob(3, "aa")) == 3
    assert BlobCache(git_dir, "doc", "1.0").get(first) == 1
    assert [p.name for p in files_under(cache_root(git_dir))] == [f"{shard_of('aa')}{SUFFIX}", f"{shard_of('bb')}{SUFFIX}"]  # no temp files
    assert shard_a.exists()


def test_flush_keeps_what_another_process_wrote_meanwhile(git_dir: Path) -> None:
    one = BlobCache(git_dir, "doc", "1.0")
    two = BlobCache(git_dir, "doc", "1.0")
    assert one.get(blob(1, "cc")) is None and two.get(blob(2, "cc")) is None  # both load the empty shard
    one.put(blob(1, "cc"), "from one")
    two.put(blob(2, "cc"), "from two")
    one.flush()
    two.flush()
    fresh = BlobCache(git_dir, "doc", "1.0")
    assert fresh.get(blob(1, "cc")) == "from one"
    assert fresh.get(blob(2, "cc")) == "from two"


def _hammer(git_dir: str, worker: int) -> None:
    for round_ in range(30):
        cache = BlobCache(Path(git_dir), "doc", "1.0")
        for i in range(20):
            cache.put(blob(worker * 10_000 + round_ * 100 + i, "dd"), ("worker", worker, round_, i) * 50)
        cache.flush()


def test_concurrent_flushes_neither_corrupt_nor_lose_entries(git_dir: Path) -> None:
    context = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    workers = [context.Process(target=_hammer, args=(str(git_dir), w)) for w in range(3)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(60)
        assert process.exitcode == 0
    shard = cache_root(git_dir) / "doc" / f"{shard_of('dd')}{SUFFIX}"
    stored = unpack_shard(shard.read_bytes())
    assert stored is not None and stored[:2] == ("1.0", "doc")
    entries = stored[2]
    assert all(isinstance(value, bytes) for value in entries.values())
    assert len(entries) == 3 * 30 * 20  # the lock: no writer lost another's entries
    assert [p.name for p in files_under(cache_root(git_dir))] == [f"{shard_of('dd')}{SUFFIX}"]
    assert (cache_root(git_dir) / "doc" / LOCK_NAME).is_file()


def test_shards_are_bounded(git_dir: Path) -> None:
    cache = BlobCache(git_dir, "doc", "1.0")
    ids = [("ee" + hashlib.sha1(str(i).encode()).hexdigest())[:40] for i in range(MAX_PER_SHARD + 10)]
    for i, blob_id in enumerate(ids):
        cache.put(blob_id, i)
    cache.flush()
    fresh = BlobCache(git_dir, "doc", "1.0")
    assert fresh.get(ids[0]) is None  # the oldest entries went first
    assert fresh.get(ids[-1]) == len(ids) - 1


def test_bad_blob_ids_are_not_cached(git_dir: Path) -> None:
    cache = BlobCache(git_dir, "doc", "1.0")
    for bad in ("", "zz", "../../x", "A" * 40, "0" * 39):
        cache.put(bad, "value")
        assert cache.get(bad) is None
    cache.flush()
    assert not cache_root(git_dir).exists()


def test_a_value_that_is_not_plain_data_is_skipped(git_dir: Path) -> None:
    cache = BlobCache(git_dir, "doc", "1.0")
    cache.put(blob(1, "ff"), lambda: None)
    cache.put(blob(2, "ff"), (lambda: None).__code__)  # marshal would write a code object
    cache.put(blob(3, "ff"), {"nested": [object()]})
    cache.put(blob(4, "ff"), {"deep": [(1, {"code": (lambda: None).__code__})]})  # marshal writes it too
    cycle: list[object] = []
    cycle.append(cycle)
    cache.put(blob(5, "ff"), cycle)
    cache.flush()  # no exception, no temp file left behind
    assert files_under(cache_root(git_dir)) == []


def test_plain_data_of_any_depth_is_kept(git_dir: Path) -> None:
    value = {"a": [(1, 2.5, None, True, b"x", frozenset({"y"}))], "b": {"c": ({"d": [[["e"]]]},)}}
    cache = BlobCache(git_dir, "doc", "1.0")
    cache.put(blob(1, "ff"), value)
    cache.flush()
    assert BlobCache(git_dir, "doc", "1.0").get(blob(1, "ff")) == value


def test_namespace_cannot_leave_the_cache(git_dir: Path) -> None:
    for bad in ("../escape", "a/b", "", ".."):
        with pytest.raises(ValueError):
            BlobCache(git_dir, bad, "1.0")


def test_never_writes_outside_the_git_dir(git_dir: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (git_dir / "kbcheck").symlink_to(elsewhere, target_is_directory=True)
    cache = BlobCache(git_dir, "doc", "1.0")
    cache.put(blob(1), "value")
    cache.flush()
    assert list(elsewhere.iterdir()) == []


def test_clear(git_dir: Path) -> None:
    doc = BlobCache(git_dir, "doc", "1.0")
    card = BlobCache(git_dir, "card", "1.0")
    doc.put(blob(1), "d")
    card.put(blob(1), "c")
    doc.flush()
    card.flush()
    doc.clear()
    assert doc.get(blob(1)) is None
    assert BlobCache(git_dir, "doc", "1.0").get(blob(1)) is None
    assert BlobCache(git_dir, "card", "1.0").get(blob(1)) == "c"
    assert clear_cache(git_dir) == 1
    assert BlobCache(git_dir, "card", "1.0").get(blob(1)) is None
    assert clear_cache(git_dir) == 0
    assert git_dir.is_dir()


def test_check_digest_and_baseline_share_one_cache_identity(git_repo) -> None:  # type: ignore[no-untyped-def]
    """A digest or baseline run must leave entries a later hook can read (same dir, same version)."""
    from kbcheck.cache import BlobCache, repository_cache
    from kbcheck.git import open_repository

    repo = open_repository(git_repo.path)
    factory = repository_cache(repo)
    cache = factory("card")
    assert factory("card") is cache
    cache.put("ab" * 20, {"x": 1})
    cache.flush()
    again = repository_cache(open_repository(git_repo.path))("card")
    assert again.get("ab" * 20) == {"x": 1}
    assert isinstance(cache, BlobCache)


def test_let_go_reads_a_shard_again_and_keeps_what_is_unwritten(git_dir: Path) -> None:
    writer = BlobCache(git_dir, "doc", "1.0")
    writer.put(blob(1), "first")
    writer.flush()
    reader = BlobCache(git_dir, "doc", "1.0")
    assert reader.get(blob(1)) == "first"
    reader.put(blob(2), "not yet written")
    other = BlobCache(git_dir, "doc", "1.0")
    other.put(blob(1), "rewritten")
    other.flush()
    assert reader.get(blob(1)) == "first"  # the loaded shard is held
    reader.let_go()
    assert reader.get(blob(2)) == "not yet written"  # a shard with unwritten entries stays
    assert shard_of(blob(1)) != shard_of(blob(2))
    assert reader.get(blob(1)) == "rewritten"  # a let-go shard is read again
