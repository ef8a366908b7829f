"""The words a bibliography uses for a work's particulars: who made it, where it appeared, its number.

One vocabulary, read in three places (`docs/rules.md`, KB005, "A note about one
work"): a line under a note's title that opens with one of these labels or names the
work (a byline: `Authors:`, `**会议**: ACL 2025`, `> 期刊：…`, `> 论文：…`, `ISBN …`), a frontmatter
`title` beside one of these keys (a bibliographic entry), and a first section
headed as the work's information (`## 基本信息`, `## Paper Info`). The labels
are BibTeX's fields for a work's makers and venue and their usual Chinese
names; a label alone (`领域：`, `Tags:`) says nothing about a work. The year a
note gives its work (`stated_year`: BibTeX's `year`, `年份`, in a byline, the
frontmatter or a table's header) is read here too, for the digest's caution on a
year the paper's id rules out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.model.document import Document

#: the labels: makers, venue, publisher, book number (BibTeX `author`, `editor`, `journal`,
#: `booktitle`, `publisher`, `isbn`; `venue`/`conference`/`会议` for where a paper appeared)
LABELS = (r"authors?|creators?|editors?|translators?|作者|编者|译者|isbn"
          r"|venue|conference|journal|booktitle|proceedings|publisher|published\s+in"
          r"|会议|期刊|出版社|发表(?:于|在)?|收录(?:于)?")
#: a line that names the work itself under a note's title (`> 论文：GPT Understands, Too`, `**Paper**: …`)
NAMING = r"papers?|论文(?:题目|标题|名称)?|题目"
#: a line that opens with a particulars label and a colon (`**Venue**: ICML 2025`, `> 会议：EMNLP2020`,
#: `> 论文：…`), or a book number written without one (`ISBN 978-…`)
BYLINE = lazy(rf"^[\s*_>\-]*(?:(?:{LABELS}|{NAMING})[\s*_]*[:：]|isbn[\s\-]*\d)", re.IGNORECASE)
#: frontmatter keys that, beside a `title`, make it a bibliographic entry
FRONT_KEY = lazy(rf"^(?:{LABELS})\s*:", re.MULTILINE | re.IGNORECASE)
#: a heading that gives the note's work its particulars (`## Meta Info`, `## 论文信息`, `## 基本信息`)
#: what may stand before a heading's words: its number, its label, markdown marks (`## 1. 论文信息`)
HEADING_LEAD = r"[\s\d.、:：§#*_\-]*"
HEADING = (r"meta\s?(?:info(?:rmation)?|data)?\s*$|元信息|元数据|基本信息\s*$|basic\s?info(?:rmation)?\s*$"
           r"|(?:paper|book|论文|书籍|原文)\s?(?:info(?:rmation)?|信息|链接|地址|links?)\s*$")
#: a first section under the title that gives the work's particulars (`## 基本信息`, `## Paper Info`)
SECTION = lazy(rf"^{HEADING_LEAD}(?:{HEADING})", re.IGNORECASE)

#: the label of a work's year (BibTeX `year`, `年份`): a `Year: 2023` line under the title, a
#: frontmatter key, or the header of a table column (`| Year | Introduction |`)
YEAR_LABEL = r"year|年份|发表年份"
_YEAR_LINE = lazy(rf"^[\s*_>\-]*(?:{YEAR_LABEL})[\s*_]*[:：]\s*[*_]*((?:19|20)\d\d)(?!\d)", re.IGNORECASE)
_YEAR_CELL = lazy(rf"[\s*_]*(?:{YEAR_LABEL})[\s*_]*", re.IGNORECASE)
_YEAR_VALUE = lazy(r"[\s*_]*((?:19|20)\d\d)(?!\d)")
#: the blocks of a note's head read for its year: the title's section, a few lines
_HEAD_BLOCKS = 12


def stated_year(doc: Document, front: Mapping[str, object] | None) -> int | None:
    """The year a note gives its work: its frontmatter's `year`, else a `Year:` line or a table
    column headed `Year` (its first row) among the head's blocks (those before the second heading)."""
    for key in ("year", "年份"):
        value = (front or {}).get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 1900 <= value <= 2099:
            return value
        if isinstance(value, str) and (found := _YEAR_VALUE.fullmatch(value)):
            return int(found.group(1))
    headings = 0
    blocks = doc.blocks[:_HEAD_BLOCKS]
    for at, block in enumerate(blocks):
        if block.kind == "heading":
            headings += 1
            if headings > 1:
                break
        elif (line := _YEAR_LINE.match(block.text)) is not None:
            return int(line.group(1))
        elif block.kind == "table_header" and at + 1 < len(blocks) and blocks[at + 1].kind == "table_row":
            header, row = block.cells(), blocks[at + 1].cells()
            column = next((i for i, cell in enumerate(header) if _YEAR_CELL.fullmatch(cell)), None)
            if column is not None and column < len(row) and (cell := _YEAR_VALUE.match(row[column])):
                return int(cell.group(1))
    return None
