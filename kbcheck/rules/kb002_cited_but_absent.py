"""A paper in a living document's reference list is never discussed in its body.

**What it catches.** An id (arXiv or DOI by default; add `"repo"` to
`reference-kinds` for repos) listed in the reference section (`§七`, `参考`,
`引用`, `References`) that has zero mentions anywhere outside that section —
entries, trend and open-question sections included. The sample brief calls
this "引用挂账、无条目" (cited, no entry).

**Why it matters.** A reference without a body entry is a promise that was
never kept: the paper was judged worth citing, but nobody wrote down what it
says or where it fits. These are the highest-value gaps to fill.

**What it reads.** The document's mentions: for each id, where it appears
in the reference section and where in the body (`model/mentions.py`).

**Fires:** no section above the list mentions the paper.

    ## §七 引用列表
    - arXiv:2610.02076 — LLM-as-Jev

**Passes:**

    ### §3.1 调度理论与路由
    - LLM-as-Jev 直接从 token 概率读出决策（arXiv:2610.02076）
    ## §七 引用列表
    - arXiv:2610.02076 — LLM-as-Jev

**How to fix.** Write the entry (what the paper adds, in which section), or
drop it from the reference list.

**How to suppress.** `<!-- kbcheck: disable=KB002 -->` before the reference
item, `<!-- kbcheck: disable-file=KB002 -->` for the file, or the baseline to
accept today's backlog and fail only on new gaps.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kbcheck.findings import Problem
from kbcheck.model.mentions import document_mentions

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB002"
NAME = "cited-but-absent"
SEVERITY = "warning"
KINDS = ("knowledge",)


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    for ident, where in document_mentions(kb, file.path).items():
        if where.kind not in config.reference_kinds or not where.references or where.body:
            continue
        line, column = where.references[0]
        yield Problem(
            path=file.path, line=line, column=column,
            message=f"{ident} is in the reference list but never mentioned in the body; write its entry or drop the reference",
            subject=ident,
        )
