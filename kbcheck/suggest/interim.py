"""What `suggest` reads from markdown that the document model does not read yet.

Two things, kept together so they can go once the model has them: Obsidian
wikilinks (`[[name]]`, `[[name|text]]`, `[[name#heading]]` link the markdown
file named `name` anywhere in the knowledge base), and frontmatter as
metadata (its lines are never a heading or body text; its `title` is the
file's title).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from kbcheck.model.cards import split_frontmatter

_WIKILINK = re.compile(r"\[\[([^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")


def wikilinks(text: str) -> list[str]:
    """The names that `[[…]]` links in `text` point at, in order."""
    return [m.group(1).strip() for m in _WIKILINK.finditer(text) if m.group(1).strip()]


def wikilink_text(text: str) -> str:
    """The text as read: each wikilink becomes its link text (or its name)."""
    return _WIKILINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)


def markdown_names(paths: list[str]) -> dict[str, str]:
    """Lower-cased file name without `.md` -> path, for resolving wikilinks (the first path wins)."""
    names: dict[str, str] = {}
    for path in paths:
        if path.lower().endswith(".md"):
            names.setdefault(posixpath.basename(path)[:-3].lower(), path)
    return names


def frontmatter(text: str) -> tuple[dict[str, Any], int]:
    """(frontmatter fields, 1-based line where the body starts); ({}, 1) without frontmatter."""
    fm, body_line, _body = split_frontmatter(text)
    if fm is None:
        return {}, 1
    import yaml

    try:
        data = yaml.load(fm, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return {}, body_line
    return (data if isinstance(data, dict) else {}), body_line


def file_title(fields: dict[str, Any], first_heading: str | None, path: str) -> str:
    """Frontmatter `title`, else the first heading, else the file name; never frontmatter text."""
    title = fields.get("title")
    if isinstance(title, (str, int, float)) and str(title).strip():
        return " ".join(str(title).split())
    if first_heading:
        return wikilink_text(first_heading)
    return posixpath.basename(path)
