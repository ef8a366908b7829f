"""`kbcheck baseline update|show` and `check` with accepted findings, in real repositories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

BASELINE = ".kbcheck/baseline.json"
LIVING = "organized/knowledge/inference.md"
CONFIG = """\
[authors.tom]
emails = ["tom@example.org"]
role = "maintainer"
"""

LIVING_TEXT = """\
# 推理系统活文档

## §3 调度

- SpecBound（arXiv:2610.08815）：固定草稿预算的系统评测。

## §6.2 趋势

- 投机解码的草稿预算从固定值走向按请求调度（arXiv:2610.08815）。
- 二次检索是否触发变成按收益付费的决策问题。

## §七 引用列表

- arXiv:2610.08815 — SpecBound
- arXiv:2610.02076 — LLM-as-Jev
"""

CARDS = {
    "organized/paper_cards/1748-2610-08815.md": '---\narxiv: "2610.08815"\ntitle: "SpecBound"\n---\n\n# SpecBound\n',
    "organized/paper_cards/1695-2610-02076.md": '---\narxiv: "2610.02076"\ntitle: "LLM-as-Jev"\n---\n\n# Jev\n',
}


def check_json(*argv: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run("check", *argv, "--format", "json")
    assert code in (0, 1), err
    return code, json.loads(out)


def problems(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f["rule"], f["subject"]) for f in report["findings"]]


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    """A knowledge base with two old problems: an uncited trend line (KB001) and a reference with no entry (KB002)."""
    git_repo.commit_files({".kbcheck.toml": CONFIG, LIVING: LIVING_TEXT, **CARDS}, "knowledge base")
    return git_repo


def read_baseline(repo: GitRepo) -> dict[str, Any]:
    return json.loads((repo.path / BASELINE).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_update_records_head_and_its_findings(kb: GitRepo) -> None:
    _, before = check_json("--all", "--no-baseline")
    assert [rule for rule, _ in problems(before)] == ["KB001", "KB002"]
    code, out, err = run("baseline", "update")
    assert code == 0, err
    head = kb.head()
    assert out == f"baseline: {head[:7]} with 2 accepted findings -> {BASELINE}\n"
    raw = (kb.path / BASELINE).read_text(encoding="utf-8")
    assert raw.endswith("}\n") and raw.startswith('{\n  "version": 2,\n  "commit": ')
    data = read_baseline(kb)
    assert list(data) == ["version", "commit", "date", "fingerprints", "findings"]
    # a reviewer reads what is accepted: rule, path, subject
    assert [(f["rule"], f["path"], f["subject"]) for f in data["findings"]] == [
        ("KB001", LIVING, "二次检索是否触发变成按收益付费的决策问题。"), ("KB002", LIVING, "2610.02076")]
    assert sorted(f["fingerprint"] for f in data["findings"]) == data["fingerprints"]
    assert data["commit"] == head
    assert data["date"] == "2026-10-29T12:00:00+00:00"
    assert data["fingerprints"] == sorted(f["fingerprint"] for f in before["findings"])
    assert [p.name for p in (kb.path / ".kbcheck").iterdir()] == ["baseline.json"]  # no temp file left


def test_update_at_an_older_revision(kb: GitRepo) -> None:
    first = kb.head()
    kb.commit_files({LIVING: LIVING_TEXT + "\n- arXiv:2610.99999 — 无卡片\n"}, "one more problem")
    code, out, _ = run("baseline", "update", first)
    assert code == 0 and out.startswith(f"baseline: {first[:7]} with 2 accepted findings")
    assert read_baseline(kb)["commit"] == first


def test_update_with_an_unknown_revision_writes_nothing(kb: GitRepo) -> None:
    code, out, err = run("baseline", "update", "no-such-rev")
    assert code == 2 and out == ""
    assert err == "kbcheck: error: unknown revision 'no-such-rev'\n"
    assert not (kb.path / ".kbcheck").exists()


def test_check_reports_only_new_findings(kb: GitRepo) -> None:
    run("baseline", "update")
    kb.commit_all("accept the backlog")
    code, report = check_json("--all")
    assert code == 0 and report["findings"] == []
    assert report["summary"]["suppressed"] == 2
    kb.write(LIVING, LIVING_TEXT.replace("## §七 引用列表\n", "## §七 引用列表\n\n- arXiv:2610.11111 — 新引用\n"))
    code, report = check_json("--all")
    assert problems(report) == [("KB002", "2610.11111"), ("KB004", "2610.11111")]
    assert report["summary"]["suppressed"] == 2
    # --no-baseline shows the old ones again
    _, everything = check_json("--all", "--no-baseline")
    assert len(everything["findings"]) == 4 and everything["summary"]["suppressed"] == 0


def test_a_finding_whose_line_moved_stays_accepted(kb: GitRepo) -> None:
    _, old = check_json("--all", "--no-baseline")
    run("baseline", "update")
    kb.commit_all("accept the backlog")
    moved = LIVING_TEXT.replace("## §3 调度\n", "## §1 新增一节\n\n一段说明。\n\n另一段说明。\n\n## §3 调度\n")
    kb.write(LIVING, moved)
    code, report = check_json("--all")
    assert code == 0 and report["findings"] == [] and report["summary"]["suppressed"] == 2
    _, everything = check_json("--all", "--no-baseline")
    # both really moved: six lines were inserted above them
    assert [f["line"] for f in everything["findings"]] == [f["line"] + 6 for f in old["findings"]]


def test_explicit_baseline_must_exist(kb: GitRepo) -> None:
    code, out, err = run("check", "--all", "--baseline")
    assert code == 2 and out == ""
    assert err == f"kbcheck: error: no baseline at {BASELINE}; run kbcheck baseline update\n"
    # without the flag a missing baseline just means nothing is accepted
    code, report = check_json("--all")
    assert code == 1 and len(report["findings"]) == 2


@pytest.mark.parametrize("content, why", [
    ("{not json", "is not valid JSON (line 1"),
    ('["a", "b"]', "must be an object with commit, date, fingerprints"),
    ('{"commit": "abc", "date": "x", "fingerprints": [1]}', "'fingerprints' must be a list of strings"),
    (b"\xff\xfe", "is not UTF-8 text"),
])
def test_corrupt_baseline_is_a_clear_error(kb: GitRepo, content: str | bytes, why: str) -> None:
    kb.write(BASELINE, content)
    for argv in (("check", "--all"), ("baseline", "show"), ("digest",)):
        code, out, err = run(*argv)
        assert code == 2 and out == "", argv
        assert err.startswith(f"kbcheck: error: baseline {BASELINE}") and why in err, err
        assert err.count("\n") == 1
    assert (kb.path / BASELINE).read_bytes() == (content if isinstance(content, bytes) else content.encode())


def test_unstaged_baseline_is_refused_for_staged(kb: GitRepo) -> None:
    run("baseline", "update")
    kb.commit_all("accept the backlog")
    kb.write("inbox/tom/note.md", "# 笔记\n")
    kb.stage("inbox/tom/note.md")
    code, _, err = run("check", "--staged")
    assert code == 0, err
    data = read_baseline(kb)
    data["fingerprints"] = []
    kb.write(BASELINE, json.dumps(data, indent=2) + "\n")
    code, out, err = run("check", "--staged")
    assert code == 2 and out == ""
    assert err == (f"kbcheck: error: baseline {BASELINE} has unstaged changes; "
                   f"git add {BASELINE} (or revert it) before committing\n")
    # --all reads the working tree and is not refused; --no-baseline skips it
    assert run("check", "--all")[0] in (0, 1)
    assert run("check", "--staged", "--no-baseline")[0] == 0
    kb.stage(BASELINE)
    code, _, err = run("check", "--staged")
    assert code == 0, err


def test_show(kb: GitRepo) -> None:
    run("baseline", "update")
    code, out, _ = run("baseline", "show")
    head = kb.head()
    assert code == 0
    assert out == (f"baseline: {BASELINE}\ncommit: {head} (in local history)\n"
                   "date: 2026-10-29T12:00:00+00:00\naccepted findings: 2\n\n"
                   "file                              rule   count  subject\n"
                   f"{LIVING}  KB001  1      二次检索是否触发变成按收益付费的决策问题。\n"
                   f"{LIVING}  KB002  1      2610.02076\n")
    data = read_baseline(kb)
    data["commit"] = "0" * 40
    kb.write(BASELINE, json.dumps(data))
    code, out, _ = run("baseline", "show")
    # not a shallow clone: fetching more history would not help
    assert code == 0 and f"commit: {'0' * 40} (not in this repository's history: rewritten" in out


def test_show_without_baseline(kb: GitRepo) -> None:
    code, out, err = run("baseline", "show")
    assert code == 2 and out == ""
    assert err == f"kbcheck: error: no baseline at {BASELINE}; run kbcheck baseline update\n"


def test_configured_baseline_path(kb: GitRepo) -> None:
    kb.write(".kbcheck.toml", CONFIG.replace("[authors.tom]", 'baseline = "ci/accepted.json"\n\n[authors.tom]'))
    code, out, _ = run("baseline", "update")
    assert code == 0 and out.endswith("-> ci/accepted.json\n")
    assert (kb.path / "ci/accepted.json").is_file() and not (kb.path / BASELINE).exists()
    code, report = check_json("--all")
    assert code == 0 and report["summary"]["suppressed"] == 2


def test_baseline_file_is_never_an_item_of_the_digest(kb: GitRepo) -> None:
    base = kb.head()
    run("baseline", "update")
    kb.commit_all("accept the backlog")
    code, out, err = run("digest", "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["base"] == base and document["items"] == []
    assert Path(kb.path / BASELINE).is_file()
