"""What a note says, for its key points, and the notes that are no material at all.

Key points come from substance: a note's summary field (`tldr`, `summary`,
`description`, `abstract`, in its frontmatter or its metadata header:
`kbcheck.digest.metadata_header`), else its prose as written (inline code and link
text kept; a line of links alone, bare or under a label, `douban: https://…`, left
out), and for a modification what the diff added (the new log entries, the new
table row), not the top of the file. An abstract opens with its field's background: when
that fills the room, the key points start at the sentence saying what the work does
(`from_contribution`). The note's own summary (a summary field or section) longer than the room
keeps the sentence stating the work's finding (`The main finding is…`, `Experiments show…`,
`实验表明…`) when the cut would lose it: the opening sentence and that one (`keep_finding`), what the
work asks, then what it found. An abstract is not read so: its later sentences are often the
authors' boilerplate ("outperforms the state of the art"), and its method matters more. A warning
banner's sentence (`⚠ Possibly outdated: …`) is left out.

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

from kbcheck.config import DEFAULT_REFERENCE_HEADING
from kbcheck.digest.metadata_header import metadata_header, without_header
from kbcheck.evidence.head import ADDRESS, LABELLED
from kbcheck.model.document import REFERENCE, inline_text
from kbcheck.page_templates import is_template_path
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.model.document import Block, Document

#: frontmatter fields that say what a note is about, tried in order
SUMMARY_FIELDS = ("tldr", "summary", "description", "abstract")
CHANGELOG, TODO, TEMPLATE = "changelog", "todo", "template"
#: file names (without `.md`, case ignored) that say what a bookkeeping note is
_NAMED = {"log": CHANGELOG, "changelog": CHANGELOG, "changes": CHANGELOG,
          "todo": TODO, "to-do": TODO, "todos": TODO, "tasks": TODO}
#: `_template`, `templates`, `paper-template`; not `template-matching` (a topic)
_PLACEHOLDER = lazy(r"\{\{[^{}\n]{1,80}\}\}")
#: a list item or heading, with what opens it
_ENTRY = lazy(r"^\s*(?:[-*+]\s+|\d{1,9}[.)]\s+|#{1,6}\s+)(.*)$")
_DATED = lazy(r"^[\[*_`(]*(?:\d{4}-\d{1,2}-\d{1,2}|\d{4}/\d{1,2}/\d{1,2}|\d{4}\.\d{1,2}\.\d{1,2})")
_TASK = lazy(r"^\s*[-*+]\s+\[[ xX]\]")
#: entries a shape needs before it is judged, and the share of them that must have it
_SHAPE_ENTRIES, _SHAPE_SHARE = 3, 0.6
_MARKERS = lazy(r"^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+|>\s*|#{1,6}\s+)+")
#: a line that is one link and nothing else, in a list item or not: `[paper link](…)`, `- [[page]]`, `<https://…>`
_LONE_LINK = lazy(r"[-*+]?\s*(?:!?\[[^\]]*\]\([^)]*\)|\[\[[^\]]*\]\]|<https?://[^>]*>)")
#: a line that is a label and links alone, no words: `douban: https://…`, `- ebook: <url>`, `Author: [[x]]`,
#: `Pub Time:` (a label with nothing after it)
_LABELLED_LINKS = lazy(r"[-*+]?\s*[^\s:：()（）\[\]][^:：()（）\[\]]{0,29}[:：]"
                       r"(?:\s*(?:<?https?://\S+?>?|!?\[[^\]]*\]\([^)]*\)|\[\[[^\]]*\]\])[,，;；]?)*\s*")
_BARE_URLS = lazy(r"[-*+]?\s*(?:<?https?://\S+?>?[,，;；]?\s*)+")
_TABLE_RULE = lazy(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
#: a note with fewer words of prose than this is a stub: a title, links, code, nothing written yet
#: (one short sentence is a note: "TensorFlow 与 PyTorch 的取舍。")
STUB_WORDS = 1
_LATIN_WORD = lazy(r"[A-Za-z0-9]+")
_CJK_CHAR = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff]")
#: a line of a blockquote, and its quote marks
_QUOTED = lazy(r"^\s{0,3}>\s?")
_EMPHASIS = lazy(r"[*_]+")
#: a byline ("作者：Jay", "来源：…", "Created: …") says who and where, not what
BYLINE = lazy(r"^\s*(?:作者|来源|时间|日期|创建(?:时间|于)?|更新(?:时间|于)?|author|source|date|by|created|updated"
                    r"|modified)\s*[:：]", re.IGNORECASE)
#: template text (`is_placeholder`): a placeholder word alone, in brackets or not
_PLACEHOLDER_WORD = lazy(r"(?i)[(（\[【]?\s*(?:todo|tbd|tba|tbc|wip|fixme|x{3,}|n/?a|待补充|待完善|待填写|待更新"
                               r"|待续|未完待续|暂无|\.{3,}|…+)\s*[)）\]】]?\s*[.。:：!！]?")
#: a slot of a template: `<paper title>`, `{summary}`
_SLOT = lazy(r"<[^<>\n]{1,60}>|\{[^{}\n]{1,60}\}")
#: a to-do line: `TODO: add the results`
_TODO_LINE = lazy(r"(?i)(?:todo|tbd|fixme)\s*[:：]")
#: a template's instruction, a paragraph wholly in parentheses: `(Include the formulas here)`
_INSTRUCTION = lazy(r"[(（][^()（）]{1,200}[)）]")
#: a list item that is a label with no value: `Authors:`, `代码：`
_EMPTY_LABEL = lazy(r"[^:：]{1,30}[:：]")
#: a leading number of a heading: `1.`, `2.3`, `一、`, `(2)`
_NUMBERING = lazy(r"^\s*(?:[(（]?\d+(?:\.\d+)*[.)、）]?|[一二三四五六七八九十]+[、.])\s*")
#: a warning banner's first sentence (`⚠ Possibly outdated: published 2022; re-verify.`), which a generator writes
_BANNER = lazy(r"^⚠.*?(?:[.!?](?=\s|$)|[。！？]|$)\s*")
#: a sentence that says what the work does, after an abstract's background: "In this paper, we propose…",
#: "This article summarizes…", "We present…", "本文提出…", "我们提出…"
_CONTRIBUTION = lazy(
    r"(?i)\b(?:in this (?:paper|article|work|study|survey)\b|this (?:paper|article|work|study|survey|thesis|report)"
    r" (?:first )?(?:propos|present|introduc|describ|summari[sz]|review|categori[sz]|stud|analy[sz]|investigat"
    r"|explor|develop|focus|discuss|provid|offer)|we (?:first )?(?:propose|present|introduce|develop|describe|design"
    r"|analy[sz]e|investigate|study|explore|report|offer|provide|formulate|release)\b|here,? we\b)"
    r"|本文|本研究|我们提出|作者提出|论文提出")
#: a sentence that states what the work found: "The main finding is…", "Experiments show…", "We find that…",
#: "结果表明…"; a reader keeps it before the method's details
_FINDING = lazy(
    r"(?i)\b(?:(?:main|key|central|primary|core|headline)\s+(?:empirical\s+|experimental\s+)?(?:findings?|results?"
    r"|insights?|observations?)\b|(?:we|they|the authors|results?|experiments?|evaluations?|analys[ie]s|ablations?)"
    r"\s+(?:also\s+|further\s+)?(?:show|find|found|reveal|demonstrate|indicate|confirm)s?\b|finds? that\b|shows? that\b)"
    r"|(?:实验|结果|研究|作者|我们|主要|核心)(?:结果)?(?:表明|显示|证明|发现)")
#: where a sentence ends: after `.`, `!`, `?` and a space, or after `。！？`; not after an abbreviation
#: (`e.g.`, `i.e.`, `et al.`, `vs.`, `cf.`, `Fig.`, `Eq.`) or letters with dots (`i.i.d.`, `U.S.`)
_SENTENCE_END = lazy(r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bal\.)(?<!\bvs\.)(?<!\bcf\.)(?<!\bFig\.)"
                     r"(?<!\bEq\.)(?<!\.\w\.)\s+|(?<=[。！？])")
_SUMMARY_ROLE, _ABSTRACT_ROLE, _METHOD_ROLE = "summary", "abstract", "method"
#: a note of many parts is outlined (`outline`): at least this many headings, parts, and sub-headings shown per part
_OUTLINE_HEADINGS, _OUTLINE_PARTS, _OUTLINE_SUBS = 8, 3, 3
#: a table of contents' heading, as `_heading_name` reads it: the outline is not one of its parts
_CONTENTS = lazy(r"(?:table of )?contents|toc|目录|目錄")
#: a reference list's heading, whatever the knowledge base's `reference-heading` says its living documents use
_REFERENCES = lazy(DEFAULT_REFERENCE_HEADING)
#: the heading of a paper's abstract alone, as `_heading_name` reads it: the paper's words, not the reader's
#: (`摘要` is no such heading: it names a summary too, often the reader's own)
_ABSTRACT_ALONE = lazy(r"abstract")
#: headings of the note's own summary, as `_heading_name` reads them
_SUMMARY_HEADING = lazy(
    r"tl;?\s?dr|summary|one-sentence summary|key (?:ideas?|points|takeaways)|takeaways?|in brief|一句话总结|核心思想"
    r"|核心观点|核心|要点|总结")
#: headings of an abstract, an overview or the contributions: what the work is, often after its background
_ABSTRACT_HEADING = lazy(
    r"abstract|overview|(?:key |main )?contributions?|摘要|论文摘要|概述|概要|简介|论文贡献|贡献|核心贡献")
#: headings of a section on the method: `Method`, `Methodology`, `Proposed approach`, `方法`, `模型结构`
_METHOD_HEADING = lazy(
    r"(?:(?:the|our|proposed)\s+)?(?:method|approach|model architecture|architecture|framework|algorithm)"
    r"|(?:论文|核心|本文)?(?:方法|模型|算法|思路|框架)")


def _first_summary(fields: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """(name, text) of the first summary field that holds text."""
    for name in SUMMARY_FIELDS:
        value = (fields or {}).get(name)
        if isinstance(value, str) and value.strip():
            return name, value
    return None


def summary_field(fields: Mapping[str, Any] | None) -> str | None:
    """The first summary field that holds text."""
    found = _first_summary(fields)
    return found[1] if found is not None else None


def summary_line(fields: Mapping[str, Any] | None, limit: int) -> str | None:
    """The key points the first summary field holding text gives: its finding kept (`keep_finding`),
    unless it is the paper's `abstract`, cut as written (the authors' words, not the note's summary)."""
    found = _first_summary(fields)
    if found is None:
        return None
    name, value = found
    return one_line(value, limit) if name == "abstract" else keep_finding(value, limit)


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
    return [shown for _block, shown in _prose_blocks(document, text)]


