"""Living document structure (`docs/rules.md`): sections, labels, roles, blocks, directives."""

from __future__ import annotations

import re

import pytest
from kbtools import md

from kbcheck.config import Config
from kbcheck.model.document import (
    OPEN_QUESTION,
    REFERENCE,
    TREND,
    Document,
    HeadingPatterns,
    parse_document,
    section_label,
    word_count,
)

PATTERNS = HeadingPatterns(Config().reference_heading, Config().trend_heading, Config().open_question_heading)


def parse(text: str, **kwargs: object) -> Document:
    return parse_document(text, PATTERNS, **kwargs)  # type: ignore[arg-type]


def blocks(doc: Document) -> list[tuple[str, int, int, int, int | None]]:
    """(kind, line, end line, section index, parent index) of every block."""
    return [(b.kind, b.line, b.end_line, b.section, b.parent) for b in doc.blocks]


@pytest.mark.parametrize(
    ("heading", "label"),
    [
        ("§6.2 趋势", "§6.2"),
        ("§ 6.2 趋势", "§6.2"),
        ("6.2 趋势", "§6.2"),
        ("3.1 路由", "§3.1"),
        ("3.1. 路由", "§3.1"),
        ("4、部署", "§4"),
        ("六、结论", "§六"),
        ("七. 参考", "§七"),
        ("§七 引用列表", "§七"),
        ("§1.6 2026-10 引擎与部署项目增量信号", "§1.6"),
        ("引擎与部署", None),
        ("LLM-as-Jev 条目", None),
        ("2026-10 趋势", None),
    ],
)
def test_section_labels(heading: str, label: str | None) -> None:
    assert section_label(heading) == label


@pytest.mark.parametrize(
    ("heading", "role"),
    [
        ("§七 引用列表", REFERENCE),
        ("七、参考文献", REFERENCE),
        ("References", REFERENCE),
        ("Bibliography", REFERENCE),
        ("§6.2 趋势", TREND),
        ("6.2 Trends", TREND),
        ("趋势观察", TREND),
        ("§6.1 开放问题", OPEN_QUESTION),
        ("Open questions", OPEN_QUESTION),
        ("§6.21 其他", None),
        ("§6.2.1 细分", None),  # a label of its own: the role comes from its parent heading, if any
        ("§3.1 调度理论与路由", None),
        # several patterns: reference wins over trend, trend over open question
        ("§七 趋势", REFERENCE),
        ("§6.1 趋势", TREND),
        ("§6.2 开放问题", TREND),
        # the keyword anywhere in the heading names the section; `引用` alone does not
        ("3.4 引用计数与影响力分析", None),
        ("5.2 训练趋势的反例", TREND),
        ("关于开放问题的说明", OPEN_QUESTION),
        ("参考资料（536 条）", REFERENCE),
        ("六、趋势判断", TREND),
    ],
)
def test_heading_roles(heading: str, role: str | None) -> None:
    assert PATTERNS.role_of(heading) == role


def test_sections_roles_inherited_and_preamble() -> None:
    doc = parse(md("""
        前言段落 arXiv:2610.00001

        # inference 活文档

        ## §6 趋势与开放问题之外

        ### §6.1 开放问题

        #### 6.1.1 细分

        ### §6.2 趋势

        #### 推理侧

        ## §七 引用列表

        ### 论文

        ## 附录
        """))
    assert [(s.heading, s.label, s.role, s.parent, s.line, s.end_line) for s in doc.sections] == [
        (None, None, None, None, 1, 2),
        ("inference 活文档", None, None, None, 3, 4),
        ("§6 趋势与开放问题之外", "§6", TREND, 1, 5, 6),
        ("§6.1 开放问题", "§6.1", OPEN_QUESTION, 2, 7, 8),
        ("6.1.1 细分", "§6.1.1", OPEN_QUESTION, 3, 9, 10),
        ("§6.2 趋势", "§6.2", TREND, 2, 11, 12),
        ("推理侧", None, TREND, 5, 13, 14),
        ("§七 引用列表", "§七", REFERENCE, 1, 15, 16),
        ("论文", None, REFERENCE, 7, 17, 18),
        ("附录", None, None, 1, 19, 20),
    ]
    assert doc.sections[0].name == "(preamble)"
    assert doc.sections[1].name == "inference 活文档"
    assert doc.sections[5].name == "§6.2"
    assert doc.has_role(REFERENCE) and doc.has_role(TREND) and doc.has_role(OPEN_QUESTION)


