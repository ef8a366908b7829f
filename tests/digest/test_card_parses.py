"""The digest reads the changed cards' text once: the parse made for their findings is cached."""

from __future__ import annotations

import io
import json

import pytest
from gitrepo import GitRepo

import kbcheck.model.store
from kbcheck.cli import main
from kbcheck.model.facts import document_facts

LIVING = "organized/knowledge/inference.md"
CARD = "organized/paper_cards/1748-2610-08815.md"
REPO_CARD = "organized/repo_cards/4572-recursive-oss-rec.md"


def _card(body: str) -> str:
    return f'---\narxiv: "2610.08815"\ntitle: "SpecBound"\ntldr: "固定草稿预算的评测"\n---\n\n# SpecBound\n\n{body}\n'


def _digest() -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["digest", "--since", "HEAD~1", "--format", "json", "--lang", "en"], out=out, err=err) == 0, err.getvalue()
    data: dict[str, object] = json.loads(out.getvalue())
    return data


@pytest.fixture
def changed_cards(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files({
        LIVING: "# 推理系统活文档\n\n## §4 投机解码\n\n- SpecBound（arXiv:2610.08815）。\n\n## §七 引用列表\n\n- arXiv:2610.08815\n",
        CARD: _card("正文：固定草稿预算下提速 1.8×。"),
        REPO_CARD: '---\nrepo: "recursive-oss/rec"\nstars: 245\n---\n\n# rec\n\nA recursive reader.\n',
    }, "knowledge base")
    git_repo.commit_files({CARD: _card("正文：固定草稿预算下提速 2.1×，在 H200 上复现。"),
                           REPO_CARD: '---\nrepo: "recursive-oss/rec"\nstars: 251\n---\n\n# rec\n\nA recursive reader.\n'},
                          "refresh")
    return git_repo


def test_a_cold_digest_parses_each_card_once(changed_cards: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[tuple[str, str]] = []

    def counting(kind: str, text: str, *args: object, **kwargs: object) -> object:
        parsed.append((kind, text))
        return document_facts(kind, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(kbcheck.model.store, "document_facts", counting)
    first = _digest()
    cards = [item for item in parsed if item[0] in ("paper_card", "repo_card")]
    # both revisions of the refreshed paper card were read: their findings, then their cautions
    assert len({text for _, text in cards}) >= 2
    assert len(cards) == len(set(cards))  # and each was parsed once
    parsed.clear()
    assert _digest() == first
    assert [kind for kind, _ in parsed if kind in ("paper_card", "repo_card")] == []  # warm: none at all


def test_a_full_check_still_caches_no_card_parse(changed_cards: GitRepo) -> None:
    out, err = io.StringIO(), io.StringIO()
    main(["check", "--all", "--format", "json"], out=out, err=err)
    doc_cards = changed_cards.path / ".git" / "kbcheck" / "cache" / "doc-card"
    assert not doc_cards.exists() or not any(doc_cards.glob("*.shard"))
