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
        start, end = first.map
        title = parse_document("\n".join(lines[start:end]), patterns, roots=roots, claims=False, front_matter=False)
        refs.extend(next((block.refs for block in title.blocks if block.kind == "heading"), []))
    return refs
