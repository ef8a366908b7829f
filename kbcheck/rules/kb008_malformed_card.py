"""A card's frontmatter is not valid YAML, lacks a required field, or disagrees with its file name.

**What it catches.** In paper cards (`organized/paper_cards/*.md`) and repo
cards (`organized/repo_cards/*.md`): no `---` frontmatter block, YAML that
does not parse (or uses unsafe tags such as `!!python/object`), frontmatter
that is not a mapping, a missing required field (`arxiv` and `title` for
paper cards, `repo` for repo cards), frontmatter larger than kbcheck reads (more than 100,000 values
after YAML aliases are expanded, or nested more than 20 levels deep: the guard
against alias bombs), or an id that disagrees with the file
name (`1695-2610-02076.md` must say `arxiv: "2610.02076"`;
`4572-recursive-oss-rec.md` must say `repo: recursive-oss/rec`). Old-style
ids keep their archive, with `.` and `/` as `-`, lower case:
`hep-th/9901001` is `NNNN-hep-th-9901001.md`, `math.GT/0309136` is
`NNNN-math-gt-0309136.md`. YAML reads an unquoted id as a number
(`arxiv: 2610.02070` is 2610.0207): it passes when its value equals the id
in the file name, and must be quoted otherwise.

**Why it matters.** Cards are the evidence every other rule checks numbers
and citations against; a card that does not parse silently drops out of the
knowledge base.

**What it reads.** The parsed card: its frontmatter and the problems met
while parsing it (`model/cards.py`).

**Fires:** `organized/paper_cards/1695-2610-02076.md` says

    ---
    arxiv: "2610.02077"
    title: LLM-as-Jev
    ---

**Passes:** `organized/paper_cards/1695-2610-02076.md` says

    ---
    arxiv: "2610.02076"
    title: LLM-as-Jev
    ---

**How to fix.** Repair the YAML (quote strings with `:`), add the field, or
rename the file to match its id.

**How to suppress.** `<!-- kbcheck: disable-file=KB008 -->` in the card body,
or `per-file-ignores`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.findings import Facts, Problem
from kbcheck.i18n import Text

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB008"
NAME = "malformed-card"
SEVERITY = "error"
KINDS = ("paper_card", "repo_card")


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    card = kb.card(file.path)
    if card is None:
        return
    for problem in card.problems:
        yield Problem(path=file.path, line=problem.line, column=1, facts=MalformedCard(problem.message, problem.said),
                      subject=file.path, file_level=True)


@dataclass(frozen=True, slots=True)
class MalformedCard(Facts):
    """What is wrong with the card (`reason`, in English; `said`: how it was said, `Text.plain`)."""

    reason: str
    said: tuple[str, ...] = ()

    def message(self) -> str:
        return Text.from_plain(self.said) if self.said else self.reason

    def data(self) -> dict[str, object]:
        return {"reason": self.reason}
