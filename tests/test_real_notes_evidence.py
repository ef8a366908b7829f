"""Where a number's source is in real notes: enclosing sections, source sub-sections, the file's own
sources (frontmatter, title heading), links around the number, web links and notes (KB005, KB006, KB001)."""

from __future__ import annotations

from kbtools import md, paper_card, repo_card, run

from kbcheck.findings import Report

DOC = "organized/knowledge/models.md"
BRIEF = "inbox/tom/2026-10-30-brief.md"
JEV = "organized/paper_cards/1695-2610-02076.md"
REC = "organized/repo_cards/4572-recursive-oss-rec.md"
CARDS: dict[str, str | bytes] = {
    JEV: paper_card("2610.02076", "LLM-as-Jev: judging with token odds", body="win rate 45%, latency 1,771 ms"),
    REC: repo_card("recursive-oss/rec", stars=245, weekly_growth=14),
}


def check(text: str, path: str = DOC, rules: tuple[str, ...] = ("KB005", "KB006"), **extra: str) -> Report:
    files: dict[str, str | bytes] = {**CARDS, path: md(text)}
    files.update({name.replace("__", "/").replace("_md", ".md"): md(body) for name, body in extra.items()})
    return run(files, paths=[path], select=set(rules))


def where(report: Report) -> list[tuple[str, int, int, str]]:
    return [(f.rule, f.line, f.column, f.subject) for f in report.findings]


# -- an enclosing section's heading and lead -------------------------------------------------

RESULTS_UNDER_MODEL = """
    # Reading notes

    ## Model X (arXiv:2401.12345)

    We read the paper end to end.

    ### Results

    | benchmark | score |
    |---|---|
    | MMLU | 71.3% |
    | GSM8K | +2.1 pp |

    ## Model Y

    ### Results

    | benchmark | score |
    |---|---|
    | MMLU | 64.0% |
    """


def test_a_results_table_inherits_the_paper_its_model_heading_cites() -> None:
    # Model X's table is backed by the heading above it; Model Y's heading cites nothing
    assert where(check(RESULTS_UNDER_MODEL)) == [("KB005", 20, 10, "64.0%")]


def test_the_lead_paragraph_of_an_enclosing_section_is_a_source_too() -> None:
    report = check("""
        ## Model Y

        Paper: https://example.org/papers/model-y

        ### Results

        - MMLU 64.0%
        """)
    assert where(report) == []


def test_a_sibling_section_is_not_an_ancestor() -> None:
    report = check("""
        ## Model X

        ### Paper

        arXiv:2401.12345

        ### Results

        - MMLU 71.3%
        """)
    assert where(report) == [("KB005", 9, 8, "71.3%")]


def test_the_nearest_level_decides_a_block_card_is_checked_despite_web_links_above() -> None:
    report = check("""
        ## LLM-as-Jev ([blog](https://example.org/jev))

        - win rate 45% (arXiv:2610.02076)
        - latency 900 ms (arXiv:2610.02076)
        - throughput 3.1x
        """)
    # the block's own card citation gets the card check; the item without one inherits the web link
    assert where(report) == [("KB005", 4, 11, "900 ms")]


def test_a_card_cited_by_an_enclosing_heading_is_checked_and_tied() -> None:
    report = check("""
        ## recursive-oss/rec

        ### 热度

        - 本轮复采 243⭐，周增 +14
        - 另有 12x 提速
        """)
    assert where(report) == [("KB006", 5, 8, "243⭐"), ("KB005", 6, 6, "12x")]


# -- a source sub-section (来源) belongs to its parent's lead ----------------------------------

SOURCE_SUBSECTION = """
    # 2026-10-30 预消化简报

    ### 增量 1：投机解码新进展

    #### 来源

    - https://arxiv.org/abs/2610.04418

    #### 要点

    - 长上下文下提速 2.7x，显存 +12%

    ### 增量 2：调度

    #### 要点

    - 排队延迟下降 35%
    """


def test_a_source_subsection_backs_its_sibling_sections() -> None:
    assert where(check(SOURCE_SUBSECTION, path=BRIEF)) == [("KB005", 17, 10, "35%")]


