"""The one work a note names at its head: the source of every number in it (SPEC §10, "A note about one work").

A note about one paper, book or course names it near its top, under its
title (the first heading, of any level), in one of a few shapes
(`docs/rules.md`, KB005); a title heading's own links are the file's own
sources already (`Document.source_refs`):

- `byline`: a line under the title, or in a first section headed as the work's
  information (`## 基本信息`), gives the work's particulars (`Authors:`, `作者：`,
  `**会议**: ACL 2025`, `> 期刊：…`, `ISBN`; `model.particulars`): the title
  names the work;
- `head-link`: the lines under the title (or above it, on the note's first lines, a
  first heading that is a web address alone among them: `https://…` over `---` is a
  heading to markdown and the note's source line to its writer), before the note's
  first claim, link it,
  each a labelled line (`**arXiv**: …`, `> 论文地址：…`; beside one paper's id, the
  other links are its companions (code, project page), and a code repository
  beside a paper's page is its code: one work), a line that cites an arXiv
  id or DOI (`> ICML 2025. doi:…`) or a line of links alone (`[paper link](…)`);
  a sentence that recommends another page is no head;
- `file-name`: the file is named after the title heading and a year, as a
  bibliography files a work (`2023 Segment Anything.md`,
  `1953-equation-of-state-calculations.md` under `# Equation of State
  Calculations`); a dated file (`2024-05-01-meeting.md`) is a diary, not a work;
- `source-line`: a line anywhere that opens with a source label (`参考：`,
  `Source:`, `主要来源：`) names it, when the head (its lines and frontmatter) names no work
  alone; below a head that names one, it is the source of its own point (`References: …`
  under one item), and the head's work stands;
- `one-work-notes`: the configuration says the notes at this path are each about
  one work (`one-work-notes`, proposed by `kbcheck init` for a folder whose notes
  mostly name their work at the head): the title heading names it when no other
  shape names anything, or the file name when the note's first heading is not of level 1
  (as Obsidian and GitHub title it; a `# Tags` heading at the note's end is a section, no
  title); a head naming several works still names none;
- `front-source`: frontmatter `source`, `sources`, `resource`, `paper` or `pdf`
  names it (a file, or the work's title);
- `one-reference` (read at the file level of KB005's evidence, `listed_work`, not by
  `one_work`): the note's reference list holds exactly one work: one id (however many entries
  cite it, and no web page), or one entry that links web pages only (the work's page, its PDF,
  a translation). A link to another note of the knowledge base there is a "see also", not the
  note's source.

All the shapes a note shows together must name exactly one work: a head that
cites two papers, or links a paper's page and a blog post, or a `Source:` line
listing three inputs, names none (a head naming one work stands beside a
source line further down, as said above). Only notes with one source (guides) are read so; a living document or a
brief that lists its inputs at the top still needs a source beside each number.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from kbcheck.evidence.labels import SOURCE_LINE
from kbcheck.model.document import REFERENCE
from kbcheck.model.knowledge_base import Link
from kbcheck.model.particulars import BYLINE, SECTION
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.model.document import Block, Document
    from kbcheck.model.knowledge_base import Citation, Resolved

#: a line that opens with a short label and a colon: `**arXiv**: …`, `论文地址：…`, `course: …`
LABELLED = lazy(r"^[\s*_>\-]*[^\s:：,，。.!?！？;；]{1,24}?(?:\s[^\s:：,，。.!?！？;；]{1,24}){0,2}?[\s*_]*[:：]")
_WEB = lazy(r"https?://\S+")
#: a line that is a web address and nothing else (`<https://…>` too)
ADDRESS = lazy(r"\s*<?https?://\S+?>?\s*")
_WORD = lazy(r"\w")
#: ids that name a work, not a page about it
_WORK_IDS = ("arxiv", "doi")
#: frontmatter fields that name the work a note is drawn from
FRONT_SOURCE_FIELDS = ("source", "sources", "resource", "resources", "paper", "pdf")
#: a head (byline, venue, links) is a few lines: the blocks under the title read as its head
HEAD_BLOCKS = 6
#: a title shorter than this names nothing (`# 1`, `# Notes`)
_MIN_TITLE = 4
#: a year standing alone in a file name (`2023 Segment Anything`), and a whole date (a diary's file)
FILE_YEAR = lazy(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
FILE_DATE = lazy(r"(?<!\d)(?:19|20)\d{2}[-_.]?[01]\d[-_.]?[0-3]\d(?!\d)")
_NOT_A_LETTER = lazy(r"[\W\d_]+")
_MIN_WORK_LETTERS = 8
#: a file name cut short (file systems and generators limit names) still names its title
_CUT_NAME = 24


@dataclass(frozen=True)
class Head:
    """The one work a note names at its head, and the shapes that name it (all empty when it names none)."""

    shapes: tuple[str, ...]
    citations: tuple[Citation, ...]
    links: tuple[Link, ...]


NO_WORK = Head((), (), ())


def own_sources(doc: Document, resolved: Resolved) -> tuple[list[Citation], list[Link]]:
    """The page's own sources, in any page: its frontmatter's and its title heading's (the sole
    level-1 heading). KB003 reads them as the page's subject, KB005 as the file's sources."""
    title = doc.title_block()
    citations, links = _sources(resolved, [title.index] if title is not None else [])
    return [*resolved.own_citations, *citations], [*resolved.own_links, *links]


def _title(doc: Document, path: str, titled: bool) -> tuple[Block | None, list[int], bool]:
    """The note's title with its head lines and whether the file is named after it (`filed_under`).

    The title is the first heading, of any level, when no claim stands before it. When later
    headings of the same or a higher level follow, it is the title only if it links a work and none
    of them links anything (a list of linked headings is a list of works), or if the lines under it
    give a work's particulars (a byline, an arXiv id or DOI), or if the file is named after it and a
    year; in a note the configuration says is about one work (`titled`), a level-1 heading that
    links nothing is its title still."""
    block = _first_heading(doc)
    if block is None:
        return None, [], False
    first = doc.sections[block.section]
    head = _head_blocks(doc, block)
    filed = bool(path) and filed_under(block.text, path)
    peers = [s for s in doc.sections[first.index + 1:] if s.heading is not None and s.blocks and s.level <= first.level]
    if not peers:
        return block, head, filed
    if _links(block):
        if not any(_links(doc.blocks[s.blocks[0]]) for s in peers):
            return block, head, filed
    elif filed or any(BYLINE.match(doc.blocks[i].text) or any(r.kind in _WORK_IDS for r in doc.blocks[i].refs)
                      for i in head):
        return block, head, filed
    if titled and first.level == 1 and not _links(block):
        return block, head, filed
    return None, [], False


def _links(block: Block) -> bool:
    return any(ref.form == "link" for ref in block.refs)


def one_work(doc: Document, resolved: Resolved, front: dict[str, object] | None = None, path: str = "",
             titled: bool = False) -> Head:
    """The work the note's head names, when all its shapes together name exactly one; in a note
    the configuration says is about one work (`one-work-notes`, `titled`), its title names it
    when nothing else does."""
    citations: list[Citation] = []
    links: list[Link] = []
    shapes: list[str] = []
    named = ""
    title, under, filed = _title(doc, path, titled)
    head = _preamble(doc)
    if title is not None or head:
        head += under
        if title is not None and any(BYLINE.match(doc.blocks[i].text) for i in head):
            shapes.append("byline")
            named = title.text
        elif title is not None and filed:
            shapes.append("file-name")
            named = title.text
        found = _sources(resolved, head)
        if found[0] or found[1]:
            shapes.append("head-link")
            citations.extend(found[0])
            links.extend(found[1])
    front_named = _front_source(front or {})
    if front_named:
        shapes.append("front-source")
    works = _works(citations, links)
    if len(works) != 1 or front_named:
        # a source line further down names the note's work only when its head names none: below a
        # head that names one, it is the source of its own part (`References: …` under one point)
        lines = [i for b in doc.blocks if SOURCE_LINE.match(b.text) and doc.sections[b.section].role is None
                 for i in (b.index, *(d.index for d in doc.descendants(b)))]
        found = _sources(resolved, lines)
        if found[0] or found[1]:
            shapes.append("source-line")
            citations.extend(found[0])
            links.extend(found[1])
        works = _works(citations, links)
    if len(works) == 1:
        return Head(tuple(shapes), tuple(citations), tuple(links))
    name = named or front_named
    at = title.line if title is not None else 1
    if titled and not works and not name:
        # a note whose first heading is not of level 1 is titled by its file name, as Obsidian and GitHub show it
        name = title.text if title is not None else _file_title(doc, path)
        if name:
            shapes.append("one-work-notes")
    if works or len(name) < _MIN_TITLE:
        return NO_WORK
    return Head(tuple(shapes), (), (Link("work", name, at, 1),))


def _works(citations: list[Citation], links: list[Link]) -> set[tuple[str, str]]:
    """The works these sources name: beside one paper's id, the other links are its companions (code,
    project page, slides); a code repository beside the paper's page is the paper's code."""
    works = {(c.kind, c.id) for c in citations} | {(x.kind, x.target) for x in links}
    papers = {(kind, value) for kind, value in works if kind in _WORK_IDS}
    if len(papers) == 1:
        return papers
    if any(kind != "repo" for kind, _ in works):
        return {(kind, value) for kind, value in works if kind != "repo"}
    return works


def _file_title(doc: Document, path: str) -> str:
    """The file's name as the note's title, when no heading of the note is one: its first heading is
    not of level 1 (a level-1 heading after others is a section, `# Tags` at the end of the note)."""
    first = next((s for s in doc.sections if s.heading is not None), None)
    if not path or (first is not None and first.level == 1):
        return ""
    stem = PurePosixPath(path).stem
    return stem if _long_enough(_NOT_A_LETTER.sub("", stem)) else ""


def listed_work(doc: Document, resolved: Resolved) -> list[int]:
    """The blocks of the note's reference lists when they hold exactly one work (`one-reference`):
    one id and no web page, or one entry (a top-level item, its nested items included) linking
    web pages only, with at most one id beside them; else none."""
    blocks = [i for section in doc.sections if section.role == REFERENCE
              for i in section.blocks if doc.blocks[i].kind != "heading"]
    citations = {(c.kind, c.id) for i in blocks for c in resolved.block_citations[i]}
    links = [link for i in blocks for link in resolved.block_links[i]]
    if not links:
        return blocks if len(citations) == 1 else []
    entries = [i for i in blocks if doc.blocks[i].depth == 0]
    if len(entries) == 1 and len(citations) <= 1 and all(link.kind == "url" for link in links):
        return blocks
    return []


def _first_heading(doc: Document) -> Block | None:
    """The note's first heading, when no claim stands before it; an address heading is none."""
    for block in doc.blocks:
        if block.kind == "heading" and not _address(block):
            return block
        if block.claims:
            return None
    return None


