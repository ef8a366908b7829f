"""A wiki page's closing `## Sources` list (KB002): a page drawn from one source note discusses it
throughout; with several sources, each is discussed when the body names it, by the title or short
name of its note as well as by id."""

from __future__ import annotations

import pytest
from kbtools import MemorySnapshot, md, run

from kbcheck.config import config_from_mapping
from kbcheck.findings import Report
from kbcheck.model.document import parse_document
from kbcheck.model.heads import TOP_LINES, head_refs
from kbcheck.model.knowledge_base import KnowledgeBase

WIKI = config_from_mapping({
    "knowledge": ["wiki/concepts/*.md", "wiki/entities/*.md"],
    "guides": ["wiki/sources/*.md"],
    "reference-heading": r"(?i)^\s*(?:sources|references|来源)\s*$",
}, "test")

NOTES: dict[str, str | bytes] = {
    "wiki/sources/rao-2023-tidal-2305-01234.md": md("""
        ---
        type: source
        title: "TidalNet: Streaming Attention for Long Audio"
        arxiv_id: 2305.01234
        ---

        ## Summary

        A streaming attention layer.
        """),
    "wiki/sources/lin-2024-harbor-2402-04321.md": md("""
        ---
        type: source
        title: Harbor Retrieval for Code Repositories
        arxiv_id: 2402.04321
        ---
        """),
    "wiki/sources/park-2021-attention-2101-00001.md": md("""
        ---
        type: source
        title: "Attention: Windows over Long Audio"
        arxiv_id: 2101.00001
        ---
        """),
    "wiki/sources/chen-2022-yasuo-2208-05555.md": md("""
        # 长上下文压缩：一种分段记忆方法（arXiv:2208.05555）

        摘要。
        """),
}

PAGE = "wiki/concepts/streaming-attention.md"


def kb002(text: str, path: str = PAGE) -> Report:
    return run({**NOTES, path: md(text)}, paths=[path], select={"KB002"}, config=WIKI)


def where(report: Report) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.subject) for f in report.findings]


def test_a_page_drawn_from_its_one_source_discusses_it() -> None:
    report = kb002("""
        ---
        type: entity
        title: Mira Rao
        ---

        ## Description

        Mira Rao is a co-author of the streaming layer described here.

        ## Sources

        - [[rao-2023-tidal-2305-01234]]
        """)
    assert where(report) == []


def test_a_chinese_page_drawn_from_its_one_source_discusses_it() -> None:
    report = kb002("""
        ## 定义

        **分段记忆**：把长输入切成段，每段压成固定长度的记忆。

        ## 来源

        - [[chen-2022-yasuo-2208-05555]]
        """)
    assert where(report) == []


def test_with_two_sources_the_one_never_named_fires() -> None:
    report = kb002("""
        ## Key Points

        - Streaming attention keeps a fixed window over the audio.

        ## Sources

        - [[rao-2023-tidal-2305-01234]]
        - [[lin-2024-harbor-2402-04321]]
        """)
    assert where(report) == [(7, 3, "2305.01234"), (8, 3, "2402.04321")]
    assert report.findings[1].message == (
        "2402.04321 is in the reference list but never mentioned in the body; write its entry or drop the reference"
    )


def test_a_source_is_named_by_its_notes_short_name_or_title() -> None:
    report = kb002("""
        ## Key Points

        - TidalNet keeps a fixed window over the audio.
        - Harbor Retrieval for Code Repositories applies the same idea to code search.

        ## Sources

        - [[rao-2023-tidal-2305-01234]]
        - [[lin-2024-harbor-2402-04321]]
        """)
    assert where(report) == []


def test_a_chinese_note_lends_the_short_name_of_its_title_heading() -> None:
    report = kb002("""
        ## 要点

        - 长上下文压缩把每段压成记忆；TidalNet 用滑动窗口。

        ## 来源

        - [[chen-2022-yasuo-2208-05555]]
        - [[rao-2023-tidal-2305-01234]]
        - [[lin-2024-harbor-2402-04321]]
        """)
    assert where(report) == [(9, 3, "2402.04321")]


