"""A disable comment that disables nothing: it names no rule kbcheck has, or covers no finding.

**What it catches.** A disable comment (any form: `kbcheck-disable`,
`kbcheck-disable-next-line`, `kbcheck-disable-line`, `kbcheck-disable-file`,
`kbcheck: disable=`) that names a rule kbcheck does not have (`KB05`, or a
rule's name instead of its id: the finding says the id it probably meant),
or names KB007, which judges the change and no comment can disable. When
unused comments are asked for (`kbcheck check --report-unused-disables`, or
`report = ["unknown", "unused"]` under `[rules.KB010]`), also a comment for
a rule that ran on the file and found nothing in the lines it covers, as
ruff's RUF100 and ESLint's `--report-unused-disable-directives` do; a
comment without rule ids is unused when no rule found anything there.

**Why it matters.** A misspelt id hides nothing: the finding it was written
for is still reported, and the comment sits there looking as if it worked.
An unused comment outlives the finding it was for and would hide the next
one written on its lines.

**What it reads.** The file's disable comments (never one inside code) and
the findings the other rules suppressed with them. A comment for a rule that
did not run on the file (not selected, ignored, another kind of file) is
never called unused.

**Fires:**

    <!-- kbcheck-disable-next-line KB05 -->
    - 长上下文提速 2.7x

**Passes:**

    <!-- kbcheck-disable-next-line KB005 -->
    - 长上下文提速 2.7x

**How to fix.** Write the id the finding names, or remove the comment;
`--fix` removes an unknown or unused id from the comment, and the comment
when it names nothing else.

**How to suppress.** `ignore = ["KB010"]` or `per-file-ignores`; with
unused comments asked for, `--exit-zero` keeps the run's exit status.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _
from kbcheck.rules.base import Option

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB010"
NAME = "unused-disable"
SEVERITY = "warning"
KINDS = ("knowledge", "paper_card", "repo_card", "guide", "brief", "markdown")
#: what a disable comment may be reported for
UNKNOWN, UNUSED, CHANGE_RULE = "unknown", "unused", "change-rule"
OPTIONS = {
    "report": Option((UNKNOWN,), (UNKNOWN, UNUSED),
                     "what KB010 reports: disable comments naming unknown rules, and unused ones"),
}


@dataclass(frozen=True, slots=True)
class UselessDisable(Facts):
    """The comment's rule as `written` ("" for a comment without ids) disables nothing: `why` is
    UNKNOWN (`meant`: the id it probably meant, `as_name`: it is that rule's name), UNUSED or
    CHANGE_RULE."""

    why: str
    written: str
    meant: str = ""
    as_name: bool = False

    def message(self) -> str:
        if self.why == UNUSED:
            if not self.written:
                return _("unused disable comment: no rule reports anything it covers")
            return _("unused disable comment: {id} reports nothing it covers", id=self.written.upper())
        if self.why == CHANGE_RULE:
            return _("{id} judges the change, not the text: a disable comment cannot suppress it "
                     "(see `kbcheck explain {id}`)", id=self.written.upper())
        if self.as_name:
            return _("disable comment names unknown rule '{name}'; write the id {id}, not the name",
                     name=self.written, id=self.meant)
        if self.meant:
            return _("disable comment names unknown rule '{name}'; did you mean {id}?",
                     name=self.written, id=self.meant)
        return _("disable comment names unknown rule '{name}'", name=self.written)


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    """Nothing before the file's other rules ran: what their findings leave unused is judged
    after them, with the comments at hand (`kbcheck.suppressions`)."""
    return iter(())
