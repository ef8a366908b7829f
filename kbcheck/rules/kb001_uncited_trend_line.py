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

A line that states nothing is no trend line: a question (`state 多大？`,
every line of the item ending with `?` or `？`) and a bare fragment, a
topic of at most two words with no number in it (`长上下文。`,
`Long context`, a label such as `推理侧：`; a Han character counts as half
a word).

A trend section none of whose lines cites anything (no source in the
section, its sub-sections or any of its lines) is one finding for the
section, at its heading, listing its lines: the section as a whole was
written without sources. When some of its lines cite, each line that does
not is a finding of its own.

**Why it matters.** A trend is the most quoted and least checked sentence of
a living document. A trend line with no source cannot be re-checked when the
field moves, and it is often a summary of a brief that nobody can find again.

**What it reads.** The living document's sections (their role comes from
the heading patterns), its blocks (list items with their nesting, table
rows) and the citations resolved in each block.

**Fires:** one line of the section cites, the other does not.

    ### §6.2 趋势
    - 二次检索是否触发都变成"按收益付费"的决策问题
    - 训推一致性成为 RL rollout 系统的一等约束（arXiv:2610.11959）

**Fires:** no line of the section cites: one finding, at the heading.

    ### §6.2 趋势
    - 二次检索是否触发都变成"按收益付费"的决策问题
    - 图像 token 预算开始随内容复杂度浮动

**Passes:**

    ### §6.2 趋势
    - 二次检索是否触发都变成"按收益付费"的决策问题（arXiv:2610.37358）

**Passes:** a question and a fragment state no trend.

    ### §6.2 趋势
    - 路由信号能否从模型自身读出？
    - 长上下文。

**How to fix.** Add the id of the paper, repo or card the trend rests on, in
the item itself or in one of its nested items; for a section drawn from one
source, name it once for the section (in its heading or a closing
`来源：` line).

**How to suppress.** `<!-- kbcheck: disable=KB001 -->` on its own line before
the item (the section's finding then lists the other lines) or before the
section's heading (for the section's finding), or `ignore = ["KB001"]` /
`per-file-ignores` in `.kbcheck.toml`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.numbers import section_sources
from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _, listing
from kbcheck.model.disables import covers_rule
from kbcheck.model.document import TREND, word_count
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from collections.abc import Callable

    from kbcheck.config import Config
    from kbcheck.model.document import Block, Document
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB001"
NAME = "uncited-trend-line"
SEVERITY = "error"
KINDS = ("knowledge",)

#: a line that asks: it ends with a question mark (closing quotes and brackets aside)
_QUESTION = lazy(r"[?？][\s\"'”’」』)）\]】*_]*$")
#: a line of at most this many words names a topic (`长上下文。`, `Long context`), it states nothing
_FRAGMENT_WORDS = 2


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    doc = kb.document(file.path)
    if doc is None:
        return
    resolved = kb.resolve(file.path)
    citations, links = resolved.block_citations, resolved.block_links
    declared = section_sources(doc, resolved)
    uncited: dict[int, list[Block]] = {}  # by trend section (the outermost), in file order
    sourced: set[int] = set()
    for block in doc.blocks:
        if doc.sections[block.section].role != TREND:
            continue
        is_trend_line = (block.kind == "list_item" and block.parent is None) or block.kind == "table_row"
        if not is_trend_line:
            continue
        top = _trend_section(doc, block.section)
        unit = (block, *doc.descendants(block))
        if any(citations[b.index] or links[b.index] for b in unit) or _declared_by_section(doc, block.section, declared):
            sourced.add(top)
            continue
        if not states_a_trend("\n".join(b.text for b in unit)):
            continue
        uncited.setdefault(top, []).append(block)
    for top, lines in uncited.items():
        open_lines = [b for b in lines if not covers_rule(b.disabled, ID)]
        if top in sourced or len(open_lines) < 2:
            yield from (_line_problem(file.path, b) for b in lines)
            continue
        # a disabled line keeps its own (suppressed) finding: its comment is used, and the section's
        # finding lists what is left
        yield from (_line_problem(file.path, b) for b in lines if covers_rule(b.disabled, ID))
        yield _section_problem(file.path, doc, top, open_lines)


def states_a_trend(text: str) -> bool:
    """Whether a trend line states something: a question (`state 多大？`) asks, and a bare
    fragment (`长上下文。`, `Long context`) names a topic; neither is a trend to source."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or all(_QUESTION.search(line) for line in lines):
        return False
    joined = " ".join(lines)
    if any(ch.isdigit() for ch in joined):
        return True  # a number is a claim however short the line (`价格降 10 倍`)
    return word_count(joined) > _FRAGMENT_WORDS


def _line_problem(path: str, block: Block) -> Problem:
    first_line = block.text.split("\n", 1)[0].strip()
    return Problem(
        path=path, line=block.line, column=1, end_line=block.end_line,
        facts=UncitedTrendLine(first_line), subject=first_line[:80],
    )


def _section_problem(path: str, doc: Document, index: int, lines: list[Block]) -> Problem:
    """One finding for a trend section none of whose lines cites anything: at its heading, naming
    the lines; its identity is the heading, so lines added or moved keep it."""
    section = doc.sections[index]
    heading = (section.heading or "").strip()
    return Problem(
        path=path, line=section.line, column=1, end_line=max(b.end_line for b in lines),
        facts=UncitedTrendSection(heading, tuple(b.line for b in lines)), subject=heading[:80],
    )


def _trend_section(doc: Document, index: int) -> int:
    """The outermost trend section a section sits in (the one whose heading named the role)."""
    parent = doc.sections[index].parent
    while parent is not None and doc.sections[parent].role == TREND:
        index, parent = parent, doc.sections[parent].parent
    return index


@dataclass(frozen=True, slots=True)
class UncitedTrendLine(Facts):
    """The trend line (its first line) cites no source."""

    text: str

    def message(self) -> str:
        return _("trend line cites no source: \"{line}\"; add the arXiv id, DOI, repo or card it rests on",
                 line=_short(self.text))


@dataclass(frozen=True, slots=True)
class UncitedTrendSection(Facts):
    """No trend line of the section headed `heading` cites anything: one finding, naming the `lines`."""

    heading: str
    lines: tuple[int, ...]

    def related(self, path: str) -> tuple[tuple[str, int], ...]:
        return tuple((path, line) for line in self.lines)

    def message(self) -> str:
        return _("trend section \"{section}\" cites no source in any of its {count} trend lines "
                 "(lines {lines}); add the arXiv id, DOI, repo or card each rests on, "
                 "or one source for the whole section",
                 section=_short(self.heading), count=len(self.lines), lines=listing([str(n) for n in self.lines]))


def _declared_by_section(doc: Document, index: int | None, declared: Callable[[int], bool]) -> bool:
    """Whether the line's trend section, or a trend sub-section it sits in, names its own source."""
    while index is not None and doc.sections[index].role == TREND:
        if declared(index):
            return True
        index = doc.sections[index].parent
    return False


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
