"""A file's title, read once by the document model for the digest and `suggest` alike (Chinese and English)."""

from __future__ import annotations

import pytest
from kbtools import MemorySnapshot

from kbcheck.config import Config
from kbcheck.digest.items import describe
from kbcheck.digest.model import Item
from kbcheck.model.cards import frontmatter_fields
from kbcheck.model.document import file_title
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.suggest.index import Resolver, build_index

LIVING = "organized/knowledge/serving.md"
GUIDE = "organized/guides/vllm-部署.md"


def _kb(files: dict[str, str | bytes]) -> KnowledgeBase:
    return KnowledgeBase(MemorySnapshot(files), Config())  # type: ignore[arg-type]


def _title(text: str, path: str = GUIDE) -> str:
    kb = _kb({path: text})
    return file_title(kb.document(path), path)


@pytest.mark.parametrize(("text", "title"), [
    # frontmatter `title` wins over the first heading
    ("---\ntitle: vLLM 部署笔记\ntags: [serving]\n---\n\n# 部署步骤\n\n正文。\n", "vLLM 部署笔记"),
    # the first heading as read: a wikilink is its text, a link is its text
    ("# [[paged-attention|分页注意力]] 与 [time line](log.md)\n\n正文。\n", "分页注意力 与 time line"),
    # frontmatter without a title: the first heading, not a frontmatter line
    ("---\ntype: guide\nupdated: 2026-11-02\n---\n\n## Serving with vLLM\n\ntext\n", "Serving with vLLM"),
    # an empty heading is no title; the next heading is
    ("#\n\n## 真正的标题\n\n正文。\n", "真正的标题"),
    # the one level-1 heading, not a stray heading above it
    ("### collections\n\n```rust\nlet v = vec![1];\n```\n\n# rust-os-camp\n\n## 环境\n\n正文。\n", "rust-os-camp"),
    # two level-1 headings: the first heading still
    ("## 前言\n\n# 上篇\n\n正文。\n\n# 下篇\n\n正文。\n", "前言"),
])
def test_a_files_title_is_its_frontmatter_title_else_its_first_heading(text: str, title: str) -> None:
    assert _title(text) == title


@pytest.mark.parametrize("text", [
    "---\ntype: guide\ntitle_note: not a title\n---\n\n只有正文，没有标题。\n",
    "---\ntitle: [a, list]\n---\n\nplain text only\n",
    "",
])
def test_without_a_title_or_heading_the_title_is_the_file_name(text: str) -> None:
    assert _title(text) == "vllm-部署.md"


def test_frontmatter_fields_and_where_the_body_starts() -> None:
    # one blank line after the closing `---` belongs to the frontmatter
    assert frontmatter_fields("---\ntitle: 路由\naliases: [router]\n---\n\n# 路由\n") == (
        {"title": "路由", "aliases": ["router"]}, 6)
    assert frontmatter_fields("# 路由\n\n---\ntitle: x\n---\n") == ({}, 1)
    assert frontmatter_fields("---\n- a list, not a mapping\n---\nbody\n") == ({}, 4)
    assert frontmatter_fields("---\ntitle: [unclosed\n---\nbody\n") == ({}, 4)


def test_the_digest_and_suggest_read_the_same_title() -> None:
    living = ("---\ntitle: 推理服务活文档\n---\n\n维护：lead。\n\n## §2 调度\n\n"
              "- 连续批处理见 [[continuous-batching|Continuous Batching]]。\n")
    kb = _kb({LIVING: living, "organized/knowledge/continuous-batching.md": "# Continuous Batching\n\ntext\n"})
    index = build_index(kb, Resolver(kb))
    item = Item(LIVING, "knowledge", "modified")
    describe(kb, item, LIVING)
    assert index.documents[LIVING].title == item.title == "推理服务活文档"
    # the lead text below the frontmatter is a section that starts where the body does
    lead = index.documents[LIVING].sections[0]
    assert (lead.heading, lead.line) == ("", 5)
    assert "path:organized/knowledge/continuous-batching.md" in index.documents[LIVING].sections[1].targets


def test_wikilinks_resolve_as_the_model_resolves_them() -> None:
    kb = _kb({
        "wiki/concepts/batching.md": "# Batching\n\n- [[orca]]\n- [[missing-note]]\n- [[12]]\n- ![[diagram.png]]\n",
        "wiki/concepts/orca.md": "# Orca (concept)\n",
        "wiki/sources/orca.md": "# Orca\n",
        "wiki/concepts/diagram.png": b"\x89PNG",
    })
    refs = [(r.kind, r.value, r.form) for b in kb.document("wiki/concepts/batching.md").blocks  # type: ignore[union-attr]
            for r in b.refs]
    targets, kinds = Resolver(kb).resolve("wiki/concepts/batching.md", refs)
    # the nearest file of that name wins; a missing note, a numbered reference and an embed link nothing
    assert targets == {"path:wiki/concepts/orca.md"}
    assert sum(kinds.values()) == 1
