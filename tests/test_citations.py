"""What counts as a citation (`docs/rules.md`), in prose and in a whole knowledge base."""

from __future__ import annotations

import pytest
from kbtools import MemorySnapshot, md, paper_card, repo_card

from kbcheck.config import Config
from kbcheck.model.citations import MASK, classify_url, scan_code_span, scan_href, scan_prose
from kbcheck.model.knowledge_base import KnowledgeBase

ROOTS = ("inbox", "organized")
CARD = "organized/paper_cards/1695-2610-02076.md"
REPO_CARD = "organized/repo_cards/4572-recursive-oss-rec.md"


def refs(text: str) -> list[tuple[str, str]]:
    """(kind, value) of every ref scan_prose finds."""
    found, _masked = scan_prose(text, ROOTS)
    return [(kind, value) for _offset, kind, value, _form in found]


def cited(files: dict[str, str | bytes], path: str, config: Config | None = None) -> list[tuple[str, str, int, int, str | None]]:
    """(kind, id, line, column, card path) of every resolved citation in one file."""
    kb = KnowledgeBase(MemorySnapshot(files), config or Config())  # type: ignore[arg-type]
    return [
        (c.kind, c.id, c.line, c.column, c.card_path)
        for block in kb.resolve(path).block_citations
        for c in block
    ]


# -- prose: every form -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "见 arXiv:2610.02076",
        "见 arxiv:2610.02076",
        "见 ARXIV:2610.02076",
        "见 arXiv: 2610.02076",
        "见 arXiv:2610.02076v2",
        "见 arXiv: 2610.02076v13。",
        "https://arxiv.org/abs/2610.02076",
        "https://arxiv.org/abs/2610.02076v2",
        "https://arxiv.org/pdf/2610.02076",
        "https://arxiv.org/pdf/2610.02076.pdf",
        "https://arxiv.org/pdf/2610.02076v1.pdf",
        "http://export.arxiv.org/abs/2610.02076",
        "https://www.arxiv.org/abs/2610.02076/",
        "https://papers.cool/arxiv/2610.02076",
        "bare 2610.02076 here",
        "bare 2610.02076v2 here",
        "句末 2610.02076。",
        "“arXiv:2610.02076”",
        "「2610.02076」",
        '"2610.02076"',
    ],
)
def test_arxiv_forms_are_cited_without_version(text: str) -> None:
    assert refs(text) == [("arxiv", "2610.02076")]


@pytest.mark.parametrize(
    "text",
    [
        "1999.12345",  # YYMM 1999 is no month
        "3.14159",
        "0703.12345",  # before new-style ids began
        "2613.12345",
        "2600.12345",
        "2610.123",  # too few digits
        "2610.123456",  # too many digits
        "v2610.02076",  # glued to a word
        "x2610.02076",
        "1.2610.02076",
        "version 2610.02076.1",
    ],
)
def test_not_arxiv_ids(text: str) -> None:
    assert [r for r in refs(text) if r[0] == "arxiv"] == []


def test_first_new_style_month_is_an_id() -> None:
    assert refs("0704.0001 is the first") == [("arxiv", "0704.0001")]


def test_old_style_ids() -> None:
    assert refs("arXiv:hep-th/9901001v3 and https://arxiv.org/abs/hep-th/9901001") == [
        ("arxiv", "hep-th/9901001"),
        ("arxiv", "hep-th/9901001"),
    ]


@pytest.mark.parametrize(
    ("text", "doi"),
    [
        ("DOI 10.1145/3600006.3613165, end", "10.1145/3600006.3613165"),
        ("doi:10.1145/3600006.3613165。", "10.1145/3600006.3613165"),
        ("（10.1000/ABC-def）", "10.1000/abc-def"),
        ("https://doi.org/10.1145/3600006.3613165", "10.1145/3600006.3613165"),
        ("https://dx.doi.org/10.1000/XYZ", "10.1000/xyz"),
    ],
)
def test_dois(text: str, doi: str) -> None:
    assert refs(text) == [("doi", doi)]


