"""An increment is placed where its own links say: a concept page it links and writes about, or the
section that cites a note it links (hand-written fixtures shaped like a wiki's source note with
concept and author pages, and a zettelkasten note beside an article)."""

from __future__ import annotations

import pytest

from kbcheck.config import load_config
from kbcheck.digest import make_digest
from kbcheck.digest.model import Item
from kbcheck.digest.own_links import linked_placement, title_names
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
        return [(s.living_doc, s.section, *map(str, s.why)) for s in linked_placement(kb, "notes/str.md", Suggester(kb))]


def test_the_section_citing_a_note_this_note_links_is_proposed(git_repo: GitRepo) -> None:
    placed = _article(git_repo, IN_BODY)
    assert placed[0] == ("articles/cnn.md", "早期网络", "cites notes/lenet.md, which the note links")


def test_a_link_in_the_note_own_reference_list_places_nothing(git_repo: GitRepo) -> None:
    placed = _article(git_repo, IN_REFERENCES)
    assert not [p for p in placed if "which the note links" in " ".join(p)]


def test_the_reason_is_said_in_chinese() -> None:
    from kbcheck.digest.phrases import why
    from kbcheck.suggest.reasons import reason

    assert why("zh", reason("why.cites_linked", path="notes/lenet.md")) == "引用了本笔记所链接的 notes/lenet.md"


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


BENCH_PAGE = """---
title: {title}
---

## Description

A benchmark of retrieval tasks from many domains, used to test models trained on one.

## Sources

{sources}
"""
BENCH_NOTE = """---
title: "{title}: A Heterogeneous Benchmark for Zero-shot Retrieval"
arxiv_id: 2104.08663
---

## Summary

Eighteen retrieval datasets from nine domains; lexical baselines generalise better than dense retrievers
trained on one domain, and few-shot learning of the ranker narrows the gap.

## Concepts

- [[few-shot-learning]]
"""


def _bench_wiki(repo: GitRepo, title: str, page_sources: str = "- [[old-note]]") -> None:
    page = f"wiki/entities/{title.lower()}.md"
    repo.write_many({".kbcheck.toml": WIKI, "wiki/concepts/few-shot-learning.md": CONCEPT,
                     page: BENCH_PAGE.format(title=title, sources=page_sources), "wiki/sources/old-note.md": OLD_NOTE})
    repo.commit_all("base", author="tom")
    repo.write("wiki/sources/thakur-2021.md", BENCH_NOTE.format(title=title))
    repo.commit_all("ingest", author="tom")


def test_the_page_named_for_the_work_comes_first(git_repo: GitRepo) -> None:
    # the note never links `quarry.md`, and the concept page it links scores better by its words
    _bench_wiki(git_repo, "QUARRY")
    placed, _ranked = _placement(git_repo, "wiki/sources/thakur-2021.md")
    assert placed[0] == ("wiki/entities/quarry.md", "Description")
    with open_repository(git_repo.path) as handle:
        digest = make_digest(handle, load_config(handle.root), since="HEAD~1", lang="en", cache=False)
    [item] = [i for i in digest.items if i.path == "wiki/sources/thakur-2021.md"]
    assert str(item.suggested_sections[0].why[0]) == "the page is named for this work (QUARRY)"


def test_a_page_named_with_a_word_is_not_the_works_page(git_repo: GitRepo) -> None:
    # `Quarry: …` is a word, not a coined name: `quarry.md` may be about quarries
    _bench_wiki(git_repo, "Quarry")
    placed, _ranked = _placement(git_repo, "wiki/sources/thakur-2021.md")
    assert placed[0][0] == "wiki/concepts/few-shot-learning.md"


def test_a_note_its_works_page_already_lists_is_digested(git_repo: GitRepo) -> None:
    # `quarry.md` lists the note under `Sources` only: a page about the work is its entry
    _bench_wiki(git_repo, "QUARRY", "- [[old-note]]\n- [[thakur-2021]]")
    with open_repository(git_repo.path) as handle:
        digest = make_digest(handle, load_config(handle.root), since="HEAD~1", lang="en", cache=False)
    [item] = [i for i in digest.items if i.path == "wiki/sources/thakur-2021.md"]
    assert (item.cls, item.reason) == ("review", "already digested, in quarry Description")


