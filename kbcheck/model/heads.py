"""A file's own sources read from its head alone: what a link to the file stands for.

A link to a note stands for the one id the note is about (`docs/rules.md`),
which its frontmatter and title heading say (`Document.source_refs`). A
wiki's pages link hundreds of notes each; reading those two places from the
block structure, without the inline text, claims and sections of the body,
costs a fraction of a full parse, and a forked worker does it for every note
its files link, not only for its own share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.model.document import _Builder, _markdown, parse_document

if TYPE_CHECKING:
    from kbcheck.model.citations import Ref
    from kbcheck.model.document import HeadingPatterns


def head_refs(text: str, patterns: HeadingPatterns, roots: tuple[str, ...]) -> list[Ref]:
    """The refs of the frontmatter and of the title heading (the first heading, when it is the
    only level-1 one), as `parse_document(text).source_refs()` gives them (lines aside)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    quick = _from_the_top(lines, patterns, roots)
    if quick is not None:
        return quick
    builder = _Builder(lines, patterns, roots, (), 0, claims=False)
    headings = []
    for token in _markdown(inline=False).parse(text):
        if token.type == "front_matter":
            builder._front_matter(token)
        elif token.type == "heading_open":
            headings.append(token)
    refs = list(builder.own_refs)
    first = headings[0] if headings else None
    if first is not None and first.tag == "h1" and first.map and sum(h.tag == "h1" for h in headings) == 1:
        refs.extend(_title_refs(lines, first.map, patterns, roots))
    return refs


#: the lines a note's head is first looked for in: its frontmatter and title are near the top
TOP_LINES = 32


def _from_the_top(lines: list[str], patterns: HeadingPatterns, roots: tuple[str, ...]) -> list[Ref] | None:
    """`head_refs` from the note's first lines alone, when they settle it: the frontmatter closes
    and the first heading ends among them, and that heading cites nothing (so whether it is the
    only level-1 heading, which takes the whole note to tell, changes nothing). None otherwise.

    Tokens that end before the cut are the whole parse's: what a block is never depends on the
    lines after it (an unclosed fence runs to the end either way, a setext underline past the
    cut leaves no heading here)."""
    if len(lines) <= TOP_LINES:
        return None
    builder = _Builder(lines, patterns, roots, (), 0, claims=False)
    opens_with_fence = lines[0].rstrip() == "---"
    fenced = False
    for token in _markdown(inline=False).parse("\n".join(lines[:TOP_LINES])):
        if token.type == "front_matter":
            builder._front_matter(token)
            fenced = True
        elif token.type == "heading_open":
            if (opens_with_fence and not fenced) or not token.map or token.map[1] >= TOP_LINES:
                return None
            refs = list(builder.own_refs)
            if token.tag == "h1" and _title_refs(lines, token.map, patterns, roots):
                return None  # a title that cites: whether it is the only one takes the whole note
            return refs
    return None


def _title_refs(lines: list[str], where: list[int], patterns: HeadingPatterns, roots: tuple[str, ...]) -> list[Ref]:
    """The refs of the title heading at `where` (its token's line map)."""
    start, end = where
    title = parse_document("\n".join(lines[start:end]), patterns, roots=roots, claims=False, front_matter=False)
    return next((block.refs for block in title.blocks if block.kind == "heading"), [])
