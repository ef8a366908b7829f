"""Rank the living documents' sections for one note, each with the evidence behind its score.

Evidence, strongest first: ids and repos the note and the section both cite
(or the section already citing the note itself); terms they share, weighted
by how few sections hold them (BM25); notes and cards the section already
cites that read like this note; the note linking the section's document.
Where in a document a note goes follows the document's habit: a wiki lists
its source notes under `Sources`, a survey discusses papers in numbered
sections, so a section that already holds citations of the note's kind
ranks above its neighbours on the same page.

A page about one topic (it cites few of the knowledge base's notes and cards)
is no place for a note about something else, however the best of its sections
scores: unless the note is tied to the page, a section there must hold the
note's distinctive words (`docs/suggest.md`, "When nothing is suggested").
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice

from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.suggest.index import IndexedSection, Resolver, SectionIndex, file_terms, note_summary
from kbcheck.suggest.reasons import SHARED_CITATIONS, Reason, reason
from kbcheck.suggest.terms import CJK as _CJK
from kbcheck.suggest.terms import term_counts

#: BM25's usual constants
_K1, _B = 1.2, 0.75
#: how the evidence adds up (each part lies in 0..1)
_WEIGHTS = {"page": 0.35, "habit": 0.25, "terms": 0.20, "ids": 0.15, "neighbours": 0.05}
_SHOWN_TERMS = 4
#: a paragraph with fewer distinctive terms than this is no summary (a byline, generic prose)
GIST_TERMS = 8
#: paragraphs read for a note's summary
_GISTS_READ = 3
#: on a page about one topic the note is not tied to, the habit only breaks ties (a fifth of its weight)
_HABIT_TIE = 0.2
#: words a section must share with a headline (besides holding `HEADLINE_SHARE` of its weight)
_HEADLINE_WORDS = 2
#: a headline term held by at most this many sections is distinctive however few sections there are
_DISTINCTIVE_SECTIONS = 3
#: pages judged in full for one note (the rest cannot reach its top suggestions)
_PAGES_IN_PLAY = 40
#: sections whose cited notes are read for one note, and how many of each section's notes
_NEIGHBOUR_SECTIONS, _NEIGHBOURS_READ = 3, 8
#: a page with more sections than this is a survey: only its matching sections are judged
_PAGE_SECTIONS = 30
#: BM25 points at which shared terms count half: a best match that is itself weak stays weak
_TERMS_HALF = 5.0
#: neighbour evidence this strong is shown, and ties a section to the note (a cosine of 0.05)
_NEAR = 0.1
#: below this a section is not suggested at all: an unrelated note gets no confident place
MIN_SCORE = 0.25
#: on a page the note is not tied to, a section must hold this share of the weight of the note's
#: title (or of its summary): a word or two of it in common is chance, not the note's topic
HEADLINE_SHARE = 0.5
#: a living document citing this share of the notes and cards (and `_OVERVIEW_CITES`) is an overview
OVERVIEW_SHARE, _OVERVIEW_CITES = 0.1, 2
MATERIAL_KINDS = ("paper_card", "repo_card", "guide", "brief")
#: a headline term held by more than this share of the sections is no evidence of a topic
_DISTINCTIVE_SHARE = 0.1


@dataclass(frozen=True)
class Suggestion:
    """One section a note may belong to."""

    living_doc: str
    section: str
    line: int
    score: float
    why: tuple[Reason, ...]


@dataclass
class Query:
    """A note as the ranking sees it."""

    path: str
    kind: str
    title: str
    terms: dict[str, int]
    targets: set[str]
    #: the note's own identity: its path and, for a card, its id
    own: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)
    #: the terms of what the note says it is about: its title, its summary fields (a card's `tldr`,
    #: `description`) and its first paragraphs, the first of which that says something is its gist
    title_terms: dict[str, int] = field(default_factory=dict)
    summaries: list[dict[str, int]] = field(default_factory=list)
    paragraphs: list[dict[str, int]] = field(default_factory=list)


def make_query(kb: KnowledgeBase, resolver: Resolver, path: str) -> Query | None:
    summary = note_summary(kb, path)
    if summary is None:
        return None
    title, terms, refs = summary
    targets, cited_kinds = resolver.resolve(path, refs)
    kind = kb.kind_of(path)
    own = {f"path:{path}"}
    card = kb.card_id_of_path(path) if kind in ("paper_card", "repo_card") else None
    if card is not None:
        own.add(f"{card[0]}:{card[1]}")
        targets.add(f"{card[0]}:{card[1]}")
    kinds = {kind} | ({card[0]} if card else set())
    if not card:  # a guide or brief stands for what it cites
        kinds |= {k for k in cited_kinds if k in ("arxiv", "doi", "repo")}
    fields, paragraphs = note_gists(kb, path)
    return Query(path, kind, title, terms, targets, own, kinds, term_counts(title),
                 [term_counts(text) for text in fields], [term_counts(text) for text in paragraphs])


def note_gists(kb: KnowledgeBase, path: str) -> tuple[list[str], list[str]]:
    """What a note may say it is about besides its title: a card's `tldr` or `description`, and the
    first paragraphs of its body (the first that is not a shared header or a byline is its gist)."""
    fields: list[str] = []
    if kb.kind_of(path) in ("paper_card", "repo_card"):
        card = kb.card(path)
        for name in ("tldr", "description"):
            value = card.fields.get(name) if card is not None else None
            if isinstance(value, str) and value.strip():
                fields.append(value)
    doc = kb.document(path)
    blocks = [b.text for b in doc.blocks if b.kind != "heading"] if doc is not None else []
    return fields, blocks[:_GISTS_READ]


def _distinctive(index: SectionIndex, query: Query) -> list[dict[str, float]]:
    """The distinctive terms, with their weight (idf), of the note's title, of its summary fields
    and of its gist: the first of its first paragraphs holding `GIST_TERMS` of them (a shared header,
    a byline or a line of generic prose says nothing of the topic). Distinctive: kept in the note's
    terms (not what most notes repeat) and held by few sections. A hyphenated word counts
    by its parts; a CJK bigram no section holds is mostly the seam between two words: left out."""
    most = max(_DISTINCTIVE_SECTIONS, len(index.candidates) * _DISTINCTIVE_SHARE)

    def weights(terms: dict[str, int]) -> dict[str, float]:
        out: dict[str, float] = {}
        for term in terms:
            df = index.df.get(term, 0)
            if (term in query.terms and "-" not in term and df <= most
                    and (df or not _CJK.match(term))):
                out[term] = index.idf(term)
        return out

    found = [weights(terms) for terms in (query.title_terms, *query.summaries)]
    gists = (weights(terms) for terms in query.paragraphs)
    return found + [g for g in gists if len(g) >= GIST_TERMS][:1]


def headline_share(distinctive: list[dict[str, float]], terms: Iterable[str]) -> float:
    """The largest share of a headline's weight that `terms` hold, counting only a headline of
    which they hold at least `_HEADLINE_WORDS` words (one word in common is chance)."""
    held = set(terms)
    best = 0.0
    for weights in distinctive:
        shared = [t for t in weights if t in held]
        if shared and _words(shared) >= _HEADLINE_WORDS:
            best = max(best, sum(weights[t] for t in shared) / sum(weights.values()))
    return best


def _words(terms: list[str]) -> int:
    """How many words the terms are: CJK bigrams that chain (`端到`, `到端`) are one word."""
    bigrams = {t for t in terms if _CJK.match(t) and len(t) == 2}
    # a bigram that another continues is not a word's start
    return len(terms) - len(bigrams) + sum(1 for b in bigrams if not any(o[1] == b[0] for o in bigrams if o != b))


def bm25(index: SectionIndex, query_terms: dict[str, int]) -> dict[int, float]:
    """Each candidate section's BM25 score for the query's terms (a repeated term counts less than twice)."""
    scores: dict[int, float] = {}
    postings = index.postings
    norms = index.norms(_K1, _B)
    for term, count in query_terms.items():
        held = postings.get(term)
        if not held:
            continue
        weight = index.idf(term) * (1 + math.log(count)) * (_K1 + 1)
        for number, tf in held:
            scores[number] = scores.get(number, 0.0) + weight * tf / (tf + norms[number])
    return scores


def _vector(counts: dict[str, int], index: SectionIndex) -> tuple[dict[str, float], float]:
    """tf-idf weights (log tf) and their norm."""
    weights = {t: (1 + math.log(v)) * index.idf(t) for t, v in counts.items()}
    return weights, math.sqrt(sum(w * w for w in weights.values()))


def _cosine(query: tuple[dict[str, float], float], other: tuple[dict[str, float], float]) -> tuple[float, list[str]]:
    (a, na), (b, nb) = query, other
    if not na or not nb:
        return 0.0, []
    shared = a.keys() & b.keys()  # in C: a digest compares thousands of note pairs
    if not shared:
        return 0.0, []
    dot = sum(a[t] * b[t] for t in shared)
    return dot / (na * nb), list(shared)


def _strongest(terms: Iterable[str], weights: dict[str, float], n: int) -> list[str]:
    """The `n` terms of most weight, ties in alphabetical order (what a reason shows)."""
    return heapq.nsmallest(n, terms, key=lambda t: (-weights[t], t))


def _id_evidence(index: SectionIndex, section: IndexedSection, query: Query, why: list[Reason]) -> float:
    """The weight of the ids, repos and files the section and the note both cite (reasons into `why`)."""
    here = f"path:{query.path}"
    own = sorted(section.targets & query.own - {here})
    if own or here in section.targets:
        why.append(reason("why.cites_note", ids=f" ({', '.join(_display(t) for t in own)})" if own else ""))
    common = section.targets & query.targets
    shared = sorted(t for t in common - query.own if not t.startswith("path:"))
    weight = sum(index.target_idf(t) for t in shared) + (3.0 if why else 0.0)
    repos = [_display(t) for t in shared if t.startswith("repo:")]
    papers = [_display(t) for t in shared if not t.startswith("repo:")]
    if papers:
        why.append(reason("why.shares_ids", ids=", ".join(papers[:4])))
    if repos:
        why.append(reason("why.shares_repos", ids=", ".join(repos[:4])))
    # living documents both link are topics, not sources (an entity page's "Related Concepts")
    files = sorted(t[5:] for t in common if t.startswith("path:") and t not in query.own
                   and t[5:] not in index.documents)
    if files:
        weight += sum(index.target_idf(f"path:{p}") for p in files) * 0.5
        why.append(reason("why.links_same", files=", ".join(files[:3])))
    return weight


def _terms_position(why: list[Reason]) -> int:
    """Shared terms come after the ids and files the note and the section share."""
    return sum(1 for w in why if w.key in SHARED_CITATIONS)


def _display(target: str) -> str:
    kind, _, value = target.partition(":")
    return {"arxiv": f"arXiv:{value}", "doi": f"doi:{value}"}.get(kind, value)


def _name(section: IndexedSection) -> str:
    return section.heading


def material_cited(kb: KnowledgeBase, index: SectionIndex) -> dict[str, int]:
    """Each living document -> how many of the knowledge base's notes and cards it links."""
    material = {f"path:{p}" for p in kb.paths_of_kind(*MATERIAL_KINDS)}
    return {path: len(doc.links_out & material) for path, doc in index.documents.items()}


