"""A claim number has no source, or none of the cards it cites contains it.

**What it catches.** In living documents, briefs and guides: a number
attached to a unit or claim word — `45%`, `2.7x`, `3倍`, `1771⭐`, `被引 19`,
`周增 +26`, `350ms`, `2.4GB`, `1200 tokens/s`, `20T tokens`, `+2 points`,
`涨 2 分`, `18 万亿`; a range (`2-3s`) is one claim — whose block and section cite
nothing, or cite only cards and none of those cards contains a number of
equal value (`1,771` equals `1771`; digits inside ids and dates do not
count). The source is taken from the nearest level that has one: a link
whose text holds the number; the block; its section (heading included); the
heading and lead text of each enclosing section, innermost first (a
`来源` / `Source` sub-section counts as its parent's lead); the file's own
sources (frontmatter such as `url:`, or the title heading of a note about
one paper). A `[n]` marker in the block makes the n-th entry of the
reference list its source. In a guide (a note with one source), the work the
note names at its head is the file's own source too, when all the shapes it
shows name exactly one work (`evidence/head.py`): a byline (`Authors:`,
`作者：`, `会议: ACL 2025`, `> 期刊：…`, `> 论文：…`, `ISBN`) under the title (the first
heading, of any level) or in a first `## 基本信息` / `## Paper Info` section; a
file named after its title and a year (`2023 Segment Anything.md`; not a dated
`2024-05-01-….md`); head
lines under the title, or above it on the note's first lines, that link or cite it
(`arXiv: …` bold or not, `> ICML 2025. doi:…`, a line of links alone; above the title,
a web address alone over `---`, which markdown reads as a heading, is such a line
too); a `参考：` / `Source:` / `主要来源：` line
anywhere (below a head that names one work, such a line is the source of its own point only);
frontmatter `source`,
`resource`, `paper` or `pdf`; the title heading alone (its file name, in a note whose
first heading is not of level 1), in a note that
`one-work-notes` in the configuration says is about one work (`kbcheck init`
proposes it for a folder whose notes mostly name their work, or that is named
as notes on one kind of work: `BookNotes/`, `paper-notes/`); the work named as a bibliography would
(frontmatter `title` with `authors`, `venue`, `journal` or another of a
bibliography's particulars, the note's one BibTeX entry in a code block
(`@article{…, title={…}}`; several are a reference list), a title heading with subtitle and
year, a `Meta Info` / `论文信息` section); a reference list that holds
exactly one work (by its id, or as one entry that links web pages only: the
work's page, a translation; a link there to another note is a "see also"). A living document or a brief is never read so:
a list of inputs at its top is no source for the numbers below it. Web
links and links to notes or PDFs of the knowledge base and author-date citations
(`(Hinton et al., 2012)`, `Emer and Clark (1984)`) are sources without a card; the card check applies
when every source at that level is a card. Named authors reporting a finding (`Emer and Clark
发现 20% …`, `Ren 等人表明 …`, `X and Y found …`) source the paragraph or list item they stand
in, and no other block. Code, LaTeX math (`$…$`) and
counts of things (`4 条`, `8 项材料`) hold no claim numbers.

**What is no claim.** A number with a unit that a reader would not copy as a
result is exempt. Each exemption has a name; `exempt` under `[rules.KB005]`
in the configuration lists the ones that apply (all of them by default; KB006
reads the same claims):

**Why it matters.** Numbers are what readers copy. A number nobody can
trace back to a paper, repo or card cannot be re-checked and quietly becomes
"common knowledge".

**What it reads.** The claim numbers of each block, their evidence (the
sources of the nearest level that has any, resolved against the knowledge
base) and the numbers written in the cited cards; the decision is shared
with KB006 (`evidence/numbers.py`).

**Given:** the card `organized/paper_cards/1802-2610-04418.md`:

    ---
    arxiv: "2610.04418"
    title: "EAGLE at long context"
    ---
    长上下文下提速 2.7x。

**Fires:**

    ### §4.1 投机解码
    - EAGLE 类方法在长上下文下提速 2.7x

**Passes:** the cited card holds 2.7 (a source that is not a card, such as a
DOI or a GitHub repo without a card, passes too).

    ### §4.1 投机解码
    - EAGLE 类方法在长上下文下提速 2.7x（arXiv:2610.04418）

**How to fix.** Cite the source in the block or a section above it, or correct the
number to what the cited card says. If the number is honestly unverified,
mark the block with `待核` / `待核实` / `unverified` / `[?]`.

**How to suppress.** An uncertainty marker in the block (configurable:
`uncertainty-markers`), `<!-- kbcheck: disable=KB005 -->` before the block,
or `per-file-ignores`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.numbers import NOT_IN_CARDS, UNSOURCED, number_verdicts
from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _, listing, ngettext
from kbcheck.model.exemptions import NAMES, table_doc
from kbcheck.rules.base import Option

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB005"
NAME = "unverified-number"
SEVERITY = "warning"
KINDS = ("knowledge", "brief", "guide")
OPTIONS = {
    "exempt": Option(NAMES, NAMES, "the exemptions that make a number no claim (KB005, KB006); drop one to report "
                                   "what it exempts"),
}
# the table of exemptions is written once, in `kbcheck.model.exemptions`
__doc__ = (__doc__ or "").replace("reads the same claims):\n\n", "reads the same claims):\n\n" + table_doc() + "\n\n", 1)


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    for verdict in number_verdicts(kb, file.path):
        claim = verdict.claim
        if verdict.reason not in (UNSOURCED, NOT_IN_CARDS):
            continue
        facts = UnverifiedNumber(claim.text, verdict.reason, tuple(card.path for card in verdict.cards))
        yield Problem(path=file.path, line=claim.line, column=claim.column, facts=facts, subject=claim.text)


@dataclass(frozen=True, slots=True)
class UnverifiedNumber(Facts):
    """`number` has no source (`reason` "unsourced"), or none of its cited `cards` holds it."""

    number: str
    reason: str
    cards: tuple[str, ...]

    def message(self) -> str:
        if self.reason == UNSOURCED:
            return _("{number} has no source in its block, its sections or the file's own sources; "
                     "cite the paper, repo or card it comes from", number=self.number)
        names = listing(self.cards[:3])
        count = len(self.cards)
        if count <= 3:
            return ngettext("{number} is not found in the cited card {cards}", "{number} is not found in the cited cards {cards}",
                            count, number=self.number, cards=names)
        return ngettext("{number} is not found in the cited cards {cards} and {more} more",
                        "{number} is not found in the cited cards {cards} and {more} more",
                        count - 3, number=self.number, cards=names, more=count - 3)
