"""KB006 stale-number: a number tied to a card field differs from the one card behind it."""

from __future__ import annotations

import pytest
from kbtools import md, paper_card, repo_card, run

from kbcheck.findings import Report

DOC = "organized/knowledge/inference.md"
REC = "organized/repo_cards/4572-recursive-oss-rec.md"
INTERNALS = "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md"
JEV = "organized/paper_cards/1695-2610-02076.md"
CARDS: dict[str, str | bytes] = {
    REC: repo_card("recursive-oss/rec", stars=245, weekly_growth=14),
    INTERNALS: repo_card("amitshekhariitbhu/llm-internals", stars=1771, weekly_growth=0),
    JEV: paper_card("2610.02076", "LLM-as-Jev", s2_citations=19, s2_influential=2),
}


def check(text: str, path: str = DOC, **extra: str | bytes) -> Report:
    return run({**CARDS, path: md(text), **extra}, paths=[path], select={"KB005", "KB006"})


def where(report: Report, rule: str = "KB006") -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.subject) for f in report.findings if f.rule == rule]


def col(line: str, written: str) -> int:
    return line.index(written) + 1


def test_fires_on_the_sample_briefs_stale_star_count() -> None:
    line = "- recursive-oss/rec：本轮复采 243⭐ / 周增 +14"
    report = check(f"## §1.6 引擎与部署\n\n{line}\n")
    assert where(report) == [(3, col(line, "243⭐"), "243⭐")]
    [finding] = report.findings  # 周增 +14 agrees with the card; KB005 stays silent
    assert (finding.rule, finding.name, finding.severity) == ("KB006", "stale-number", "warning")
    assert finding.message == f"243⭐ is stale: {REC} now says stars: 245"


@pytest.mark.parametrize(
    ("written", "field", "value"),
    [
        ("被引 18", "s2_citations", "19"),
        ("18 citations", "s2_citations", "19"),
        ("影响力被引 3", "s2_influential", "2"),
        ("3 influential citations", "s2_influential", "2"),
    ],
)
def test_citation_fields(written: str, field: str, value: str) -> None:
    report = check(f"## 增量 1\n\n- LLM-as-Jev（arXiv:2610.02076）{written}\n")
    assert [f.message for f in report.findings] == [f"{written} is stale: {JEV} now says {field}: {value}"]


def test_weekly_growth_field() -> None:
    report = check("## §1.6\n\n- amitshekhariitbhu/llm-internals 1771⭐，周增 +3\n")
    assert [(f.subject, f.message) for f in report.findings] == [
        ("周增 +3", f"周增 +3 is stale: {INTERNALS} now says weekly_growth: 0")
    ]


def test_matching_values_pass() -> None:
    report = check("""
        ## §1.6

        - recursive-oss/rec：245⭐ / 周增 +14
        - amitshekhariitbhu/llm-internals：1,771 stars，weekly +0
        - LLM-as-Jev（arXiv:2610.02076）：S2 被引 19 / 影响力被引 2
        """)
    assert report.findings == ()


def test_the_section_card_is_used_when_the_block_cites_none() -> None:
    report = check("""
        ## 复查项：recursive-oss/rec

        本轮复采 243⭐。
        """)
    assert where(report) == [(3, 6, "243⭐")]


def test_the_blocks_own_card_wins_over_the_sections() -> None:
    report = check("""
        ## 增量 2：amitshekhariitbhu/llm-internals 与 recursive-oss/rec

        - recursive-oss/rec 243⭐
        - 两者合看：1771⭐
        """)
    # the first block has one card of its own; the second has none, and its section two
    assert where(report) == [(3, 21, "243⭐")]
    assert where(report, "KB005") == []


def test_silent_with_two_cards_in_the_block() -> None:
    report = check("## §1.6\n\n- recursive-oss/rec 与 amitshekhariitbhu/llm-internals：243⭐\n")
    assert where(report) == []
    # neither card holds 243: that is KB005's business
    assert [s for *_, s in where(report, "KB005")] == ["243⭐"]


def test_two_citations_of_the_same_card_are_one_card() -> None:
    line = "- recursive-oss/rec（https://github.com/recursive-oss/rec，organized/repo_cards/4572-recursive-oss-rec.md）243⭐"
    report = check(f"## §1.6\n\n{line}\n")
    assert where(report) == [(3, col(line, "243⭐"), "243⭐")]


def test_sources_without_cards_do_not_count_as_cards() -> None:
    report = check("## §1.6\n\n- recursive-oss/rec 与 https://github.com/vllm-project/vllm：243⭐\n")
    assert [s for *_, s in where(report)] == ["243⭐"]


def test_silent_inside_quotes() -> None:
    report = check('## 复查项\n\n- recursive-oss/rec：活文档 §1.6 已以"本轮复采 243⭐ / 周增 +14"收录\n')
    assert report.findings == ()


@pytest.mark.parametrize("marker", ["待核", "待核实", "unverified", "[?]"])
def test_silent_in_a_block_with_an_uncertainty_marker(marker: str) -> None:
    report = check(f"## §1.6\n\n- recursive-oss/rec：243⭐（{marker}）\n")
    assert report.findings == ()


def test_silent_when_the_card_lacks_the_field() -> None:
    cards = {REC: repo_card("recursive-oss/rec", body="243 颗星")}
    report = check("## §1.6\n\n- recursive-oss/rec：243⭐\n", **cards)
    assert report.findings == ()  # no stars field; the card's text holds 243, so KB005 agrees too


def test_a_number_without_a_field_is_never_stale() -> None:
    report = check("## §1.6\n\n- recursive-oss/rec：提速 3倍\n")
    assert where(report) == []
    assert [s for *_, s in where(report, "KB005")] == ["3倍"]


def test_kb006_wins_over_kb005() -> None:
    # the card holds no 243 anywhere: without KB006, KB005 would report it as not found
    report = check("## §1.6\n\n- recursive-oss/rec：243⭐\n")
    assert [(f.rule, f.subject) for f in report.findings] == [("KB006", "243⭐")]


def test_briefs_and_guides_are_checked() -> None:
    text = "## 复查项\n\n- recursive-oss/rec：243⭐\n"
    for path in ("inbox/tom/2026-10-29-brief.md", "organized/guides/rec.md"):
        assert [(f.path, f.subject) for f in check(text, path=path).findings] == [(path, "243⭐")]
    assert check(text, path="README.md").findings == ()


def test_inline_disable() -> None:
    report = check("## §1.6\n\n<!-- kbcheck: disable=KB006 -->\n- recursive-oss/rec：243⭐\n")
    assert report.findings == ()
    assert report.suppressed == 1


def test_block_citing_a_cardless_repo_is_not_compared_with_the_sections_card() -> None:
    """A block that cites its own source (a GitHub repo with no card) owns its numbers."""
    from kbtools import found, md, repo_card, run

    living = md(
        """
        ### §1.6 引擎与部署项目
        - recursive-oss/rec：245⭐
        - flare-local-inference（https://github.com/acme/flare-local-inference）812⭐
        """
    )
    report = run({
        "organized/knowledge/inference.md": living,
        "organized/repo_cards/4572-recursive-oss-rec.md": repo_card("recursive-oss/rec", stars=245),
    })
    assert found(report, "KB006") == []
    assert found(report, "KB005") == []
