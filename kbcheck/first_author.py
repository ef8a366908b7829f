"""`kbcheck init` names its first author: the git user who runs it.

Without an `[authors]` entry, the first commit after `kbcheck init` fails
KB007 for its own author (a committer missing from `[authors]`), so init
records the current git user: as maintainer in a knowledge base that has no
authors yet, or in the role `--role` names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.errors import UsageError
from kbcheck.i18n import _
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.git import Repository

_IDENT = lazy(r"^(.*?)\s*<([^>]*)>")
_NOT_SLUG = lazy(r"[\s/\\*?\[\]!{}\"'.]+")


@dataclass(frozen=True)
class FirstAuthor:
    slug: str
    email: str
    role: str

    def toml(self) -> str:
        """The `[authors.<slug>]` table init appends to `.kbcheck.toml`."""
        return (f"\n[authors.{json.dumps(self.slug, ensure_ascii=False)}]\n"
                f"emails = [{json.dumps(self.email, ensure_ascii=False)}]\n"
                f"role = {json.dumps(self.role)}\n")


def slug_for(name: str, email: str) -> str:
    """A folder-safe slug: the user name lower-cased with runs of spaces and punctuation as `-`
    (CJK names are kept as they are), else the e-mail's local part."""
    for text in (name, email.split("@", 1)[0]):
        slug = _NOT_SLUG.sub("-", text.strip().lower()).strip("-")
        if slug:
            return slug
    return "me"


def git_user(repo: Repository) -> tuple[str, str] | None:
    """`user.name` and `user.email` as git would commit with them, or None when unset."""
    from kbcheck import git
    from kbcheck.errors import KbcheckError

    try:  # what the next commit would carry: GIT_AUTHOR_* and the config, as git resolves them
        status, raw = git.run(repo, "var", "GIT_AUTHOR_IDENT", check=False)
    except KbcheckError:
        return None
    m = _IDENT.match(raw.decode("utf-8", "replace").strip())
    if status != 0 or m is None or not m.group(2).strip():
        return None
    return m.group(1).strip(), m.group(2).strip()


def first_author(repo: Repository | None, role: str | None, roles: tuple[str, ...]) -> FirstAuthor | None:
    """Who init records, or None outside a repository or without a git e-mail."""
    if role is not None and role not in roles:
        raise UsageError(_("unknown role '{role}'; the default [roles] are {roles}", role=role, roles=", ".join(roles)))
    user = git_user(repo) if repo is not None else None
    if user is None:
        return None
    name, email = user
    return FirstAuthor(slug_for(name, email), email.lower(), role or "maintainer")
