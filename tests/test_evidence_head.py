"""A note about one work names it at its head (`evidence/head.py`): each shape fires and has a near miss.

Every fixture is a guide (a note with one source) holding one unsourced
number far from its head; the head either names exactly one work, and the
number is drawn from it, or it does not, and KB005 reports the number.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kbcheck.config import Config
from kbcheck.evidence.head import one_work
from kbcheck.model.cards import frontmatter_fields
from kbcheck.model.knowledge_base import KnowledgeBase
from tests.kbtools import MemorySnapshot, found, md, run

GUIDE = "organized/guides/note.md"
LIVING = "organized/knowledge/overview.md"
BRIEF = "inbox/alice/2026-10-01.md"

BODY = """
## Method

The encoder is shared across tasks.

## Results

It improves accuracy by 4.2% on the benchmark.
"""

#: shape -> (a head that names one work, a near head that names none)
SHAPES: dict[str, tuple[str, str]] = {
    "byline (authors)": (
        "# Sparse Routing for Mixtures\n\nAuthors: A. Writer, B. Reader\n",
        "# Sparse Routing for Mixtures\n\nThe authors are well known.\n",
    ),
    "byline (a book number)": (
        "# Designing Data Systems\n\n**作者**：某某\n\nISBN: 978-7-111-11111-1\n",
        "# Designing Data Systems\n\n读这本书的一点想法\n",
    ),
    "byline (a venue, no link)": (
        "# Sparse Routing for Mixtures\n\n**会议**: ICML 2025  \n**领域**: 路由\n",
        "# Sparse Routing for Mixtures\n\n**领域**: 路由  \n**关键词**: 稀疏\n",
    ),
    "byline (a venue in a quote)": (
        "# Sparse Routing for Mixtures\n\n> 会议：EMNLP2020\n",
        "# Sparse Routing for Mixtures\n\n> 摘要：我们提出一种稀疏路由。\n",
    ),
    "byline (the paper named on a labelled line)": (
        "# Sparse Routing 阅读笔记\n\n> 论文：Sparse Routing for Mixtures of Experts\n",
        "# Sparse Routing 阅读笔记\n\n> 关键词：稀疏路由\n",
    ),
    "byline (in a first section of particulars)": (
        "# Sparse Routing for Mixtures\n\n## 基本信息\n\n**会议**: ACL 2025  \n**代码**: 无\n",
        "# Sparse Routing for Mixtures\n\n## 背景\n\n**会议**: ACL 2025\n",
    ),
    "head-link (a blockquote with venue and DOI)": (
        "# Sparse Routing for Mixtures\n\n> ICML 2025. doi:10.1145/3600006.3613165\n",
        "# Sparse Routing for Mixtures\n\n> ICML 2025. doi:10.1145/3600006.3613165 and doi:10.1145/3600006.3613166\n",
    ),
    "head-link (a line of links under the title)": (
        "# Sparse Routing for Mixtures\n[paper link](https://arxiv.org/pdf/2504.08748)\n",
        "# Sparse Routing for Mixtures\n这篇讲得不好，推荐看 [另一篇笔记](https://example.org/other)\n",
    ),
    "head-link (a labelled line)": (
        "# Sparse Routing for Mixtures\n\n**会议**: ICML 2025\n\n**arXiv**: [2504.08748](https://arxiv.org/abs/2504.08748)\n",
        "# Sparse Routing for Mixtures\n\n**arXiv**: [2504.08748](https://arxiv.org/abs/2504.08748)\n\n"
        "**Baseline**: [2411.01234](https://arxiv.org/abs/2411.01234)\n",
    ),
    "head-link (a paper's id and its project page)": (
        "# Sparse Routing for Mixtures\n\n**arXiv**: [2504.08748](https://arxiv.org/abs/2504.08748)  \n"
        "**代码**: [project](https://someone.github.io/sparse-routing)\n",
        "# Sparse Routing for Mixtures\n\n**项目**: [project](https://someone.github.io/sparse-routing)  \n"
        "**博客**: [a summary](https://example.org/blog/summary)\n",
    ),
    "head-link (a source address on the first line, above the title)": (
        "https://arxiv.org/abs/2504.08748\n\n# Sparse Routing for Mixtures\n",
        "[← 目录](../README.md)\n\n# Sparse Routing for Mixtures\n",
    ),
    "head-link (a source address over a rule, which markdown reads as a heading)": (
        "https://example.org/blog/sparse-routing\n---\n\n# Sparse Routing for Mixtures\n",
        "Notes on https://example.org/blog/sparse-routing\n---\n\n# Sparse Routing for Mixtures\n",
    ),
    "head-link (a source address over a rule, in a note with no title)": (
        "https://example.org/blog/sparse-routing\n---\n",
        "Notes on https://example.org/blog/sparse-routing\n---\n",
    ),
    "head-link (a source address in a note with no title)": (
        "<https://example.org/course/lecture-3>\n",
        "See https://example.org/course/lecture-3 for the slides, and the book for the rest.\n",
    ),
    "head-link (the paper's id and its code)": (
        "# Sparse Routing for Mixtures\n\n**arXiv**: [2504.08748](https://arxiv.org/abs/2504.08748)  \n"
        "**代码**: [GitHub](https://github.com/someone/sparse-routing)\n",
        "# Sparse Routing for Mixtures\n\n**代码**: [GitHub](https://github.com/someone/sparse-routing)  \n"
        "**Baseline**: [GitHub](https://github.com/other/dense-routing)\n",
    ),
    "head-link (the paper's page and its code)": (
        "# Sparse Routing for Mixtures\n\n**论文**: [Open Access](https://example.org/papers/sparse-routing.html)  \n"
        "**代码**: [GitHub](https://github.com/someone/sparse-routing)\n",
        "# Sparse Routing for Mixtures\n\n**论文**: [Open Access](https://example.org/papers/sparse-routing.html)  \n"
        "**博客**: [a summary](https://example.org/blog/summary)\n",
    ),
    "source-line (anywhere on the page)": (
        "# Sparse Routing for Mixtures\n\n## Notes\n\n主要来源：[the course](https://example.org/course)\n",
        "# Sparse Routing for Mixtures\n\n## Notes\n\n主要来源：[one](https://example.org/a)，[two](https://example.org/b)\n",
    ),
}


def _guide(head: str, front: str = "") -> dict[str, str | bytes]:
    # the body's sections are the title's peers when it is a level-1 heading: only its head can help
    body = BODY.replace("## ", "# ") if head.startswith("# ") else BODY
    return {GUIDE: front + head + body}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_head_that_names_one_work_is_the_source_of_the_numbers(shape: str) -> None:
    names, _near = SHAPES[shape]
    assert found(run(_guide(names), select={"KB005"})) == []


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_near_head_names_no_work(shape: str) -> None:
    _names, near = SHAPES[shape]
    findings = found(run(_guide(near), select={"KB005"}))
    assert [(rule, path, subject) for rule, path, _line, subject in findings] == [("KB005", GUIDE, "4.2%")]


@pytest.mark.parametrize(("head", "subjects"), [
    # two addresses name two works, as two address lines do
    ("https://example.org/a\n---\n\nNotes.\n\nhttps://example.org/b\n---\n\nNotes.\n", ["4.2%"]),
    # a claim under the address is the note's body, not its head: its own section's link backs it alone
    ("https://example.org/a\n---\n\nIt cuts memory by 3.1%.\n", ["4.2%"]),
])
def test_address_headings_are_read_as_address_lines(head: str, subjects: list[str]) -> None:
    assert [f[3] for f in found(run(_guide(head), select={"KB005"}))] == subjects
    plain = head.replace("\n---\n", "\n")
    assert [f[3] for f in found(run(_guide(plain), select={"KB005"}))] == subjects


def test_front_source_names_the_work() -> None:
    front = "---\ntitle: Reading notes\nresource: sparse-routing.pdf\n---\n"
    assert found(run(_guide("## Summary\n", front), select={"KB005"})) == []
    plain = "---\ntitle: Reading notes\ntags: [moe]\n---\n"
    assert [f[3] for f in found(run(_guide("## Summary\n", plain), select={"KB005"}))] == ["4.2%"]


@pytest.mark.parametrize("key", ["authors: [A. Writer]", "venue: ICML 2025", "journal: Nature", "期刊: 计算机学报"])
def test_a_frontmatter_title_beside_a_work_particular_names_the_work(key: str) -> None:
    front = f"---\ntitle: Sparse Routing for Mixtures\n{key}\n---\n"
    assert found(run(_guide("## Summary\n", front), select={"KB005"})) == []


@pytest.mark.parametrize("key", ["published: true", "tags: [moe]", "领域: 路由"])
def test_a_frontmatter_title_beside_other_keys_names_no_work(key: str) -> None:
    front = f"---\ntitle: Sparse Routing for Mixtures\n{key}\n---\n"
    assert [f[3] for f in found(run(_guide("## Summary\n", front), select={"KB005"}))] == ["4.2%"]


@pytest.mark.parametrize("path", [LIVING, BRIEF])
def test_a_living_document_or_brief_is_no_note_about_one_work(path: str) -> None:
    """A list of inputs (here, one) at the top of a page that discusses sources is no source below it."""
    head = "# Sparse Routing for Mixtures\n[paper link](https://arxiv.org/pdf/2504.08748)\n\n## Overview\n\nOverview text.\n"
    text = head + BODY.replace("## ", "# ", 1)
    findings = found(run({path: text}, select={"KB005"}))
    assert [(p, subject) for _r, p, _l, subject in findings] == [(path, "4.2%")]


def test_a_list_of_linked_headings_is_no_title() -> None:
    text = md("""
        ### [Paper one](https://example.org/one)

        First summary.

        ### [Paper two](https://example.org/two)

        It improves accuracy by 4.2% on the benchmark.
        """)
    kb = KnowledgeBase(MemorySnapshot({GUIDE: text}), Config())  # type: ignore[arg-type]
    doc = kb.document(GUIDE)
    assert doc is not None
    assert one_work(doc, kb.resolve(GUIDE)).shapes == ()
    # the number has its own heading's link as its source, not the first paper
    assert found(run({GUIDE: text}, select={"KB005"})) == []


def test_the_shapes_are_reported() -> None:
    text = "# Sparse Routing for Mixtures\n\nAuthors: A. Writer\n\n> doi:10.1145/3600006.3613165\n" + BODY
    kb = KnowledgeBase(MemorySnapshot({GUIDE: text}), Config())  # type: ignore[arg-type]
    doc = kb.document(GUIDE)
    assert doc is not None
    head = one_work(doc, kb.resolve(GUIDE), frontmatter_fields(text)[0])
    assert head.shapes == ("byline", "head-link")
    assert [(c.kind, c.id) for c in head.citations] == [("doi", "10.1145/3600006.3613165")]


@pytest.mark.parametrize(("name", "title"), [
    ("2023 Sparse Routing for Mixtures.md", "Sparse Routing for Mixtures"),
    ("1953-equation-of-state-calculations.md", "Equation of State Calculations"),
    ("sparse-routing-for-mixtures-of-experts-2023.md", "Sparse Routing for Mixtures of Experts"),
    ("2024 稀疏路由的混合专家.md", "稀疏路由的混合专家"),
    # a generator cut the name short
    ("2023-sparse-routing-for-mixtures-of-expe.md", "Sparse Routing for Mixtures of Experts at Scale"),
])
def test_a_note_filed_under_its_title_and_year_names_the_work(name: str, title: str) -> None:
    """`file-name`: named as a bibliography files a work, the title is the work's, even with peers."""
    path = f"organized/guides/{name}"
    assert found(run({path: f"# {title}\n" + BODY.replace("## ", "# ")}, select={"KB005"})) == []


