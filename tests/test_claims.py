"""Claim numbers (KB005 in `docs/rules.md`): what is one, its value, its card field, its column."""

from __future__ import annotations

import pytest
from kbtools import MemorySnapshot

from kbcheck.config import Config
from kbcheck.model.citations import scan_prose
from kbcheck.model.claims import find_claims, numeric_values, parse_number
from kbcheck.model.document import HeadingPatterns, parse_document
from kbcheck.model.knowledge_base import KnowledgeBase

ROOTS = ("inbox", "organized")
PATTERNS = HeadingPatterns(Config().reference_heading, Config().trend_heading, Config().open_question_heading)


def claims(text: str) -> list[tuple[str, float, str | None]]:
    """(as written, value, card field) of the claims in one line of prose."""
    masked = scan_prose(text, ROOTS)[1]
    return [(written, value, field) for _s, _e, written, value, field in find_claims(masked)]


def positioned(markdown: str) -> list[tuple[str, int, int]]:
    """(as written, line, column) of every claim in a parsed document."""
    doc = parse_document(markdown, PATTERNS)
    return [(c.text, c.line, c.column) for block in doc.blocks for c in block.claims]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("提升 45%", [("45%", 45.0, None)]),
        ("提升 45 %", [("45 %", 45.0, None)]),
        ("提升 45％", [("45％", 45.0, None)]),
        ("高 12.5pp", [("12.5pp", 12.5, None)]),
        ("高 3 个百分点", [("3 个百分点", 3.0, None)]),
        ("提速 2.7x", [("2.7x", 2.7, None)]),
        ("提速 2.7X", [("2.7X", 2.7, None)]),
        ("提速 10x。", [("10x", 10.0, None)]),
        ("提速 3×", [("3×", 3.0, None)]),
        ("提速 3 倍", [("3 倍", 3.0, None)]),
        ("延迟 350ms", [("350ms", 350.0, None)]),
        ("延迟 350 ms", [("350 ms", 350.0, None)]),
        ("耗时 3s", [("3s", 3.0, None)]),
        ("耗时 5 秒", [("5 秒", 5.0, None)]),
        ("耗时 2 小时", [("2 小时", 2.0, None)]),
        ("显存 2.4GB", [("2.4GB", 2.4, None)]),
        ("显存 2.4 GB", [("2.4 GB", 2.4, None)]),
        ("吞吐 1200 tokens/s", [("1200 tokens/s", 1200.0, None)]),
        ("1771⭐", [("1771⭐", 1771.0, "stars")]),
        ("1,771⭐", [("1,771⭐", 1771.0, "stars")]),
        ("1771 stars", [("1771 stars", 1771.0, "stars")]),
        ("stars: 1771", [("stars: 1771", 1771.0, "stars")]),
        ("⭐ 1771", [("⭐ 1771", 1771.0, "stars")]),
        ("1.5k stars", [("1.5k stars", 1500.0, "stars")]),
        ("3万⭐", [("3万⭐", 30000.0, "stars")]),
        ("被引 19", [("被引 19", 19.0, "s2_citations")]),
        ("19 次被引", [("19 次被引", 19.0, "s2_citations")]),
        ("19 citations", [("19 citations", 19.0, "s2_citations")]),
        ("cited by 19", [("cited by 19", 19.0, "s2_citations")]),
        ("影响力被引 2", [("影响力被引 2", 2.0, "s2_influential")]),
        ("2 次影响力被引", [("2 次影响力被引", 2.0, "s2_influential")]),
        ("2 influential citations", [("2 influential citations", 2.0, "s2_influential")]),
        ("influential citations: 2", [("influential citations: 2", 2.0, "s2_influential")]),
        ("周增 +26", [("周增 +26", 26.0, "weekly_growth")]),
        ("周增+0", [("周增+0", 0.0, "weekly_growth")]),
        ("weekly +26", [("weekly +26", 26.0, "weekly_growth")]),
        ("日增 5", [("日增 5", 5.0, None)]),
        ("月增 -3", [("月增 -3", -3.0, None)]),
        ("daily 3", [("daily 3", 3.0, None)]),
        ("monthly 9", [("monthly 9", 9.0, None)]),
        ("growth 12", [("growth 12", 12.0, None)]),
        ("下降 −3%", [("−3%", -3.0, None)]),
    ],
)
def test_every_unit_and_claim_word(text: str, expected: list[tuple[str, float, str | None]]) -> None:
    assert claims(text) == expected


def test_s2_is_a_name_the_citation_count_is_the_claim() -> None:
    assert claims("S2 被引 19 / 影响力被引 2") == [
        ("被引 19", 19.0, "s2_citations"),
        ("影响力被引 2", 2.0, "s2_influential"),
    ]


