"""KB003 missing-reference: a body id absent from the reference list, once per id at its first mention."""

from __future__ import annotations

from kbtools import md, paper_card, repo_card, run

from kbcheck.config import config_from_mapping
from kbcheck.findings import Report

DOC = "organized/knowledge/inference.md"
CARDS: dict[str, str | bytes] = {
    "organized/paper_cards/1695-2610-02076.md": paper_card("2610.02076"),
    "organized/paper_cards/1700-2610-11959.md": paper_card("2610.11959"),
    "organized/repo_cards/4572-recursive-oss-rec.md": repo_card("recursive-oss/rec", stars=245),
}


def kb003(doc: str, path: str = DOC, config_keys: dict[str, object] | None = None) -> Report:
    config = config_from_mapping(config_keys, "test") if config_keys else None
    return run({**CARDS, path: md(doc)}, paths=[path], select={"KB003"}, config=config)


def where(report: Report) -> list[tuple[int, int, str, str]]:
    return [(f.line, f.column, f.subject, f.message) for f in report.findings if f.rule == "KB003"]


def test_fires_once_per_id_at_its_first_mention() -> None:
    report = kb003("""
        # inference

        ## §3.5 RL rollout 与训推一致性

        MiMo-V2.6（arXiv:2610.11959）的统一轨迹表示。

        ## §4.1 投机解码

        再提 arXiv:2610.11959，以及 https://arxiv.org/abs/2610.11959v2。

        ## §七 引用列表

        - arXiv:2610.02076 — LLM-as-Jev（正文见 §3.1）

        ## §3.1 补记

        LLM-as-Jev arXiv:2610.02076
        """)
    assert where(report) == [
        (5, 11, "2610.11959", "2610.11959 is mentioned in §3.5 but missing from the reference list"),
    ]
    [finding] = report.findings
    assert (finding.rule, finding.name, finding.severity, finding.path) == ("KB003", "missing-reference", "warning", DOC)


def test_meta_sections_are_body_too() -> None:
    report = kb003("## §6.2 趋势\n\n- 训推一致性（arXiv:2610.11959）\n\n## §七 引用列表\n\n- arXiv:2610.02076\n")
    assert where(report) == [(3, 9, "2610.11959", "2610.11959 is mentioned in §6.2 but missing from the reference list")]


def test_section_without_label_is_named_by_its_heading() -> None:
    report = kb003("## 路由与调度\n\narXiv:2610.11959\n\n## References\n\n- arXiv:2610.02076\n")
    assert [m for *_, m in where(report)] == ["2610.11959 is mentioned in 路由与调度 but missing from the reference list"]


def test_preamble_mentions_count() -> None:
    report = kb003("开篇提到 arXiv:2610.11959。\n\n## §七 引用列表\n\n- arXiv:2610.02076\n")
    assert where(report) == [
        (1, 6, "2610.11959", "2610.11959 is mentioned in (preamble) but missing from the reference list")
    ]


def test_listed_ids_pass_in_any_form() -> None:
    report = kb003("""
        ## §3.5

        MiMo-V2.6（arXiv:2610.11959v2）与 DOI 10.1145/ABC

        ## §七 引用列表

        - https://arxiv.org/abs/2610.11959
        - https://doi.org/10.1145/abc
        """)
    assert where(report) == []


def test_documents_without_a_reference_section_are_not_checked() -> None:
    assert where(kb003("## §3.5\n\narXiv:2610.11959 与 DOI 10.1145/abc\n")) == []


def test_only_living_documents() -> None:
    doc = "## §3.5\n\narXiv:2610.11959\n\n## §七 引用列表\n\n- arXiv:2610.02076\n"
    assert where(kb003(doc, path="inbox/tom/2026-10-29-brief.md")) == []
    assert where(kb003(doc, path="organized/guides/g.md")) == []


def test_dois_are_compared() -> None:
    report = kb003("## §3.5\n\n见 doi:10.1145/3600006.3613165。\n\n## §七 引用列表\n\n- arXiv:2610.02076\n")
    assert [(s, line) for line, _c, s, _m in where(report)] == [("10.1145/3600006.3613165", 3)]


def test_repos_only_with_reference_kinds_repo() -> None:
    doc = md("""
        ## §1.6 引擎

        - recursive-oss/rec：245⭐
        - https://github.com/other/engine
        - some/thing（没有卡片，不是引用）

        ## §七 引用列表

        - arXiv:2610.02076
        - https://github.com/other/engine
        """)
    assert where(kb003(doc)) == []
    report = kb003(doc, config_keys={"reference-kinds": ["arxiv", "doi", "repo"]})
    assert where(report) == [
        (3, 3, "recursive-oss/rec", "recursive-oss/rec is mentioned in §1.6 but missing from the reference list"),
    ]


def test_per_file_ignores_and_disable() -> None:
    doc = "## §3.5\n\n<!-- kbcheck: disable=KB003 -->\narXiv:2610.11959\n\n## §七 引用列表\n\n- arXiv:2610.02076\n"
    report = kb003(doc)
    assert where(report) == []
    assert report.suppressed == 1
    doc = "## §3.5\n\narXiv:2610.11959\n\n## §七 引用列表\n\n- arXiv:2610.02076\n"
    report = kb003(doc, config_keys={"per-file-ignores": {"organized/knowledge/**": ["KB003"]}})
    assert (where(report), report.suppressed) == ([], 1)
