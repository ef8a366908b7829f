"""KB009 broken-path: relative links and knowledge-base paths to nothing in the checked tree."""

from __future__ import annotations

import pytest
from kbtools import md, paper_card, run

from kbcheck.findings import Report

CARD = "organized/paper_cards/1695-2610-02076.md"
GUIDE = "organized/guides/deep/nested/g.md"
BASE: dict[str, str | bytes] = {
    CARD: paper_card("2610.02076"),
    "inbox/jay/2026-10-29-1105-engineering-brief.md": "Jay 的简报\n",
    "organized/indexes/work-guard/e627b203.json": "[]",
}


def kb009(text: str, path: str = GUIDE) -> Report:
    return run({**BASE, path: md(text)}, paths=[path], select={"KB009"})


def where(report: Report) -> list[tuple[int, int, str, str]]:
    return [(f.line, f.column, f.subject, f.message) for f in report.findings if f.rule == "KB009"]


def col(line: str, written: str) -> int:
    return line.index(written) + 1


def test_relative_link_resolves_from_a_nested_folder() -> None:
    good = "ok [卡片](../../../paper_cards/1695-2610-02076.md)"
    bad = "bad [卡片](../../paper_cards/1695-2610-02076.md)"
    report = kb009(f"{good}\n\n{bad}\n")
    assert where(report) == [
        (
            3, col(bad, "../../paper"), "organized/guides/paper_cards/1695-2610-02076.md",
            "../../paper_cards/1695-2610-02076.md does not exist in the checked tree "
            "(resolved to organized/guides/paper_cards/1695-2610-02076.md); "
            "did you mean ../../../paper_cards/1695-2610-02076.md?",
        )
    ]
    [finding] = report.findings
    assert (finding.rule, finding.name, finding.severity, finding.path) == ("KB009", "broken-path", "warning", GUIDE)


def test_a_path_outside_the_repository_is_reported_and_never_read() -> None:
    line = "见 [x](../../../../../etc/passwd) 与 [y](/../../etc/shadow)"
    report = kb009(line + "\n")
    assert where(report) == [
        (1, col(line, "../../../../../etc"), "../../../../../etc/passwd",
         "../../../../../etc/passwd points outside the repository"),
        (1, line.rindex("/../../etc") + 1, "/../../etc/shadow", "/../../etc/shadow points outside the repository"),
    ]


@pytest.mark.parametrize(
    "written",
    [
        "organized/paper_cards/1695-2610-09999.md",
        "`organized/paper_cards/1695-2610-09999.md`",
        "inbox/tom/missing.md",
        "`inbox/jay/2026-10-29-1105-engineering-brief.MD`",
    ],
)
def test_bare_and_backticked_paths_resolve_from_the_root(written: str) -> None:
    line = f"来源 {written}。"
    path = written.strip("`")
    meant = "; did you mean inbox/jay/2026-10-29-1105-engineering-brief.md?" if path.endswith(".MD") else ""
    assert where(kb009(line + "\n")) == [
        (1, col(line, path), path, f"{path} does not exist in the checked tree{meant}"),
    ]


@pytest.mark.parametrize(
    "written",
    [
        "organized/paper_cards/1695-2610-02076.md",
        "`organized/paper_cards/1695-2610-02076.md`",
        "inbox/jay/2026-10-29-1105-engineering-brief.md",
        "organized/indexes/work-guard/e627b203.json",
        "organized/paper_cards/",  # an existing folder
        "`organized/paper_cards`",
        "organized/",
        "inbox/tom/_candidates/2026-10-13-*.json",  # a glob pattern is not a path
        "`organized/paper_cards/*.md`",
        "https://github.com/a/b/blob/main/organized/x.md",  # a web link is not a path
        "[锚点](#section)",
        "[邮件](mailto:tom@example.org)",
        "[网页](https://example.org/missing.md)",
        "[卡片](../../../paper_cards/1695-2610-02076.md#tldr)",
        "[卡片](/organized/paper_cards/1695-2610-02076.md)",  # root-relative
        "knowledge/inference.md",  # not under a knowledge-base root: plain words
        "```\norganized/missing.md\n```",  # code block
    ],
)
def test_things_that_are_not_broken(written: str) -> None:
    assert where(kb009(f"来源 {written}\n" if "```" not in written else written + "\n")) == []