@pytest.mark.parametrize(("name", "title"), [
    ("2024-05-01-sparse-routing-for-mixtures.md", "Sparse Routing for Mixtures"),  # a dated diary entry
    ("2023 reading notes.md", "Sparse Routing for Mixtures"),  # named after something else
    ("sparse-routing-for-mixtures.md", "Sparse Routing for Mixtures"),  # no year
    ("notes-2024.md", "Notes"),  # a topic, not a work's title
])
def test_a_note_not_filed_under_its_title_and_year_names_no_work(name: str, title: str) -> None:
    path = f"organized/guides/{name}"
    findings = found(run({path: f"# {title}\n" + BODY.replace("## ", "# ")}, select={"KB005"}))
    assert [(p, subject) for _r, p, _l, subject in findings] == [(path, "4.2%")]


ONE_WORK = Config(one_work_notes=("organized/guides/**",))
TITLE_ONLY = "# Masked Routers Are Scalable Learners\n" + BODY.replace("## ", "# ")


def test_a_title_names_the_work_where_the_notes_are_each_about_one() -> None:
    """`one-work-notes`: the configuration says so; the title is then the work, even with peers."""
    assert found(run({GUIDE: TITLE_ONLY}, config=ONE_WORK, select={"KB005"})) == []
    kb = KnowledgeBase(MemorySnapshot({GUIDE: TITLE_ONLY}), ONE_WORK)  # type: ignore[arg-type]
    doc = kb.document(GUIDE)
    assert doc is not None
    head = one_work(doc, kb.resolve(GUIDE), path=GUIDE, titled=True)
    assert head.shapes == ("one-work-notes",)
    assert [(x.kind, x.target) for x in head.links] == [("work", "Masked Routers Are Scalable Learners")]


