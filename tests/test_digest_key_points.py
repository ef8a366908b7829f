"""Key points from a note's substance: a metadata header is metadata, template text is no key
point, a summary section or the sentence that says what the work does comes first (hand-written
fixtures in the shapes of a blog exported from a static site, a paper-note template filled in or
not, and study notes whose first lines are background)."""

from __future__ import annotations

import pytest

from kbcheck.digest.metadata_header import metadata_header, without_header
from tests.test_digest_wiki_brief import _added

PELICAN_NOTE = """Title: Why drafts are cheap
Date: 2019-03-02 10:15
Category: decoding
Tags: drafts, speed
Summary: A small model guesses, the big one checks.

# Outline

A small model proposes four tokens; the target accepts the longest right prefix.
"""
MULTIMARKDOWN_NOTE = """Title:  Verifier costs
Author: Ann Example
Keywords: decoding,
    verification

The verifier runs once per draft, so its cost is amortised over the accepted tokens.
"""


def _note(git_repo, text: str, capsys) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return _added(git_repo, {"wiki/sources/note.md": text}, capsys)["wiki/sources/note.md"]  # type: ignore[no-any-return]


# -- a metadata header -----------------------------------------------------------------------------

def test_a_metadata_header_gives_the_title_and_its_summary_the_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, PELICAN_NOTE, capsys)
    assert item["title"] == "Why drafts are cheap"
    assert item["key_points"] == "A small model guesses, the big one checks."


def test_without_a_summary_key_points_come_from_the_body_under_the_header(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, MULTIMARKDOWN_NOTE, capsys)
    assert item["title"] == "Verifier costs"
    assert item["key_points"] == "The verifier runs once per draft, so its cost is amortised over the accepted tokens."


def test_the_header_is_read_as_fields_with_continued_values() -> None:
    header = metadata_header(MULTIMARKDOWN_NOTE)
    assert header is not None and header.end_line == 4
    assert header.fields == {"title": "Verifier costs", "author": "Ann Example", "keywords": "decoding, verification"}
    assert without_header(MULTIMARKDOWN_NOTE).split("\n")[:5] == ["", "", "", "", ""]


@pytest.mark.parametrize("text", [
    # two labels of prose, not keys a metadata format defines
    "Problem: the draft is too slow.\nAnswer: make it smaller.\n\nMore text.\n",
    # one known key is a byline, not a header
    "Date: 2019-03-02\nThe draft runs first.\n",
    # a header must open the file
    "# Drafts\n\nTitle: Drafts\nDate: 2019-03-02\n",
    # a line that is not `Key: value` ends it being a header
    "Title: Drafts\nDate: 2019-03-02\nthe draft runs first, then the target.\n",
    # a web address is no key
    "Title: Drafts\nhttps://example.org/drafts\n",
    # frontmatter is read as frontmatter
    "---\ntitle: Drafts\ndate: 2019-03-02\n---\n\nText.\n",
])
def test_text_that_only_looks_like_a_header_is_none(text: str) -> None:
    assert metadata_header(text) is None


def test_a_note_opening_with_labelled_prose_keeps_it_as_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, "Problem: the draft is too slow.\nAnswer: make it smaller.\n", capsys)
    assert item["key_points"] == "Problem: the draft is too slow. Answer: make it smaller."
    assert item["title"] == "note.md"


def test_a_header_with_nothing_under_it_and_no_summary_is_a_stub(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, "Title: Drafts\nDate: 2019-03-02\nTags: drafts\n", capsys)
    assert item["class"] == "review" and item["reason"].startswith("stub"), item["reason"]


# -- template text --------------------------------------------------------------------------------

TEMPLATE_COPY = """# Draft verification at scale

| Year | Introduction | Field |
| ---- | ------------ | ----- |
| 2024 |              |       |

## Summary

TODO

## Notes

- Authors:
- <paper title>
- （待补充）

(Write the formulas and the pseudo-code here)

TBD: the results table.

The verifier accepts the longest correct prefix of the draft.
"""


