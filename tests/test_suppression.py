"""Suppression through the engine: config `ignore`, `per-file-ignores`, `severity`, inline comments, baseline."""

from __future__ import annotations

from kbtools import FakeSelection, MemorySnapshot, md, paper_card, run

from kbcheck.config import Config, config_from_bytes
from kbcheck.engine import RunOptions, check
from kbcheck.findings import Report
from kbcheck.model.knowledge_base import KnowledgeBase

DOC = "organized/knowledge/inference.md"
BRIEF = "inbox/tom/2026-10-29-brief.md"
FILES: dict[str, str | bytes] = {
    "organized/paper_cards/1695-2610-02076.md": paper_card("2610.02076"),
    DOC: md("""
        # inference

        ## §4.1 投机解码

        - 提速 2.7x

        ## §6.2 趋势

        - 无源趋势在变强

        ## §七 引用列表

        - arXiv:2610.02076
        """),
    BRIEF: "## 增量\n\n见 arXiv:2610.99999，提速 3倍\n\n来源 organized/missing.md\n",
}
#: what the knowledge base above gives with the defaults
ALL = [
    ("KB004", BRIEF, 3, "2610.99999"),
    ("KB009", BRIEF, 5, "organized/missing.md"),
    ("KB005", DOC, 5, "2.7x"),
    ("KB001", DOC, 9, "无源趋势在变强"),
    ("KB002", DOC, 13, "2610.02076"),
]


def toml(text: str) -> Config:
    return config_from_bytes(text.encode("utf-8"), ".kbcheck.toml")


def summary(report: Report) -> tuple[int, int, int, int]:
    return report.files, report.errors, report.warnings, report.suppressed


def rows(report: Report) -> list[tuple[str, str, int, str]]:
    order = {path: i for i, path in enumerate([BRIEF, DOC])}
    return sorted(((f.rule, f.path, f.line, f.subject) for f in report.findings),
                  key=lambda r: (order.get(r[1], 9), r[2]))


def test_defaults_report_everything() -> None:
    report = run(FILES)
    assert rows(report) == ALL
    assert [(f.rule, f.severity) for f in report.findings if f.path == BRIEF] == [("KB004", "error"), ("KB009", "warning")]
    assert summary(report) == (3, 2, 3, 0)


def test_ignore_turns_rules_off_without_counting_them_as_suppressed() -> None:
    report = run(FILES, config=toml('ignore = ["KB009", "kb005"]\n'))
    assert rows(report) == [r for r in ALL if r[0] not in ("KB005", "KB009")]
    assert summary(report) == (3, 2, 1, 0)


def test_per_file_ignores_drop_and_count() -> None:
    report = run(FILES, config=toml('[per-file-ignores]\n"inbox/**" = ["KB004", "KB009"]\n"organized/knowledge/*.md" = ["KB001"]\n'))
    assert rows(report) == [r for r in ALL if r[0] not in ("KB004", "KB009", "KB001")]
    assert summary(report) == (3, 0, 2, 3)


def test_per_file_ignores_glob_that_matches_nothing() -> None:
    report = run(FILES, config=toml('[per-file-ignores]\n"inbox/jay/**" = ["KB004"]\n'))
    assert rows(report) == ALL
    assert report.suppressed == 0


def test_severity_override_beats_the_rules_default_and_its_per_kind_default() -> None:
    report = run(FILES, config=toml('[severity]\nKB002 = "error"\nKB004 = "warning"\nKB001 = "warning"\n'))
    assert {(f.rule, f.severity) for f in report.findings} == {
        ("KB004", "warning"), ("KB009", "warning"), ("KB005", "warning"), ("KB001", "warning"), ("KB002", "error"),
    }
    assert summary(report) == (3, 1, 4, 0)


def test_inline_disable_and_disable_file_count_as_suppressed() -> None:
    files = dict(FILES)
    files[DOC] = "<!-- kbcheck: disable-file=KB002,KB003 -->\n" + str(FILES[DOC]).replace(
        "- 提速 2.7x", "<!-- kbcheck: disable=KB005 -->\n- 提速 2.7x"
    )
    report = run(files)
    assert [r[0] for r in rows(report)] == ["KB004", "KB009", "KB001"]
    assert summary(report) == (3, 2, 1, 2)


def test_inline_disable_of_another_rule_changes_nothing() -> None:
    files = dict(FILES)
    files[DOC] = str(FILES[DOC]).replace("- 提速 2.7x", "<!-- kbcheck: disable=KB006 -->\n- 提速 2.7x")
    report = run(files)
    assert [r[0] for r in rows(report)] == [r[0] for r in ALL]
    assert report.suppressed == 0


def test_accepted_fingerprints_are_suppressed() -> None:
    first = run(FILES)
    accepted = frozenset(f.fingerprint for f in first.findings if f.rule in ("KB002", "KB004"))
    config = Config()
    snapshot = MemorySnapshot(FILES)
    kb = KnowledgeBase(snapshot, config)  # type: ignore[arg-type]
    report = check(kb, config, FakeSelection(snapshot, snapshot.paths()),  # type: ignore[arg-type]
                   RunOptions(accepted=accepted))
    assert [r[0] for r in rows(report)] == ["KB009", "KB005", "KB001"]
    assert report.suppressed == 2


def test_fingerprints_do_not_move_with_unrelated_lines() -> None:
    before = {(f.rule, f.subject): f.fingerprint for f in run(FILES).findings}
    files = dict(FILES)
    files[DOC] = "前言\n\n更多前言\n\n" + str(FILES[DOC])
    after = run(files)
    assert {(f.rule, f.subject): f.fingerprint for f in after.findings} == before
    assert [f.line for f in after.findings if f.path == DOC] == [9, 13, 17]


def test_only_selected_paths_are_reported_with_the_whole_kb_as_context() -> None:
    report = run(FILES, paths=[BRIEF])
    assert rows(report) == [r for r in ALL if r[1] == BRIEF]
    assert report.files == 1


def test_select_runs_only_the_named_rules() -> None:
    assert [r[0] for r in rows(run(FILES, select={"KB001", "KB002"}))] == ["KB001", "KB002"]


def test_a_disable_comment_before_a_table_covers_every_row() -> None:
    from kbtools import found, md, run

    living = md(
        """
        ## §6.2 趋势

        <!-- kbcheck: disable=KB001 -->
        | 趋势 | 来源 |
        |---|---|
        | 无源趋势一在变强 | 无 |
        | 无源趋势二在变强 | 无 |

        | 趋势 | 来源 |
        |---|---|
        | 无源趋势三在变强 | 无 |
        """
    )
    report = run({"organized/knowledge/inference.md": living})
    assert [subject for _, _, _, subject in found(report, "KB001")] == ["无源趋势三在变强 | 无"]
    assert report.suppressed == 2
