"""Numbered markers in prose (`[4]`, `[2, 4]`, `[1-3]`) and the numbered entries they name.

KB002 (is an entry cited by its number?) and KB005 (which entry is a
claim's source?) read markers here, so a range names the same entries for both.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.model.document import Block

#: a numbered marker in prose: `[4]`, `[2, 4]`, `[1-3]`, `[2，5]`
MARKER = lazy(r"\[(\d{1,3}(?:\s*[,，、–-]\s*\d{1,3})*)\]")
#: a reference entry written with its number first: `[4] Title …`
ENTRY_NUMBER = lazy(r"^\s*\[(\d{1,3})\]")
#: a marker stands for at most this many entries (`[1-300]` is no citation)
MAX_MARKED = 20


def marker_numbers(written: str) -> list[str]:
    """The entry numbers inside one marker: `2, 4` -> 2 and 4; `1-3` -> 1, 2 and 3."""
    out: list[str] = []
    for part in re.split(r"\s*[,，、]\s*", written):
        low, _, high = part.partition("-") if "-" in part else part.partition("–")
        if high and low.isdigit() and high.isdigit() and 0 <= int(high) - int(low) < MAX_MARKED:
            out.extend(str(n) for n in range(int(low), int(high) + 1))
        elif low.isdigit():
            out.append(str(int(low)))
    return out[:MAX_MARKED]


def marked_numbers(text: str) -> list[str]:
    """Every entry number the markers of a text name, in order (`见 [1-3], [5]` -> 1, 2, 3, 5)."""
    if "[" not in text:
        return []
    return [n for m in MARKER.finditer(text) for n in marker_numbers(m.group(1))]


def entry_number(block: Block) -> str:
    """A reference entry's number: an ordered item's (`4. …`) or one written first (`[4] …`), else ""."""
    written = ENTRY_NUMBER.match(block.text)
    number = block.ordinal if block.kind == "list_item" and block.ordinal else (written.group(1) if written else "")
    return (number.lstrip("0") or "0") if number else ""
