"""Who is writing, and where they may write (`docs/configuration.md`).

An author is a slug under `[authors]` with emails and a role; a role is a
list of gitignore-style globs in which `{author}` stands for the slug.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from kbcheck.globs import matches

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Repository

AUTHOR_ENV = "KBCHECK_AUTHOR"
_GLOB_SPECIAL = re.compile(r"([*?\[\]\\!])")


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
    """The configured author whose `emails` contains this email (ignoring case), or None."""
    if not email:
        return None
    wanted = email.strip().casefold()
    for slug, author in config.authors.items():
        if any(wanted == known.strip().casefold() for known in author.emails):
            return slug
    return None


def _commit_email(repo: Repository) -> tuple[str | None, str]:
    """The email git will record as the next commit's author, and where it came from.

    Normally `git config user.email`; git itself prefers GIT_AUTHOR_EMAIL and
    `author.email`, so a run agrees with what CI will later see in the commit.
    """
    from kbcheck.git import config_value

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
    from kbcheck.git import config_value

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
            return None, f"{value.strip()} (from {source}; no such author)"
    email, source = _commit_email(repo)
    if email is None:
        return None, f"unknown ({source} is not set)"
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