def test_a_linked_knowledge_base_path_resolves_from_its_file_and_the_card_it_meant_is_named() -> None:
    line = "[卡片](organized/paper_cards/1695-2610-02076.md)"
    assert where(kb009(line + "\n")) == [
        (1, col(line, "organized"), "organized/guides/deep/nested/organized/paper_cards/1695-2610-02076.md",
         "organized/paper_cards/1695-2610-02076.md does not exist in the checked tree (resolved to "
         "organized/guides/deep/nested/organized/paper_cards/1695-2610-02076.md); "
         "did you mean ../../../paper_cards/1695-2610-02076.md?"),
    ]
    assert where(kb009("[卡片](/organized/paper_cards/1695-2610-02076.md)\n")) == []
    line = "见 organized/paper_cards/1695-2610-09999.md"
    assert where(kb009(line + "\n")) == [
        (1, col(line, "organized"), "organized/paper_cards/1695-2610-09999.md",
         "organized/paper_cards/1695-2610-09999.md does not exist in the checked tree"),
    ]


def test_percent_encoded_and_cjk_link_targets_keep_their_column() -> None:
    line = "  - 嵌套 [链接](../卡片/不存在.md) 与 [空格](<../paper cards/x y.md>)"
    report = kb009(f"- 列表\n{line}\n", path="organized/knowledge/k.md")
    assert where(report) == [
        (2, col(line, "../卡片"), "organized/卡片/不存在.md",
         "../卡片/不存在.md does not exist in the checked tree (resolved to organized/卡片/不存在.md)"),
        (2, col(line, "../paper cards"), "organized/paper cards/x y.md",
         "../paper cards/x y.md does not exist in the checked tree (resolved to organized/paper cards/x y.md)"),
    ]


@pytest.mark.parametrize(
    "path", ["organized/knowledge/inference.md", "inbox/tom/brief.md", CARD.replace("02076", "11111"), "README.md"]
)
def test_every_markdown_file_is_checked(path: str) -> None:
    text = "来源 organized/missing.md\n"
    if "paper_cards" in path:
        text = '---\narxiv: "2610.11111"\ntitle: t\n---\n' + text
    report = run({**BASE, path: text}, paths=[path], select={"KB009"})
    assert [(f.path, f.subject) for f in report.findings] == [(path, "organized/missing.md")]


def test_a_card_body_path_keeps_its_file_line() -> None:
    path = CARD.replace("02076", "11111")
    text = '---\narxiv: "2610.11111"\ntitle: t\n---\n\n正文见 organized/missing.md\n'
    report = run({**BASE, path: text}, paths=[path], select={"KB009"})
    assert [(f.line, f.column) for f in report.findings] == [(6, 5)]


def test_ignore_and_inline_disable() -> None:
    report = kb009("<!-- kbcheck: disable=KB009 -->\norganized/a.md\n\norganized/b.md\n")
    assert [s for _l, _c, s, _m in where(report)] == ["organized/b.md"]
    assert report.suppressed == 1


def test_a_relative_image_to_a_missing_file_is_broken_and_cites_nothing() -> None:
    from kbtools import found, md, paper_card, run

    guide = md(
        """
        # 攻略

        ![架构图](../../organized/guides/missing.png)
        ![卡片](../paper_cards/1695-2610-02076.md)
        ![远程](https://arxiv.org/html/2402.09360v1/extracted/x.png)
        """
    )
    report = run({
        "organized/guides/a.md": guide,
        "organized/paper_cards/1695-2610-02076.md": paper_card("2610.02076"),
    }, paths=["organized/guides/a.md"])
    assert found(report, "KB009") == [("KB009", "organized/guides/a.md", 3, "organized/guides/missing.png")]
    assert found(report, "KB004") == []
