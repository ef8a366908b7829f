"""An arXiv id is cited that has no paper card in the knowledge base.

**What it catches.** Any arXiv id — `arXiv:2610.02076`, an arxiv.org or
papers.cool URL, a bare new-style id — in any markdown file, for which no
paper card exists. The message suggests the nearest card id. One finding
per id per file, at its first mention. An error in briefs, a warning
elsewhere. A knowledge base with no paper cards at all (the `paper-cards`
glob matches nothing) gets one notice, when an arXiv id is cited, instead
of a finding per id. A link
to a note about a paper is not itself a citation of the paper's id here:
the note is checked on its own.

**Why it matters.** A cited id with no card is either a typo (`2610.02067`
for `2610.02076`), a paper nobody collected yet, or a fabricated id. In a
brief written by an agent the last is common enough to stop the commit.

**What it reads.** The citations resolved in each block of the file and
the index of paper-card ids of the whole knowledge base.

**Given:** the card `organized/paper_cards/1695-2610-02076.md`:

    ---
    arxiv: "2610.02076"
    title: "LLM-as-Jev"
    ---
    用 token 概率直接读出决策。

**Fires:** a typo; the message suggests 2610.02076.

    结论见 arXiv:2610.02067

**Passes:**

    结论见 arXiv:2610.02076

**How to fix.** Correct the id, or collect the paper as a card first.

**How to suppress.** `<!-- kbcheck: disable=KB004 -->` before the block, or
`per-file-ignores` for folders that cite papers freely.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB004"
NAME = "unknown-paper"
SEVERITY = "warning"
SEVERITY_BY_KIND = {"brief": "error"}
KINDS = ("knowledge", "paper_card", "repo_card", "guide", "brief", "markdown")


NO_CARDS = _("KB004 not evaluated: no paper cards in the knowledge base (the paper-cards glob matches nothing)")


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    seen: set[str] = set()
    resolved = kb.resolve(file.path)
    for citations in (*resolved.block_citations, resolved.own_citations):
        for citation in citations:
            if citation.kind != "arxiv" or citation.card_path is not None or citation.note or citation.id in seen:
                continue
            if not kb.has_paper_cards():
                kb.say(NO_CARDS)  # nothing to compare with: said once per run, not once per id
                return
            seen.add(citation.id)
            nearest = kb.nearest_paper_ids(citation.id)
            facts = UnknownPaper(citation.id, nearest[0] if nearest else None,
                                 kb.paper_card_path(nearest[0]) if nearest else None)
            yield Problem(path=file.path, line=citation.line, column=citation.column, facts=facts, subject=citation.id)


@dataclass(frozen=True, slots=True)
class UnknownPaper(Facts):
    """No paper card has arXiv `id`; `nearest` is the closest id that has one (`nearest_card`)."""

    id: str
    nearest: str | None
    nearest_card: str | None

    def message(self) -> str:
        if self.nearest is None:
            return _("arXiv:{id} has no paper card in the knowledge base", id=self.id)
        return _("arXiv:{id} has no paper card in the knowledge base; did you mean {nearest} ({path})?",
                 id=self.id, nearest=self.nearest, path=self.nearest_card)
