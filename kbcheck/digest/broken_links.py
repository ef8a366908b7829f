"""A note's links to files that do not exist, as one caution: how many, and the first few.

A source note ingested before the pages it links are written links twenty pages that do not
exist yet; a caution per target buries the one that matters under twenty alike. A hand-written
brief says it once: "links 23 pages not written yet: [[a]], [[b]], [[c]] and 20 more". So the
KB009 findings of one file that name two targets or more are one caution for the file: the
count, the first `SHOWN` targets (those with a near file that exists first: a renamed note, the
fix), each with its lines. One target, however often linked, stays its finding's own caution.

A wikilink by a page's name alone (`[[kv-cache]]`) to a page nobody has written, with no near
file it could be a rename of, is how a wiki names a page still to write (Obsidian lists such
links as unresolved, to be created): the digest proposes the page, and the note's cautions leave
it out. A link by path (`[x](../kv/cache.md)`, `[[concepts/kv-cache]]`) or with a near file that
exists is a broken link still. The check (KB009) reports both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kbcheck.digest.new_page import page_name
from kbcheck.digest.phrases import join, plural, say
from kbcheck.rules.kb009_broken_path import MissingTarget

if TYPE_CHECKING:
    from kbcheck.findings import Finding

#: targets a grouped caution names (the warnings checklist and the JSON findings have them all)
SHOWN = 3


def missing_target(finding: Finding) -> MissingTarget | None:
    """The finding's missing link target, when it is a KB009 finding of a link that resolves."""
    facts = finding.facts
    if finding.rule == "KB009" and isinstance(facts, MissingTarget) and facts.target is not None:
        return facts
    return None


def page_to_write(facts: MissingTarget) -> bool:
    """A wikilink by page name alone, to no file and no near one: a page still to write (module docstring)."""
    return page_name(facts.written) is not None and facts.meant is None


def grouped_line(path: str, targets: Sequence[tuple[MissingTarget, Sequence[Finding]]], lang: str) -> str:
    """One caution for a file's links to `targets` (each: its facts and its findings, in order)."""
    ranked = sorted(targets, key=lambda target: target[0].meant is None)  # a "did you mean" first: it is the fix
    shown: list[str] = []
    for facts, same in ranked[:SHOWN]:
        lines = [str(line) for line in dict.fromkeys(f.line for f in same)]
        key = "broken.target.meant" if facts.meant is not None else "broken.target"
        shown.append(say(lang, key, written=facts.written, lines=", ".join(lines), meant=facts.meant or "",
                         s=plural(len(lines))))
    more = len(targets) - len(shown)
    listed = join(lang, shown) + (" " + say(lang, "more", n=more) if more > 0 else "")
    return f"KB009 {path}: {say(lang, 'broken.grouped', n=len(targets), s=plural(len(targets)), targets=listed)}"


__all__ = ["SHOWN", "grouped_line", "missing_target", "page_to_write"]
