"""The living documents' sections as a search index, built once per run.

Each living document is summarised once per content (cached by git blob id
like every other fact): for each section its heading, line, role, terms and
the raw refs (wikilinks among them) of its blocks. Resolving those refs against
the knowledge base (which card a path is, which file a wikilink names) happens
per run, since it depends on the other files.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING

from kbcheck.model.cards import frontmatter_fields
from kbcheck.model.document import OPEN_QUESTION, REFERENCE, TREND, Block, file_title
from kbcheck.model.knowledge_base import KNOWLEDGE, MARKDOWN_KINDS, KnowledgeBase
from kbcheck.regex import lazy
from kbcheck.suggest.terms import term_counts

if TYPE_CHECKING:
    from kbcheck.config import Config

#: what the cache keys of the suggester begin with (kbcheck's own code versions the cache)
_VERSION = "suggest"
_NAMESPACE = "suggest"
#: the role of a section `no-home-heading` names (a see-also list, questions): never a candidate
NO_HOME = "no_home"
_LABEL_PREFIX = lazy(r"^\s*(?:§\s*)?[\d.一二三四五六七八九十百零〇]*\s*[、.．:：]?\s*")
#: (kind, value, form) of a ref, as `KnowledgeBase.resolve_refs` takes it
RawRef = tuple[str, str, str]
#: heading, line, level, role, label, terms, refs
RawSection = tuple[str, int, int, "str | None", "str | None", dict[str, int], list[RawRef]]


def heading_key(heading: str) -> str:
    """A heading without its number, lower-cased: `## 3.2 Sources` and `## Sources` are one habit."""
    return _LABEL_PREFIX.sub("", heading).strip().lower()


@dataclass
class IndexedSection:
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
    #: the files it links (`path:…` targets), sorted: read for neighbours, made once per run
    files: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.habit_key = heading_key(self.heading)
        self.files = sorted(t for t in self.targets if t.startswith("path:"))

    @property
    def candidate(self) -> bool:
        """A place for an entry: not the reference list, not the trend or open-question layer, not a
        section `no-home-heading` names."""
        return self.role not in (REFERENCE, TREND, OPEN_QUESTION, NO_HOME)


@dataclass
class Document:
    path: str
    title: str
    name_terms: dict[str, int]
    sections: list[IndexedSection]
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
        self._postings: dict[str, list[tuple[int, int]]] | None = None
        self._norms: list[float] | None = None
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

    @property
    def postings(self) -> dict[str, list[tuple[int, int]]]:
        """term -> (candidate number, count) of each section holding it: made once per run, so a
        digest ranks each increment by its own terms, not by a pass over every section."""
        if self._postings is None:
            postings: dict[str, list[tuple[int, int]]] = {}
            for number, section in enumerate(self.candidates):
                for term, count in section.terms.items():
                    postings.setdefault(term, []).append((number, count))
            self._postings = postings
        return self._postings

    def norms(self, k1: float, b: float) -> list[float]:
        """BM25's length norm of each candidate section (made once per run)."""
        if self._norms is None:
            avg = self.average_length or 1.0  # every section empty: no section holds a term anyway
            self._norms = [k1 * (1 - b + b * s.length / avg) for s in self.candidates]
        return self._norms

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


def _raw_refs(blocks: Iterable[Block]) -> list[RawRef]:
    """The refs of blocks as cached: (kind, value, form), what `KnowledgeBase.resolve_refs` takes."""
    return [(r.kind, r.value, r.form) for b in blocks for r in b.refs]


def _summary(kb: KnowledgeBase, path: str, text: str) -> tuple[str, dict[str, int], list[RawSection]]:
    """A living document's title, name terms and sections, from its text alone (what is cached)."""
    fields, body_line = frontmatter_fields(text)
    doc = kb.document(path, store=False)
    sections: list[RawSection] = []
    all_blocks = doc.blocks if doc is not None else []
    for section in doc.sections if doc is not None else ():
        blocks = [all_blocks[index] for index in section.blocks]
        # the lead text's section opens on line 1; as a place it starts where the body does
        sections.append((section.heading or "", max(section.line, body_line), section.level, section.role,
                         section.label, term_counts("\n".join(b.text for b in blocks)),
                         _raw_refs(blocks)))
    title = file_title(doc, path)
    names = [title]
    aliases = fields.get("aliases")
    if isinstance(aliases, list):
        names += [str(a) for a in aliases if isinstance(a, (str, int, float))]
    return title, term_counts(" ".join(names)), sections


class Resolver:
    """Refs to targets: ids as `arxiv:…`, files as `path:…`, with the kind of each file."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb

    def resolve(self, path: str, refs: list[RawRef]) -> tuple[set[str], Counter[str]]:
        targets: set[str] = set()
        kinds: Counter[str] = Counter()
        citations, links = self.kb.resolve_refs(path, refs)
        for citation in citations:
            if citation.via_path and citation.card_path == path:
                continue  # a card's link to itself says nothing
            targets.add(f"{citation.kind}:{citation.id}")
            kinds[citation.kind] += 1
            if citation.card_path is not None:
                targets.add(f"path:{citation.card_path}")
                if citation.via_path:
                    kinds[self.kb.kind_of(citation.card_path)] += 1
        for link in links:
            if link.kind == "document" and link.target != path:
                targets.add(f"path:{link.target}")
                kinds[self.kb.kind_of(link.target)] += 1
        return targets, kinds


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
        sections: list[IndexedSection] = []
        links_out: set[str] = set()
        no_home = kb.config.no_home_heading
        for heading, line, _level, role, label, terms, refs in raw_sections:
            if role is None and heading and no_home.search(heading):
                role = NO_HOME  # a "see also" list or an open question: never a place for new material
            targets, kinds = resolver.resolve(path, refs)
            links_out |= targets
            sections.append(IndexedSection(path, heading, line, role, label, terms, sum(terms.values()), targets, kinds))
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
    fields = frontmatter_fields(text)[0]
    doc = kb.document(path)
    blocks = doc.blocks if doc is not None else []
    # a card's body is parsed without its frontmatter: its `title` is read here
    front_title = fields.get("title")
    title = front_title.strip() if isinstance(front_title, str) and front_title.strip() else file_title(doc, path)
    tags = fields.get("tags")
    meta = [str(t) for t in tags if isinstance(t, (str, int))] if isinstance(tags, list) else []
    counts = Counter(term_counts("\n".join([title, title, *meta, *(b.text for b in blocks)])))
    return title, dict(counts), _raw_refs(blocks)


def file_terms(kb: KnowledgeBase, path: str) -> dict[str, int]:
    """The terms of a note or card a section links (cached by blob id)."""
    if kb.kind_of(path) not in MARKDOWN_KINDS:
        return {}

    summary = note_summary(kb, path)
    return summary[1] if summary is not None else {}
