"""The fixes rules attach to their problems, built from what the rule already knows.

Each builder returns an `Edit` only when the change is provably safe, and
None otherwise: a rule then reports its problem without a fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.findings import Edit
from kbcheck.i18n import _
from kbcheck.model.citations import scan_prose
from kbcheck.model.claims import parse_number
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.model.claims import ClaimNumber
    from kbcheck.model.document import Document
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the number as a claim writes it: sign, digits with or without thousands separators, decimals
_WRITTEN_NUMBER = lazy(r"(?P<sign>[+\-−]?)(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<decimals>\.\d+)?")
#: a multiplier right after the number (`1.2k`, `3万`): restating it would mean rounding
_MULTIPLIER = lazy(r"\s?[kKM千万亿]")
#: the start of a list item's line: indentation, marker, the space after it
_LIST_ITEM = lazy(r"(?P<indent>[ \t]*)(?:(?P<bullet>[-*+])|(?P<number>\d{1,9})(?P<delimiter>[.)]))(?P<space>[ \t]+)\S")
_ENTRY_FORMS = {"arxiv": "arXiv:{}", "doi": "doi:{}", "repo": "{}"}


def restated_number(claim: ClaimNumber, value: float) -> Edit | None:
    """`243⭐` with the card at 245 -> replace `243` by `245`, keeping sign and separator style.

    None when the number is written with a multiplier (`1.2k⭐`) or the new
    value is not a whole number: those would need rounding, which no fixer
    should choose for the writer.
    """
    written = _WRITTEN_NUMBER.search(claim.text)
    if written is None or value != int(value):
        return None
    end = written.end()
    if _MULTIPLIER.match(claim.text, end) or written.group("decimals"):
        return None
    if parse_number(written.group()) != claim.value:
        return None
    whole = int(value)
    digits = f"{abs(whole):,}" if "," in written.group("digits") else str(abs(whole))
    sign = written.group("sign")
    if whole < 0:
        sign = "−" if sign == "−" else "-"
    elif sign not in ("+",):
        sign = ""
    old, new = written.group(), sign + digits
    return Edit(claim.line, claim.column + written.start(), old, new,
                _("Replace `{old}` with `{new}`", old=old, new=new))


def reference_entry(kb: KnowledgeBase, path: str, kind: str, ident: str, ordinal: int) -> Edit | None:
    """The reference-list entry for `ident`, appended after the list's last entry in its own format.

    `ordinal` counts the entries appended before this one (a numbered list
    goes on counting). None when the document has not exactly one
    reference section whose own blocks end in a list, or when the entry
    would not read back as exactly this id.
    """
    doc = kb.document(path)
    text = kb.text(path)
    form = _ENTRY_FORMS.get(kind)
    if doc is None or text is None or form is None:
        return None
    items = _reference_items(doc)
    if not items:
        return None
    lines = text.split("\n")
    last = items[-1]
    marker = _LIST_ITEM.match(lines[last[0] - 1])
    if marker is None:
        return None
    scheme = _abstract_links(doc, lines, items) if kind == "arxiv" else None
    entry = _linked_entry(kb, ident, scheme) if scheme is not None else _entry(kb, kind, ident, form)
    if entry is None:
        return None
    if marker.group("bullet"):
        head = marker.group("bullet")
    else:
        number = int(marker.group("number")) + 1 + ordinal
        head = f"{number}{marker.group('delimiter')}"
    loose = len(items) > 1 and items[-2][1] + 1 < last[0]
    end_line = last[1]
    separator = "\n\n" if loose else "\n"
    return Edit(end_line, len(lines[end_line - 1]) + 1, "",
                f"{separator}{marker.group('indent')}{head}{marker.group('space')}{entry}",
                _("Append `{entry}` to the reference list", entry=entry))


def _reference_items(doc: Document) -> list[tuple[int, int]]:
    """(first line, last line) of each top-level item of the list the one reference section ends with."""
    from kbcheck.model.document import REFERENCE

    sections = [s for s in doc.sections if s.role == REFERENCE]
    if len(sections) != 1:
        return []
    items: list[tuple[int, int]] = []
    for index in sections[0].blocks:
        block = doc.blocks[index]
        if block.kind == "list_item" and block.parent is None:
            items.append((block.line, block.end_line))
        elif block.parent is not None and items:
            items[-1] = (items[-1][0], max(items[-1][1], block.end_line))
        else:
            items = []  # prose (or a table) after the list: the list is not where the section ends
    return items


def _abstract_links(doc: Document, lines: list[str], items: list[tuple[int, int]]) -> str | None:
    """The scheme (`https`) when most of the list's arXiv entries are a link to the paper's abstract
    page (`[Title](https://arxiv.org/abs/2610.11959)`), so a new entry is written as they are; else None."""
    cited = linked = secure = 0
    for first, _last in items:
        block = doc.block_at(first)
        ref = next((r for r in block.refs if r.kind == "arxiv"), None) if block is not None else None
        if ref is None:
            continue
        cited += 1
        line = lines[ref.line - 1] if 1 <= ref.line <= len(lines) else ""
        if ref.form == "link" and ref.text and f"arxiv.org/abs/{ref.value}" in line:
            linked += 1
            secure += "https://arxiv.org/abs/" in line
    if not cited or linked * 2 <= cited:
        return None
    return "https" if secure * 2 >= linked else "http"


def _linked_entry(kb: KnowledgeBase, ident: str, scheme: str) -> str | None:
    """`[MiMo-V2.6](https://arxiv.org/abs/2610.11959)`: the card's title (else the id) linking the
    abstract page; None when the link would not read back as exactly this id."""
    from kbcheck.model.citations import scan_href

    text = _card_title(kb, "arxiv", ident) or f"arXiv:{ident}"
    url = f"{scheme}://arxiv.org/abs/{ident}"
    target = scan_href(url)
    if target is None or target[:2] != ("arxiv", ident) or any(ch in text for ch in "[]\n`"):
        return None
    found, _ = scan_prose(text, kb.roots)
    if any((kind, value) != ("arxiv", ident) for _offset, kind, value, _form in found):
        return None
    return f"[{text}]({url})"


def _card_title(kb: KnowledgeBase, kind: str, ident: str) -> str:
    """The title of the id's card, on one line; "" without a card or a title."""
    card_path = kb.paper_card_path(ident) if kind == "arxiv" else kb.repo_card_path(ident) if kind == "repo" else None
    card = kb.card(card_path) if card_path else None
    return " ".join(str(card.fields.get("title") or "").split()) if card is not None else ""


def _entry(kb: KnowledgeBase, kind: str, ident: str, form: str) -> str | None:
    """`arXiv:2610.11959 — MiMo-V2.6`: the id as the knowledge base writes it, and the card's title."""
    written = form.format(ident)
    if not _reads_as(kb, written, kind, ident):
        return None
    title = _card_title(kb, kind, ident)
    if title and title != ident:
        with_title = f"{written} — {title}"
        if _reads_as(kb, with_title, kind, ident):
            return with_title
    return written


def _reads_as(kb: KnowledgeBase, entry: str, kind: str, ident: str) -> bool:
    """True when the entry cites exactly `ident` and nothing else, so the next check finds it listed."""
    found, _ = scan_prose(entry, kb.roots)
    kinds = {"repo": ("repo", "repo_name")}.get(kind, (kind,))
    return len(found) == 1 and found[0][1] in kinds and found[0][2] == ident
