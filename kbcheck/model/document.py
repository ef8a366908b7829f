"""A markdown file as sections and blocks, parsed once with markdown-it-py.

Blocks are headings, paragraphs, list items (a nested item is a block of its
own, with a `parent`) and table rows, each with 1-based lines, the refs it
makes and the claim numbers it states. Code spans, code blocks, math and
images are not prose; a blockquote is read for links but states no claims.
Frontmatter at the top of a file is metadata, not a block: its citations and
links are the file's own sources (`Document.own_refs`). Wikilinks (`[[name]]`,
`[[name|text]]`, `[[name#heading]]`) are links like any other. A section's
role comes from the heading patterns; a title over sections of its own longer
than a section's name names the file, and takes none (`docs/configuration.md`).
A `Document`
depends only on the file's text and the heading
patterns, so it is cached by git blob id.
"""

from __future__ import annotations

import dataclasses
import itertools
import posixpath
import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from kbcheck.model.citations import Ref, scan_code_span, scan_href, scan_prose, scan_wikilinks
from kbcheck.model.claims import ClaimNumber, numeric_values, tagged_claims
from kbcheck.model.described import (
    CELL_SEPARATOR,
    example_heading,
    leads_example,
    leads_requirement,
    requirement_heading,
    row_change,
)
from kbcheck.model.disables import ALL, BLOCK, ENABLE, FILE, Directive, UnreadComment, comments_in, read_comment, with_reach
from kbcheck.model.particulars import FRONT_KEY
from kbcheck.model.reckoning import introduces_supposition
from kbcheck.patterns import MAX_HEADING_CHARS, HeadingRegex
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from markdown_it.token import Token

REFERENCE, TREND, OPEN_QUESTION = "reference", "trend", "open_question"
#: the file names read as markdown
MARKDOWN_SUFFIXES = (".md", ".markdown")

#: a frontmatter value that is a relative file path (`raw_md: raw/papers/x/paper.md`)
_FRONT_PATH = lazy(r"""(?:^|:\s|-\s)\s*['"]?((?:\.\.?/)*[\w.-]+(?:/[\w. -]+)+\.[A-Za-z0-9]{1,5})['"]?[ \t]*$""",
                         re.MULTILINE)
#: characters no note name may hold (Obsidian refuses them): `[[Reasoning:]]` is not a wikilink
_NOT_A_NOTE_NAME = lazy(r'[:*"<>?]')
#: an HTML-looking tag that is a placeholder when it stands inside a path: `inbox/<author>/`
_PLACEHOLDER = lazy(r"^<[A-Za-z_][\w-]*>$")
#: a title heading that names a work as a bibliography does, title: subtitle and year
#: (`MapReduce: Simplified … -- 2004`, `Bitcask - A Log-Structured … (2010)`); a topic with a year
#: (`推理部署指南 (2025)`) has no subtitle
_WORK_TITLE = lazy(r"[^:：]*?\S(?::|：|\s[-–—]\s).*?\S(?:\s[-–—]{1,2}\s*|\s*[(（]\s*)(?:19|20)\d{2}\s*[)）]?\s*")
_MAX_WORK_TITLE = 300  # no work's title is longer; the pattern never sees a long line
#: a BibTeX entry and its title field: a work named as a bibliography names it, written to be copied
_BIBTEX_ENTRY = lazy(r"^\s*@(?!string\b|preamble\b|comment\b)[A-Za-z]+\s*\{", re.MULTILINE | re.IGNORECASE)
_BIBTEX_TITLE = lazy(r"^\s*title\s*=\s*[{\"](.+?)[}\"]?\s*,?\s*$", re.MULTILINE | re.IGNORECASE)
_LABEL = lazy(
    r"^\s*(?:§\s*(?P<sec>\d+(?:\.\d+)*|[一二三四五六七八九十百零〇]+)"
    r"|(?P<num>\d+(?:\.\d+)*)(?:[.、．)]|\s|$)"
    r"|(?P<han>[一二三四五六七八九十百零〇]+)\s*[、.．])"
)


@dataclass(frozen=True)
class HeadingPatterns:
    """The three special-section patterns, in the order that breaks ties."""

    reference: HeadingRegex
    trend: HeadingRegex
    open_question: HeadingRegex

    def role_of(self, heading: str) -> str | None:
        heading = heading[:MAX_HEADING_CHARS]  # no section title is longer; no pattern sees more
        for role, pattern in ((REFERENCE, self.reference), (TREND, self.trend), (OPEN_QUESTION, self.open_question)):
            if pattern.search(heading):
                return role
        return None


@dataclass
class Section:
    """From a heading (included) to the next heading; index 0 may be the text before any."""

    index: int
    heading: str | None
    level: int
    line: int
    end_line: int
    #: `§6.2`, `§七`, or None when the heading carries no number
    label: str | None
    #: reference / trend / open_question, inherited from the nearest matching ancestor heading
    role: str | None
    parent: int | None
    blocks: list[int] = field(default_factory=list)

    @property
    def name(self) -> str:
        """How the digest and messages name the section."""
        if self.label:
            return self.label
        if self.heading:
            return self.heading[:40]
        return "(preamble)"


@dataclass
class Block:
    """A heading, paragraph, list item or table row."""

    index: int
    kind: str
    line: int
    end_line: int
    section: int
    text: str = ""
    parent: int | None = None
    #: list nesting: 0 for an item directly in a section's list
    depth: int = 0
    refs: list[Ref] = field(default_factory=list)
    claims: list[ClaimNumber] = field(default_factory=list)
    disabled: frozenset[str] = frozenset()
    uncertain: bool = False
    children: list[int] = field(default_factory=list)
    #: (index in `claims`, index in `refs`) of each claim number inside a link's text
    claim_links: list[tuple[int, int]] = field(default_factory=list)
    #: numbers an exemption makes no claim (their `exempt` names it): claims only where the
    #: configuration switches every one of their exemptions off
    exempted: list[ClaimNumber] = field(default_factory=list)
    #: (index in `exempted`, index in `refs`), as `claim_links`
    exempted_links: list[tuple[int, int]] = field(default_factory=list)
    #: an ordered list item's number as written (`4` for `4. …`), else ""
    ordinal: str = ""

    def cells(self) -> list[str]:
        """A table row's cells, as its text holds them (joined by `CELL_SEPARATOR`)."""
        return self.text.split(CELL_SEPARATOR)


