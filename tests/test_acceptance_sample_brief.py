"""Acceptance: the situation of the sample brief, re-created, and the brief itself.

`tests/fixtures/sample_brief_kb/` is the knowledge base the sample brief
(`tests/fixtures/sample-brief.zh.md`, a hand-written brief) was written
against: the living document `organized/knowledge/inference.md` with the gaps
the brief lists under its warnings, and the cards it cites holding the values
it states. The brief's own text is copied in at test time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from kbtools import run

from kbcheck.config import Config
from kbcheck.findings import Report
from kbcheck.model.document import HeadingPatterns, parse_document

HERE = Path(__file__).resolve().parent
KB = HERE / "fixtures" / "sample_brief_kb"
SAMPLE = HERE / "fixtures" / "sample-brief.zh.md"
LIVING = "organized/knowledge/inference.md"
TOM = "inbox/tom/2026-10-29-inference-e1prep.md"
JAY = "inbox/jay/2026-10-29-1105-engineering-brief.md"
REC = "organized/repo_cards/4572-recursive-oss-rec.md"
INTERNALS = "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md"

#: the brief's section titles, each on a line of its own (增量 N, 复查项, warnings, ids, actions, boundary)
TITLES = re.compile(r"^(?=增量 \d：|复查项（|值得警惕的矛盾 / |可引用的 arXiv 号列表$|今晚建议的归并动作|证据边界与未消费声明$)", re.M)


def knowledge_base() -> dict[str, str | bytes]:
    return {p.relative_to(KB).as_posix(): p.read_bytes() for p in sorted(KB.rglob("*")) if p.is_file()}


def sample_brief() -> str:
    return SAMPLE.read_text(encoding="utf-8")


def with_headings(brief: str) -> str:
    """The brief with its title line a `#` heading and its section titles `##` headings."""
    return "# " + TITLES.sub("## ", brief)


def line_of(text: str, fragment: str) -> int:
    [number] = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    return number


def rows(report: Report, path: str | None = None) -> list[tuple[str, str, int, str]]:
    return [(f.rule, f.severity, f.line, f.subject) for f in report.findings if path is None or f.path == path]


# -- the living document: the gaps the brief lists -------------------------------------------------


def test_the_living_document_gaps_the_brief_lists() -> None:
    report = run(knowledge_base(), paths=[LIVING])
    living = (KB / LIVING).read_text(encoding="utf-8")
    assert rows(report) == [
        # "活文档 §1.6 已以"本轮复采 243⭐ / 周增 +14"收录" while the rec card now says 245: one stale number
        ("KB006", "warning", line_of(living, "243⭐"), "243⭐"),
        # "两处 §6.2 趋势行处于无源状态：'二次检索是否触发'与'图像 token 预算'": exactly two
        ("KB001", "error", line_of(living, "二次检索是否触发"), '二次检索是否触发…都变成"按收益付费"的决策问题'),
        ("KB001", "error", line_of(living, "图像 token 预算"), "图像 token 预算：从固定粒度走向内容自适应"),
        # "arXiv:2610.02076 已在 §七引用列表中，但正文 0 处提及": exactly one KB002 for it
        ("KB002", "warning", line_of(living, "- arXiv:2610.02076"), "2610.02076"),
        # "2610.37358 已在 §七引用列表 … 正文也无对应条目" (its trend line carries no id)
        ("KB002", "warning", line_of(living, "- arXiv:2610.37358"), "2610.37358"),
        # Real NVP: "维持不入正文，仅留在 §七引用列表" — the brief accepts this gap knowingly
        ("KB002", "warning", line_of(living, "- arXiv:1605.08803"), "1605.08803"),
    ]
    stale = report.findings[0]
    assert stale.message == f"243⭐ is stale: {REC} now says stars: 245"
    # BudgetPix (2610.12307) is mentioned in §6.1 第 30 条 only: a meta mention, so no KB002
    assert all(f.subject != "2610.12307" for f in report.findings)


def test_the_stale_number_goes_once_the_living_document_says_245() -> None:
    files = knowledge_base()
    files[LIVING] = (KB / LIVING).read_text(encoding="utf-8").replace("243⭐", "245⭐")
    assert [r[0] for r in rows(run(files, paths=[LIVING]))] == ["KB001", "KB001", "KB002", "KB002", "KB002"]


def test_a_brief_citing_an_arxiv_id_without_a_card_is_an_error() -> None:
    report = run(knowledge_base(), paths=[JAY])
    jay = (KB / JAY).read_text(encoding="utf-8")
    assert rows(report) == [("KB004", "error", line_of(jay, "2610.37385"), "2610.37385")]
    assert report.findings[0].message == (
        "arXiv:2610.37385 has no paper card in the knowledge base; "
        "did you mean 2610.37358 (organized/paper_cards/1700-2610-37358.md)?"
    )


# -- the sample brief itself ------------------------------------------------------------------------


def test_the_sample_brief_as_written_reports_only_its_one_unsourced_line() -> None:
    """As written, the brief's warning lines are one markdown paragraph: that paragraph cites the two
    paper cards 2610.02076 and 2610.37358, the nearest level with a source (docs/rules.md, KB005), and
    neither holds llm-internals' 1771 stars or its weekly growth. The same true positive as with headings
    (below); everything else the brief states passes."""
    brief = sample_brief()
    report = run({**knowledge_base(), TOM: brief}, paths=[TOM])
    line = line_of(brief, "repo 卡片统计口径")
    assert rows(report) == [
        ("KB005", "warning", line, "1771⭐"),
        ("KB005", "warning", line, "周增 +0"),
    ]
    assert report.findings[0].message.startswith("1771⭐ is not found in the cited cards organized/paper_cards/1695-2610-02076.md")


def test_the_sample_briefs_numbers_are_read_and_its_quotes_and_counts_are_not() -> None:
    """Guards the test above against passing for nothing: the claims are there, the non-claims are not."""
    config = Config()
    patterns = HeadingPatterns(config.reference_heading, config.trend_heading, config.open_question_heading)
    doc = parse_document(sample_brief(), patterns, uncertainty_markers=config.uncertainty_markers)
    written = [claim.text for block in doc.blocks for claim in block.claims]
    for claim in ("被引 19", "影响力被引 2", "1771⭐", "周增 +0", "294⭐", "周增 +12", "589⭐", "周增 +26",
                  "245⭐", "周增 +14", "被引 4768", "影响力被引 738", "被引 1", "影响力被引 0"):
        assert claim in written, claim
    assert "243⭐" not in written  # "本轮复采 243⭐ / 周增 +14" is quoted
    joined = " ".join(written)
    for count in ("536", "185", "28", "60", "30", "8"):
        assert not re.search(rf"(?<![\d.]){count}(?![\d.])", joined), count


def test_the_sample_brief_with_headings_reports_only_its_one_unsourced_line() -> None:
    brief = with_headings(sample_brief())
    assert sum(1 for line in brief.splitlines() if line.startswith("#")) == 10
    report = run({**knowledge_base(), TOM: brief}, paths=[TOM])
    line = line_of(brief, "repo 卡片统计口径")
    # True positive. In "值得警惕的矛盾 / 待核实清单" the line "⚠ repo 卡片统计口径：llm-internals
    # 1771⭐ / 周增 +0 与兄弟仓 +26 / +12 的对比 …" restates llm-internals' numbers, but its block and
    # section cite only the two paper cards 2610.02076 and 2610.37358, and neither holds 1771 or 0:
    # the repo card is cited under 增量 2, not here. Naming the repo (amitshekhariitbhu/llm-internals)
    # or its card in that line would source it. The "+26 / +12" have no claim word: a sign alone is
    # no claim, so they are not reported.
    assert rows(report) == [
        ("KB005", "warning", line, "1771⭐"),
        ("KB005", "warning", line, "周增 +0"),
    ]
    text = brief.splitlines()[line - 1]
    assert [f.column for f in report.findings] == [text.index("1771⭐") + 1, text.index("周增 +0") + 1]
    assert report.findings[0].message.startswith("1771⭐ is not found in the cited cards organized/paper_cards/1695-2610-02076.md")
    # nothing about the quoted 243⭐ or the counts (536 条, 8 项材料, 185 张, 60 条, 28 节)
    assert all(f.rule != "KB006" for f in report.findings)


@pytest.mark.parametrize("headings", [False, True], ids=["as-written", "with-headings"])
def test_a_card_that_moved_on_is_noticed_in_the_brief(headings: bool) -> None:
    """Control: when the llm-internals card says 1772, the brief's 1771⭐ is reported."""
    brief = with_headings(sample_brief()) if headings else sample_brief()
    files = {**knowledge_base(), TOM: brief}
    files[INTERNALS] = (KB / INTERNALS).read_text(encoding="utf-8").replace("stars: 1771", "stars: 1772")
    report = run(files, paths=[TOM])
    subjects = {(f.rule, f.subject) for f in report.findings}
    assert ("KB005", "1771⭐") in subjects
    if headings:
        # the 增量 2 heading names amitshekhariitbhu/llm-internals: one card, so the number is stale
        title = line_of(brief, "## 增量 2：")
        assert ("KB006", "warning", title, "1771⭐") in rows(report)
        assert report.findings[0].message == f"1771⭐ is stale: {INTERNALS} now says stars: 1772"


