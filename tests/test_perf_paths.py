"""What makes large knowledge bases fast gives exactly what the plain way gives.

Card numbers are read on first use from one joined scan; prose scans skip
patterns that cannot match; a cold full check parses in forked processes;
cache entries are compact and a broken one is a miss; the index of card
names is cached for the same list of names; work-tree blob ids come from
git's stat check. Each is compared with the plain way, or checked in a real
repository where a stale answer would show.
"""

from __future__ import annotations

import dataclasses
import io
import json
import marshal
import os
import pickle
import random
from pathlib import Path

import pytest

from kbcheck import engine, parallel
from kbcheck.cache import SUFFIX, pack_shard, unpack_shard
from kbcheck.cli import main
from kbcheck.model import citations
from kbcheck.model.cards import parse_card
from kbcheck.model.claims import numeric_values
from kbcheck.rules import all_rules

ROOTS = ("organized", "inbox")

# -- card numbers ---------------------------------------------------------------------
NUMBER_PIECES = ["5", "1,771", "arXiv:", "2610.02076", " ", "§", "第", "#", "x", "⭐", "stars", "2.7x", "3k", "万",
                 "2026-10-09", "v1.2.3", "http://a.b/1", "organized/a_1.md", "a/b", "10.1234/x", "“", "”", ",", ".",
                 "-", "+", "12:30", "被引", "H200", "年", "月", "日", "T", "\n"]


def _numbers_field_by_field(fields: dict[str, str], body: str) -> frozenset[float]:
    """How card numbers were read before: one scan per string."""
    found: set[float] = set()
    for text in [*fields.values(), body]:
        found |= numeric_values(citations.scan_prose(text, ROOTS)[1])
    return frozenset(found)


def test_card_numbers_equal_a_scan_per_field() -> None:
    rnd = random.Random(3)
    for _ in range(2000):
        fields = {f"f{i}": "".join(rnd.choice(NUMBER_PIECES) for _ in range(rnd.randint(0, 6))).replace("\n", " ")
                  for i in range(rnd.randint(1, 4))}
        body = "".join(rnd.choice(NUMBER_PIECES) for _ in range(rnd.randint(0, 8)))
        front = "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in fields.items())
        card = parse_card("organized/paper_cards/1-2610-02076.md", "paper_card",
                          f'---\narxiv: "2610.02076"\ntitle: "t"\n{front}---\n{body}', ROOTS)
        assert card.numbers == _numbers_field_by_field({"title": "t", **fields}, body)


def test_card_numbers_are_read_on_first_use_and_survive_pickling() -> None:
    card = parse_card("organized/repo_cards/1-a-b.md", "repo_card",
                      "---\nrepo: a/b\nstars: 245\n---\n首次采集 243⭐，周增 +14。\n", ROOTS)
    assert not card.numbers_known
    assert card.numbers == frozenset({245.0, 243.0, 14.0})
    assert card.numbers_known
    assert pickle.loads(pickle.dumps(card)).numbers == card.numbers


# -- prose scans ----------------------------------------------------------------------
SCAN_PIECES = ["arXiv:", "ARXIV: ", "arxiv:2610.02076", "2610.02076", "2610.0207", "v2", " ", "中文", "。",
               "http://", "https://arxiv.org/abs/2610.02076", "github.com/a/b", "owner/repo", "a/b",
               "organized/paper_cards/1-2.md", "inbox/tom/x.md", "doi:", "10.1234/abc", "10.", "/", ":", ".", "İ",
               "K", "ſ", "x", "5", "papers.cool/arxiv/2610.02076", "（", "）", "-", "@"]


class _Always(str):
    """Claims to contain every character, so `scan_prose` skips no pattern."""

    def __contains__(self, item: object) -> bool:
        return True


