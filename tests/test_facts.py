"""A file's facts: pure functions of path, kind, content and settings, cached as plain data."""

from __future__ import annotations

import dataclasses
import marshal
from dataclasses import dataclass, field
from typing import Any

import pytest

from kbcheck.cache import decode, encode
from kbcheck.config import Config
from kbcheck.model.cards import PAPER, REPO, Card
from kbcheck.model.document import Block, Document, HeadingPatterns
from kbcheck.model.facts import (
    ParseSettings,
    block_refs,
    card_facts,
    document_facts,
    fact_key,
    file_facts,
    read_text,
)
from kbcheck.model.plain import from_plain, to_plain

CONFIG = Config()
SETTINGS = ParseSettings(
    HeadingPatterns(CONFIG.reference_heading, CONFIG.trend_heading, CONFIG.open_question_heading),
    ("inbox", "organized"), tuple(CONFIG.uncertainty_markers),
)
LIVING = """# 推理加速

## §6.1 进展

- 推测解码在 H200 上加速 2.5×（arXiv:2610.02076），见 [卡片](../paper_cards/1695-2610-02076.md)。
  - 子条目：吞吐提高 38%，待核。
- Routing with `organized/repo_cards/4721-a-b.md` gives 1,771 stars.

## §6.2 趋势

- 长上下文的推测路由 <!-- kbcheck: disable=KB001 -->

## §七 引用列表

| id | note |
|---|---|
| arXiv:2610.02076 | speculative routing |
"""
CARD = """---
arxiv: "2610.02076"
title: "Speculative Routing"
s2_citations: 17
tags: [routing, 推测]
collected: 2026-10-09
---

# Speculative Routing

在 8 张 H200 上吞吐提高 2.7x，引用 arXiv:2610.05512。
"""


def roundtrip(value: object, cls: type) -> object:
    return from_plain(decode(encode(to_plain(value, cls))), cls)


def test_a_document_roundtrips_through_the_cache_encoding() -> None:
    doc = document_facts("knowledge", LIVING, SETTINGS)
    assert doc.blocks[2].refs and doc.blocks[2].claims and doc.file_disabled == frozenset()
    assert roundtrip(doc, Document) == doc
    assert isinstance(roundtrip(doc, Document).blocks[0], Block)  # type: ignore[attr-defined]


def test_a_card_roundtrips_through_the_cache_encoding() -> None:
    card = card_facts("organized/paper_cards/1695-2610-02076.md", PAPER, CARD, SETTINGS)
    again = roundtrip(card, Card)
    assert again == card
    assert again.numbers == card.numbers == frozenset({17.0, 8.0, 2.7})  # type: ignore[attr-defined]
    assert again.fields["collected"] == "2026-10-09"  # type: ignore[attr-defined]


def test_a_broken_card_roundtrips_with_its_problems() -> None:
    card = card_facts("organized/repo_cards/7-owner-repo.md", REPO, "---\nrepo: other/name\n---\n", SETTINGS)
    assert card.problems and roundtrip(card, Card) == card


@dataclass(frozen=True)
class _Span:
    line: int
    label: str | None = None


@dataclass
class _Grown:
    """A model dataclass another change has grown: new fields of every supported shape."""

    name: str
    spans: list[_Span] = field(default_factory=list)
    best: _Span | None = None
    kinds: frozenset[str] = frozenset()
    pairs: tuple[_Span, ...] = ()
    by_name: dict[str, _Span] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


def test_fields_are_written_from_their_definitions() -> None:
    value = _Grown("图", [_Span(1), _Span(2, "§6.2")], _Span(3), frozenset({"a"}), (_Span(4),), {"k": _Span(5)},
                   {"raw": [1, 2.5, None, "字"]})
    plain = to_plain(value, _Grown)
    assert plain == ("图", [(1, None), (2, "§6.2")], (3, None), frozenset({"a"}), ((4, None),), {"k": (5, None)},
                     {"raw": [1, 2.5, None, "字"]})
    assert marshal.loads(marshal.dumps(plain, 2)) == plain
    assert roundtrip(value, _Grown) == value
    assert roundtrip(_Grown("empty"), _Grown) == _Grown("empty")


@dataclass(frozen=True)
class _Paired:
    """Fixed-size tuples, as `Block.claim_links` holds: each place keeps its own type."""

    links: list[tuple[int, int]] = field(default_factory=list)
    named: tuple[str, _Span] | None = None


def test_fixed_size_tuples_are_written_place_by_place() -> None:
    value = _Paired([(0, 2), (1, 3)], ("来源", _Span(7, "§1")))
    plain = to_plain(value, _Paired)
    assert plain == ([(0, 2), (1, 3)], ("来源", (7, "§1")))
    assert roundtrip(value, _Paired) == value
    with pytest.raises(ValueError):
        from_plain(([], ("only one place",)), _Paired)


def test_data_of_another_shape_is_refused() -> None:
    with pytest.raises(ValueError):
        from_plain(("too", "short"), Card)
    with pytest.raises(ValueError):
        from_plain(("x", [("not a span",)], None, frozenset(), (), {}, {}), _Grown)


def test_only_plain_data_is_encoded() -> None:
    for bad in (lambda: None, (lambda: None).__code__, [object()], {"k": {1, object()}}):
        with pytest.raises(ValueError):
            encode(bad)
    assert decode(b"\xff\x00garbage") is None


def test_file_facts_need_nothing_but_their_arguments() -> None:
    facts = file_facts("organized/paper_cards/1695-2610-02076.md", PAPER, CARD.encode("utf-8"), SETTINGS)
    assert facts.card is not None and facts.card.id == "2610.02076"
    assert facts.document is not None
    assert facts.document.blocks[0].line == 9  # the card body's heading, at its line in the file
    assert [r[1] for refs in block_refs(facts.document) for r in refs] == ["2610.05512"]
    brief = file_facts("inbox/tom/a.md", "brief", "# Brief\n\nSee arXiv:2610.02076.\n", SETTINGS)
    assert brief.card is None and brief.document is not None


def test_text_that_cannot_be_read_is_said_why() -> None:
    assert read_text(b"\xef\xbb\xbf# \xe6\x96\x87\r\n") == ("# 文\n", None)
    assert read_text(b"a\0b") == (None, "skipped: binary file (contains NUL bytes)")
    assert read_text(b"# caf\xe9\n") == (None, "skipped: not UTF-8 (byte 0xe9 at offset 5)")
    assert file_facts("inbox/tom/a.md", "brief", b"a\0b", SETTINGS).unread == "skipped: binary file (contains NUL bytes)"


def test_keys_name_everything_a_fact_depends_on() -> None:
    other_roots = dataclasses.replace(SETTINGS, roots=("notes",))
    other_markers = dataclasses.replace(SETTINGS, uncertainty_markers=("TBD",))
    keys = {
        fact_key(SETTINGS, "card", PAPER, "organized/paper_cards/1-2610-02076.md"),
        fact_key(SETTINGS, "card", PAPER, "organized/paper_cards/1-2610-02077.md"),
        fact_key(SETTINGS, "card", REPO, "organized/paper_cards/1-2610-02076.md"),
        fact_key(other_roots, "card", PAPER, "organized/paper_cards/1-2610-02076.md"),
        fact_key(other_markers, "card", PAPER, "organized/paper_cards/1-2610-02076.md"),
        fact_key(SETTINGS, "refs", PAPER, "organized/paper_cards/1-2610-02076.md"),
    }
    assert len(keys) == 6
    assert fact_key(SETTINGS, "refs", "doc") == fact_key(dataclasses.replace(SETTINGS), "refs", "doc")
