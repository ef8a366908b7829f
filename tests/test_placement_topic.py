"""Where a note goes when the living documents cover a small part of what the notes are about:
a page on one topic takes a note only on that topic, however habitually it lists notes; headings
that are links show their text; ids a shared header repeats decide nothing (hand-written
fixtures, Chinese and English)."""

from __future__ import annotations

import json

import pytest
from kbtools import mapping, run_cli

from kbcheck.model.document import inline_text

CONFIG = mapping(["articles/*.md"], ["notes/*.md"])
# a page on one topic, that lists the note it was written from (its habit), among many notes on other things
ZH_PAGE = """# 噪声标签学习

读过的论文笔记：[置信学习笔记](../notes/confident-learning.md)。

## 置信学习：估计标注噪声

置信学习用模型预测的概率估计每个类别的标注噪声率，剔除可疑样本后重新训练。

## 课程学习：先学干净样本

MentorNet 按损失给样本排课程，让网络先学干净样本，噪声样本的权重随训练逐步降低。
"""
EN_PAGE = """# Learning with Noisy Labels

Notes this draws on: [confident learning](../notes/confident-learning.md).

## Confident learning: estimating label noise

Confident learning estimates the noise rate of each class from predicted probabilities,
prunes suspect examples and trains again on the rest.

## Curriculum learning: clean examples first

MentorNet orders examples by their loss so the network learns clean examples first;
the weight of noisy examples falls as training goes on.
"""
# the knowledge base's other pages: their own topics, in the same everyday words (model, training…)
ZH_OTHER_PAGES = {
    "articles/cnn-models.md": """# 经典 CNN 模型

## AlexNet

ReLU 与 Dropout 让模型在大规模样本上训练，权重衰减抑制过拟合，准确率大幅领先。

## VGG

更深更窄的卷积堆叠，模型参数多，训练时逐步降低学习率，每个类别的概率由 softmax 估计。

## ResNet

残差连接让梯度直接回传，模型加深到上百层仍能训练，样本增强提升泛化。
""",
    "articles/self-driving.md": """# 自动驾驶

## 感知

检测模型估计每个目标的类别与概率，训练样本来自标注的道路视频。

## 控制

控制模型按轨迹误差调整转向与油门，超调随反馈减小。
""",
}
EN_OTHER_PAGES = {
    "articles/cnn-models.md": """# Classic CNN Models

## AlexNet

ReLU and dropout let the model train on a large set of examples; weight decay curbs overfitting.

## VGG

Deeper, narrower stacks of convolutions; the model is trained with a learning rate that falls,
and softmax estimates the probability of each class.

## ResNet

Residual connections let the gradient flow back, so a model of a hundred layers still trains
well on augmented examples.
""",
    "articles/self-driving.md": """# Self-Driving

## Perception

Detection models estimate the class and probability of each object, trained on examples from
labelled road video.

## Control

The control model adjusts its weights by the tracking error, and is trained again every day on
new logs.
""",
}
OTHER_NOTES = {
    "notes/confident-learning.md": "# 置信学习\n\n估计标注噪声率。\n",
    "notes/gfs.md": "# 分布式文件系统\n\n主节点保存元数据，数据块三副本。\n",
    "notes/raft.md": "# Raft 共识\n\n领导者选举与日志复制。\n",
    "notes/bitcask.md": "# Bitcask\n\n追加写日志，内存哈希索引。\n",
    "notes/cpp-pointers.md": "# 智能指针\n\n引用计数与所有权转移。\n",
    "notes/tcp.md": "# TCP 拥塞控制\n\n慢启动、拥塞避免、快重传。\n",
    "notes/diving.md": "# 潜水入门\n\n开放水域课程与中性浮力。\n",
    "notes/savings.md": "# 储蓄与复利\n\n每月定投，时间换收益。\n",
    "notes/http.md": "# HTTP 缓存\n\n强缓存与协商缓存。\n",
}
# unrelated to the page, though it shares its generic words (模型、训练、样本 / model, training, examples)
ZH_UNRELATED = """# 基于物品的协同过滤

按用户的历史行为计算物品之间的相似度，用相似物品给用户推荐；模型每天重新训练，样本来自点击日志，每个类别的点击概率单独估计，旧样本的权重随时间逐步降低。
"""
EN_UNRELATED = """# Item-Based Collaborative Filtering

Similar items are found from the ratings of users who rated both, and a user is recommended
items like those rated well. The model is trained again every day on examples from the click
log; the click probability of each class is estimated apart, and the weight of noisy old examples falls.
"""
ZH_ON_TOPIC = """# 噪声标签下的置信学习

用模型预测的概率估计标注噪声率，剔除可疑样本，再在干净样本上重新训练。
"""
EN_ON_TOPIC = """# Confident Learning for Noisy Labels

The predicted probabilities estimate the label noise rate; suspect examples are pruned and the
model is trained again on clean examples.
"""