def _prose_blocks(document: Document | None, text: str) -> list[tuple[Block, str]]:
    """`prose`, each with its block."""
    if document is None:
        return []
    lines = text.split("\n")
    header = metadata_header(text)
    metadata_end = header.end_line if header is not None else 0
    out: list[tuple[Block, str]] = []
    for block in document.blocks:
        if block.kind == "heading" or not block.text.strip() or block.line <= metadata_end:
            continue
        end = block.end_line
        if block.children:
            end = min(end, document.blocks[block.children[0]].line - 1)
        source = lines[block.line - 1 : max(end, block.line)]
        if _label_only(source, lines[end] if end < len(lines) else ""):
            continue
        # a line of links alone, bare or under a label (`[paper link](…)` above a table, `douban: <url>`)
        # says where, not what
        kept = [line for line in source if not _links_alone(line)]
        if not kept:
            continue
        own = [shown_line(line) for line in kept]
        shown = " ".join(part for part in own if part) or " ".join(block.text.split())
        if shown.startswith("⚠"):  # a warning banner's sentence is the generator's, what follows it the note's
            shown = _BANNER.sub("", shown, count=1)
        if shown:
            out.append((block, shown))
    return out


def _quoted_bylines(lines: list[str]) -> set[int]:
    """The 1-based lines of each blockquote that is a byline: labelled lines only, one of them a
    byline (`> 作者：…` / `> 论文：…` / `> 个人介绍：…`, `> **Author**: …` / `> **Posted**: …`). Like a
    metadata header, it says who and where; its labelled lines are no key points."""
    out: set[int] = set()
    run: list[int] = []
    for number, line in enumerate([*lines, ""], 1):
        if _QUOTED.match(line):
            run.append(number)
            continue
        said = [_QUOTED.sub("", lines[n - 1]).strip() for n in run]
        said = [quoted for quoted in said if quoted]
        if said and all(LABELLED.match(quoted) for quoted in said) and any(BYLINE.match(_EMPHASIS.sub("", quoted))
                                                                             for quoted in said):
            out.update(run)
        run = []
    return out


