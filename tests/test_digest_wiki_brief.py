"""The digest of a wiki as its maintainer would act on it: what is citable without paper cards,
what a new page cites, which notes a page already discusses, and text that reads as written
(hand-written fixtures in the shape of an Obsidian wiki: source notes, concept pages)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kbcheck.cli import main
from kbcheck.digest.phrases import why
from kbcheck.digest.render_markdown import escape_markdown
from kbcheck.suggest.reasons import reason
from tests.test_digest_real_history import DRAFT_NOTE, PAGE_AFTER, PAGE_BEFORE, TREE_NOTE, TWO_PAPERS, WIKI_CONFIG, ingest


def _digest(base: str, capsys: pytest.CaptureFixture[str], lang: str = "en") -> dict:  # type: ignore[type-arg]
    assert main(["digest", "--since", base, "--format", "json", "--lang", lang]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _items(base: str, capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:  # type: ignore[type-arg]
    """The JSON items, with the title and key points the markdown shows (read from the digest as data)."""
    from kbcheck.config import load_config
    from kbcheck.digest import make_digest
    from kbcheck.git import open_repository

    items = {i["path"]: i for i in _digest(base, capsys)["items"]}
    with open_repository(Path.cwd()) as handle:
        for item in make_digest(handle, load_config(handle.root), since=base, lang="en").items:
            items[item.path].update(title=item.title, key_points=item.key_points)
    return items


# -- citable ids ----------------------------------------------------------------------------------

def test_without_paper_cards_every_arxiv_id_of_an_increment_is_citable(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/chen-2023-draft-2302-01318.md": DRAFT_NOTE,
                                         "wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE})
    document = _digest(base, capsys)
    # the tree note is an increment (only in the Sources list); the draft note is digested
    assert document["citable_ids"] == ["2401.02222"]


# -- a new page's sources -----------------------------------------------------------------------

NEW_PAGE = """# Draft Models

## Description

Small drafts, verified in one pass.

## Sources

