"""A number tied to a card field differs from that card's current value.

**What it catches.** In living documents, briefs and guides: a claim number
whose unit names a card field — `⭐`/`stars` → `stars`, `被引`/`citations` →
`s2_citations`, `影响力被引`/`influential citations` → `s2_influential`,
`周增`/`weekly` → `weekly_growth` — backed by exactly one card (the cards
cited in its block, or if the block cites none, in its section), when the
card now says something else. The message names the card and its value.
A number reported here is not also reported by KB005.

**Why it matters.** Star counts and citation counts move every week. A
living document that still says `243⭐` after the card was refreshed to 245
misleads readers, and the fix is mechanical.

**What it reads.** The same claim numbers and evidence as KB005, and the
current field values of the one cited card.

**Given:** the card `organized/repo_cards/4572-recursive-oss-rec.md`:

    ---
    repo: recursive-oss/rec
    stars: 245
    ---
    递归推理的开源实现。

**Fires:**

    - recursive-oss/rec：本轮复采 243⭐

**Passes:** the same line with the card's value,

    - recursive-oss/rec：本轮复采 245⭐

or a number inside quotes (it reports what another document said),

    - recursive-oss/rec：旧简报写的是 "243⭐"

or a block marked as unverified:

    - recursive-oss/rec：本轮复采 243⭐（待核）

**How to fix.** Update the number to the card's value (the digest lists
these as "stale numbers to update"). Fixable: `kbcheck check --fix` writes
the card's value in place of the stale number, keeping its sign and its
thousands separators (`243⭐` → `245⭐`, `周增 +14` → `周增 +17`,
`1,771 stars` → `1,802 stars`); a number written with a multiplier
(`1.2k⭐`, `3万 stars`) is left for you to round.

**How to suppress.** An uncertainty marker in the block, `<!-- kbcheck:
disable=KB006 -->` before it, or `per-file-ignores`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.numbers import STALE, number_verdicts
from kbcheck.findings import Facts, Problem
from kbcheck.fix.edits import restated_number
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB006"
NAME = "stale-number"
SEVERITY = "warning"
KINDS = ("knowledge", "brief", "guide")


def _show(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


@dataclass(frozen=True, slots=True)
class StaleNumber(Facts):
    """`written` (as the document has it) is not the card's `field` value `card_value`."""

    written: str
    card: str
    field: str
    card_value: float

    def now(self) -> str:
        """What the card says now: `stars: 245`."""
        return f"{self.field}: {_show(self.card_value)}"

    def data(self) -> dict[str, object]:
        value = self.card_value
        return {**Facts.data(self), "card_value": int(value) if value == int(value) else value}

    def message(self) -> str:
        return _("{number} is stale: {card} now says {field}: {value}", number=self.written, card=self.card,
                 field=self.field, value=_show(self.card_value))


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    for verdict in number_verdicts(kb, file.path):
        if verdict.reason != STALE or verdict.field_value is None:
            continue
        claim, card = verdict.claim, verdict.cards[0]
        yield Problem(
            path=file.path, line=claim.line, column=claim.column,
            facts=StaleNumber(claim.text, card.path, str(claim.field), verdict.field_value),
            subject=claim.text, fix=restated_number(claim, verdict.field_value),
        )