def test_a_heading_that_only_mentions_a_source_word_elsewhere_is_no_source_label() -> None:
    report = check("""
        ### 增量 1

        #### 数据的来源值得怀疑

        - https://arxiv.org/abs/2610.04418

        #### 要点

        - 提速 2.7x
        """, path=BRIEF)
    assert where(report) == [("KB005", 9, 6, "2.7x")]


# -- the file's own sources: frontmatter and title heading --------------------------------

def test_a_chinese_note_with_a_frontmatter_url_is_backed_by_it() -> None:
    report = check("""
        ---
        title: 长上下文推理加速笔记
        url: https://arxiv.org/abs/2610.04418
        tags: [推理, 加速]
        ---

        ## 实验结果

        - 长上下文下提速 2.7x，显存 +12%
        """, path=BRIEF)
    assert where(report) == []


def test_a_nested_frontmatter_value_is_a_source() -> None:
    report = check("""
        ---
        title: 读书笔记
        resource:
          kind: blog
          url: https://example.org/posts/kv-cache
        ---

        - 显存下降 40%
        """, path=BRIEF)
    assert where(report) == []


def test_a_note_without_a_frontmatter_source_fires_on_its_real_line() -> None:
    report = check("""
        ---
        title: 长上下文推理加速笔记
        tags: [推理, 加速]
        ---

        ## 实验结果

        - 长上下文下提速 2.7x
        """, path=BRIEF)
    assert where(report) == [("KB005", 8, 11, "2.7x")]


def test_a_citation_in_the_only_title_heading_backs_the_whole_note() -> None:
    report = check("""
        # [FlashDecoding++](https://arxiv.org/abs/2311.01282)

        Intro without a source.

        ## Results

        - 4.86x faster than Hugging Face
        """)
    assert where(report) == []


def test_with_two_level_one_headings_the_first_is_no_title() -> None:
    report = check("""
        # [FlashDecoding++](https://arxiv.org/abs/2311.01282)

        ## Results

        - 4.86x faster

        # Another part

        - 2.3x faster
        """)
    # the first part is covered as an ancestor section; the second part has nothing
    assert where(report) == [("KB005", 9, 3, "2.3x")]


# -- a link around the number; web links and notes as sources ----------------------------

def test_a_link_whose_text_holds_the_number_is_its_source() -> None:
    report = check("""
        ## 判断

        - [某博客：批处理提速 4%](https://example.org/batching)
        - 另据 [LLM-as-Jev 提速 2.7x](../paper_cards/1695-2610-02076.md)，见 [博客](https://example.org/jev)
        - [rec 本轮 243⭐](../repo_cards/4572-recursive-oss-rec.md)
        """)
    # a link around a number is its one source: a web page backs 4%; a card link gets the card check
    # even beside a web link (the card lacks 2.7x), and ties 243⭐ to the card's stars
    assert where(report) == [("KB005", 4, 21, "2.7x"), ("KB006", 5, 11, "243⭐")]


def test_a_relative_link_to_a_note_or_pdf_of_the_knowledge_base_is_a_source() -> None:
    report = check("""
        ## 判断

        - 提速 2.7x（见 [笔记](../notes/decoding.md)）

        ## 原文

        - 吞吐 +30%（见 [原文](../notes/paper.pdf)）

        ## 缺失

        - 延迟 -20%（见 [缺失](../notes/missing.md)）
        """, organized__notes__decoding_md="# 笔记\n", **{"organized__notes__paper.pdf": "%PDF-1.4\n"})
    assert where(report) == [("KB005", 11, 6, "-20%")]


def test_a_trend_line_with_a_web_link_or_a_note_link_cites_it() -> None:
    report = check("""
        ## §6.2 趋势

        - 推理成本继续下降（[报告](https://example.org/report)）
        - 检索与生成融合（见 [笔记](../notes/rag.md)）
        - 二次检索按收益付费
        """, rules=("KB001",), organized__notes__rag_md="# RAG\n")
    assert [(f.rule, f.line) for f in report.findings] == [("KB001", 5)]
