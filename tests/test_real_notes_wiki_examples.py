"""KB009 in a wiki's own instructions: stand-in names (`[[xxx]]`, `foo.md`, `[[slug]]`) are examples,
a glob whose stars markdown read as emphasis is no path; a real broken link beside them still fires."""

from __future__ import annotations

from kbtools import md, run

from kbcheck.config import config_from_mapping
from kbcheck.findings import Report

WIKI = config_from_mapping({
    "knowledge": ["wiki/concepts/*.md"],
    "guides": ["wiki/sources/*.md"],
}, "test")

FILES: dict[str, str | bytes] = {
    "wiki/concepts/attention.md": md("""
        ## Definition

        Attention.
        """),
    "wiki/sources/vaswani-2017-attention.md": md("""
        ---
        title: Attention Is All You Need
        ---
        """),
}


def kb009(text: str, path: str = "GUIDE.md") -> Report:
    return run({**FILES, path: md(text)}, paths=[path], select={"KB009"}, config=WIKI)


def where(report: Report) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.subject) for f in report.findings]


def test_stand_in_names_in_instructions_are_examples() -> None:
    report = kb009("""
        # 维护说明

        - 断链检查：[[xxx]] 引用了不存在的页面
        - 日志里写纯文本路径（如 wiki/sources/foo.md），不写 wikilink
        - 合并后旧页面只留一行：redirect: [[wiki/concepts/主slug]]
        - Never link a lint report from a page: [[outputs/lint-xxxx]]
        - Each new page starts from [[example]] and records [[slug]] in its log.
        """)
    assert where(report) == []


def test_a_real_broken_link_beside_the_examples_fires() -> None:
    report = kb009("""
        # 维护说明

        - 断链检查：[[xxx]] 引用了不存在的页面
        - 例子：[[attention]] 和 [[attention-mechanism]]
        - See wiki/sources/vaswani-2017-attention.md and wiki/sources/vaswani-2017-atention.md
        - 新页面：wiki/concepts/new-concept.md
        """)
    assert where(report) == [
        (4, 22, "[[attention-mechanism]]"),
        (5, 50, "wiki/sources/vaswani-2017-atention.md"),
        (6, 7, "wiki/concepts/new-concept.md"),
    ]
    assert report.findings[0].message == "[[attention-mechanism]] names no file in the knowledge base"


def test_a_name_that_only_contains_a_stand_in_is_still_a_link() -> None:
    report = kb009("""
        See [[food-safety]], [[slugging-percentage]], [[example-of-attention]] and
        [[cuda-by-example]]; [代码](code/02-onnx-example-model/README.md)。
        """)
    assert [subject for _line, _col, subject in where(report)] == [
        "[[food-safety]]", "[[slugging-percentage]]", "[[example-of-attention]]", "[[cuda-by-example]]",
        "code/02-onnx-example-model/README.md",
    ]


def test_a_glob_whose_stars_read_as_emphasis_is_no_path() -> None:
    report = kb009("""
        1. Read every page:
           qmd multi-get "wiki/concepts/*.md" -l 40
           qmd multi-get "wiki/entities/*.md" -l 40
        2. Then **wiki/concepts/missing.md** is a real gap.
        """)
    assert where(report) == [(4, 11, "wiki/concepts/missing.md")]


def test_a_wikilink_followed_by_a_word_in_parentheses_is_a_wikilink() -> None:
    report = kb009("""
        - 从 [[attention]](原文) 和 [[attention]](raw) 抽取；[[attention-mechanism]](draft) 还没写。
        - [[GitHub]](https://github.com/a/b) and [[Paper]](papers/missing.md) are links with bracketed text.
        """)
    assert where(report) == [(1, 47, "[[attention-mechanism]]"), (2, 52, "papers/missing.md")]