- [[two-papers]]
- [[li-2024-tree-2401-02222]]
- [A blog post](https://blog.example.org/drafts)
"""


def test_a_new_page_counts_the_notes_and_pages_its_sources_list_links(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE,
                                         "wiki/sources/two-papers.md": TWO_PAPERS,
                                         "wiki/concepts/draft-models.md": NEW_PAGE,
                                         "wiki/concepts/empty.md": "# Empty\n\n## Sources\n\n- (none yet)\n",
                                         "wiki/concepts/one.md": "## Sources\n\n- [A blog post](https://blog.example.org/one)\n"})
    items = _items(base, capsys)
    # the note naming two ids is still a source the page lists
    assert items["wiki/concepts/draft-models.md"]["reason"] == "new living document: 3 sections, 3 references"
    assert items["wiki/concepts/empty.md"]["reason"] == "new living document: 2 sections, 0 references"
    assert items["wiki/concepts/one.md"]["reason"] == "new living document: 1 section, 1 reference"


# -- which notes a page already discusses ------------------------------------------------------------

LINKING_PAGE = PAGE_AFTER.replace("showed for large decoders.", "showed for large decoders; [[two-papers]] compares both.")


def test_a_note_a_page_body_links_is_discussed_whatever_its_ids(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, LINKING_PAGE, {"wiki/sources/two-papers.md": TWO_PAPERS})
    item = _items(base, capsys)["wiki/sources/two-papers.md"]
    assert (item["class"], item["reason"]) == ("review", "already digested: Description link this file")


def test_a_note_no_page_body_links_stays_new_material(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # it links the page (somewhere to go), the page does not link it
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/two-papers.md": TWO_PAPERS + "\n[[speculative-decoding]]\n"})
    assert _items(base, capsys)["wiki/sources/two-papers.md"]["class"] == "increment"


BLOG_NOTE = """---
type: source
title: A blog post on draft models
url: https://blog.example.org/drafts
---

## Summary

The post walks through [[li-2024-tree-2401-02222]] and a few cheaper tricks.
"""


def test_a_note_does_not_inherit_the_id_of_a_sibling_note_it_links(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/li-2024-tree-2401-02222.md": TREE_NOTE,
                                         "wiki/sources/blog-drafts.md": BLOG_NOTE})
    items = _items(base, capsys)
    assert items["wiki/sources/blog-drafts.md"]["ids"] == []
    assert items["wiki/sources/li-2024-tree-2401-02222.md"]["ids"] == ["2401.02222"]


# -- files no rule reads ---------------------------------------------------------------------------

def test_an_image_matching_no_glob_gives_no_notice(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/a.md": "# A\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"wiki/assets/figure.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
                         "wiki/sources/broken.md": b"# Broken\n\0\0binary\n", "figure-2.png": b"\x89PNG\0"})
    git_repo.commit_all("images", author="tom")
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    notices = capsys.readouterr().err.splitlines()
    assert not [n for n in notices if "figure.png" in n], notices
    # a file the knowledge base maps is still said to be skipped
    assert [n for n in notices if "broken.md" in n and "binary" in n], notices


# -- text as written --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, shown", [
    ("2.5× faster", "2.5× faster"), ("+12.7% on MATH", "+12.7% on MATH"), ("-3 points", "-3 points"),
    ("1. one", "1\\. one"), ("+ plus", "\\+ plus"), ("---", "\\---"), ("2305.07185 is cited", "2305.07185 is cited"),
])
def test_only_what_would_open_a_block_is_escaped_at_the_start(text: str, shown: str) -> None:
    assert escape_markdown(text) == shown


def test_the_reasons_of_a_suggestion_are_said_in_the_digest_language() -> None:
    shared = reason("why.shared_terms", terms="draft, verify")
    assert why("zh", shared) == "共同词：draft, verify"
    assert why("zh", reason("why.links_doc")) == "本笔记链接了该文档"
    assert why("en", shared) == str(shared) == "shared terms: draft, verify"


# -- bookkeeping notes and housekeeping edits ----------------------------------------------------------

def _added(git_repo, notes: dict[str, str], capsys) -> dict[str, dict]:  # type: ignore[no-untyped-def,type-arg]
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/a.md": "# A\n\n## Description\n\nText.\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many(notes)
    git_repo.commit_all("notes", author="tom")
    return _items(base, capsys)


DATED_LOG = "# Ingest history\n\n- 2026-04-18: added five notes\n- 2026-04-19: fixed links\n- 2026-04-20: lint\n"
TASKS = "# Next\n\n- [ ] read the tree-draft paper\n- [x] fix the index\n- [ ] compare two drafts\n"
TEMPLATE_NOTE = "---\ntitle: {{title}}\n---\n\n# {{title}}\n\n## Summary\n\n{{summary}}\n\n## Links\n\n{{links}}\n"


@pytest.mark.parametrize("path, text, reason", [
    ("wiki/sources/log.md", "# Log\n\nWhat was done, in order.\n", "changelog: a record of what was done, not new material"),
    ("wiki/sources/ingest-history.md", DATED_LOG, "changelog: a record of what was done, not new material"),
    ("wiki/sources/next.md", TASKS, "to-do list: plans, not new material"),
    ("wiki/sources/_template.md", TEMPLATE_NOTE, "template: a form for new notes, not new material"),
    ("wiki/sources/template.md", "# Paper\n\n## Summary\n\n## Links\n", "template: a form for new notes, not new material"),
    ("wiki/sources/blank.md", TEMPLATE_NOTE, "template: a form for new notes, not new material"),
])
def test_a_changelog_a_to_do_list_and_a_template_are_bookkeeping(git_repo, capsys, path, text, reason) -> None:  # type: ignore[no-untyped-def]
    item = _added(git_repo, {path: text}, capsys)[path]
    assert (item["class"], item["reason"]) == ("review", reason)


@pytest.mark.parametrize("path, text", [
    ("wiki/sources/template-matching.md", "# Template matching\n\nSliding a patch over an image scores each place.\n"),
    # a word in a name is no template: a chapter on C++ templates, a concept page (`kbcheck.page_templates`)
    ("wiki/sources/chapter-4-template.md", "# Chapter 4\n\nA class template is instantiated per type.\n"),
    ("wiki/sources/thought-template.md", "# Thought templates\n\nReasoning reuses a stored outline.\n"),
    ("wiki/sources/one-dated-line.md", "# Draft models\n\n- 2026-04-18: first read\n- drafts are cheap\n- verify in one pass\n"),
    ("wiki/sources/one-task.md", "# Draft models\n\n- [ ] check the numbers\n- drafts are cheap\n- verify in one pass\n"),
])
def test_a_note_about_a_topic_is_not_bookkeeping(git_repo, capsys, path, text) -> None:  # type: ignore[no-untyped-def]
    # the note links the page: it has somewhere to go
    assert _added(git_repo, {path: text + "\n[[a]]\n"}, capsys)[path]["class"] == "increment"


NOTE_V1 = """---
title: Draft models
updated: 2026-04-18
status: reading
---

# Draft models

Drafts are cheap; the verifier accepts a prefix.

[[a]]

- [ ] check the speedup table

## 待追问

- Does it hold for long contexts?
"""


def _modified(git_repo, new: str, capsys) -> dict:  # type: ignore[no-untyped-def,type-arg]
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/a.md": "# A\n", "wiki/sources/draft.md": NOTE_V1})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/draft.md", new)
    git_repo.commit_all("edit", author="tom")
    return _items(base, capsys)["wiki/sources/draft.md"]


@pytest.mark.parametrize("new", [
    NOTE_V1.replace("updated: 2026-04-18", "updated: 2026-04-21"),
    NOTE_V1.replace("status: reading", "status: done").replace("- [ ] check", "- [x] check"),
    NOTE_V1 + "- Is the draft size tied to the target's?\n",
])
def test_an_edit_of_dates_status_or_open_questions_is_housekeeping(git_repo, capsys, new) -> None:  # type: ignore[no-untyped-def]
    item = _modified(git_repo, new, capsys)
    assert item["class"] == "review" and item["reason"].startswith("housekeeping"), item["reason"]


def test_an_edit_that_adds_a_finding_is_new_material_and_shows_what_it_added(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    new = NOTE_V1.replace("- [ ] check the speedup table\n", "- [ ] check the speedup table\n"
                          "- The `tree` variant accepts 2.5× longer prefixes, see [the table](table.md).\n")
    item = _modified(git_repo, new, capsys)
    assert item["class"] == "increment"
    assert item["key_points"] == "The tree variant accepts 2.5× longer prefixes, see the table."


def test_the_added_lines_shown_for_an_edit_leave_out_lines_of_links_alone(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    new = NOTE_V1.replace("- [ ] check the speedup table\n", "- [ ] check the speedup table\n"
                          "paper link: https://example.org/drafts.pdf\n\n[code](https://example.org/code)\n\n"
                          "- The `tree` variant accepts 2.5× longer prefixes.\n")
    item = _modified(git_repo, new, capsys)
    assert item["key_points"] == "The tree variant accepts 2.5× longer prefixes."


# -- key points -------------------------------------------------------------------------------------

def test_a_note_summary_field_is_its_key_points(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "---\ntitle: Drafts\nsummary: Drafts trade acceptance for speed.\n---\n\n# Drafts\n\nFirst paragraph.\n"
    assert _added(git_repo, {"wiki/sources/drafts.md": note}, capsys)["wiki/sources/drafts.md"]["key_points"] == (
        "Drafts trade acceptance for speed.")


def test_key_points_keep_inline_code_and_link_text(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# Drafts\n\nKept apart from [`log.md`](log.md) (the time line), run with `make all`.\n"
    assert _added(git_repo, {"wiki/sources/drafts.md": note}, capsys)["wiki/sources/drafts.md"]["key_points"] == (
        "Kept apart from log.md (the time line), run with make all.")


def test_a_long_title_is_cut_between_words_with_an_ellipsis(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    title = "Agent " * 12 + "AgentEnvironments Scale Beyond Anything"
    item = _added(git_repo, {"wiki/sources/long.md": f"# {title}\n\nText.\n"}, capsys)["wiki/sources/long.md"]
    assert item["title"].endswith("Agent…") and len(item["title"]) <= 80


# -- sized for reading --------------------------------------------------------------------------------

def _many_digested(git_repo, count: int, capsys) -> str:  # type: ignore[no-untyped-def]
    notes = {f"wiki/sources/note-{n:02}.md": f"# Note {n}\n\nDraft finding {n}.\n" for n in range(count)}
    links = " ".join(f"[[note-{n:02}]]" for n in range(count))
    base = ingest(git_repo, PAGE_AFTER.replace("showed for large decoders.", f"showed; see {links}."), notes)
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    return capsys.readouterr().out


def test_digested_items_beyond_ten_are_counted_not_listed(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    markdown = _many_digested(git_repo, 13, capsys)
    assert markdown.count("already digested: Description link this file") == 10
    assert "- … 3 more already digested (the JSON lists every item)" in markdown
    # the evidence boundary names the first ten paths consumed (13 notes and the page: 4 more)
    assert "  - … 4 more consumed (the JSON lists every path)" in markdown


def test_a_few_digested_items_are_all_listed(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    markdown = _many_digested(git_repo, 3, capsys)
    assert markdown.count("already digested: Description link this file") == 3
    assert "more already digested" not in markdown and "more consumed" not in markdown


def test_a_changelog_is_not_related_material(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/a.md": "# A\n",
                         "wiki/sources/log.md": "# Log\n\n- 2026-04-18: read Speculatron (arXiv:2401.02222)\n",
                         "wiki/sources/speculatron-notes.md": "# Speculatron notes\n\nOn arXiv:2401.02222.\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/speculatron.md", "# Speculatron\n\nDrafts a tree (arXiv:2401.02222).\n")
    git_repo.commit_all("note", author="tom")
    related = [r["path"] for r in _items(base, capsys)["wiki/sources/speculatron.md"]["related"]]
    assert related == ["wiki/sources/speculatron-notes.md"]


# -- placement in the structure that exists -------------------------------------------------------------

SEE_ALSO_PAGE = """# 检索

## 稀疏检索

倒排索引按词项召回文档。

## 相关页面

- 稠密检索：双塔编码器分别编码查询和文档，向量近邻搜索召回。

## 待追问

- 双塔编码器的向量近邻搜索能否替代倒排索引？
"""
DUAL_NOTE = "# 双塔编码器\n\n双塔编码器分别编码查询和文档，向量近邻搜索召回。\n"


def _sections(git_repo, config: str, capsys) -> list[str]:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": config, "wiki/concepts/retrieval.md": SEE_ALSO_PAGE,
                         "wiki/sources/dual.md": DUAL_NOTE})
    git_repo.commit_all("base", author="tom")
    assert main(["suggest", "wiki/sources/dual.md", "--format", "json"]) == 0
    [item] = json.loads(capsys.readouterr().out)["items"]
    return [s["section"] for s in item["suggestions"]]


def test_a_see_also_list_and_open_questions_are_no_home_for_a_note(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    sections = _sections(git_repo, WIKI_CONFIG, capsys)
    assert "相关页面" not in sections and "待追问" not in sections


def test_no_home_heading_can_be_set_to_match_nothing(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    assert "相关页面" in _sections(git_repo, WIKI_CONFIG + "no-home-heading = '$^'\n", capsys)


# -- one language per run ------------------------------------------------------------------------------

@pytest.mark.parametrize("config, expected", [
    (WIKI_CONFIG, "# Knowledge-base digest"),  # an English wiki, no `lang`: English
    (WIKI_CONFIG + 'lang = "zh"\n', "# 知识库增量简报"),  # set: as set
])
def test_the_digest_language_follows_the_knowledge_base_unless_set(git_repo, capsys, config, expected) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": config, "wiki/concepts/speculative-decoding.md": PAGE_BEFORE})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/li-2024-tree-2401-02222.md", TREE_NOTE)
    git_repo.commit_all("note", author="tom")
    assert main(["digest", "--since", base]) == 0
    assert capsys.readouterr().out.startswith(expected)


def test_a_chinese_knowledge_base_gets_a_chinese_digest_by_default(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/检索.md": "# 检索\n\n## 稀疏检索\n\n倒排索引按词项召回文档。\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/dual.md", "# 双塔编码器\n\n双塔编码器分别编码查询和文档，用 ANN 近邻搜索召回。\n")
    git_repo.commit_all("note", author="tom")
    assert main(["digest", "--since", base]) == 0
    assert capsys.readouterr().out.startswith("# 知识库增量简报")


@pytest.mark.parametrize("text, lang", [
    ("Drafts are cheap; the verifier accepts a prefix.", "en"),
    ("ReLU 激活、Dropout 和数据增强让深层网络第一次在 ImageNet 上大幅领先。", "zh"),
    ("", None),
])
def test_text_lang_counts_a_cjk_character_as_a_word(text: str, lang: str | None) -> None:
    from kbcheck.language import text_lang

    assert text_lang(text) == lang


def test_key_points_skip_a_lone_link_a_table_header_and_a_warning_banner(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = ("# Drafts\n[paper link](https://example.org/drafts.pdf)\n\n⚠ Possibly outdated.\n\n"
            "| Year | Introduction |\n| ---- | ------------ |\n| 2024 | Drafts trade acceptance for speed. |\n")
    assert _added(git_repo, {"wiki/sources/drafts.md": note}, capsys)["wiki/sources/drafts.md"]["key_points"] == (
        "2024 · Drafts trade acceptance for speed.")


NEW_PAGE_NOTE = """---
title: Evicting the KV cache
arxiv_id: 2306.14048
---

## Summary

Keeps the heavy-hitter tokens; see [[kv-cache]] and [[speculative-decoding]], and [the PDF](../raw/h2o.pdf).
"""


def test_a_page_a_new_note_links_that_does_not_exist_yet_is_proposed(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/zhang-2023-h2o-2306-14048.md": NEW_PAGE_NOTE})
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    markdown = capsys.readouterr().out
    assert ("- New page `wiki/concepts/kv-cache.md` (linked by this item, not yet written); link it from "
            "`wiki/concepts/speculative-decoding.md`") in markdown
    actions = _digest(base, capsys)["merge_actions"]
    assert [a["action"] for a in actions if a["path"] == "wiki/concepts/kv-cache.md"] == [
        "create wiki/concepts/kv-cache.md for arXiv:2306.14048 (Evicting the KV cache), "
        "linked from wiki/concepts/speculative-decoding.md"]
    # the missing PDF is no living document: no page is proposed for it
    assert not [a for a in actions if "h2o.pdf" in a["path"]]


def _proposed(git_repo, notes: dict[str, str], capsys) -> list[str]:  # type: ignore[no-untyped-def]
    """The new pages the digest proposes for the H2O note, in its order."""
    base = ingest(git_repo, PAGE_AFTER, notes)
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    block = capsys.readouterr().out.split("zhang-2023-h2o-2306-14048.md", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^- New page `([^`]+)`", block, re.MULTILINE)


BROAD_FIRST = NEW_PAGE_NOTE.replace("see [[kv-cache]]", "see [[language-model]], [[heavy-hitter-eviction]]")
OTHERS = {f"wiki/sources/other-{n}.md": f"# Other {n}\n\nA [[language-model]] note.\n" for n in range(3)}


def test_of_the_pages_a_note_links_still_to_write_the_narrowest_comes_first(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # three other notes link the field; the eviction method is this note's own
    proposed = _proposed(git_repo, {"wiki/sources/zhang-2023-h2o-2306-14048.md": BROAD_FIRST, **OTHERS}, capsys)
    assert proposed == ["wiki/concepts/heavy-hitter-eviction.md", "wiki/concepts/language-model.md"]


def test_the_page_named_for_the_work_is_proposed_first(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the note's title opens with its work's coined name, and the note links that work's page last
    note = BROAD_FIRST.replace("title: Evicting the KV cache", "title: \"H2O: Evicting the KV cache\"").replace(
        "[[heavy-hitter-eviction]]", "[[heavy-hitter-eviction]], [[h2o]]")
    proposed = _proposed(git_repo, {"wiki/sources/zhang-2023-h2o-2306-14048.md": note, **OTHERS}, capsys)
    assert proposed == ["wiki/concepts/h2o.md", "wiki/concepts/heavy-hitter-eviction.md"]


def test_pages_as_few_notes_link_keep_the_notes_order(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    proposed = _proposed(git_repo, {"wiki/sources/zhang-2023-h2o-2306-14048.md": BROAD_FIRST}, capsys)
    assert proposed == ["wiki/concepts/language-model.md", "wiki/concepts/heavy-hitter-eviction.md"]


def test_a_page_named_for_one_of_the_notes_authors_is_not_proposed(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = BROAD_FIRST.replace("arxiv_id: 2306.14048", "arxiv_id: 2306.14048\nauthors: [Mira Rao, Tom Li]").replace(
        "see [[language-model]]", "by [[mira-rao]], see [[language-model]]")
    proposed = _proposed(git_repo, {"wiki/sources/zhang-2023-h2o-2306-14048.md": note}, capsys)
    assert proposed == ["wiki/concepts/language-model.md", "wiki/concepts/heavy-hitter-eviction.md"]


def test_a_page_named_for_an_author_and_their_affiliation_is_not_proposed(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # a wiki tells two people of one name apart by a word after it; accents aside
    note = BROAD_FIRST.replace("arxiv_id: 2306.14048", "arxiv_id: 2306.14048\nauthors: [Mira Rao, Tomás Li]").replace(
        "see [[language-model]]", "by [[mira-rao-acme]] and [[tomas-li]], see [[language-model]]")
    proposed = _proposed(git_repo, {"wiki/sources/zhang-2023-h2o-2306-14048.md": note}, capsys)
    assert proposed == ["wiki/concepts/language-model.md", "wiki/concepts/heavy-hitter-eviction.md"]
    # a page named by more than the name and a word or two is no person's
    note = note.replace("[[mira-rao-acme]]", "[[mira-rao-lab-of-speech-research]]")
    proposed = _proposed(git_repo, {"wiki/sources/zhang-2023-h2o-2306-14048.md": note}, capsys)
    assert proposed[0] == "wiki/concepts/mira-rao-lab-of-speech-research.md"


TWO_FOLDERS = WIKI_CONFIG.replace('knowledge = ["wiki/concepts/*.md"]', 'knowledge = ["wiki/concepts/*.md", "wiki/entities/*.md"]')
LISTED = """---
title: Evicting the KV cache
arxiv_id: 2306.14048
---

## Summary

Keeps the heavy-hitter tokens in the cache.

## Concepts

- [[speculative-decoding]]
- [[heavy-hitter-eviction]]

## Models

- [[acme-lab]]
- [[llama-7b]]
"""
ENTITIES = "# A benchmark of evictions\n\nEvictions measured.\n\n## Entities Extracted\n\n- [[h2o-benchmark]]\n"


def test_a_new_page_goes_in_the_folder_its_list_files_pages_in(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": TWO_FOLDERS, "wiki/concepts/speculative-decoding.md": PAGE_BEFORE,
                         "wiki/entities/acme-lab.md": "# Acme Lab\n\nA research lab.\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"wiki/sources/zhang-2023-h2o-2306-14048.md": LISTED, "wiki/sources/evictions.md": ENTITIES})
    git_repo.commit_all("ingest", author="tom")
    pages = [a["path"] for a in _digest(base, capsys)["merge_actions"] if a["action"].startswith("create")]
    # beside an existing concept page; beside an existing entity page; under a heading naming the entities folder
    assert sorted(pages) == ["wiki/concepts/heavy-hitter-eviction.md", "wiki/entities/h2o-benchmark.md",
                             "wiki/entities/llama-7b.md"]


def test_with_one_page_folder_every_new_page_goes_there(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": WIKI_CONFIG, "wiki/concepts/speculative-decoding.md": PAGE_BEFORE})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"wiki/sources/evictions.md": ENTITIES})
    git_repo.commit_all("ingest", author="tom")
    pages = [a["path"] for a in _digest(base, capsys)["merge_actions"] if a["action"].startswith("create")]
    assert pages == ["wiki/concepts/h2o-benchmark.md"]


def test_a_link_the_templates_write_too_is_a_placeholder_not_a_page_to_write(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the note was made from the template and kept its `Source: [[Video]]` unfilled; the
    # templates are excluded from the check, as init proposes
    config = WIKI_CONFIG + 'exclude = ["templates/**"]\n'
    git_repo.write_many({".kbcheck.toml": config, "wiki/concepts/speculative-decoding.md": PAGE_AFTER,
                         "templates/source.md": "# {{title}}\n\n- Source: [[Video]]\n- Author: [[link]]\n"})
    base = git_repo.commit_all("base", author="tom")
    note = NEW_PAGE_NOTE.replace("## Summary", "- Source: [[Video]]\n- Author: [[link]]\n\n## Summary")
    git_repo.write("wiki/sources/zhang-2023-h2o-2306-14048.md", note)
    git_repo.commit_all("ingest", author="tom")
    pages = [a["path"] for a in _digest(base, capsys)["merge_actions"] if a["action"].startswith("create")]
    assert pages == ["wiki/concepts/kv-cache.md"]


def test_a_note_whose_links_all_exist_gets_no_new_page(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = NEW_PAGE_NOTE.replace("[[kv-cache]] and ", "").replace(", and [the PDF](../raw/h2o.pdf)", "")
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/zhang-2023-h2o-2306-14048.md": note})
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    assert "New page" not in capsys.readouterr().out


def test_an_increment_shows_five_cautions_and_counts_the_rest(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    numbers = "\n\n".join(f"The drafts reach {90 + n}.{n}% acceptance on task {n}." for n in range(7))
    page = PAGE_AFTER + "- [[many-numbers]]\n"  # listed among the page's sources: somewhere to go
    base = ingest(git_repo, page, {"wiki/sources/many-numbers.md": f"# Many numbers\n\n{numbers}\n"})
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    block = capsys.readouterr().out.split("**Cautions**", 1)[1].split("\n## ", 1)[0]
    assert block.count("- KB005 ") == 5 and "- … 2 more" in block


def test_a_new_page_no_existing_page_should_link_names_none(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = NEW_PAGE_NOTE.replace(" and [[speculative-decoding]]", "")
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/zhang-2023-h2o-2306-14048.md": note})
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    markdown = capsys.readouterr().out
    assert "- New page `wiki/concepts/kv-cache.md` (linked by this item, not yet written)\n" in markdown


def _cautions(git_repo, note: str, capsys) -> list[str]:  # type: ignore[no-untyped-def]
    base = ingest(git_repo, PAGE_AFTER, {"wiki/sources/links.md": note})
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    items = {i["path"]: i for i in json.loads(capsys.readouterr().out)["items"]}
    return [w for w in items["wiki/sources/links.md"]["warnings"] if w.startswith("KB009")]


def test_one_broken_target_linked_three_times_is_one_caution_naming_its_lines(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# Links\n\nDrafts, see [[concepts/gone]].\n\nAgain [[concepts/gone]].\n\nAnd [[concepts/gone]] once more.\n"
    (caution,) = _cautions(git_repo, note, capsys)
    assert caution.startswith("KB009 wiki/sources/links.md:3, 5, 7: ")


def test_broken_links_to_different_targets_are_one_caution_naming_them(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# Links\n\nDrafts, see [[concepts/gone]].\n\nAnd [the other](../concepts/other-gone.md), [[concepts/gone]].\n"
    assert _cautions(git_repo, note, capsys) == [
        "KB009 wiki/sources/links.md: links 2 files that do not exist (pages not written yet, or renamed): "
        "[[concepts/gone]] (lines 3, 5), ../concepts/other-gone.md (line 5)"]


def test_a_note_linking_many_missing_pages_is_one_caution_naming_three(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    links = "\n".join(f"- [[concepts/gone-{n}]]" for n in range(7))
    (caution,) = _cautions(git_repo, f"# Many links\n\nDrafts.\n\n{links}\n", capsys)
    assert caution == ("KB009 wiki/sources/links.md: links 7 files that do not exist (pages not written yet, or "
                       "renamed): [[concepts/gone-0]] (line 5), [[concepts/gone-1]] (line 6), [[concepts/gone-2]] "
                       "(line 7) and 4 more")


def test_links_by_name_to_pages_nobody_wrote_are_pages_to_write_not_cautions(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # a source note ingested before its concept pages: the pages are proposed, not warned about
    links = "\n".join(f"- [[page-to-write-{n}]]" for n in range(5))
    assert _cautions(git_repo, f"# Many links\n\nDrafts.\n\n{links}\n", capsys) == []


def test_a_link_by_name_to_a_page_written_another_way_is_still_a_caution(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    (caution,) = _cautions(git_repo, "# Links\n\nSee [[Speculative_Decoding]] and [[page-to-write]].\n", capsys)
    assert "did you mean [[speculative-decoding]]" in caution and "page-to-write" not in caution


def test_a_renamed_target_leads_the_grouped_caution_with_its_fix(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    note = "# Links\n\nSee [[concepts/gone]], [the page](../concepts/Speculative-Decoding.md) and [[concepts/later]].\n"
    (caution,) = _cautions(git_repo, note, capsys)
    assert ": links 3 files that do not exist" in caution
    assert caution.split("renamed): ", 1)[1].startswith("../concepts/Speculative-Decoding.md (line 3; did you mean")
