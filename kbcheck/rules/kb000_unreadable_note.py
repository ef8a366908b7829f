"""A note kbcheck could not read, so nothing in it was checked.

**What it catches.** A file of the knowledge base (a living document, a
card, a guide, a brief, or any markdown file) whose bytes are not text
kbcheck can read: larger than `max-file-size` (default 4 MiB), binary (a NUL
byte), or not UTF-8. Files that are no note are not read and never reported:
an image, a PDF, anything that matches no kind's glob and does not end in
`.md`.

**Why it matters.** A file that cannot be read is a file no rule looked at:
without this finding a commit of a note saved in another encoding, or of a
note grown past the size limit, passes as if it had been checked.

**What it reads.** The file's size and bytes, as every rule would read them.

**Given:** the configuration `.kbcheck.toml`:

    max-file-size = 120

**Fires:**

    # A long note

    This note is longer than the one hundred and twenty bytes that the
    configuration above lets kbcheck read.

**Passes:**

    # A short note

**How to fix.** Save the note as UTF-8 text; split a note over the size
limit, or raise `max-file-size`; move a file that is no note out of the
kinds' globs, or add it to `exclude`.

**How to suppress.** A file kbcheck cannot read holds no comment it can see:
`per-file-ignores = {"archive/**" = ["KB000"]}`, or `exclude`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _
from kbcheck.model.store import REFS
from kbcheck.printable import printable_path

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

ID = "KB000"
NAME = "unreadable-note"
SEVERITY = "warning"
KINDS = ("knowledge", "paper_card", "repo_card", "guide", "brief", "markdown")
#: the cache key of "this blob has text", kept per blob so a warm run reads nothing
_READABLE_KEY = "readable"


def _readable(_text: str) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class UnreadableNote(Facts):
    """The file at `path` has no text kbcheck reads, for `reason` (too big, binary, not UTF-8)."""

    path: str
    reason: str

    def message(self) -> str:
        return _("{path} could not be read, so nothing in it was checked ({reason})", path=printable_path(self.path),
                 reason=self.reason)

    def data(self) -> dict[str, object]:
        return {"reason": str(self.reason)}  # the path is the finding's own


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    if kb.facts.fact(REFS, file.path, _READABLE_KEY, _readable):
        return
    reason = kb.why_unread(file.path) or _("its bytes are not text kbcheck reads")
    yield Problem(path=file.path, line=1, column=1, facts=UnreadableNote(file.path, reason), subject=file.path,
                  file_level=True)
