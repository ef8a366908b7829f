"""Increment, review or living-doc: the first row of this table that fits.

| situation                                              | class      |
|--------------------------------------------------------|------------|
| living document changed                                | living-doc |
| deleted, or pure rename                                | review     |
| manifest (without --manifest)                          | review     |
| unchanged, listed again by --manifest                  | review     |
| a changelog, a to-do list or a template                | review     |
| a stub: no prose yet (title, links, code, abstract)    | review     |
| added or moved: a list of links to notes (an index)    | review     |
| card whose category is outside scope-categories        | review     |
| new paper card of a paper older than backfill-age-years | review     |
| volatile-only, no id cited-no-entry or meta-only       | review     |
| volatile-only of a cited-no-entry or meta-only item    | increment  |
| modified: dates, status markers, tags, open questions, | review     |
|   or a note's frontmatter alone                        |            |
| added note nearly copying a note already there         | review     |
| added note dated years before the commit adding it     | review     |
| no living document at all, and no page linked to write | review     |
| added, every id already has entry mentions             | review     |
| added, linked by path from an ordinary section         | review     |
| added, some id lacking an entry mention, or no ids     | increment  |
| substantive modification                               | increment  |
| an increment above that is a note nothing in the       | review     |
|   living documents relates to (tried once placed)      |            |

Bookkeeping notes are told by name or shape (`kbcheck.digest.gist`), housekeeping edits
by what the diff changed (`kbcheck.digest.housekeeping`), near-copies by their body lines
(`kbcheck.digest.near_copy`), restored notes by their own date (`chronology.restored_day`,
`restored-age-years`), index pages by init's test for a list (`digest.index_page`): rows
of kbcheck's own. A knowledge base with no living
document (`knowledge` empty, or matching no file at head) has nowhere to fold a note: its new
and changed notes are notes to read (review), except one that links a living document still to
be written, which is proposed as a new page (`kbcheck.digest.new_page`). With living documents,
a note no section fits, that links no page to write and that no living document cites, mentions
or links (nor it them) has nowhere to fold either: the last row, tried once the increments are
placed (`kbcheck.digest.no_home`). The "unchanged" row is kbcheck's own: only a manifest can list a path that
did not change in the range, and such a re-delivery is not new material.
An item's ids are its own: those a header every note repeats carries (the
owner's index repository) were dropped before (`items.drop_repeated_ids`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kbcheck import i18n
from kbcheck.digest.broken_links import grouped_line, missing_target, page_to_write
from kbcheck.digest.housekeeping import filing_only
from kbcheck.digest.model import (
    ADDED,
    DELETED,
    INCREMENT,
    LIVING_DOC,
    RENAMED,
    REVIEW,
    IdStatus,
    Item,
)
from kbcheck.digest.phrases import capped, clauses, field_changes, join, plural, say
from kbcheck.model.cards import PAPER, REPO
from kbcheck.model.knowledge_base import KNOWLEDGE, MANIFEST
from kbcheck.rules.kb002_cited_but_absent import ReferenceNeverMentioned
from kbcheck.rules.kb006_stale_number import StaleNumber

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.findings import Finding
    from kbcheck.rules.kb009_broken_path import MissingTarget

#: rules whose findings elsewhere can be about an item (they name its id or its card)
_ABOUT_RULES = ("KB002", "KB006")
#: order of increments: cited-no-entry first (pure gaps before partly discussed ones), then meta-only
_GROUP = {(True, False): 0, (True, True): 1, (False, True): 2, (False, False): 3}


def sort_key(item: Item) -> tuple[int, str]:
    return _GROUP[(item.cited_no_entry, item.meta_only)], item.path


def stale_numbers(item: Item, findings: Sequence[Finding], lang: str) -> list[str]:
    """The KB006 findings that name the item's card, as "243⭐ at path:line (card now says …)"."""
    out: list[str] = []
    for finding in findings:
        if isinstance(finding.facts, StaleNumber) and finding.facts.card == item.path:
            out.append(say(lang, "stale", text=finding.subject, path=finding.path, line=finding.line,
                           now=say(lang, "now", value=finding.facts.now())))
    return out


