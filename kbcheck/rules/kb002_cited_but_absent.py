"""A paper in a living document's reference list is never discussed in its body.

**What it catches.** An id (arXiv or DOI by default; add `"repo"` to
`reference-kinds` for repos) listed in the reference section (`§七`, `参考`,
`引用`, `References`) that has zero mentions anywhere outside that section —
entries, trend and open-question sections included. The sample brief calls
this "引用挂账、无条目" (cited, no entry). An entry counts as discussed when
the body names its id, links a note about it (a note whose frontmatter or
title names that one id), or names it by its card's title or short name
(the title's part before `:`), by the title or short name of the note the
entry links (`- [[balog-2017-deepcoder]]`, whose note is titled
`DeepCoder: Learning to Write Programs`, is discussed by "DeepCoder"), or
by the entry's own link text (`- [ReAct](https://arxiv.org/abs/2210.03629)`
is discussed by "ReAct"), or, for a numbered entry (`4. …`, `[4] …`), cites its
number (`文献 [4]`, `[2, 4]`, a range `[3-5]`, read as KB005 reads it). A page whose top-level `## Sources` (`## 来源`,
`## 出处`) list holds one entry is drawn from that one source, as a wiki's
entity and concept pages are: the whole body discusses it, and the entry
never fires. With two entries or more, each must be named in the body,
except on a page named for a work it lists: `repocoder.md` (or a page titled
`RepoCoder`) listing the note `RepoCoder: Repository-Level Code Completion`
is about that work, whatever else it lists. The name must be coined
(`RepoCoder`, `DeepSeek-Coder`, `GPT4o`, an acronym such as `BEIR`): a page
`attention.md` is not about a paper titled `Attention: …`.

A reference list that is a navigation index is no bibliography, and KB002
does not look at it: every entry links a note of the knowledge base (and
writes no id or web address of its own), and the page has no body beyond
the list: no paragraph outside its lead, and no other list item or table
row but links to notes. Wikis and paper-reading repositories keep such
pages (a `## Paper References` list of links to the notes), with nothing
meant to discuss the entries.

**Why it matters.** A reference without a body entry is a promise that was
never kept: the paper was judged worth citing, but nobody wrote down what it
says or where it fits. These are the highest-value gaps to fill.

**What it reads.** The document's mentions: for each id, where it appears
in the reference section and where in the body (`evidence/mentions.py`).

**Fires:** no section above the list mentions the paper.

    ## §七 引用列表
    - arXiv:2610.02076 — LLM-as-Jev

**Passes:**

    ### §3.1 调度理论与路由
    - LLM-as-Jev 直接从 token 概率读出决策（arXiv:2610.02076）
    ## §七 引用列表
    - arXiv:2610.02076 — LLM-as-Jev

**Given:** the notes `organized/guides/specbound.md`, about one paper each:

    # SpecBound: Fixed-Budget Speculative Decoding (arXiv:2610.08815)

**Given:** and `organized/guides/mimo.md`:

    # MiMo-V2.6: Scaling Reinforcement Learning (arXiv:2610.11959)

**Passes:** a navigation index: its entries link the notes, and nothing else is on the page.

    # 论文索引

    ## Paper References
    - [SpecBound](../guides/specbound.md)
    - [MiMo-V2.6](../guides/mimo.md)

**How to fix.** Write the entry (what the paper adds, in which section), or
drop it from the reference list.

**How to suppress.** `<!-- kbcheck: disable=KB002 -->` before the reference
item, `<!-- kbcheck: disable-file=KB002 -->` for the file, or the baseline to
accept today's backlog and fail only on new gaps.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.discussed import Discussions
from kbcheck.evidence.mentions import document_mentions, navigation_index
from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB002"
NAME = "cited-but-absent"
SEVERITY = "warning"
KINDS = ("knowledge",)


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    if navigation_index(kb, file.path):
        return  # an index of the knowledge base's notes, not a bibliography: nothing is meant to discuss it
    discussions = Discussions(kb, file.path)
    for ident, where in document_mentions(kb, file.path).items():
        if where.kind not in config.reference_kinds or not where.references or where.body:
            continue
        if discussions.how(where) is not None:
            continue
        line, column = where.references[0]
        yield Problem(path=file.path, line=line, column=column, facts=ReferenceNeverMentioned(ident), subject=ident)


@dataclass(frozen=True, slots=True)
class ReferenceNeverMentioned(Facts):
    """The reference list holds `id`; the body never mentions it."""

    id: str

    def message(self) -> str:
        return _("{id} is in the reference list but never mentioned in the body; write its entry or drop the reference",
                 id=self.id)
