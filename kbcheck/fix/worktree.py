"""Read and replace files in the work tree, only while they hold exactly what was checked.

Fixes never touch the index: what is staged stays as the writer staged it,
and the fixed file shows up as an unstaged change to review, as pre-commit's
fixing hooks leave theirs.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

from kbcheck.files import regular_bytes, terminate_as_interrupt
from kbcheck.i18n import _


def blob_id(data: bytes, object_format: str) -> str:
    """The id git gives these bytes as a blob (`git hash-object`)."""
    hasher = hashlib.sha256 if object_format == "sha256" else hashlib.sha1
    return hasher(b"blob %d\0" % len(data) + data).hexdigest()


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
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".kbcheck-fix")
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        with terminate_as_interrupt():
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, mode)
            if tracked_bytes(root, path) != expected:  # changed while we fixed: leave the writer's version
                os.unlink(temp)
                return _("the file changed while it was being fixed")
            os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        return exc.strerror or str(exc)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return None
