"""An Obsidian-style wiki: wikilinks are links, a source note stands for the paper it is about
(KB002, KB003, KB005, KB009 and the digest's living-document status), frontmatter is metadata,
a reference list without ids is no bibliography, KB004 without paper cards, placeholder paths."""

from __future__ import annotations

from kbtools import MemorySnapshot, md, paper_card, run

from kbcheck.config import Config, config_from_mapping
from kbcheck.digest.relation import living_status
from kbcheck.evidence.mentions import document_mentions
from kbcheck.findings import Report
from kbcheck.model.knowledge_base import KnowledgeBase

WIKI = config_from_mapping({
    "knowledge": ["wiki/concepts/*.md", "wiki/entities/*.md"],
    "guides": ["wiki/sources/*.md"],
    "paper-cards": ["papers/*.md"],
}, "test")

CONCEPT = "wiki/concepts/relative-position.md"
SOURCES: dict[str, str] = {
    "wiki/sources/ke-2021-rethinking.md": md("""
        ---
        title: "Rethinking Positional Encoding"
        type: source
        url: https://arxiv.org/abs/2006.15595
        ---

        # Rethinking Positional Encoding

        Untied positional attention. Compares with [[su-2021-roformer]].
        """),
    "wiki/sources/su-2021-roformer.md": md("""
        # RoFormer ([arXiv:2104.09864](https://arxiv.org/abs/2104.09864))

        Rotary position embedding; see also https://github.com/example/roformer.
        """),
    "wiki/sources/blog-rope-notes.md": md("""
        ---
        title: 一篇关于 RoPE 的博客
        resource:
          url: https://example.org/rope
        ---

        正文。
        """),
    "wiki/sources/survey-two-papers.md": md("""
        ---
        papers: [arXiv:2006.15595, arXiv:2104.09864]
        ---

        # 两篇论文的对比
        """),
}


def wiki(text: str, rules: set[str], path: str = CONCEPT, **extra: str) -> Report:
    files: dict[str, str | bytes] = {**SOURCES, path: md(text), **extra}
    return run(files, paths=[path], select=rules, config=WIKI)


def where(report: Report) -> list[tuple[str, int, int, str]]:
    return [(f.rule, f.line, f.column, f.subject) for f in report.findings]


# -- wikilinks ------------------------------------------------------------------------

def test_a_wikilink_to_nothing_is_a_broken_path() -> None:
    report = wiki("""
        # Relative position

        See [[ke-2021-rethinking]], [[su-2021-roformer|RoFormer]], [[ke-2021-rethinking#Method]]
        and [[sources/blog-rope-notes]]; but [[kimi-k3]] has no note.
        """, {"KB009"})
    assert where(report) == [("KB009", 4, 38, "[[kimi-k3]]")]
    assert report.findings[0].message == "[[kimi-k3]] names no file in the knowledge base"


def test_a_wikilink_in_a_table_cell_with_an_escaped_pipe_resolves() -> None:
    report = wiki("""
        | paper | note |
        |---|---|
        | TUPE | [[ke-2021-rethinking\\|TUPE]] |
        | missing | [[nothing-here\\|x]] |
        """, {"KB009"})
    assert [(f.line, f.subject) for f in report.findings] == [(4, "[[nothing-here]]")]


def test_a_wikilink_to_a_source_note_backs_a_number() -> None:
    report = wiki("""
        # Relative position

        ## Results

        - TUPE improves GLUE by +1.2 points ([[ke-2021-rethinking]])

        ## Claims heard elsewhere

        - RoPE extrapolates 4x longer
        """, {"KB005"})
    assert where(report) == [("KB005", 9, 21, "4x")]


# -- notes stand for their sources -----------------------------------------------------------

REFERENCES = """
    # Relative position

    ## Methods

    - Untied attention, see [[ke-2021-rethinking]].
    - A blog post: [[blog-rope-notes]]; a comparison: [[survey-two-papers]].

    ## References

    - arXiv:2006.15595
    - arXiv:2104.09864
    """


def test_a_link_to_a_source_note_is_a_mention_of_its_one_id() -> None:
    report = wiki(REFERENCES, {"KB002", "KB003"})
    # 2006.15595 is discussed through its note; 2104.09864 only through a note about two papers
    assert where(report) == [("KB002", 11, 3, "2104.09864")]