def test_scans_skipped_for_want_of_a_character_would_find_nothing() -> None:
    rnd = random.Random(9)
    texts = ["".join(rnd.choice(SCAN_PIECES) for _ in range(rnd.randint(0, 8))) for _ in range(4000)]
    fast = [citations.scan_prose(t, ROOTS) for t in texts]
    slow = [citations.scan_prose(_Always(t), ROOTS) for t in texts]
    assert fast == [(found, str(masked)) for found, masked in slow]


# -- real repositories ----------------------------------------------------------------
def _card(root: Path, seq: int, arxiv: str, body: str) -> Path:
    path = root / "organized" / "paper_cards" / f"{seq}-{arxiv.replace('.', '-')}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'---\narxiv: "{arxiv}"\ntitle: "Paper {seq}"\ns2_citations: {seq % 40}\n---\n\n{body}\n',
                    encoding="utf-8")
    return path


def _write_kb(root: Path, cards: int) -> None:
    ids = [f"2610.{10000 + i:05d}" for i in range(cards)]
    for i, arxiv in enumerate(ids):
        _card(root, 1000 + i, arxiv, f"# P{i}\n\n加速 {1 + i % 9}.5×，相关 arXiv:{ids[(i + 1) % cards]}。")
    doc = ["# 活文档", "", "## §1 正文", ""]
    doc += [f"- 条目 arXiv:{a}：端到端 {1 + i % 9}.5× 加速。" for i, a in enumerate(ids[: cards // 2])]
    doc += ["", "## §6.2 趋势", "", "- 没有来源的趋势。", "", "## §七 引用列表", ""]
    doc += [f"- arXiv:{a}" for a in ids[: cards // 2 + 3]]
    (root / "organized" / "knowledge").mkdir(parents=True, exist_ok=True)
    (root / "organized" / "knowledge" / "doc.md").write_text("\n".join(doc) + "\n", encoding="utf-8")
    (root / "inbox" / "tom").mkdir(parents=True, exist_ok=True)
    (root / "inbox" / "tom" / "brief.md").write_text(
        f"# 简报\n\n来源 organized/paper_cards/1000-{ids[0].replace('.', '-')}.md：被引 99，"
        "见 arXiv:2610.99999。\n", encoding="utf-8")


def _check(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, object]:
    monkeypatch.chdir(root)
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", *args, "--format", "json"], out=out, err=err)
    assert status in (0, 1), err.getvalue()
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def _rules(report: dict[str, object]) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["subject"]) for f in report["findings"])  # type: ignore[attr-defined]


def _parallel(monkeypatch: pytest.MonkeyPatch, *, parent_works: bool = True, jobs: int = 3) -> None:
    """Fork workers however few files a run has."""
    monkeypatch.setattr(engine, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(engine, "PARENT_SHARE_MAX_FILES", 10_000 if parent_works else 0)
    monkeypatch.setenv(parallel.JOBS_ENV, str(jobs))


needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


@needs_fork
@pytest.mark.parametrize("parent_works", [True, False])
def test_parallel_cold_run_reports_what_one_process_does(git_repo, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                         parent_works: bool) -> None:
    _write_kb(git_repo.path, 60)
    (git_repo.path / "inbox" / "tom" / "quiet.md").write_text(
        "# 静音\n\n<!-- kbcheck: disable=KB004 -->\n见 arXiv:2610.99998。\n\n见 arXiv:2610.99997。\n", encoding="utf-8")
    git_repo.commit_all("kb")
    alone = _check(git_repo.path, monkeypatch, "--all", "--no-cache")
    _parallel(monkeypatch, parent_works=parent_works)
    forked = _check(git_repo.path, monkeypatch, "--all")
    warm = _check(git_repo.path, monkeypatch, "--all")
    assert forked == alone == warm
    assert {rule for rule, _ in _rules(alone)} >= {"KB001", "KB002", "KB004", "KB006"}
    assert ("KB004", "2610.99997") in _rules(alone) and ("KB004", "2610.99998") not in _rules(alone)
    assert alone["summary"]["suppressed"] >= 1  # type: ignore[index]
    cache = git_repo.path / ".git" / "kbcheck" / "cache"
    assert {p.name for p in cache.iterdir()} >= {"card", "refs", "doc"}
    assert not list(cache.rglob("*.tmp"))


@needs_fork
def test_workers_reading_from_git_use_their_own_cat_file(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    git_repo.commit_files({"README.md": "seed\n"})
    _write_kb(git_repo.path, 60)
    git_repo.git("add", "-A")
    alone = _check(git_repo.path, monkeypatch, "--staged", "--filter", "file", "--no-cache")
    _parallel(monkeypatch)
    assert _check(git_repo.path, monkeypatch, "--staged", "--filter", "file") == alone
    assert {rule for rule, _ in _rules(alone)} >= {"KB001", "KB004"}


@needs_fork
def test_a_parallel_cold_digest_is_the_digest_of_one_process(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    _write_kb(git_repo.path, 40)
    base = git_repo.commit_all("kb")
    for i in range(0, 40, 3):
        _card(git_repo.path, 1000 + i, f"2610.{10000 + i:05d}", f"# 更新 {i}\n\n被引 {i + 7}，见 arXiv:2610.{10000 + (i + 2) % 40:05d}。")
    _card(git_repo.path, 5000, "2610.20000", "# 新卡\n\n新方法。")
    git_repo.commit_all("refresh")
    monkeypatch.chdir(git_repo.path)

    def digest(*extra: str) -> str:
        out, err = io.StringIO(), io.StringIO()
        assert main(["digest", "--since", base, "--format", "json", *extra], out=out, err=err) == 0, err.getvalue()
        return out.getvalue()

    monkeypatch.setenv(parallel.JOBS_ENV, "1")
    main(["cache", "clear"], out=io.StringIO(), err=io.StringIO())
    one = digest()
    main(["cache", "clear"], out=io.StringIO(), err=io.StringIO())
    _parallel(monkeypatch)
    forked = digest()
    assert forked == one == digest()  # and warm
    assert json.loads(one)["items"]


@needs_fork
def test_an_error_in_a_worker_is_one_line_naming_rule_and_file(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    _write_kb(git_repo.path, 30)
    git_repo.commit_all("kb")
    by_id = all_rules()
    real = by_id["KB004"].check_file
    assert real is not None

    def broken(file, kb, config):  # type: ignore[no-untyped-def]
        if file.path.endswith("1017-2610-10017.md"):
            raise ValueError("boom")
        return real(file, kb, config)

    monkeypatch.setitem(by_id, "KB004", dataclasses.replace(by_id["KB004"], check_file=broken))
    _parallel(monkeypatch)
    monkeypatch.chdir(git_repo.path)
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", "--all"], out=out, err=err) == 2
    assert err.getvalue().strip().splitlines() == [
        "kbcheck: error: rule KB004 failed on organized/paper_cards/1017-2610-10017.md: ValueError: boom"]


@needs_fork
def test_a_worker_that_dies_costs_time_not_findings(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    _write_kb(git_repo.path, 60)
    git_repo.commit_all("kb")
    alone = _check(git_repo.path, monkeypatch, "--all", "--no-cache")
    parent = os.getpid()
    real = engine.check_files

    def dying(*args, **kwargs):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            os._exit(9)  # killed mid-run: no result, no cache written
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "check_files", dying)
    _parallel(monkeypatch)
    assert _check(git_repo.path, monkeypatch, "--all") == alone


def test_run_tasks_gives_results_in_task_order_from_any_worker() -> None:
    tasks = list(range(40))
    if hasattr(os, "fork"):
        results = parallel.run_tasks(tasks, lambda n: (n * n, os.getpid()), workers=3)
        assert [r for r, _ in results] == [n * n for n in tasks]
    with pytest.raises(ValueError):
        parallel.run_tasks(list(range(parallel.MAX_TASKS + 1)), lambda n: n, workers=2)


def test_broken_cache_entries_are_misses(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    _write_kb(git_repo.path, 12)
    git_repo.commit_all("kb")
    expected = _check(git_repo.path, monkeypatch, "--all")
    cache = git_repo.path / ".git" / "kbcheck" / "cache"
    shards = list(cache.rglob(f"*{SUFFIX}"))
    assert shards
    for shard in shards:
        stored = unpack_shard(shard.read_bytes())
        assert stored is not None
        version, namespace, entries = stored
        broken = {key: b"\xffnot marshalled data" for key in entries}
        shard.write_bytes(pack_shard(version, namespace, broken))
    assert _check(git_repo.path, monkeypatch, "--all") == expected
    assert _check(git_repo.path, monkeypatch, "--all") == expected  # and rebuilt


def test_card_name_index_follows_added_and_removed_cards(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    _write_kb(git_repo.path, 6)
    git_repo.commit_all("kb")
    before = _rules(_check(git_repo.path, monkeypatch, "--all"))
    assert ("KB004", "2610.99999") in before  # the brief cites a paper nobody collected
    card = _card(git_repo.path, 2000, "2610.99999", "# 新卡")
    git_repo.git("add", "--", str(card.relative_to(git_repo.path)))
    assert ("KB004", "2610.99999") not in _rules(_check(git_repo.path, monkeypatch, "--staged", "--filter", "all"))
    assert ("KB004", "2610.99999") not in _rules(_check(git_repo.path, monkeypatch, "--all"))
    git_repo.git("rm", "-q", "-f", "--", str(card.relative_to(git_repo.path)))
    assert ("KB004", "2610.99999") in _rules(_check(git_repo.path, monkeypatch, "--staged", "--filter", "all"))


def test_unstaged_edits_are_read_from_disk(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    _write_kb(git_repo.path, 6)
    git_repo.commit_all("kb")
    assert not [r for r in _rules(_check(git_repo.path, monkeypatch, "--all")) if r[0] == "KB008"]
    card = next((git_repo.path / "organized" / "paper_cards").glob("1002-*.md"))
    card.write_text(card.read_text(encoding="utf-8").replace('arxiv: "', 'arxiv: ["', 1), encoding="utf-8")
    assert [r for r in _rules(_check(git_repo.path, monkeypatch, "--all")) if r[0] == "KB008"]


def _index_entries(root: Path) -> dict[str, bytes]:
    entries: dict[str, bytes] = {}
    for shard in (root / ".git" / "kbcheck" / "cache" / "index").glob(f"*{SUFFIX}"):
        stored = unpack_shard(shard.read_bytes())
        assert stored is not None
        entries.update((k, v) for k, v in stored[2].items() if isinstance(marshal.loads(v), dict))  # not the list of recent ones
    return entries


def test_a_name_index_is_cached_as_the_same_bytes_by_a_digest_and_a_hook(git_repo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    # a digest shares path strings between revisions; marshal must not write them as back-references,
    # which would make every later hook load the index in twice the time
    _write_kb(git_repo.path, 20)
    base = git_repo.commit_all("kb")
    _card(git_repo.path, 5000, "2610.20000", "# 新卡\n\n新方法。")
    git_repo.commit_all("one more card")
    monkeypatch.chdir(git_repo.path)
    assert main(["digest", "--since", base, "--format", "json"], out=io.StringIO(), err=io.StringIO()) == 0
    by_digest = _index_entries(git_repo.path)
    main(["cache", "clear"], out=io.StringIO(), err=io.StringIO())
    _check(git_repo.path, monkeypatch, "--all")
    by_check = _index_entries(git_repo.path)
    shared = by_digest.keys() & by_check.keys()
    assert len(shared) == 1  # the paper index of the head revision (nothing here asks for repo cards)
    assert all(by_digest[key] == by_check[key] for key in shared)
    assert any("2610.20000" in marshal.loads(by_check[key]) for key in shared)
