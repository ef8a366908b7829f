"""The files kbcheck itself reads and writes in the working tree: the baseline, `--output`, a manifest.

The repository is not trusted to point anywhere safe: a committed symlink
(`.kbcheck -> ../elsewhere`), a FIFO or a device where a file is expected,
or a configured path into `.git` must not make kbcheck write outside the
working tree, overwrite git's own files, or read forever. So a path taken
from the configuration goes through no symlink and stays out of the git
directory, and only regular files are opened (never blocking on a FIFO).

Writes are atomic (a temporary file in the same folder, then `os.replace`),
and the temporary file is removed when the run is interrupted, by SIGINT or
SIGTERM, before it is complete.
"""

from __future__ import annotations

import os
import signal
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from kbcheck.errors import KbcheckError, UsageError
from kbcheck.i18n import _

if TYPE_CHECKING:
    from kbcheck.git import Repository

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the run stands so that clean-up runs as for Ctrl-C."""


def _contents(fd: int) -> bytes | None:
    """All the bytes of an open file when it is a regular one; None for anything else.
    OSError when reading fails."""
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        return None
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def regular_bytes(path: Path) -> bytes | None:
    """A regular file's bytes; None for anything else (missing, a folder, a FIFO, a device, a
    symlink), which is never read: opening a FIFO without `O_NONBLOCK` waits for a writer."""
    try:
        fd = os.open(path, _READ_FLAGS | _NOFOLLOW)
    except OSError:
        return None
    try:
        return _contents(fd)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_regular(path: Path, what: str, *, follow: bool = False) -> bytes | None:
    """The bytes of a regular file; None when nothing is there.

    A FIFO, a device, a folder or (unless `follow`, for a file named on the
    command line) a symlink is a `KbcheckError` naming `what`.
    """
    try:
        fd = os.open(path, _READ_FLAGS | (0 if follow else _NOFOLLOW))
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise KbcheckError(_("{what} is a symlink; kbcheck reads only a regular file there", what=what)) from None
        if os.path.isdir(path):
            raise KbcheckError(_("{what} is a folder, not a file", what=what)) from None
        raise KbcheckError(_("cannot read {what}: {reason}", what=what, reason=exc.strerror or str(exc))) from None
    try:
        data = _contents(fd)
    except OSError as exc:
        raise KbcheckError(_("cannot read {what}: {reason}", what=what, reason=exc.strerror or str(exc))) from None
    finally:
        os.close(fd)
    if data is None:
        raise KbcheckError(_("{what} is not a regular file", what=what))
    return data


def work_tree_file(repo: Repository, rel: str, what: str) -> Path:
    """`rel` under the working tree, refused when a folder on the way is a symlink or it is in git's folder.

    `what` names the setting in messages (e.g. `'baseline' .kbcheck/baseline.json`).
    """
    root = Path(repo.root)
    parts = [part for part in rel.replace("\\", "/").split("/") if part not in ("", ".")]
    if not parts or ".." in parts:
        raise KbcheckError(_("{what} must be a path inside the working tree", what=what))
    here = root
    for number, part in enumerate(parts):
        here = here / part
        try:
            info = os.lstat(here)
        except FileNotFoundError:
            break  # the rest does not exist yet: it will be made as real folders
        except OSError as exc:
            raise KbcheckError(_("cannot use {what}: {reason}", what=what, reason=exc.strerror or str(exc))) from None
        if stat.S_ISLNK(info.st_mode):
            through = "/".join(parts[: number + 1])
            if number == len(parts) - 1:
                raise KbcheckError(_("{what} is a symlink; kbcheck reads and writes only a regular file there", what=what))
            raise KbcheckError(_("{what} goes through the symlink {through}; "
                                 "kbcheck reads and writes only real folders of the working tree", what=what, through=through))
    if is_in_git_dir(repo, root / "/".join(parts)):
        raise KbcheckError(_("{what} is inside the git directory", what=what))
    return root.joinpath(*parts)


def output_file(repo: Repository, name: str) -> Path:
    """`--output NAME`, from the current folder, checked before the run: in the working tree it goes
    through no symlink and stays out of `.git`; outside it (a CI runner's summary file) it is the
    caller's own choice. Missing folders are made when it is written (`atomic_file`)."""
    output = Path(os.path.abspath(name))
    if output.is_dir():
        raise UsageError(_("cannot write {name}: it is a folder", name=name))
    for folder in output.parents:
        if folder.exists():
            if not folder.is_dir():
                raise UsageError(_("cannot write {name}: {folder} is a file, not a folder", name=name,
                                   folder=str(folder)))
            break
    if is_in_git_dir(repo, output):
        raise UsageError(_("cannot write {name}: it is inside the git directory", name=name))
    root = Path(repo.root)
    if output == root or root in output.parents:
        return work_tree_file(repo, output.relative_to(root).as_posix(), f"--output {name}")
    return output


def is_in_git_dir(repo: Repository, path: Path) -> bool:
    """True for a path in (or being) the repository's git directory or its `.git` entry."""
    real = Path(os.path.realpath(path))
    for git_dir in {Path(repo.root) / ".git", Path(repo.git_dir), Path(repo.common_dir)}:
        top = Path(os.path.realpath(git_dir))
        if real == top or top in real.parents:
            return True
    return False


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM raises `Terminated` (in the main thread; elsewhere signals cannot be caught)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(signum: int, frame: FrameType | None) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def temporary_beside(path: Path, suffix: str = ".tmp") -> tuple[int, str]:
    """A new private temporary file in `path`'s folder (open descriptor, name); OSError when there is none."""
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)


