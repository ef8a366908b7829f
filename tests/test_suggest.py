"""`kbcheck suggest`: the sections a note belongs to, on hand-written knowledge bases (Chinese and English)."""

from __future__ import annotations

import json

import pytest

from kbcheck.cli import main
from kbcheck.suggest.terms import terms

LIVING = "organized/knowledge/serving.md"
SERVING = """# 推理服务活文档

维护：lead。本文件记录推理服务的工程材料。

## §2 调度与路由

### §2.1 请求路由

- 路由器按难度把请求分给大小模型（arXiv:2610.05512）：外部打分器在长输入上失准，路由准确率下降。
- 级联路由：小模型先答，置信度低时升级到大模型，打分器阈值按业务代价设定。

### §2.2 批处理调度

- 连续批处理（continuous batching）把解码步交错排布，吞吐随并发上升；chunked prefill 切分长预填充。

## §3 缓存

### §3.1 KV 缓存复用

- 前缀缓存按会话淘汰，命中率随多轮对话上升；分页显存管理（paged attention）减少碎片。

## §6 判断层

### §6.2 趋势

- 路由决策的信号来源从外部打分器转向模型内生信号（arXiv:2610.05512）。

## §七 引用列表

- arXiv:2610.05512 — When Dynamic LLM Routers Fail
- arXiv:2610.02076 — LLM-as-Judge Routing
"""
ROUTER_CARD = """---
arxiv: "2610.05512"
title: "When Dynamic LLM Routers Fail"
category: llm-infra
---

# When Dynamic LLM Routers Fail

路由器依赖外部打分器，难度盲区与长度反转。
"""
NEW_CARD = """---
arxiv: "2610.02076"
title: "Probability-Read Routing: LLM Routers Without an External Scorer"
category: llm-infra
---

# Probability-Read Routing

路由决策直接从模型的 token 概率读出，不再依赖外部打分器；级联路由的升级阈值由置信度给出，难度盲区缓解。
"""
COOKING = """# 红烧肉的做法

五花肉切块焯水，冰糖炒出糖色，加生抽老抽与八角，小火炖一个半小时收汁。
"""