@pytest.mark.parametrize(("text", "config"), [
    (TITLE_ONLY, Config()),  # not said: a title alone names no work
    (TITLE_ONLY, Config(one_work_notes=("organized/other/**",))),  # said of other notes
    # a head that links two works names none, whatever the configuration says
    ("# Masked Routers\n\n[one](https://example.org/a) [two](https://example.org/b)\n" + BODY.replace("## ", "# "),
     ONE_WORK),
    (BODY, ONE_WORK),  # no heading before the number's own section names anything: a claim stands first
])
def test_a_title_names_no_work_elsewhere(text: str, config: Config) -> None:
    findings = found(run({GUIDE: text}, config=config, select={"KB005"}))
    assert [(p, subject) for _r, p, _l, subject in findings] == [(GUIDE, "4.2%")]


NAMED_GUIDE = "organized/guides/12 - Context Switching in Kernels.md"


def test_a_note_without_a_title_heading_is_titled_by_its_file_name_where_notes_are_about_one_work() -> None:
    """An Obsidian note has no `# Title`: its file name is its title, and in `one-work-notes` it names the work."""
    assert found(run({NAMED_GUIDE: BODY}, config=ONE_WORK, select={"KB005"})) == []
    kb = KnowledgeBase(MemorySnapshot({NAMED_GUIDE: BODY}), ONE_WORK)  # type: ignore[arg-type]
    doc = kb.document(NAMED_GUIDE)
    assert doc is not None
    head = one_work(doc, kb.resolve(NAMED_GUIDE), path=NAMED_GUIDE, titled=True)
    assert [(x.kind, x.target) for x in head.links] == [("work", "12 - Context Switching in Kernels")]