@pytest.fixture(params=["zh", "en"])
def kb(request, git_repo) -> str:  # type: ignore[no-untyped-def]
    page, others = (ZH_PAGE, ZH_OTHER_PAGES) if request.param == "zh" else (EN_PAGE, EN_OTHER_PAGES)
    git_repo.write_many({".kbcheck.toml": CONFIG, "articles/noisy-labels.md": page, **others, **OTHER_NOTES})
    git_repo.commit_all("notes", author="tom")
    return str(request.param)


def _suggest(path: str) -> list[tuple[str, int]]:
    status, out, err = run_cli("suggest", path, "--format", "json", "--no-cache")
    assert status == 0, err
    [item] = json.loads(out)["items"]
    return [(s["section"], s["line"]) for s in item["suggestions"]]


def test_a_note_on_another_topic_gets_no_section_of_a_page_that_lists_notes(kb, git_repo) -> None:  # type: ignore[no-untyped-def]
    git_repo.write("notes/item-cf.md", ZH_UNRELATED if kb == "zh" else EN_UNRELATED)
    git_repo.commit_all("new note", author="tom")
    assert _suggest("notes/item-cf.md") == []


def test_a_note_on_the_pages_topic_gets_its_section(kb, git_repo) -> None:  # type: ignore[no-untyped-def]
    git_repo.write("notes/cl-noise.md", ZH_ON_TOPIC if kb == "zh" else EN_ON_TOPIC)
    git_repo.commit_all("new note", author="tom")
    heading = "置信学习：估计标注噪声" if kb == "zh" else "Confident learning: estimating label noise"
    lead = "噪声标签学习" if kb == "zh" else "Learning with Noisy Labels"
    # the section on it, or the page's list of the notes it draws on
    assert _suggest("notes/cl-noise.md")[:2] == [(lead, 1), (heading, 5)]


def test_one_word_of_the_title_in_common_is_chance(kb, git_repo) -> None:  # type: ignore[no-untyped-def]
    # "课程" / "curriculum" is one word of the title, and the section's only bond with the note
    note = ("# 课程表设计\n\n学期排课与教室分配的约束求解。\n" if kb == "zh"
            else "# Curriculum Timetabling\n\nRooms and teachers assigned to school terms by constraint solving.\n")
    git_repo.write("notes/timetable.md", note)
    git_repo.commit_all("new note", author="tom")
    assert _suggest("notes/timetable.md") == []


#: the living documents and notes the English placement tests start from
EN_BASE = {".kbcheck.toml": CONFIG, "articles/noisy-labels.md": EN_PAGE, **EN_OTHER_PAGES, **OTHER_NOTES}


def _digested(git_repo, before: dict[str, str], after: dict[str, str]) -> tuple[str, dict[str, dict]]:  # type: ignore[no-untyped-def,type-arg]
    """The base commit of `before`, and the digest's items (JSON, English) for the commit of `after` on it."""
    git_repo.write_many(before)
    base = git_repo.commit_all("before", author="tom")
    git_repo.write_many(after)
    git_repo.commit_all("after", author="tom")
    status, out, _ = run_cli("digest", "--since", base, "--format", "json", "--lang", "en")
    assert status == 0
    return base, {i["path"]: i for i in json.loads(out)["items"]}


