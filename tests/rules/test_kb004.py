"""KB004 unknown-paper: an arXiv id cited with no paper card (error in briefs, warning elsewhere)."""

from __future__ import annotations

import pytest
from kbtools import paper_card, run

from kbcheck.findings import Report

CARDS: dict[str, str | bytes] = {
    "organized/paper_cards/1695-2610-02076.md": paper_card("2610.02076"),
    "organized/paper_cards/1775-2610-12307.md": paper_card("2610.12307"),
    "organized/paper_cards/0001-hep-th-9901001.md": paper_card("hep-th/9901001"),
}
BRIEF = "inbox/tom/2026-10-29-inference-e1prep.md"


def kb004(path: str, text: str | bytes) -> Report:
    return run({**CARDS, path: text}, paths=[path], select={"KB004"})


def where(report: Report) -> list[tuple[str, str, int, int, str]]:
    return [(f.severity, f.path, f.line, f.column, f.subject) for f in report.findings if f.rule == "KB004"]


def test_error_in_a_brief_with_the_nearest_card_suggested() -> None:
    report = kb004(BRIEF, "# 增量\n\n结论见 arXiv:2610.02067。\n")
    assert where(report) == [("error", BRIEF, 3, 5, "2610.02067")]
    assert report.findings[0].message == (
        "arXiv:2610.02067 has no paper card in the knowledge base; "
        "did you mean 2610.02076 (organized/paper_cards/1695-2610-02076.md)?"
    )
    assert report.findings[0].name == "unknown-paper"


@pytest.mark.parametrize(
    "path",
    ["organized/knowledge/inference.md", "organized/guides/g.md", "README.md", "docs/notes.markdown",
     "organized/paper_cards/1800-2610-11111.md"],
)
def test_warning_everywhere_else(path: str) -> None:
    text = "---\narxiv: \"2610.11111\"\ntitle: t\n---\n见 arXiv:2610.02067\n" if "paper_cards" in path else "见 arXiv:2610.02067\n"
    report = kb004(path, text)
    assert [(sev, subject) for sev, _p, _l, _c, subject in where(report)] == [("warning", "2610.02067")]


def test_no_suggestion_when_nothing_is_near() -> None:
    report = kb004(BRIEF, "见 arXiv:1605.08803\n")
    assert report.findings[0].message == "arXiv:1605.08803 has no paper card in the knowledge base"


def test_one_finding_per_id_per_file_at_its_first_mention() -> None:
    text = "# x\n\n- 2610.37358\n- arXiv:2610.37358v2 again\n- https://papers.cool/arxiv/2610.37358\n- arXiv:2610.99999\n"
    report = kb004(BRIEF, text)
    assert where(report) == [("error", BRIEF, 3, 3, "2610.37358"), ("error", BRIEF, 6, 3, "2610.99999")]


@pytest.mark.parametrize(
    "cited",
    [
        "arXiv:2610.37358",
        "arxiv: 2610.37358v2",
        "2610.37358",
        "https://arxiv.org/abs/2610.37358",
        "https://arxiv.org/pdf/2610.37358v1.pdf",
        "https://papers.cool/arxiv/2610.37358",
        "[论文](https://arxiv.org/abs/2610.37358)",
        "“arXiv:2610.37358”",
    ],
)
def test_every_arxiv_form_fires(cited: str) -> None:
    assert [s for *_, s in where(kb004(BRIEF, f"来源 {cited}\n"))] == ["2610.37358"]


@pytest.mark.parametrize(
    "cited",
    [
        "arXiv:2610.02076v2",
        "https://arxiv.org/abs/2610.12307",
        "arXiv:hep-th/9901001v3",
        "DOI 10.1145/3600006.3613165",  # DOIs need no card
        "https://github.com/recursive-oss/rec",
        "`arXiv:2610.37358`",  # code is not prose
        "1999.12345",  # not an id
        "![](https://arxiv.org/html/2402.09360v1/extracted/x.png)",
    ],
)
def test_silent_for_known_ids_and_non_ids(cited: str) -> None:
    assert where(kb004(BRIEF, f"来源 {cited}\n")) == []


def test_json_and_other_files_are_not_read() -> None:
    assert where(kb004("organized/indexes/work-guard/list.json", '{"arxiv": "arXiv:2610.37358"}')) == []
    assert where(kb004("notes.txt", "arXiv:2610.37358")) == []


def test_the_card_of_an_unknown_id_is_looked_up_by_file_name() -> None:
    # a card whose file name does not follow the convention is not found (KB008 reports the name)
    files = {**CARDS, "organized/paper_cards/llm-as-jev.md": paper_card("2610.37358"), BRIEF: "arXiv:2610.37358\n"}
    report = run(files, paths=[BRIEF], select={"KB004"})
    assert [f.subject for f in report.findings] == ["2610.37358"]


def test_inline_disable() -> None:
    report = kb004(BRIEF, "<!-- kbcheck: disable=KB004 -->\n见 arXiv:2610.37358\n\n见 arXiv:2610.99999\n")
    assert [s for *_, s in where(report)] == ["2610.99999"]
    assert report.suppressed == 1
