"""A relative link or knowledge-base path points to a file that does not exist.

**What it catches.** In any markdown file: a relative markdown link
(`[卡片](../paper_cards/1695-2610-02076.md)`, resolved from the linking
file), a bare or backticked knowledge-base path (`organized/…`, `inbox/…`,
resolved from the repository root) naming nothing in the checked tree, or a
wikilink (`[[kimi-k3]]`, `[[kimi-k3|text]]`) when no file of the knowledge
base has that name. A path that climbs out of the repository
(`../../etc/passwd`) is reported and never read. Glob patterns
(`inbox/tom/_candidates/*.json`), placeholders (`organized/<topic>/x.md`,
`inbox/{author}/`) and web links are not paths. Nor is a stand-in name
that docs and tool instructions use for "some note": `xxx` or `foo` as a
word of the path (`[[xxx]]`, `wiki/sources/foo.md`, `lint-xxx`), or
`example`, `placeholder` or `slug` as a whole name (`[[slug]]`, `主slug`,
not `onnx-example-model`), or a glob whose
`*` markdown took for emphasis (`"notes/*.md" … "cards/*.md"` reads as
`notes/.md`: the line as written holds no such path).

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

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB009"
NAME = "broken-path"
SEVERITY = "warning"
KINDS = ("knowledge", "paper_card", "repo_card", "guide", "brief", "markdown")

#: names docs use for "some note": a path with one of them as a word is an example, not a link
_STAND_IN = frozenset({"foo", "xxx"})
#: words that are a stand-in only as the whole name (`[[slug]]`, `主slug`), not inside one (`onnx-example-model`)
_STAND_IN_NAME = frozenset({"example", "placeholder", "slug"})
#: the Latin words of a path part
_WORD = re.compile(r"[a-z0-9]+")


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    lines: list[str] | None = None
    for broken in kb.resolve(file.path).broken_paths:
        if _stand_in(broken.written):
            continue
        if not broken.written.startswith("[[") and "/" in broken.written:
            if lines is None:
                lines = (kb.text(file.path) or "").split("\n")
            if _glob_read_as_emphasis(broken.written, lines, broken.line, broken.column):
                continue
        yield Problem(
            path=file.path, line=broken.line, column=broken.column, facts=BrokenPath(broken.written, broken.target),
            subject=broken.target if broken.target is not None else broken.written,
        )


@dataclass(frozen=True, slots=True)
class BrokenPath(Facts):
    """The link or path as `written` resolves to `target` (None: outside the repository), which is not there."""

    written: str
    target: str | None

    def message(self) -> str:
        if self.target is None:
            return _("{path} points outside the repository", path=self.written)
        if self.written.startswith("[["):
            return _("{path} names no file in the knowledge base", path=self.written)
        if self.target != self.written:
            return _("{path} does not exist in the checked tree (resolved to {target})",
                     path=self.written, target=self.target)
        return _("{path} does not exist in the checked tree", path=self.written)


def _stand_in(written: str) -> bool:
    """`[[xxx]]`, `wiki/sources/foo.md`, `outputs/lint-xxx`, `[[slug]]`, `[[wiki/concepts/主slug]]`."""
    name = written.removeprefix("[[").removesuffix("]]").casefold()
    for part in re.sub(r"\.md$", "", name).split("/"):
        words = ["xxx" if len(word) >= 3 and set(word) == {"x"} else word for word in _WORD.findall(part)]
        if any(word in _STAND_IN for word in words) or (words and all(w in _STAND_IN_NAME for w in words)):
            return True
    return False


def _glob_read_as_emphasis(written: str, lines: list[str], line: int, column: int = 1) -> bool:
    """The source line does not hold the path and holds a `*`: markdown read a glob's stars
    (`"wiki/a/*.md" … "wiki/b/*.md"`) as emphasis, and what is left was never written.
    Both are looked for near the path's column (a whole-line search per path is quadratic
    in a line of 100k links)."""
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    start, stop = max(0, column - 1 - _NEAR), column - 1 + len(written) + _NEAR
    return source.find(written, start, stop) < 0 and source.find("*", start, stop) >= 0


#: how far from a path's column its source text and a star are looked for
_NEAR = 1024
