"""KB005 unverified-number: a claim number with no evidence, or absent from every card it cites."""

from __future__ import annotations

import pytest
from kbtools import md, paper_card, repo_card, run

from kbcheck.findings import Report

DOC = "organized/knowledge/inference.md"
JEV = "organized/paper_cards/1695-2610-02076.md"
BUDGETPIX = "organized/paper_cards/1775-2610-12307.md"
REC = "organized/repo_cards/4572-recursive-oss-rec.md"
CARDS: dict[str, str | bytes] = {
    JEV: paper_card("2610.02076", "LLM-as-Jev", body="胜率提升 45%，延迟 1,771 ms。更新于 2026-10-09。",
                    s2_citations=19, openalex_updated="2026-10-09"),
    BUDGETPIX: paper_card("2610.12307", "BudgetPix", body="算力节省 2.7x", s2_citations=1),
    REC: repo_card("recursive-oss/rec", stars=245, weekly_growth=14),
}


def kb005(text: str, path: str = DOC, **extra: str | bytes) -> Report:
    return run({**CARDS, path: md(text), **extra}, paths=[path], select={"KB005"})


def where(report: Report) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.subject) for f in report.findings if f.rule == "KB005"]


def col(line: str, written: str) -> int:
    """The 1-based character column of `written` in a source line."""
    return line.index(written) + 1


def test_fires_when_block_and_section_cite_nothing() -> None:
    report = kb005("""
        # inference

        ## §4.1 投机解码

        - EAGLE 类方法在长上下文下提速 2.7x，显存 +12%
        """)
    line = "- EAGLE 类方法在长上下文下提速 2.7x，显存 +12%"
    assert where(report) == [(5, col(line, "2.7x"), "2.7x"), (5, col(line, "+12%"), "+12%")]
    first = report.findings[0]
    assert (first.rule, first.name, first.severity, first.path) == ("KB005", "unverified-number", "warning", DOC)
    assert first.message == (
        "2.7x has no source in its block, its sections or the file's own sources; cite the paper, repo or card it comes from"
    )


@pytest.mark.parametrize("line", [
    "- BudgetPix（arXiv:2610.12307）节省 3.1x 算力",
    # named authors beside the card they cite are the card's authors: the card is checked
    "- Wang 等人表明 BudgetPix（arXiv:2610.12307）节省 3.1x 算力",
])
def test_fires_when_only_cards_are_cited_and_none_holds_the_number(line: str) -> None:
    report = kb005(f"## §4.1\n\n{line}\n")
    assert where(report) == [(3, col(line, "3.1x"), "3.1x")]
    assert report.findings[0].message == f"3.1x is not found in the cited card {BUDGETPIX}"


def test_message_names_every_cited_card() -> None:
    report = kb005("## §4.1\n\n- arXiv:2610.12307 与 arXiv:2610.02076：提速 9x\n")
    assert report.findings[0].message == f"9x is not found in the cited cards {BUDGETPIX}, {JEV}"


def test_passes_when_a_cited_card_holds_the_number() -> None:
    report = kb005("""
        ## §4.1

        - BudgetPix（arXiv:2610.12307）节省 2.7x 算力
        - LLM-as-Jev（arXiv:2610.02076）胜率 +45%，被引 19，延迟 1771ms
        - 两者合看（arXiv:2610.02076、arXiv:2610.12307）：2.7x 与 45%
        """)
    assert where(report) == []


def test_thousands_separators_are_ignored_both_ways() -> None:
    cards = {REC: repo_card("recursive-oss/rec", body="star 数 1,771", stars=245)}
    assert where(kb005("## §1.6\n\n- recursive-oss/rec 1771⭐\n", **cards)) == []
    cards = {REC: repo_card("recursive-oss/rec", stars=245, forks=1771)}
    assert where(kb005("## §1.6\n\n- recursive-oss/rec 有 1,771 stars 的同类仓\n", **cards)) == []


def test_a_scaled_number_matches_the_card_value() -> None:
    """`4.03万` is 40300.000000000004 as a float; equal values must still match."""
    cards = {REC: repo_card("recursive-oss/rec", stars=40300)}
    assert where(kb005("## §1.6\n\n- recursive-oss/rec：4.03万⭐\n", **cards)) == []


def test_digits_inside_a_cards_ids_and_dates_do_not_count() -> None:
    # the card holds 2610.02076 (its id) and 2026-10-09 (a date): neither lends 2610, 2076, 10 or 9
    report = kb005("## §4.1\n\n- arXiv:2610.02076：提速 9x，节省 10%，2610 tokens/s，2076 ms\n")
    assert [subject for *_, subject in where(report)] == ["9x", "10%", "2610 tokens/s", "2076 ms"]