def is_placeholder(shown: str, block: Block | None = None) -> bool:
    """Template text, not the note's: a placeholder alone (`TODO`, `TBD`, `xxx`, `（待补充）`), a
    slot (`<paper title>`), a to-do line (`TODO: …`), an instruction in parentheses, a list item
    that is a label with nothing after it (`- Authors:`), a table row mostly empty cells."""
    flat = " ".join(shown.split())
    if _PLACEHOLDER_WORD.fullmatch(flat) or _SLOT.fullmatch(flat) or _TODO_LINE.match(flat):
        return True
    if _INSTRUCTION.fullmatch(flat):
        return True
    if block is not None and block.kind == "list_item" and _EMPTY_LABEL.fullmatch(flat):
        return True
    if block is not None and block.kind == "table_row":
        cells = block.text.split("|")
        return sum(1 for cell in cells if cell.strip()) * 2 < len(cells)
    return False


def key_text(document: Document | None, text: str, limit: int) -> str:
    """The key points of a note without a summary field, on one line: its summary section's text
    (`Summary`, `TL;DR`, `核心思想`…: the note's own words on what the work does), else its
    abstract's (`Abstract`, `Overview`, `摘要`…) or first substantive paragraphs, and when the note
    has a method section that text does not reach, that text cut to half the room and the method's
    first paragraph after it (an abstract or an introduction opens with the background, not with
    what the work does). Bylines and template text are never key points, nor task boxes (`- [ ] …`:
    a plan, or a chore done) unless the note is nothing else (a reading schedule)."""
    lines = text.split("\n")
    written = [(block, shown) for block, shown in _prose_blocks(document, text)
               if not BYLINE.match(shown) and not is_placeholder(shown, block)]
    candidates = [(block, shown) for block, shown in written
                  if not (block.kind == "list_item" and _TASK.match(lines[block.line - 1]))] or written
    quoted = _quoted_bylines(lines) if candidates else set()
    # when a quoted byline is all the note says, what it names (`论文：…`) is its key point
    blocks = [(block, shown) for block, shown in candidates if block.line not in quoted] or candidates
    if not blocks or document is None:
        return ""
    by_section: dict[int, str | None] = {}  # a heading is read once, not once per paragraph under it
    roles = [by_section[block.section] if block.section in by_section else
             by_section.setdefault(block.section, _section_role(document, block.section)) for block, _shown in blocks]
    summary = [shown for (_block, shown), role in zip(blocks, roles) if role == _SUMMARY_ROLE]
    if summary:
        return keep_finding(" ".join(summary[:3]), limit)
    lead = [shown for (_block, shown), role in zip(blocks, roles) if role == _ABSTRACT_ROLE]
    method = next((shown for (_block, shown), role in zip(blocks, roles) if role == _METHOD_ROLE), None)
    parts, part_level = outline(document) if not lead and method is None else ("", 0)
    if parts:  # the sentence that opens the note (not one of a part's sub-sections), then what it holds
        room = limit // 3
        opening = one_line(_first_sentence(blocks[0][1], room), room) if (
            document.sections[blocks[0][0].section].level <= part_level) else ""
        return one_line(f"{opening} — {parts}" if opening else parts, limit)
    lead = lead or [shown for _block, shown in blocks]
    if method is None or method in lead[:3]:
        return one_line(from_contribution(" ".join(lead[:3]), limit), limit)
    room = limit // 2
    return one_line(one_line(from_contribution(" ".join(lead[:3]), room), room) + " " + method, limit)


