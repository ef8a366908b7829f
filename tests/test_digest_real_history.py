"""The digest read as a maintainer reads it on a real history: a wiki's source note stands for its
paper, a note the living documents already link is digested, a section that shares nothing with
a note is not suggested for it, and the rendering stays readable (hand-written fixtures, zh and en)."""

from __future__ import annotations

import json

import pytest

from kbcheck.cli import main
from kbcheck.digest.render_markdown import escape_markdown
from tests.kbtools import mapping

WIKI_CONFIG = mapping(["wiki/concepts/*.md"], ["wiki/sources/*.md"], "reference-heading = '(?i)^\\s*(?:sources|references)\\s*$'\n")
PAGE_BEFORE = """---
type: concept
title: Speculative Decoding
---

# Speculative Decoding

## Description

A small draft model proposes tokens and the target model verifies them in one pass.

## Sources

- (none yet)
"""
PAGE_AFTER = """---
type: concept
title: Speculative Decoding
---

# Speculative Decoding

## Description

A small draft model proposes tokens and the target model verifies them in one pass,
as [[chen-2023-draft-2302-01318]] showed for large decoders.

## Sources

- [[chen-2023-draft-2302-01318]]
- [[li-2024-tree-2401-02222]]
"""
DRAFT_NOTE = """---
type: source
title: Accelerating Decoding with Draft Models
arxiv_id: 2302.01318
doi: 10.48550/arXiv.2302.01318
url: http://arxiv.org/abs/2302.01318
---

## Summary

A draft model proposes several tokens; the large model accepts or rejects them in one forward pass.
"""
TREE_NOTE = """---
type: source
title: Tree Drafts for Speculative Decoding
arxiv_id: 2401.02222
---

## Summary

Drafts arranged as a tree let the verifier accept the longest matching branch.
"""
ZH_NOTE = """---
type: source
title: 稀疏检索器的蒸馏
arxiv_id: 2405.11111
---

## 摘要

用稠密检索器的打分蒸馏稀疏检索器，倒排索引的召回不降。
"""
TWO_PAPERS = """---
type: source
title: 两篇论文的对比
papers: [arXiv:2405.11111, arXiv:2406.22222]
---

## 摘要

对比两篇论文的做法。
"""


def ingest(git_repo, page: str, notes: dict[str, str]) -> str:  # type: ignore[no-untyped-def]
    """The wiki's page before, then one commit that rewrites it to `page` and adds `notes`; the base."""
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/speculative-decoding.md": PAGE_BEFORE})
    base: str = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"wiki/concepts/speculative-decoding.md": page, **notes})
    git_repo.commit_all("ingest", author="tom")
    return base


@pytest.fixture
def wiki(git_repo) -> str:  # type: ignore[no-untyped-def]
    return ingest(git_repo, PAGE_AFTER, {
        "wiki/sources/chen-2023-draft-2302-01318.md": DRAFT_NOTE,
        "wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE,
        "wiki/sources/wang-2024-sparse-2405-11111.md": ZH_NOTE,
        "wiki/sources/two-papers.md": TWO_PAPERS,
    })


