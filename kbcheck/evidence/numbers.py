"""Where a claim number's source is, and whether it backs the number: one decision for KB005 and KB006.

A claim's evidence is taken from the nearest level that has any
(`docs/rules.md`): a link whose text holds the number; its block (with the
list items it sits in); its section, heading included; the heading and lead
text of each ancestor section, innermost first; the file's own sources (its
frontmatter, or its title heading). A sub-section headed as a source label
(`来源`, `出处`, `Source`, `Sources`, `Meta Info`) belongs to its parent's
lead, and so does a `参考资料：` / `Source:` line that closes the section; one
with no parent (a wiki page's closing `## Sources`) is among the file's own
sources. A `[n]` marker in a block brings in the n-th reference entry at the
block's level; in a guide (a note with one source), the work the note names
(`Document.work`) and a reference list of exactly one work (by its id, or one
entry linking web pages: `head.listed_work`) are among the file's own sources.
Web links, links to documents of the knowledge base and author-date citations
(`(Hinton et al., 2012)`) are sources without a card; named authors reporting a finding
(`Emer and Clark 发现 …`) are one at the block level only. KB001 asks the same levels what a trend section names for all its lines.

KB006 compares a number tied to a card field when that level holds exactly
one card; KB005 fires when no level has a source, or when every source at
the nearest level is a card and none of those cards holds the number.
Deciding both here keeps "KB006 wins over KB005" one decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from kbcheck.evidence.head import NO_WORK, listed_work, one_work, own_sources
from kbcheck.evidence.labels import AUTHOR_DATE, NAMED_AUTHORS, SOURCE_LABEL, SOURCE_LINE
from kbcheck.evidence.markers import ENTRY_NUMBER, entry_number, marked_numbers
from kbcheck.globs import matches
from kbcheck.model.cards import frontmatter_fields
from kbcheck.model.document import REFERENCE
from kbcheck.model.exemptions import NAMES
from kbcheck.model.knowledge_base import GUIDE, Link

if TYPE_CHECKING:
    import re

    from kbcheck.model.cards import Card
    from kbcheck.model.claims import ClaimNumber
    from kbcheck.model.document import Block, Document
    from kbcheck.model.knowledge_base import Citation, KnowledgeBase, Resolved

Reason = Literal["stale", "unsourced", "not_in_cards"]
STALE: Reason = "stale"
UNSOURCED: Reason = "unsourced"
NOT_IN_CARDS: Reason = "not_in_cards"

#: an entry with no id or link names a work when its text is at least this long
_MIN_TITLE = 8


@dataclass(frozen=True)
class NumberVerdict:
    """Why a claim number fails: stale against its one card, no source, or absent from every cited card."""

    claim: ClaimNumber
    reason: Reason
    cards: tuple[Card, ...] = ()
    field_value: float | None = None


@dataclass(frozen=True)
class Evidence:
    """The sources at the nearest level that has any."""

    citations: tuple[Citation, ...]
    links: tuple[Link, ...]

    @property
    def only_cards(self) -> bool:
        return not self.links and all(c.card_path for c in self.citations)

    def card_paths(self) -> list[str]:
        return list(dict.fromkeys(c.card_path for c in self.citations if c.card_path))


def number_verdicts(kb: KnowledgeBase, path: str) -> list[NumberVerdict]:
    """Every failing claim number of the document at `path`, computed once per run."""
    return kb.derived(_all_verdicts, path)


def _all_verdicts(kb: KnowledgeBase, path: str) -> list[NumberVerdict]:
    return list(_verdicts(kb, path))


def _same(a: float, b: float) -> bool:
    """Equal values, as written in different places (`1,771` and `1771.0`)."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _holds(kb: KnowledgeBase, cards: Sequence[Card], value: float) -> bool:
    """A card number of equal value; `4.03万` is 40300.000000000004 as a float."""
    target = abs(value)
    for card in cards:
        numbers = kb.card_numbers(card)
        if target in numbers or any(_same(target, n) for n in numbers):
            return True
    return False


