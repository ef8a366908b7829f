"""KB002 cited-but-absent: a reference-list id with no mention in the document's body."""

from __future__ import annotations

import pytest
from kbtools import md, paper_card, repo_card, run

from kbcheck.config import config_from_mapping
from kbcheck.findings import Report

DOC = "organized/knowledge/inference.md"
CARDS: dict[str, str | bytes] = {
    "organized/paper_cards/1695-2610-02076.md": paper_card("2610.02076"),
    "organized/paper_cards/1700-2610-11959.md": paper_card("2610.11959"),
    "organized/repo_cards/4572-recursive-oss-rec.md": repo_card("recursive-oss/rec", stars=245),
}


def kb002(doc: str, path: str = DOC, config_keys: dict[str, object] | None = None, **extra: str) -> Report:
    config = config_from_mapping(config_keys, "test") if config_keys else None
    files = {**CARDS, path: md(doc), **extra}
    return run(files, paths=[path], select={"KB002"}, config=config)


def where(report: Report) -> list[tuple[str, int, int, str]]:
    return [(f.path, f.line, f.column, f.subject) for f in report.findings if f.rule == "KB002"]


def test_fires_for_a_reference_never_mentioned_in_the_body() -> None:
    report = kb002("""
        # inference

        ## §3.5 RL rollout

        MiMo-V2.6（arXiv:2610.11959）的统一轨迹表示。

        ## §七 引用列表

        - arXiv:2610.02076 — LLM-as-Jev
        - arXiv:2610.11959 — MiMo-V2.6
        """)
    assert where(report) == [(DOC, 9, 3, "2610.02076")]
    [finding] = report.findings
    assert (finding.name, finding.severity) == ("cited-but-absent", "warning")
    assert finding.message == (
        "2610.02076 is in the reference list but never mentioned in the body; write its entry or drop the reference"
    )


def test_one_finding_per_id_at_its_first_reference_entry() -> None:
    report = kb002("""
        ## §七 引用列表

        - arXiv:2610.02076 — LLM-as-Jev
        - https://arxiv.org/abs/2610.02076v2 (duplicate entry)
        """)
    assert where(report) == [(DOC, 3, 3, "2610.02076")]


@pytest.mark.parametrize(
    "mention",
    [
        "LLM-as-Jev（arXiv:2610.02076v3）",
        "LLM-as-Jev https://arxiv.org/pdf/2610.02076.pdf",
        "LLM-as-Jev 2610.02076",
        "[LLM-as-Jev](../paper_cards/1695-2610-02076.md)",
        "`organized/paper_cards/1695-2610-02076.md`",
        "“arXiv:2610.02076” 被另一份简报引用",
    ],
)
def test_any_form_of_body_mention_counts(mention: str) -> None:
    report = kb002(f"## §3.1 路由\n\n{mention}\n\n## §七 引用列表\n\n- arXiv:2610.02076\n")
    assert where(report) == []


@pytest.mark.parametrize("meta", ["§6.1 开放问题", "§6.2 趋势"])
def test_meta_mentions_count_as_body_mentions(meta: str) -> None:
    report = kb002(f"## {meta}\n\n- 悬而未决（arXiv:2610.02076）\n\n## §七 引用列表\n\n- arXiv:2610.02076\n")
    assert where(report) == []


def test_a_reference_list_before_the_body_still_looks_at_the_whole_document() -> None:
    report = kb002("## §七 引用列表\n\n- arXiv:2610.02076\n\n## 附录\n\nLLM-as-Jev arXiv:2610.02076\n")
    assert where(report) == []


def test_a_mention_in_code_or_in_another_document_does_not_count() -> None:
    report = kb002(
        "## §3.1 路由\n\n`arXiv:2610.02076`\n\n## §七 引用列表\n\n- arXiv:2610.02076\n",
        **{"organized/knowledge/other.md": "## §3.1\n\narXiv:2610.02076\n"},
    )
    assert where(report) == [(DOC, 7, 3, "2610.02076")]


def test_paragraphs_of_the_reference_section_are_neither_entries_nor_body() -> None:
    report = kb002("""
        ## §七 引用列表

        本节收录 arXiv:2610.02076 等论文。

        - arXiv:2610.11959
        """)
    assert where(report) == [(DOC, 5, 3, "2610.11959")]


def test_dois_are_compared() -> None:
    report = kb002("## §七 References\n\n- DOI 10.1145/3600006.3613165\n- https://doi.org/10.1000/ABC\n\n"
                   "## §8\n\n见 10.1000/abc\n")
    assert where(report) == [(DOC, 3, 7, "10.1145/3600006.3613165")]


