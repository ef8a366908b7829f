"""KB001 uncited-trend-line: every trend line of a living document cites a source."""

from __future__ import annotations

import json

import pytest
from gitrepo import GitRepo
from kbtools import found, md, paper_card, repo_card, run, run_cli

from kbcheck.findings import Report

DOC = "organized/knowledge/inference.md"
CARDS: dict[str, str | bytes] = {
    "organized/paper_cards/1695-2610-37358.md": paper_card("2610.37358"),
    "organized/repo_cards/4572-recursive-oss-rec.md": repo_card("recursive-oss/rec", stars=245),
}


def kb001(doc: str, path: str = DOC, **files: str) -> Report:
    return run({**CARDS, path: md(doc), **files}, paths=[path], select={"KB001"})


def where(report: Report) -> list[tuple[int, int, int, str]]:
    return [(f.line, f.column, f.end_line, f.subject) for f in report.findings if f.rule == "KB001"]


def test_fires_on_each_uncited_trend_line() -> None:
    report = kb001("""
        # inference

        ## §6.2 趋势

        - 二次检索是否触发都变成"按收益付费"的决策问题
        - 训推一致性成为标配（arXiv:2610.37358）
        - 图像 token 预算从固定粒度走向内容自适应
        """)
    assert where(report) == [
        (5, 1, 5, '二次检索是否触发都变成"按收益付费"的决策问题'),
        (7, 1, 7, "图像 token 预算从固定粒度走向内容自适应"),
    ]
    first = report.findings[0]
    assert (first.rule, first.name, first.severity, first.path) == ("KB001", "uncited-trend-line", "error", DOC)
    assert first.message == (
        'trend line cites no source: "二次检索是否触发都变成"按收益付费"的决策问题"; '
        "add the arXiv id, DOI, repo or card it rests on"
    )


def test_message_shortens_and_subject_keeps_eighty_characters() -> None:
    line = "趋势" * 60
    report = kb001(f"## §6.2 趋势\n\n- {line}\n")
    [finding] = report.findings
    assert finding.subject == line[:80]
    assert f'"{line[:39]}…"' in finding.message


@pytest.mark.parametrize(
    "source",
    [
        "arXiv:2610.37358",
        "arxiv: 2610.37358v2",
        "2610.37358",
        "https://arxiv.org/abs/2610.37358",
        "https://papers.cool/arxiv/2610.37358",
        "arXiv:2610.99999",  # an id without a card is still a source (KB004 judges it)
        "DOI 10.1145/3600006.3613165",
        "https://github.com/some/repo",
        "recursive-oss/rec",
        "organized/paper_cards/1695-2610-37358.md",
        "`organized/paper_cards/1695-2610-37358.md`",
        "[卡片](../paper_cards/1695-2610-37358.md)",
        "“arXiv:2610.37358”",
    ],
)
def test_any_citation_form_satisfies_a_trend_line(source: str) -> None:
    assert where(kb001(f"## §6.2 趋势\n\n- 二次检索按收益付费 {source}\n")) == []


@pytest.mark.parametrize(
    "not_a_source",
    [
        "some/thing",  # owner/repo naming no repo card
        "`arXiv:2610.37358`",  # code is not prose
        "organized/paper_cards/1695-2610-99999.md",  # a path to nothing
        "1999.12345",
    ],
)
def test_things_that_are_not_citations_do_not_satisfy_it(not_a_source: str) -> None:
    assert [line for line, *_ in where(kb001(f"## §6.2 趋势\n\n- 二次检索按收益付费 {not_a_source}\n"))] == [3]


def test_a_citation_in_a_nested_item_covers_the_trend_line() -> None:
    report = kb001("""
        ## §6.2 趋势

        - 二次检索按收益付费
          - 出处
            - arXiv:2610.37358
        - 图像 token 预算
          - 只有一句解释
        """)
    assert where(report) == [(6, 1, 6, "图像 token 预算")]


def test_nested_items_are_not_trend_lines_of_their_own() -> None:
    report = kb001("""
        ## §6.2 趋势

        - 二次检索按收益付费（arXiv:2610.37358）
          - 无出处的补充说明
        """)
    assert where(report) == []