def overviews(kb: KnowledgeBase, cited: dict[str, int]) -> set[str]:
    """The living documents that cite a good share of the knowledge base's notes and cards (`cited`,
    `material_cited`): the overviews of what it collects, where any note may belong (a page on one
    topic cites a few)."""
    floor = max(_OVERVIEW_CITES, len(kb.paths_of_kind(*MATERIAL_KINDS)) * OVERVIEW_SHARE)
    return {path for path, count in cited.items() if count >= floor}


def rank(kb: KnowledgeBase, index: SectionIndex, query: Query, top: int,
         broad: set[str] | None = None) -> list[Suggestion]:
    """The `top` best sections for the note, best first; `broad` are the overviews (`overviews`),
    every living document when not given."""
    if not index.candidates:
        return []
    text = bm25(index, query.terms)
    best_text = max(text.values(), default=0.0) + _TERMS_HALF
    habits = {kind: index.habits.get(kind, Counter()) for kind in query.kinds}
    habit_max = {kind: max(c.values(), default=0) for kind, c in habits.items()}
    neighbour_cache: dict[str, tuple[float, list[str]]] = {}
    query_vector = _vector(query.terms, index)

    def neighbour(target: str) -> tuple[float, list[str]]:
        if target not in neighbour_cache:
            path = target[5:]
            if kb.kind_of(path) == "knowledge" or path == query.path:
                neighbour_cache[target] = (0.0, [])
            else:
                vector = index.vectors.get(path)
                if vector is None:
                    vector = index.vectors[path] = _vector(file_terms(kb, path), index)
                neighbour_cache[target] = _cosine(query_vector, vector)
        return neighbour_cache[target]

    # a section is judged only when something ties it to the note (shared terms or targets)
    by_target = index.by_target
    tied = set(text)
    for target in query.targets | query.own:
        tied.update(by_target.get(target, ()))
    linked_docs = {t[5:] for t in query.targets if t.startswith("path:") and t[5:] in index.documents}
    # every section of the pages in play: where on the page the note goes is the page's habit;
    # the pages in play are those linked by the note, sharing its ids, or best by shared terms
    first_pass: dict[str, float] = {}
    for number in tied:
        doc = index.candidates[number].doc
        first_pass[doc] = max(first_pass.get(doc, 0.0), text.get(number, 0.0) / best_text)
    for target in query.targets | query.own:
        for number in by_target.get(target, ()):
            first_pass[index.candidates[number].doc] = 2.0
    pages_in_play = linked_docs | set(sorted(first_pass, key=lambda d: -first_pass[d])[:_PAGES_IN_PLAY])
    tied = {n for n in tied if index.candidates[n].doc in pages_in_play}
    for doc_path in pages_in_play:
        numbers = index.numbers_of(doc_path)
        if len(numbers) <= _PAGE_SECTIONS:  # a long survey is judged on its sections that match
            tied.update(numbers)

    parts: dict[int, dict[str, float]] = {}
    reasons: dict[int, list[Reason]] = {}
    everything = query.targets | query.own
    provisional: dict[int, float] = {}
    for number in tied:
        section = index.candidates[number]
        why: list[Reason] = []
        if not section.targets.isdisjoint(everything):
            id_weight = _id_evidence(index, section, query, why)
        else:
            id_weight = 0.0
        ids = 1 - math.exp(-id_weight / 4)
        terms = text.get(number, 0.0) / best_text
        habit = 0.0
        for kind, counts in habits.items():
            if habit_max[kind]:
                habit = max(habit, counts.get(section.habit_key, 0) / habit_max[kind])
        parts[number] = {"terms": terms, "ids": ids, "neighbours": 0.0, "habit": habit}
        provisional[number] = terms + ids + habit
        reasons[number] = why

    # the notes a section cites are read only for the sections already in the running
    running = heapq.nlargest(_NEIGHBOUR_SECTIONS, provisional, key=provisional.__getitem__)
    for number in running:
        section = index.candidates[number]
        near, near_path, near_terms = 0.0, "", []
        files = (t for t in section.files if t not in query.own)  # a long section cites hundreds
        for target in islice(files, _NEIGHBOURS_READ):
            similarity, common_terms = neighbour(target)
            if similarity > near:
                near, near_path, near_terms = similarity, target[5:], common_terms
        if near * 2 >= _NEAR:
            near_terms = _strongest(near_terms, query_vector[0], 3)
            reasons[number].append(reason("why.reads_alike", path=near_path, terms=", ".join(near_terms)))
        parts[number]["neighbours"] = min(1.0, near * 2)

    # a page's standing: its best section's evidence, and the note linking the page
    page: dict[str, float] = {}
    for number, values in parts.items():
        doc = index.candidates[number].doc
        own_best = max(values["terms"], values["ids"], values["neighbours"])
        page[doc] = max(page.get(doc, 0.0), own_best)
    for doc in linked_docs:
        page[doc] = min(1.0, page.get(doc, 0.0) * 0.5 + 0.5)

    # a page the note links, or one of whose sections shares its ids, is tied to the note: there
    # the page's habit alone may place it (a wiki's `Sources` list holds links, not the note's words)
    tied_pages = linked_docs | {index.candidates[n].doc for n, values in parts.items() if values["ids"] > 0}
    # elsewhere, on a page about one topic, a section is about the note's only when it holds a good
    # share of what the note's title or summary says: the best of unrelated sections is unrelated
    weights = _distinctive(index, query)
    topical = {n for n in parts
               if index.candidates[n].doc not in tied_pages and (
                   broad is None or index.candidates[n].doc in broad
                   or headline_share(weights, index.candidates[n].terms) >= HEADLINE_SHARE)}
    scored: list[tuple[float, int]] = []
    for number, values in parts.items():
        section = index.candidates[number]
        if section.doc not in tied_pages and (
                number not in topical or not (values["terms"] or values["ids"] or values["neighbours"] >= _NEAR)):
            continue  # a page's standing and habit do not place a note in a section that shares nothing with it
        values["page"] = page.get(section.doc, 0.0)
        if section.doc not in tied_pages and broad is not None and section.doc not in broad:
            values["habit"] *= _HABIT_TIE  # on a page about one topic, the note's words say where
        if section.doc in linked_docs:
            reasons[number].append(reason("why.links_doc"))
        if values["habit"] > 0.5 and section.heading:
            reasons[number].append(reason("why.lists_material", kinds="/".join(sorted(query.kinds))))
        score = sum(_WEIGHTS[name] * value for name, value in values.items())
        scored.append((score, number))
    scored.sort(key=lambda pair: (-pair[0], index.candidates[pair[1]].doc, index.candidates[pair[1]].line))
    out: list[Suggestion] = []
    for score, number in scored[:top]:
        if score < MIN_SCORE:
            break
        section = index.candidates[number]
        if parts[number]["terms"] > 0:
            common = _strongest(section.terms.keys() & query.terms.keys(), query_vector[0], _SHOWN_TERMS)
            if common:
                reasons[number].insert(_terms_position(reasons[number]), reason("why.shared_terms", terms=", ".join(common)))
        out.append(Suggestion(section.doc, _name(section), section.line, round(score, 2), tuple(reasons[number])))
    return out
