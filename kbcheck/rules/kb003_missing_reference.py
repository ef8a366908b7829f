"""An id discussed in a living document's body is missing from its reference list.

**What it catches.** In a living document that has a reference section, an
id (arXiv or DOI by default; `reference-kinds` can add `"repo"`) mentioned
in the body but not listed in the reference section. One finding per id, at
its first mention. Documents without a reference section are not checked,
and neither are those whose reference section lists no id it compares
(videos, blog posts, tutorials), or that is a navigation index (see KB002):
such a list is not a bibliography. A link
to a note about one paper (its frontmatter or title names the paper's id)
mentions that paper. An arXiv paper's DOI (`10.48550/arXiv.…`) and its
abs, pdf and html URLs are its arXiv id, in the body and in the list alike. The paper a note is about, named in its frontmatter
or its title heading, is the note's subject, not a missing reference.

**Why it matters.** The reference list is how readers and tools (the digest,
KB002) know what a document rests on; an id that only lives in the prose is
invisible to them.

**What it reads.** The same mentions as KB002, and whether the document
has a reference section at all.

**Fires:**

    ### §3.5 RL rollout
    - MiMo-V2.6 的统一轨迹表示（arXiv:2610.11959）
    ## §七 引用列表
    - arXiv:2610.02076

**Passes:** the same, with the id added under §七.

    ### §3.5 RL rollout
    - MiMo-V2.6 的统一轨迹表示（arXiv:2610.11959）
    ## §七 引用列表
    - arXiv:2610.02076
    - arXiv:2610.11959 — MiMo-V2.6

**How to fix.** Add the id to the reference list. Fixable: `kbcheck check
--fix` appends the entry (the id, and the card's title when there is a card)
after the last entry of the list the reference section ends with, in that
list's own format: the same bullet, or the next number, and the same
indentation. Where most of the list's arXiv entries link their abstract page
(`[Title](https://arxiv.org/abs/…)`), the new entry is written so too, the
card's title (else the id) as its text. A reference section that does not end
with a list is left for you to edit.

**How to suppress.** `<!-- kbcheck: disable=KB003 -->` before the block,
`disable-file=KB003`, or `per-file-ignores`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.head import own_sources
from kbcheck.evidence.mentions import document_mentions, navigation_index
from kbcheck.findings import Facts, Problem
from kbcheck.fix.edits import reference_entry
from kbcheck.i18n import _
from kbcheck.model.document import REFERENCE

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.document import Document
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB003"
NAME = "missing-reference"
SEVERITY = "warning"
KINDS = ("knowledge",)


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    doc = kb.document(file.path)
    if doc is None or not doc.has_role(REFERENCE):
        return
    mentions = document_mentions(kb, file.path)
    if not any(where.references for where in mentions.values() if where.kind in config.reference_kinds):
        return  # a reference list of videos and blog posts is not a bibliography to compare with
    if navigation_index(kb, file.path):
        return  # nor is an index of the knowledge base's own notes
    subjects = _subject_ids(kb, doc, file.path)
    # the paper the note is about, named at its top, is not a reference it forgot
    missing = [(where.body[0], ident, where.kind) for ident, where in mentions.items()
               if where.kind in config.reference_kinds and not where.references and where.body
               and ident not in subjects]
    # in order of first mention: appended entries (and a numbered list's numbers) follow the text
    for ordinal, ((line, column, section), ident, kind) in enumerate(sorted(missing)):
        yield Problem(
            path=file.path, line=line, column=column, facts=MissingReference(ident, section),
            subject=ident, fix=reference_entry(kb, file.path, kind, ident, ordinal),
        )


@dataclass(frozen=True, slots=True)
class MissingReference(Facts):
    """`id`, first mentioned in `section`, has no entry in the reference list."""

    id: str
    section: str

    def message(self) -> str:
        return _("{id} is mentioned in {section} but missing from the reference list", id=self.id, section=self.section)


def _subject_ids(kb: KnowledgeBase, doc: Document, path: str) -> set[str]:
    """Ids the document names as its own subject: its frontmatter's and its title heading's."""
    return {c.id for c in own_sources(doc, kb.resolve(path))[0]}