def _items(base: str, capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:  # type: ignore[type-arg]
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    return {i["path"]: i for i in json.loads(capsys.readouterr().out)["items"]}


def test_a_source_note_stands_for_its_paper_and_a_linked_one_is_digested(wiki, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(wiki, capsys)
    draft = items["wiki/sources/chen-2023-draft-2302-01318.md"]
    # its arXiv DOI is the same paper as its arxiv_id: one source, so the page's links mention it
    assert draft["ids"] == ["2302.01318"]
    assert draft["class"] == "review"
    assert draft["reason"] == "already digested, in Description"


def test_a_note_linked_only_from_the_sources_list_is_a_cited_no_entry_gap(wiki, capsys) -> None:  # type: ignore[no-untyped-def]
    tree = _items(wiki, capsys)["wiki/sources/li-2024-tree-2401-02222.md"]
    assert tree["class"] == "increment" and tree["cited_no_entry"] is True
    assert tree["ids"] == ["2401.02222"]


def test_an_unlinked_chinese_note_is_an_increment_under_its_own_id(wiki, capsys) -> None:  # type: ignore[no-untyped-def]
    items = _items(wiki, capsys)
    sparse = items["wiki/sources/wang-2024-sparse-2405-11111.md"]
    assert sparse["class"] == "increment"
    assert sparse["ids"] == ["2405.11111"]
    assert sparse["reason"] == "new material: arXiv:2405.11111 is absent from the living documents"
    # two papers in the frontmatter: the note stands for neither, and cites nothing in its body (an arXiv
    # id beside a publisher DOI is one paper: `tests/test_real_notes_wiki_sources.py`)
    assert items["wiki/sources/two-papers.md"]["ids"] == []


# -- placement: a section has to share something with the note ------------------------------------

ARTICLE_CONFIG = mapping(["articles/*.md"], ["notes/*.md"])
ARTICLE = """# 经典 CNN 模型

本文汇总读过的论文笔记：[AlexNet 笔记](../notes/alexnet.md)、[VGG 笔记](../notes/vgg.md)。

## AlexNet：深度学习复兴的奠基

ReLU 激活、Dropout 和数据增强让深层网络第一次在 ImageNet 上大幅领先。

## ResNet：残差连接

残差连接让梯度绕过卷积层直接回传，网络可以加深到上百层而不退化。
"""
NOTES = {
    "notes/alexnet.md": "# AlexNet 笔记\n\nReLU 与 Dropout 的组合。\n",
    "notes/vgg.md": "# VGG 笔记\n\n更深更窄的网络。\n",
}
UNRELATED = "# 堆与栈\n\n栈由编译器自动维护，堆由 malloc 与 free 手动申请释放；卷积层的权重放在堆上。\n"
LINKING = "# 残差之后\n\n读 [经典 CNN 模型](../articles/cnn-models.md) 之后的补充：稠密连接。\n"


@pytest.fixture
def article(git_repo) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": ARTICLE_CONFIG, "articles/cnn-models.md": ARTICLE, **NOTES,
                         "notes/heap-and-stack.md": UNRELATED, "notes/after-resnet.md": LINKING})
    git_repo.commit_all("notes", author="tom")


def _suggest(path: str, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, int]]:
    assert main(["suggest", path, "--format", "json"]) == 0
    [item] = json.loads(capsys.readouterr().out)["items"]
    return [(s["section"], s["line"]) for s in item["suggestions"]]


def test_the_page_habit_alone_does_not_place_an_unrelated_note(article, capsys) -> None:  # type: ignore[no-untyped-def]
    # the lead lists notes (the page's habit) but shares no word with a note on memory;
    # only the section sharing its one word may be suggested
    suggested = _suggest("notes/heap-and-stack.md", capsys)
    assert ("经典 CNN 模型", 1) not in suggested


def test_a_note_linking_the_page_is_still_placed_where_the_page_lists_notes(article, capsys) -> None:  # type: ignore[no-untyped-def]
    suggested = _suggest("notes/after-resnet.md", capsys)
    assert ("经典 CNN 模型", 1) in suggested


# -- rendering -------------------------------------------------------------------------------------

def test_a_numbered_heading_in_running_text_shows_no_stray_backslash() -> None:
    assert escape_markdown("01. Learn GANs") == "01\\. Learn GANs"
    assert escape_markdown("3) 批处理") == "3\\) 批处理"
    assert escape_markdown("- item") == "\\- item"
    # a number that does not open a list is left alone
    assert escape_markdown("2024 年的 3 篇") == "2024 年的 3 篇"


def test_the_compared_against_line_names_at_most_twelve_living_documents(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    pages = {f"wiki/concepts/page-{n:02}.md": f"# 页面 {n}\n\n正文。\n" for n in range(15)}
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, **pages})
    base = git_repo.commit_all("pages", author="tom")
    git_repo.write("wiki/sources/wang-2024-sparse-2405-11111.md", ZH_NOTE)
    git_repo.commit_all("note", author="tom")
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("Living documents:")]
    assert line.count("`wiki/concepts/") == 12 and line.endswith("… 3 more")


def test_the_compared_against_line_lists_a_few_documents_in_full(wiki, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["digest", "--since", wiki, "--lang", "en"]) == 0
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("Living documents:")]
    assert line.endswith("`wiki/concepts/speculative-decoding.md`")


