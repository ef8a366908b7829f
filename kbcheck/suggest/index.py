"""The living documents' sections as a search index, built once per run.

Each living document is summarised once per content (cached by git blob id
like every other fact): for each section its heading, line, role, terms and
the raw refs and wikilinks of its blocks. Resolving those refs against the
knowledge base (which card a path is, which file a wikilink names) happens
per run, since it depends on the other files.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING

from kbcheck.model.document import OPEN_QUESTION, REFERENCE, TREND
from kbcheck.model.knowledge_base import KNOWLEDGE, MARKDOWN_KINDS, KnowledgeBase
from kbcheck.suggest.interim import file_title, frontmatter, markdown_names, wikilink_text, wikilinks
from kbcheck.suggest.terms import term_counts

if TYPE_CHECKING:
    from kbcheck.config import Config

#: bump when the summary's shape changes: old cache entries are then ignored
_VERSION = "suggest-1"
_NAMESPACE = "suggest"
_LABEL_PREFIX = re.compile(r"^\s*(?:§\s*)?[\d.一二三四五六七八九十百零〇]*\s*[、.．:：]?\s*")
#: (kind, value, form) of a ref, or ("wikilink", name, "link")
RawRef = tuple[str, str, str]
#: heading, line, level, role, label, terms, refs
RawSection = tuple[str, int, int, "str | None", "str | None", dict[str, int], list[RawRef]]


def heading_key(heading: str) -> str:
    """A heading without its number, lower-cased: `## 3.2 Sources` and `## Sources` are one habit."""
    return _LABEL_PREFIX.sub("", heading).strip().lower()


@dataclass
class Section:
    """One section of a living document, with what it cites resolved."""

    doc: str
    heading: str
    line: int
    role: str | None
    label: str | None
    terms: dict[str, int]
    length: int
    #: ids (`arxiv:…`, `doi:…`, `repo:…`) and files (`path:…`) the section cites or links
    targets: set[str] = field(default_factory=set)
    #: kinds of what it cites: file kinds (`paper_card`, `guide`…) and id kinds (`arxiv`, `repo`…)
    cited_kinds: Counter[str] = field(default_factory=Counter)

    #: the heading without its number, as habits count it
    habit_key: str = ""

    def __post_init__(self) -> None:
        self.habit_key = heading_key(self.heading)

    @property
    def candidate(self) -> bool:
        """A place for an entry: not the reference list, not the trend or open-question layer."""
        return self.role not in (REFERENCE, TREND, OPEN_QUESTION)


@dataclass
class Document:
    path: str
    title: str
    name_terms: dict[str, int]
    sections: list[Section]
    #: files and ids the whole document links (what a note linking it shares with it)
    links_out: set[str] = field(default_factory=set)


class SectionIndex:
    """Every section of every living document, with term statistics for ranking."""

    def __init__(self, documents: list[Document]) -> None:
        self.documents = {d.path: d for d in documents}
        self.sections = [s for d in documents for s in d.sections]
        self.candidates = [s for s in self.sections if s.candidate]
        self._by_doc: dict[str, list[int]] = {}
        self._idf: dict[str, float] = {}
        #: tf-idf vectors of the notes sections cite, made once per run
        self.vectors: dict[str, tuple[dict[str, float], float]] = {}
        for number, section in enumerate(self.candidates):
            self._by_doc.setdefault(section.doc, []).append(number)
        #: how many candidate sections hold each term (counted in C: a wiki has a million term slots)
        self.df: Counter[str] = Counter(chain.from_iterable(s.terms for s in self.candidates))
        total = sum(s.length for s in self.candidates)
        self.average_length = total / len(self.candidates) if self.candidates else 1.0
        self.target_df: Counter[str] = Counter(t for s in self.candidates for t in s.targets)
        #: target -> the candidates citing it
        self.by_target: dict[str, list[int]] = {}
        for number, section in enumerate(self.candidates):
            for target in section.targets:
                self.by_target.setdefault(target, []).append(number)
        self.habits: dict[str, Counter[str]] = {}
        for section in self.candidates:
            key = heading_key(section.heading)
            for kind, count in section.cited_kinds.items():
                self.habits.setdefault(kind, Counter())[key] += count

    def numbers_of(self, doc: str) -> list[int]:
        """The candidate numbers of one document's sections."""
        return self._by_doc.get(doc, [])

    def idf(self, term: str) -> float:
        known = self._idf.get(term)
        if known is None:
            df = self.df.get(term, 0)
            n = len(self.candidates)
            known = self._idf[term] = math.log(1 + (n - df + 0.5) / (df + 0.5))
        return known

    def target_idf(self, target: str) -> float:
        n = max(1, len(self.candidates))
        return math.log(1 + n / (1 + self.target_df.get(target, 0)))


def _summary(kb: KnowledgeBase, path: str, text: str) -> tuple[str, dict[str, int], list[RawSection]]:
    """A living document's title, name terms and sections, from its text alone (what is cached)."""
    fields, body_line = frontmatter(text)
    doc = kb.document(path, store=False)
    sections: list[RawSection] = []
    first_heading: str | None = None
    if doc is not None:
        for section in doc.sections:
            heading = section.heading or ""
            line = section.line
            if line < body_line:  # frontmatter read as a heading: it is metadata, so this is the lead text
                heading, line = "", body_line
            elif first_heading is None and heading:
                first_heading = heading
            words: list[str] = [wikilink_text(heading)]
            refs: list[RawRef] = []
            for index in section.blocks:
                block = doc.blocks[index]
                if block.line < body_line:
                    continue
                if block.kind != "heading":
                    words.append(wikilink_text(block.text))
                refs.extend((r.kind, r.value, r.form) for r in block.refs)
                refs.extend(("wikilink", name, "link") for name in wikilinks(block.text))
            sections.append((heading, line, section.level, section.role, section.label,
                             term_counts("\n".join(words)), refs))
    title = file_title(fields, first_heading, path)
    names = [title]
    aliases = fields.get("aliases")
    if isinstance(aliases, list):
        names += [str(a) for a in aliases if isinstance(a, (str, int, float))]
    return title, term_counts(" ".join(names)), sections


