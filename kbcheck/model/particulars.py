"""The words a bibliography uses for a work's particulars: who made it, where it appeared, its number.

One vocabulary, read in three places (`docs/rules.md`, KB005, "A note about one
work"): a line under a note's title that opens with one of these labels or names the
work (a byline: `Authors:`, `**会议**: ACL 2025`, `> 期刊：…`, `> 论文：…`, `ISBN …`), a frontmatter
`title` beside one of these keys (a bibliographic entry), and a first section
headed as the work's information (`## 基本信息`, `## Paper Info`). The labels
are BibTeX's fields for a work's makers and venue and their usual Chinese
names; a label alone (`领域：`, `Tags:`) says nothing about a work.
"""

from __future__ import annotations

import re

from kbcheck.regex import lazy

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