def test_an_author_page_listing_the_note_leaves_it_new_material(git_repo: GitRepo) -> None:
    # a page drawn from the note but about someone else holds nothing on what the work says
    _bench_wiki(git_repo, "QUARRY")
    git_repo.write("wiki/entities/mira-rao.md", AUTHOR.replace("Lewis Tunstall", "Mira Rao")
                   .replace("[[old-note]]", "[[thakur-2021]]"))
    git_repo.commit_all("author page", author="tom")
    with open_repository(git_repo.path) as handle:
        digest = make_digest(handle, load_config(handle.root), since="HEAD~2", lang="en", cache=False)
    [item] = [i for i in digest.items if i.path == "wiki/sources/thakur-2021.md"]
    assert item.cls == "increment"
    assert item.reason == "new material: arXiv:2104.08663 is in the reference list with no entry (cited, no entry)"


USED = """---
title: CodeArena
---

## Description

CodeArena is a benchmark of hand-written Python problems with unit tests; small code models and large ones
are ranked by pass@1 on its problems, and their pretraining exercises are checked for contamination.

## Sources

{sources}
"""
CURATION = """# Data Curation

## Key Points

- Filtering web text by educational value before pretraining.

## Sources

- [[old-note]]
"""
TEXTBOOKS = """---
title: Textbook-quality data for small code models
---

## Summary

A small code model pretrained on filtered web text of educational value and on synthetic exercises reaches
a CodeArena pass@1 of 50; data curation matters more than scale. CodeArena problems were checked for
contamination against the exercises.

## Concepts

- [[codearena]]
- [[data-curation]]
"""


def test_a_page_every_note_links_yields_to_the_narrower_page_the_note_links(git_repo: GitRepo) -> None:
    # the benchmark's page shares more of the note's words, but it lists what every note evaluated on
    # it: the note's own contribution goes to the narrower concept page it links
    others = [f"wiki/sources/user-{n}.md" for n in range(12)]
    sources = "\n".join(f"- [[user-{n}]]" for n in range(12))
    git_repo.write_many({".kbcheck.toml": WIKI, "wiki/entities/codearena.md": USED.format(sources=sources),
                         "wiki/concepts/data-curation.md": CURATION, "wiki/sources/old-note.md": OLD_NOTE,
                         **{p: f"# Model {n}\n\nA code model.\n" for n, p in enumerate(others)}})
    git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/textbooks.md", TEXTBOOKS)
    git_repo.commit_all("ingest", author="tom")
    placed, ranked = _placement(git_repo, "wiki/sources/textbooks.md")
    assert ranked[0][0] == "wiki/entities/codearena.md"  # the ranking alone prefers the benchmark
    assert placed[0][0] == "wiki/concepts/data-curation.md"


def test_a_page_few_notes_link_keeps_its_place_by_the_ranking(git_repo: GitRepo) -> None:
    # the same benchmark page listing one note is as narrow as the concept page: the ranking decides
    git_repo.write_many({".kbcheck.toml": WIKI, "wiki/entities/codearena.md": USED.format(sources="- [[old-note]]"),
                         "wiki/concepts/data-curation.md": CURATION, "wiki/sources/old-note.md": OLD_NOTE})
    git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/textbooks.md", TEXTBOOKS)
    git_repo.commit_all("ingest", author="tom")
    placed, ranked = _placement(git_repo, "wiki/sources/textbooks.md")
    assert placed[0][0] == ranked[0][0] == "wiki/entities/codearena.md"


SEQUEL = """---
title: "Textbook Quality Data for Code II: a larger model"
---

## Summary

The second report trains a larger model on the same filtered and synthetic textbook data, and few-shot
learning from prompts improves with it.

## Concepts

- [[few-shot-learning]]
"""
FIRST_REPORT = "---\ntitle: Textbook Quality Data for Code\n---\n\n## Summary\n\nA small code model on textbook data.\n"
OTHER_OPENING = "---\ntitle: Textbook Quality\n---\n\n## Summary\n\nWhat makes a textbook good.\n"


def test_a_note_whose_title_begins_another_is_related_material(git_repo: GitRepo) -> None:
    git_repo.write_many({".kbcheck.toml": WIKI, "wiki/concepts/few-shot-learning.md": CONCEPT,
                         "wiki/sources/old-note.md": OLD_NOTE, "wiki/sources/first.md": FIRST_REPORT,
                         "wiki/sources/short.md": OTHER_OPENING})
    git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/second.md", SEQUEL)
    git_repo.commit_all("ingest", author="tom")
    with open_repository(git_repo.path) as handle:
        digest = make_digest(handle, load_config(handle.root), since="HEAD~1", lang="en", cache=False)
    [item] = [i for i in digest.items if i.path == "wiki/sources/second.md"]
    assert item.cls == "increment"
    alike = [r.path for r in item.related if r.why.startswith("one title begins with the other")]
    # `Textbook Quality` (two words) names no work: a title that short begins many
    assert alike == ["wiki/sources/first.md"]


