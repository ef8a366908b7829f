"""Read and replace files in the work tree, only while they hold exactly what was checked.

Fixes never touch the index: what is staged stays as the writer staged it,
and the fixed file shows up as an unstaged change to review, as pre-commit's
fixing hooks leave theirs.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kbcheck.files import regular_bytes, write_replacing


def tracked_bytes(root: Path, path: str) -> bytes | None:
    """A regular file's bytes, never through a symlink (the file or a folder leading to it); else None."""
    target = root / path
    real_root = os.path.realpath(root)
    if not os.path.realpath(target.parent).startswith(real_root.rstrip(os.sep) + os.sep) and \
            os.path.realpath(target.parent) != real_root:
        return None
    return regular_bytes(target)


def replace_if_unchanged(root: Path, path: str, expected: bytes, data: bytes) -> bool:
    """Write `data` over `path` atomically, keeping its mode; False (and nothing written) when the
    file no longer holds `expected` bytes.

    The new content goes to a temporary file beside it, synced, then renamed
    over the old one: a reader, a crash or a full disk never leaves half a file.
    """
    target = root / path
    try:
        mode = stat.S_IMODE(os.lstat(target).st_mode)
        # changed while we fixed: the writer's version is left as it is
        return write_replacing(target, data, mode=mode, suffix=".kbcheck-fix",
                               still=lambda: tracked_bytes(root, path) == expected)
    except OSError:
        return False
