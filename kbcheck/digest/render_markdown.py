"""`kbcheck digest --format markdown`: the shape of a hand-written pre-digest brief.

Title, counts line, one block per increment (source / key points / relation
to the living documents / cautions), review items, living-document changes,
the warnings checklist, citable ids, the evidence boundary. The output stays
under 1 MiB (it is appended to `$GITHUB_STEP_SUMMARY`): when it would not,
the longest lists are cut to their first entries plus a "… N more" line.
"""

from __future__ import annotations

import re

from kbcheck import i18n
from kbcheck.digest.dangling import still_linked_cautions
from kbcheck.digest.model import ADDED, DELETED, INCREMENT, LIVING_DOC, REVIEW, Digest, IdStatus, Item
from kbcheck.digest.phrases import capped, clauses, field_changes, join, plural, say, why
from kbcheck.model.document import inline_text
from kbcheck.printable import printable_path
from kbcheck.regex import lazy

#: GitHub refuses a step summary over 1 MiB
LIMIT = 1024 * 1024
_SAFETY = 4096
#: the strongest reasons of a suggestion (the JSON has them all)
_WHY_SHOWN = 3
#: living documents named in the "compared against" line
_AGAINST_SHOWN = 12
#: an increment's cautions and findings shown under it (the warnings checklist lists every new finding)
_WARNINGS_SHOWN = 5
#: cautions a note to read shows on its review line
_REVIEW_CAUTIONS = 2
#: digested review items, new living documents and consumed paths listed one by one (the JSON has them all)
_GROUP_SHOWN = 10



def _colon(lang: str) -> str:
    return "：" if lang == "zh" else ": "