def test_a_note_whose_title_heading_names_the_id_stands_for_it() -> None:
    report = wiki("""
        # Relative position

        - Rotary embedding: [[su-2021-roformer]]

        ## References

        - arXiv:2006.15595
        """, {"KB002", "KB003"})
    assert where(report) == [("KB003", 3, 21, "2104.09864"), ("KB002", 7, 3, "2006.15595")]


def test_a_relative_link_to_a_source_note_stands_for_its_id_in_the_digest_status() -> None:
    text = md("""
        # Relative position

        - Untied attention: [TUPE](../sources/ke-2021-rethinking.md)

        ## References

        - arXiv:2006.15595
        """)
    kb = KnowledgeBase(MemorySnapshot({**SOURCES, CONCEPT: text}), WIKI)  # type: ignore[arg-type]
    mentions = document_mentions(kb, CONCEPT)["2006.15595"]
    assert [line for line, _col, _name in mentions.entry] == [3]
    status = living_status(kb)["2006.15595"]
    assert (status.in_references, status.entry_mentions) == (True, 1)


def test_a_link_standing_for_an_id_is_not_a_kb004_citation() -> None:
    report = wiki("""
        - Untied attention: [[ke-2021-rethinking]]
        - 直接引用 arXiv:2104.09864
        """, {"KB004"}, **{"papers/0001-2006-15595.md": paper_card("2006.15595")})
    assert where(report) == [("KB004", 2, 8, "2104.09864")]


# -- KB002: discussed by name; KB003: a list of blog posts is no bibliography ---------------

def test_an_entry_is_discussed_by_its_link_text_or_its_card_title() -> None:
    cards = {"papers/0001-2006-15595.md": paper_card("2006.15595", "TUPE: Rethinking Positional Encoding")}
    report = wiki("""
        # Relative position

        TUPE unties the two attentions; RoFormer rotates them. Self-Refinement is another topic.

        ## References

        - arXiv:2006.15595
        - [RoFormer](https://arxiv.org/abs/2104.09864)
        - [Self-Refine](https://arxiv.org/abs/2303.17651)
        """, {"KB002"}, **cards)
    assert where(report) == [("KB002", 9, 17, "2303.17651")]


def test_a_latin_name_counts_only_as_a_whole_word() -> None:
    cards = {"papers/0001-1810-04805.md": paper_card("1810.04805", "BERT: Pre-training of Deep Bidirectional Transformers")}
    report = wiki("""
        RoBERTa 在中文任务上更强。

        ## References

        - arXiv:1810.04805
        """, {"KB002"}, **cards)
    assert where(report) == [("KB002", 5, 3, "1810.04805")]


def test_a_reference_list_of_videos_and_blogs_is_not_a_bibliography() -> None:
    report = wiki("""
        # 学习资料

        正文提到 arXiv:2006.15595。

        ## 参考资料

        - [一个视频](https://example.org/video)
        - [一篇博客](https://example.org/blog)
        """, {"KB003"})
    assert where(report) == []


def test_a_reference_list_with_ids_is_still_compared() -> None:
    report = wiki("""
        # 学习资料

        正文提到 arXiv:2006.15595。

        ## References

        - [一篇博客](https://example.org/blog)
        - arXiv:2104.09864
        """, {"KB003"})
    assert where(report) == [("KB003", 3, 6, "2006.15595")]


# -- KB004 without paper cards -----------------------------------------------------------------

def test_no_paper_cards_means_one_notice_and_no_kb004_findings() -> None:
    files: dict[str, str | bytes] = {
        "notes/a.md": "见 arXiv:2610.02067\n",
        "notes/b.md": "见 arXiv:2610.02068\n",
    }
    report = run(files, select={"KB004"})
    assert report.findings == ()
    assert [n for n in report.notices if "KB004" in n] == [
        "KB004 not evaluated: no paper cards in the knowledge base (the paper-cards glob matches nothing)"
    ]


def test_with_paper_cards_an_unknown_id_still_fires() -> None:
    files: dict[str, str | bytes] = {
        "organized/paper_cards/1695-2610-02076.md": paper_card("2610.02076"),
        "notes/a.md": "见 arXiv:2610.02067\n",
    }
    report = run(files, paths=["notes/a.md"], select={"KB004"})
    assert [(f.rule, f.line, f.subject) for f in report.findings] == [("KB004", 1, "2610.02067")]
    assert not [n for n in report.notices if "KB004" in n]


# -- frontmatter is metadata -------------------------------------------------------------------

