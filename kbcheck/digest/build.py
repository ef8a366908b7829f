"""Assemble the digest: items, their standing, their class, the findings that changed.

Findings new and resolved are computed over the changed files and the living
documents at both revisions, not the whole knowledge base: that is where a
change can move a finding, and it keeps a digest of hundreds of items fast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kbcheck import git
from kbcheck.cache import repository_cache
from kbcheck.digest.cards import card_cautions
from kbcheck.digest.chronology import AddedDays, as_date, restored_day
from kbcheck.digest.classify import FindingIndex, classify, finding_lines, sort_key, stale_numbers
from kbcheck.digest.contradiction import Contradictions
from kbcheck.digest.dangling import old_place, still_linked_cautions, still_linking
from kbcheck.digest.index_page import index_page
from kbcheck.digest.items import diff_items, drop_repeated_ids, is_own, manifest_items, read_text
from kbcheck.digest.language import knowledge_base_lang
from kbcheck.digest.model import ADDED, DELETED, INCREMENT, LIVING_DOC, REVIEW, BoundaryEntry, Digest, Item
from kbcheck.digest.moves import paired_moves
from kbcheck.digest.near_copy import NearCopies
from kbcheck.digest.new_page import NewPages
from kbcheck.digest.no_home import unfold
from kbcheck.digest.note_cautions import NoteCautions
from kbcheck.digest.phrases import capped, clauses, plural, say
from kbcheck.digest.placed import parse_notes_in_workers, place_increments
from kbcheck.digest.placement import backfill_reason, merge_actions
from kbcheck.digest.relation import (
    item_status,
    linking_sections,
    living_documents,
    living_status,
    reference_ids,
    reference_sources,
    section_count,
    touched_sections,
)
from kbcheck.engine import RunOptions, check, rule_kind
from kbcheck.model.cards import PAPER
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KnowledgeBase
from kbcheck.rules import all_rules
from kbcheck.snapshots import missing_blobs, tree_snapshot
from kbcheck.sources import Selection
from kbcheck.suggest import Suggester

if TYPE_CHECKING:
    from kbcheck.cache import BlobCache
    from kbcheck.config import Config
    from kbcheck.findings import Finding
    from kbcheck.git import Repository


def _shared_caches(repo: Repository) -> Callable[[str], BlobCache]:
    """One cache per namespace for both revisions: a card unchanged between them is parsed once."""
    return repository_cache(repo)


def findings_in(kb: KnowledgeBase, config: Config, paths: set[str]) -> list[Finding]:
    """Every finding (no KB007, no baseline) located in `paths` of this snapshot."""
    # a file no rule reads (an image matching no glob) is not read at all: no "binary file" notice
    present = sorted(p for p in paths if kb.snapshot.blob_id(p) is not None and rule_kind(kb, p) is not None)
    rules = frozenset(rule_id for rule_id in all_rules() if rule_id != "KB007")
    selection = Selection(kb.snapshot, present, [], None, "paths")
    return list(check(kb, config, selection, RunOptions(filter="file", select=rules, fold_missing_folders=False)).findings)


def living_reason(base_kb: KnowledgeBase, head_kb: KnowledgeBase, item: Item, lang: str) -> str:
    """Sections touched and references added or removed by a living-document change."""
    if item.unchanged:
        return say(lang, "unchanged")
    if item.change == DELETED:
        return say(lang, "living.deleted")
    new_doc = head_kb.document(item.path)
    if item.change == ADDED:
        if new_doc is None:
            return say(lang, "living.added", sections="?", refs="?", s1="s", s2="s")
        sections, refs = section_count(new_doc), reference_sources(head_kb, item.path)
        return say(lang, "living.added", sections=sections, refs=refs, s1=plural(sections), s2=plural(refs))
    parts: list[str] = []
    if item.old_path is not None:
        parts.append(say(lang, "living.renamed", old=item.old_path))
    old_path = item.old_path or item.path
    old_doc = base_kb.document(old_path)
    old_text, _ = read_text(base_kb, old_path)
    new_text, _ = read_text(head_kb, item.path)
    if old_doc is None or new_doc is None or old_text is None or new_text is None:
        parts.append(say(lang, "caution.not_read", note=item.note or "?"))
        return clauses(lang, parts)
    touched = touched_sections(old_doc, old_text, new_doc, new_text)
    if touched:
        parts.append(say(lang, "living.touched", sections=capped(lang, touched, 6)))
    before = {c.id: c for c in reference_ids(base_kb, old_path)}
    after = {c.id: c for c in reference_ids(head_kb, item.path)}
    added = [c.display for i, c in after.items() if i not in before]
    removed = [c.display for i, c in before.items() if i not in after]
    if added:
        parts.append(say(lang, "living.refs_added", ids=capped(lang, added, 6)))
    if removed:
        parts.append(say(lang, "living.refs_removed", ids=capped(lang, removed, 6)))
    if not parts:
        parts.append(say(lang, "living.nothing"))
    return clauses(lang, parts)


def build_digest(repo: Repository, config: Config, base: str, head: str, *, lang: str | None,
                 manifest: str | None = None, manifest_paths: list[str] | None = None, cache: bool = True) -> Digest:
    """The digest of `base..head` (full shas), or of the paths a manifest lists; in `lang`, or
    (None) in the language the knowledge base at `head` is written in."""
    missing = missing_blobs(repo, [base, head])
    caches = _shared_caches(repo) if cache else None
    base_kb = KnowledgeBase(tree_snapshot(repo, base, config.exclude, missing), config, caches)
    head_kb = KnowledgeBase(tree_snapshot(repo, head, config.exclude, missing), config, caches)
    if lang is None:
        lang = knowledge_base_lang(head_kb, config.lang)
    for kb in (base_kb, head_kb):
        # the changed cards are read again after their findings (cautions, key points, placement):
        # the parses the worker processes make for the findings are cached for that
        kb.facts.keep_card_parses = True
    # a note moved and rewritten is one note, not a deletion and an addition
    changes = paired_moves(git.diff_paths(repo, base, head), base_kb.snapshot.paths, head_kb.snapshot.paths)
    volatile = config.volatile_fields
    head_docs, base_docs = living_documents(head_kb), living_documents(base_kb)
    changed = [c for c in changes if not is_own(c.path) and not is_own(c.old_path)]
    head_paths = {c.path for c in changed if c.status != "D"}
    base_paths = {c.old_path or c.path for c in changed if c.status != "A"}
    if manifest_paths is not None:  # an unchanged manifest item is read at both revisions
        named = [p for p in manifest_paths if not is_own(p)]
        head_paths |= {p for p in named if head_kb.snapshot.blob_id(p) is not None}
        base_paths |= {p for p in named if base_kb.snapshot.blob_id(p) is not None}
    # findings first: a cold cache is filled there by one process per core, and the rest reads it
    head_findings = findings_in(head_kb, config, head_paths | set(head_docs))
    base_findings = findings_in(base_kb, config, base_paths | set(base_docs))
    if manifest_paths is None:
        items = diff_items(base_kb, head_kb, changes, volatile)
        boundary = [BoundaryEntry(item.path, item.consumed, item.note) for item in items]
    else:
        items, listed = manifest_items(base_kb, head_kb, changes, manifest_paths, volatile)
        boundary = [BoundaryEntry(path, consumed, note) for path, consumed, note in listed]
    parse_notes_in_workers(head_kb)  # the background below is the notes' first reader
    suggester = Suggester(head_kb)
    # ids a header every note repeats say nothing of what a note adds, as they say nothing of where it goes
    drop_repeated_ids(head_kb, items, suggester.background)
    statuses = living_status(head_kb)
    linked = linking_sections(head_kb)
    head_prints = {f.fingerprint for f in head_findings}
    base_prints = {f.fingerprint for f in base_findings}

    index = FindingIndex(head_findings)
    head_date = git.commit_date(repo, head)
    added_days = AddedDays(repo, base, head)
    note_cautions = NoteCautions(head_kb, config, as_date(head_date), added_days, AddedDays(repo, None, head))
    copies = NearCopies(head_kb, lambda path: base_kb.snapshot.blob_id(path) is not None, added_days)
    contradictions = Contradictions(head_kb)
    pages = NewPages(head_kb)
    # a note copied in the range is a review item, and its original says it was copied
    copied: dict[str, list[str]] = {}
    for item in items:
        if item.change == ADDED and item.kind in (GUIDE, BRIEF):
            item.copy_of = copies.original_of(item.path)
            if item.copy_of is not None:
                copied.setdefault(item.copy_of, []).append(item.path)
    # a deleted or moved note some file still links at its old place: the link leads nowhere now, and
    # the check of the range misses it
    still_linked, into_folder = still_linking(head_kb, [i.path for i in items if i.change == DELETED],
                                              [(i.old_path, i.path) for i in items
                                               if i.old_path is not None and i.change != DELETED])
    for item in items:
        item.status = item_status(item.ids, statuses)
        backfilled = backfill_reason(head_kb, item, config, head_date, lang)
        if backfilled is not None:
            item.backfilled, item.reason = True, backfilled
        if item.change == ADDED and item.kind in (GUIDE, BRIEF):
            day = restored_day(head_kb, item.path, lambda path: added_days.of(path) or as_date(head_date),
                               config.restored_age_years)
            item.restored = day.isoformat() if day is not None else None
        if (item.change == ADDED or item.old_path is not None) and item.kind in (GUIDE, BRIEF):
            item.index_page = index_page(head_kb, item.path)
        place = old_place(item)
        item.still_linked = still_linked.get(place, []) if place is not None else []
        item.linked_into_folder = into_folder.get(item.old_path, []) if item.old_path is not None else []
        if item.change != DELETED:
            item.cautions.extend(card_cautions(head_kb, item.path, config, lang))
            item.cautions.extend(note_cautions.of(item, lang, copied.get(item.path, ())))
            item.cautions.extend(contradictions.of(item, lang))
            if item.path in copied:
                item.cautions.append(say(lang, "caution.copied", copies=capped(lang, copied[item.path], 2)))
        item.cautions.extend(still_linked_cautions(item, lang))
        if item.note:
            item.cautions.append(say(lang, "caution.not_read", note=item.note))
        reason = living_reason(base_kb, head_kb, item, lang) if item.kind == "knowledge" else ""
        # with no living document, only a note naming a page still to write has somewhere to go
        proposes = not head_docs and item.change != DELETED and item.kind != "knowledge" and bool(
            pages.of(item.path))
        classify(item, config, lang, manifest_mode=manifest_paths is not None, living_reason=reason,
                 stale=stale_numbers(item, index.about, lang), linked_from=linked.get(item.path, ()),
                 living=bool(head_docs), proposes_page=proposes)
        item.warnings = [*item.cautions, *finding_lines(index.concerning(item), lang)]

    for item in items:
        if item.cls == INCREMENT and item.change != DELETED:
            item.new_pages = pages.of(item.path)
    proposing = {item.path for item in items if item.new_pages}
    place_increments(head_kb, [i for i in items if i.cls == INCREMENT], lang, suggester, head_date,
                     proposing.__contains__)
    unfold(head_kb, items, head_docs, lang)  # placed, and nothing in the living documents relates to it

    ordered = sorted((i for i in items if i.cls == INCREMENT), key=sort_key)
    ordered += sorted((i for i in items if i.cls == REVIEW), key=lambda i: i.path)
    ordered += sorted((i for i in items if i.cls == LIVING_DOC), key=lambda i: i.path)

    titles: dict[str, str] = {}
    carded: set[str] = set()
    for item in ordered:
        for cited in item.ids:
            card_path = head_kb.paper_card_path(cited.id) if cited.kind == "arxiv" else None
            if card_path is not None:
                carded.add(cited.id)
            card = head_kb.card(card_path) if card_path else None
            if card is not None and card.fields.get("title"):
                titles.setdefault(cited.id, card.title)
            elif item.kind == PAPER and item.ids and item.ids[0] == cited:
                titles.setdefault(cited.id, item.title)
    actions = merge_actions(head_kb, ordered, [f for f in head_findings if f.path in set(head_docs)], lang)
    head_kb.facts.flush()  # the caches are shared: one flush writes what both revisions parsed (merge actions too)
    notices = list(dict.fromkeys([*base_kb.notices, *head_kb.notices]))
    notices += [f"{i.path}: {i.note}" for i in ordered if i.note and f"{i.path}: {i.note}" not in notices]
    return Digest(
        base=base, head=head, base_date=git.commit_date(repo, base), head_date=head_date,
        items=ordered,
        findings_new=[f for f in head_findings if f.fingerprint not in base_prints],
        findings_resolved=[f for f in base_findings if f.fingerprint not in head_prints],
        boundary=boundary, living_documents=head_docs, manifest=manifest, notices=notices, titles=titles, carded=carded,
        has_paper_cards=head_kb.has_kind(PAPER), merge_actions=actions, lang=lang,
    )


__all__ = ["build_digest", "findings_in", "living_reason"]
