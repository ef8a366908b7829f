"""Read and replace files in the work tree, only while they hold exactly what was checked.

Fixes never touch the index: what is staged stays as the writer staged it,
and the fixed file shows up as an unstaged change to review, as pre-commit's
fixing hooks leave theirs.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kbcheck.files import regular_bytes, terminate_as_interrupt, write_replacing
from kbcheck.i18n import _


def tracked_bytes(root: Path, path: str) -> bytes | None:
    """A regular file's bytes, never through a symlink (the file or a folder leading to it); else None."""
    target = root / path
    real_root = os.path.realpath(root)
    if not os.path.realpath(target.parent).startswith(real_root.rstrip(os.sep) + os.sep) and \
            os.path.realpath(target.parent) != real_root:
        return None
    return regular_bytes(target)


def replace_if_unchanged(root: Path, path: str, expected: bytes, data: bytes) -> str | None:
    """Write `data` over `path` atomically, keeping its mode; None once written, else why nothing
    was: the file is read-only, no longer holds `expected` bytes, or could not be written (the
    system's reason, such as "No space left on device").

    The new content goes to a temporary file beside it, synced, then renamed
    over the old one: a reader, a crash or a full disk never leaves half a file,
    and an interrupted run (SIGINT, SIGTERM) removes its temporary file. A
    rename would replace a file its owner made read-only: such a file is left alone.
    """
    target = root / path
    try:
        mode = stat.S_IMODE(os.lstat(target).st_mode)
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
            return _("the file is read-only")
        with terminate_as_interrupt():
            # changed while we fixed: the writer's version is left as it is
            if not write_replacing(target, data, mode=mode, suffix=".kbcheck-fix",
                                   still=lambda: tracked_bytes(root, path) == expected):
                return _("the file changed while it was being fixed")
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
