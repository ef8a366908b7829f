"""KB008 malformed-card, through the engine: one error per card problem, about the whole file."""

from __future__ import annotations

import pytest
from kbtools import paper_card, repo_card, run

from kbcheck.findings import Report

PAPER = "organized/paper_cards/1695-2610-02076.md"
REPO = "organized/repo_cards/4572-recursive-oss-rec.md"


def kb008(path: str, text: str | bytes) -> Report:
    return run({path: text}, paths=[path], select={"KB008"})


def where(report: Report) -> list[tuple[str, int, int, str, str]]:
    return [(f.path, f.line, f.column, f.subject, f.message) for f in report.findings if f.rule == "KB008"]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        (PAPER, paper_card("2610.02076", "LLM-as-Jev", s2_citations=19, custom_field="kept")),
        (PAPER, '---\narxiv: "arXiv:2610.02076v2"\ntitle: t\n---\n'),
        (PAPER, "---\narxiv: 2610.02076\ntitle: t\n---\n"),
        (REPO, repo_card("recursive-oss/rec", stars=245, maturity="experimental")),
        (REPO, repo_card("Recursive-OSS/Rec")),
        ("organized/paper_cards/0001-hep-th-9901001.md", paper_card("hep-th/9901001v3")),
        ("organized/paper_cards/0002-math-gt-0309136.md", paper_card("math.GT/0309136")),
    ],
)
def test_valid_cards_pass(path: str, text: str) -> None:
    assert where(kb008(path, text)) == []


def test_missing_frontmatter_is_an_error_about_the_file() -> None:
    report = kb008(PAPER, "# LLM-as-Jev\n")
    assert where(report) == [(PAPER, 1, 1, PAPER, "card has no YAML frontmatter (a `---` block at the top)")]
    [finding] = report.findings
    assert (finding.name, finding.severity, finding.file_level) == ("malformed-card", "error", True)


def test_invalid_yaml_names_its_line() -> None:
    report = kb008(PAPER, '---\narxiv: "2610.02076"\ntitle: LLM-as-Jev: Decision Models\n---\n')
    [(_p, line, _c, _s, message)] = where(report)
    assert line == 3
    # libyaml and pure-Python PyYAML word the end differently ("here" / "in this context")
    assert message.startswith("frontmatter is not valid YAML: mapping values are not allowed")


def test_unsafe_tag_is_invalid_yaml() -> None:
    report = kb008(PAPER, '---\narxiv: "2610.02076"\ntitle: !!python/object/apply:os.system ["false"]\n---\n')
    [(_p, line, _c, _s, message)] = where(report)
    assert line == 3
    assert message.startswith("frontmatter is not valid YAML: could not determine a constructor for the tag")


def test_alias_bomb() -> None:
    rows = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
    rows += [f"{n}: &{n} [" + ", ".join([f"*{p}"] * 10) + "]" for n, p in zip("bcdefgh", "abcdefg")]
    report = kb008(PAPER, "---\n" + "\n".join(rows) + '\narxiv: "2610.02076"\ntitle: t\n---\n')
    assert [m for *_, m in where(report)] == ["frontmatter holds more than 100000 values (YAML aliases expanded); kbcheck reads no more"]


def test_non_mapping_frontmatter() -> None:
    assert [m for *_, m in where(kb008(REPO, "---\n- recursive-oss/rec\n---\n"))] == [
        "card frontmatter must be a mapping of fields, not a list"
    ]


def test_missing_fields_one_finding_each() -> None:
    assert [(line, m) for _p, line, _c, _s, m in where(kb008(PAPER, "---\ncategory: engineering\n---\n"))] == [
        (2, "required field 'arxiv' is missing"),
        (2, "required field 'title' is missing"),
    ]
    assert [m for *_, m in where(kb008(REPO, "---\nstars: 245\n---\n"))] == ["required field 'repo' is missing"]


def test_ids_disagreeing_with_file_names() -> None:
    assert [m for *_, m in where(kb008(PAPER, paper_card("2610.02077")))] == [
        "arxiv 2610.02077 disagrees with the file name '1695-2610-02076.md' (expected …-2610-02077.md)"
    ]
    assert [m for *_, m in where(kb008(REPO, repo_card("recursive-oss/rec2")))] == [
        "repo recursive-oss/rec2 disagrees with the file name '4572-recursive-oss-rec.md' (expected …-recursive-oss-rec2.md)"
    ]


def test_unquoted_id_that_yaml_turned_into_another_number() -> None:
    path = "organized/paper_cards/1700-2610-02070.md"
    assert where(kb008(path, "---\narxiv: 2610.02070\ntitle: t\n---\n")) == []
    assert [m for *_, m in where(kb008(PAPER, "---\narxiv: 2610.02070\ntitle: t\n---\n"))] == [
        "field 'arxiv' must be a quoted string: YAML reads it as the number 2610.0207"
    ]


def test_only_cards_are_checked() -> None:
    for path in ("organized/knowledge/inference.md", "inbox/tom/brief.md", "organized/guides/g.md"):
        assert where(kb008(path, "---\nbroken: [\n---\n")) == []


def test_crlf_and_bom_cards_are_fine() -> None:
    text = '\ufeff---\r\narxiv: "2610.02076"\r\ntitle: t\r\n---\r\nbody\r\n'
    assert where(kb008(PAPER, text.encode("utf-8"))) == []


def test_non_utf8_card_is_a_notice_not_a_crash() -> None:
    data = b'---\narxiv: "2610.02076"\ntitle: \xff\n---\n'
    report = kb008(PAPER, data)
    assert where(report) == []
    assert report.notices == (f"{PAPER}: skipped: not UTF-8 (byte 0xff at offset {data.index(0xFF)})",)


def test_disable_file_in_the_card_body() -> None:
    report = kb008(PAPER, '---\narxiv: "2610.02077"\ntitle: t\n---\n<!-- kbcheck: disable-file=KB008 -->\n')
    assert where(report) == []
    assert report.suppressed == 1
