"""A number's source named by a `[n]` marker or by a reference list of one work (KB005), and a
trend section's source named once for all its lines (KB001)."""

from __future__ import annotations

from kbtools import md, paper_card, run

from kbcheck.findings import Report

DOC = "organized/knowledge/decoding.md"
CARD = "organized/paper_cards/1695-2610-02076.md"
CARDS: dict[str, str | bytes] = {CARD: paper_card("2610.02076", "Draft trees for decoding", body="提速 2.7x，接受率 81%")}


def check(text: str, rules: tuple[str, ...] = ("KB005",)) -> list[tuple[str, int, str]]:
    report: Report = run({**CARDS, DOC: md(text)}, paths=[DOC], select=set(rules))
    return [(f.rule, f.line, f.subject) for f in report.findings]


# -- `[n]` names the n-th reference entry ----------------------------------------------------

MARKED = """
    # 投机解码

    ## 方法

    草稿树方法在长上下文下提速 2.7x [2]。

    另一类方法把接受率做到了 64% [1]。

    ## 局限

    批量较大时收益只剩 1.3x。

    ## 参考文献

    1. Medusa heads, https://example.org/medusa
    2. Draft trees for decoding, arXiv:2610.02076
    """


def test_a_numbered_marker_makes_its_reference_entry_the_source() -> None:
    # [2] is a card: 2.7x is in it; [1] is a web page: a source without a card; the last has no marker
    assert check(MARKED) == [("KB005", 11, "1.3x")]


def test_a_marker_to_a_card_still_gets_the_card_check() -> None:
    assert check(MARKED.replace("提速 2.7x [2]", "提速 3.4x [2]")) == [("KB005", 5, "3.4x"), ("KB005", 11, "1.3x")]


def test_english_markers_ranges_and_bracketed_entries() -> None:
    text = """
        # Decoding

        ## Acceptance

        Tree drafts reach 81% acceptance [1-2], as a block cites for all of its numbers.

        ## Batching

        Wide batches lose 40% of the gain [3].

        ## Claims

        Nobody measured the 5x claim.

        ## References

        [1] Draft trees for decoding, arXiv:2610.02076

        [2] A blog post, https://example.org/post
        """
    # [3] names no entry: 40% has no source; the last section has no marker
    assert check(text) == [("KB005", 9, "40%"), ("KB005", 13, "5x")]


def test_a_marker_without_a_reference_list_is_no_source() -> None:
    assert check("# Notes\n\n提速 2.7x [2]。\n") == [("KB005", 3, "2.7x")]


# -- a reference list of one work is the file's source ---------------------------------------

GUIDE = "organized/guides/draft-trees.md"


def guide(text: str) -> list[tuple[str, int, str]]:
    report: Report = run({**CARDS, GUIDE: md(text)}, paths=[GUIDE], select={"KB005"})
    return [(f.rule, f.line, f.subject) for f in report.findings]


def test_a_guides_reference_list_holding_one_id_is_the_notes_source() -> None:
    text = """
        # 草稿树

        ## 结果

        接受率 81%，长上下文提速 2.7x，比基线快 40%。

        ## 参考文献

        - Draft trees for decoding (arXiv:2610.02076)
        """
    # the one work is a card: the card check applies to what it does not hold
    assert guide(text) == [("KB005", 5, "40%")]
    # a living document that lists one paper still draws on others: every uncited number fires
    assert [subject for _r, _l, subject in check(text)] == ["81%", "2.7x", "40%"]


def test_a_guides_reference_list_holding_one_web_page_is_the_notes_source() -> None:
    text = """
        # Cache notes

        ## Latency

        A miss costs 120ms on the test rig.

        ## References

        1. https://example.org/microarchitecture
        """
    # the one work the note summarises (`head.listed_work`); two works there back nothing (below)
    assert guide(text) == []
    assert [subject for _r, _l, subject in check(text)] == ["120ms"]


def test_a_reference_list_of_two_works_is_not_the_files_source() -> None:
    text = """
        # 解码

        接受率 77%。

        ## 参考文献

        - arXiv:2610.02076
        - arXiv:2611.00001
        """
    assert guide(text) == [("KB005", 3, "77%")]