def test_table_body_rows_are_trend_lines_the_header_is_not() -> None:
    report = kb001("""
        ## 6.2 Trends

        | 趋势 | 说明 |
        |---|---|
        | 二次检索按收益付费 | arXiv:2610.37358 |
        | 图像 token 预算 | 无出处 |
        """)
    assert where(report) == [(6, 1, 6, "图像 token 预算 | 无出处")]


def test_sub_sections_of_the_trend_section_are_trend_sections() -> None:
    report = kb001("""
        ## §6.2 趋势

        ### 推理侧

        - 无源趋势在变强

        ## §6.3 其他

        - 不是趋势行
        """)
    assert where(report) == [(5, 1, 5, "无源趋势在变强")]


def test_paragraphs_in_the_trend_section_are_not_trend_lines() -> None:
    assert where(kb001("## §6.2 趋势\n\n本节汇总趋势，没有出处的导语。\n")) == []


def test_lists_outside_the_trend_section_are_not_trend_lines() -> None:
    report = kb001("""
        ## §3.1 调度理论与路由

        - 路由器失败模式

        ## §6.1 开放问题

        - 悬而未决的问题

        ## §七 引用列表

        - 某篇论文
        """)
    assert where(report) == []


def test_only_living_documents_are_checked() -> None:
    text = "## §6.2 趋势\n\n- 无源趋势在变强\n"
    for path in ("inbox/tom/2026-10-29-brief.md", "organized/guides/g.md", "README.md"):
        assert where(kb001(text, path=path)) == []
    assert where(kb001(text, path="organized/knowledge/sub/deeper.md")) == [(3, 1, 3, "无源趋势在变强")]


def test_inline_disable_before_the_trend_line() -> None:
    report = kb001("""
        ## §6.2 趋势

        <!-- kbcheck: disable=KB001 -->
        - 无源趋势一在变强
        - 无源趋势二在变强
        """)
    assert where(report) == [(5, 1, 5, "无源趋势二在变强")]
    assert report.suppressed == 1


def test_an_english_trends_heading() -> None:
    report = kb001("## Trends\n\n- Routers read their own token odds\n- Drafts get a budget arXiv:2610.37358\n")
    assert found(report) == [("KB001", DOC, 3, "Routers read their own token odds")]


# -- a question or a bare fragment is no trend line ---------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        "state 多大？",  # a question
        "路由信号能否从模型自身读出?",
        "草稿预算会不会按请求调度？）",  # the question mark before a closing bracket
        "长上下文。",  # a bare noun phrase
        "Long context",
        "推理侧：",  # a label
    ],
)
def test_a_question_or_a_fragment_is_no_trend_line(line: str) -> None:
    assert where(kb001(f"## §6.2 趋势\n\n- {line}\n")) == []


@pytest.mark.parametrize(
    "line",
    [
        "长上下文成为标配。",  # a statement, however short
        "Context windows keep growing",
        "价格降 10 倍",  # a number is a claim
        "是否值得二次检索？成本在下降。",  # one sentence asks, the next states
    ],
)
def test_a_short_statement_is_a_trend_line(line: str) -> None:
    assert where(kb001(f"## §6.2 趋势\n\n- {line}\n")) == [(3, 1, 3, line)]


def test_a_label_with_nested_statements_is_one_trend_line() -> None:
    report = kb001("""
        ## §6.2 趋势

        - 推理侧：
          - 草稿预算从固定值走向按请求调度
        """)
    assert where(report) == [(3, 1, 3, "推理侧：")]


# -- a trend section with no source anywhere is one finding ---------------------------------------
def test_a_section_none_of_whose_lines_cites_is_one_finding_at_its_heading() -> None:
    report = kb001("""
        # inference

        ## §6.2 趋势

        - 二次检索是否触发都变成"按收益付费"的决策问题
        - state 多大？
        - 图像 token 预算从固定粒度走向内容自适应

        ### 推理侧

        - 草稿预算从固定值走向按请求调度
        """)
    assert where(report) == [(3, 1, 11, "§6.2 趋势")]
    [finding] = report.findings
    assert finding.message == (
        'trend section "§6.2 趋势" cites no source in any of its 3 trend lines (lines 5, 7, 11); '
        "add the arXiv id, DOI, repo or card each rests on, or one source for the whole section"
    )