# -- the same through a real repository and the command line ---------------------------------------


def test_check_all_in_a_real_repository(git_repo, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    from kbcheck.cli import main

    git_repo.write_many({**knowledge_base(), TOM: sample_brief()})
    git_repo.commit_all("knowledge base of the sample brief", author="tom")
    status = main(["check", "--all", "--format", "json", "--no-cache", "--no-baseline"])
    output = json.loads(capsys.readouterr().out)
    assert status == 1  # KB001 and KB004 are errors
    found = sorted((f["rule"], f["path"], f["subject"]) for f in output["findings"])
    assert found == sorted([
        ("KB001", LIVING, '二次检索是否触发…都变成"按收益付费"的决策问题'),
        ("KB001", LIVING, "图像 token 预算：从固定粒度走向内容自适应"),
        ("KB002", LIVING, "1605.08803"),
        ("KB002", LIVING, "2610.02076"),
        ("KB002", LIVING, "2610.37358"),
        ("KB004", JAY, "2610.37385"),
        ("KB005", TOM, "1771⭐"),
        ("KB005", TOM, "周增 +0"),
        ("KB006", LIVING, "243⭐"),
    ])
    assert output["summary"]["errors"] == 3
    assert output["summary"]["warnings"] == 6


# -- where the brief's increments go (the example knowledge base holds the brief's sections) ---------

EXAMPLE = HERE.parent / "examples" / "knowledge-base"
#: increment of the brief -> the sections its "建议归入" names (any one in the top 3 will do)
BRIEF_PLACES = {
    "organized/paper_cards/1695-2610-02076.md": ("§3.1", "§4"),  # LLM-as-Jev: §3.1 末尾，或单列 §4.2
    "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md": ("§1.6",),
    "inbox/jay/2026-10-29-1105-engineering-brief.md": ("§5.7",),  # 增量 3: arXiv:2610.37358
    "organized/paper_cards/1775-2610-12307.md": ("§5.7",),  # BudgetPix
}


def test_the_briefs_increments_get_the_briefs_sections_in_their_top_3(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    from kbcheck.cli import main

    git_repo.write_many({p.relative_to(EXAMPLE).as_posix(): p.read_bytes()
                         for p in sorted(EXAMPLE.rglob("*")) if p.is_file()})
    git_repo.commit_all("the example knowledge base", author="tom")
    assert main(["suggest", *BRIEF_PLACES, "--format", "json", "--no-cache"]) == 0
    items = {item["path"]: item["suggestions"] for item in json.loads(capsys.readouterr().out)["items"]}
    assert set(items) == set(BRIEF_PLACES)
    for path, wanted in BRIEF_PLACES.items():
        top = [s["section"] for s in items[path]]
        assert len(top) <= 3
        assert any(section.startswith(wanted) for section in top), (path, top)
        assert all(s["living_doc"] == "organized/knowledge/inference.md" for s in items[path])