def test_frontmatter_is_never_a_heading_or_a_block() -> None:
    kb = KnowledgeBase(MemorySnapshot({CONCEPT: md("""
        ---
        title: 相对位置编码
        updated: 2026-10-30
        speedup: 2.7x
        ---

        ## 概述

        提速 3.1x
        """)}), WIKI)  # type: ignore[arg-type]
    doc = kb.document(CONCEPT)
    assert doc is not None
    assert [s.heading for s in doc.sections if s.heading] == ["概述"]
    assert [(b.kind, b.line) for b in doc.blocks] == [("heading", 7), ("paragraph", 9)]
    assert [(c.text, c.line) for b in doc.blocks for c in b.claims] == [("3.1x", 9)]


def test_a_thematic_break_later_in_a_file_is_not_frontmatter() -> None:
    kb = KnowledgeBase(MemorySnapshot({"inbox/tom/a.md": md("""
        # 笔记

        ---
        url: https://example.org/x
        ---
        """)}), Config())  # type: ignore[arg-type]
    doc = kb.document("inbox/tom/a.md")
    assert doc is not None and doc.own_refs == []
    assert [(b.kind, b.line, b.text) for b in doc.blocks] == [
        ("heading", 1, "笔记"), ("heading", 4, "url: https://example.org/x"),
    ]


# -- placeholder paths ------------------------------------------------------------------------

def test_placeholder_paths_are_not_broken_paths() -> None:
    report = run({"README.md": md("""
        # 约定

        - 整理后的笔记放在 organized/<topic>/x.md，草稿放在 `inbox/<author>/`
        - 也可写作 `organized/<topic>/x.md` 或 inbox/{author}/draft.md
        - 但 organized/guides/missing.md 不存在
        """)}, select={"KB009"})
    assert [(f.line, f.subject) for f in report.findings] == [(5, "organized/guides/missing.md")]


def test_a_path_written_as_a_links_text_labels_the_link() -> None:
    """One broken link is one finding: its text (`organized/code/hello`) labels it, the target is the ref;
    a path as the text of a link that names no file (an anchor) is still read as written."""
    report = run({"organized/guides/rust.md": md("""
        # Rust

        code [organized/code/hello](../code/hello/hello.rs), and [organized/code/gone.md](#setup)
        """), "organized/code/README.md": "# Code\n"}, select={"KB009"})
    assert [(f.line, f.subject) for f in report.findings] == [
        (3, "organized/code/hello/hello.rs"), (3, "organized/code/gone.md")]


def test_config_default_is_untouched_by_the_wiki_mapping() -> None:
    assert Config().knowledge != WIKI.knowledge


# -- a file's title ---------------------------------------------------------------------------

def test_a_files_title_is_its_frontmatter_title_else_its_first_heading() -> None:
    from kbcheck.digest.items import describe
    from kbcheck.digest.model import Item

    files: dict[str, str | bytes] = {
        "wiki/sources/a.md": md("""
            ---
            title: 长上下文推理加速
            url: https://arxiv.org/abs/2610.04418
            ---

            # 笔记草稿

            正文。
            """),
        "wiki/sources/b.md": md("""
            ---
            tags: [推理]
            ---

            # [FlashDecoding++](https://arxiv.org/abs/2311.01282) 读后

            正文。
            """),
    }
    kb = KnowledgeBase(MemorySnapshot(files), WIKI)  # type: ignore[arg-type]
    titles = []
    for path in files:
        item = Item(path=path, kind="guide", change="added")
        describe(kb, item, path)
        titles.append(item.title)
    assert titles == ["长上下文推理加速", "FlashDecoding++ 读后"]


def test_an_entry_is_discussed_by_the_short_name_in_its_link_text() -> None:
    report = wiki("""
        # Long documents

        Longformer mixes local and global attention; the Levenshtein Transformer edits.

        ## References

        1. [Longformer: The Long-Document Transformer](https://arxiv.org/abs/2004.05150)
        2. [Levenshtein Transformer (Gu et al., 2019)](https://arxiv.org/abs/1905.11006)
        3. [Big Bird: Transformers for Longer Sequences](https://arxiv.org/abs/2007.14062)
        """, {"KB002"})
    assert where(report) == [("KB002", 9, 50, "2007.14062")]


def test_a_relative_link_without_md_names_the_note() -> None:
    report = run({
        "notes/2015-adam.md": "# Adam\n",
        "notes/2018-elmo.md": md("""
            # ELMo

            1. [Adam - A Method for Stochastic Optimization](2015-adam)
            2. [Missing](2014-missing)
            """),
    }, paths=["notes/2018-elmo.md"], select={"KB009"})
    assert [(f.line, f.subject) for f in report.findings] == [(4, "notes/2014-missing")]