def filed_under(title: str, path: str) -> bool:
    """Whether the file is named after the title and a year (letters compared, case and
    separators aside; a name cut short counts when it is long enough to be unmistakable)."""
    stem = PurePosixPath(path).stem
    if not FILE_YEAR.search(stem) or FILE_DATE.search(stem):
        return False
    name, named = _NOT_A_LETTER.sub("", stem).casefold(), _NOT_A_LETTER.sub("", title).casefold()
    if not _long_enough(named):
        return False
    return name == named or (len(name) >= _CUT_NAME and named.startswith(name))


def _long_enough(letters: str) -> bool:
    """A work's title is more than a word (`# Notes 2024` is a topic, `note.md` no title): 8 letters, or 4 in CJK."""
    return len(letters) >= _MIN_WORK_LETTERS or sum(ch >= "\u3000" for ch in letters) >= _MIN_TITLE


def _preamble(doc: Document) -> list[int]:
    """The head lines above the first heading (a source address on the note's first line, or an
    address heading), when no claim stands among them."""
    blocks: list[Block] = []
    for section in doc.sections:  # in order: what stands before the first heading that is no address
        if section.heading is not None and not (section.blocks and _address(doc.blocks[section.blocks[0]])):
            break
        blocks += [doc.blocks[i] for i in section.blocks]
        if len(blocks) >= HEAD_BLOCKS:
            break
    blocks = blocks[:HEAD_BLOCKS]
    if any(b.claims for b in blocks):
        return []
    # a link to a page of the knowledge base up there is navigation (`[← 目录](../README.md)`), no work
    return [b.index for b in blocks if _head_line(b) and any(r.kind in (*_WORK_IDS, "url") for r in b.refs)]


