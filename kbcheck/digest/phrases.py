"""Every sentence the digest writes, by key, in English; other languages come from the catalogs.

Kept in one table so the classifier and renderers never hold prose of their
own. Each phrase is a catalog message whose context is its key
(`tools/catalogs.py` adds them), so the same English may be said two ways in
Chinese (`deleted` as a reason, 已删除, and as a change, 删除). The digest is
written in its own language (`lang`, zh by default), whatever language
kbcheck's messages are in (`docs/configuration.md`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kbcheck.suggest.reasons import REASONS, Reason

_PHRASES: dict[str, str] = {
    # -- reasons (one line each) -----------------------------------------------------
    "living.added": "new living document: {sections} section{s1}, {refs} reference{s2}",
    "living.deleted": "living document deleted",
    "living.renamed": "renamed from {old}",
    "living.touched": "sections touched: {sections}",
    "living.refs_added": "references added: {ids}",
    "living.refs_removed": "references removed: {ids}",
    "living.nothing": "formatting only",
    "deleted": "deleted",
    "renamed": "renamed from {old}, content unchanged",
    "manifest": "manifest",
    "out_of_scope": "out of scope: category {category} is not in scope-categories ({scope})",
    "refresh": "refresh, not a new finding: {fields}",
    "refresh.where": "already in {sections}",
    "refresh.stale": "stale numbers to update: {stale}",
    "refresh_gap": "open gap: {gap}; the refresh itself ({fields}) is not new",
    "digested": "already digested, in {sections}",
    "digested.linked": "already digested: {sections} link this file",
    "new": "new material: {gap}",
    "bookkeeping.changelog": "changelog: a record of what was done, not new material",
    "bookkeeping.todo": "to-do list: plans, not new material",
    "bookkeeping.template": "template: a form for new notes, not new material",
    "housekeeping": "housekeeping (dates, status markers, open questions), not new material: {what}",
    "housekeeping.metadata": "metadata only (tags, dates, status in the frontmatter), not new material: {what}",
    "stub": "stub: nothing written yet (a title, links, code or the paper's abstract only), nothing to fold in",
    "restored": ("restored: dated {date}, more than {years} year{s} before the commit that added it; "
                 "old material, not news"),
    "index_page": "index page: a list of links to notes, not a note",
    "near_copy": "near-copy of {path}: the same text but for a line or two, not new material",
    "unfolded": "a note to read: the knowledge base keeps no living documents to fold it into",
    "unfolded.modified": "a note to read: the knowledge base keeps no living documents to fold it into ({what})",
    "no_home": ("nothing to fold into: it cites no paper or repository, no section of the living documents holds "
                "its words, none links it, and it links no page still to write; a note to read (or a page's start)"),
    "no_home.modified": ("nothing to fold into ({what}): it cites no paper or repository, no section of the living "
                         "documents holds its words, none links it, and it links no page still to write; a note to read"),
    "modified": "modified: {what}",
    "modified.recheck": "re-check the entry in {sections}",
    "unchanged": "unchanged between base and head; listed again by the manifest",
    "changed": "changed {names}",
    "body": "body changed",
    "formatting": "formatting only",
    "stale": "{text} at {path}:{line} ({now})",
    "now": "card now says {value}",
    "backfilled": ("back-filled by the collector: the paper is from {published}, collected {collected} "
                   "(older than {years} year{s}); not news"),
    "clash": ("name clash: \"{name}\" in the title already names {there} in {files}; here it is {here}: "
              "confirm which is meant before linking them"),
    "near_clash": ("near-name clash: \"{name}\" here, \"{other}\" in {file}: close names of different works; "
                   "confirm which is meant"),
    "related.links_item": "links this item",
    "related.shares": "cites {ids} too",
    "related.linked": "linked from this item",
    "related.titled_alike": "one title begins with the other: a sequel, a part, or one work noted twice",
    "related.owner": "same owner ({owner})",
    "related.name": "about \"{name}\" too",
    "action.cited_no_entry": "add an entry for {what} in {section} (cited, no entry)",
    "action.anchor": "anchor the trend line \"{line}\" with {source}",
    "action.a_source": "a source",
    "action.new_entry": "add {what} to {section}",
    "action.new_page": "create {page} for {what}, linked from {linkers}",
    "action.new_page.alone": "create {page} for {what}",
    "md.new_page": "New page {path} (linked by this item, not yet written); link it from {linkers}",
    "md.new_page.alone": "New page {path} (linked by this item, not yet written)",
    "action.update_number": "update {number} (the card now says {now})",
    # -- gaps, one id each -----------------------------------------------------------
    "gap.cited_no_entry": "{id} is in the reference list with no entry (cited, no entry)",
    "gap.cited_meta": "{id} is in the reference list and mentioned only in {sections} (cited, no entry)",
    "gap.meta_only": "{id} is mentioned only in {sections} (meta only)",
    "gap.absent": "{id} is absent from the living documents",
    "gap.no_ids": "it cites no paper or repository",
    "more": "and {n} more",
    # -- card cautions -----------------------------------------------------------------
    "caution.abstract_only": "abstract only: the card has no text beyond its tldr, so no numbers or conclusions to quote",
    "caution.low_citations": "few citations: {n} (below {threshold}); an early paper whose conclusions may change",
    "caution.influential_exceeds": "citation counts disagree: influential citations {influential} exceed total citations {total}",
    "caution.influential_zero": "citation counts do not match: {total} citations but 0 influential",
    "caution.refresh_not_new": "the refresh itself is not new ({fields}); it does not count as an increment",
    "caution.not_read": "content not read: {note}",
    "broken.grouped": "links {n} file{s} that do not exist (pages not written yet, or renamed): {targets}",
    "broken.target": "{written} (line{s} {lines})",
    "broken.target.meant": "{written} (line{s} {lines}; did you mean {meant}?)",
    "caution.id_twins": ("one id under two titles: {id} is also the paper of {others}; one of them names the "
                         "wrong paper (a copied link?)"),
    "caution.same_paper": ("a second note on one paper: {others} is also a note on {id}, under the same title; "
                           "one of them may be enough"),
    "caution.namesake": "another note has the same name: {others}; a second note on the same work, or one to merge",
    "caution.still_linked": "still linked from {linkers}: those links now lead nowhere",
    "caution.linked_into_old_folder": "links into its old folder {folder} remain in {linkers}: they lead nowhere",
    "caution.still_linked_old": "still linked at its old path {old} from {linkers}: those links now lead nowhere",
    "caution.copied": ("copied in this range: {copies}, the same text but for a line or two; one of them may be "
                       "enough"),
    "caution.repeated": "line {line} repeats the paragraph of line {first} word for word: a paste to tidy up?",
    "caution.year_off": ("the note gives the year {year}, but {id} is from {published}: the year or the paper "
                         "link is wrong"),
    "caution.backfilled_note": ("back-filled: the paper is from {published}, noted {noted} (more than {years} year{s} "
                                "later); not news, and newer work may have overtaken it"),
    "caution.contradiction": ("numbers differ: the note says {here}, {path}:{line} says {there} about the same "
                              "work; check which is right"),
    "caution.unread": "marked unread ({field}: {value}): the note is not its author's reading yet",
    "caution.outdated": "the note marks itself possibly outdated ({field}): re-check before citing it",
    # -- markdown ----------------------------------------------------------------------
    "md.title": "Knowledge-base digest ({base}..{head})",
    "md.range": "Range: {base} ({base_date}) → {head} ({head_date})",
    "md.against": "Living documents: {docs}",
    "md.none": "(none)",
    "md.counts": "{increment} increment{s1} (new material to write up) + {review} review item{s2} (not new)",
    "md.counts.living": " + {n} living-document change{s}",
    "md.increment": "Increment {n}: {title} — {reason}",
    "md.source": "Source",
    "md.key_points": "Key points",
    "md.relation": "Relation to the living documents",
    "md.cautions": "Cautions",
    "md.file": "File: {path} ({kind}, {change})",
    "md.old_path": "Previous path: {path}",
    "md.ids": "Ids: {ids}",
    "md.fields": "Changed fields: {fields}",
    "md.no_key_points": "(no tldr or text to quote)",
    "md.no_ids": "cites no paper or repository: nothing to look up in the living documents",
    "md.no_cautions": "none",
    "md.rel.refs": "in the reference list ({sections})",
    "md.rel.no_refs": "not in the reference list",
    "md.rel.entry": "{n} entry mention{s}{where}",
    "md.rel.meta": "{n} meta mention{s}{where}",
    "md.rel.where": " ({sections})",
    "md.rel.cited_no_entry": "cited, no entry: the highest-value gap",
    "md.rel.meta_only": "meta only: no entry in the body",
    "md.rel.absent": "absent from the living documents",
    "md.review": "Review items (already digested or not new; not increments)",
    "md.living": "Living-document changes",
    "md.checklist": "Warnings checklist",
    "md.new_findings": "Findings new since the baseline",
    "md.resolved": "Findings resolved since the baseline: {n}",
    "md.card_cautions": "Cautions on the increments",
    "md.citable": "Citable ids",
    "md.boundary": "Evidence boundary",
    "md.b.range": "Range: {base} ({base_date})..{head} ({head_date})",
    "md.b.manifest": "Manifest: {path}",
    "md.b.consumed": "Items consumed: {n} (of {total})",
    "md.b.yes": "consumed",
    "md.b.no": "not consumed",
    "md.b.note": "Written by kbcheck digest: read-only; no living document, manifest or baseline was changed.",
    "md.suggested": "Suggested place",
    "md.suggestion": "{doc} {section} (line {line}, score {score}): {why}",
    "md.suggestion.bare": "{doc} {section} (line {line}, score {score})",
    # -- why a section is suggested (`kbcheck suggest` says them in English) ------------------
    "md.no_suggestion": "no section of the living documents fits clearly",
    "md.related": "Related material (already in the knowledge base)",
    "md.merge_actions": "Merge actions (in priority order)",
    "md.backfilled": "{n} new card{s} of years-old papers back-filled by the collector (not news): {papers}",
    "md.more": "… {n} more",
    "md.more_digested": "… {n} more already digested (the JSON lists every item)",
    "md.more_consumed": "… {n} more consumed (the JSON lists every path)",
    "md.more_new_docs": "… {n} more new living document{s} (the JSON lists every item)",
    "md.notices": "Notices",
    "kind.paper_card": "paper card",
    "kind.repo_card": "repo card",
    "kind.guide": "guide",
    "kind.knowledge": "living document",
    "kind.brief": "brief",
    "kind.manifest": "manifest",
    "kind.other": "other",
    "change.added": "added",
    "change.modified": "modified",
    "change.deleted": "deleted",
    "change.renamed": "renamed",
}
#: a suggestion's reasons (`kbcheck.suggest.reasons`) are phrases of the digest too
_PHRASES.update(REASONS)


def say(lang: str, key: str, **values: Any) -> str:
    """The phrase `key` in `lang` with `values` filled in (a value a language does not use, such as
    English's plural `s`, is left out)."""
    english = _PHRASES[key]
    if lang == "en":
        return english.format(**values)
    from kbcheck.i18n import catalog

    return catalog(lang).pgettext(key, english).format(**values)


def why(lang: str, reason: Reason) -> str:
    """One reason of a suggestion in the digest's language."""
    return say(lang, reason.key, **dict(reason.values))


def plural(n: int) -> str:
    """English's plural `s` for a count, the value a phrase's `{s}` takes (other languages leave it out)."""
    return "" if n == 1 else "s"


def phrases() -> dict[str, str]:
    """Every phrase by key, in English (for the catalogs)."""
    return dict(_PHRASES)


def join(lang: str, parts: Iterable[str]) -> str:
    """A list in running text: `a、b` in Chinese, `a, b` in English."""
    return ("、" if lang == "zh" else ", ").join(parts)


def clauses(lang: str, parts: Iterable[str]) -> str:
    """Clauses of one reason: `；` in Chinese, `; ` in English."""
    return ("；" if lang == "zh" else "; ").join(p for p in parts if p)


def capped(lang: str, parts: list[str], limit: int = 3) -> str:
    """At most `limit` parts, then "and N more" (a reason stays one short line)."""
    shown = parts[:limit]
    if len(parts) > limit:
        shown.append(say(lang, "more", n=len(parts) - limit))
    return join(lang, shown)


def value(raw: object) -> str:
    """A field value as a brief shows it; an absent field is `—`."""
    if raw is None:
        return "—"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, float) and raw == int(raw):
        return str(int(raw))
    if isinstance(raw, (list, dict)):
        import json

        return json.dumps(raw, ensure_ascii=False)
    from kbcheck.digest.gist import one_line

    return one_line(str(raw), 60)


def field_changes(lang: str, changed: dict[str, object]) -> str:
    """`stars 243 → 245、body changed`: every changed field, old → new."""
    parts: list[str] = []
    for name, pair in changed.items():
        if name == "body":
            parts.append(say(lang, "body"))
        elif isinstance(pair, (list, tuple)) and len(pair) == 2:
            parts.append(f"{name} {value(pair[0])} → {value(pair[1])}")
    return join(lang, parts) if parts else say(lang, "formatting")