def test_a_concept_pages_closing_sources_section_backs_its_key_points() -> None:
    concept = """
        ---
        type: concept
        title: Relative position
        ---

        ## Key Points

        - TUPE improves GLUE by +1.2%.

        ## Sources

        - [[ke-2021-rethinking]]
        """
    assert where(wiki(concept, {"KB005"})) == []
    unsourced = concept.replace("## Sources", "## Related").replace("[[ke-2021-rethinking]]", "nothing yet")
    assert where(wiki(unsourced, {"KB005"})) == [("KB005", 8, 25, "+1.2%")]


def test_numbered_references_in_double_brackets_are_not_wikilinks() -> None:
    report = wiki("""
        Sparse retrieval such as BM25 *[[61]]* and TF-IDF [[64]]; **[[Reasoning:]]** follows.
        A note that does not exist: [[62-notes]].
        """, {"KB009"})
    assert [(f.line, f.subject) for f in report.findings] == [(2, "[[62-notes]]")]


def test_date_and_topic_placeholders_in_paths_are_not_broken_paths() -> None:
    report = run({"README.md": md("""
        - 报告写入 `wiki/outputs/lint-YYYY-MM-DD.md`，答案写入 wiki/outputs/YYYY-MM-DD-<topic>.md
        - 模板在 wiki/templates/missing-template.md
        """), "wiki/index.md": "# index\n"}, select={"KB009"},
        config=config_from_mapping({"knowledge": ["wiki/**/*.md"]}, "test"))
    assert [(f.line, f.subject) for f in report.findings] == [(2, "wiki/templates/missing-template.md")]


def test_a_numbered_entry_is_discussed_by_its_number_in_brackets() -> None:
    report = wiki("""
        # 文本分类技巧

        - 解耦特征和标签分布：文献[2] 认为再平衡只应作用于分类器。
        - 课程学习 [1, 3] 从易到难进行学习。

        ## 参考文献

        1. [Dynamic Curriculum Learning for Imbalanced Data](https://arxiv.org/abs/1901.06783)
        2. [Decoupling Representation and Classifier](https://arxiv.org/abs/1910.09217)
        3. [Description Based Text Classification](https://arxiv.org/abs/2002.03067)
        4. [Confident Learning](https://arxiv.org/abs/1911.00068)
        """, {"KB002"})
    assert where(report) == [("KB002", 11, 25, "1911.00068")]


def test_a_frontmatter_path_to_the_sources_text_in_the_knowledge_base_backs_the_note() -> None:
    note = """
        ---
        type: source
        title: Adversarial retriever-ranker
        raw_file: raw/papers/zhang-2022/paper.pdf
        raw_md: {raw_md}
        url:
        ---

        ## Results

        - NQ R@5 77.9% (+2.1%)
        """
    path = "wiki/sources/zhang-2022.md"
    assert where(wiki(note.replace("{raw_md}", "raw/papers/zhang-2022/paper.md"), {"KB005", "KB009"}, path=path,
                      **{"raw/papers/zhang-2022/paper.md": "# Adversarial retriever-ranker\n"})) == []
    # a path to nothing (the PDF is not committed) is metadata: no source, and no broken path
    report = wiki(note.replace("{raw_md}", "raw/papers/zhang-2022/missing.md"), {"KB005", "KB009"}, path=path)
    assert where(report) == [("KB005", 11, 10, "77.9%"), ("KB005", 11, 17, "+2.1%")]


def test_the_paper_a_note_is_about_is_not_a_missing_reference() -> None:
    note = """
        # 【关于 P-tuning】[读书笔记](https://arxiv.org/abs/2104.08691)

        ## 一、动机

        与 arXiv:2006.15595 的做法不同。

        ## 参考文献

        1. [RoFormer](https://arxiv.org/abs/2104.09864)
        """
    assert where(wiki(note, {"KB003"})) == [("KB003", 5, 3, "2006.15595")]


def test_a_link_whose_text_is_in_brackets_is_no_wikilink() -> None:
    report = wiki("|Paper|Code|\n|---|---|\n|[[arxiv]](https://arxiv.org/abs/2006.15595)|[[GitHub]](https://github.com/a/b)|\n",
                  {"KB009"})
    assert where(report) == []