def _verdicts(kb: KnowledgeBase, path: str) -> Iterator[NumberVerdict]:
    doc = kb.document(path)
    if doc is None:
        return
    resolved = kb.resolve(path)
    kb.preload(c.card_path for citations in resolved.block_citations for c in citations if c.card_path)
    one_source = kb.kind_of(path) == GUIDE
    levels = _Levels(doc, resolved, one_source=one_source, path=path,
                     titled=one_source and matches(kb.config.one_work_notes, path),
                     front=(lambda: frontmatter_fields(kb.text(path) or "")[0]) if one_source else None)
    # the exemptions switched off make the numbers they alone exempt claims again
    # (read from the configuration here: the rules import this module; KB005 declares the option
    # with every exemption, `NAMES`, as its default)
    exempt = frozenset(kb.config.rules.get("KB005", {}).get("exempt", NAMES))
    for block in doc.blocks:
        if block.uncertain:
            continue
        stated = list(zip(block.claims, _links(block.claims, block.claim_links)))
        if block.exempted and len(exempt) < len(NAMES):
            stated += [(claim, link) for claim, link in zip(block.exempted, _links(block.exempted, block.exempted_links))
                       if not exempt.intersection(claim.exempt)]
            stated.sort(key=lambda pair: (pair[0].line, pair[0].column))
        nearest: Evidence | None = None
        for claim, link in stated:
            evidence = levels.of_link(block, link) if link is not None else None
            if evidence is None:
                nearest = nearest or levels.nearest(block)
                evidence = nearest
            verdict = _judge(kb, claim, evidence)
            if verdict is not None:
                yield verdict


def _links(claims: Sequence[ClaimNumber], links: Sequence[tuple[int, int]]) -> list[int | None]:
    """The ref each claim's link text gives it, aligned with the claims."""
    linked = dict(links)
    return [linked.get(index) for index in range(len(claims))]


def _judge(kb: KnowledgeBase, claim: ClaimNumber, evidence: Evidence) -> NumberVerdict | None:
    if not evidence.citations and not evidence.links:
        return NumberVerdict(claim, UNSOURCED)
    cards = [card for card in (kb.card(p) for p in evidence.card_paths()) if card is not None]
    if claim.field is not None and len(cards) == 1:
        current = cards[0].number_field(claim.field)
        if current is not None and not _same(current, claim.value):
            return NumberVerdict(claim, STALE, (cards[0],), current)
    if evidence.only_cards and not _holds(kb, cards, claim.value):
        return NumberVerdict(claim, NOT_IN_CARDS, tuple(cards))
    return None


def section_sources(doc: Document, resolved: Resolved) -> Callable[[int], bool]:
    """Whether a section names a source for the whole of itself (`_Levels.declared`)."""
    levels = _Levels(doc, resolved)

    def declared(index: int) -> bool:
        evidence = levels.declared(index)
        return bool(evidence.citations or evidence.links)

    return declared