@pytest.mark.parametrize(
    ("text", "repo"),
    [
        ("https://github.com/recursive-oss/rec", "recursive-oss/rec"),
        ("https://github.com/Recursive-OSS/Rec/tree/main", "recursive-oss/rec"),
        ("https://github.com/recursive-oss/rec.git", "recursive-oss/rec"),
        ("https://github.com/recursive-oss/rec/blob/main/README.md#usage", "recursive-oss/rec"),
        ("（https://github.com/amitshekhariitbhu/llm-internals）", "amitshekhariitbhu/llm-internals"),
    ],
)
def test_github_urls_are_repo_sources(text: str, repo: str) -> None:
    assert refs(text) == [("repo", repo)]


def test_github_pages_that_are_not_repos() -> None:
    assert refs("https://github.com/orgs/x https://github.com/topics/llm") == [
        ("url", "https://github.com/orgs/x"),
        ("url", "https://github.com/topics/llm"),
    ]


def test_other_urls_are_urls_and_hide_their_digits() -> None:
    text = "https://blog.csdn.net/gitblog_00405/article/details/168975108 提速 3倍"
    found, masked = scan_prose(text, ROOTS)
    assert [(kind, value) for _o, kind, value, _f in found] == [
        ("url", "https://blog.csdn.net/gitblog_00405/article/details/168975108")
    ]
    assert "168975108" not in masked
    assert masked.endswith("提速 3倍")


def test_arxiv_html_url_is_not_a_citation() -> None:
    assert classify_url("https://arxiv.org/html/2402.09360v1/extracted/x.png") == (
        "url",
        "https://arxiv.org/html/2402.09360v1/extracted/x.png",
    )
    assert refs("see https://arxiv.org/html/2402.09360v1/extracted/x.png") == [
        ("url", "https://arxiv.org/html/2402.09360v1/extracted/x.png")
    ]


def test_owner_repo_and_knowledge_base_paths() -> None:
    assert refs("recursive-oss/rec 与 organized/paper_cards/1695-2610-02076.md。") == [
        ("repo_name", "recursive-oss/rec"),
        ("path", "organized/paper_cards/1695-2610-02076.md"),
    ]


def test_glob_paths_are_not_paths() -> None:
    assert refs("inbox/tom/_candidates/2026-10-13-*.json") == []


def test_masked_text_keeps_offsets() -> None:
    text = "见 arXiv:2610.02076 提速 3倍"
    _found, masked = scan_prose(text, ROOTS)
    assert len(masked) == len(text)
    assert masked == "见 " + MASK * len("arXiv:2610.02076") + " 提速 3倍"


def test_code_spans_cite_only_knowledge_base_paths() -> None:
    assert scan_code_span("organized/paper_cards/1695-2610-02076.md", ROOTS) == CARD
    assert scan_code_span(" inbox/tom/a.md ", ROOTS) == "inbox/tom/a.md"
    assert scan_code_span("arXiv:2610.02076", ROOTS) is None
    assert scan_code_span("organized/paper_cards/*.md", ROOTS) is None
    assert scan_code_span("src/organized/x.md", ROOTS) is None


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("https://arxiv.org/abs/2610.02076v3", ("arxiv", "2610.02076", "link")),
        ("../paper_cards/1695-2610-02076.md", ("path", "../paper_cards/1695-2610-02076.md", "link")),
        ("../paper_cards/1695-2610-02076.md#tldr", ("path", "../paper_cards/1695-2610-02076.md", "link")),
        ("../%E5%8D%A1%E7%89%87/a%20b.md", ("path", "../卡片/a b.md", "link")),
        ("#section", None),
        ("mailto:tom@example.org", None),
        ("", None),
    ],
)
def test_link_targets(href: str, expected: tuple[str, str, str] | None) -> None:
    assert scan_href(href) == expected


# -- in documents: what is prose ---------------------------------------------------------------


def test_code_spans_code_blocks_and_images_are_not_prose() -> None:
    doc = md("""
        # §1 x

        行内 `arXiv:2610.00001` 和 `2610.00002`

        ```
        arXiv:2610.00003
        ```

        ~~~markdown
        arXiv:2610.00004
        ~~~

            arXiv:2610.00005 indented code

        ![arXiv:2610.00006](https://arxiv.org/html/2402.09360v1/extracted/x.png)

        仅此 arXiv:2610.00007
        """)
    assert cited({"organized/knowledge/k.md": doc}, "organized/knowledge/k.md") == [
        ("arxiv", "2610.00007", 17, 4, None),
    ]