def _kb(git_repo, extra: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({LIVING: SERVING, "organized/paper_cards/1712-2610-05512.md": ROUTER_CARD, **extra})
    git_repo.commit_all("knowledge base", author="tom")


def _suggest(capsys: pytest.CaptureFixture[str], *paths: str, top: int = 3) -> dict:  # type: ignore[type-arg]
    status = main(["suggest", *paths, "--format", "json", "--top", str(top), "--no-cache"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return json.loads(captured.out)  # type: ignore[no-any-return]


def test_terms_read_chinese_as_bigrams_and_english_as_words() -> None:
    assert terms("外部打分器 Routers fail") == ["外部", "部打", "打分", "分器", "router", "fail"]
    assert terms("the 的 of") == []
    # a plural or a verb's -es is folded to a word as written, never to a stem (`compresse`)
    assert terms("compresses processes classes policies models class") == [
        "compress", "process", "class", "policy", "model", "class"]
    assert "http" not in terms("来源：https://papers.cool/arxiv/2610.37358")


def test_a_paper_about_routing_belongs_in_the_routing_section(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    _kb(git_repo, {"organized/paper_cards/1695-2610-02076.md": NEW_CARD})
    data = _suggest(capsys, "organized/paper_cards/1695-2610-02076.md")
    assert data["version"] == 1
    [item] = data["items"]
    assert item["path"] == "organized/paper_cards/1695-2610-02076.md"
    first = item["suggestions"][0]
    assert set(first) == {"living_doc", "section", "line", "score", "why"}
    assert (first["living_doc"], first["section"], first["line"]) == (LIVING, "§2.1 请求路由", 7)
    assert 0 < first["score"] <= 1
    assert any(w.startswith("shared terms: ") and "路由" in w for w in first["why"]), first["why"]
    # never the reference list or the trend layer: those are not places for an entry
    sections = [s["section"] for s in item["suggestions"]]
    assert "§七 引用列表" not in sections and "§6.2 趋势" not in sections
    assert [s["score"] for s in item["suggestions"]] == sorted((s["score"] for s in item["suggestions"]), reverse=True)


def test_a_card_already_discussed_names_its_section(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    _kb(git_repo, {})
    data = _suggest(capsys, "organized/paper_cards/1712-2610-05512.md")
    first = data["items"][0]["suggestions"][0]
    assert first["section"] == "§2.1 请求路由"
    assert first["why"][0] == "already cites this note (arXiv:2610.05512)"


def test_an_unrelated_note_gets_no_confident_place(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    _kb(git_repo, {"inbox/tom/2026-10-29-recipe.md": COOKING})
    data = _suggest(capsys, "inbox/tom/2026-10-29-recipe.md")
    assert data["items"] == [{"path": "inbox/tom/2026-10-29-recipe.md", "suggestions": []}]


WIKI_CONFIG = 'knowledge = ["wiki/concepts/*.md"]\nguides = ["wiki/sources/*.md"]\n'
BATCHING = """---
type: concept
title: Continuous Batching
aliases: [iteration-level scheduling]
---

## Definition

**Continuous batching** interleaves decoding steps of many requests so the GPU never idles between sequences.

## Key Points

- Orca introduced iteration-level scheduling for transformer serving.
- Throughput grows with concurrency until the KV cache runs out of memory.

## Sources

- [[yu-2022-orca]]

## Evolution Log

- 2026-04-20 (1 source): Introduced via [[yu-2022-orca]].
"""
ORCA = """---
type: source
title: "Orca: A Distributed Serving System for Transformer-Based Generative Models"
---

## Summary

Orca schedules transformer inference at iteration level (continuous batching) and uses selective batching.
See [[continuous-batching]].
"""
SPECULATIVE = """---
type: concept
title: Speculative Decoding
---

## Definition

A small draft model proposes tokens that the large model verifies in one pass.

## Sources

- [[leviathan-2023-fast]]
"""
LEVIATHAN = """---
type: source
title: Fast Inference from Transformers via Speculative Decoding
---

## Summary

Draft tokens from a small model, verified by the target model; no change to the output distribution.
"""


def test_a_wiki_source_note_goes_under_the_pages_sources(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    unlinked = "\n".join(line for line in BATCHING.splitlines() if "yu-2022-orca" not in line) + "\n"
    git_repo.write_many({
        ".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/continuous-batching.md": unlinked,
        "wiki/concepts/speculative-decoding.md": SPECULATIVE,
        "wiki/sources/yu-2022-orca.md": ORCA, "wiki/sources/leviathan-2023-fast.md": LEVIATHAN,
    })
    git_repo.commit_all("wiki", author="tom")
    data = _suggest(capsys, "wiki/sources/yu-2022-orca.md")
    first = data["items"][0]["suggestions"][0]
    # the page's habit: source notes are listed under "Sources" (frontmatter is never a section)
    assert (first["living_doc"], first["section"]) == ("wiki/concepts/continuous-batching.md", "Sources")
    assert "the note links this document" in first["why"]
    assert all(s["section"] != "type: concept title: Continuous Batching" for s in data["items"][0]["suggestions"])


def test_suggest_text_output_and_usage_errors(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    _kb(git_repo, {"organized/paper_cards/1695-2610-02076.md": NEW_CARD})
    assert main(["suggest", "organized/paper_cards/1695-2610-02076.md", "--top", "1", "--no-cache"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "organized/paper_cards/1695-2610-02076.md"
    assert out[1].endswith(f"{LIVING}:7  §2.1 请求路由")
    assert main(["suggest", "organized/nothing.md"]) == 2
    assert "path does not exist" in capsys.readouterr().err
    assert main(["suggest", "organized/paper_cards/1695-2610-02076.md", "--top", "0"]) == 2
