"""The benchmark's report: rows of a real note collection get a section of their own (not a timing test)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# loaded by its path under a name of its own: bench/precision and bench/digest have a `run.py` too
_SPEC = importlib.util.spec_from_file_location("bench_run", Path(__file__).resolve().parents[1] / "bench" / "run.py")
assert _SPEC is not None and _SPEC.loader is not None
run = importlib.util.module_from_spec(_SPEC)
sys.modules["bench_run"] = run  # its dataclasses look their module up by name
_SPEC.loader.exec_module(run)


def _row(mode: str, size: int, seconds: list[float], corpus: str = "", paired: list[float] | None = None) -> dict:
    return {"mode": mode, "size": size, "samples": [{"seconds": s, "max_rss_mb": 100.0, "status": 0} for s in seconds],
            "na": None, "note": "", "corpus": corpus, "paired": paired or []}


def _data(rows: list[dict]) -> dict:
    machine = {"cpu": "c", "cores": "2", "ram": "1 GiB", "os": "o", "python": "3", "kbcheck": "k", "git": "g",
               "date": "d", "load": "0"}
    return {"machine": machine, "tools": {}, "repeats": [5, 3], "rows": rows,
            "real": {"notes-x": {"date": "then", "load": "0.5", "notes": "50", "kbcheck": "k"}}}


def test_real_rows_get_their_own_section_with_the_paired_ratio(tmp_path: Path) -> None:
    rows = [_row("all-warm", 1000, [0.4, 0.5, 0.6]),
            _row("real-all-cold", 900, [10.0, 30.0], "notes-x", paired=[0.5, 0.7]),
            _row("real-markdownlint-cli2", 900, [20.0, 40.0], "notes-x"),
            _row("real-all-warm", 900, [2.0, 3.0, 4.0], "notes-x")]
    out = tmp_path / "RESULTS.md"
    run.render(_data(rows), out, tmp_path / "chart.png")
    text = out.read_text(encoding="utf-8")
    real = text.split("## Real notes: notes-x (900 markdown files)", 1)[1].split("## Scaling", 1)[0]
    assert "| kbcheck check --all, cold cache | 20.000 | 100 | 2 | 0.60 |" in real  # median of the pairs' ratios
    assert "| kbcheck check --all, warm cache | 3.000 | 100 | 3 | 0.10 |" in real  # over the peer's median
    assert "the last 50 notes" in real
    synthetic = text.split("## All runs", 1)[1].split("## Real notes", 1)[0]
    assert "| 1,000 |" in synthetic and "900" not in synthetic


def test_without_real_rows_there_is_no_real_section(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    data = _data([_row("all-warm", 1000, [0.4])])
    del data["real"]
    run.render(data, out, tmp_path / "chart.png")
    assert "## Real notes" not in out.read_text(encoding="utf-8")
