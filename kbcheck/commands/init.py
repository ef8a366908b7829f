"""`kbcheck init`: write a commented `.kbcheck.toml` with every default, and the first author."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from kbcheck.commands import notify, repository
from kbcheck.errors import KbcheckError, UsageError
from kbcheck.i18n import _, say

if TYPE_CHECKING:
    from kbcheck.git import Repository
    from kbcheck.layout_detect import Detected
    from kbcheck.snapshots import WorktreeSnapshot


def run_init(role: str | None, force: bool, out: TextIO, err: TextIO) -> int:
    """Write the file in the repository's root (else the current folder), naming the git user as author."""
    from kbcheck.config import DEFAULTS, write_init
    from kbcheck.first_author import first_author
    from kbcheck.git import BareRepositoryError

    root = Path.cwd()
    repo = None
    try:
        repo = repository()
        root = repo.root
    except BareRepositoryError:
        raise UsageError(_("{root} is a bare repository (no working tree): run kbcheck init in a clone's working tree",
                           root=str(root))) from None
    except KbcheckError:
        pass
    author = first_author(repo, role, tuple(DEFAULTS["roles"]))
    snapshot = _snapshot(repo)  # the worktree listed once, for every look below
    detected = _detected(snapshot)
    # the settings found by looking at the notes, each with why: key -> (value, why)
    reasoned = {**link_settings(snapshot), **one_work_settings(snapshot, list(detected.settings.get("guides", [])),
                                                               list(detected.settings.get("knowledge", [])))}
    proposed = {**detected.settings, **{key: value for key, (value, _why) in reasoned.items()}}
    path = write_init(root, force=force, author=author.toml() if author else "", proposed=proposed,
                      found=detected.found, reasons={key: why for key, (_value, why) in reasoned.items()})
    # the report is said in the language found in the notes, which the written file's `lang` now sets
    lang = str(detected.settings.get("lang", "en"))
    lines = [_("wrote {name}: every key with its default; edit [authors] to say who writes where", name=path.name),
             *(_("found: {line}", line=line) for line in detected.found)]
    if author is not None:
        lines.append(_("recorded {email} as author '{slug}' with role {role}", email=author.email, slug=author.slug,
                       role=author.role))
    lines += [_("found {key} = {value}: {why}", key=key, value=str(value), why=why)
              for key, (value, why) in reasoned.items()]
    for line in lines:
        print(say(line, lang), file=out)
    if repo is None:
        notify([_("not in a git repository: wrote {name} in the current folder; the hooks, --staged and "
                  "the digest read git (run git init)", name=path.name)], err)
    return 0


def _snapshot(repo: Repository | None) -> WorktreeSnapshot | None:
    """The repository's tracked files as they are on disk (none outside a repository)."""
    from kbcheck.snapshots import WorktreeSnapshot

    return WorktreeSnapshot(repo) if repo is not None else None


def one_work_settings(snapshot: WorktreeSnapshot | None, guides: list[str],
                      knowledge: list[str]) -> dict[str, tuple[object, str]]:
    """`one-work-notes` for the guide folders whose notes mostly name one work (`kbcheck.one_work_detect`)."""
    if snapshot is None or not guides:
        return {}
    from kbcheck.one_work_detect import one_work_folders

    chosen, why = one_work_folders(snapshot, guides, knowledge)
    return {"one-work-notes": (chosen, why)} if chosen else {}


def link_settings(snapshot: WorktreeSnapshot | None) -> dict[str, tuple[object, str]]:
    """The link settings the repository shows (`kbcheck.links.detect`), key -> (value, why)."""
    if snapshot is None:
        return {}
    from kbcheck.links.detect import detect_links

    return {f.key: (f.value, f.why) for f in detect_links(snapshot, snapshot.repo)}


def _detected(snapshot: WorktreeSnapshot | None) -> Detected:
    """What the repository's tracked notes suggest (nothing outside a repository)."""
    from kbcheck.layout_detect import Detected, detect

    return detect(snapshot.root, sorted(snapshot.paths())) if snapshot is not None else Detected()


__all__ = ["run_init"]