BACKBONE = """# Transformer

## Key Points

- Self-attention layers with residual connections; the backbone of most language models.

## Sources

- [[old-note]]
"""
RETRIEVAL_NOTE = """---
title: "{title}"
---

## Summary

A transformer language model looks up its next token in a datastore of cached contexts, and an automaton
over the datastore saves most of the lookups. The transformer backbone is unchanged.

## Concepts

- [[transformer]]
- {pending}
"""


def _pending_topic(repo: GitRepo, title: str, pending: str = "[[knn-language-model]]") -> Item:
    """The digest's item for a note that links the existing `transformer` page and, by `pending`,
    a page still to write."""
    repo.write_many({".kbcheck.toml": WIKI, "wiki/concepts/transformer.md": BACKBONE,
                     "wiki/concepts/few-shot-learning.md": CONCEPT, "wiki/sources/old-note.md": OLD_NOTE})
    repo.commit_all("base", author="tom")
    repo.write("wiki/sources/retrieval.md", RETRIEVAL_NOTE.format(title=title, pending=pending))
    repo.commit_all("ingest", author="tom")
    with open_repository(repo.path) as handle:
        digest = make_digest(handle, load_config(handle.root), since="HEAD~1", lang="en", cache=False)
    return next(i for i in digest.items if i.path == "wiki/sources/retrieval.md")


def test_a_page_linked_beside_a_topic_still_to_write_is_no_home(git_repo: GitRepo) -> None:
    # the note's topic (kNN language models) has no page yet: the backbone's page is not where it goes
    item = _pending_topic(git_repo, "Automaton-Augmented Retrieval for Language Models")
    assert item.cls == "increment"
    assert item.suggested_sections == []
    assert [p.path for p in item.new_pages] == ["wiki/concepts/knn-language-model.md"]


def test_a_page_the_title_names_stays_a_home_beside_a_topic_still_to_write(git_repo: GitRepo) -> None:
    item = _pending_topic(git_repo, "Retrieval Makes Transformers Cheaper")
    assert item.suggested_sections[0].living_doc == "wiki/concepts/transformer.md"
    assert [p.path for p in item.new_pages] == ["wiki/concepts/knn-language-model.md"]


def test_without_a_page_still_to_write_the_linked_page_keeps_its_place(git_repo: GitRepo) -> None:
    item = _pending_topic(git_repo, "Automaton-Augmented Retrieval for Language Models", pending="[[few-shot-learning]]")
    assert item.suggested_sections[0].living_doc == "wiki/concepts/transformer.md"
    assert item.new_pages == []


def test_a_title_names_a_page_by_its_words_in_longer_forms() -> None:
    assert title_names("Learning to Encode Position for Transformer", "Positional Encoding")
    assert title_names("Manifold-Constrained Hyper-Connections", "Residual Connection")
    assert not title_names("Automaton-Augmented Retrieval for Language Models", "Transformer")
    # a short word matches only itself: `form` is no form of `formal`
    assert not title_names("A Form of Retrieval", "Formal Grammar")


@pytest.mark.parametrize(("title", "page"), [
    # a next version's `+` is spelled `plus` in its page's name: another work than its predecessor
    ("QUARRY+", "wiki/entities/quarry-plus.md"),
    ("QUARRY", "wiki/entities/quarry.md"),
])
def test_a_next_versions_page_is_its_own(git_repo: GitRepo, title: str, page: str) -> None:
    git_repo.write_many({".kbcheck.toml": WIKI, "wiki/concepts/few-shot-learning.md": CONCEPT,
                         "wiki/entities/quarry.md": BENCH_PAGE.format(title="QUARRY", sources="- [[old-note]]"),
                         "wiki/entities/quarry-plus.md": BENCH_PAGE.format(title="QUARRY+", sources="- [[old-note]]"),
                         "wiki/sources/old-note.md": OLD_NOTE})
    git_repo.commit_all("base", author="tom")
    git_repo.write("wiki/sources/thakur-2021.md", BENCH_NOTE.format(title=title))
    git_repo.commit_all("ingest", author="tom")
    placed, _ranked = _placement(git_repo, "wiki/sources/thakur-2021.md")
    assert placed[0] == (page, "Description")
