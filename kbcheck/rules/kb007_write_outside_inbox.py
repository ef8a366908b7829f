"""A change writes outside what its author may write (by default, their own inbox folder).

**What it catches.** Every path of the staged change (`--staged`, judged by
the run's author), of each commit in the range (`--diff REV`, each commit
judged by the e-mail it records) or of the range's net change (`--diff REV
--actor LOGIN`, judged as the author whose `logins` holds LOGIN) that lies
outside the author's role: added, modified and deleted paths, and both
sides of a rename. A merge writes what differs from every parent. The
author of a local run is `--author`, else `KBCHECK_AUTHOR`, else git config
`kbcheck.author`, else the configured author with the commit email
(`git config user.email`). An author nobody configured gets one finding per
path, unless `allow-unknown-authors = true`. Not evaluated by `--all` or
plain paths: there is no change to judge.

Roles, authors and this rule's ignores and severity are read from the base
revision (HEAD for `--staged`, REV for `--diff`), never from the change: a
change to `.kbcheck.toml` or to the baseline file is a write like any other,
and a baseline never accepts this rule's findings (docs/trust-model.md).

**Why it matters.** Writers (people and writing agents) work in
`inbox/<author>/`; only maintainers fold material into `organized/`. A
writer that edits a living document or another writer's inbox bypasses
review, and a refresh script with the wrong identity can rewrite hundreds
of cards in one commit.

**What it reads.** The changed paths of the run, each with its author,
and `[roles]` / `[authors]` of the configuration; no file content.

**Given:** `.kbcheck.toml`:

    [authors.tom]
    emails = ["tom@example.org"]
    role = "writer"            # writer = ["inbox/{author}/**"]

**Fires:** tom stages `inbox/jay/2026-10-29-brief.md`:

    # jay 的简报

(and when tom renames `inbox/tom/draft.md` to `organized/guides/draft.md`:
the new side is outside).

**Passes:** tom stages `inbox/tom/2026-10-29-brief.md`:

    # tom 的简报

(and a `maintainer`, whose role is `["**"]`, may change anything).

**How to fix.** Unstage the path (`git restore --staged PATH`) and hand the
material to a maintainer, or commit as the right author; if the author is
new, add it under `[authors]` with its emails and role.

**How to suppress.** `per-file-ignores = {"organized/indexes/**" = ["KB007"]}`
for paths anyone may write, a wider role under `[roles]`, or
`allow-unknown-authors = true` for unconfigured authors, committed by a
maintainer first: they take effect from the next change on. Inline comments
and the baseline do not apply: the finding is about a change, not a line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.authors import allowed_globs, may_write
from kbcheck.findings import Facts, Problem
from kbcheck.i18n import _, listing

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Change

ID = "KB007"
NAME = "write-outside-inbox"
SEVERITY = "error"
KINDS = ()


def _what(facts: WriteOutsideInbox) -> str:
    if facts.commit:
        actor = _("commit {sha}", sha=facts.commit[:12])
    elif facts.range:
        actor = _("the change {range}", range=facts.range)
    else:
        actor = _("the staged change")
    if facts.status == "R" and facts.old_path is not None:
        return _("{actor} renames {old} to {path}", actor=actor, old=facts.old_path, path=facts.changed)
    if facts.status == "A":
        return _("{actor} adds {path}", actor=actor, path=facts.changed)
    if facts.status == "M":
        return _("{actor} modifies {path}", actor=actor, path=facts.changed)
    if facts.status == "D":
        return _("{actor} deletes {path}", actor=actor, path=facts.changed)
    return _("{actor} changes {path}", actor=actor, path=facts.changed)


@dataclass(frozen=True, slots=True)
class WriteOutsideInbox(Facts):
    """`author` (a login, or how an unconfigured author is named) may not write a side of the change:
    `configured` false, the author is in no `authors_section`; else `globs` is what `role` may write.
    The change: its `status` (`A`, `M`, `D`, `R`), `changed` path, `old_path`, `commit` or `range`;
    `unconfigured_base`, the trusted side when it has no configuration at all."""

    author: str
    configured: bool
    role: str
    globs: tuple[str, ...]
    authors_section: str
    status: str
    changed: str
    old_path: str | None
    commit: str | None
    range: str | None
    #: the trusted side when it has no kbcheck configuration at all (the change that adopts kbcheck)
    unconfigured_base: str | None = None

    def message(self) -> str:
        if not self.configured and self.unconfigured_base is not None:
            base = self.unconfigured_base
            return _("{base}, the trusted side of this change, has no kbcheck configuration, so it names no author "
                     "({author}) who may write; a maintainer commits .kbcheck.toml there first, on its own "
                     "(docs/adopting.md, the first commit) ({what})",
                     base=base[:12] if len(base) == 40 else base, author=self.author, what=_what(self))
        if not self.configured:
            return _("author {author} is not configured in {section}; add it or set allow-unknown-authors ({what})",
                     author=self.author, section=self.authors_section, what=_what(self))
        if not self.globs:
            return _("{author} (role {role}) may write nothing: role '{role}' has no globs in [roles]; {what}",
                     author=self.author, role=self.role, what=_what(self))
        return _("{author} (role {role}) may write only {globs}; {what}",
                 author=self.author, role=self.role, globs=listing(self.globs), what=_what(self))


def _authors_section(config: Config) -> str:
    source = os.path.basename(config.source) if config.source else ".kbcheck.toml"
    return "pyproject.toml [tool.kbcheck.authors]" if source == "pyproject.toml" else f"{source} [authors]"


def check_changes(changes: list[Change], config: Config) -> Iterator[Problem]:
    """One finding per path outside what its author may write (the first change that writes it)."""
    seen: set[tuple[str, str]] = set()
    for change in changes:
        sides = [change.path]
        if change.status == "R" and change.old_path is not None:
            sides.append(change.old_path)
        for side in sides:
            if change.author is None:
                if config.allow_unknown_authors:
                    continue
                key = ("?" + change.author_label, side)
                facts = _facts(config, change, change.author_label, configured=False)
            else:
                if may_write(config, change.author, side):
                    continue
                key = (change.author, side)
                facts = _facts(config, change, change.author, configured=True)
            if key in seen:
                continue
            seen.add(key)
            yield Problem(path=side, line=1, column=1, facts=facts, subject=side, file_level=True)


def _facts(config: Config, change: Change, author: str, *, configured: bool) -> WriteOutsideInbox:
    known = config.authors.get(change.author) if configured and change.author is not None else None
    globs = allowed_globs(config, change.author) if configured and change.author is not None else ()
    return WriteOutsideInbox(author, configured, known.role if known is not None else "?", tuple(globs),
                             _authors_section(config), change.status, change.path, change.old_path,
                             change.commit, change.range, None if configured else config.unconfigured_base)
