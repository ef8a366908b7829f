"""KB009: a wikilink to no file that names a heading of its own note is offered the link to that
heading (docs/rules.md, KB009: a table of contents written `[[Goal]]` for `[[#1. Goal]]`)."""

from __future__ import annotations

from kbtools import md, run

NOTE = md("""
    # Code challenge

    ## Contents
    1. [[Goal of the Challenge]]
    2. [[Results|what we saw]]
    3. [[Never Written]]

    ## 1. Goal of the **Challenge**

    Text.

    ## 2. Results

    More.
    """)


def problems(files: dict[str, str]) -> list[tuple[int, str, str | None]]:
    report = run(files, select={"KB009"})
    return [(f.line, f.message, f.fix.replacement if f.fix else None) for f in report.findings]


def test_a_table_of_contents_link_is_offered_its_heading() -> None:
    assert problems({"notes/challenge.md": NOTE}) == [
        (4, "[[Goal of the Challenge]] names no file in the knowledge base; "
            "did you mean [[#1. Goal of the **Challenge**]]?", "[[#1. Goal of the **Challenge**"),
        (5, "[[Results]] names no file in the knowledge base; did you mean [[#2. Results]]?",
         "[[#2. Results"),
        (6, "[[Never Written]] names no file in the knowledge base", None),
    ]


def test_no_heading_is_offered_when_two_match_or_a_file_is_near() -> None:
    twice = NOTE + "\n## 3. Results\n"
    assert [fix for _line, _message, fix in problems({"notes/challenge.md": twice})][1] is None
    near = problems({"notes/challenge.md": NOTE, "notes/goal-of-the-challenge.md": "# Goal\n"})
    assert near[0][2] == "[[goal-of-the-challenge"


def test_a_chinese_section_label_is_left_out_as_a_number_is() -> None:
    note = md("""
        # 笔记

        目录：[[实验结果]]

        ## 二、实验结果

        略。
        """)
    assert problems({"notes/zh.md": note})[0][2] == "[[#二、实验结果"