@pytest.mark.parametrize(
    "source",
    [
        "DOI 10.1145/3600006.3613165",
        "https://github.com/vllm-project/vllm",  # a GitHub repo with no card
        "arXiv:2610.99999",  # an arXiv id with no card (KB004 reports it)
        "https://arxiv.org/abs/2610.99999",
    ],
)
def test_a_non_card_source_in_the_block_is_evidence(source: str) -> None:
    assert where(kb005(f"## §4.1\n\n- BudgetPix arXiv:2610.12307 与 {source}：提速 3.1x\n")) == []


def test_a_non_card_source_in_the_section_is_evidence() -> None:
    report = kb005("""
        ## 增量 3：按收益付费的二次检索

        来源：DOI 10.1145/3600006.3613165

        要点：二次检索的成本下降 30%。

        ## 增量 4：BudgetPix

        要点：预算下降 30%。
        """)
    assert where(report) == [(9, col("要点：预算下降 30%。", "30%"), "30%")]


def test_the_section_of_a_claim_runs_from_its_heading_to_the_next() -> None:
    report = kb005("""
        ## 增量 4：BudgetPix（arXiv:2610.12307）

        要点：节省 2.7x 算力。

        ### 值得警惕之处

        要点：节省 2.7x 算力。

        ## 增量 5：另一项

        要点：节省 2.7x 算力。
        """)
    # the source in a heading covers its section and, as an ancestor's heading, its sub-sections;
    # a sibling section is not covered
    assert where(report) == [(11, 7, "2.7x")]


def test_text_before_the_first_heading_is_a_section_of_its_own() -> None:
    report = kb005("""
        来源 DOI 10.1145/3600006.3613165，提速 3倍

        ## §4.1

        提速 3倍
        """)
    assert where(report) == [(5, 4, "3倍")]


def test_a_nested_item_uses_the_citations_of_the_items_it_sits_in() -> None:
    report = kb005("""
        ## §4.1

        - BudgetPix（arXiv:2610.12307）
          - 节省 2.7x 算力
          - 节省 3.1x 算力
        - 无关条目：提速 4倍
        """)
    assert where(report) == [(5, col("  - 节省 3.1x 算力", "3.1x"), "3.1x"), (6, col("- 无关条目：提速 4倍", "4倍"), "4倍")]


@pytest.mark.parametrize("marker", ["待核", "待核实", "unverified", "[?]"])
def test_uncertainty_markers_exempt_the_block(marker: str) -> None:
    report = kb005(f"## §4.1\n\n- 提速 2.7x（{marker}）\n- 提速 3.1x\n")
    assert where(report) == [(4, 6, "3.1x")]


@pytest.mark.parametrize(
    "line",
    [
        "“提速 2.7x”",
        "「提速 2.7x」",
        '"提速 2.7x"',
        "`提速 2.7x`",
        "本轮 8 项材料，4 条增量，536 条引用，185 张卡片，60 条样本，28 节课程",
        "§6.2 第 30 条",
        "2026-10-29 22:20 更新，Python 3.11.2，vLLM 0.6.3",
        "S2、V2.6、H200、MiMo-V2.6",
        "（+26）、计数 +2",
    ],
)
def test_things_that_are_not_claims(line: str) -> None:
    assert where(kb005(f"## §4.1\n\n- {line}\n")) == []


def test_briefs_and_guides_are_checked_cards_are_not() -> None:
    text = "## §4.1\n\n- 提速 2.7x\n"
    assert where(kb005(text, path="inbox/tom/2026-10-29-brief.md")) == [(3, 6, "2.7x")]
    assert where(kb005(text, path="organized/guides/g.md")) == [(3, 6, "2.7x")]
    card = "organized/paper_cards/1800-2610-11111.md"
    assert where(run({card: paper_card("2610.11111", body="提速 2.7x")}, paths=[card], select={"KB005"})) == []
    assert where(kb005(text, path="README.md")) == []


def test_a_number_stated_by_a_card_field_counts_when_the_card_is_cited_by_path() -> None:
    line = "- `organized/repo_cards/4572-recursive-oss-rec.md`：245⭐ / 周增 +14 / 日增 3"
    report = kb005(f"## 复查项\n\n{line}\n")
    # 245 and 14 are the card's; the card says nothing about a daily growth of 3
    assert where(report) == [(3, col(line, "日增 3"), "日增 3")]


def test_inline_disable_and_per_file_ignores() -> None:
    report = kb005("## §4.1\n\n<!-- kbcheck: disable=KB005 -->\n- 提速 2.7x\n  - 子项 3倍\n- 提速 4倍\n")
    assert where(report) == [(6, 6, "4倍")]
    assert report.suppressed == 2
