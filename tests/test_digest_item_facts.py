"""What the digest reads from one changed file's text alone (its frontmatter fields, its title and
key points, whether a card is abstract-only) is cached by blob id: a warm digest reads no YAML
and decodes no card's parse for them, and a changed file is read again."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from gitrepo import GitRepo

import kbcheck.digest.cards as cards
import kbcheck.digest.items as items
from kbcheck.cli import main

CARD = "organized/paper_cards/1748-2610-08815.md"
BRIEF = "inbox/tom/2026-10-29-e1.md"


def card(stars: int, body: str = "固定草稿预算的评测。") -> str:
    return (f'---\narxiv: "2610.08815"\ntitle: "SpecBound"\ntldr: "固定草稿预算的评测"\ns2_citations: {stars}\n---\n\n'
            f"# SpecBound\n\n{body}\n")


def digest() -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["digest", "--since", "HEAD~1", "--format", "json", "--lang", "en"], out=out, err=err) == 0, \
        err.getvalue()
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def item(data: dict[str, Any], path: str) -> dict[str, Any]:
    [found] = [i for i in data["items"] if i["path"] == path]
    return found


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """What is worked out from the text from now on: fields split, items described, cards judged."""
    seen: dict[str, list[str]] = {"fields": [], "described": [], "abstract": []}
    split, describe, abstract = items.split_fields, items.describe, cards._abstract_only

    def counting_split(text: str) -> Any:
        seen["fields"].append(text)
        return split(text)

    def counting_describe(kb: Any, it: Any, path: str) -> None:
        seen["described"].append(path)
        describe(kb, it, path)

    def counting_abstract(kb: Any, c: Any) -> bool:
        seen["abstract"].append(c.path)
        return abstract(kb, c)

    monkeypatch.setattr(items, "split_fields", counting_split)
    monkeypatch.setattr(items, "describe", counting_describe)
    monkeypatch.setattr(cards, "_abstract_only", counting_abstract)
    return seen


def test_a_warm_digest_reads_nothing_again(git_repo: GitRepo, reads: dict[str, list[str]]) -> None:
    git_repo.commit_files({CARD: card(3)}, "card")
    git_repo.commit_files({CARD: card(9), BRIEF: "# E1 brief\n\nSpecBound（arXiv:2610.08815）值得一读。\n"}, "refresh")
    first = digest()
    refreshed = item(first, CARD)
    assert refreshed["changed_fields"] == {"s2_citations": [3, 9]}
    assert item(first, BRIEF)["ids"] == ["2610.08815"]
    assert len(reads["fields"]) == 2 and sorted(reads["described"]) == [BRIEF, CARD]
    for seen in reads.values():
        seen.clear()
    assert digest() == first
    assert reads == {"fields": [], "described": [], "abstract": []}


def test_a_changed_card_is_read_again(git_repo: GitRepo, reads: dict[str, list[str]]) -> None:
    git_repo.commit_files({CARD: card(3)}, "card")
    git_repo.commit_files({CARD: card(9, "固定草稿预算的评测")}, "refresh")
    # the body only repeats the tldr: an abstract-only card
    assert any("abstract" in w or "摘要" in w for w in item(digest(), CARD)["warnings"])
    assert reads["abstract"] == [CARD]
    git_repo.commit_files({CARD: card(12, "正文：固定草稿预算下提速 2.1×。")}, "the card gets a body")
    for seen in reads.values():
        seen.clear()
    data = digest()
    assert item(data, CARD)["changed_fields"] == {"s2_citations": [9, 12], "body": None}
    assert not any("abstract" in w for w in item(data, CARD)["warnings"])
    assert reads["abstract"] == [CARD] and reads["described"] == [CARD]


def test_a_warm_digest_reads_no_note_prose_for_cautions_or_stubs(git_repo: GitRepo,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import kbcheck.digest.contradiction as contradiction

    read: list[str] = []
    prose, is_stub = contradiction.prose, items.is_stub

    def counting_prose(document: Any, text: str) -> list[str]:
        read.append("prose")
        return prose(document, text)

    def counting_stub(document: Any, text: str, fields: Any) -> bool:
        read.append("stub")
        return is_stub(document, text, fields)

    monkeypatch.setattr(contradiction, "prose", counting_prose)
    monkeypatch.setattr(items, "is_stub", counting_stub)
    git_repo.commit_files({CARD: card(3)}, "card")
    git_repo.commit_files({BRIEF: "# E1 brief\n\nSpecBound（arXiv:2610.08815）用 24 layers 的草稿模型，值得一读。\n"},
                          "brief")
    first = digest()
    assert sorted(read) == ["prose", "stub"]
    read.clear()
    assert digest() == first
    assert read == []  # both answers came from the cache
    git_repo.commit_files({BRIEF: "# E1 brief\n"}, "the brief is emptied")
    data = digest()
    assert sorted(read) == ["prose", "stub"]  # a changed note is read again
    assert "stub: nothing written yet" in json.dumps(item(data, BRIEF), ensure_ascii=False)
    assert "stub: nothing written yet" not in json.dumps(item(first, BRIEF), ensure_ascii=False)
