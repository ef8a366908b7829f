"""An increment is placed where its own links say: a concept page it links and writes about, or the
section that cites a note it links (hand-written fixtures shaped like a wiki's source note with
concept and author pages, and a zettelkasten note beside an article)."""

from __future__ import annotations

from kbcheck.config import load_config
from kbcheck.digest import make_digest
from kbcheck.digest.own_links import linked_placement
from kbcheck.git import open_repository
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.snapshots import tree_snapshot
from kbcheck.suggest import Suggester
from tests.gitrepo import GitRepo
from tests.kbtools import mapping

WIKI = mapping(["wiki/concepts/*.md", "wiki/entities/*.md"], ["wiki/sources/*.md"], "reference-heading = '(?i)^\\s*(?:sources|references)\\s*$'\n")
CONCEPT = """# Few-Shot Learning

## Definition

Learning a task from a handful of labelled examples.

## Key Points

- Prompting large models is one way; metric learning is another.

## Sources

- [[old-note]]
"""
AUTHOR = """# Lewis Tunstall

## Papers

- Works on efficient text classification and few-shot learning with sentence encoders.

## Sources

- [[old-note]]
"""
OLD_NOTE = "# An older note\n\nMetric learning for few-shot classification.\n"
SETFIT = """---
title: Efficient few-shot text classification without prompts
authors: [Lewis Tunstall]
---

## Summary

A sentence encoder is tuned on pairs built from a few labelled examples, then a small head classifies;
few-shot accuracy matches prompting at a fraction of the cost. Few-shot learning without prompts.

## Concepts

- [[few-shot-learning]]

## Entities

- [[lewis-tunstall]]
"""
ONLY_AUTHOR = SETFIT.replace("- [[few-shot-learning]]\n", "")


def _placement(repo: GitRepo, note: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(the digest's placement, the ranking's alone) of `note`, as (page, section) pairs."""
    with open_repository(repo.path) as handle:
        config = load_config(handle.root)
        digest = make_digest(handle, config, since="HEAD~1", lang="en", cache=False)
        item = next(i for i in digest.items if i.path == note)
        kb = KnowledgeBase(tree_snapshot(handle, "HEAD", config.exclude), config)
        ranked = Suggester(kb).suggest(note)
    return ([(s.living_doc, s.section) for s in item.suggested_sections],
            [(s.living_doc, s.section) for s in ranked])


def _wiki(repo: GitRepo, note: str) -> None:
    repo.write_many({".kbcheck.toml": WIKI, "wiki/concepts/few-shot-learning.md": CONCEPT,
                     "wiki/entities/lewis-tunstall.md": AUTHOR, "wiki/sources/old-note.md": OLD_NOTE})
    repo.commit_all("base", author="tom")
    repo.write("wiki/sources/setfit.md", note)
    repo.commit_all("ingest", author="tom")


def test_a_concept_page_the_note_links_and_writes_about_comes_first(git_repo: GitRepo) -> None:
    _wiki(git_repo, SETFIT)
    placed, _ranked = _placement(git_repo, "wiki/sources/setfit.md")
    assert placed[0][0] == "wiki/concepts/few-shot-learning.md"
    # the author page it links but does not write about is no first choice
    assert placed[0][0] != "wiki/entities/lewis-tunstall.md"


def test_a_linked_page_whose_title_the_note_does_not_write_is_left_to_the_ranking(git_repo: GitRepo) -> None:
    _wiki(git_repo, ONLY_AUTHOR)
    placed, ranked = _placement(git_repo, "wiki/sources/setfit.md")
    assert placed == ranked[:3]


ARTICLES = mapping(["articles/*.md"], ["notes/*.md"])
ARTICLE = """# 卷积网络

## 早期网络

[LeNet 笔记](../notes/lenet.md) 用卷积与池化识别手写数字。

## 训练技巧

学习率预热与权重衰减。
"""
LENET = "# LeNet\n\n卷积与池化交替，最后全连接分类。\n"
IN_BODY = "# 文字识别的比较\n\n识别模型的骨干常沿用 [LeNet](lenet.md) 的卷积与池化结构。\n"
IN_REFERENCES = "# 文字识别的比较\n\n识别模型的骨干与数据集的比较。\n\n## References\n\n1. [LeNet](lenet.md)\n"


def _article(repo: GitRepo, note: str) -> list[tuple[str, str]]:
    repo.write_many({".kbcheck.toml": ARTICLES, "articles/cnn.md": ARTICLE, "notes/lenet.md": LENET})
    repo.commit_all("base", author="tom")
    repo.write("notes/str.md", note)
    repo.commit_all("note", author="tom")
    with open_repository(repo.path) as handle:
        config = load_config(handle.root)
        kb = KnowledgeBase(tree_snapshot(handle, "HEAD", config.exclude), config)
        return [(s.living_doc, s.section, *s.why) for s in linked_placement(kb, "notes/str.md", Suggester(kb))]


def test_the_section_citing_a_note_this_note_links_is_proposed(git_repo: GitRepo) -> None:
    placed = _article(git_repo, IN_BODY)
    assert placed[0] == ("articles/cnn.md", "早期网络", "cites notes/lenet.md, which the note links")


def test_a_link_in_the_note_own_reference_list_places_nothing(git_repo: GitRepo) -> None:
    placed = _article(git_repo, IN_REFERENCES)
    assert not [p for p in placed if "which the note links" in " ".join(p)]


def test_the_reason_is_said_in_chinese() -> None:
    from kbcheck.digest.phrases import why

    assert why("zh", "cites notes/lenet.md, which the note links") != "cites notes/lenet.md, which the note links"


LOGGED = CONCEPT.replace("## Sources", "## Evolution Log\n\n- 2026-04-20 (1 source): introduced via [[old-note]].\n\n## Sources")


def test_a_page_change_log_is_no_home_for_new_material(git_repo: GitRepo) -> None:
    git_repo.write_many({".kbcheck.toml": WIKI, "wiki/concepts/few-shot-learning.md": LOGGED,
                         "wiki/entities/lewis-tunstall.md": AUTHOR, "wiki/sources/old-note.md": OLD_NOTE})
    git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/setfit.md", SETFIT)
    git_repo.commit_all("ingest", author="tom")
    placed, ranked = _placement(git_repo, "wiki/sources/setfit.md")
    assert placed[0][0] == "wiki/concepts/few-shot-learning.md"
    assert "Evolution Log" not in [section for _page, section in placed + ranked]


def test_a_heading_that_only_holds_the_word_log_is_still_a_home() -> None:
    import re

    from kbcheck.config import DEFAULT_NO_HOME_HEADING

    no_home = re.compile(DEFAULT_NO_HOME_HEADING)
    assert no_home.search("Evolution Log") and no_home.search("更新日志") and no_home.search("Changelog")
    assert no_home.search("Log-linear models") is None and no_home.search("Catalog of methods") is None
