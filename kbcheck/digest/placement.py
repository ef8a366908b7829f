"""What a maintainer acts on: where each increment goes, what the knowledge base already holds
about it, which new cards are the collector back-filling, which names already mean something else,
and the merge actions in priority order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kbcheck.digest.model import INCREMENT, Item, MergeAction, Related
from kbcheck.digest.phrases import plural, say
from kbcheck.evidence.discussed import COINED_MIXED, compact_name
from kbcheck.model.cards import PAPER, REPO
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KnowledgeBase
from kbcheck.regex import lazy
from kbcheck.rules.kb006_stale_number import StaleNumber

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.findings import Finding

_RELATED_SHOWN = 4
#: a note linking more than this many files (or this share of the notes) is an index, not related material
_HUB_LINKS, _HUB_SHARE = 20, 0.1
_URL = lazy(r"(?i:https?)://\S+")
_LATIN_WORD = lazy(r"[A-Za-z][A-Za-z0-9]*")
_CJK_RUN = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,6}")
_DATE = lazy(r"(\d{4})-(\d{2})(?:-(\d{2}))?")
#: capitalised words of English titles that name nothing in particular
_COMMON = frozenset("""
a about above across after again against all already also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having
he her here hers how i if in into is it its itself just me more most my no nor not now of off on once only or
other our out over own same she should so some such than that the their them then there these they this those
through to too under until up very was we were what when where which while who whom why will with would you your
new towards toward via using use beyond without study studies case survey learning model models language large
decision decisions style fine tune tuning system systems data based approach method methods framework analysis
""".split())
#: a word the notes write in lower case (`fine-tuning`): no coined name
_LOWER_TOKEN = lazy(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])")
#: letters two names must share before they are close, and near-name warnings per increment
_NEAR_CORE, _NEAR_SHOWN = 6, 2


#: a term held by more files than this (or this share of them) is a topic word, not a name
_NAME_FILES, _NAME_SHARE = 5, 0.02


def _day(value: object) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    m = _DATE.search(str(value)) if value is not None else None
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3) or 1))
    except ValueError:
        return None


def paper_month(arxiv_id: str) -> dt.date | None:
    """When an arXiv paper appeared, from its id: `1706.03762` -> 2017-06; `hep-th/9901001` -> 1999-01."""
    digits = arxiv_id.split("/", 1)[1][:4] if "/" in arxiv_id else arxiv_id[:4]
    if len(digits) != 4 or not digits.isdigit():
        return None
    year, month = int(digits[:2]), int(digits[2:])
    if not 1 <= month <= 12:
        return None
    return dt.date((1900 if "/" in arxiv_id and year >= 91 else 2000) + year, month, 1)


def backfill_reason(kb: KnowledgeBase, item: Item, config: Config, head_date: str, lang: str) -> str | None:
    """For a new paper card of a paper older than `backfill-age-years` at its collection date, the reason."""
    if item.kind != PAPER or item.change != "added" or not item.ids:
        return None
    published = paper_month(item.ids[0].id) if item.ids[0].kind == "arxiv" else None
    card = kb.card(item.path)
    if published is None and card is not None and isinstance(card.fields.get("year"), int):
        published = dt.date(int(card.fields["year"]), 1, 1)
    if published is None:
        return None
    fields = card.fields if card is not None else {}
    collected = _day(fields.get("collected")) or _day(fields.get("first_collected")) or _day(head_date)
    if collected is None:
        return None
    age = (collected - published).days / 365.25
    if age <= config.backfill_age_years:
        return None
    return say(lang, "backfilled", published=published.strftime("%Y-%m"), collected=collected.isoformat(),
               years=config.backfill_age_years, s=plural(config.backfill_age_years))


class Neighbourhood:
    """The guides, briefs and cards an increment may relate to, read once per digest."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.notes = kb.paths_of_kind(GUIDE, BRIEF)
        kb.preload(self.notes)
        self.cited: dict[str, set[str]] = {}
        self.links: dict[str, set[str]] = {}
        self.prose: dict[str, str] = {}
        self.id_kinds: dict[str, str] = {}
        for path in self.notes:
            ids: set[str] = set()
            links: set[str] = set()
            for citations in kb.resolve(path).block_citations:
                for citation in citations:
                    ids.add(citation.id)
                    self.id_kinds[citation.id] = citation.kind
                    if citation.card_path:
                        links.add(citation.card_path)
            self.cited[path], self.links[path] = ids, links
            self.prose[path] = _URL.sub(" ", kb.text(path) or "")
        #: latin word as written -> the notes that write it (names are looked up here, not searched)
        self.words: dict[str, set[str]] = {}
        for path, text in self.prose.items():
            for word in set(_LATIN_WORD.findall(text)):
                self.words.setdefault(word, set()).add(path)
        self.lower_words = {w for w in self.words if w.islower()}
        self._naming: dict[str, list[str]] = {}
        self._hubs: dict[str, bool] = {}
        #: a coined name's letters (`agentworld`) -> the names written so and the notes whose title has them
        self._coined: dict[str, list[tuple[str, str]]] | None = None
        self._common: set[str] = set()
        self._titles: dict[str, str] | None = None
        #: the titles long enough to name one work, as `moves.work_key` writes them
        self._title_keys: dict[str, str] | None = None
        self.owners: dict[str, list[str]] = {}
        for stem, path in kb.repo_index().items():
            card = kb.card_id_of_path(path)
            owner = card[1].split("/", 1)[0] if card else stem.split("-", 1)[0]
            self.owners.setdefault(owner, []).append(path)

    # -- names ----------------------------------------------------------------
    def names(self, title: str) -> list[str]:
        """The distinctive terms of a title: capitalised words no file writes in lower case, CJK runs."""
        out: list[str] = []
        for word in _LATIN_WORD.findall(title):
            lower = word.lower()
            if (len(word) < 3 or not word[0].isupper() or word.isupper() or lower in _COMMON
                    or lower in self.lower_words or lower.rstrip("s") in self.lower_words):
                continue
            if word not in out:
                out.append(word)
        out += [run for run in _CJK_RUN.findall(title) if run not in out]
        return out

    def files_naming(self, name: str, exclude: str) -> list[str]:
        """The notes that write `name` (none when so many do that it is a topic word)."""
        if name not in self._naming:
            if name.isascii():
                found = sorted(self.words.get(name, ()))
            else:
                found = [p for p in self.notes if name in self.prose[p]]
            limit = max(_NAME_FILES, int(len(self.notes) * _NAME_SHARE))
            self._naming[name] = found if len(found) <= limit else []
        return [p for p in self._naming[name] if p != exclude]

    def clashes(self, item: Item, lang: str) -> list[str]:
        """A warning for each title name that files of the knowledge base use for other ids."""
        own = {cited.id for cited in item.ids}
        warnings: list[str] = []
        for name in self.names(item.title):
            files = self.files_naming(name, item.path)
            others = [p for p in files if self.cited[p] and not self.cited[p] & own]
            if not others or not own:
                continue
            their_ids = sorted({i for p in others for i in self.cited[p]})
            warnings.append(say(lang, "clash", name=name, here=", ".join(c.display for c in item.ids[:2]),
                                there=", ".join(their_ids[:3]), files=", ".join(others[:3])))
        return warnings

    def near_clashes(self, item: Item, lang: str) -> list[str]:
        """A warning for each coined name of the title (`Agent-World`, `AgentWorld`, `GPT4o`) that
        another note's title writes another way around the same letters (`Qwen-AgentWorld`): close
        names of different works. A name written out inside the other (`Llama-2` in `Llama-2-Chat`)
        is a variant, not a clash; a dictionary word is no coined name."""
        mine = [(name, compact_name(name)) for name in dict.fromkeys(COINED_MIXED.findall(item.title))]
        if not mine:
            return []
        if self._coined is None:
            # what the notes write in lower case is a word (`fine-tuning`, `finetuning`), not a name
            common = {compact_name(w) for text in self.prose.values() for w in _LOWER_TOKEN.findall(text)}
            self._coined = {}
            for path, title in self.titles().items():
                for name in dict.fromkeys(COINED_MIXED.findall(title)):
                    if compact_name(name) not in common:
                        self._coined.setdefault(compact_name(name), []).append((name, path))
            self._common = common
        mine = [(name, compact) for name, compact in mine if len(compact) >= _NEAR_CORE and compact not in self._common]
        own = {cited.id for cited in item.ids}
        warnings: list[str] = []
        for name, compact in mine:
            for other_compact, named in self._coined.items():
                if compact != other_compact and not (compact in other_compact or other_compact in compact):
                    continue
                if min(len(compact), len(other_compact)) < _NEAR_CORE:
                    continue
                for other, path in named:
                    if path == item.path or name.lower() in other.lower() or other.lower() in name.lower():
                        continue
                    if own and self.cited.get(path, set()) & own:
                        continue  # the same work under two spellings is no clash
                    warnings.append(say(lang, "near_clash", name=name, other=other, file=path))
                    break
                if len(warnings) >= _NEAR_SHOWN:
                    return warnings
        return warnings

    # -- related material --------------------------------------------------------
    def titled_alike(self, item: Item) -> list[str]:
        """The notes whose title begins with this one's, or this one's with theirs, when the shorter
        names one work (`moves.work_key`): a sequel (`… II: phi-1.5 technical report`), a part, or
        the same work noted twice under a longer or a cut title."""
        from kbcheck.digest.moves import work_key

        titles = self.titles()
        mine = work_key(titles[item.path] if item.path in titles else self._title(item.path))
        if mine is None:
            return []
        if self._title_keys is None:
            self._title_keys = {path: key for path, title in titles.items() if (key := work_key(title)) is not None}
        return [path for path, key in self._title_keys.items() if path != item.path and key != mine
                and (key.startswith(mine + " ") or mine.startswith(key + " "))]

    def titles(self) -> dict[str, str]:
        """Each guide's and brief's title, read once per digest (names and openings are compared on them)."""
        if self._titles is None:
            self._titles = {path: self._title(path) for path in self.notes}
        return self._titles

    def _title(self, path: str) -> str:
        from kbcheck.model.document import file_title

        return file_title(self.kb.document(path), path)

    def is_hub(self, path: str) -> bool:
        """A changelog, a to-do list, a template, or an index linking a good share of the notes: it is
        "related" to everything, so to nothing in particular."""
        if path not in self._hubs:
            from kbcheck.digest.gist import note_shape

            many = max(_HUB_LINKS, int(len(self.notes) * _HUB_SHARE))
            self._hubs[path] = len(self.links.get(path, ())) > many or (
                path in self.prose and note_shape(path, self.prose[path]) is not None)
        return self._hubs[path]

    def related(self, item: Item, linked: Iterable[str], lang: str) -> list[Related]:
        """Guides, briefs and cards about the same thing, strongest tie first: linking the item, sharing
        an id, linked from it, same owner, same name; hubs (`is_hub`) left out."""
        own = {cited.id for cited in item.ids}
        found: dict[str, tuple[int, str]] = {}

        def add(rank: int, path: str, why: str) -> None:
            if path != item.path and (path not in found or found[path][0] > rank) and not self.is_hub(path):
                found[path] = (rank, why)

        for path in self.notes:
            shared = sorted(self.cited[path] & own)
            if item.path in self.links[path]:
                add(0, path, say(lang, "related.links_item"))
            elif shared:
                add(1, path, say(lang, "related.shares", ids=", ".join(shared[:3])))
        for path in linked:
            if self.kb.kind_of(path) in (GUIDE, BRIEF, PAPER, REPO):
                add(2, path, say(lang, "related.linked"))
        for path in self.titled_alike(item):
            add(2, path, say(lang, "related.titled_alike"))
        for cited in item.ids:
            if cited.kind == "repo":
                owner = cited.id.split("/", 1)[0]
                for path in sorted(self.owners.get(owner, [])):
                    add(3, path, say(lang, "related.owner", owner=owner))
        for name in self.names(item.title):
            for path in self.files_naming(name, item.path):
                add(4, path, say(lang, "related.name", name=name))
        ranked = sorted(found.items(), key=lambda pair: pair[1][0])  # stable: ties keep their order
        return [Related(path, why) for path, (_rank, why) in ranked[:_RELATED_SHOWN]]


