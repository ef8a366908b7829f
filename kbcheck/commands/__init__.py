"""The commands of kbcheck, one module each: typed options in, an exit status out.

A command writes only to the `out` and `err` streams it is given, so the
command line, the demo and the tests run the same code. `run_command` is the
one place that turns an error into its one-line message and exit status.
Heavy modules are imported inside the commands that need them: a hook with
nothing to check, or `kbcheck --version`, does not pay for them.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from kbcheck.errors import KbcheckError

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Repository


def run_command(command: Callable[[], int], out: TextIO, err: TextIO) -> int:
    """Run one command; an error becomes one `kbcheck: error: …` line on `err` and its exit status."""
    try:
        status = int(command())
        out.flush()
        return status
    except KbcheckError as exc:
        print(f"kbcheck: error: {one_line(str(exc))}", file=err)
        return exc.exit_code
    except KeyboardInterrupt:
        print("kbcheck: interrupted", file=err)
        return 130
    except BrokenPipeError:  # output cut short before the command knew its status
        discard_output(out)
        return 1
    except Exception as exc:
        if os.environ.get("KBCHECK_DEBUG"):
            raise
        print(f"kbcheck: internal error: {type(exc).__name__}: {exc} (set KBCHECK_DEBUG=1 for details)", file=err)
        return 2


def one_line(text: str) -> str:
    """A notice or an error on one line, even when it names a file whose name holds a line break;
    the bytes of a name that is not UTF-8 are written as git writes them (`\\351`)."""
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    if any("\udc80" <= ch <= "\udcff" for ch in text):
        text = "".join(f"\\{ord(ch) - 0xDC00:03o}" if "\udc80" <= ch <= "\udcff" else ch for ch in text)
    return text


def notify(lines: Sequence[str], err: TextIO) -> None:
    """Each notice as one `kbcheck: …` line on `err`."""
    for line in lines:
        print(f"kbcheck: {one_line(line)}", file=err)


def discard_output(stream: TextIO) -> None:
    """After the reader of `stream` went away: send what is still buffered to nowhere, so the
    interpreter's last flush does not fail and replace the exit status (as the Python docs advise)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # not a file descriptor (a test's buffer): nothing will flush it at exit


def repository(paths: Sequence[str] = ()) -> Repository:
    """The repository of the first named path (so a run from outside finds it), else of the current folder."""
    from kbcheck.git import open_repository
    from kbcheck.paths import search_start

    return open_repository(search_start(paths, Path.cwd()))


def configuration(repo: Repository, config_file: str | None) -> Config:
    """The repository's validated configuration (`--config FILE`, else `.kbcheck.toml`)."""
    from kbcheck.config import load_config

    return load_config(repo.root, config_file)


__all__ = ["configuration", "discard_output", "notify", "one_line", "repository", "run_command"]