def test_the_digest_says_no_section_fits_and_places_the_note_on_the_topic(git_repo) -> None:  # type: ignore[no-untyped-def]
    base, items = _digested(git_repo, EN_BASE, {"notes/item-cf.md": EN_UNRELATED, "notes/cl-noise.md": EN_ON_TOPIC})
    # no section fits the unrelated note, it cites and links nothing, nothing links it: nowhere to fold
    unrelated = items["notes/item-cf.md"]
    assert (unrelated["class"], unrelated["reason"]) == ("review", NO_HOME)
    assert "suggested_sections" not in unrelated or unrelated["suggested_sections"] == []
    on_topic = items["notes/cl-noise.md"]
    placed = [(s["living_doc"], s["section"]) for s in on_topic["suggested_sections"]]
    assert on_topic["class"] == "increment"
    assert ("articles/noisy-labels.md", "Confident learning: estimating label noise") in placed[:2]
    status, markdown, _ = run_cli("digest", "--since", base, "--lang", "en")
    assert status == 0
    assert f"(`notes/item-cf.md`): {NO_HOME}" in markdown


NO_HOME = ("nothing to fold into: it cites no paper or repository, no section of the living documents holds its "
           "words, none links it, and it links no page still to write; a note to read (or a page's start)")


def test_an_unplaced_note_that_links_a_living_document_stays_an_increment(git_repo) -> None:  # type: ignore[no-untyped-def]
    linking = EN_UNRELATED + "\n[noisy labels](../articles/noisy-labels.md)\n"
    item = _digested(git_repo, EN_BASE, {"notes/item-cf.md": linking})[1]["notes/item-cf.md"]
    assert item["class"] == "increment"


def test_an_unplaced_note_a_living_document_lists_stays_an_increment(git_repo) -> None:  # type: ignore[no-untyped-def]
    listed = EN_PAGE + "\n## References\n\n- [item-based filtering](../notes/item-cf.md)\n"
    after = {"notes/item-cf.md": EN_UNRELATED, "articles/noisy-labels.md": listed}
    item = _digested(git_repo, EN_BASE, after)[1]["notes/item-cf.md"]
    assert item["class"] == "increment"


# -- headings that are links ---------------------------------------------------------------------

LINK_PAGE = """# Paper lists

## [Speculative Decoding with Draft Trees](https://arxiv.org/abs/2401.02222)

Draft trees let the verifier accept the longest matching branch of drafted tokens.

## [[草稿模型]]

草稿模型越小越快，但接受率下降；验证一次前向即可。
"""
TREE_NOTE = "# Draft trees for speculative decoding\n\nThe verifier accepts the longest branch of drafted tokens.\n"
ZH_DRAFT_NOTE = "# 草稿模型的接受率\n\n草稿模型越小，接受率越低，验证仍只需一次前向。\n"


def test_inline_text_reads_a_heading_as_a_reader_does() -> None:
    assert inline_text("[Speculative Decoding](https://arxiv.org/abs/2401.02222)") == "Speculative Decoding"
    assert inline_text("[[草稿模型|草稿]] 与 `draft` **树**") == "草稿 与 draft 树"
    assert inline_text("4.2 P-tuning") == "4.2 P-tuning"  # no markup: as written
    assert inline_text("") == ""


@pytest.fixture
def link_headings(git_repo) -> str:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": CONFIG, "articles/lists.md": LINK_PAGE.replace("\n## [[草稿模型]]", "\n## Placeholder"),
                         "notes/草稿模型.md": "# 草稿模型\n\n小模型起草。\n"})
    base = git_repo.commit_all("page", author="tom")
    git_repo.write_many({"articles/lists.md": LINK_PAGE, "notes/tree.md": TREE_NOTE, "notes/draft-rate.md": ZH_DRAFT_NOTE})
    git_repo.commit_all("notes", author="tom")
    return base