def test_a_citation_anywhere_in_the_section_keeps_one_finding_per_line() -> None:
    report = kb001("""
        ## §6.2 趋势

        - 二次检索是否触发都变成"按收益付费"的决策问题
        - 图像 token 预算从固定粒度走向内容自适应

        ### 推理侧

        - 训推一致性成为标配（arXiv:2610.37358）
        """)
    assert [line for line, *_ in where(report)] == [3, 4]


def test_a_citing_question_counts_as_a_source_of_the_section() -> None:
    report = kb001("## §6.2 趋势\n\n- 二次检索按收益付费成为常态\n- 图像预算随内容浮动成为常态\n- 会持续吗（arXiv:2610.37358）？\n")
    assert [line for line, *_ in where(report)] == [3, 4]


def test_a_single_uncited_line_keeps_its_own_finding() -> None:
    assert where(kb001("## §6.2 趋势\n\n- 二次检索按收益付费成为常态\n- 长上下文。\n")) == [(3, 1, 3, "二次检索按收益付费成为常态")]


def test_the_sections_identity_is_its_heading_whatever_its_lines() -> None:
    one = kb001("## §6.2 趋势\n\n- 二次检索按收益付费成为常态\n- 图像预算随内容浮动成为常态\n")
    more = kb001("# 推理\n\n导语。\n\n## §6.2 趋势\n\n- 新的无源判断正在出现\n- 二次检索按收益付费成为常态\n"
                 "- 图像预算随内容浮动成为常态\n")
    assert [f.fingerprint for f in one.findings] == [f.fingerprint for f in more.findings]
    assert [f.line for f in more.findings] == [5]


def test_a_disabled_line_leaves_the_section_finding_to_the_others() -> None:
    report = kb001("""
        ## §6.2 趋势

        <!-- kbcheck: disable=KB001 -->
        - 二次检索按收益付费成为常态
        - 图像预算随内容浮动成为常态
        - 草稿预算按请求调度成为常态
        """)
    assert where(report) == [(1, 1, 6, "§6.2 趋势")]
    assert "(lines 5, 6)" in report.findings[0].message
    assert report.suppressed == 1


def test_a_disable_before_the_heading_suppresses_the_section_finding() -> None:
    report = kb001("<!-- kbcheck: disable=KB001 -->\n## §6.2 趋势\n\n- 二次检索按收益付费成为常态\n- 图像预算随内容浮动成为常态\n")
    assert where(report) == []
    assert report.suppressed == 1


def test_a_diff_reports_the_section_when_it_adds_one_of_its_lines(git_repo: GitRepo) -> None:
    before = "# 推理\n\n## §6.2 趋势\n\n- 二次检索按收益付费成为常态\n- 图像预算随内容浮动成为常态\n\n## §七 引用列表\n"
    git_repo.commit_files({DOC: before}, "living document")
    base = git_repo.head()
    git_repo.commit_files({DOC: before.replace("常态\n\n", "常态\n- 草稿预算按请求调度成为常态\n\n")}, "one more line")
    status, out, _err = run_cli("check", "--diff", base, "--select", "KB001", "--format", "json")
    assert status == 1
    [finding] = json.loads(out)["findings"]
    assert (finding["line"], finding["end_line"], finding["subject"]) == (3, 7, "§6.2 趋势")
    git_repo.commit_files({"README.md": "x\n"}, "elsewhere")
    status, out, _err = run_cli("check", "--diff", git_repo.head() + "~1", "--select", "KB001", "--format", "json")
    assert (status, json.loads(out)["findings"]) == (0, [])


def test_disable_comments_on_a_grouped_section_are_used(git_repo: GitRepo) -> None:
    git_repo.commit_files({DOC: "# 推理\n\n<!-- kbcheck: disable=KB001 -->\n## §6.2 趋势\n\n"
                                "<!-- kbcheck: disable=KB001 -->\n- 二次检索按收益付费成为常态\n"
                                "- 图像预算随内容浮动成为常态\n- 草稿预算按请求调度成为常态\n"}, "living document")
    status, out, err = run_cli("check", "--all", "--select", "KB001", "--report-unused-disables")
    assert (status, err) == (0, "")
    assert out == "No findings in 1 file (2 suppressed).\n"
