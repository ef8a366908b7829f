"""KB009 resolves links the way the knowledge base's renderer does (docs/rules.md, KB009)."""

from __future__ import annotations

import dataclasses

import pytest
from kbtools import md, run

from kbcheck.config import Config
from kbcheck.findings import Report

#: a vault whose top folders are mapped, so a folder name is also a knowledge-base root
VAULT = Config(knowledge=("concepts/*.md", "synthesis/*.md"), paper_cards=(), repo_cards=(), guides=(),
               briefs=(), manifests=())
NOTES: dict[str, str | bytes] = {
    "concepts/Semantic Segmentation.md": "# Semantic segmentation\n",
    "concepts/Transformer架构.md": "# 架构\n",
    "concepts/注意力机制.md": "# 注意力\n",
    "synthesis/index.md": "# Index\n",
}


def kb009(text: str, path: str = "concepts/page.md", files: dict[str, str | bytes] | None = None,
          config: Config = VAULT) -> Report:
    return run({**(NOTES if files is None else files), path: md(text)}, paths=[path], select={"KB009"},
               config=config)


def subjects(report: Report) -> list[str]:
    return [f.subject for f in report.findings if f.rule == "KB009"]


@pytest.mark.parametrize("link", [
    "[[concepts/Semantic Segmentation]]",
    "[[Semantic Segmentation]]",
    "[[semantic segmentation|the task]]",
    "[[concepts/Semantic Segmentation#Methods|methods]]",
    "[[concepts/Transformer架构]]",
    "[[注意力机制]]",
    "[[synthesis/index]]",
    "[[synthesis/index.md]]",
    "![[concepts/Transformer架构]]",
])
def test_a_wikilink_resolves_by_name_with_spaces_and_any_letters(link: str) -> None:
    assert subjects(kb009(f"See {link} here.\n")) == []


def test_a_wikilink_to_nothing_is_reported_whole() -> None:
    report = kb009("See [[concepts/Instance Segmentation]] and [[语义分割]].\n")
    assert subjects(report) == ["[[concepts/Instance Segmentation]]", "[[语义分割]]"]
    assert report.findings[0].message == (
        "[[concepts/Instance Segmentation]] names no file in the knowledge base")


def test_a_bare_path_running_on_into_other_letters_is_not_cut_short() -> None:
    # the pattern of a bare path reads ASCII; `concepts/Transformer` is not what was written
    assert subjects(kb009("架构见 concepts/Transformer架构 一节。\n")) == []
    assert subjects(kb009("见 concepts/missing.md。\n")) == ["concepts/missing.md"]


@pytest.mark.parametrize("text", [
    "| paper | pdf |\n|---|---|\n| A | [[pdf]]() |\n",  # an empty link whose text is in brackets
    "[[[Notes](Semantic%20Segmentation.md)]]\n",  # a markdown link in brackets
    "[see [[gone note]]](Semantic%20Segmentation.md)\n",  # a nested link: the outer link's text
])
def test_bracketed_markdown_links_are_no_wikilinks(text: str) -> None:
    assert subjects(kb009(text)) == []


def test_a_bracketed_markdown_link_still_resolves_as_a_link() -> None:
    assert subjects(kb009("[[[Notes](missing.md)]]\n")) == ["concepts/missing.md"]


def test_a_wikilink_and_a_table_wikilink_still_fire() -> None:
    report = kb009("| a | b |\n|---|---|\n| [[pdf]] | x |\n")
    assert subjects(report) == ["[[pdf]]"]


def test_the_default_layout_keeps_its_bare_paths() -> None:
    config = dataclasses.replace(Config())
    report = kb009("见 organized/knowledge/missing.md\n", path="organized/knowledge/k.md",
                   files={"organized/knowledge/a.md": "# a\n"}, config=config)
    assert subjects(report) == ["organized/knowledge/missing.md"]
