"""What a note says, for its key points, and the notes that are no material at all.

Key points come from substance: a note's summary field (`tldr`, `summary`,
`description`, `abstract`, in its frontmatter or its metadata header:
`kbcheck.digest.metadata_header`), else its prose as written (inline code and link
text kept), and for a modification what the diff added (the new log entries,
the new table row), not the top of the file.

A changelog, a to-do list and a template are bookkeeping, told by their name or
their shape (`docs/output.md`, "Bookkeeping notes"): a changelog's entries open
with dates, a to-do list's items are task boxes, a template is named so or full
of `{{placeholders}}`. Their changes are review items, never increments.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kbcheck.digest.metadata_header import metadata_header, without_header
from kbcheck.model.document import inline_text

if TYPE_CHECKING:
    from kbcheck.model.document import Document

#: frontmatter fields that say what a note is about, tried in order
SUMMARY_FIELDS = ("tldr", "summary", "description", "abstract")
CHANGELOG, TODO, TEMPLATE = "changelog", "todo", "template"
#: file names (without `.md`, case ignored) that say what a bookkeeping note is
_NAMED = {"log": CHANGELOG, "changelog": CHANGELOG, "changes": CHANGELOG,
          "todo": TODO, "to-do": TODO, "todos": TODO, "tasks": TODO}
#: `_template`, `templates`, `paper-template`; not `template-matching` (a topic)
_TEMPLATE_NAME = re.compile(r"(?i)^(?:_templates?.*|templates?|.+[-_]template)$")
_PLACEHOLDER = re.compile(r"\{\{[^{}\n]{1,80}\}\}")
#: a list item or heading, with what opens it
_ENTRY = re.compile(r"^\s*(?:[-*+]\s+|\d{1,9}[.)]\s+|#{1,6}\s+)(.*)$")
_DATED = re.compile(r"^[\[*_`(]*(?:\d{4}-\d{1,2}-\d{1,2}|\d{4}/\d{1,2}/\d{1,2}|\d{4}\.\d{1,2}\.\d{1,2})")
_TASK = re.compile(r"^\s*[-*+]\s+\[[ xX]\]")
#: entries a shape needs before it is judged, and the share of them that must have it
_SHAPE_ENTRIES, _SHAPE_SHARE = 3, 0.6
_MARKERS = re.compile(r"^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+|>\s*|#{1,6}\s+)+")
#: a line that is one link and nothing else, in a list item or not: `[paper link](…)`, `- [[page]]`, `<https://…>`
_LONE_LINK = re.compile(r"[-*+]?\s*(?:!?\[[^\]]*\]\([^)]*\)|\[\[[^\]]*\]\]|<https?://[^>]*>)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
#: a note with fewer words of prose than this is a stub: a title, links, code, nothing written yet
#: (one short sentence is a note: "TensorFlow 与 PyTorch 的取舍。")
STUB_WORDS = 1
_LATIN_WORD = re.compile(r"[A-Za-z0-9]+")
_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
#: a byline ("作者：Jay", "来源：…", "Created: …") says who and where, not what
BYLINE = re.compile(r"^\s*(?:作者|来源|时间|日期|创建(?:时间|于)?|更新(?:时间|于)?|author|source|date|by|created|updated"
                    r"|modified)\s*[:：]", re.IGNORECASE)


def summary_field(fields: Mapping[str, Any] | None) -> str | None:
    """The first summary field that holds text."""
    for name in SUMMARY_FIELDS:
        value = (fields or {}).get(name)
        if isinstance(value, str) and value.strip():
            return value
    return None


def header_fields(text: str) -> dict[str, str]:
    """The fields of the note's metadata header (`Title: …`, `Summary: …` on top), empty without one."""
    header = metadata_header(text)
    return header.fields if header is not None else {}


def shown_line(line: str) -> str:
    """One source line as a reader sees it: list and quote marks gone, a table row's cells joined,
    a link its text, inline code its content."""
    if line.lstrip().startswith("|"):
        cells = [inline_text(cell) for cell in line.strip().strip("|").split("|")]
        return " · ".join(cell for cell in cells if cell)
    return inline_text(_MARKERS.sub("", line))