def test_a_sources_list_inside_a_section_is_not_the_pages_one_source() -> None:
    report = kb002("""
        ## Key Points

        Streaming attention in general.

        ## Background

        ### Sources

        - [[lin-2024-harbor-2402-04321]]
        """)
    assert where(report) == [(9, 3, "2402.04321")]


def test_a_one_entry_reference_list_still_fires() -> None:
    report = kb002("""
        ## Key Points

        Streaming attention in general.

        ## References

        - [[lin-2024-harbor-2402-04321]]
        """)
    assert where(report) == [(7, 3, "2402.04321")]


TIDALNET_PAGE = """
    ---
    type: entity
    title: {title}
    ---

    ## Description

    A streaming layer that keeps a fixed window over long audio.

    ## Sources

    - [[rao-2023-tidal-2305-01234]]
    - [[lin-2024-harbor-2402-04321]]
    """


def test_a_page_named_for_a_work_it_lists_is_about_that_work() -> None:
    # `tidalnet.md` is the page of the work `TidalNet: …` (a coined name): its body is the entry
    # for it, though it never writes the name; the other source must still be named
    report = kb002(TIDALNET_PAGE.format(title="TidalNet"), path="wiki/entities/tidalnet.md")
    assert where(report) == [(13, 3, "2402.04321")]


def test_a_page_named_for_a_work_by_its_title_alone_is_about_it() -> None:
    report = kb002(TIDALNET_PAGE.format(title="TidalNet"), path="wiki/entities/streaming-layer.md")
    assert where(report) == [(13, 3, "2402.04321")]


def test_a_page_named_with_a_dictionary_word_is_about_no_work() -> None:
    # the short name of `Attention: Windows over Long Audio` is a word, not a coined name:
    # `attention.md` is a page on attention, and the note must be named in its body
    page = TIDALNET_PAGE.format(title="Attention").replace("rao-2023-tidal-2305-01234", "park-2021-attention-2101-00001")
    report = kb002(page, path="wiki/concepts/attention.md")
    assert where(report) == [(12, 3, "2101.00001"), (13, 3, "2402.04321")]


def test_a_linked_note_without_ids_is_not_parsed_for_them() -> None:
    """Entity and concept pages link thousands of notes; those naming no id stand for none, and
    are not parsed to find that out (a cold check of a large wiki parsed each in every worker)."""
    concept = "wiki/concepts/sliding-window.md"
    files = {
        **NOTES,
        concept: md("""
            ---
            title: 滑动窗口
            aliases: [Sliding Window]
            ---

            ## 定义

            每次只看最近的 512 个位置。
            """),
        PAGE: md("""
            ## Key Points

            - Built on [[sliding-window]] and [[rao-2023-tidal-2305-01234]].
            """),
    }
    kb = KnowledgeBase(MemorySnapshot(files), WIKI)  # type: ignore[arg-type]
    citations = [(c.id, c.note) for block in kb.resolve(PAGE).block_citations for c in block]
    assert citations == [("2305.01234", "wiki/sources/rao-2023-tidal-2305-01234.md")]
    assert kb.note_id(concept) is None
    assert kb.note_id("wiki/sources/chen-2022-yasuo-2208-05555.md") == ("arxiv", "2208.05555")
    parsed = set(kb.facts._documents)  # what was parsed is the point of this test
    assert concept not in parsed
    # a note with an id is read from its head (frontmatter, title heading), not parsed whole
    assert "wiki/sources/rao-2023-tidal-2305-01234.md" not in parsed


HEADS = {
    "frontmatter and title": """
        ---
        title: 长上下文压缩
        arxiv_id: 2208.05555
        url: https://example.org/yasuo
        ---

        # 长上下文压缩（[arXiv:2208.05555](https://arxiv.org/abs/2208.05555)）

        正文引用 arXiv:2104.09864。
        """,
    "two level-1 headings: no title": """
        # RoFormer arXiv:2104.09864

        # Notes arXiv:2006.15595
        """,
    "a setext title": """
        TUPE, arXiv:2006.15595
        ======================

        Body cites doi:10.1145/3406095.
        """,
    "a comment in a code block is no heading": """
        ```python
        # arXiv:2104.09864
        ```

        # Title without an id

        - [[su-2021-roformer]]
        """,
    "a wikilink and a path in frontmatter": """
        ---
        related: "[[ke-2021-rethinking]]"
        raw_md: wiki/sources/chen-2022-yasuo-2208-05555.md
        ---
        ## Summary
        """,
}