def _address(block: Block) -> bool:
    """A heading that is a web address alone: a source line that markdown reads as a heading
    (`https://…` over `---`), not the note's title."""
    return block.kind == "heading" and bool(block.refs) and bool(ADDRESS.fullmatch(block.text))


def _head_line(block: Block) -> bool:
    """A labelled line (the colon of a web address is no label), a line of links alone, or one citing an id."""
    return bool(LABELLED.match(_WEB.sub("", block.text)) or _only_links(block)
                or any(r.kind in _WORK_IDS for r in block.refs))


def _head_blocks(doc: Document, title: Block) -> list[int]:
    """The head lines under the title (labelled, citing an id, or links alone), before its
    first sub-heading and the note's first claim, or in a first sub-section that gives the
    work's particulars (`## 基本信息`)."""
    out: list[int] = []
    section = doc.sections[title.section]
    candidates = section.blocks[1:]
    after = section.index + 1
    if after < len(doc.sections) and doc.sections[after].parent == section.index:
        heading = doc.sections[after].heading
        if heading is not None and SECTION.match(heading):
            candidates = [*candidates, *doc.sections[after].blocks[1:]]
    for index in candidates[:HEAD_BLOCKS]:
        block = doc.blocks[index]
        if block.claims:
            break
        if _head_line(block):
            out.append(index)
    return out


def _only_links(block: Block) -> bool:
    """A line of links and nothing else: `[paper link](…)`, `[PDF](…) | [code](…)`."""
    rest = _WEB.sub("", block.text)
    for ref in block.refs:
        rest = rest.replace(ref.text, "", 1) if ref.text else rest
    return bool(block.refs) and not _WORD.search(rest)


def _sources(resolved: Resolved, blocks: list[int]) -> tuple[list[Citation], list[Link]]:
    return ([c for i in blocks for c in resolved.block_citations[i]],
            [link for i in blocks for link in resolved.block_links[i]])


def _front_source(front: dict[str, object]) -> str:
    """The work a frontmatter source field names by a file name or a title (web addresses and
    ids in it are the file's own refs already)."""
    for key in FRONT_SOURCE_FIELDS:
        value = front.get(key)
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if isinstance(value, str) and value.strip() and "://" not in value:
            return " ".join(value.split())
    return ""