def test_ids_inside_quotation_marks_are_citations() -> None:
    doc = "# x\n\n“arXiv:2610.02076” 与 「2610.02077」 与 \"arXiv:2610.02078\"\n"
    ids = [c[1] for c in cited({"organized/knowledge/k.md": doc}, "organized/knowledge/k.md")]
    assert ids == ["2610.02076", "2610.02077", "2610.02078"]


def test_citations_resolve_to_paper_cards_and_carry_columns() -> None:
    line = "- 见 arXiv:2610.02076v2 与 arXiv:2610.09999"
    files = {CARD: paper_card("2610.02076"), "organized/knowledge/k.md": f"# x\n\n{line}\n"}
    assert cited(files, "organized/knowledge/k.md") == [
        ("arxiv", "2610.02076", 3, 5, CARD),
        ("arxiv", "2610.09999", 3, line.rindex("arXiv") + 1, None),
    ]


def test_linked_arxiv_url_is_cited_at_its_target() -> None:
    line = "见 [LLM-as-Jev](https://arxiv.org/abs/2610.02076v2) 一文"
    files = {CARD: paper_card("2610.02076"), "organized/knowledge/k.md": f"# x\n\n{line}\n"}
    assert cited(files, "organized/knowledge/k.md") == [
        ("arxiv", "2610.02076", 3, line.index("https") + 1, CARD),
    ]


def test_owner_repo_cites_only_when_a_repo_card_names_it() -> None:
    text = "# x\n\nrecursive-oss/rec 与 some/thing 与 input/output\n"
    with_card = {REPO_CARD: repo_card("recursive-oss/rec", stars=245), "organized/knowledge/k.md": text}
    assert cited(with_card, "organized/knowledge/k.md") == [("repo", "recursive-oss/rec", 3, 1, REPO_CARD)]
    assert cited({"organized/knowledge/k.md": text}, "organized/knowledge/k.md") == []


def test_owner_repo_with_a_card_whose_frontmatter_names_another_repo_is_no_citation() -> None:
    files = {REPO_CARD: repo_card("other/rec"), "organized/knowledge/k.md": "# x\n\nrecursive-oss/rec\n"}
    assert cited(files, "organized/knowledge/k.md") == []


def test_github_url_is_a_source_with_or_without_a_card() -> None:
    text = "# x\n\nhttps://github.com/recursive-oss/rec 与 https://github.com/no/card\n"
    files = {REPO_CARD: repo_card("recursive-oss/rec"), "organized/knowledge/k.md": text}
    assert cited(files, "organized/knowledge/k.md") == [
        ("repo", "recursive-oss/rec", 3, 1, REPO_CARD),
        ("repo", "no/card", 3, 40, None),
    ]


def test_relative_link_to_a_card_cites_its_id_from_the_linking_file() -> None:
    files = {
        CARD: paper_card("2610.02076"),
        REPO_CARD: repo_card("recursive-oss/rec"),
        "organized/knowledge/sub/k.md": md("""
            # x

            见 [卡片](../../paper_cards/1695-2610-02076.md) 与 [仓库](../../repo_cards/4572-recursive-oss-rec.md#stars)
            """),
    }
    line = files["organized/knowledge/sub/k.md"].splitlines()[2]
    assert cited(files, "organized/knowledge/sub/k.md") == [
        ("arxiv", "2610.02076", 3, line.index("../../paper") + 1, CARD),
        ("repo", "recursive-oss/rec", 3, line.index("../../repo") + 1, REPO_CARD),
    ]


def test_a_link_resolved_from_the_wrong_folder_cites_nothing() -> None:
    files = {CARD: paper_card("2610.02076"), "organized/knowledge/sub/k.md": "# x\n\n[卡片](../paper_cards/1695-2610-02076.md)\n"}
    assert cited(files, "organized/knowledge/sub/k.md") == []


@pytest.mark.parametrize(
    "written",
    [
        "见 organized/paper_cards/1695-2610-02076.md 的 TLDR",
        "见 `organized/paper_cards/1695-2610-02076.md` 的 TLDR",
        "见 [卡](organized/paper_cards/1695-2610-02076.md) 的 TLDR",
    ],
)
def test_knowledge_base_paths_cite_the_card_from_the_root(written: str) -> None:
    """Bare and backticked paths resolve from the root; a linked one too when it names no file beside the link."""
    for brief in ("inbox/tom/brief.md", "inbox/tom/2026/brief.md"):
        files = {CARD: paper_card("2610.02076"), brief: f"# 增量\n\n{written}\n"}
        assert cited(files, brief) == [("arxiv", "2610.02076", 3, written.index("organized") + 1, CARD)]