@dataclass
class Document:
    """A parsed markdown file (or a card's body, with its line offset applied)."""

    sections: list[Section]
    blocks: list[Block]
    file_disabled: frozenset[str]
    line_count: int
    #: citations and links in the frontmatter: sources of the whole file
    own_refs: list[Ref] = field(default_factory=list)
    #: the frontmatter's `title`, when it has one (a file's title before its first heading)
    front_title: str = ""
    #: the work the file describes, named as a bibliography would (frontmatter `title` with
    #: `authors`, the title of its one BibTeX entry, or a title heading with a subtitle and its year:
    #: `# MapReduce: … -- 2004`), else ""
    work: str = ""
    #: its disable comments, one entry per rule each names, in line order (`kbcheck.model.disables`)
    directives: list[Directive] = field(default_factory=list)
    #: its comments that look like disable comments but disable nothing
    unread_comments: list[UnreadComment] = field(default_factory=list)

    def disables(self, rule_id: str, line: int) -> bool:
        """Whether a disable comment covers `rule_id` on `line`: the file's, the innermost block's,
        or one whose lines hold it."""
        if rule_id in self.file_disabled or ALL in self.file_disabled:
            return True
        block = self.block_at(line)
        if block is not None and (rule_id in block.disabled or ALL in block.disabled):
            return True
        return any(directive.covers(rule_id, line) for directive in self.directives if directive.reach != BLOCK)

    def title_block(self) -> Block | None:
        """The title heading: the first heading, when it is the file's only level-1 heading."""
        headings = [s for s in self.sections if s.heading is not None]
        if not headings or headings[0].level != 1 or sum(1 for s in headings if s.level == 1) != 1:
            return None
        first = headings[0]
        return self.blocks[first.blocks[0]] if first.blocks else None

    def source_refs(self) -> list[Ref]:
        """The file's own sources: its frontmatter's refs, and those of its title heading."""
        title = self.title_block()
        return [*self.own_refs, *(title.refs if title is not None else ())]

    @cached_property
    def _lines(self) -> BlockLines:
        return BlockLines(self)

    def block_at(self, line: int) -> Block | None:
        """The innermost block covering a line (the line index is built on the first call)."""
        return self._lines.block_at(line)

    @cached_property
    def _section_starts(self) -> list[int]:
        return [section.line for section in self.sections]

    def section_at(self, line: int) -> Section:
        """The section holding a line: the last to start at or before it (sections are in line order)."""
        return self.sections[max(0, bisect_right(self._section_starts, line) - 1)]

    def descendants(self, block: Block) -> list[Block]:
        """A block's nested list items, depth first."""
        out: list[Block] = []
        stack = list(reversed(block.children))
        while stack:
            child = self.blocks[stack.pop()]
            out.append(child)
            stack.extend(reversed(child.children))
        return out

    def ancestors(self, block: Block) -> list[Block]:
        """The list items a nested item sits in, innermost first."""
        out: list[Block] = []
        parent = block.parent
        while parent is not None:
            out.append(self.blocks[parent])
            parent = self.blocks[parent].parent
        return out

    def has_role(self, role: str) -> bool:
        return any(s.role == role for s in self.sections)


class BlockLines:
    """The innermost block of every line, built once: a file with 40k findings asks 40k times.

    Blocks nest (a list item holds its sub-items) or follow one another, so
    painting each block's lines in order of its first line, an inner block
    after its container, leaves each line with its innermost block. The cost
    is the blocks' lines times their nesting, which markdown-it bounds.
    """

    def __init__(self, document: Document) -> None:
        self._blocks = document.blocks
        last = max((block.end_line for block in document.blocks), default=0)
        self._owner = [-1] * (last + 1)
        for block in sorted(document.blocks, key=lambda block: block.line):  # stable: inner after outer
            if block.end_line >= block.line >= 1:
                self._owner[block.line:block.end_line + 1] = [block.index] * (block.end_line - block.line + 1)

    def block_at(self, line: int) -> Block | None:
        if not 1 <= line < len(self._owner) or self._owner[line] < 0:
            return None
        return self._blocks[self._owner[line]]


