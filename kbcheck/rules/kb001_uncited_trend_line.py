"""A trend line in a living document's trend section cites no source.

**What it catches.** Every top-level list item (with its nested items) and
every table body row under the trend section (`§6.2`, `趋势`, `Trends`, and
its sub-sections) must carry at least one source: an arXiv id, a DOI, a
GitHub repo, a card path, an `owner/repo` that names a repo card, a web link,
or a link to a note or PDF of the knowledge base. A source the trend section
(or a sub-section the line sits in) names for the whole of itself counts for
every line in it: one in its heading, in a `来源` / `Source` sub-section, or
a source line that closes it and names one source (`参考资料：[…](…)`,
`Source: …`, the last lines of the section). Another line's citation does
not, nor does a closing list of several sources.

**Why it matters.** A trend is the most quoted and least checked sentence of
a living document. A trend line with no source cannot be re-checked when the
field moves, and it is often a summary of a brief that nobody can find again.

**What it reads.** The living document's sections (their role comes from
the heading patterns), its blocks (list items with their nesting, table
rows) and the citations resolved in each block.

**Fires:**

    ### §6.2 趋势
    - 二次检索是否触发都变成"按收益付费"的决策问题

**Passes:**

    ### §6.2 趋势
    - 二次检索是否触发都变成"按收益付费"的决策问题（arXiv:2610.37358）

**How to fix.** Add the id of the paper, repo or card the trend rests on, in
the item itself or in one of its nested items.

**How to suppress.** `<!-- kbcheck: disable=KB001 -->` on its own line before
the item, or `ignore = ["KB001"]` / `per-file-ignores` in `.kbcheck.toml`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.numbers import section_sources
from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _
from kbcheck.model.document import TREND

if TYPE_CHECKING:
    from collections.abc import Callable

    from kbcheck.config import Config
    from kbcheck.model.document import Document
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB001"
NAME = "uncited-trend-line"
SEVERITY = "error"
KINDS = ("knowledge",)


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    doc = kb.document(file.path)
    if doc is None:
        return
    resolved = kb.resolve(file.path)
    citations, links = resolved.block_citations, resolved.block_links
    declared = section_sources(doc, resolved)
    for block in doc.blocks:
        if doc.sections[block.section].role != TREND:
            continue
        is_trend_line = (block.kind == "list_item" and block.parent is None) or block.kind == "table_row"
        if not is_trend_line:
            continue
        if any(citations[b.index] or links[b.index] for b in (block, *doc.descendants(block))):
            continue
        if _declared_by_section(doc, block.section, declared):
            continue
        first_line = block.text.split("\n", 1)[0].strip()
        yield Problem(
            path=file.path, line=block.line, column=1, end_line=block.end_line,
            facts=UncitedTrendLine(first_line), subject=first_line[:80],
        )


@dataclass(frozen=True, slots=True)
class UncitedTrendLine(Facts):
    """The trend line (its first line) cites no source."""

    text: str

    def message(self) -> str:
        return _("trend line cites no source: \"{line}\"; add the arXiv id, DOI, repo or card it rests on",
                 line=_short(self.text))


def _declared_by_section(doc: Document, index: int | None, declared: Callable[[int], bool]) -> bool:
    """Whether the line's trend section, or a trend sub-section it sits in, names its own source."""
    while index is not None and doc.sections[index].role == TREND:
        if declared(index):
            return True
        index = doc.sections[index].parent
    return False


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
