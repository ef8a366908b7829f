"""A relative link or knowledge-base path points to a file that does not exist.

**What it catches.** In any markdown file: a relative markdown link
(`[卡片](../paper_cards/1695-2610-02076.md)`, resolved from the linking
file), a bare or backticked knowledge-base path (`organized/…`, `inbox/…`,
resolved from the repository root) naming nothing in the checked tree, or a
wikilink (`[[kimi-k3]]`, `[[kimi-k3|text]]`) when no file of the knowledge
base has that name. A path that climbs out of the repository
(`../../etc/passwd`) is reported and never read. Glob patterns
(`inbox/tom/_candidates/*.json`), placeholders (`organized/<topic>/x.md`,
`inbox/{author}/`) and web links are not paths.

**Why it matters.** Paths are how briefs and living documents point at their
evidence; a renamed or mistyped card path breaks the chain silently.

**What it reads.** The file's relative links and knowledge-base paths,
resolved against the checked tree.

**Given:** the card `organized/paper_cards/1695-2610-02076.md`:

    ---
    arxiv: "2610.02076"
    title: "LLM-as-Jev"
    ---
    用 token 概率直接读出决策。

**Fires:**

    见 organized/paper_cards/1695-2610-02067.md

**Passes:**

    见 organized/paper_cards/1695-2610-02076.md

**How to fix.** Correct the path, or restore the file it pointed to.

**How to suppress.** `<!-- kbcheck: disable=KB009 -->` before the block, or
`ignore = ["KB009"]`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kbcheck.findings import Problem
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB009"
NAME = "broken-path"
SEVERITY = "warning"
KINDS = ("knowledge", "paper_card", "repo_card", "guide", "brief", "markdown")


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    for broken in kb.resolve(file.path).broken_paths:
        if broken.target is None:
            message = _("{path} points outside the repository", path=broken.written)
        elif broken.written.startswith("[["):
            message = _("{path} names no file in the knowledge base", path=broken.written)
        elif broken.target != broken.written:
            message = _("{path} does not exist in the checked tree (resolved to {target})",
                        path=broken.written, target=broken.target)
        else:
            message = _("{path} does not exist in the checked tree", path=broken.written)
        yield Problem(
            path=file.path, line=broken.line, column=broken.column, message=message,
            subject=broken.target if broken.target is not None else broken.written,
        )