@pytest.mark.parametrize("name", sorted(HEADS))
def test_a_notes_head_gives_the_refs_of_its_whole_parse(name: str) -> None:
    text = md(HEADS[name])
    patterns = KnowledgeBase(MemorySnapshot({}), WIKI).patterns  # type: ignore[arg-type]
    whole = [(r.kind, r.value) for r in parse_document(text, patterns, roots=("wiki",)).source_refs()]
    assert [(r.kind, r.value) for r in head_refs(text, patterns, ("wiki",))] == whole
    if name == "frontmatter and title":
        assert ("arxiv", "2104.09864") not in whole and whole.count(("arxiv", "2208.05555")) == 3


#: body lines that push a note past the lines its head is first looked for in (`heads.TOP_LINES`)
_BODY = "\n".join(f"Paragraph {n} cites arXiv:2401.{n:05d}.\n" for n in range(TOP_LINES))
#: long notes: the head is settled from the top, or the whole note is read where the top cannot tell
LONG_HEADS = {
    **{f"{name}, long": HEADS[name] + "\n" + _BODY for name in HEADS},
    "a title that cites, a second level-1 heading past the top": "# RoFormer arXiv:2104.09864\n\n" + _BODY
    + "\n\n# Appendix\n",
    "a title that cites, alone": "# RoFormer arXiv:2104.09864\n\n" + _BODY,
    "a fence open across the top": "```\n# arXiv:2104.09864\n" + _BODY + "\n```\n\n# Title arXiv:2006.15595\n",
    "a frontmatter longer than the top": "---\n" + "".join(f"k{n}: arXiv:2402.{n:05d}\n" for n in range(TOP_LINES))
    + "---\n\n# Title\n\n" + _BODY,
    "a setext underline right past the top": "\n" * (TOP_LINES - 1) + "Title arXiv:2104.09864\n=====\n\n" + _BODY,
}


@pytest.mark.parametrize("name", sorted(LONG_HEADS))
def test_a_long_notes_head_gives_the_refs_of_its_whole_parse(name: str) -> None:
    text = LONG_HEADS[name]
    patterns = KnowledgeBase(MemorySnapshot({}), WIKI).patterns  # type: ignore[arg-type]
    whole = [(r.kind, r.value) for r in parse_document(text, patterns, roots=("wiki",)).source_refs()]
    assert [(r.kind, r.value) for r in head_refs(text, patterns, ("wiki",))] == whole


@pytest.mark.parametrize(("front", "stands_for"), [
    # the preprint and its version of record: one work, known by its arXiv id
    ("arxiv_id: 2305.01234\ndoi: 10.1145/3510003.3510140", ("arxiv", "2305.01234")),
    ("arxiv_id: 2305.01234\ndoi: 10.48550/arXiv.2305.01234", ("arxiv", "2305.01234")),
    # two preprints, or two DOIs beside a preprint, name no one work
    ("arxiv_id: 2305.01234\nrelated: arXiv:2402.04321", None),
    ("arxiv_id: 2305.01234\ndoi: 10.1145/3510003.3510140\nalso: 10.1145/3510003.3510999", None),
])
def test_a_note_with_an_arxiv_id_and_a_publisher_doi_stands_for_the_arxiv_id(
        front: str, stands_for: tuple[str, str] | None) -> None:
    note = "wiki/sources/sun-2022-code.md"
    text = md("""
        ---
        type: source
        title: Code Search with Context-aware Translation
        {front}
        ---

        ## Summary

        Code is translated before it is searched.
        """).replace("{front}", front)
    kb = KnowledgeBase(MemorySnapshot({note: text}), WIKI)  # type: ignore[arg-type]
    assert kb.note_id(note) == stands_for
