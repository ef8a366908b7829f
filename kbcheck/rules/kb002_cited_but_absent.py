"""A paper in a living document's reference list is never discussed in its body.

**What it catches.** An id (arXiv or DOI by default; add `"repo"` to
`reference-kinds` for repos) listed in the reference section (`§七`, `参考`,
`引用`, `References`) that has zero mentions anywhere outside that section —
entries, trend and open-question sections included. The sample brief calls
this "引用挂账、无条目" (cited, no entry). An entry counts as discussed when
the body names its id, links a note about it (a note whose frontmatter or
title names that one id), or names it by its card's title or short name
(the title's part before `:`), by the title or short name of the note the
entry links (`- [[balog-2017-deepcoder]]`, whose note is titled
`DeepCoder: Learning to Write Programs`, is discussed by "DeepCoder"), or
by the entry's own link text (`- [ReAct](https://arxiv.org/abs/2210.03629)`
is discussed by "ReAct"), or, for a numbered entry (`4. …`, `[4] …`), cites its
number (`文献 [4]`, `[2, 4]`, a range `[3-5]`, read as KB005 reads it). A page whose top-level `## Sources` (`## 来源`,
`## 出处`) list holds one entry is drawn from that one source, as a wiki's
entity and concept pages are: the whole body discusses it, and the entry
never fires. With two entries or more, each must be named in the body.

A reference list that is a navigation index is no bibliography, and KB002
does not look at it: every entry links a note of the knowledge base (and
writes no id or web address of its own), and the page has no body beyond
the list: no paragraph outside its lead, and no other list item or table
row but links to notes. Wikis and paper-reading repositories keep such
pages (a `## Paper References` list of links to the notes), with nothing
meant to discuss the entries.

**Why it matters.** A reference without a body entry is a promise that was
never kept: the paper was judged worth citing, but nobody wrote down what it
says or where it fits. These are the highest-value gaps to fill.

**What it reads.** The document's mentions: for each id, where it appears
in the reference section and where in the body (`evidence/mentions.py`).

**Fires:** no section above the list mentions the paper.

    ## §七 引用列表
    - arXiv:2610.02076 — LLM-as-Jev

**Passes:**

    ### §3.1 调度理论与路由
    - LLM-as-Jev 直接从 token 概率读出决策（arXiv:2610.02076）
    ## §七 引用列表
    - arXiv:2610.02076 — LLM-as-Jev

**Given:** the notes `organized/guides/specbound.md`, about one paper each:

    # SpecBound: Fixed-Budget Speculative Decoding (arXiv:2610.08815)

**Given:** and `organized/guides/mimo.md`:

    # MiMo-V2.6: Scaling Reinforcement Learning (arXiv:2610.11959)

**Passes:** a navigation index: its entries link the notes, and nothing else is on the page.

    # 论文索引

    ## Paper References
    - [SpecBound](../guides/specbound.md)
    - [MiMo-V2.6](../guides/mimo.md)

**How to fix.** Write the entry (what the paper adds, in which section), or
drop it from the reference list.

**How to suppress.** `<!-- kbcheck: disable=KB002 -->` before the reference
item, `<!-- kbcheck: disable-file=KB002 -->` for the file, or the baseline to
accept today's backlog and fail only on new gaps.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.labels import SOURCE_LABEL
from kbcheck.evidence.markers import entry_number, marked_numbers
from kbcheck.evidence.mentions import IdMentions, document_mentions, navigation_index
from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _
from kbcheck.model.document import REFERENCE, file_title
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.document import Document, Section
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB002"
NAME = "cited-but-absent"
SEVERITY = "warning"
KINDS = ("knowledge",)


#: shorter names ("RL", "KV") match too much prose to count as a discussion
_MIN_NAME = 3
#: the entries of a reference list
_ITEMS = ("list_item", "table_row")
#: where a title splits into a short name and the rest: `Name: subtitle`, `venue | title`
_SEPARATOR = lazy(r"\s*[:：|｜]\s*|\s+[-–—]\s+")
_TRAILER = lazy(r"(?:\s*[(（\[【][^()（）\[\]【】]*[)）\]】])+\s*$")


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    doc = kb.document(file.path)
    if navigation_index(kb, file.path):
        return  # an index of the knowledge base's notes, not a bibliography: nothing is meant to discuss it
    body: str | None = None
    for ident, where in document_mentions(kb, file.path).items():
        if where.kind not in config.reference_kinds or not where.references or where.body:
            continue
        if doc is not None:
            if _own_source(doc, where):
                continue
            if body is None:
                body = "\n".join(b.text for b in doc.blocks if doc.sections[b.section].role != REFERENCE).casefold()
            if any(_named(name, body) for name in _names(kb, doc, file.path, where)) or _numbered(doc, where, body):
                continue
        line, column = where.references[0]
        yield Problem(path=file.path, line=line, column=column, facts=ReferenceNeverMentioned(ident), subject=ident)


@dataclass(frozen=True, slots=True)
class ReferenceNeverMentioned(Facts):
    """The reference list holds `id`; the body never mentions it."""

    id: str

    def message(self) -> str:
        return _("{id} is in the reference list but never mentioned in the body; write its entry or drop the reference",
                 id=self.id)


def _own_source(doc: Document, where: IdMentions) -> bool:
    """The entry is the one source of the page: the only item of a top-level `## Sources` /
    `## 来源` list, as a wiki page drawn from one note ends. The whole page discusses it."""
    for line, _column in where.references:
        block = doc.block_at(line)
        if block is None:
            continue
        section = doc.sections[block.section]
        if section.heading is None or not SOURCE_LABEL.match(section.heading) or not _top_level(doc, section):
            continue
        entries = [item for item in (doc.blocks[i] for i in section.blocks)
                   if item.kind in _ITEMS and item.depth == 0
                   and (item.refs or any(child.refs for child in doc.descendants(item)))]
        if len(entries) == 1:
            return True
    return False


def _top_level(doc: Document, section: Section) -> bool:
    """A section of the whole file: no parent, or under the file's title heading only."""
    if section.parent is None:
        return True
    title = doc.title_block()
    return title is not None and title.section == section.parent