def prose(document: Document | None, text: str) -> list[str]:
    """Each paragraph, item and row of the document, as written (its own lines: a list item's
    sub-items are theirs); a metadata header (`Title: …` lines on top) is metadata, not prose."""
    if document is None:
        return []
    lines = text.split("\n")
    header = metadata_header(text)
    metadata_end = header.end_line if header is not None else 0
    out: list[str] = []
    for block in document.blocks:
        if block.kind == "heading" or not block.text.strip() or block.line <= metadata_end:
            continue
        end = block.end_line
        if block.children:
            end = min(end, document.blocks[block.children[0]].line - 1)
        source = lines[block.line - 1 : max(end, block.line)]
        if _label_only(source, lines[end] if end < len(lines) else ""):
            continue
        own = [shown_line(line) for line in source]
        shown = " ".join(part for part in own if part) or " ".join(block.text.split())
        if shown:
            out.append(shown)
    return out


def _label_only(source: list[str], following: str) -> bool:
    """A block that says nothing of substance: a table's header row (the rule follows it), a line
    that is one link and nothing else (`[paper link](…)`), a warning banner (`⚠ …`)."""
    first = source[0].strip() if source else ""
    if first.startswith("|") and _TABLE_RULE.match(following):
        return True
    if len(source) == 1 and _LONE_LINK.fullmatch(first):
        return True
    return first.startswith(("⚠", "> [!"))


def added_lines(old_body: str, new_body: str) -> list[str]:
    """The lines a modification added (new or rewritten), as a reader sees them; headings,
    blank lines and table rules left out."""
    old, new = without_header(old_body).split("\n"), without_header(new_body).split("\n")
    out: list[str] = []
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag not in ("insert", "replace"):
            continue
        for line in new[j1:j2]:
            if not line.strip() or line.lstrip().startswith("#") or _TABLE_RULE.match(line):
                continue
            shown = shown_line(line)
            if shown:
                out.append(shown)
    return out


def prose_words(paragraphs: Sequence[str]) -> int:
    """How many words the paragraphs hold: latin words and numbers, and a CJK word per two characters."""
    text = " ".join(paragraphs)
    return len(_LATIN_WORD.findall(text)) + len(_CJK_CHAR.findall(text)) // 2


def is_stub(document: Document | None, text: str, fields: Mapping[str, Any] | None) -> bool:
    """True when a note holds no prose yet: nothing but its title, headings, lone links, code or a
    byline, and no summary field, in its frontmatter or its metadata header (`docs/output.md`, "Stubs")."""
    if document is None or summary_field(fields) is not None or summary_field(header_fields(text)) is not None:
        return False
    return prose_words([p for p in prose(document, text) if not BYLINE.match(p)]) < STUB_WORDS


def note_shape(path: str, body: str) -> str | None:
    """`changelog`, `todo` or `template` when the note is bookkeeping, else None."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    folders = path.lower().split("/")[:-1]
    if _TEMPLATE_NAME.search(stem) or "templates" in folders or len(_PLACEHOLDER.findall(body)) >= _SHAPE_ENTRIES:
        return TEMPLATE
    named = _NAMED.get(stem.lower())
    if named is not None:
        return named
    lines = body.split("\n")
    entries = [m.group(1) for m in map(_ENTRY.match, lines) if m is not None]
    if len(entries) >= _SHAPE_ENTRIES and _share(entries, lambda e: bool(_DATED.match(e))) >= _SHAPE_SHARE:
        return CHANGELOG
    items = [line for line in lines if re.match(r"^\s*[-*+]\s+", line)]
    if len(items) >= _SHAPE_ENTRIES and _share(items, lambda e: bool(_TASK.match(e))) >= _SHAPE_SHARE:
        return TODO
    return None


def _share(entries: Sequence[str], test: Any) -> float:
    return sum(1 for entry in entries if test(entry)) / len(entries)


__all__ = ["BYLINE", "CHANGELOG", "STUB_WORDS", "SUMMARY_FIELDS", "TEMPLATE", "TODO", "added_lines", "header_fields",
           "is_stub",
           "note_shape", "prose", "prose_words", "shown_line", "summary_field"]