class _Levels:
    """The evidence levels of a document's blocks, each level's sources gathered once."""

    def __init__(self, doc: Document, resolved: Resolved, *, one_source: bool = False, path: str = "",
                 titled: bool = False, front: Callable[[], dict[str, Any]] | None = None) -> None:
        self.doc = doc
        #: the file's path: a note filed under its work's title and year names it (`head.one_work`)
        self.path = path
        #: whether the configuration says the note is about the one work its title names
        self.titled = titled
        self.resolved = resolved
        #: whether the file is a note with one source (a guide): the work it names (`Document.work`)
        #: and the one work of its reference list are that source
        self.one_source = one_source
        #: the file's frontmatter fields, read when the file level is reached (`head.one_work`)
        self.front = front
        self.children: dict[int, list[int]] = {}
        for section in doc.sections:
            if section.parent is not None:
                self.children.setdefault(section.parent, []).append(section.index)
        self._sections: dict[int, Evidence] = {}
        self._file: Evidence | None = None
        self._by_number: dict[str, list[int]] | None = None

    def _gather(self, blocks: Sequence[int], *, own: bool = False) -> Evidence:
        """The sources the blocks name; `own` when they are the number's own block and the items
        it sits in, which named authors reporting a finding back (`labels.NAMED_AUTHORS`) when
        they cite nothing else: beside a cited card (`Wang 等人表明 arXiv:…`), the card is checked."""
        citations = tuple(c for i in blocks for c in self.resolved.block_citations[i])
        links = tuple(link for i in blocks for link in self.resolved.block_links[i])
        links += tuple(self._cited_by_author(blocks, AUTHOR_DATE))
        if own and not citations and not links:
            links = tuple(self._cited_by_author(blocks, NAMED_AUTHORS))
        return Evidence(citations, links)

    def _cited_by_author(self, blocks: Sequence[int], pattern: re.Pattern[str]) -> Iterator[Link]:
        """The works the blocks cite by their authors (`(Hinton et al., 2012)`, `Emer and Clark 发现`):
        sources without a card."""
        for i in blocks:
            block = self.doc.blocks[i]
            for match in pattern.finditer(block.text):
                yield Link("work", match.group(0), block.line, match.start() + 1)

    def of_link(self, block: Block, ref_index: int) -> Evidence | None:
        """The source a link around the number points at, when it resolves to one."""
        ref = block.refs[ref_index]
        at = (ref.line, ref.column)
        citations = tuple(c for c in self.resolved.block_citations[block.index] if (c.line, c.column) == at)
        links = tuple(link for link in self.resolved.block_links[block.index] if (link.line, link.column) == at)
        return Evidence(citations, links) if citations or links else None

    def section(self, index: int) -> Evidence:
        """A section's heading and lead text, with its source-label sub-sections and closing source lines."""
        if index not in self._sections:
            blocks = list(dict.fromkeys([*self.doc.sections[index].blocks, *self._declared_blocks(index)]))
            found, marked = self._gather(blocks), self._marked(self.doc.sections[index].blocks)
            self._sections[index] = Evidence(found.citations + marked.citations, found.links + marked.links)
        return self._sections[index]

    def declared(self, index: int) -> Evidence:
        """The sources a section names for the whole of itself: its heading, its source-label
        sub-sections (`#### 来源`) and the source line that closes it (`参考资料：[…](…)`)."""
        section = self.doc.sections[index]
        heading = [b for b in section.blocks[:1] if self.doc.blocks[b].kind == "heading"]
        return self._gather([*heading, *self._declared_blocks(index)])

    def _declared_blocks(self, index: int) -> list[int]:
        blocks: list[int] = []
        for child in self.children.get(index, ()):
            heading = self.doc.sections[child].heading
            if heading is not None and SOURCE_LABEL.match(heading):
                blocks.extend(self._subtree_blocks(child))
        # a whole note's sources are its own (frontmatter, title, `## Sources`), not its last line
        closing = self._closing_source_lines(index) if self.doc.sections[index].level >= 2 else []
        return blocks + closing

    def _closing_source_lines(self, index: int) -> list[int]:
        """The blocks at the end of a section (sub-sections included) that say they are its
        source: a `参考资料：` / `Source:` paragraph with the list under it, or such list items,
        when they name exactly one source (several at the end are a reference list, whose
        entries back what cites them)."""
        found = self._closing_candidates(index)
        evidence = self._gather(found)
        sources = {(c.kind, c.id) for c in evidence.citations} | {(x.kind, x.target) for x in evidence.links}
        return found if len(sources) == 1 else []

    def _closing_candidates(self, index: int) -> list[int]:
        subtree = set(self._subtree_blocks(index))
        if not subtree:
            return []
        last = max(subtree)
        run: list[int] = []
        at = last
        while at >= 0 and self.doc.blocks[at].kind == "list_item" and at in subtree:
            run.append(at)
            at -= 1
        run.reverse()
        lead = self.doc.blocks[at] if at >= 0 and at in subtree else None
        if lead is not None and lead.kind == "paragraph" and SOURCE_LINE.match(lead.text) and (run or at == last):
            return [at, *run]
        return [b for b in run if SOURCE_LINE.match(self.doc.blocks[b].text)]

    def _subtree_blocks(self, index: int) -> list[int]:
        out = list(self.doc.sections[index].blocks)
        for child in self.children.get(index, ()):
            out.extend(self._subtree_blocks(child))
        return out

    def _entries(self) -> list[int]:
        """The blocks of the reference lists (sections whose role is reference), headings left out."""
        return [b for section in self.doc.sections if section.role == REFERENCE
                for b in section.blocks if self.doc.blocks[b].kind != "heading"]

    def _numbered(self) -> dict[str, list[int]]:
        """Reference-list entries by number: `4. …` (an ordered item) or `[4] …`."""
        if self._by_number is None:
            self._by_number = {}
            for index in self._entries():
                entry = self.doc.blocks[index]
                number = "" if entry.depth else entry_number(entry)
                if number:
                    self._by_number.setdefault(number, []).extend(
                        [index, *(d.index for d in self.doc.descendants(entry))])
        return self._by_number

    def _marked(self, blocks: Sequence[int]) -> Evidence:
        """The sources of the reference entries these blocks name by `[n]`, `[2, 4]`, `[1-3]`.

        An entry that names its work by title alone (`[8] Some Title. ACL 2021`) is that
        work: a reader can find it, as from a bibliography."""
        entries = self._numbered()
        if not entries:
            return Evidence((), ())
        named: list[list[int]] = []
        for index in blocks:
            block = self.doc.blocks[index]
            if self.doc.sections[block.section].role != REFERENCE:
                named.extend(entries[n] for n in marked_numbers(block.text) if n in entries)
        citations: list[Citation] = []
        links: list[Link] = []
        for entry in {tuple(e): e for e in named}.values():
            found = self._gather(entry)
            citations.extend(found.citations)
            links.extend(found.links)
            head = self.doc.blocks[entry[0]]
            title = ENTRY_NUMBER.sub("", head.text).strip()
            if not found.citations and not found.links and len(title) >= _MIN_TITLE:
                links.append(Link("work", title, head.line, 1))
        return Evidence(tuple(citations), tuple(links))

    def file(self) -> Evidence:
        if self._file is None:
            title = self.doc.title_block()
            blocks: list[int] = []
            # a note about one work names it as a bibliography would: the work is its source
            work = (Link("work", self.doc.work, title.line if title is not None else 1, 1),) if (
                self.one_source and self.doc.work) else ()
            for section in self.doc.sections:
                # a top-level `## Sources` section is the lead of the whole file
                if section.parent is None and section.heading is not None and SOURCE_LABEL.match(section.heading):
                    blocks.extend(self._subtree_blocks(section.index))
            # a note with one source whose reference list holds exactly one work is drawn from it
            # (`head.listed_work`; a living document that lists one paper still draws on others)
            if self.one_source:
                blocks.extend(listed_work(self.doc, self.resolved))
            own = self._gather(list(dict.fromkeys(blocks)))
            # a note about one work names it at its head, in one of the shapes of `evidence/head.py`
            head = one_work(self.doc, self.resolved, self.front() if self.front else None, self.path,
                            self.titled) if (
                self.one_source) else NO_WORK
            citations, links = own_sources(self.doc, self.resolved)
            self._file = Evidence(tuple(citations) + own.citations + head.citations,
                                  tuple(links) + own.links + work + head.links)
        return self._file

    def nearest(self, block: Block) -> Evidence:
        """The first level with any source: block, section, ancestor sections, the file."""
        own = self._gather([block.index, *(a.index for a in self.doc.ancestors(block))], own=True)
        if own.citations or own.links:
            return own
        # `[n]` in the block names the n-th entry of the reference list: that entry is its source
        marked = self._marked([block.index, *(a.index for a in self.doc.ancestors(block))])
        if marked.citations or marked.links:
            return marked
        section: int | None = block.section
        while section is not None:
            evidence = self.section(section)
            if evidence.citations or evidence.links:
                return evidence
            section = self.doc.sections[section].parent
        return self.file()