def test_placeholders_and_template_text_are_no_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _note(git_repo, TEMPLATE_COPY, capsys)["key_points"] == (
        "The verifier accepts the longest correct prefix of the draft.")


def test_task_boxes_are_no_key_points_unless_the_note_is_nothing_else(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A draft that opens with its to-do list: the plans are not what it says; a reading schedule
    written as task boxes and nothing else is what it holds."""
    draft = ("# Quick notes\n\n## TODO\n\n- [ ] how does the allocator change the code?\n- [x] read the manual\n\n"
             "## Notes\n\nStatic locals are initialised once, safely across threads, since C++11.\n")
    assert _note(git_repo, draft, capsys)["key_points"] == (
        "Static locals are initialised once, safely across threads, since C++11.")


def test_a_note_of_task_boxes_alone_keeps_them(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    schedule = "# Schedule\n\n- [ ] Chapter 1, light transport\n- [ ] Chapter 2, path tracing\n"
    assert _note(git_repo, schedule, capsys)["key_points"].startswith("Chapter 1, light transport")


@pytest.mark.parametrize("text", [
    "TODO", "tbd.", "xxx", "（待补充）", "[暂无]", "…", "<paper title>", "{summary}", "TODO: add the table",
    "(Include the formulas and a diagram)",
])
def test_a_placeholder_alone_is_template_text(text: str) -> None:
    from kbcheck.digest.gist import is_placeholder

    assert is_placeholder(text)


@pytest.mark.parametrize("text", [
    "To do this, the draft runs first.", "TBD-1 is the name of the benchmark.", "The xxx-large model (2B).",
    "(The draft runs first) and the target verifies it.", "Authors: the draft group at a lab, 2024.",
    "The verifier, <b>once</b>, checks the draft.",
])
def test_prose_that_mentions_a_placeholder_word_is_kept(text: str) -> None:
    from kbcheck.digest.gist import is_placeholder

    assert not is_placeholder(text)


def test_a_note_of_prose_keeps_its_first_paragraphs(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# Drafts\n\nThe draft runs first.\n\nThe target verifies it.\n\nTo do better, draft longer.\n"
    assert _note(git_repo, note, capsys)["key_points"] == (
        "The draft runs first. The target verifies it. To do better, draft longer.")


# -- a summary section, and the method -----------------------------------------------------------

PAPER_NOTE = """# Tree drafts for long prefixes

[paper link](https://example.org/tree.pdf)

| Year | Introduction |
| ---- | ------------ |
| 2024 | A note on tree drafts. |

## Methodology

### 1. Abstract

Large models decode one token at a time, which leaves the accelerator idle most of the time and makes long answers slow to arrive for every user of the service, whatever the batch size, the hardware generation or the length of the prompt they send.

### 2. Method description

The paper builds a tree of draft continuations and verifies every branch in one forward pass.

## Experiments

Four benchmarks.
"""


def test_a_summary_section_and_the_method_make_the_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    key_points = _note(git_repo, PAPER_NOTE, capsys)["key_points"]
    assert key_points.startswith("Large models decode one token at a time")
    assert "…" in key_points and "2024" not in key_points
    assert key_points.endswith("The paper builds a tree of draft continuations and verifies every branch in one forward pass.")
    assert len(key_points) <= 400


def test_the_notes_own_summary_section_is_the_key_points_without_the_method(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = ("# Drafts\n\nSome background first.\n\n## TL;DR\n\nDrafts verified in one pass are faster.\n\n"
            "## Method\n\nA tree of drafts.\n")
    assert _note(git_repo, note, capsys)["key_points"] == "Drafts verified in one pass are faster."


def test_a_chinese_summary_heading_is_read(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# 草稿解码\n\n背景介绍。\n\n## 一、核心思想\n\n小模型先写草稿，大模型一次验证。\n\n## 二、论文方法\n\n树状草稿。\n"
    assert _note(git_repo, note, capsys)["key_points"] == "小模型先写草稿，大模型一次验证。"


def test_a_chinese_abstract_is_followed_by_the_method(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# 草稿解码\n\n## 摘要\n\n逐词解码太慢。\n\n## 二、论文方法\n\n小模型先写草稿，大模型一次验证。\n"
    assert _note(git_repo, note, capsys)["key_points"] == "逐词解码太慢。 小模型先写草稿，大模型一次验证。"


def test_a_note_whose_method_comes_first_is_read_in_order(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# Drafts\n\n## Method\n\nA tree of drafts.\n\n## Results\n\nFaster by half.\n"
    assert _note(git_repo, note, capsys)["key_points"] == "A tree of drafts. Faster by half."


def test_a_heading_that_only_contains_a_summary_word_is_no_summary_section(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# Drafts\n\nThe draft runs first.\n\n## Summary statistics of the benchmarks\n\nFour tables.\n"
    assert _note(git_repo, note, capsys)["key_points"] == "The draft runs first. Four tables."


# -- cuts ------------------------------------------------------------------------------------------

def _section(heading: str):  # type: ignore[no-untyped-def]
    from kbcheck.model.document import Section

    return Section(0, heading, 2, 1, 1, None, None, None)


def test_a_long_section_name_is_cut_between_words_with_an_ellipsis() -> None:
    from kbcheck.digest.relation import shown_name

    shown = shown_name(_section("Agents that learn from simulated AgentEnvironments at scale"))
    assert shown == "Agents that learn from simulated…"


def test_a_short_section_name_is_shown_whole() -> None:
    from kbcheck.digest.relation import shown_name

    assert shown_name(_section("Agents that learn from [simulation](https://example.org)")) == (
        "Agents that learn from simulation")


def test_a_long_field_value_is_cut_between_words_with_an_ellipsis() -> None:
    from kbcheck.digest.phrases import value

    shown = value("Tree drafts verify every branch in one pass, ExtraordinarilyLongModelName included")
    assert shown == "Tree drafts verify every branch in one pass…" and value("short") == "short"


# -- lines of links alone ------------------------------------------------------------------------

BOOK_NOTE = """# A book on saving

## Meta Info

- ebook: http://books.example.org/saving.pdf
- catalogue: https://books.example.org/subject/123/
https://mirror.example.org/saving.pdf

## First reading

Spending less than one earns is the whole method; the book spends three chapters on it.
"""
LINKED_TABLE_NOTE = """# Attacking solvers

[paper link](https://arxiv.org/pdf/2309.01234)
| Year | Introduction |
| ---- | ------------ |
| 2023 | An attack that freezes the logical entities and rewrites the rest of a word problem. |
"""
VIDEO_NOTE = """# Concept notes

## Facts

Source Name: [[Video site]]
link: https://video.example.org/watch?v=abc
Pub Time:
Author: [[someone]]

The speaker links each new idea to an older note before writing it down.
"""


@pytest.mark.parametrize("text, key_points", [
    (BOOK_NOTE, "Spending less than one earns is the whole method; the book spends three chapters on it."),
    (LINKED_TABLE_NOTE, "2023 · An attack that freezes the logical entities and rewrites the rest of a word problem."),
    (VIDEO_NOTE, "The speaker links each new idea to an older note before writing it down."),
])
def test_a_line_of_links_alone_is_no_key_point(git_repo, capsys, text: str, key_points: str) -> None:  # type: ignore[no-untyped-def]
    assert _note(git_repo, text, capsys)["key_points"] == key_points


def test_a_label_with_words_after_it_is_kept(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    text = "# Results\n\nResults: 91.2% on [the benchmark](https://example.org/b), two points up.\n"
    assert _note(git_repo, text, capsys)["key_points"] == "Results: 91.2% on the benchmark, two points up."


# -- a warning banner, and an abstract's background -----------------------------------------------

BACKGROUND = ("Recommender systems apply discovery techniques to the problem of making personal suggestions "
              "for products and services during a live visit to a shop. ") * 3


_CHINESE_BACKGROUND = "检索增强生成在问答里很常用，但每一步都检索会带来大量噪声和额外的延迟。" * 12


@pytest.mark.parametrize(("note", "key_points"), [
    # a warning banner's sentence is the generator's: the summary after it in its paragraph is the note's
    ("# Drafts\n\n## Summary\n\n⚠ Possibly outdated: published 2022; re-verify against recent literature. "
     "Drafts proposes a pipeline without prompts.\n\n## Problem\n\nPrompts vary a lot.\n",
     "Drafts proposes a pipeline without prompts."),
    ("# Drafts\n\n## Summary\n\n⚠️ Possibly outdated — newer work (e.g., Trees, Lattices) may supersede its "
     "numbers. Drafts proposes a pipeline without prompts.\n", "Drafts proposes a pipeline without prompts."),
    ("# Drafts\n\n⚠ Possibly outdated: published 2022.\n\nA small model drafts, a large one checks.\n",
     "A small model drafts, a large one checks."),
    # an abstract whose background fills the room starts at what the work does
    (f"# Item-based filtering\n\n## Abstract\n\n{BACKGROUND}In this paper we analyze item-based algorithms for "
     "such suggestions. They beat user-based ones.\n",
     "In this paper we analyze item-based algorithms for such suggestions. They beat user-based ones."),
    (f"# 自适应检索\n\n## 摘要\n\n{_CHINESE_BACKGROUND}本文提出一种自适应检索方法，每一步决定是否检索。\n",
     "本文提出一种自适应检索方法，每一步决定是否检索。"),
], ids=["banner", "banner-with-e.g.", "banner-alone", "abstract", "chinese-abstract"])
def test_key_points_leave_out_a_banner_and_an_abstract_background_that_fills_the_room(  # type: ignore[no-untyped-def]
        git_repo, capsys, note: str, key_points: str) -> None:
    assert _note(git_repo, note, capsys)["key_points"] == key_points


@pytest.mark.parametrize("abstract", [
    # the sentence on the work fits after a short background: the background stays
    "Suggestions matter to shops. In this paper we analyze item-based algorithms.",
    # no sentence says what the work does: the text as written
    BACKGROUND.strip(),
])
def test_an_abstract_whose_work_fits_or_is_unsaid_is_read_from_its_start(git_repo, capsys, abstract: str) -> None:  # type: ignore[no-untyped-def]
    note = f"# Item-based filtering\n\n## Abstract\n\n{abstract}\n"
    assert _note(git_repo, note, capsys)["key_points"].startswith(abstract[:40])


def test_the_work_sentence_of_a_bilingual_note_starts_without_the_bracket_before_it() -> None:
    from kbcheck.digest.gist import from_contribution

    text = "短文本匹配常面临词语不匹配（见第一节。） In this paper, we propose a lattice model."
    assert from_contribution(text, 10) == "In this paper, we propose a lattice model."


# -- a long summary keeps its finding (docs/output.md, "Key points") --------------------------------

_SETUP = ("Using two model sizes, the authors compare text-only and mixed training on a large corpus and about "
          "half a million instructions, then evaluate six reasoning tasks across logic, law and science. ")
_SETUP_ZH = "作者使用两种规模的模型，在大规模语料和约五十万条指令上比较纯文本训练与混合训练，并在六个推理任务上评测。"


@pytest.mark.parametrize(("summary", "key_points"), [
    ("This paper asks at which stage code data helps reasoning. " + _SETUP * 2
     + "The main finding is that code helps most in pre-training. A schedule is proposed.",
     "This paper asks at which stage code data helps reasoning. … The main finding is that code helps most in "
     "pre-training."),
    ("本文研究代码数据在哪个训练阶段有助于推理。" + _SETUP_ZH * 8 + "实验表明预训练阶段加入代码提升通用推理。",
     "本文研究代码数据在哪个训练阶段有助于推理。 … 实验表明预训练阶段加入代码提升通用推理。"),
], ids=["english", "chinese"])
def test_a_long_summary_keeps_its_opening_and_the_sentence_of_its_finding(  # type: ignore[no-untyped-def]
        git_repo, capsys, summary: str, key_points: str) -> None:
    assert _note(git_repo, f"# Code and reasoning\n\n## Summary\n\n{summary}\n", capsys)["key_points"] == key_points


@pytest.mark.parametrize("summary", [
    # the finding fits in the room: the summary as written
    "This paper asks at which stage code data helps reasoning. The main finding is that pre-training gains most.",
    # no sentence states a finding: cut as written
    "This paper asks at which stage code data helps reasoning. " + _SETUP * 3,
])
def test_a_summary_whose_finding_fits_or_is_unsaid_is_read_from_its_start(  # type: ignore[no-untyped-def]
        git_repo, capsys, summary: str) -> None:
    key_points = _note(git_repo, f"# Code and reasoning\n\n## Summary\n\n{summary}\n", capsys)["key_points"]
    assert key_points.startswith("This paper asks at which stage code data helps reasoning. ")
    assert " … " not in key_points
    assert key_points == summary or (len(key_points) <= 400 and key_points.endswith("…"))


@pytest.mark.parametrize("note", [
    "# Code and reasoning\n\n## Abstract\n\n{text}\n",
    "---\ntitle: Code and reasoning\nabstract: \"{text}\"\n---\n\nNotes to come.\n",
], ids=["abstract-section", "abstract-field"])
def test_an_abstract_is_cut_as_written_its_claims_are_the_authors(git_repo, capsys, note: str) -> None:  # type: ignore[no-untyped-def]
    text = ("This paper asks at which stage code data helps reasoning. " + _SETUP * 3
            + "Experiments show that our method outperforms the state of the art.")
    key_points = _note(git_repo, note.format(text=text), capsys)["key_points"]
    assert key_points.startswith("This paper asks at which stage code data helps reasoning. Using two model sizes")
    assert " … " not in key_points and key_points.endswith("…")


def test_a_summary_field_keeps_its_finding_too() -> None:
    from kbcheck.digest.gist import keep_finding, one_line

    text = "We ask what drafts buy. " + "Drafts are made by a small model and checked by a large one. " * 8
    assert keep_finding(text + "Experiments show a 2x speed-up.", 200) == (
        "We ask what drafts buy. … Experiments show a 2x speed-up.")
    assert keep_finding(text, 200) == one_line(text, 200)
    # an abbreviation ends no sentence: `e.g.`, `i.i.d.`, `et al.`
    opening = "We ask what drafts buy on i.i.d. prompts, e.g. chat, as Chen et al. did. "
    assert keep_finding(opening + text[24:] + "Experiments show a 2x speed-up.", 200) == (
        opening + "… Experiments show a 2x speed-up.")


# -- a note of many parts is outlined (docs/output.md, "Key points") ---------------------------------

QUESTIONS_NOTE = """# 体系结构 100 问

## 目录

- [CPU](#cpu)

## CPU 与指令集

### 1. 什么是流水线

把一条指令拆成几步，每个时钟周期发射一条。

### 2. 什么是 SIMD

一条指令处理多个数据。

### 3. 什么是乱序执行

按数据就绪的先后执行。

### 4. 什么是分支预测

猜下一条指令的位置。

## 内存与缓存

### 1. 为什么需要缓存

内存比寄存器慢得多。

## GPU

### 1. GPU 与 CPU 的区别

核多，每个核简单。

## 参考

- [某本书](https://example.org/book)
"""
STUDY_LOG = """# Learning a systems language

These are my notes while learning the language, one part per week.

## Week one

### Setup

Install the toolchain.

### Variables

Bindings are immutable by default.

## Week two

### Ownership

Each value has one owner.

### Borrowing

References borrow without taking ownership.

## Week three

### Traits

A trait names shared behaviour.
"""


def test_a_note_of_many_parts_is_outlined_not_quoted_from_its_first_answer(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, QUESTIONS_NOTE, capsys)
    # the first answer says how one part opens; the table of contents and the references are no parts
    assert item["key_points"] == ("CPU 与指令集 (什么是流水线, 什么是 SIMD, 什么是乱序执行, …) · 内存与缓存 (为什么需要缓存) · "
                                  "GPU (GPU 与 CPU 的区别)")


def test_an_outlined_note_keeps_the_sentence_that_opens_it(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, STUDY_LOG, capsys)
    assert item["key_points"] == ("These are my notes while learning the language, one part per week. — "
                                  "Week one (Setup, Variables) · Week two (Ownership, Borrowing) · Week three (Traits)")


@pytest.mark.parametrize("text", [
    # two parts: a short note's first paragraph says what it holds
    STUDY_LOG.split("## Week three")[0],
    # a paper note's method section: its lead and method are the key points
    STUDY_LOG.replace("## Week two", "## Method"),
])
def test_a_note_of_few_parts_or_with_a_method_is_not_outlined(git_repo, capsys, text: str) -> None:  # type: ignore[no-untyped-def]
    item = _note(git_repo, text, capsys)
    assert item["key_points"].startswith("These are my notes while learning the language")
    assert " · " not in item["key_points"]


def test_obsidian_properties_without_fences_are_a_metadata_header() -> None:
    header = metadata_header("aliases: [Aurora notes]\ntags: [database, aws]\n\nAurora separates compute from storage.\n")
    assert header is not None and header.end_line == 2
    # one Obsidian key is a labelled line of prose, not a header
    assert metadata_header("aliases: [Aurora notes]\nAurora separates compute from storage.\n") is None


# -- a quoted byline is no key point (docs/output.md, "Key points") -------------------------------------

QUOTED_BYLINE = """# 【关于 P-tuning】 那些你不知道的事

> 作者：某某
>
> 论文：GPT Understands, Too
>
> 个人介绍：大家好，这里记下我读论文时的所见所想。

P-tuning 用可训练的连续提示替代离散模板。
"""


def test_a_quoted_byline_is_metadata_not_the_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _note(git_repo, QUOTED_BYLINE, capsys)["key_points"] == "P-tuning 用可训练的连续提示替代离散模板。"


@pytest.mark.parametrize(("text", "key_points"), [
    # a quote that says something (not labelled lines only) is the note's text
    (QUOTED_BYLINE.replace("> 个人介绍：", "> 这篇笔记"),
     "论文：GPT Understands, Too 这篇笔记大家好，这里记下我读论文时的所见所想。 P-tuning 用可训练的连续提示替代离散模板。"),
    # labelled lines with no byline among them are a quoted definition, not who and where
    (QUOTED_BYLINE.replace("> 作者：某某", "> 定义：连续提示"), "定义：连续提示 论文：GPT Understands, Too 个人介绍：大家好，这里记下我读论文时的所见所想。"),
    # when the byline is all the note says, what it names is its key point
    (QUOTED_BYLINE.split("\nP-tuning")[0] + "\n", "论文：GPT Understands, Too 个人介绍：大家好，这里记下我读论文时的所见所想。"),
])
def test_a_quote_that_is_no_byline_or_all_there_is_stays(git_repo, capsys, text: str, key_points: str) -> None:  # type: ignore[no-untyped-def]
    assert _note(git_repo, text, capsys)["key_points"] == key_points