def test_a_link_heading_keeps_its_markup_in_json_and_shows_its_text_elsewhere(link_headings) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = run_cli("suggest", "notes/tree.md", "notes/draft-rate.md", "--format", "json", "--no-cache")
    assert status == 0
    found = {i["path"]: [s["section"] for s in i["suggestions"]] for i in json.loads(out)["items"]}
    assert found["notes/tree.md"][0] == "[Speculative Decoding with Draft Trees](https://arxiv.org/abs/2401.02222)"
    assert found["notes/draft-rate.md"][0] == "[[草稿模型]]"
    status, text, _ = run_cli("suggest", "notes/tree.md", "notes/draft-rate.md", "--no-cache")
    assert status == 0
    assert "articles/lists.md:3  Speculative Decoding with Draft Trees\n" in text
    assert "articles/lists.md:7  草稿模型\n" in text
    assert "](https://" not in text and "[[" not in text


def test_the_digest_shows_link_headings_as_text(link_headings) -> None:  # type: ignore[no-untyped-def]
    status, markdown, _ = run_cli("digest", "--since", link_headings, "--lang", "zh")
    assert status == 0
    suggested = [line for line in markdown.splitlines() if line.startswith("- `articles/lists.md` ")]
    assert suggested and all("](" not in line and "[[" not in line for line in suggested), suggested
    assert any(line.startswith("- `articles/lists.md` Speculative Decoding with Draft Trees（第 3 行") for line in suggested)
    [touched] = [line for line in markdown.splitlines() if line.startswith("- `articles/lists.md`：")]
    assert "草稿模型" in touched and "[[" not in touched and "Placeholder" in touched
    status, data, _ = run_cli("digest", "--since", link_headings, "--format", "json")
    assert status == 0
    items = {i["path"]: i for i in json.loads(data)["items"]}
    assert items["notes/tree.md"]["suggested_sections"][0]["section"].startswith("[Speculative Decoding")


# -- ids a shared header repeats ----------------------------------------------------------------

HEADER = "> 作者：杨柳 · 笔记索引：https://github.com/tom/notes-index\n\n"
OVERVIEW = """# 检索综述

## 稠密检索

双塔编码器把查询和文档编码成向量，近邻搜索召回；见 [双塔笔记](../notes/dual-encoder.md)。
"""
HEADER_NOTES = {f"notes/old-{n}.md": f"# 旧笔记 {n}\n\n{HEADER}第 {n} 篇：分词与词表。\n" for n in range(6)}
DUAL = "# 双塔检索笔记\n\n" + HEADER + "双塔编码器分别编码查询和文档，向量近邻搜索召回。\n"


def _digest(git_repo, notes: dict[str, str]) -> dict[str, dict]:  # type: ignore[no-untyped-def,type-arg]
    return _digested(git_repo, {".kbcheck.toml": CONFIG, **notes},
                     {"articles/retrieval.md": OVERVIEW, "notes/dual-encoder.md": DUAL})[1]


def test_an_id_only_a_shared_header_carries_does_not_make_an_increment(git_repo) -> None:  # type: ignore[no-untyped-def]
    item = _digest(git_repo, HEADER_NOTES)["notes/dual-encoder.md"]
    assert item["ids"] == []
    assert (item["class"], item["reason"]) == ("review", "already digested: 稠密检索 link this file")


def test_a_repo_few_notes_cite_is_still_the_notes_own(git_repo) -> None:  # type: ignore[no-untyped-def]
    item = _digest(git_repo, dict(list(HEADER_NOTES.items())[:2]))["notes/dual-encoder.md"]
    assert item["ids"] == ["tom/notes-index"]
    # the page's body links the note: it is discussed there, whatever its ids
    assert (item["class"], item["reason"]) == ("review", "already digested: 稠密检索 link this file")


def test_an_edit_of_a_note_nothing_relates_to_is_no_increment(git_repo) -> None:  # type: ignore[no-untyped-def]
    edited = EN_UNRELATED + "\nThe neighbourhood size barely matters past fifty items.\n"
    item = _digested(git_repo, {**EN_BASE, "notes/item-cf.md": EN_UNRELATED},
                     {"notes/item-cf.md": edited})[1]["notes/item-cf.md"]
    assert (item["class"], item["reason"].split(":", 1)[0]) == ("review", "nothing to fold into (body changed)")
