"""Who is writing, and where they may write (docs/trust-model.md).

An author is a slug under `[authors]` with e-mails, forge logins and a role;
a role is a list of gitignore-style globs in which `{author}` stands for the
slug. This module decides who each change of a selection is judged as: the
run's author for a staged change, each commit's recorded e-mail in a range,
or the forge's login (`--actor`) for a range's net change.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from kbcheck.errors import UsageError
from kbcheck.git import Repository, config_value
from kbcheck.globs import matches
from kbcheck.i18n import _
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.config import Author, Config
    from kbcheck.sources import Selection

AUTHOR_ENV = "KBCHECK_AUTHOR"
_GLOB_SPECIAL = lazy(r"([*?\[\]\\!])")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def identity_key(text: str) -> str:
    """An e-mail or login as compared: stripped, Unicode NFC, ASCII letters lower-cased.

    No case folding beyond ASCII: folding would make `ſam@` (long s) or a
    Kelvin sign equal to plain letters, so one person could claim another's
    name with a look-alike.
    """
    return unicodedata.normalize("NFC", text.strip()).translate(_ASCII_LOWER)


def configured_slug(config: Config, slug: str) -> str | None:
    """The configured slug matching `slug` (exactly, else ignoring case), or None."""
    slug = slug.strip()
    if slug in config.authors:
        return slug
    folded = slug.casefold()
    for known in config.authors:
        if known.casefold() == folded:
            return known
    return None


def author_for_email(config: Config, email: str | None) -> str | None:
    """The configured author whose `emails` holds this e-mail, or None.

    Compared exactly after Unicode NFC, ignoring the case of ASCII letters
    only: `ſam@` (long s) is not `sam@`, as no mail server would deliver one
    to the other.
    """
    return _author_by(config, email, lambda author: author.emails)


def author_for_login(config: Config, login: str | None) -> str | None:
    """The configured author whose `logins` holds this forge login, or None (compared as e-mails are)."""
    return _author_by(config, login, lambda author: author.logins)


def _author_by(config: Config, identity: str | None, known: Callable[[Author], tuple[str, ...]]) -> str | None:
    if not identity:
        return None
    wanted = identity_key(identity)
    for slug, author in config.authors.items():
        if any(wanted == identity_key(one) for one in known(author)):
            return slug
    return None


def _commit_email(repo: Repository) -> tuple[str | None, str]:
    """The email git will record as the next commit's author, and where it came from.

    Normally `git config user.email`; git itself prefers GIT_AUTHOR_EMAIL and
    `author.email`, so a run agrees with what CI will later see in the commit.
    """
    env = os.environ.get("GIT_AUTHOR_EMAIL", "").strip()
    if env:
        return env, "GIT_AUTHOR_EMAIL"
    for key in ("author.email", "user.email"):
        value = config_value(repo, key)
        if value:
            return value, f"git config {key}"
    return None, "git config user.email"


def resolve_run_author(repo: Repository, config: Config, cli_author: str | None) -> tuple[str | None, str]:
    """The author of a local run: (configured slug or None, label for messages).

    In order: `--author`, the environment variable KBCHECK_AUTHOR, git config
    `kbcheck.author`, else the configured author whose emails contain the
    commit email (`git config user.email`). A slug named explicitly but not
    configured is unknown (it has no role), and its label says so.
    """
    explicit: tuple[tuple[str, Callable[[], str | None]], ...] = (
        ("--author", lambda: cli_author),
        (AUTHOR_ENV, lambda: os.environ.get(AUTHOR_ENV)),
        ("git config kbcheck.author", lambda: config_value(repo, "kbcheck.author")),
    )
    for source, lookup in explicit:
        value = lookup()
        if value and value.strip():
            slug = configured_slug(config, value)
            if slug is not None:
                return slug, slug
            return None, _("{value} (from {source}; no such author)", value=value.strip(), source=source)
    email, source = _commit_email(repo)
    if email is None:
        return None, _("unknown ({source} is not set)", source=source)
    return author_for_email(config, email), email


def allowed_globs(config: Config, slug: str | None) -> tuple[str, ...]:
    """The globs the author may write: its role's globs with `{author}` replaced (none when unknown)."""
    if slug is None:
        return ()
    author = config.authors.get(slug)
    if author is None:
        return ()
    safe = _GLOB_SPECIAL.sub(r"\\\1", slug)
    return tuple(glob.replace("{author}", safe) for glob in config.roles.get(author.role, ()))


def may_write(config: Config, slug: str | None, path: str) -> bool:
    """True when the author's role allows writing this repo-relative path."""
    globs = allowed_globs(config, slug)
    return bool(globs) and matches(globs, path)


def judged_as(repo: Repository, policy: Config, selection: Selection, *,
              cli_author: str | None = None, actor: str | None = None) -> Selection:
    """The selection with each change given the author it is judged as, under `policy`.

    - a staged change: the run's author (`resolve_run_author`), the writer's
      own statement on the writer's own machine;
    - a net change (`--actor`): the author whose `logins` holds the forge's
      login, a name the writer cannot choose;
    - a commit: the author whose `emails` holds the e-mail the commit records.
    """
    if actor is not None and not actor.strip():
        raise UsageError(_("--actor is empty: give the login of the pull request's author"))
    if not selection.changes:
        return selection
    if selection.mode == "staged":
        slug, label = resolve_run_author(repo, policy, cli_author)
        changes = [replace(c, author=slug, author_label=label) for c in selection.changes]
    elif actor is not None:
        slug = author_for_login(policy, actor)
        label = _("login {login}", login=actor.strip())
        changes = [replace(c, author=slug, author_label=label) for c in selection.changes]
    else:
        changes = [
            replace(c, author=author_for_email(policy, c.recorded_author),
                    author_label=c.recorded_author or _("an author with no email"))
            for c in selection.changes
        ]
    return replace(selection, changes=changes)