@pytest.mark.parametrize(
    "title",
    [
        "BluRef: Unsupervised Image Deblurring with Dense-Matching References",  # a work's title
        "Image retrieval - Ideas, influences, and trends of the new age",
        "推理趋势活文档",
    ],
)
def test_a_title_over_sections_of_its_own_names_the_file_not_a_section(title: str) -> None:
    doc = parse(f"---\ntitle: x\n---\n\n# {title}\n\n## Method\n\n提速 2.7x。\n\n## §6.2 趋势\n\n- 判断\n")
    assert [(s.heading, s.role) for s in doc.sections] == [(title, None), ("Method", None), ("§6.2 趋势", TREND)]
    assert [c.text for b in doc.blocks for c in b.claims] == ["2.7x"]  # read as body, not as a reference list


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("# 参考资料\n\n1. [一篇文章](https://example.org/a)\n", REFERENCE),  # the file is the list
        ("# 参考文献\n\n## 论文\n\n- a\n\n## 仓库\n\n- b\n", REFERENCE),  # a title that is a section's name
        ("# Further reading\n\n## Papers\n", REFERENCE),
        ("# 七、参考文献\n\n## 论文\n", REFERENCE),  # the label is not a word of the name
        ("# References\n\n# Trends\n\n- x\n", REFERENCE),  # two level-1 headings: no title
        ("## Sources\n\n# References\n\n## More\n", None),  # the first heading is no title
    ],
)
def test_a_heading_that_is_no_title_over_sections_keeps_its_role(text: str, role: str | None) -> None:
    doc = parse(text)
    assert doc.sections[0].role == role
    assert all(s.role == role for s in doc.sections[1:] if s.parent == 0)  # its sub-sections inherit it


def test_word_count_reads_latin_and_cjk_alike() -> None:
    assert [word_count(t) for t in ("长上下文", "Long context", "state 多大", "GPT-4 降价 10 倍")] == [2, 2, 2, 3.5]


def test_no_headings_is_one_preamble_section() -> None:
    doc = parse("一段\n\n二段\n")
    assert [(s.heading, s.line, s.end_line, s.blocks) for s in doc.sections] == [(None, 1, 4, [0, 1])]
    assert not doc.has_role(REFERENCE)


def test_empty_text_has_one_section_and_no_blocks() -> None:
    doc = parse("")
    assert len(doc.sections) == 1 and doc.blocks == []
    assert doc.line_count == 1


def test_blocks_list_items_nesting_and_line_ranges() -> None:
    doc = parse(md("""
        # §1 x

        一段
        第二行

        - 一
          续行
          - 二
            - 三
          - 四
        - 五

        1. 有序
        2. 有序二

        > 引用块里的段落
        """))
    assert blocks(doc) == [
        ("heading", 1, 1, 0, None),
        ("paragraph", 3, 4, 0, None),
        ("list_item", 6, 7, 0, None),
        ("list_item", 8, 8, 0, 2),  # its own paragraph; nested items are blocks of their own
        ("list_item", 9, 9, 0, 3),
        ("list_item", 10, 10, 0, 2),
        ("list_item", 11, 11, 0, None),
        ("list_item", 13, 13, 0, None),
        ("list_item", 14, 14, 0, None),
        ("paragraph", 16, 16, 0, None),
    ]
    item = doc.blocks[2]
    assert item.text == "一\n续行"
    assert item.children == [3, 5]
    assert [b.index for b in doc.descendants(item)] == [3, 4, 5]
    assert [b.index for b in doc.ancestors(doc.blocks[4])] == [3, 2]
    assert [b.depth for b in doc.blocks[2:7]] == [0, 1, 2, 1, 0]
    assert doc.blocks[9].text == "引用块里的段落"


def test_table_rows_are_blocks_and_the_header_row_is_not_a_row() -> None:
    doc = parse(md("""
        ## §6.2 趋势

        | 趋势 | 来源 |
        |---|---|
        | 二次检索按收益付费 | arXiv:2610.37358 |
        | 图像 token 预算 |  |
        """))
    assert [(b.kind, b.line, b.text) for b in doc.blocks] == [
        ("heading", 1, "§6.2 趋势"),
        ("table_header", 3, "趋势 | 来源"),
        ("table_row", 5, "二次检索按收益付费 | arXiv:2610.37358"),
        ("table_row", 6, "图像 token 预算 | "),
    ]
    assert [(r.kind, r.value, r.line, r.column) for r in doc.blocks[2].refs] == [("arxiv", "2610.37358", 5, 15)]


def test_block_at_finds_the_innermost_block() -> None:
    doc = parse("# x\n\n- a\n  - b\n- c\n")
    assert doc.block_at(4) is doc.blocks[2]
    assert doc.block_at(3) is doc.blocks[1]
    assert doc.block_at(2) is None