def outline(document: Document) -> tuple[str, int]:
    """The parts of a note of many (a study log, a set of questions and answers, a course's notes):
    the headings under its title at the highest level below it, each with its first sub-headings,
    `CPU (流水线, SIMD, …) · Cache (…) · GPU`, and their level; ("", 0) for a note of
    fewer parts or headings. A table of contents, a reference list and an address are no parts.
    The first paragraph of such a note says how one part opens, not what the note holds."""
    headings = [s for s in document.sections if s.heading is not None and s.role != REFERENCE
                and not _CONTENTS.fullmatch(_heading_name(s.heading)) and not ADDRESS.fullmatch(s.heading)
                and not _REFERENCES.search(s.heading)]
    if len(headings) < _OUTLINE_HEADINGS:
        return "", 0
    top = min(s.level for s in headings)
    titles = [s for s in headings if s.level == top]
    below = [s for s in headings if s.level > top] if len(titles) == 1 else headings
    level = min((s.level for s in below), default=0)
    parts = [s for s in below if s.level == level]
    if len(parts) < _OUTLINE_PARTS:
        return "", 0
    shown: list[str] = []
    for part in parts:
        subs = [_heading_text(s.heading or "") for s in headings if s.parent == part.index]
        more = ", …" if len(subs) > _OUTLINE_SUBS else ""
        subs = [sub for sub in subs[:_OUTLINE_SUBS] if sub]
        name = _heading_text(part.heading or "")
        shown.append(f"{name} ({', '.join(subs)}{more})" if subs else name)
    return " · ".join(part for part in shown if part), level