class FindingIndex:
    """Head findings by file, and the KB002/KB006 ones that may be about any item."""

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.by_path: dict[str, list[Finding]] = {}
        for finding in findings:
            self.by_path.setdefault(finding.path, []).append(finding)
        self.about = [f for f in findings if f.rule in _ABOUT_RULES]

    def concerning(self, item: Item) -> list[Finding]:
        """Findings located in the item's file, or KB002/KB006 findings naming its id or path."""
        ids = {cited.id for cited in item.ids}
        out = list(self.by_path.get(item.path, ()))
        for finding in self.about:
            if finding.path != item.path and (finding.subject in ids or _names(finding, item.path, ids)):
                out.append(finding)
        return out


def _names(finding: Finding, path: str, ids: set[str]) -> bool:
    """The finding's facts name the item: its card (KB006) or one of its ids (KB002)."""
    facts = finding.facts
    if isinstance(facts, StaleNumber):
        return facts.card == path
    return isinstance(facts, ReferenceNeverMentioned) and facts.id in ids


def finding_lines(findings: Iterable[Finding], lang: str) -> list[str]:
    """The findings as warnings of the item they concern, their messages in the digest's language:
    one line per rule, file and subject (a broken link's target written five times is one caution,
    naming its lines), in the order first found; a file's links to two missing targets or more are
    one caution for the file, and a link to a page still to write is none (`kbcheck.digest.broken_links`)."""
    grouped: dict[tuple[str, str, str], list[Finding]] = {}
    for finding in findings:
        target = missing_target(finding)
        if target is not None and page_to_write(target):
            continue
        grouped.setdefault((finding.rule, finding.path, finding.subject or finding.fingerprint), []).append(finding)
    missing: dict[str, list[tuple[MissingTarget, list[Finding]]]] = {}
    for same in grouped.values():
        facts = missing_target(same[0])
        if facts is not None:
            missing.setdefault(same[0].path, []).append((facts, same))
    out: list[str] = []
    for same in grouped.values():
        first = same[0]
        targets = missing.get(first.path, [])
        if len(targets) > 1 and missing_target(first) is not None:
            if targets[0][1] is same:  # the file's one caution, where its first missing target was
                out.append(grouped_line(first.path, targets, lang))
            continue
        lines = ", ".join(str(line) for line in dict.fromkeys(f.line for f in same))
        out.append(f"{first.rule} {first.path}:{lines}: {i18n.say(first.message, lang)}")
    return out


def _gaps(item: Item, lang: str) -> str:
    """The ids that lack an entry, each with what is missing."""
    if item.status is None or not item.ids:
        return say(lang, "gap.no_ids")
    parts: list[str] = []
    for cited in item.ids:
        status = item.status.per_id.get(cited.id, IdStatus())
        if status.entry_mentions:
            continue
        where = capped(lang, status.sections)
        if status.in_references and status.meta_mentions:
            parts.append(say(lang, "gap.cited_meta", id=cited.display, sections=where))
        elif status.in_references:
            parts.append(say(lang, "gap.cited_no_entry", id=cited.display))
        elif status.meta_mentions:
            parts.append(say(lang, "gap.meta_only", id=cited.display, sections=where))
        else:
            parts.append(say(lang, "gap.absent", id=cited.display))
    return capped(lang, parts)