def test_a_link_relative_to_the_linking_file_wins_over_the_root() -> None:
    other = "organized/knowledge/organized/paper_cards/1695-2610-02076.md"
    files = {CARD: paper_card("2610.02076"), other: "not a card\n",
             "organized/knowledge/k.md": "# x\n\n[卡](organized/paper_cards/1695-2610-02076.md)\n"}
    assert cited(files, "organized/knowledge/k.md") == []


def test_path_to_a_file_that_is_not_a_card_cites_nothing() -> None:
    files = {"inbox/jay/brief.md": "x\n", "inbox/tom/b.md": "来源 inbox/jay/brief.md\n"}
    assert cited(files, "inbox/tom/b.md") == []


def test_doi_citations_are_never_cards() -> None:
    files = {"organized/knowledge/k.md": "# x\n\nDOI 10.1145/3600006.3613165\n"}
    assert cited(files, "organized/knowledge/k.md") == [("doi", "10.1145/3600006.3613165", 3, 5, None)]


def test_old_style_card_names_resolve_both_ways() -> None:
    """Convention: `.` and `/` of an old-style id become `-` in the card's file name, lower case."""
    files = {
        "organized/paper_cards/0001-math-gt-0309136.md": paper_card("math.GT/0309136"),
        "organized/paper_cards/0002-hep-th-9901001.md": paper_card("hep-th/9901001"),
        "organized/knowledge/k.md": md("""
            # x

            arXiv:math.GT/0309136v2 与 arXiv:hep-th/9901001 与 [卡](../paper_cards/0001-math-gt-0309136.md)
            """),
    }
    assert [(k, i, p) for k, i, _l, _c, p in sorted(cited(files, "organized/knowledge/k.md"), key=lambda c: c[3])] == [
        ("arxiv", "math.gt/0309136", "organized/paper_cards/0001-math-gt-0309136.md"),
        ("arxiv", "hep-th/9901001", "organized/paper_cards/0002-hep-th-9901001.md"),
        ("arxiv", "math.gt/0309136", "organized/paper_cards/0001-math-gt-0309136.md"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://arxiv.org/abs/2610.99999：提速 3倍", [("arxiv", "2610.99999")]),
        ("https://papers.cool/arxiv/2610.37358（Jay 简报给出）、https://github.com/recursive-oss/rec》",
         [("arxiv", "2610.37358"), ("repo", "recursive-oss/rec")]),
        ("HTTPS://ARXIV.ORG/abs/2610.02076，见上", [("arxiv", "2610.02076")]),
        ("https://github.com/kiss-ski/risk—对比", [("repo", "kiss-ski/risk")]),
    ],
)
def test_a_url_ends_where_cjk_text_begins(text: str, expected: list[tuple[str, str]]) -> None:
    assert refs(text) == expected


def test_a_doi_ends_where_the_chinese_text_begins() -> None:
    found, _ = scan_prose("论文 10.1145/3458817.3476143的实验表明提升明显", ("organized",))
    assert [(kind, value) for _, kind, value, _ in found] == [("doi", "10.1145/3458817.3476143")]


def test_scanning_for_some_kinds_finds_all_of_those_and_skips_the_later_scans() -> None:
    text = ("See arXiv:2301.12345, https://github.com/openai/gpt-2 and 10.1145/3292500.3330701; "
            "notes in organized/paper_cards/1-2302-00001.md, by huggingface/transformers, "
            "and https://example.com/2303.00002 (a site, not an id).")
    everything, _ = scan_prose(text, ("organized",))
    wanted = ("arxiv", "doi", "repo")
    some, _ = scan_prose(text, ("organized",), wanted)
    assert [ref for ref in everything if ref[1] in wanted] == [ref for ref in some if ref[1] in wanted]
    assert {kind for _offset, kind, _value, _form in everything} == {"arxiv", "repo", "doi", "url", "path", "repo_name"}
    assert {kind for _offset, kind, _value, _form in some} == {"arxiv", "repo", "doi", "url"}
    assert scan_prose(text, ("organized",), ())[0] == []