def test_a_created_line_is_not_a_key_point(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": ARTICLE_CONFIG, "articles/cnn-models.md": ARTICLE})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({
        # each links the article: somewhere to go, so an increment whose key points are shown
        "notes/frameworks.md": "# 框架概览\n\nCreated: 2022-08-19 21:59\n\nTensorFlow 与 PyTorch 的取舍。\n\n"
                               "[CNN](../articles/cnn-models.md)\n",
        "notes/created-in-text.md": "# Created equal\n\nCreated equal, the two schedulers still differ.\n\n"
                                    "[CNN](../articles/cnn-models.md)\n",
    })
    git_repo.commit_all("notes", author="tom")
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    markdown = capsys.readouterr().out
    assert "TensorFlow 与 PyTorch 的取舍。" in markdown and "Created: 2022" not in markdown
    # "Created" without a colon opens a sentence: kept
    assert "Created equal, the two schedulers still differ." in markdown


# -- boilerplate: what every note's header repeats places nothing ----------------------------------

NOTES_CONFIG = mapping(["overview/*.md"], ["notes/*.md"])
HEADER = "> 作者：杨柳 · 笔记索引：https://github.com/tom/notes-index · 那些你不知道的事\n\n"
OVERVIEW = """# 【关于 检索】那些你不知道的事

> 作者：杨柳 · 笔记索引：https://github.com/tom/notes-index

## 一、稀疏检索

BM25 与倒排索引：词项匹配，召回快。

## 二、稠密检索

双塔编码器把查询和文档编码成向量，近邻搜索召回语义相近的文档。
"""
OLD_NOTES = {f"notes/old-{n}.md": f"# 旧笔记 {n}\n\n{HEADER}第 {n} 篇：分词与词表。\n" for n in range(6)}
NEW_NOTE = "# 双塔检索笔记\n\n" + HEADER + "双塔编码器分别编码查询和文档，向量近邻搜索召回（arXiv:2004.04906）。\n"


def _digest_item(git_repo, notes: dict[str, str], capsys) -> dict:  # type: ignore[no-untyped-def,type-arg]
    git_repo.write_many({".kbcheck.toml": NOTES_CONFIG, "overview/retrieval.md": OVERVIEW, **notes})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write("notes/dual-encoder.md", NEW_NOTE)
    git_repo.commit_all("new note", author="tom")
    return _items(base, capsys)["notes/dual-encoder.md"]


def test_a_repo_and_words_every_note_repeats_do_not_place_a_note(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _digest_item(git_repo, OLD_NOTES, capsys)
    assert ("二、稠密检索", 9) in [(s["section"], s["line"]) for s in item["suggested_sections"]]
    why = [w for s in item["suggested_sections"] for w in s["why"]]
    assert not [w for w in why if "tom/notes-index" in w], why
    assert not [w for w in why if "不知" in w], why


def test_a_repo_few_notes_cite_still_ties_a_note_to_the_section(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    few = dict(list(OLD_NOTES.items())[:2])
    item = _digest_item(git_repo, few, capsys)
    why = [w for s in item["suggested_sections"] for w in s["why"]]
    assert "shares repos: tom/notes-index" in why, why


# -- a note without an id of its own is placed by the links to it ----------------------------------

IDLESS_PAGE = PAGE_AFTER.replace("as [[chen-2023-draft-2302-01318]] showed for large decoders.",
                                 "as [[chen-2023-draft-2302-01318]] showed; [[阅读笔记-草稿模型]] sums up the trade-offs.")
IDLESS_PAGE = IDLESS_PAGE.replace("- [[li-2024-tree-2401-02222]]", "- [[li-2024-tree-2401-02222]]\n- [[只在来源里的笔记]]")


def test_a_note_without_ids_linked_from_a_page_body_is_digested(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, IDLESS_PAGE, {
        "wiki/sources/chen-2023-draft-2302-01318.md": DRAFT_NOTE,
        "wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE,
        "wiki/sources/阅读笔记-草稿模型.md": "# 草稿模型的取舍\n\n草稿越小越快，但接受率下降。\n",
        "wiki/sources/只在来源里的笔记.md": "# 只在来源列表里\n\n验证一次前向即可。\n",
    })
    items = _items(base, capsys)
    linked = items["wiki/sources/阅读笔记-草稿模型.md"]
    assert (linked["class"], linked["reason"]) == ("review", "already digested: Description link this file")
    # a link from the reference list alone is no entry: still new material
    listed = items["wiki/sources/只在来源里的笔记.md"]
    assert listed["class"] == "increment"