def test_disable_applies_to_the_next_block_only() -> None:
    doc = parse(md("""
        # x

        <!-- kbcheck: disable=KB005 -->
        一段

        二段

        <!-- kbcheck: disable=kb005, KB006 -->

        三段
        """))
    assert [(b.text, sorted(b.disabled)) for b in doc.blocks] == [
        ("x", []),
        ("一段", ["KB005"]),
        ("二段", []),
        ("三段", ["KB005", "KB006"]),
    ]
    assert doc.file_disabled == frozenset()


def test_disable_before_a_list_item_covers_its_nested_items_not_its_siblings() -> None:
    doc = parse(md("""
        ## §6.2 趋势

        <!-- kbcheck: disable=KB001 -->
        - 一
          - 一的子项
            - 更深
        - 二
        """))
    assert [(b.text, sorted(b.disabled)) for b in doc.blocks[1:]] == [
        ("一", ["KB001"]),
        ("一的子项", ["KB001"]),
        ("更深", ["KB001"]),
        ("二", []),
    ]


def test_disable_file_anywhere() -> None:
    doc = parse("# x\n\n正文\n\n<!-- kbcheck: disable-file=KB002,KB003 -->\n")
    assert doc.file_disabled == frozenset({"KB002", "KB003"})
    assert all(not b.disabled for b in doc.blocks)


@pytest.mark.parametrize(
    "comment",
    [
        "<!-- kbcheck disable=KB005 -->",
        "<!-- kbcheck: enable=KB005 -->",
        "<!-- some other comment -->",
        "`<!-- kbcheck: disable=KB005 -->`",
    ],
)
def test_other_comments_are_not_directives(comment: str) -> None:
    doc = parse(f"# x\n\n{comment}\n\n段落\n")
    assert all(not b.disabled for b in doc.blocks)
    assert doc.file_disabled == frozenset()


def test_a_directive_inside_a_code_block_is_not_a_directive() -> None:
    doc = parse("# x\n\n```\n<!-- kbcheck: disable-file=KB005 -->\n```\n")
    assert doc.file_disabled == frozenset()


def test_uncertainty_markers_mark_the_block() -> None:
    doc = parse("# x\n\n- 提速 3倍（待核）\n- 提速 4倍\n- 约 5倍 [?]\n", uncertainty_markers=("待核", "[?]"))
    assert [(b.text, b.uncertain) for b in doc.blocks[1:]] == [
        ("提速 3倍（待核）", True),
        ("提速 4倍", False),
        ("约 5倍 [?]", True),
    ]


def test_line_offset_shifts_every_line() -> None:
    doc = parse("# x\n\n提速 3倍 arXiv:2610.02076\n", line_offset=4)
    assert [(b.kind, b.line, b.end_line) for b in doc.blocks] == [("heading", 5, 5), ("paragraph", 7, 7)]
    assert [(r.line, r.column) for r in doc.blocks[1].refs] == [(7, 7)]
    assert [(c.line, c.column) for c in doc.blocks[1].claims] == [(7, 4)]
    assert doc.sections[0].line == 5
    assert doc.line_count == 8


def test_the_sample_heading_regexes_are_the_configured_ones() -> None:
    custom = HeadingPatterns(re.compile("Sources"), re.compile("Outlook"), re.compile("Unknowns"))
    doc = parse_document("## Outlook\n\n- x\n\n## Sources\n\n- y\n", custom)
    assert [s.role for s in doc.sections] == [TREND, REFERENCE]


def test_a_heading_inside_a_list_item_opens_a_section_without_breaking_line_ranges() -> None:
    doc = parse("- # 标题\n- 条目\n")
    assert [(s.heading, s.line, s.end_line, s.blocks) for s in doc.sections] == [
        (None, 1, 1, [0]),
        ("标题", 1, 3, [1, 2]),
    ]
    assert [(b.kind, b.line, b.section, b.parent) for b in doc.blocks] == [
        ("list_item", 1, 0, None),
        ("heading", 1, 1, None),
        ("list_item", 2, 1, None),
    ]


def test_lone_carriage_returns_end_lines_as_markdown_reads_them() -> None:
    doc = parse("# x\r\r正文 3倍\r")
    assert [(b.kind, b.line, b.text) for b in doc.blocks] == [("heading", 1, "x"), ("paragraph", 3, "正文 3倍")]
    assert [(c.text, c.line, c.column) for c in doc.blocks[1].claims] == [("3倍", 3, 4)]
    assert doc.line_count == 4