# -- KB001: a trend section names its source once ---------------------------------------------

TRENDS = """
    # 搜索

    ## 搜索未来新趋势

    ### 1. 多模态

    输入从文本走向图片与语音。

    ### 2. 更语义

    1. 语义排序：按含义而不是关键词排序。
    2. 语义摘要：标题与摘要要让人一眼看懂。

    ### 3. 多轮

    多轮对话里保留上下文。

    - 参考资料：[搜索的几个新趋势](https://example.org/search-trends)
    """


def test_kb001_a_closing_source_line_covers_the_trend_section() -> None:
    assert check(TRENDS, rules=("KB001",)) == []


def test_kb001_without_the_closing_line_the_unsourced_section_is_one_finding() -> None:
    text = TRENDS.replace("- 参考资料：[搜索的几个新趋势](https://example.org/search-trends)", "")
    assert check(text, rules=("KB001",)) == [("KB001", 3, "搜索未来新趋势")]
    [finding] = run({**CARDS, DOC: md(text)}, paths=[DOC], select={"KB001"}).findings
    assert "(lines 11, 12)" in finding.message and finding.end_line == 12


def test_kb001_another_items_citation_does_not_cover_its_siblings() -> None:
    text = """
        # Serving

        ## Trends

        - Speculative decoding becomes the default (arXiv:2610.02076)
        - Prefix caches move to the router
        """
    assert check(text, rules=("KB001",)) == [("KB001", 6, "- Prefix caches move to the router"[2:])]


def test_kb001_an_english_source_line_at_the_end_counts() -> None:
    text = """
        # Serving

        ## Trends

        - Speculative decoding becomes the default
        - Prefix caches move to the router

        Source: [a survey of serving stacks](https://example.org/serving-survey)
        """
    assert check(text, rules=("KB001",)) == []


def test_a_marker_leading_a_section_covers_the_text_under_it() -> None:
    text = """
        # 文本纠错

        ## 序列标注

        - [2] 方法：

        1. 先定义编辑操作；
        2. 再逐个 token 打标签。

        词表只有 500（覆盖 85% 的训练数据）。

        ## 生成式

        解码速度慢 3 倍。

        ## 参考

        - [1] A blog post, https://example.org/gec
        - [2] Tagging edits for error correction. ACL 2021
        """
    # [2] names its work by title and venue alone: a bibliography entry, a source a reader can find
    assert check(text) == [("KB005", 14, "3 倍")]


def test_a_marker_to_an_entry_too_short_to_name_a_work_is_no_source() -> None:
    text = """
        # Notes

        Hit rate is 85% [2].

        ## References

        1. https://example.org/a
        2. TBD
        """
    assert check(text) == [("KB005", 3, "85%")]


def test_kb001_a_closing_list_of_several_sources_is_a_reference_list_not_the_sections_source() -> None:
    text = """
        # Serving

        ## Trends

        - Speculative decoding becomes the default
        - Prefix caches move to the router

        References:

        - [a survey of serving stacks](https://example.org/serving-survey)
        - [a blog on routers](https://example.org/router-blog)
        """
    assert [line for _rule, line, _s in check(text, rules=("KB001",))] == [5, 6]


def test_a_closing_reference_list_does_not_source_every_number_of_the_note() -> None:
    text = """
        # 推理笔记

        ## 方法

        长上下文下提速 2.7x。

        ## 结论

        值得一试。

        参考资料：

        - [草稿树](https://example.org/draft-trees)
        - [批量解码](https://example.org/batching)
        """
    assert check(text) == [("KB005", 5, "2.7x")]


def test_a_closing_source_line_at_the_end_of_the_note_is_the_last_sections_not_the_notes() -> None:
    text = """
        # 推理笔记

        ## 方法

        长上下文下提速 2.7x。

        ## 结论

        批量大时只剩 1.2x。

        参考资料：[草稿树](https://example.org/draft-trees)
        """
    assert check(text) == [("KB005", 5, "2.7x")]