def put_in_place(fd: int, temp: str, path: Path, data: bytes, *, mode: int | None = 0o644, sync: bool = True,
                 still: Callable[[], bool] | None = None) -> bool:
    """Fill the temporary file `temp` (open as `fd`) with `data` and rename it over `path`: the one
    atomic write of kbcheck. A reader, a crash or a full disk never leaves half a file.

    `mode` None keeps mkstemp's private mode (the cache); `sync` false skips the fsync (a cache
    entry is only a cache). When `still` answers false just before the rename, nothing is
    written and the answer is False. The temporary file never outlives a failure (an OSError,
    raised again) or a refusal.
    """
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)  # mkstemp makes it private; these files are meant to be shared
        if still is not None and not still():
            os.unlink(temp)
            return False
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return True


def write_replacing(path: Path, data: bytes, **how: Any) -> bool:
    """`put_in_place` through a new temporary file beside `path` (OSError when there is none)."""
    fd, temp = temporary_beside(path, how.pop("suffix", ".tmp"))
    return put_in_place(fd, temp, path, data, **how)


def _cannot_write(path: Path, exc: OSError) -> KbcheckError:
    return KbcheckError(_("cannot write {path}: {reason}", path=str(path), reason=exc.strerror or str(exc)))


class AtomicFile:
    """A file written whole or not at all: `write` fills a temporary file in the target's folder,
    `os.replace` puts it in place. Open it before a long computation, so that the folder is
    known to be writable first; if the run stops before `write`, the temporary file goes."""

    def __init__(self, path: Path, temp: str, fd: int) -> None:
        self.path = path
        self._temp = temp
        self._fd: int | None = fd

    def write(self, data: bytes) -> None:
        fd, self._fd = self._fd, None
        assert fd is not None, "written once"
        try:
            put_in_place(fd, self._temp, self.path, data)
        except OSError as exc:
            raise _cannot_write(self.path, exc) from None

    def discard(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        Path(self._temp).unlink(missing_ok=True)


@contextmanager
def atomic_file(path: Path) -> Iterator[AtomicFile]:
    """An `AtomicFile` at `path`; its temporary file never outlives the block (SIGINT and SIGTERM included)."""
    owner = os.getpid()
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = temporary_beside(path)
    except OSError as exc:
        raise _cannot_write(path, exc) from None
    target = AtomicFile(path, temp, fd)
    try:
        with terminate_as_interrupt():
            yield target
    finally:
        if os.getpid() == owner:  # a forked worker leaves the parent's file alone
            target.discard()


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all (`atomic_file`): a reader never sees half a
    file, and a failure leaves the old file as it was."""
    with atomic_file(path) as target:
        target.write(data)


__all__ = ["AtomicFile", "Terminated", "atomic_file", "is_in_git_dir", "output_file", "read_regular", "regular_bytes",
           "terminate_as_interrupt", "work_tree_file", "write_atomically"]