def test_a_level_1_heading_after_others_is_a_section_not_the_title() -> None:
    """`# Tags` at the end of an Obsidian note is a section: the file name is still the note's title."""
    tagged = BODY + "\n# Tags\n\n- #kernels\n"
    assert found(run({NAMED_GUIDE: tagged}, config=ONE_WORK, select={"KB005"})) == []
    # where the configuration does not say the notes are about one work, the file name names none
    findings = found(run({NAMED_GUIDE: tagged}, config=Config(), select={"KB005"}))
    assert [(p, subject) for _r, p, _l, subject in findings] == [(NAMED_GUIDE, "4.2%")]


@pytest.mark.parametrize(("path", "text", "config"), [
    (NAMED_GUIDE, BODY, Config()),  # not said of these notes: a file name names no work
    ("organized/guides/notes.md", BODY, ONE_WORK),  # a file name of one word is no title
])
def test_a_file_name_names_no_work_elsewhere(path: str, text: str, config: Config) -> None:
    findings = found(run({path: text}, config=config, select={"KB005"}))
    assert [(p, subject) for _r, p, _l, subject in findings] == [(path, "4.2%")]


BIBTEX = "\n### Bibtex:\n\n```latex\n@article{{huang2015new,\n  title={{A New Method for Sharpening}},\n  author={{Huang, Wei}},\n}}\n{more}```\n"


def test_a_note_with_one_bibtex_entry_names_that_work() -> None:
    """A BibTeX entry names a work as a bibliography does: a note with one is about that work."""
    text = "### Paper:\n\nA New Method for Sharpening\n" + BODY + BIBTEX.format(more="")
    assert found(run({GUIDE: text}, select={"KB005"})) == []
    kb = KnowledgeBase(MemorySnapshot({GUIDE: text}), Config())  # type: ignore[arg-type]
    doc = kb.document(GUIDE)
    assert doc is not None and doc.work == "A New Method for Sharpening"


@pytest.mark.parametrize(("path", "more"), [
    (GUIDE, "@inproceedings{other2020,\n  title={Another Work},\n}\n"),  # two entries: a reference list
    (LIVING, ""),  # a living document draws on many works, whatever it names at its top
])
def test_bibtex_names_no_work_when_there_are_several_or_in_a_living_document(path: str, more: str) -> None:
    text = "### Paper:\n\nA New Method for Sharpening\n" + BODY + BIBTEX.format(more=more) + "\n```\nmail me @ home\n```\n"
    findings = found(run({path: text}, select={"KB005"}))
    assert [(p, subject) for _r, p, _l, subject in findings] == [(path, "4.2%")]


