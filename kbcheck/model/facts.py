"""A file's facts from its content: pure functions, no I/O, no cache, no processes.

A file's facts are its text (or why it has none), its parse (`Document`:
sections, blocks, refs, claims) and, for a card, its `Card` (fields, id,
problems, numbers). They depend on the content, the file's kind, the parse
settings and, for a card, its path: `ParseSettings.key` and `fact_key` name
all of it, so a cache keyed by them can never hand back a fact computed under
other conditions. What depends on the size limit or on which files exist (the
skip decision, the name indexes) is not a fact of one file's content.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

from kbcheck.i18n import _
from kbcheck.model.cards import PAPER, REPO, Card, parse_card, split_frontmatter
from kbcheck.model.document import Document, HeadingPatterns, parse_document

CARD_KINDS = frozenset({PAPER, REPO})
#: a `citations.Ref` as a plain tuple: (kind, value, line, column, form)
RefTuple = tuple[str, str, int, int, str]
#: each block's refs, aligned with `Document.blocks`
BlockRefs = tuple[tuple[RefTuple, ...], ...]


@dataclass(frozen=True)
class ParseSettings:
    """Everything from the configuration a file's facts depend on."""

    patterns: HeadingPatterns
    #: the top folders of the layout (`organized`, `inbox`): a bare `organized/...` path is a ref
    roots: tuple[str, ...]
    uncertainty_markers: tuple[str, ...]

    @cached_property
    def key(self) -> str:
        """A digest of these settings (kbcheck's own code versions the whole cache)."""
        parts: list[str] = []
        for pattern in (self.patterns.reference, self.patterns.trend, self.patterns.open_question):
            parts += [type(pattern).__name__, pattern.pattern, str(getattr(pattern, "flags", ""))]
        parts += ["roots", *self.roots, "markers", *self.uncertainty_markers]
        return hashlib.sha1("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def fact_key(settings: ParseSettings, fact: str, kind: str, path: str | None = None) -> str:
    """The cache key of one fact: the settings, the fact's name, the kind and, when the fact
    depends on it (a card's id and problems come from its file name), the path."""
    return "\0".join((settings.key, fact, kind, path if path is not None else ""))


def decode_markdown(data: bytes) -> str:
    """Bytes to text with `\\n` line ends; a UTF-8 BOM is dropped. Raises UnicodeDecodeError."""
    text = data.decode("utf-8-sig")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_text(data: bytes) -> tuple[str | None, str | None]:
    """(text, None), or (None, why there is none) for a binary file or one that is not UTF-8.

    The size limit is not decided here: it is configuration, not content.
    """
    if b"\0" in data:
        return None, _("skipped: binary file (contains NUL bytes)")
    try:
        return decode_markdown(data), None
    except UnicodeDecodeError as exc:
        byte = f"0x{data[exc.start]:02x}"
        return None, _("skipped: not UTF-8 (byte {byte} at offset {offset})", byte=byte, offset=exc.start)


def card_facts(path: str, kind: str, text: str, settings: ParseSettings) -> Card:
    """A card's frontmatter, id, problems and numbers."""
    return parse_card(path, kind, text, settings.roots)


def body_line_of(text: str) -> int:
    """The first line of a card's body, after its frontmatter (1-based)."""
    return split_frontmatter(text)[1]


def document_facts(kind: str, text: str, settings: ParseSettings, body_line: int | None = None) -> Document:
    """The parse of a file's markdown; for a card, of its body, with real line numbers.

    `body_line` spares a card's frontmatter a second split when the card is at hand.
    """
    is_card = kind in CARD_KINDS
    offset = 0
    if is_card:
        offset = (body_line if body_line is not None else body_line_of(text)) - 1
    body = "\n".join(text.split("\n")[offset:]) if offset else text
    # a card body is evidence, not claims: no rule reads claims in it
    return parse_document(body, settings.patterns, roots=settings.roots,
                          uncertainty_markers=settings.uncertainty_markers, line_offset=offset,
                          claims=not is_card)


def block_refs(document: Document) -> BlockRefs:
    """Each block's refs as plain tuples, aligned with the document's blocks."""
    return tuple(tuple((r.kind, r.value, r.line, r.column, r.form) for r in block.refs)
                 for block in document.blocks)