class Resolver:
    """Refs to targets: ids as `arxiv:…`, files as `path:…`, with the kind of each file."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.names = markdown_names(kb.snapshot.paths())

    def resolve(self, path: str, refs: list[RawRef]) -> tuple[set[str], Counter[str]]:
        targets: set[str] = set()
        kinds: Counter[str] = Counter()
        base = posixpath.dirname(path)
        for kind, value, form in refs:
            if kind in ("arxiv", "doi", "repo"):
                targets.add(f"{kind}:{value}")
                kinds[kind] += 1
                card_path = self.kb.paper_card_path(value) if kind == "arxiv" else None
                if card_path is not None:
                    targets.add(f"path:{card_path}")
            elif kind == "repo_name":
                card_path = self.kb.repo_card_path(value)
                if card_path is not None:
                    targets.update((f"repo:{value}", f"path:{card_path}"))
                    kinds["repo"] += 1
            elif kind in ("path", "wikilink") and form != "image":
                target = self.file(base, kind, value, form)
                if target is None or target == path:
                    continue
                targets.add(f"path:{target}")
                file_kind = self.kb.kind_of(target)
                kinds[file_kind] += 1
                card = self.kb.card_id_of_path(target) if file_kind in ("paper_card", "repo_card") else None
                if card is not None:
                    targets.add(f"{card[0]}:{card[1]}")
                    kinds[card[0]] += 1
        return targets, kinds

    def file(self, base: str, kind: str, value: str, form: str) -> str | None:
        if kind == "wikilink":
            return self.names.get(value.lower())
        target = self.kb.resolve_path(base, value, form)
        if target is None or not self.kb.snapshot.exists(target):
            target = self.kb.resolve_path("", value, "text") if value.split("/", 1)[0] in self.kb.roots else None
            if target is None or not self.kb.snapshot.exists(target):
                return None
        return target


def _key(config: Config, kb: KnowledgeBase) -> str:
    return f"{_VERSION}\0{config.fingerprint()}\0{','.join(kb.roots)}"


def _uncached(kb: KnowledgeBase, paths: list[str], key: str) -> list[str]:
    """The living documents whose summary must be built (their texts are then read in one batch)."""
    return [p for p in paths if not kb.facts.has_fact(_NAMESPACE, p, key)]


def _summariser(kb: KnowledgeBase, path: str) -> Callable[[str], tuple[str, dict[str, int], list[RawSection]]]:
    return lambda text: _summary(kb, path, text)


def build_index(kb: KnowledgeBase, resolver: Resolver) -> SectionIndex:
    """The index of every living document of `kb` (each summary from the cache when it is there)."""
    key = _key(kb.config, kb)
    documents: list[Document] = []
    paths = kb.paths_of_kind(KNOWLEDGE)
    kb.preload(_uncached(kb, paths, key))
    for path in paths:
        summary = kb.facts.fact(_NAMESPACE, path, key, _summariser(kb, path))
        if summary is None:
            continue
        title, name_terms, raw_sections = summary
        sections: list[Section] = []
        links_out: set[str] = set()
        for heading, line, _level, role, label, terms, refs in raw_sections:
            targets, kinds = resolver.resolve(path, refs)
            links_out |= targets
            sections.append(Section(path, heading, line, role, label, terms, sum(terms.values()), targets, kinds))
        documents.append(Document(path, title, name_terms, sections, links_out))
    return SectionIndex(documents)


NoteSummary = tuple[str, dict[str, int], list[RawRef]]


def note_summary(kb: KnowledgeBase, path: str) -> NoteSummary | None:
    """A note's title, terms (title counted twice: it says what the note is about) and refs,
    cached by blob id: a digest asks this of hundreds of cards."""
    value = kb.facts.fact(_NAMESPACE, path, f"{_VERSION}\0summary\0{','.join(kb.roots)}", _note_reader(kb, path))
    return value if isinstance(value, tuple) else None


def _note_reader(kb: KnowledgeBase, path: str) -> Callable[[str], NoteSummary]:
    return lambda text: _read_note(kb, path, text)


def _read_note(kb: KnowledgeBase, path: str, text: str) -> NoteSummary:
    fields, body_line = frontmatter(text)
    doc = kb.document(path)
    words: list[str] = []
    refs: list[RawRef] = []
    first_heading: str | None = None
    if doc is not None:
        for block in doc.blocks:
            if block.line < body_line:
                continue
            if block.kind == "heading" and first_heading is None:
                first_heading = block.text
            words.append(wikilink_text(block.text))
            refs.extend((r.kind, r.value, r.form) for r in block.refs)
            refs.extend(("wikilink", name, "link") for name in wikilinks(block.text))
    title = file_title(fields, first_heading, path)
    tags = fields.get("tags")
    meta = [str(t) for t in tags if isinstance(t, (str, int))] if isinstance(tags, list) else []
    counts = Counter(term_counts("\n".join([title, title, *meta, *words])))
    return title, dict(counts), refs


def file_terms(kb: KnowledgeBase, path: str) -> dict[str, int]:
    """The terms of a note or card a section links (cached by blob id)."""
    if kb.kind_of(path) not in MARKDOWN_KINDS:
        return {}

    summary = note_summary(kb, path)
    return summary[1] if summary is not None else {}