def test_repos_are_compared_only_when_reference_kinds_names_them() -> None:
    doc = "## §七 引用列表\n\n- https://github.com/recursive-oss/rec\n- recursive-oss/rec\n- https://github.com/no/card\n"
    assert where(kb002(doc)) == []
    report = kb002(doc, config_keys={"reference-kinds": ["arxiv", "doi", "repo"]})
    assert where(report) == [(DOC, 3, 3, "recursive-oss/rec"), (DOC, 5, 3, "no/card")]


def test_documents_without_a_reference_section_and_other_kinds_are_silent() -> None:
    assert where(kb002("## §3.1\n\n- arXiv:2610.02076\n")) == []
    brief = "## §七 引用列表\n\n- arXiv:2610.02076\n"
    assert where(kb002(brief, path="inbox/tom/2026-10-29-brief.md")) == []
    assert where(kb002(brief, path="organized/guides/g.md")) == []


def test_sub_sections_of_the_reference_section_hold_reference_entries() -> None:
    report = kb002("## §七 引用列表\n\n### 论文\n\n- arXiv:2610.02076\n\n### 仓库\n\n- https://github.com/a/b\n")
    assert where(report) == [(DOC, 5, 3, "2610.02076")]


def test_table_rows_of_the_reference_section_are_entries() -> None:
    report = kb002("## 参考文献\n\n| id | 标题 |\n|---|---|\n| arXiv:2610.02076 | LLM-as-Jev |\n")
    assert where(report) == [(DOC, 5, 3, "2610.02076")]


def test_inline_disable_and_disable_file() -> None:
    doc = "## §七 引用列表\n\n<!-- kbcheck: disable=KB002 -->\n- arXiv:2610.02076\n- arXiv:2610.11959\n"
    report = kb002(doc)
    assert where(report) == [(DOC, 5, 3, "2610.11959")]
    assert report.suppressed == 1
    report = kb002("<!-- kbcheck: disable-file=KB002,KB003 -->\n" + doc)
    assert where(report) == []
    assert report.suppressed == 2


# -- a navigation index is no bibliography ---------------------------------------------------------
NOTES = {
    "organized/guides/specbound.md": "# SpecBound: Fixed-Budget Speculative Decoding (arXiv:2610.08815)\n\n正文。\n",
    "organized/guides/mimo.md": "---\ntitle: MiMo-V2.6\narxiv: 2610.11959\n---\n\n# MiMo-V2.6\n",
}
INDEX = md("""
    # 论文索引

    按主题整理的论文笔记。

    ## Paper References

    ### 推理

    1. [Fixed budgets](../guides/specbound.md)
    2. [[mimo]]
    """)


def test_a_navigation_index_of_the_notes_is_not_a_bibliography() -> None:
    assert where(kb002(INDEX, **NOTES)) == []
    assert where(kb002(INDEX + "\n## 目录\n\n- [SpecBound 笔记](../guides/specbound.md)\n", **NOTES)) == []


@pytest.mark.parametrize(
    "added",
    [
        "\n## 小结\n\n两篇都讲预算。\n",  # a body paragraph: the list is the page's bibliography
        "\n## 要点\n\n- 草稿预算按请求调度\n",  # a body item that links no note
    ],
)
def test_the_same_list_under_a_body_is_a_bibliography(added: str) -> None:
    report = kb002(INDEX + added, **NOTES)
    assert where(report) == [(DOC, 9, 20, "2610.08815"), (DOC, 10, 4, "2610.11959")]


@pytest.mark.parametrize(
    "entry",
    [
        "2. [[mimo]] arXiv:2610.11959",  # the entry writes the id itself
        "2. [MiMo-V2.6](https://arxiv.org/abs/2610.11959)",  # a web address of the work
        "2. [卡片](../paper_cards/1700-2610-11959.md)",  # a card
    ],
)
def test_an_entry_that_cites_the_work_itself_makes_the_list_a_bibliography(entry: str) -> None:
    report = kb002(INDEX.replace("2. [[mimo]]", entry), **NOTES)
    assert [subject for *_, subject in where(report)] == ["2610.08815", "2610.11959"]


def test_a_navigation_index_gets_no_kb003_either() -> None:
    text = INDEX.replace("按主题整理的论文笔记。", "按主题整理的论文笔记，另见 arXiv:2610.02076。")
    report = run({**CARDS, DOC: md(text), **NOTES}, paths=[DOC], select={"KB003"})
    assert report.findings == ()
    report = run({**CARDS, DOC: md(text + "\n## 小结\n\n两篇都讲预算。\n"), **NOTES}, paths=[DOC], select={"KB003"})
    assert [f.subject for f in report.findings] == ["2610.02076"]
