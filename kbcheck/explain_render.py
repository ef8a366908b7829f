"""`kbcheck explain`: show a rule's doc the way a terminal reads it.

A rule's doc is markdown. On a terminal it is rendered from markdown-it's
token stream: headings and `**bold**` lead words in bold, emphasis markers
dropped, code blocks indented, inline code coloured (kept in backticks when
colour is off). Piped or redirected, the markdown is written as it is, so
`kbcheck explain KB005 > kb005.md` keeps a valid document.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.i18n import _

if TYPE_CHECKING:
    from markdown_it.token import Token

    from kbcheck.rules.base import Rule

_BOLD = "\033[1m"
_DIM = "\033[2m"
_CODE = "\033[36m"
_RESET = "\033[0m"
INDENT = "    "


def _inline(children: list[Token], color: bool) -> str:
    parts: list[str] = []
    for token in children:
        if token.type == "text":
            parts.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif token.type == "code_inline":
            parts.append(f"{_CODE}{token.content}{_RESET}" if color else f"`{token.content}`")
        elif token.type == "strong_open" and color:
            parts.append(_BOLD)
        elif token.type == "strong_close" and color:
            parts.append(_RESET)
        elif token.type in ("html_inline",):
            parts.append(token.content)
        elif token.children:
            parts.append(_inline(token.children, color))
    return "".join(parts)


def render_markdown(text: str, *, color: bool) -> str:
    """Markdown as terminal text: no `#`, `*`, `_` or fences left, code blocks indented."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    blocks: list[str] = []
    prefixes: list[str] = []  # one per open list: its bullet or number
    numbers: list[int] = []
    pending_bullet = ""
    heading = False
    for token in tokens:
        indent = "  " * len(prefixes)
        if token.type in ("bullet_list_open", "ordered_list_open"):
            prefixes.append("•" if token.type == "bullet_list_open" else "#")
            numbers.append(int(token.attrGet("start") or 1))
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            prefixes.pop()
            numbers.pop()
        elif token.type == "list_item_open":
            if prefixes[-1] == "#":
                pending_bullet = f"{numbers[-1]}. "
                numbers[-1] += 1
            else:
                pending_bullet = "• "
        elif token.type == "heading_open":
            heading = True
        elif token.type == "heading_close":
            heading = False
        elif token.type == "inline":
            body = _inline(token.children or [], color)
            if heading:
                body = f"{_BOLD}{body}{_RESET}" if color else body.upper()
            if pending_bullet:
                lead = indent[:-2] + pending_bullet
                pad = " " * len(lead)
                body = lead + body.replace("\n", "\n" + pad)
                pending_bullet = ""
            elif indent:
                body = indent + body.replace("\n", "\n" + indent)
            blocks.append(body)
        elif token.type in ("code_block", "fence"):
            code = token.content.rstrip("\n").split("\n")
            lines = [f"{indent}{INDENT}{line}" if line else "" for line in code]
            body = "\n".join(lines)
            blocks.append(f"{_DIM}{body}{_RESET}" if color else body)
        elif token.type == "hr":
            blocks.append("—" * 20)
    return "\n\n".join(blocks) + "\n"


def _is_code(paragraph: str) -> bool:
    return all(line.startswith(INDENT) or not line.strip() for line in paragraph.split("\n"))


def doc_paragraphs(doc: str) -> list[str]:
    """The prose paragraphs of a rule's doc: each is one message of the catalogs (code is not translated)."""
    return [paragraph for paragraph in doc.split("\n\n") if paragraph.strip() and not _is_code(paragraph)]


def translated_doc(doc: str, lang: str) -> str:
    """The doc in `lang`, paragraph by paragraph; a paragraph with no translation stays English."""
    from kbcheck.i18n import catalog

    if lang == "en":
        return doc
    translations = catalog(lang)
    return "\n\n".join(paragraph if _is_code(paragraph) or not paragraph.strip() else translations.gettext(paragraph)
                       for paragraph in doc.split("\n\n"))


def explain(rule: Rule, *, rendered: bool, color: bool, lang: str = "en") -> str:
    """The text `kbcheck explain` prints: a title line, then the doc (rendered or raw markdown), in `lang`."""
    from kbcheck.i18n import say

    title = say(_("{id} {name} (default severity: {severity})", id=rule.id, name=rule.name, severity=rule.severity), lang)
    doc = translated_doc(rule.doc, lang)
    if not rendered:
        return f"{title}\n\n{doc}\n"
    return (f"{_BOLD}{title}{_RESET}" if color else title) + "\n\n" + render_markdown(doc, color=color)
