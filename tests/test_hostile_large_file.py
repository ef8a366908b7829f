"""Hostile input: one large note of many findings (a results table, a number with a unit in
every cell). Its check takes time and memory linear in its size, and each finding is held
once: a 4 MiB table took 42 s and 1.7 GB, most of it the findings' JSON held three times
over and every inline's tokens held at once.

Like `tests/test_hostile.py`, each case runs the real CLI in a real git repository. Growth
is measured as a ratio over a 4x larger input, never a fixed time: about 4 when linear, 16
when quadratic (the bounds sit between the two, far from both).
"""

from __future__ import annotations

import io
import json
import os
import time
import tracemalloc

import pytest
from gitrepo import GitRepo

from kbcheck.cli import main

TABLE = "inbox/tom/results.md"
#: rows of the smaller table, and how many times larger the other is
ROWS, FACTOR = 1_500, 4


def _table(rows: int) -> str:
    """A benchmark table: two numbers with units per row, neither with a source (two KB005 each)."""
    body = "".join(f"| model-{i} | {i % 97 + 1}.{i % 10} ms | {i % 100}% |\n" for i in range(rows))
    return "# 结果\n\n| model | latency | share |\n|---|---|---|\n" + body


def _commit(repo: GitRepo, rows: int) -> None:
    repo.commit_files({TABLE: _table(rows)}, f"{rows} rows", author="tom")


def _check(out: io.TextIOBase) -> int:
    """Check the committed table in full; the number of findings reported (-1: written elsewhere)."""
    code = main(["check", "--all", "--no-cache", "--format", "json"], out=out, err=io.StringIO())
    assert code == 0
    return len(json.loads(out.getvalue())["findings"]) if isinstance(out, io.StringIO) else -1


def _seconds(repo: GitRepo, rows: int, runs: int) -> float:
    _commit(repo, rows)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        assert _check(io.StringIO()) == 2 * rows
        times.append(time.perf_counter() - start)
    return min(times)


def test_a_table_of_numbers_takes_time_linear_in_its_rows(git_repo: GitRepo) -> None:
    small = _seconds(git_repo, ROWS, runs=2)
    large = _seconds(git_repo, ROWS * FACTOR, runs=1)
    assert large / small < 2.5 * FACTOR, (small, large)


def _peak_bytes(repo: GitRepo, rows: int) -> int:
    """The most memory the check of a table of `rows` rows held at once (its output written to nowhere)."""
    _commit(repo, rows)
    with open(os.devnull, "w", encoding="utf-8") as nowhere:
        tracemalloc.start()
        try:
            _check(nowhere)  # type: ignore[arg-type]
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


@pytest.mark.parametrize("rows", [ROWS * FACTOR])
def test_a_table_of_numbers_holds_memory_linear_in_its_size(git_repo: GitRepo, rows: int) -> None:
    """Each byte more of the table costs the same memory, and little: the findings are written as
    they are made, and the file's tokens are let go as they are read (it was 340 bytes a byte)."""
    _peak_bytes(git_repo, ROWS // 2)  # what every run loads, loaded
    small, large = _peak_bytes(git_repo, rows // 2), _peak_bytes(git_repo, rows)
    added = len(_table(rows)) - len(_table(rows // 2))
    assert (large - small) / added < 200, (small, large, added)
