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
from typing import TYPE_CHECKING

from kbcheck.authors import allowed_globs, may_write
from kbcheck.findings import Problem
from kbcheck.i18n import _, listing

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Change

ID = "KB007"
NAME = "write-outside-inbox"
SEVERITY = "error"
KINDS = ()


def _what(change: Change) -> str:
    if change.commit:
        actor = _("commit {sha}", sha=change.commit[:12])
    elif change.range:
        actor = _("the change {range}", range=change.range)
    else:
        actor = _("the staged change")
    if change.status == "R" and change.old_path is not None:
        return _("{actor} renames {old} to {path}", actor=actor, old=change.old_path, path=change.path)
    if change.status == "A":
        return _("{actor} adds {path}", actor=actor, path=change.path)
    if change.status == "M":
        return _("{actor} modifies {path}", actor=actor, path=change.path)
    if change.status == "D":
        return _("{actor} deletes {path}", actor=actor, path=change.path)
    return _("{actor} changes {path}", actor=actor, path=change.path)


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
                if config.unconfigured_base is not None:
                    message: str = _unconfigured_message(config.unconfigured_base, change)
                else:
                    message = _("author {author} is not configured in {section}; add it or set allow-unknown-authors ({what})",
                                author=change.author_label, section=_authors_section(config), what=_what(change))
            else:
                if may_write(config, change.author, side):
                    continue
                key = (change.author, side)
                message = _outside_message(config, change)
            if key in seen:
                continue
            seen.add(key)
            yield Problem(path=side, line=1, column=1, message=message, subject=side, file_level=True)


def _unconfigured_message(base: str, change: Change) -> str:
    """The change that adopts kbcheck: the trusted side has no configuration, so it names no author."""
    return _("{base}, the trusted side of this change, has no kbcheck configuration, so it names no author "
             "({author}) who may write; a maintainer commits .kbcheck.toml there first, on its own "
             "(docs/adopting.md, the first commit) ({what})",
             base=base[:12] if len(base) == 40 else base, author=change.author_label, what=_what(change))


def _outside_message(config: Config, change: Change) -> str:
    assert change.author is not None
    author = config.authors.get(change.author)
    role = author.role if author is not None else "?"
    globs = allowed_globs(config, change.author)
    if not globs:
        return _("{author} (role {role}) may write nothing: role '{role}' has no globs in [roles]; {what}",
                 author=change.author, role=role, what=_what(change))
    return _("{author} (role {role}) may write only {globs}; {what}",
             author=change.author, role=role, globs=listing(globs), what=_what(change))