def classify(item: Item, config: Config, lang: str, *, manifest_mode: bool, living_reason: str,
             stale: list[str], linked_from: Sequence[str] = (), living: bool = True,
             proposes_page: bool = False) -> None:
    """Set the item's class and one-line reason: the first row of the table that fits. `living`: the
    knowledge base has living documents at head; `proposes_page`: the item links one still to write."""
    status = item.status
    total = status.total if status is not None else IdStatus()
    gap = item.cited_no_entry or item.meta_only
    shown = {k: v for k, v in item.changed_fields.items() if not (item.volatile_only and k == "body")}
    fields = field_changes(lang, shown) if item.compared else say(
        lang, "caution.not_read", note=item.note or "?")
    if item.kind == KNOWLEDGE:
        item.cls, item.reason = LIVING_DOC, living_reason
    elif item.change == DELETED:
        item.cls, item.reason = REVIEW, say(lang, "deleted")
    elif item.change == RENAMED:
        item.cls, item.reason = REVIEW, say(lang, "renamed", old=item.old_path)
    elif item.kind == MANIFEST and not manifest_mode:
        item.cls, item.reason = REVIEW, say(lang, "manifest")
    elif item.unchanged:
        item.cls, item.reason = REVIEW, say(lang, "unchanged")
    elif item.shape is not None:
        item.cls, item.reason = REVIEW, say(lang, f"bookkeeping.{item.shape}")
    elif item.stub:
        item.cls, item.reason = REVIEW, say(lang, "stub")
    elif item.index_page:
        item.cls, item.reason = REVIEW, say(lang, "index_page")
    elif (item.kind in (PAPER, REPO) and config.scope_categories and item.category is not None
          and item.category not in config.scope_categories):
        item.cls = REVIEW
        item.reason = say(lang, "out_of_scope", category=item.category, scope=join(lang, config.scope_categories))
    elif item.backfilled:
        item.cls = REVIEW  # the reason was set when the card was found to be back-filled
    elif item.volatile_only and not gap:
        parts = [say(lang, "refresh", fields=fields)]
        if total.sections:
            parts.append(say(lang, "refresh.where", sections=capped(lang, total.sections)))
        if stale:
            parts.append(say(lang, "refresh.stale", stale=capped(lang, stale)))
        item.cls, item.reason = REVIEW, clauses(lang, parts)
    elif item.volatile_only:
        item.cls, item.reason = INCREMENT, say(lang, "refresh_gap", gap=_gaps(item, lang), fields=fields)
        item.cautions.append(say(lang, "caution.refresh_not_new", fields=fields))
    elif item.housekeeping:
        key = "housekeeping.metadata" if filing_only(item.changed_fields) else "housekeeping"
        item.cls, item.reason = REVIEW, say(lang, key, what=fields)
    elif item.change == ADDED and item.copy_of is not None:
        item.cls, item.reason = REVIEW, say(lang, "near_copy", path=item.copy_of)
    elif item.change == ADDED and item.restored is not None:
        item.cls, item.reason = REVIEW, say(lang, "restored", date=item.restored,
                                               years=config.restored_age_years, s=plural(config.restored_age_years))
    elif not living and not proposes_page:
        item.cls, item.unfolded = REVIEW, True
        item.reason = say(lang, "unfolded") if item.change == ADDED else say(lang, "unfolded.modified", what=fields)
    elif item.change == ADDED and item.ids and status is not None and all(
        s.entry_mentions for s in status.per_id.values()
    ):
        item.cls, item.reason = REVIEW, say(lang, "digested", sections=capped(lang, total.entry_sections))
        item.digested = True
    elif item.change == ADDED and linked_from:
        item.cls, item.reason = REVIEW, say(lang, "digested.linked", sections=capped(lang, list(linked_from)))
        item.digested = True
    elif item.change == ADDED:
        item.cls, item.reason = INCREMENT, say(lang, "new", gap=_gaps(item, lang))
    else:
        parts = [say(lang, "modified", what=fields)]
        if total.entry_sections:
            parts.append(say(lang, "modified.recheck", sections=capped(lang, total.entry_sections)))
        item.cls, item.reason = INCREMENT, clauses(lang, parts)
