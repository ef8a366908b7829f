"""Where the living documents stand on each id, and what a living-document change touched.

Status is read from the living documents at the head revision and summed
over all of them. With several living documents, section
names carry the document's file name (`inference §3.5`), since `§3.5` alone
would be ambiguous.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable

from kbcheck.digest.gist import one_line
from kbcheck.digest.model import CitedId, IdStatus, ItemStatus
from kbcheck.evidence.discussed import Discussions
from kbcheck.evidence.mentions import document_mentions
from kbcheck.model.cards import split_frontmatter
from kbcheck.model.document import REFERENCE, Document, Section, inline_text
from kbcheck.model.knowledge_base import KNOWLEDGE, KnowledgeBase


def living_documents(kb: KnowledgeBase) -> list[str]:
    return kb.paths_of_kind(KNOWLEDGE)


def _namer(path: str, several: bool) -> Callable[[str], str]:
    stem = posixpath.splitext(posixpath.basename(path))[0]
    return (lambda name: f"{stem} {name}") if several else (lambda name: name)


def living_status(kb: KnowledgeBase) -> dict[str, IdStatus]:
    """id -> its status summed over every living document of `kb`."""
    documents = living_documents(kb)
    several = len(documents) > 1
    statuses: dict[str, IdStatus] = {}
    for path in documents:
        doc = kb.document(path)
        if doc is None:
            continue
        name = _namer(path, several)
        discussions = Discussions(kb, path)
        for ident, where in document_mentions(kb, path).items():
            references: list[str] = []
            for line, _col in where.references:
                section = name(doc.section_at(line).name)
                if section not in references:
                    references.append(section)
            entries = list(dict.fromkeys(name(s) for _l, _c, s in sorted(where.entry)))
            about = not where.body and discussions.about(where)
            if about:  # a page named for the work is its entry (`evidence/discussed.py`)
                entries = [name(_lead_section(doc).name)]
            status = IdStatus(
                in_references=bool(where.references),
                entry_mentions=len(where.entry) + about,
                meta_mentions=len(where.meta),
                sections=[name(s) for s in where.sections] or (entries if about else []),
                reference_sections=references,
                entry_sections=entries,
            )
            statuses.setdefault(ident, IdStatus()).add(status)
    return statuses


def _lead_section(doc: Document) -> Section:
    """Where a page about one work begins to discuss it: its first ordinary section with a heading
    (`## Description`), else its title's."""
    ordinary = [s for s in doc.sections if s.heading is not None and s.role is None]
    return next((s for s in ordinary if s.level > 1), ordinary[0] if ordinary else doc.sections[0])


def linking_sections(kb: KnowledgeBase) -> dict[str, list[str]]:
    """file -> the ordinary sections of the living documents that link it (named as statuses name
    them): a note without an id of its own is placed by a link to it, as a wiki's pages link notes."""
    documents = living_documents(kb)
    several = len(documents) > 1
    out: dict[str, list[str]] = {}
    for path in documents:
        doc = kb.document(path)
        if doc is None:
            continue
        name = _namer(path, several)
        for block, links in zip(doc.blocks, kb.resolve(path).block_links):
            section = doc.sections[block.section]
            if section.role is not None:  # the reference list, trend and open-question layers are no entry
                continue
            for link in links:
                if link.kind == "document" and link.target != path:
                    where = out.setdefault(link.target, [])
                    if name(section.name) not in where:
                        where.append(name(section.name))
    return out


def item_status(ids: Iterable[CitedId], statuses: dict[str, IdStatus]) -> ItemStatus:
    """An item's standing: each id's status and their sum (any id can make it a gap)."""
    per_id: dict[str, IdStatus] = {}
    total = IdStatus()
    for cited in ids:
        own = IdStatus()
        known = statuses.get(cited.id)
        if known is not None:
            own.add(known)
        per_id[cited.id] = own
        total.add(own)
    return ItemStatus(total, per_id)


# -- living-document changes ------------------------------------------------------------------

def shown_name(section: Section) -> str:
    """A section's name as a reader sees it: its number, else its heading's text (a heading that
    is a link, `## [Title](url)` or `## [[Page]]`, shows `Title`, `Page`; a long one is cut between
    words, with `…`), else `(preamble)`."""
    if section.label:
        return section.label
    if section.heading:
        return one_line(inline_text(section.heading), 40) or section.name
    return section.name


def _section_texts(doc: Document, text: str) -> dict[str, str]:
    """Section name (numbered on repeats) -> its lines, heading included; frontmatter is no section."""
    lines = text.split("\n")
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    body_line = split_frontmatter(text)[1]
    for section in doc.sections:
        if section.line < body_line:
            continue
        base = shown_name(section)
        seen[base] = seen.get(base, 0) + 1
        key = base if seen[base] == 1 else f"{base} ({seen[base]})"
        out[key] = "\n".join(lines[section.line - 1 : section.end_line])
    return out


def reference_ids(kb: KnowledgeBase, path: str) -> list[CitedId]:
    """Ids in the document's reference list, in order."""
    return [CitedId(where.kind, ident) for ident, where in document_mentions(kb, path).items() if where.references]


def reference_sources(kb: KnowledgeBase, path: str) -> int:
    """How many sources the document's reference list names: its ids, the web pages it links, and
    the notes it links whose id is not among them (a wiki's `Sources` list links its source notes, which may name two ids)."""
    doc = kb.document(path)
    if doc is None:
        return 0
    ids = {cited.id for cited in reference_ids(kb, path)}
    notes: set[str] = set()
    for block, links in zip(doc.blocks, kb.resolve(path).block_links):
        if doc.sections[block.section].role != REFERENCE:
            continue
        for link in links:
            if link.kind == "url":
                notes.add(link.target)
            elif link.kind == "document" and link.target != path:
                own = kb.note_id(link.target)
                if own is None or own[1] not in ids:
                    notes.add(link.target)
    return len(ids) + len(notes)


def touched_sections(old_doc: Document, old_text: str, new_doc: Document, new_text: str) -> list[str]:
    """Sections whose text changed, was added or was removed (new order, then removed ones)."""
    old, new = _section_texts(old_doc, old_text), _section_texts(new_doc, new_text)
    touched = [name for name, body in new.items() if old.get(name) != body]
    touched += [name for name in old if name not in new]
    return touched


def section_count(doc: Document) -> int:
    return sum(1 for section in doc.sections if section.heading is not None)