def linked_files(kb: KnowledgeBase, path: str) -> list[str]:
    """The cards and notes a file links or cites by path."""
    out: dict[str, None] = {}
    for citations in kb.resolve(path).block_citations:
        for citation in citations:
            if citation.card_path:
                out.setdefault(citation.card_path, None)
    return list(out)


# -- merge actions -------------------------------------------------------------------

def _section_at(kb: KnowledgeBase, path: str, line: int) -> str:
    doc = kb.document(path)
    return doc.section_at(line).name if doc is not None else ""


def shown(section: str) -> str:
    """A suggested section as the action names it: its heading's text (`## [Title](url)` is `Title`)."""
    from kbcheck.model.document import inline_text

    return inline_text(section) or "?"


def _words(text: str) -> set[str]:
    from kbcheck.suggest.terms import terms

    return set(terms(text))


def merge_actions(kb: KnowledgeBase, items: Sequence[Item], findings: Sequence[Finding], lang: str) -> list[MergeAction]:
    """Cited-no-entry entries first, then untraced trend lines to anchor, then new entries, then the new pages
    increments link, then number updates."""
    # a card names its paper best: cards first, then the guides and briefs that cite it
    increments = sorted((i for i in items if i.cls == INCREMENT), key=lambda i: i.kind not in (PAPER, REPO))
    actions: list[tuple[str, str, str]] = []
    done: set[tuple[str, ...]] = set()
    proposed: set[str] = set()

    def place(item: Item) -> tuple[str, str]:
        if item.suggested_sections:
            best = item.suggested_sections[0]
            return best.living_doc, best.section
        return "", ""

    def name(item: Item, gaps_only: bool = False) -> str:
        ids = [c for c in item.ids if not gaps_only or item.status is None
               or (status := item.status.per_id.get(c.id)) is None or status.cited_no_entry] or item.ids
        shown = ", ".join(c.display for c in ids[:2])
        return f"{shown}（{item.title}）" if lang == "zh" and shown else f"{shown} ({item.title})" if shown else item.title

    def first_time(item: Item) -> bool:
        key = tuple(sorted(c.id for c in item.ids)) or (item.path,)
        if key in done:
            return False
        done.add(key)
        return True

    for item in increments:
        if item.cited_no_entry and first_time(item):
            doc, section = place(item)
            actions.append((say(lang, "action.cited_no_entry", what=name(item, True), section=shown(section)), doc, section))
    # each paper id of an increment, with the words of its card (or of the increment itself)
    papers: list[tuple[str, set[str]]] = []
    if any(f.rule == "KB001" for f in findings):
        from kbcheck.suggest.index import file_terms

        for item in increments:
            for cited in item.ids:
                if cited.kind not in ("arxiv", "doi"):
                    continue
                card_path = kb.paper_card_path(cited.id) if cited.kind == "arxiv" else None
                words = set(file_terms(kb, card_path)) if card_path else set()
                papers.append((cited.display, words or _words(item.title + " " + item.key_points)))
    for finding in findings:
        if finding.rule != "KB001":
            continue
        line_words = _words(finding.subject)
        source, best_shared = say(lang, "action.a_source"), 1
        for display, words in papers:
            shared = len(line_words & words)
            if shared > best_shared:
                source, best_shared = display, shared
        section = _section_at(kb, finding.path, finding.line)
        actions.append((say(lang, "action.anchor", line=finding.subject, source=source), finding.path, section))
    for item in increments:
        # an increment no section fits has no entry to add: a new page, when it links one, is its action
        if not item.cited_no_entry and item.suggested_sections and first_time(item):
            doc, section = place(item)
            actions.append((say(lang, "action.new_entry", what=name(item), section=shown(section)), doc, section))
    for item in increments:
        for page in item.new_pages:
            if page.path not in proposed:
                proposed.add(page.path)
                key = "action.new_page" if page.linked_from else "action.new_page.alone"
                actions.append((say(lang, key, page=page.path, what=name(item), linkers=", ".join(page.linked_from)),
                                page.path, ""))
    for finding in findings:
        if isinstance(finding.facts, StaleNumber):
            now = finding.facts.now()
            section = _section_at(kb, finding.path, finding.line)
            actions.append((say(lang, "action.update_number", number=finding.subject, now=now), finding.path, section))
    return [MergeAction(n, action, path, section) for n, (action, path, section) in enumerate(actions, 1)]


__all__ = ["Neighbourhood", "backfill_reason", "linked_files", "merge_actions", "paper_month"]