@pytest.mark.parametrize("cited", [
    "Dropout cuts the error by 4.2% (Hinton et al., 2012).",
    "Srivastava et al. (2014) report that dropout cuts the error by 4.2%.",
    "As Emer and Clark (1984) measured, dropout cuts the error by 4.2%.",
    "Dropout cuts the error by 4.2% (Liu, 2019).",
    "Hinton 等人（2012）报告 dropout 让误差下降 4.2%。",
])
def test_an_author_date_citation_is_a_source(cited: str) -> None:
    """Academic prose cites a work by its authors and year; the section beside it still needs its own."""
    text = f"# Dropout notes\n\n## Cited\n\n{cited}\n\n## Ours\n\nOur dropout cuts the error by 1.5%.\n"
    findings = found(run({LIVING: text}, select={"KB005"}))
    assert [(p, subject) for _r, p, _l, subject in findings] == [(LIVING, "1.5%")]


@pytest.mark.parametrize("uncited", [
    "Sales rose by 4.2% (March, 2024).",
    "GPT-3 (2020) scores 4.2% higher.",
    "Smith and colleagues found that dropout cuts the error by 4.2%.",
])
def test_a_date_a_model_year_or_an_unnamed_team_is_no_citation(uncited: str) -> None:
    assert _unsourced(uncited) == ["4.2%"]


def _unsourced(lines: str) -> list[str]:
    """The numbers KB005 reports in a living document whose one section holds `lines`."""
    text = f"# Notes\n\n## Section\n\n{lines}\n"
    return [subject for _r, _path, _l, subject in found(run({LIVING: text}, select={"KB005"}))]


@pytest.mark.parametrize("reported", [
    "- Emer and Clark 发现 20% 的指令占了 80% 的执行时间。",
    "Ren 等人表明，微调让准确率提高 3.5%。",
    "Emer and Clark found that 20% of the instructions take 80% of the time.",
])
def test_named_authors_reporting_a_finding_back_their_own_block(reported: str) -> None:
    """`named-authors`: `Emer and Clark 发现 …` names whose finding the number is, without a year."""
    assert _unsourced(reported) == []


@pytest.mark.parametrize(("text", "subject"), [
    # the named authors back their own list item, not the next one in the section
    ("- Emer and Clark 发现 20% 的指令占了 80% 的执行时间。\n- DEC 工程师表明，RISC 的速度是 CISC 的 4x。\n", "4x"),
    # a present-tense description of two parts reports nobody's finding
    ("Encoder and Decoder show a 2x speed-up over the baseline.\n", "2x"),
])
def test_named_authors_back_no_other_block_and_a_description_is_no_report(text: str, subject: str) -> None:
    assert _unsourced(text) == [subject]


def test_one_work_notes_is_read_from_the_configuration(tmp_path: Path) -> None:
    from kbcheck.config import load_config

    (tmp_path / ".kbcheck.toml").write_text('one-work-notes = ["notes/**"]\n', encoding="utf-8")
    assert load_config(tmp_path).one_work_notes == ("notes/**",)


POINT_SOURCE = "## Background\n\n- The file format: columnar.\n  References: [the format's docs](https://example.org/format)\n"


def test_a_source_line_under_one_point_leaves_the_work_the_head_names() -> None:
    """A note that opens with its post's address and cites a reference for one point further down
    is still about the post: the `References:` line is the source of its own point."""
    head = "https://example.org/blog/sparse-routing\n\nA summary of the post.\n\n" + POINT_SOURCE
    assert found(run(_guide(head), select={"KB005"})) == []
    kb = KnowledgeBase(MemorySnapshot({GUIDE: head + BODY}), Config())  # type: ignore[arg-type]
    doc = kb.document(GUIDE)
    assert doc is not None
    assert one_work(doc, kb.resolve(GUIDE)).shapes == ("head-link",)


def test_a_source_line_still_counts_against_a_head_that_names_several_works() -> None:
    head = ("https://example.org/blog/sparse-routing\n\nhttps://example.org/blog/dense-routing\n\n"
            "Two posts compared.\n\n" + POINT_SOURCE)
    assert [f[3] for f in found(run(_guide(head), select={"KB005"}))] == ["4.2%"]