def _first_sentence(text: str, room: int) -> str:
    """The text's first sentence, when it fits in `room`; else the text (cut by the caller)."""
    flat = " ".join(text.split())
    end = _SENTENCE_END.search(flat)
    return flat[:end.start()] if end is not None and end.start() <= room else flat


def _heading_text(heading: str) -> str:
    """A heading as shown in an outline: its text without numbering."""
    return _NUMBERING.sub("", inline_text(heading)).strip()


def _sentence_spans(flat: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a text on one line (`_SENTENCE_END`), the space after it included."""
    starts = [0, *(found.end() for found in _SENTENCE_END.finditer(flat))]
    return list(zip(starts, [*starts[1:], len(flat)]))


def from_contribution(text: str, room: int) -> str:
    """`text` from its first sentence saying what the work does ("In this paper, we propose…",
    "本文提出…") when that sentence would not fit whole in `room` characters after the background
    before it: an abstract opens with the field's problem, and the key points are the work's."""
    flat = " ".join(text.split())
    for start, end in _sentence_spans(flat):
        if _CONTRIBUTION.search(flat[start:end]):
            return flat[start:].lstrip(" )）]】」』") if 0 < start and end > room else text
    return text


def keep_finding(text: str, limit: int) -> str:
    """`text` on one line in `limit` characters; when the first sentence stating a finding (`_FINDING`)
    would fall past the cut, the opening sentence (cut to half the room if longer) and that sentence,
    with `…` between them for what is left out."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    sentences = [flat[start:end].strip() for start, end in _sentence_spans(flat)]
    finding = next((i for i, sentence in enumerate(sentences) if i and _FINDING.search(sentence)), None)
    if finding is None or len(" ".join(sentences[:finding + 1])) <= limit:
        return one_line(flat, limit)
    opening = one_line(sentences[0], limit // 2)
    gap = "" if opening.endswith("…") else " …"
    return one_line(f"{opening}{gap} {sentences[finding]}", limit)


def _section_role(document: Document, index: int) -> str | None:
    """`summary` or `abstract` when the section's heading names one, `method` when it or an
    enclosing heading names the method."""
    section: int | None = index
    own = True
    while section is not None:
        heading = document.sections[section].heading
        name = _heading_name(heading) if heading else ""
        if own and _SUMMARY_HEADING.fullmatch(name):
            return _SUMMARY_ROLE
        if own and _ABSTRACT_HEADING.fullmatch(name):
            return _ABSTRACT_ROLE
        if _METHOD_HEADING.match(name):
            return _METHOD_ROLE
        own, section = False, document.sections[section].parent
    return None


def _heading_name(heading: str) -> str:
    """A heading as a name: its text, lower-cased, without numbering and trailing punctuation."""
    return _NUMBERING.sub("", inline_text(heading)).strip(" .:：。").casefold()


def one_line(text: str, limit: int) -> str:
    """On one line, at most `limit` characters: a cut ends with `…`, and never inside a latin word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    if flat[limit - 1].isascii() and flat[limit - 1].isalnum() and cut[-1:].isascii() and cut[-1:].isalnum():
        space = cut.rfind(" ")
        if space >= limit // 2:
            cut = cut[:space]
    return cut.rstrip(" ,;:，；：") + "…"


def _label_only(source: list[str], following: str) -> bool:
    """A block that says nothing of substance: a table's header row (the rule follows it), a line
    that is one link and nothing else (`[paper link](…)`), an admonition (`> [!NOTE]`)."""
    first = source[0].strip() if source else ""
    if first.startswith("|") and _TABLE_RULE.match(following):
        return True
    if len(source) == 1 and _LONE_LINK.fullmatch(first):
        return True
    return first.startswith("> [!")


def _links_alone(line: str) -> bool:
    """A source line that is one link, or a label followed by links or by nothing (`douban: https://…`)."""
    flat = line.strip()
    return bool(_LONE_LINK.fullmatch(flat) or _LABELLED_LINKS.fullmatch(flat) or _BARE_URLS.fullmatch(flat))


def added_lines(old_body: str, new_body: str) -> list[str]:
    """The lines a modification added (new or rewritten), as a reader sees them; headings,
    blank lines, table rules and lines of links alone (`paper link: <url>`) left out, as the
    key points of an added note leave them out."""
    old, new = without_header(old_body).split("\n"), without_header(new_body).split("\n")
    out: list[str] = []
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag not in ("insert", "replace"):
            continue
        for line in new[j1:j2]:
            if not line.strip() or line.lstrip().startswith("#") or _TABLE_RULE.match(line) or _links_alone(line):
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
    """True when a note holds no prose of its own yet: nothing but its title, headings, lone links,
    code, a byline, or the paper's abstract under an `Abstract` heading and its references (what a
    reference manager copies in), and no summary field, in its frontmatter or its metadata header
    (`docs/output.md`, "Stubs")."""
    if document is None or summary_field(fields) is not None or summary_field(header_fields(text)) is not None:
        return False
    own = [shown for block, shown in _prose_blocks(document, text)
           if not BYLINE.match(shown) and not _the_papers(document, block.section)]
    return prose_words(own) < STUB_WORDS


def _the_papers(document: Document, index: int) -> bool:
    """Whether a section holds the paper's words, not the reader's: its abstract, or a reference
    list (the paper's references, as a reference manager copies them in, or any list of works)."""
    section = document.sections[index]
    if section.role == REFERENCE:  # a sub-section of a reference list holds the role too
        return True
    heading = section.heading
    return bool(heading) and bool(_ABSTRACT_ALONE.fullmatch(_heading_name(heading or "")))


def note_shape(path: str, body: str) -> str | None:
    """`changelog`, `todo` or `template` when the note is bookkeeping, else None."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if is_template_path(path) or len(_PLACEHOLDER.findall(body)) >= _SHAPE_ENTRIES:
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
           "is_placeholder", "is_stub", "keep_finding", "key_text", "note_shape", "one_line", "prose", "prose_words", "shown_line", "summary_field", "summary_line"]