#: a run of Latin letters or digits is a word; a Han, kana or Hangul character is half of one
_LATIN_WORD = lazy(r"[A-Za-z0-9][A-Za-z0-9'’_.-]*")
_CJK = lazy(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
#: a title of at most this many words is a section's name (`# 参考文献`, `# Further reading`)
_TITLE_ROLE_WORDS = 3


def word_count(text: str) -> float:
    """How many words a text holds, in Latin and CJK scripts alike (`长上下文` is two)."""
    return len(_LATIN_WORD.findall(text)) + len(_CJK.findall(text)) / 2


def section_label(heading: str) -> str | None:
    """`§6.2 趋势` -> `§6.2`; `六、结论` -> `§六`; `3.1 路由` -> `§3.1`; else None."""
    m = _LABEL.match(heading)
    if not m:
        return None
    return "§" + (m.group("sec") or m.group("num") or m.group("han"))


def unlabelled(heading: str) -> str:
    """The heading without its number label (`section_label`): `2.1. Setup` -> `Setup`, `六、结论` -> `结论`."""
    m = _LABEL.match(heading)
    return heading[m.end():].strip() if m else heading.strip()


_MD: dict[tuple[bool, bool], Any] = {}
#: levels below markdown-it's `maxNesting` (20; a list level takes two) where containers stop nesting
_DEEP_MARGIN = 4


def _deep_paragraph(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    """Near the nesting limit, read the next run of lines as one paragraph instead of nesting further.

    At its limit markdown-it skips everything up to the end of the document
    ("we should not care about content"); a checker must care, or a deeply
    nested list hides every trend line after it. Lines keep their numbers.
    (Raising the limit instead makes a line of 100,000 `[` proportionally slower.)
    """
    if silent or state.level < state.md.options.maxNesting - _DEEP_MARGIN:
        return False
    next_line = start_line + 1
    while next_line < end_line and not state.isEmpty(next_line) and state.sCount[next_line] >= state.blkIndent:
        next_line += 1
    state.line = next_line
    token = state.push("paragraph_open", "p", 1)
    token.map = [start_line, next_line]
    token = state.push("inline", "", 0)
    token.content = state.getLines(start_line, next_line, state.blkIndent, False).strip()
    token.map = [start_line, next_line]
    token.children = []
    state.push("paragraph_close", "p", -1)
    return True


#: what follows `[[name]]` when the whole is a link with bracketed text: a target with a `/`, `.`,
#: `:` or `#` in it, or none (`[[pdf]]()`, an empty link in a table); `[[name]](raw)`, a word in
#: parentheses, is a wikilink and text, as Obsidian reads it
_LINK_TARGET = lazy(r"\(\s*(?:\)|<?[^()\s]*[/.:#])")
#: how far past the last located text an inline's next text is looked for in its source line
_LOCATE_REACH = 4096
#: a wikilink's inside up to its first `]]`, stopping at a `[` or a line break
_WIKILINK_END = lazy(r"(?:[^\[\]\n]|\](?!\]))*\]\]")


def _wikilink(state: Any, silent: bool) -> bool:
    """`[[name]]`, `[[name|text]]`, `[[name#heading]]` (and the embed `![[name]]`) as one token."""
    src, pos = state.src, state.pos
    if not src.startswith("[[", pos):
        return False
    # the name ends at the first `]]` and holds no `[` or line break: look no further than those
    # (a search for `]]` from every `[[` is quadratic in a line of brackets)
    closing = _WIKILINK_END.match(src, pos + 2)
    end = closing.end() - 2 if closing else -1
    inner = src[pos + 2 : end] if end > 0 else ""
    # a `[` or `]` inside is a markdown link in brackets (`[[[Notes](x.md)]]`), not a note's name
    if not inner.strip() or "\n" in inner or "[" in inner or "]" in inner or _NOT_A_NOTE_NAME.search(inner.partition("|")[0]):
        return False
    if src.startswith("(", end + 2) and _LINK_TARGET.match(src, end + 2):
        return False  # `[[GitHub]](https://…)`: a link whose text is in brackets (awesome lists)
    if silent or getattr(state, "linkLevel", 0) > 0:
        # `[see [[x]]](y.md)`: a link's text (scanned silently for its end) may hold brackets; the
        # wikilink in it is that link's text, as GitHub shows it
        return False
    if not silent:
        target, _, alias = inner.partition("|")
        target = target.rstrip("\\")  # `[[name\|text]]` in a table cell
        token = state.push("wikilink", "", 0)
        token.markup = src[pos : end + 2]
        token.content = alias.strip() or target.strip()
        token.meta = {"name": target.split("#", 1)[0].strip(), "embed": pos > 0 and src[pos - 1] == "!"}
    state.pos = end + 2
    return True


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    """Whether an offset falls in one of these spans (sorted, not overlapping)."""
    at = bisect_right(spans, offset, key=lambda span: span[0]) - 1
    return at >= 0 and spans[at][0] <= offset < spans[at][1]


#: a character that can open an inline construct of the parser: an escape, code, emphasis, a
#: link, wikilink or image (`[`), an autolink or HTML (`<`), an entity (`&`), math (`$`); `!`
#: opens an image only before a `[`
_INLINE_MARKUP = lazy(r"[\\`*_\[<&$]")
_WHITESPACE = lazy(r"\s+")
#: the exemptions a heading gives its section and sub-sections (`## Example`, `## Requirements`), and
#: a lead its paragraph or item (`Example:`, `Goal:`): (name, the heading test, the lead test)
_HEADED: tuple[tuple[str, Callable[[str], bool], Callable[[str], bool]], ...] = (
    ("worked-example", example_heading, leads_example),
    ("requirement", requirement_heading, leads_requirement),
)


def _needs_parse(content: str) -> bool:
    """Whether an inline's text may hold markup; without, its parse is its lines (`_plain_inline`)."""
    return _INLINE_MARKUP.search(content) is not None


def _plain_inline(content: str, children: list[Token]) -> None:
    """What markdown-it's inline parse makes of text without markup, made directly: each line a
    text token (spaces before its line break dropped, those after it skipped), joined by soft
    breaks, or hard breaks after two spaces or more."""
    from markdown_it.token import Token

    lines = content.split("\n")
    last = len(lines) - 1
    for number, line in enumerate(lines):
        if number:
            line = line.lstrip(" \t")
        breaks = "softbreak"
        if number < last and line.endswith(" "):
            breaks = "hardbreak" if line.endswith("  ") else "softbreak"
            line = line.rstrip(" ") if breaks == "hardbreak" else line[:-1]
        if line:
            token = Token("text", "", 0)
            token.content = line
            children.append(token)
        if number < last:
            children.append(Token(breaks, "br", 0))


def _inline_where_needed(state: Any) -> None:
    """The core `inline` rule, parsing only the inlines that may hold markup: most lines of prose
    hold none, and their inline parse is most of a cold check's parsing time on long notes. The
    token stream is the full parse's (`tests/test_lean_inline.py` holds them equal)."""
    for token in state.tokens:
        if token.type == "inline":
            _parse_inline(state.md, token, state.env)


def _parse_inline(md: Any, token: Token, env: dict[str, Any]) -> None:
    """One inline token's children, as the core `inline` rule makes them."""
    token.children = []
    if _needs_parse(token.content):
        md.inline.parse(token.content, md, env, token.children)
    else:
        _plain_inline(token.content, token.children)


def _inline_on_demand(front_matter: bool, env: dict[str, Any]) -> Callable[[Token], None]:
    """What makes an inline token's children when the walk reaches it: the core rules from
    `inline` on, run over that token alone. The block parse that filled `env` (the reference
    definitions, wherever in the file) holds no inline children, so a long file's token stream
    never holds them all at once."""
    from markdown_it.rules_core import StateCore

    md = _markdown(front_matter)
    rules = md.core.ruler.getRules("")
    after = rules[rules.index(_inline_where_needed):]

    def parse(token: Token) -> None:
        if not _needs_parse(token.content):  # its lines: `text_join`, the one core rule after, joins none
            token.children = []
            _plain_inline(token.content, token.children)
            return
        state = StateCore("", md, env)
        state.tokens = [token]
        for rule in after:
            rule(state)

    return parse


def _markdown(front_matter: bool = True, inline: bool = True) -> Any:
    """The parser; `inline=False` stops at the block structure (headings, lists, frontmatter),
    leaving each inline token's text unparsed."""
    if (front_matter, inline) not in _MD:
        from markdown_it import MarkdownIt
        from mdit_py_plugins.dollarmath import dollarmath_plugin

        md = MarkdownIt("commonmark", {"html": True}).enable("table")
        # `$…$` and `$$…$$` are math, not prose: no numbers, no links. Pandoc's
        # rule (no space inside the dollars, no digit after the closing one)
        # keeps prices such as `$5 to $10` prose. `$$` lines inside a paragraph
        # (right after a sentence or a list item, no blank line between) are
        # display math too, as every math renderer shows them.
        md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
        md.block.ruler.before(md.block.ruler.get_all_rules()[0], "kbcheck_deep", _deep_paragraph)
        md.inline.ruler.before("link", "kbcheck_wikilink", _wikilink)
        if front_matter:
            from mdit_py_plugins.front_matter import front_matter_plugin

            md.use(front_matter_plugin)
        if inline:
            md.core.ruler.at("inline", _inline_where_needed)
        else:
            md.disable("inline")
        _MD[front_matter, inline] = md
    return _MD[front_matter, inline]


@cache
def _released() -> Token:
    """What stands in the token stream for a token the walk is done with."""
    from markdown_it.token import Token

    return Token("released", "", 0)


class _Builder:
    """Walks the token stream once, building sections and blocks."""

    def __init__(self, lines: list[str], patterns: HeadingPatterns, roots: tuple[str, ...],
                 markers: tuple[str, ...], offset: int, claims: bool = True) -> None:
        self.lines = lines
        self.claims = claims
        self.patterns = patterns
        self.roots = roots
        self.markers = markers
        self.offset = offset
        #: makes an inline token's children when they are read (`_inline_on_demand`); None: they are there
        self.parse_inline: Callable[[Token], None] | None = None
        self.sections: list[Section] = []
        self.blocks: list[Block] = []
        self.file_disabled: set[str] = set()
        self.own_refs: list[Ref] = []
        self.front_title = ""
        self.front_work = False
        #: the titles of the BibTeX entries its code blocks hold ("" for an entry with no title)
        self.bibtex: list[str] = []
        self.pending_disable: frozenset[str] = frozenset()
        self.directives: list[Directive] = []
        self.unread_comments: list[UnreadComment] = []
        #: directive index -> the block its `disable=` comment covers (a table: its first row)
        self.pending_directives: list[int] = []
        self.covered_block: dict[int, int] = {}
        #: directive indexes waiting for the rows of a table
        self.table_directives: list[int] = []
        #: (block index, line -> where the next search for text starts on that line)
        self.located: tuple[int, dict[int, int]] = (-1, {})
        self.item_stack: list[int] = []
        self.heading_stack: list[tuple[int, int]] = []  # (level, section index)
        self.quote_depth = 0
        #: per open list: the exemptions its items inherit from the paragraph that brings it in
        #: (`假设：` lists suppositions, `Example:` a worked example); nested lists inherit
        self.listed: list[tuple[str, ...]] = []
        #: section index -> the exemptions its heading, or a heading above it, gives it (`_HEADED`)
        self.headed: dict[int, tuple[str, ...]] = {}
        #: the values stated so far per part of the note, as written (`restated`): a later statement of
        #: one in the same part repeats it
        self.stated: set[tuple[int, str]] = set()
        #: section index -> the part of the note it belongs to: its level-1 or level-2 section
        self.part_of: dict[int, int] = {}
        #: whether the first heading is a title over sections of its own (`Document.title_block`)
        self.titled = False
        #: the numbers of the code block just closed and its last line: the block right after it may
        #: report what it printed (`own-measurement`)
        self.code_before: tuple[_CodeNumbers, int] | None = None
        #: block index -> the numbers of the code block next to it
        self.code_next: dict[int, _CodeNumbers] = {}

    # -- sections ---------------------------------------------------------
    def open_section(self, heading: str | None, level: int, line: int) -> Section:
        while self.heading_stack and self.heading_stack[-1][0] >= level:
            self.heading_stack.pop()
        parent = self.heading_stack[-1][1] if self.heading_stack else None
        own = self.patterns.role_of(heading) if heading is not None else None
        if (own is not None and self.titled and not any(s.heading is not None for s in self.sections)
                and word_count(_LABEL.sub("", heading or "")) > _TITLE_ROLE_WORDS):
            own = None  # the title names the whole file (`# BluRef: … Dense-Matching References`), not a section
        role = own if own is not None else (self.sections[parent].role if parent is not None else None)
        if self.sections:  # a heading inside a list item may share the line its section began on
            self.sections[-1].end_line = max(self.sections[-1].line, line - 1)
        section = Section(len(self.sections), heading, level, line, line, section_label(heading or ""), role, parent)
        self.sections.append(section)
        inherited = self.headed.get(parent, ()) if parent is not None else ()
        given = tuple(tag for tag, heads, _leads in _HEADED if heading is not None and heads(heading))
        if inherited or given:
            self.headed[section.index] = tuple(dict.fromkeys(inherited + given))
        self.part_of[section.index] = section.index if parent is None or level <= 2 else self.part_of[parent]
        if heading is not None:
            self.heading_stack.append((level, section.index))
        return section

    # -- blocks -----------------------------------------------------------
    def new_block(self, kind: str, token: Token) -> Block:
        start, end = token.map or (0, 1)
        if not self.sections:
            self.open_section(None, 0, 1 + self.offset)
        parent = self.item_stack[-1] if self.item_stack else None
        block = Block(
            index=len(self.blocks), kind=kind, line=start + 1 + self.offset, end_line=end + self.offset,
            section=self.sections[-1].index, parent=parent, depth=len(self.item_stack),
        )
        if parent is not None:
            block.disabled = self.blocks[parent].disabled
            if kind == "list_item":
                self.blocks[parent].children.append(block.index)
        if self.pending_disable:
            block.disabled = block.disabled | self.pending_disable
            self.pending_disable = frozenset()
            for index in self.pending_directives:
                self.covered_block[index] = block.index
            self.pending_directives = []
        if self.code_before is not None:
            numbers, last_line = self.code_before
            if kind in ("paragraph", "list_item") and block.line <= last_line + 2:
                self.code_next[block.index] = numbers
            self.code_before = None
        self.blocks.append(block)
        self.sections[-1].blocks.append(block.index)
        return block

    def add_inline(self, block: Block, inline: Token, separator: str = "\n") -> None:
        """Append an inline token's prose to a block, reading refs and claims with real positions."""
        if self.parse_inline is not None:
            self.parse_inline(inline)
        start_line = (inline.map[0] if inline.map else block.line - 1 - self.offset) + self.offset
        pieces: list[tuple[int, int, str]] = []  # (line index 0-based, column, text)
        line_index = start_line
        # the cells of a table row are inlines of one block on one line: each is looked for after the last
        if self.located[0] != block.index:
            self.located = (block.index, {})
        search_from = self.located[1]

        def source_line() -> str:
            return self.lines[line_index - self.offset] if 0 <= line_index - self.offset < len(self.lines) else ""

        def locate(text: str, advance: bool = True) -> int:
            """The 0-based column of `text` in its source line, searching left to right (a bounded
            stretch: a miss must not scan the rest of a line of 100k links, once per link)."""
            raw = source_line()
            start = search_from.get(line_index, 0)
            pos = raw.find(text, start, start + len(text) + _LOCATE_REACH) if text else -1
            if pos < 0:
                return len(raw) - len(raw.lstrip())
            if advance:
                search_from[line_index] = pos + len(text)
            return pos

        refs: list[Ref] = []
        #: (start, end in the joined text, index in `refs`) of each link's text (a wikilink's: its name)
        link_spans: list[tuple[int, int, int]] = []
        open_link: tuple[int, int] | None = None
        counted = [0, 0]  # pieces counted so far, their total length

        def joined_length() -> int:
            counted[1] += sum(len(piece[2]) for piece in pieces[counted[0]:])
            counted[0] = len(pieces)
            return counted[1]

        for child in inline.children or []:
            if child.type in ("softbreak", "hardbreak"):
                pieces.append((line_index, 0, "\n"))
                line_index += 1
            elif child.type == "text":
                pieces.append((line_index, locate(child.content), child.content))
            elif child.type in ("math_inline", "math_inline_double"):
                first, *more = child.content.split("\n")
                pieces.append((line_index, locate(first), " "))
                for _line in more:  # display math over several lines: its lines still count
                    pieces.append((line_index, 0, "\n"))
                    line_index += 1
            elif child.type == "code_inline":
                col = locate(child.content)
                path = scan_code_span(child.content, self.roots)
                if path is not None:
                    refs.append(Ref("path", path, line_index + 1, col + 1, "code"))
                pieces.append((line_index, col, " "))
            elif child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                target = scan_href(href)
                if target is not None:
                    kind, value, form = target
                    # markdown-it percent-encodes hrefs (spaces, CJK): look for the target as written
                    start = search_from.get(line_index, 0)
                    written = href if source_line().find(href, start, start + len(href) + _LOCATE_REACH) >= 0 \
                        else unquote(href)
                    # the href stands after the link text in the source: peek, do not advance
                    col = locate(written, advance=False)
                    refs.append(Ref(kind, value, line_index + 1, col + 1, form))
                    open_link = (joined_length(), len(refs) - 1)
            elif child.type == "link_close" and open_link is not None:
                link_spans.append((open_link[0], joined_length(), open_link[1]))
                open_link = None
            elif child.type == "wikilink":
                col = locate("[[" + child.meta.get("name", ""))
                form = "embed" if child.meta.get("embed") else "wiki"
                if child.meta.get("name"):
                    refs.append(Ref("wikilink", child.meta["name"], line_index + 1, col + 1, form))
                    if form == "wiki":
                        start = joined_length()
                        link_spans.append((start, start + len(child.content), len(refs) - 1))
                pieces.append((line_index, col + 2, child.content if form == "wiki" else " "))
            elif child.type == "html_inline" and child.content.startswith("<!--"):
                self._comments(child.content, line_index + 1, locate(child.content) + 1, alone=False)
            elif (child.type == "html_inline" and pieces and pieces[-1][2][-1:] not in ("", " ", "\n")
                  and _PLACEHOLDER.match(child.content)):
                # `organized/<topic>/x.md`: a placeholder in a path, which markdown-it reads as an HTML tag
                pieces.append((line_index, locate(child.content), child.content))
            elif child.type == "image":
                # an image cites nothing, but a relative one must exist (KB009)
                src = str(child.attrs.get("src", ""))
                target = scan_href(src)
                if target is not None and target[0] == "path":
                    start = search_from.get(line_index, 0)
                    col = locate(src if source_line().find(src, start, start + len(src) + _LOCATE_REACH) >= 0
                                 else unquote(src), advance=False)
                    refs.append(Ref("path", target[1], line_index + 1, col + 1, "image"))
                pieces.append((line_index, 0, " "))
            # html_inline, link_close, em/strong markers carry no prose
        text, positions = self._join(pieces)
        for start, end, index in link_spans:
            refs[index] = dataclasses.replace(refs[index], text=text[start:end].strip())
        prose_refs, masked = scan_prose(text, self.roots)
        # a link's text labels it: `[[concepts/Semantic Segmentation]]` shows its name, `[02-code/hello](../02-code/
        # hello/hello.rs)` its folder; the link is the ref
        labels = [(start, end) for start, end, _index in link_spans]  # in the order of the text
        for offset, kind, value, form in prose_refs:
            if kind in ("path", "repo_name") and _inside(labels, offset):
                continue
            line, col = positions(offset)
            refs.append(Ref(kind, value, line, col, form))
        first_ref = len(block.refs)
        # a blockquote quotes another document, as quotation marks do: its numbers are not claims here;
        # a reference list names works (`The 90% Solution`), so only a card's fields (`243⭐`) are claims there
        # the items of a list brought in by `假设：` / `Suppose:` are what-ifs, not claims
        found = tagged_claims(masked, heading=block.kind == "heading") if self.claims else ()
        around: tuple[str, ...] = ()
        if found:  # what the block stands in only matters to its claims: most blocks have none
            if self.quote_depth:
                around += ("blockquote",)
            if self.listed:
                around += self.listed[-1]
            headed = self.headed.get(block.section, ())
            led = block.kind in ("paragraph", "list_item")
            around += tuple(tag for tag, _heads, leads in _HEADED
                            if tag in headed or (led and leads(block.text or text)))
        in_references = self.sections[block.section].role == REFERENCE
        row = block.text if block.kind == "table_row" else None
        for start, _end, written, number, card_field, tags in found:
            if in_references and card_field is None:
                tags += ("reference-title",)
            if row is not None and row_change(row + CELL_SEPARATOR + masked[:start], written, number):
                tags += ("row-change",)
            if block.index in self.code_next and abs(number) in self.code_next[block.index].values:
                tags += ("own-measurement",)
            if card_field is None and not tags and not around:
                # only a claim is restated: a value given as an example first and claimed later is claimed;
                # a table's cells are each a quantity of their own (`| A | 3x | 3x |`), restated by prose only
                said = (self.part_of[block.section], _WHITESPACE.sub("", written).casefold())
                if said in self.stated and row is None:
                    tags += ("restated",)
                self.stated.add(said)
            line, col = positions(start)
            claim = ClaimNumber(written, number, card_field, line, col, tuple(dict.fromkeys(tags + around)))
            claims, links = (block.exempted, block.exempted_links) if claim.exempt else (block.claims, block.claim_links)
            for span_start, span_end, index in link_spans:
                if span_start <= start < span_end:
                    # a link whose text holds the number is that number's source
                    links.append((len(claims), first_ref + index))
                    break
            claims.append(claim)
        block.refs.extend(refs)
        if self.parse_inline is not None:
            inline.children = None  # read: made again if asked
        block.text = f"{block.text}{separator}{text}" if block.text else text
        if any(marker in text for marker in self.markers):
            block.uncertain = True

    @staticmethod
    def _join(pieces: list[tuple[int, int, str]]) -> tuple[str, Any]:
        starts: list[tuple[int, int, int]] = []  # (offset in joined text, line index, column)
        out: list[str] = []
        offset = 0
        for line_index, col, text in pieces:
            starts.append((offset, line_index, col))
            out.append(text)
            offset += len(text)
        joined = "".join(out)

        offsets = [start[0] for start in starts]

        def positions(at: int) -> tuple[int, int]:
            # the last piece starting at or before `at` (a bisection: a long line has thousands of pieces)
            index = bisect_right(offsets, at)
            chosen = starts[index - 1] if index else (0, 0, 0)
            return chosen[1] + 1, chosen[2] + (at - chosen[0]) + 1

        return joined, positions

    # -- the walk ---------------------------------------------------------
    def walk(self, tokens: list[Token]) -> None:
        levels = [tok.tag for tok in tokens if tok.type == "heading_open"]
        self.titled = len(levels) > 1 and levels[0] == "h1" and levels.count("h1") == 1
        open_item_blocks: list[Block] = []
        table_row: Block | None = None
        in_thead = False
        # a disable comment before a table covers all its rows: no comment can stand between rows
        table_disabled: frozenset[str] = frozenset()
        heading_level = 0
        i = released = 0
        done = _released()
        while i < len(tokens):
            # the tokens walked past are let go: the document grows as the token stream shrinks
            while released < i:
                tokens[released] = done
                released += 1
            tok = tokens[i]
            t = tok.type
            if t == "heading_open":
                heading_level = int(tok.tag[1:])
                inline = tokens[i + 1]
                heading = inline.content.strip()
                start = (tok.map[0] if tok.map else 0) + 1 + self.offset
                self.open_section(heading, heading_level, start)
                saved, self.item_stack = self.item_stack, []
                block = self.new_block("heading", tok)
                self.item_stack = saved
                self.add_inline(block, inline)
                i += 3
                continue
            if t == "list_item_open":
                block = self.new_block("list_item", tok)
                if tok.markup in (".", ")"):
                    block.ordinal = tok.info
                self.item_stack.append(block.index)
                open_item_blocks.append(block)
                block.end_line = block.line  # grows with its own paragraphs
            elif t == "list_item_close":
                self.item_stack.pop()
                open_item_blocks.pop()
            elif t == "paragraph_open":
                inline = tokens[i + 1]
                if open_item_blocks and self._owns_paragraph(open_item_blocks[-1]):
                    block = open_item_blocks[-1]
                    self.add_inline(block, inline)
                    if tok.map:
                        block.end_line = max(block.end_line, tok.map[1] + self.offset)
                else:
                    block = self.new_block("paragraph", tok)
                    self.add_inline(block, inline)
                i += 3
                continue
            elif t == "table_open":
                table_disabled, self.pending_disable = self.pending_disable, frozenset()
                self.table_directives, self.pending_directives = self.pending_directives, []
            elif t == "thead_open":
                in_thead = True
            elif t == "thead_close":
                in_thead = False
            elif t == "tr_open":
                table_row = self.new_block("table_header" if in_thead else "table_row", tok)
                table_row.disabled = table_row.disabled | table_disabled
                for index in self.table_directives:
                    self.covered_block.setdefault(index, table_row.index)
            elif t == "table_close":
                self.table_directives = []
            elif t == "tr_close":
                table_row = None
            elif t == "inline" and table_row is not None:
                self.add_inline(table_row, tok, separator=CELL_SEPARATOR)
            elif t in ("bullet_list_open", "ordered_list_open"):
                inherited = self.listed[-1] if self.listed else ()
                self.listed.append(tuple(dict.fromkeys((*inherited, *self._brought_in()))))
            elif t in ("bullet_list_close", "ordered_list_close"):
                if self.listed:
                    self.listed.pop()
            elif t == "blockquote_open":
                self.quote_depth += 1
            elif t == "blockquote_close":
                self.quote_depth -= 1
            elif t in ("fence", "code_block"):
                if "@" in tok.content:
                    self._bibtex(tok.content)
                if self.claims:
                    self._code(tok)
            elif t == "html_block" and tok.map is not None:
                self._block_comments(tok)
            elif t == "front_matter":
                self._front_matter(tok)
            i += 1
        if self.sections:
            self.sections[-1].end_line = max(self.sections[-1].line, len(self.lines) + self.offset)

    def _brought_in(self) -> tuple[str, ...]:
        """The exemptions a list opening now takes from the block right before it, in its section:
        a paragraph bringing in suppositions (`假设：`), or a paragraph or item leading an example."""
        before = self.blocks[-1] if self.blocks else None
        if before is None or before.section != len(self.sections) - 1:
            return ()
        tags: tuple[str, ...] = ()
        if before.kind == "paragraph" and introduces_supposition(before.text):
            tags += ("supposition",)
        if before.kind in ("paragraph", "list_item") and leads_example(before.text):
            tags += ("worked-example",)
        return tags

    def _front_matter(self, token: Token) -> None:
        """Citations, web links, paths and wikilinks in frontmatter values: the file's own sources."""
        content = token.content
        starts = [0]
        for m in re.finditer("\n", content):
            starts.append(m.end())

        def position(offset: int) -> tuple[int, int]:
            index = bisect_right(starts, offset) - 1
            # the content starts on the line after the opening `---`
            return index + 2 + self.offset, offset - starts[index] + 1

        found, masked = scan_prose(content, self.roots)
        for offset, kind, value, form in found:
            self.own_refs.append(Ref(kind, value, *position(offset), form))
        for m in _FRONT_PATH.finditer(masked):
            # `raw_md: raw/papers/x/paper.md`: the source's own text, when the knowledge base holds it
            self.own_refs.append(Ref("path", m.group(1), *position(m.start(1)), "front"))
        for offset, name in scan_wikilinks(content):
            self.own_refs.append(Ref("wikilink", name, *position(offset), "wiki"))
        if re.search(r"^title\s*:", content, re.MULTILINE):
            self.front_title = _front_title(content)
            self.front_work = bool(self.front_title) and bool(FRONT_KEY.search(content))

    def _bibtex(self, content: str) -> None:
        """The BibTeX entries of a code block, by title (`@article{key, title={…}, …}`)."""
        starts = [m.start() for m in _BIBTEX_ENTRY.finditer(content)]
        for begin, end in itertools.pairwise([*starts, len(content)]):
            title = _BIBTEX_TITLE.search(content, begin, end)
            self.bibtex.append(" ".join(title.group(1).replace("{", "").replace("}", "").split()) if title else "")

    def _code(self, token: Token) -> None:
        """A code block or log: the numbers it shows are what the prose right before or after it
        reports (`own-measurement`), not claims needing another source."""
        if not _LOG.search(token.content) and token.info.strip().split(" ")[0].lower() not in _LOG_FENCES:
            self.code_before = None
            return  # code, a diagram or a config file restates numbers; a log or a console shows how they came
        start, end = token.map or (0, 0)
        before = self.blocks[-1] if self.blocks else None
        numbers = _CodeNumbers(token.content, self.roots)
        if (before is not None and before.claims and before.kind in ("paragraph", "list_item")
                and before.section == len(self.sections) - 1 and before.end_line + 2 >= start + 1 + self.offset):
            _exempt_where(before, lambda claim: abs(claim.value) in numbers.values, "own-measurement")
        self.code_before = (numbers, end + self.offset)

    def _owns_paragraph(self, item: Block) -> bool:
        """A paragraph belongs to the innermost open list item, unless a nested list already began."""
        return not item.children

    def _block_comments(self, token: Token) -> None:
        """The comments of an HTML block: one alone on its line, or text beside it on that line."""
        if "<!--" not in token.content:
            return
        start = (token.map[0] if token.map else 0) + 1 + self.offset
        lines = token.content.split("\n")
        for line_offset, column, comment in comments_in(token.content):
            parts = comment.split("\n")
            last_line = lines[line_offset + len(parts) - 1]
            after = last_line[(column if len(parts) == 1 else 0) + len(parts[-1]):]
            alone = not lines[line_offset][:column].strip() and not after.strip()
            self._comments(comment, start + line_offset, column + 1, alone=alone)

    def _comments(self, html: str, line: int, column: int, *, alone: bool) -> None:
        read = read_comment(html, line, column, alone) if html.endswith("-->") else None
        if read is None:
            return
        if isinstance(read, UnreadComment):
            self.unread_comments.append(read)
            return
        rules = frozenset(d.rule.upper() for d in read)
        for directive in read:
            if directive.reach == BLOCK:
                self.pending_directives.append(len(self.directives))
            self.directives.append(directive)
        if read[0].reach == FILE:
            self.file_disabled |= rules
        elif read[0].reach == BLOCK:
            self.pending_disable = self.pending_disable | rules

    def finish_directives(self) -> list[Directive]:
        """The directives with the lines each covers; the blocks the line-wide ones cover know it too."""
        placed = with_reach(self.directives, self.lines, self.offset)
        for index, directive in enumerate(placed):
            if directive.reach != BLOCK:
                continue
            covered = self.covered_block.get(index)
            if covered is None:
                continue
            block = self.blocks[covered]
            last = max([block.end_line, *(b.end_line for b in self._covered_with(block))])
            placed[index] = dataclasses.replace(directive, first=block.line, last=last)
        for directive in placed:
            if directive.reach in (BLOCK, FILE, ENABLE):
                continue
            for block in self.blocks:
                if directive.first <= block.line <= directive.last:
                    block.disabled = block.disabled | {directive.rule.upper()}
        return placed

    def _covered_with(self, block: Block) -> list[Block]:
        """What a `disable=` comment before `block` covers with it: its nested items, or a table's other rows."""
        if block.kind not in ("table_header", "table_row"):
            out: list[Block] = []
            stack = list(block.children)
            while stack:
                child = self.blocks[stack.pop()]
                out.append(child)
                stack.extend(child.children)
            return out
        rows: list[Block] = []
        for later in self.blocks[block.index + 1:]:
            if later.kind != "table_row" or later.disabled != block.disabled:
                break
            rows.append(later)
        return rows


#: a console transcript: a prompt line (`$ ./bench`, `% make`, `>>> run()`)
_LOG = lazy(r"^\s*(?:\$|%|>>>|PS>|#\s?\$)\s+\S", re.MULTILINE)
#: fence labels of output
_LOG_FENCES = frozenset({"console", "shell-session", "log", "logs", "output", "out", "stdout", "terminal"})


class _CodeNumbers:
    """The numbers a code block or log shows, read when a claim beside it first asks."""

    def __init__(self, content: str, roots: tuple[str, ...]) -> None:
        self.content = content
        self.roots = roots

    @cached_property
    def values(self) -> frozenset[float]:
        return frozenset(numeric_values(scan_prose(self.content, self.roots)[1]))


def _exempt_where(block: Block, applies: Callable[[ClaimNumber], bool], name: str) -> None:
    """Add the exemption `name` to the block's numbers it applies to, moving claims to `exempted`."""
    linked, linked_exempted = dict(block.claim_links), dict(block.exempted_links)
    stated: list[tuple[ClaimNumber, int | None]] = []
    exempted: list[tuple[ClaimNumber, int | None]] = []
    for claims, links in ((block.claims, linked), (block.exempted, linked_exempted)):
        for index, claim in enumerate(claims):
            if applies(claim) and name not in claim.exempt:
                claim = dataclasses.replace(claim, exempt=(*claim.exempt, name))
            (exempted if claim.exempt else stated).append((claim, links.get(index)))
    for claims, pairs, kept in ((block.claims, block.claim_links, stated), (block.exempted, block.exempted_links, exempted)):
        kept.sort(key=lambda pair: (pair[0].line, pair[0].column))
        claims[:] = [claim for claim, _ref in kept]
        pairs[:] = [(index, ref) for index, (_claim, ref) in enumerate(kept) if ref is not None]


def _front_title(content: str) -> str:
    """The `title` of YAML frontmatter, or "" when it has none or does not parse."""
    from kbcheck.model.cards import load_frontmatter

    data = load_frontmatter(content)
    title = data.get("title") if isinstance(data, dict) else None
    return " ".join(str(title).split()) if isinstance(title, (str, int, float)) and str(title).strip() else ""


def inline_text(markdown: str) -> str:
    """One line of markdown (a heading as written) as a reader sees it: a link or wikilink is its
    text, code is its content, emphasis and HTML tags are gone (`## [Title](url)` reads `Title`)."""
    if not _needs_parse(markdown):  # its parse is its words (the parser turns NUL into U+FFFD): the digest's
        return " ".join(markdown.replace("\0", "\ufffd").split())  # key points ask this of every line
    pieces: list[str] = []
    for token in _markdown(front_matter=False).parseInline(markdown):
        for child in token.children or ():
            if child.type in ("text", "code_inline", "math_inline", "math_inline_double"):
                pieces.append(child.content)
            elif child.type == "wikilink":
                pieces.append(child.content if not child.meta.get("embed") else "")
            elif child.type == "image":
                pieces.append("".join(c.content for c in child.children or ()))
            elif child.type in ("softbreak", "hardbreak"):
                pieces.append(" ")
    return " ".join("".join(pieces).split())


def file_title(document: Document | None, path: str) -> str:
    """A file's title: its frontmatter `title`, else its one level-1 heading (a stray `### code`
    above the `# Title` is no title), else its first heading, as read (a link is its text), else its
    file name; frontmatter text is never a title."""
    if document is not None:
        if document.front_title:
            return document.front_title
        headings = [(section.level, document.blocks[section.blocks[0]]) for section in document.sections
                    if section.heading is not None and section.blocks]
        headings = [(level, block) for level, block in headings if block.kind == "heading" and block.text.strip()]
        tops = [block for level, block in headings if level == 1]
        if len(tops) == 1:
            return tops[0].text
        if headings:
            return headings[0][1].text
    return posixpath.basename(path)


def parse_document(
    text: str,
    patterns: HeadingPatterns,
    *,
    roots: tuple[str, ...] = ("organized", "inbox"),
    uncertainty_markers: tuple[str, ...] = (),
    line_offset: int = 0,
    claims: bool = True,
    front_matter: bool = True,
) -> Document:
    """Parse markdown text into sections and blocks; `line_offset` shifts lines (card bodies).

    `claims=False` skips reading claim numbers: a card body is evidence, not
    claims (no rule looks for claims in it), and skipping them makes a cold
    full check, and the cached parse of thousands of cards, much cheaper.
    `front_matter=False` reads a leading `---` block as markdown (a card's
    body, whose frontmatter is already split off).
    """
    if "\r" in text:  # markdown-it ends lines at a lone CR too; count lines the way it does
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    builder = _Builder(lines, patterns, roots, uncertainty_markers, line_offset, claims)
    env: dict[str, Any] = {}
    builder.parse_inline = _inline_on_demand(front_matter, env)
    builder.walk(_markdown(front_matter, inline=False).parse(text, env))
    if not builder.sections:
        builder.open_section(None, 0, 1 + line_offset)
        builder.sections[-1].end_line = max(1, len(lines)) + line_offset
    directives = builder.finish_directives()
    document = Document(builder.sections, builder.blocks, frozenset(builder.file_disabled),
                        len(lines) + line_offset, builder.own_refs, builder.front_title,
                        directives=directives, unread_comments=builder.unread_comments)
    title = document.title_block()
    if builder.front_work:
        document.work = builder.front_title
    elif len(builder.bibtex) == 1 and len(builder.bibtex[0]) <= _MAX_WORK_TITLE:
        document.work = builder.bibtex[0]  # one BibTeX entry names the one work; several are a reference list
    elif title is not None and len(title.text) <= _MAX_WORK_TITLE and _WORK_TITLE.fullmatch(title.text.strip()):
        document.work = title.text.strip()
    return document
