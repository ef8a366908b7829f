"""`kbcheck init`: write a commented `.kbcheck.toml` with every default, and the first author."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from kbcheck.commands import repository
from kbcheck.errors import KbcheckError, UsageError
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.git import Repository
    from kbcheck.layout_detect import Detected


def run_init(role: str | None, force: bool, out: TextIO) -> int:
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
    detected = _detected(repo)
    # the settings found by looking at the notes, each with why: key -> (value, why)
    reasoned = {**link_settings(repo), **one_work_settings(repo, list(detected.settings.get("guides", [])),
                                                           list(detected.settings.get("knowledge", [])))}
    proposed = {**detected.settings, **{key: value for key, (value, _why) in reasoned.items()}}
    path = write_init(root, force=force, author=author.toml() if author else "", proposed=proposed,
                      found=detected.found, reasons={key: why for key, (_value, why) in reasoned.items()})
    print(f"wrote {path.name}: every key with its default; edit [authors] to say who writes where", file=out)
    for line in detected.found:
        print(f"found: {line}", file=out)
    if author is not None:
        print(f"recorded {author.email} as author '{author.slug}' with role {author.role}", file=out)
    for key, (value, why) in reasoned.items():
        print(f"found {key} = {value}: {why}", file=out)
    return 0


def one_work_settings(repo: Repository | None, guides: list[str], knowledge: list[str]) -> dict[str, tuple[object, str]]:
    """`one-work-notes` for the guide folders whose notes mostly name one work (`kbcheck.one_work_detect`)."""
    if repo is None or not guides:
        return {}
    from kbcheck.one_work_detect import one_work_folders

    chosen, why = one_work_folders(repo, guides, knowledge)
    return {"one-work-notes": (chosen, why)} if chosen else {}


def link_settings(repo: Repository | None) -> dict[str, tuple[object, str]]:
    """The link settings the repository shows (`kbcheck.links.detect`), key -> (value, why)."""
    if repo is None:
        return {}
    from kbcheck.links.detect import detect_links
    from kbcheck.snapshots import WorktreeSnapshot

    return {f.key: (f.value, f.why) for f in detect_links(WorktreeSnapshot(repo), repo)}


def _detected(repo: Repository | None) -> Detected:
    """What the repository's tracked notes suggest (nothing outside a repository)."""
    from kbcheck.git import ls_index
    from kbcheck.layout_detect import Detected, detect

    return detect(repo.root, sorted(ls_index(repo))) if repo is not None else Detected()


__all__ = ["run_init"]
