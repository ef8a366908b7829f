"""Where each increment goes, what relates to it, which of its names clash: kept per head commit.

All three depend on the whole knowledge base at the head (its living documents'
sections, its guides and briefs, the ids that have cards), so, like a file's
findings, they are kept only under the commit they were worked out at
(`kbcheck.checked`): with the item's path, kind, ids and title, the language
and the whole configuration. A digest asked again (in the
other language, the other format) builds neither the section index nor the
neighbourhood; an increment missing from the cache is placed as always.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from kbcheck.cache import shard_of
from kbcheck.checked import AtCommit, config_digest
from kbcheck.digest.chronology import Chronology, as_date, note_date
from kbcheck.digest.items import ITEM_FACTS
from kbcheck.digest.model import Item, Related
from kbcheck.digest.own_links import linked_placement
from kbcheck.digest.placement import Neighbourhood, linked_files
from kbcheck.model.knowledge_base import BRIEF, GUIDE
from kbcheck.model.plain import from_plain, to_plain
from kbcheck.parallel import can_fork, jobs, run_tasks
from kbcheck.suggest import Suggester, Suggestion

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the cache namespace (`docs/architecture.md`): the one of the digest's other facts, so that a
#: cold digest creates no more shard files than it must
NAMESPACE = ITEM_FACTS

#: below this many guides and briefs to parse, a second process costs more than it saves
PARALLEL_MIN_NOTES = 100
#: what placements are kept under
PLACED_KEY = "placed"
#: suggestions, related material, name clashes, and the notices placing gave
Placement = tuple[list[Suggestion], list[Related], list[str], list[str]]


def _apply(item: Item, placement: Placement) -> None:
    suggestions, related, clashes, _notices = placement
    item.suggested_sections = suggestions
    item.related = related
    item.cautions.extend(clashes)
    item.warnings[:0] = clashes


def _key(item: Item) -> tuple[str, ...]:
    return item.kind, ",".join(f"{c.kind}:{c.id}" for c in item.ids), item.title


def _kept(kb: KnowledgeBase, item: Item, kept: AtCommit) -> Placement | None:
    hit = kept.get(item.path, *_key(item))
    if not isinstance(hit, tuple) or len(hit) != 4:
        return None
    try:
        return (from_plain(hit[0], list[Suggestion]), from_plain(hit[1], list[Related]),
                [str(c) for c in hit[2]], [str(n) for n in hit[3]])
    except (TypeError, ValueError):
        return None


def _keep(item: Item, placement: Placement, kept: AtCommit) -> None:
    suggestions, related, clashes, notices = placement
    kept.put(item.path, (to_plain(suggestions, list[Suggestion]), to_plain(related, list[Related]), list(clashes),
                         list(notices)), *_key(item))


def parse_notes_in_workers(kb: KnowledgeBase) -> None:
    """On a cold cache, the guides and briefs the placement reads (the suggester's background of
    what every note repeats, the neighbourhood) are parsed by one process per core first, before
    their first reader (each worker writes what it parsed to the cache, which this process reads)."""
    notes = [(path, kb.kind_of(path)) for path in kb.paths_of_kind(GUIDE, BRIEF)]
    if not can_fork() or len(notes) < PARALLEL_MIN_NOTES:
        return
    missing = kb.facts.uncached(notes)
    if len(missing) < PARALLEL_MIN_NOTES:
        return
    groups: dict[str, list[str]] = {}
    for path in missing:  # grouped by cache shard: each group's entries are written by one process
        groups.setdefault(shard_of(kb.snapshot.blob_id(path) or "00"), []).append(path)
    kb.facts.prepare()

    def work(group: list[str]) -> int:
        for path in group:
            kb.resolve(path)
        return os.getpid()

    done_by = run_tasks(list(groups.values()), work, workers=jobs(), in_child=kb.facts.after_fork,
                        child_done=kb.facts.flush)
    kb.facts.forget_loaded({shard for shard, pid in zip(groups, done_by) if pid != os.getpid()})


def _placed(kb: KnowledgeBase, path: str, suggester: Suggester, chronology: Chronology,
            head_day: dt.date | None, topic_unwritten: bool) -> list[Suggestion]:
    """Where the note's own links say, the ranking's best, then each chronological index's current period."""
    out = linked_placement(kb, path, suggester, topic_unwritten=topic_unwritten)
    if chronology.indexes:
        taken = {(s.living_doc, s.line, s.section) for s in out}
        out += [s for s in chronology.places(note_date(kb, path, head_day))
                if (s.living_doc, s.line, s.section) not in taken]
    return out


def place_increments(kb: KnowledgeBase, increments: list[Item], lang: str, suggester: Suggester,
                     head_date: str = "", proposes_page: Callable[[str], bool] = lambda _path: False) -> None:
    """Give each increment its suggested sections (from `suggester`, over `kb`; `head_date` dates a
    note that carries no date of its own; `proposes_page`: whether a note links a page still to
    write, `own_links`), related material and name-clash warnings."""
    # kept under the commit; placements an earlier kbcheck kept are not reused (the cache version)
    kept = AtCommit.for_run(kb, NAMESPACE, PLACED_KEY, config_digest(kb.config), lang)
    missing: list[Item] = []
    for item in increments:
        hit = _kept(kb, item, kept) if kept is not None else None
        if hit is None:
            missing.append(item)
            continue
        _apply(item, hit)
        kb.notices.extend(n for n in hit[3] if n not in kb.notices)
    if not missing:
        return
    notices_before = len(kb.notices)
    neighbourhood = Neighbourhood(kb)
    chronology = Chronology(suggester.index)
    head_day = as_date(head_date)
    placements: list[tuple[Item, Placement]] = []
    for item in missing:
        placement: Placement = (_placed(kb, item.path, suggester, chronology, head_day, proposes_page(item.path)),
                                neighbourhood.related(item, linked_files(kb, item.path), lang),
                                [*neighbourhood.clashes(item, lang), *neighbourhood.near_clashes(item, lang)], [])
        placements.append((item, placement))
    # what placing read that could not be read is said again when the placements are reused
    notices = kb.notices[notices_before:]
    for item, placement in placements:
        if kept is not None:
            _keep(item, (*placement[:3], notices), kept)
        _apply(item, placement)


__all__ = ["NAMESPACE", "parse_notes_in_workers", "place_increments"]