def _names(kb: KnowledgeBase, doc: Document, path: str, where: IdMentions) -> list[str]:
    """What the body may call an entry: its card's title and short name, the title and short name
    of the note it links (a source note standing for the id), the entry's link texts."""
    names: list[str] = []
    card_path = kb.paper_card_path(where.id) if where.kind == "arxiv" else None
    card = kb.card(card_path) if card_path else None
    if card is not None and card.fields.get("title"):
        names.extend(_name_parts(str(card.fields["title"])))
    resolved = kb.resolve(path)
    for line, _column in where.references:
        block = doc.block_at(line)
        if block is None:
            continue
        for citation in resolved.block_citations[block.index]:
            if citation.note is not None and citation.id == where.id:
                names.extend(_name_parts(_note_title(kb, citation.note)))
        for ref in block.refs:
            if "://" not in ref.text and where.id not in ref.text:
                names.extend(_name_parts(ref.text))
    return [name for name in names if len(name) >= _MIN_NAME and not name.isdigit()]


def _note_title(kb: KnowledgeBase, path: str) -> str:
    """A linked note's title (frontmatter `title`, else its first heading); "" when it has none."""
    title = file_title(kb.document(path), path)
    return "" if title == posixpath.basename(path) else title


def _name_parts(title: str) -> list[str]:
    """A title and its short names: `xDeepFM: Combining …` gives `xDeepFM` and `Combining …`;
    a trailing `(Gu et al., 2019)` or `[2016]` and book-title marks are not part of the name."""
    title = _TRAILER.sub("", " ".join(title.split())).strip("《》「」\"' ")
    parts = [title, *(part.strip("《》「」\"' ") for part in _SEPARATOR.split(title))]
    return list(dict.fromkeys(part for part in parts if part))


def _named(name: str, body: str) -> bool:
    """The name stands in the body, a Latin name as a whole word (`BERT` is not named by `RoBERTa`)."""
    name = name.casefold()
    if name not in body:  # a plain search first: most names are nowhere, and the bounded one is slower
        return False
    before = r"(?<![a-z0-9_-])" if name[0].isascii() and name[0].isalnum() else ""
    after = r"(?![a-z0-9_-])" if name[-1].isascii() and name[-1].isalnum() else ""
    return re.search(before + re.escape(name) + after, body) is not None


def _numbered(doc: Document, where: IdMentions, body: str) -> bool:
    """A numbered entry (`4. [Title](…)`, `[4] Title`) cited in the body by its number: `文献 [4]`,
    `[2, 4]`, `[1-5]` (the markers KB005 reads, `evidence/markers.py`)."""
    numbers: set[str] | None = None
    for line, _column in where.references:
        block = doc.block_at(line)
        number = entry_number(block) if block is not None else ""
        if number:
            if numbers is None:
                numbers = set(marked_numbers(body))
            if number in numbers:
                return True
    return False