#: characters that start markup anywhere in a line: emphasis, code, links, images, HTML, entities, tables, math
_INLINE_MARKUP = lazy(r"([\\`*_\[\]<>&!|~#$])")
#: what GitHub turns into a link or a mention with no markup at all: `https://…`, `www.…`, `@user`,
#: `a@b.org`; a zero-width space after the `:`, the `www` and each `@` leaves the text as it reads
_AUTOLINK = lazy(r"(?<=:)(?=//)|(?i:(?<=(?<![\w.])www))(?=\.)|(?<=@)")
#: what starts a block at the beginning of a line: a list item, a quote, a heading underline
_BLOCK_START = lazy(r"^(\s*)(?:([-+=])(?=\s|[-=]*\s*$)|(\d{1,9})([.)])(?=\s|$))")
_LINE_BREAKS = lazy(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+")


def escape_markdown(value: object) -> str:
    """Text that did not come from kbcheck (titles, headings, key points, file names in messages)
    as inert markdown: on one line, every markup character escaped, so a card title can forge
    no heading, link, image or HTML in a pull request's summary. Every renderer of the
    digest's markdown passes data through here."""
    flat = _LINE_BREAKS.sub(" ", str(value))
    flat = "".join(ch if "\udc80" > ch or ch > "\udcff" else f"\\{ord(ch) - 0xDC00:03o}" for ch in flat)
    # `1\.` (not `\1.`): a backslash before a digit is no escape and would show
    flat = _AUTOLINK.sub("\u200b", _INLINE_MARKUP.sub(r"\\\1", flat))
    return _BLOCK_START.sub(_inert_start, flat)


def _inert_start(match: re.Match[str]) -> str:
    space, mark, digits, dot = match.groups()
    return f"{space}\\{mark}" if mark else f"{space}{digits}\\{dot}"


def _code(path: str) -> str:
    """A file name as a code span: nothing in it is markup; a fence longer than any backtick run in it."""
    shown = _LINE_BREAKS.sub(" ", printable_path(path))
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") or not shown.strip() else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def _cap(lines: list[str], cap: int | None, lang: str) -> list[str]:
    if cap is None or len(lines) <= cap:
        return lines
    return lines[:cap] + [f"- {say(lang, 'md.more', n=len(lines) - cap)}"]


def _relation(item: Item, lang: str) -> list[str]:
    if not item.ids or item.status is None:
        return [f"- {say(lang, 'md.no_ids')}"]
    lines: list[str] = []
    for cited in item.ids:
        status = item.status.per_id.get(cited.id, IdStatus())
        parts = [
            say(lang, "md.rel.refs", sections=capped(lang, [escape_markdown(s) for s in status.reference_sections]))
            if status.in_references
            else say(lang, "md.rel.no_refs"),
            say(lang, "md.rel.entry", n=status.entry_mentions, s=plural(status.entry_mentions),
                where=say(lang, "md.rel.where", sections=capped(lang, [escape_markdown(s) for s in status.entry_sections]))
            if status.entry_sections else ""),
        ]
        meta_sections = [s for s in status.sections if s not in status.entry_sections]
        parts.append(say(lang, "md.rel.meta", n=status.meta_mentions, s=plural(status.meta_mentions),
                         where=say(lang, "md.rel.where", sections=capped(lang, [escape_markdown(s) for s in meta_sections]))
                         if meta_sections else ""))
        line = f"- {escape_markdown(cited.display)}{_colon(lang)}{clauses(lang, parts)}"
        if status.cited_no_entry:
            line += f" —— {say(lang, 'md.rel.cited_no_entry')}" if lang == "zh" else f" — {say(lang, 'md.rel.cited_no_entry')}"
        elif status.meta_only:
            line += f" —— {say(lang, 'md.rel.meta_only')}" if lang == "zh" else f" — {say(lang, 'md.rel.meta_only')}"
        elif not status.in_references and not status.entry_mentions and not status.meta_mentions:
            line += f" —— {say(lang, 'md.rel.absent')}" if lang == "zh" else f" — {say(lang, 'md.rel.absent')}"
        lines.append(line)
    return lines


def _increment(n: int, item: Item, lang: str, cap: int | None) -> list[str]:
    stars = "★★" if item.cited_no_entry else "★"
    heading = say(lang, "md.increment", n=n, title=escape_markdown(item.title), reason=escape_markdown(item.reason))
    out = [f"## {heading} {stars}", "", f"**{say(lang, 'md.source')}**", ""]
    out.append("- " + say(lang, "md.file", path=_code(item.path), kind=say(lang, f"kind.{item.kind}"),
                          change=say(lang, f"change.{item.change}")))
    if item.old_path:
        out.append("- " + say(lang, "md.old_path", path=_code(item.old_path)))
    if item.ids:
        out.append("- " + say(lang, "md.ids", ids=join(lang, [escape_markdown(c.display) for c in item.ids][: cap or None])))
    if item.changed_fields:
        out.append("- " + say(lang, "md.fields", fields=escape_markdown(field_changes(lang, item.changed_fields))))
    key_points = escape_markdown(item.key_points) if item.key_points else say(lang, "md.no_key_points")
    out += ["", f"**{say(lang, 'md.key_points')}**", "", key_points, ""]
    out += [f"**{say(lang, 'md.relation')}**", ""]
    out += _cap(_relation(item, lang), cap, lang)
    out += ["", f"**{say(lang, 'md.suggested')}**", ""]
    suggested = [
        "- " + say(lang, "md.suggestion" if s.why else "md.suggestion.bare", doc=_code(s.living_doc),
                   section=escape_markdown(inline_text(s.section)) or "—", line=s.line, score=f"{s.score:.2f}",
                   why=escape_markdown(clauses(lang, [why(lang, w) for w in s.why[:_WHY_SHOWN]])))
        for s in item.suggested_sections
    ]
    suggested += ["- " + say(lang, "md.new_page" if page.linked_from else "md.new_page.alone", path=_code(page.path),
                             linkers=join(lang, [_code(p) for p in page.linked_from])) for page in item.new_pages]
    out += suggested or [f"- {say(lang, 'md.no_suggestion')}"]
    if item.related:
        out += ["", f"**{say(lang, 'md.related')}**", ""]
        out += [f"- {_code(r.path)}{_colon(lang)}{escape_markdown(r.why)}" for r in item.related]
    out += ["", f"**{say(lang, 'md.cautions')}**", ""]
    warnings = [f"- {escape_markdown(w)}" for w in item.warnings] or [f"- {say(lang, 'md.no_cautions')}"]
    out += _cap(warnings, min(cap or _WARNINGS_SHOWN, _WARNINGS_SHOWN), lang)  # the checklist below has them all
    out.append("")
    return out


def _document(digest: Digest, lang: str, cap: int | None) -> str:
    base, head = digest.base[:7], digest.head[:7]
    counts = digest.counts
    out = [f"# {say(lang, 'md.title', base=base, head=head)}", ""]
    out.append(say(lang, "md.range", base=base, base_date=digest.base_date, head=head, head_date=digest.head_date))
    shown = min(cap or _AGAINST_SHOWN, _AGAINST_SHOWN)  # a wiki has thousands of pages: the JSON lists them all
    docs = join(lang, [_code(p) for p in digest.living_documents[:shown]]) or say(lang, "md.none")
    if len(digest.living_documents) > shown:
        docs += " " + say(lang, "md.more", n=len(digest.living_documents) - shown)
    out += ["", say(lang, "md.against", docs=docs), ""]
    line = say(lang, "md.counts", increment=counts[INCREMENT], review=counts[REVIEW],
               s1=plural(counts[INCREMENT]), s2=plural(counts[REVIEW]))
    if counts[LIVING_DOC]:
        line += say(lang, "md.counts.living", n=counts[LIVING_DOC], s=plural(counts[LIVING_DOC]))
    out += [line, ""]

    increments = digest.of_class(INCREMENT)
    blocks: list[str] = []
    for n, item in enumerate(increments, 1):
        if cap is not None and n > cap:
            blocks += [f"{say(lang, 'md.more', n=len(increments) - cap)}", ""]
            break
        blocks += _increment(n, item, lang, cap)
    out += blocks

    def review_line(item: Item) -> str:
        # a note to read (nowhere to fold it) keeps its first cautions: they are what reading it needs;
        # a deleted note keeps its one, and a moved note the one of them, files still linking its old place
        if item.unfolded or item.change == DELETED:
            kept = item.cautions[:_REVIEW_CAUTIONS]
        else:
            kept = still_linked_cautions(item, lang)
        shown = [f" ⚠ {escape_markdown(c)}" for c in kept]
        if lang == "zh":
            return f"- {escape_markdown(item.title)}（{_code(item.path)}）{_colon(lang)}{escape_markdown(item.reason)}" + "".join(shown)
        return f"- {escape_markdown(item.title)} ({_code(item.path)}): {escape_markdown(item.reason)}" + "".join(shown)

    # what the living documents already discuss is listed up to a point: a wiki's ingest digests hundreds
    digested = [item for item in digest.of_class(REVIEW) if item.digested and not item.backfilled]
    reviews = [review_line(item) for item in digest.of_class(REVIEW) if not item.backfilled and not item.digested]
    reviews += [review_line(item) for item in digested[:_GROUP_SHOWN]]
    if len(digested) > _GROUP_SHOWN:
        reviews.append("- " + say(lang, "md.more_digested", n=len(digested) - _GROUP_SHOWN))
    backfilled = [item for item in digest.of_class(REVIEW) if item.backfilled]
    if backfilled:
        papers = join(lang, [escape_markdown(c.display) for item in backfilled for c in item.ids[:1]][:cap or 8])
        if len(backfilled) > (cap or 8):
            papers += " …"
        reviews.append("- " + say(lang, "md.backfilled", n=len(backfilled), s=plural(len(backfilled)), papers=papers))
    out += [f"## {say(lang, 'md.review')}", ""] + (_cap(reviews, cap, lang) or [say(lang, "md.none")]) + [""]

    changed_docs = [item for item in digest.of_class(LIVING_DOC) if item.change != ADDED]
    new_docs = [item for item in digest.of_class(LIVING_DOC) if item.change == ADDED]
    living = [f"- {_code(item.path)}{_colon(lang)}{escape_markdown(item.reason)}"
              for item in changed_docs + new_docs[:_GROUP_SHOWN]]
    if len(new_docs) > _GROUP_SHOWN:
        living.append("- " + say(lang, "md.more_new_docs", n=len(new_docs) - _GROUP_SHOWN,
                                       s=plural(len(new_docs) - _GROUP_SHOWN)))
    if living:
        out += [f"## {say(lang, 'md.living')}", ""] + _cap(living, cap, lang) + [""]

    checklist = [f"- ⚠ {f.rule} {_code(f.path)}:{f.line}{_colon(lang)}{escape_markdown(i18n.say(f.message, lang))}"
                 for f in digest.findings_new]
    cautions = [f"- ⚠ {escape_markdown(item.title)}{_colon(lang)}{escape_markdown(caution)}" for item in increments for caution in item.cautions]
    out += [f"## {say(lang, 'md.checklist')}", ""]
    if checklist:
        out += [f"**{say(lang, 'md.new_findings')}**", ""] + _cap(checklist, cap, lang) + [""]
    if cautions:
        out += [f"**{say(lang, 'md.card_cautions')}**", ""] + _cap(cautions, cap, lang) + [""]
    if not checklist and not cautions:
        out += [say(lang, "md.none"), ""]
    if digest.findings_resolved:
        out += [say(lang, "md.resolved", n=len(digest.findings_resolved)), ""]

    citable = []
    for cited in digest.citable_ids:
        title = digest.titles.get(cited.id)
        title = escape_markdown(title) if title else title
        citable.append(f"- {escape_markdown(cited.display)}" + (f" —— {title}" if lang == "zh" and title else f" — {title}" if title else ""))
    out += [f"## {say(lang, 'md.citable')}", ""] + (_cap(citable, cap, lang) or [say(lang, "md.none")]) + [""]

    actions = [f"{a.priority}. {escape_markdown(a.action)}" + (f"（{_code(a.path)}）" if lang == "zh" and a.path
               else f" ({_code(a.path)})" if a.path else "") for a in digest.merge_actions]
    out += [f"## {say(lang, 'md.merge_actions')}", ""] + (_cap(actions, cap, lang) or [say(lang, "md.none")]) + [""]

    consumed = sum(1 for e in digest.boundary if e.consumed)
    out += [f"## {say(lang, 'md.boundary')}", ""]
    out.append("- " + say(lang, "md.b.range", base=base, base_date=digest.base_date, head=head, head_date=digest.head_date))
    if digest.manifest:
        out.append("- " + say(lang, "md.b.manifest", path=_code(digest.manifest)))
    out.append("- " + say(lang, "md.b.consumed", n=consumed, total=len(digest.boundary)))
    paths = []
    # every path not consumed is named; of those consumed, the first few (the JSON names them all)
    unread = [entry for entry in digest.boundary if not entry.consumed]
    read = [entry for entry in digest.boundary if entry.consumed]
    for entry in unread + read[:_GROUP_SHOWN]:
        state = say(lang, "md.b.yes" if entry.consumed else "md.b.no")
        note = f"（{escape_markdown(entry.note)}）" if lang == "zh" and entry.note else f" ({escape_markdown(entry.note)})" if entry.note else ""
        paths.append(f"  - {_code(entry.path)} —— {state}{note}" if lang == "zh" else f"  - {_code(entry.path)} — {state}{note}")
    out += _cap(paths, cap, lang)
    if len(read) > _GROUP_SHOWN:
        out.append("  - " + say(lang, "md.more_consumed", n=len(read) - _GROUP_SHOWN))
    out += ["- " + say(lang, "md.b.note"), ""]
    return "\n".join(out)


def render(digest: Digest, lang: str, limit: int = LIMIT) -> str:
    """The brief in `lang`, cut down until it fits in `limit` bytes."""
    text = _document(digest, lang, None)
    longest = max([len(digest.items), len(digest.findings_new), len(digest.boundary),
                   *(len(i.warnings) for i in digest.items), 1])
    cap = longest
    while len(text.encode("utf-8")) > limit - _SAFETY and cap > 1:
        cap //= 2
        text = _document(digest, lang, cap)
    data = text.encode("utf-8")
    if len(data) > limit - _SAFETY:  # a few enormous entries: cut at a line
        cut = data[: limit - _SAFETY].decode("utf-8", "ignore").rsplit("\n", 1)[0]
        text = cut + "\n\n" + say(lang, "md.more", n="?") + "\n"
    return text


__all__ = ["LIMIT", "escape_markdown", "render"]
