"""A metadata header: the `Key: value` lines at the top of a note that has no `---` frontmatter.

Pelican, MultiMarkdown and Python-Markdown's `meta` extension read a note's
metadata from its first lines (`Title: …`, `Date: …`, `Tags: …`, `Summary: …`),
up to the first blank line, a line indented under a key continuing its value.
Like frontmatter it is metadata, never the note's text: its `title` is the
note's title and its `summary` a summary field (`docs/output.md`, "Key points").

The block is told by its shape, not by any one site generator: it opens the
file, every line of it is a key line or a continuation, it ends at a blank
line or the end of the file, and at least two of its keys are ones these
formats define (`title`, `date`, `tags`, `author`…). Two lines such as
`Problem: …` / `Answer: …` are prose, not a header.
"""

from __future__ import annotations

from dataclasses import dataclass

from kbcheck.regex import lazy

#: `Key: value`: a key of letters, digits, spaces, `_` and `-` (MultiMarkdown allows spaces)
_KEY_LINE = lazy(r"([A-Za-z][A-Za-z0-9_ -]{0,30}?)[ \t]*:(?:[ \t]+(.*)|[ \t]*)")
#: a continuation of the key above it, indented (Python-Markdown: four spaces or a tab)
_CONTINUATION = lazy(r"(?: {4,}|\t)\S.*")
#: keys Pelican, MultiMarkdown and Python-Markdown's meta extension define or their users write
KNOWN_KEYS = frozenset({
    "title", "subtitle", "date", "modified", "updated", "created", "tags", "tag", "keywords", "category",
    "categories", "slug", "author", "authors", "summary", "description", "abstract", "status", "lang",
    "language", "translation", "template", "save_as", "url", "affiliation", "copyright", "series",
    # Obsidian's default properties, which a note may carry without the `---` fences
    "aliases", "cssclasses",
})
#: known keys a block needs before it is a header
KNOWN_NEEDED = 2


@dataclass(frozen=True)
class MetadataHeader:
    """The header's fields (keys lower-cased, a continued value joined by spaces) and its last line."""

    fields: dict[str, str]
    #: the 1-based line the header ends on; the body starts after it
    end_line: int


def metadata_header(text: str) -> MetadataHeader | None:
    """The metadata header that opens `text`, or None (frontmatter, prose, or too few known keys)."""
    if not text[:1].isalpha() and not text.startswith("\ufeff"):
        return None  # the common case: a heading, frontmatter or a blank line opens the note
    fields: dict[str, str] = {}
    known = 0
    key: str | None = None
    end = 0
    for number, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        if not line.strip():
            break
        if key is not None and _CONTINUATION.fullmatch(line):
            fields[key] = f"{fields[key]} {line.strip()}".strip()
            end = number
            continue
        found = _KEY_LINE.fullmatch(line.rstrip())
        if found is None:
            return None
        key = found.group(1).strip().lower()
        fields.setdefault(key, (found.group(2) or "").strip())
        known += key in KNOWN_KEYS
        end = number
    if known < KNOWN_NEEDED:
        return None
    return MetadataHeader(fields, end)


def without_header(text: str) -> str:
    """`text` with its metadata header's lines emptied (the line numbers stay)."""
    header = metadata_header(text)
    if header is None:
        return text
    lines = text.split("\n")
    return "\n".join([""] * header.end_line + lines[header.end_line:])


__all__ = ["KNOWN_KEYS", "KNOWN_NEEDED", "MetadataHeader", "metadata_header", "without_header"]