def test_several_claims_in_one_line() -> None:
    assert claims("llm-internals 1771⭐（周增 +0）> ai-engineering-course 589⭐（+26）> 294⭐（+12）") == [
        ("1771⭐", 1771.0, "stars"),
        ("周增 +0", 0.0, "weekly_growth"),
        ("589⭐", 589.0, "stars"),
        ("294⭐", 294.0, "stars"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # names: digits right after a Latin letter
        "S2", "V2.6", "H200", "MiMo-V2.6", "Qwen2.5-7B 模型",
        # a sign alone
        "（+26）", "+26", "计数 +2",
        # dates and times
        "2026-10-29", "2026-10-29 22:20", "2026/10/29", "2026年10月29日", "10月29日", "22:00",
        # versions
        "Python 3.11.2", "vLLM 0.6.3", "v1.2.3",
        # ids and URLs
        "arXiv:2610.02076", "2610.02076", "https://example.org/a/45%", "10.1145/3600006.3613165",
        # section labels and ordinals
        "§6.2", "§ 6.2", "§3.1「调度理论与路由」", "第 30 条", "第30条", "#42",
        # counts of things
        "4 条", "8 项材料", "60 条样本", "185 张", "536 条", "28 节", "10 条坑", "近 3 天",
        # quoted text reports another document's words
        "“提升 45%”", "「45%」", "『3倍』", '"本轮复采 243⭐ / 周增 +14"', "‘2.7x’",
        # no unit: plain numbers
        "OpenAlex 2066", "HTTP 521", "2016 年经典论文",
        # multiplication-like forms are not speed-ups
        "x10", "2x2", "4x4 网格",
    ],
)
def test_not_claims(text: str) -> None:
    assert claims(text) == []


def test_quotes_hide_numbers_but_text_after_them_is_read() -> None:
    assert claims('活文档已以"本轮复采 243⭐ / 周增 +14"收录，现为 245⭐') == [("245⭐", 245.0, "stars")]


def test_ids_do_not_lend_digits_to_a_unit() -> None:
    assert claims("2610.02076 45%") == [("45%", 45.0, None)]
    assert claims("arXiv:2610.02076x") == []


def test_parse_number() -> None:
    assert parse_number("1,771") == 1771.0
    assert parse_number("+26") == 26.0
    assert parse_number("−3") == -3.0
    assert parse_number("12,345,678.5") == 12345678.5


def test_numeric_values_skip_dates_versions_and_masked_ids() -> None:
    masked = scan_prose("s2 19, stars 1,771, updated 2026-10-09, vLLM 0.6.3, arXiv:2610.02076, H200", ROOTS)[1]
    assert numeric_values(masked) == {19.0, 1771.0}


def test_columns_are_one_based_characters_of_the_source_line() -> None:
    text = "# §1 标题\n\n第一行 **45%** 和 *3倍*\n第二行 `12%` 然后 12%\n\n- 嵌套\n  - 子项 7x\n"
    assert positioned(text) == [("45%", 3, 7), ("3倍", 3, 16), ("12%", 4, 14), ("7x", 7, 8)]


def test_code_is_not_prose() -> None:
    text = "# x\n\n`45%` 和\n\n```\n3倍\n```\n\n    2.7x\n"
    assert positioned(text) == []


def test_claims_in_table_rows_and_headings() -> None:
    text = "# §1 提速 2x 的原因\n\n| 方法 | 提速 |\n|---|---|\n| EAGLE | 2.7x |\n"
    assert positioned(text) == [("2x", 1, 9), ("2.7x", 5, 11)]


def test_crlf_files_keep_lines_and_columns() -> None:
    data = "# §1 x\r\n\r\n第一行 45%\r\n第二行 3倍\r\n".encode()
    kb = KnowledgeBase(MemorySnapshot({"organized/knowledge/k.md": data}), Config())  # type: ignore[arg-type]
    doc = kb.document("organized/knowledge/k.md")
    assert doc is not None
    assert [(c.text, c.line, c.column) for b in doc.blocks for c in b.claims] == [("45%", 3, 5), ("3倍", 4, 5)]
    assert doc.line_count == 5


@pytest.mark.parametrize(
    "text",
    ["1.2m stars", "2m⭐", "5m citations", "0m影响力被引", "在 8×A100 集群上训练", "用 8x H100 节点", "3×3 卷积", "4 × 4 矩阵"],
)
def test_lower_case_m_shapes_and_gpu_counts_are_not_claims(text: str) -> None:
    assert [c[2] for c in find_claims(text)] == []


@pytest.mark.parametrize(("text", "written"), [("提速 2.7x faster", "2.7x"), ("1.8× 加速", "1.8×"), ("1.2M stars", "1.2M stars")])
def test_speed_ups_and_upper_case_multipliers_still_are(text: str, written: str) -> None:
    assert [c[2] for c in find_claims(text)] == [written]
