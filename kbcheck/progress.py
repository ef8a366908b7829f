"""A progress line for long runs: files done / total and the rate, on a terminal only.

Pipes, CI logs, `--quiet` and plain terminals (`TERM=dumb`, `NO_COLOR`) get
nothing. The line is drawn by tqdm (imported only when a line is shown) and
appears only once a run has taken `DELAY` seconds, so quick hook runs stay
silent. The engine sees only the small `Progress` protocol.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from kbcheck.color import plain_terminal

if TYPE_CHECKING:
    from collections.abc import Mapping

#: seconds a run must take before its progress line appears
DELAY = 1.0
#: seconds between redraws
MININTERVAL = 0.2


class Progress(Protocol):
    """What the engine reports to: the number of files once, then each file done."""

    def start(self, total: int) -> None: ...

    def advance(self, count: int = 1) -> None: ...

    def close(self) -> None: ...


class Silent:
    """No progress line (a pipe, CI, `--quiet`)."""

    def start(self, total: int) -> None:
        pass

    def advance(self, count: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


class Bar:
    """A tqdm line on `stream`, cleared when the run ends."""

    def __init__(self, stream: TextIO, description: str) -> None:
        self.stream = stream
        self.description = description
        self._bar: Any = None

    def start(self, total: int) -> None:
        from tqdm import tqdm

        self.close()
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            columns = 0
        # a terminal that reports no size (a bare pseudo-terminal) would get an empty line
        self._bar = tqdm(total=total, desc=self.description, unit="file", file=self.stream,
                         ncols=None if columns else 80, delay=DELAY, leave=False,
                         mininterval=MININTERVAL, miniters=1)

    def advance(self, count: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(count)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def wanted(stream: TextIO, *, quiet: bool = False, env: Mapping[str, str] | None = None) -> bool:
    """A progress line only on a terminal that did not ask for plain output, and not with `--quiet`."""
    if quiet or plain_terminal(os.environ if env is None else env):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def progress_for(stream: TextIO, description: str, *, quiet: bool = False) -> Progress:
    """The progress a command reports to: a `Bar` when `wanted`, else `Silent`."""
    return Bar(stream, description) if wanted(stream, quiet=quiet) else Silent()


_current: list[Progress] = []


def current() -> Progress | None:
    """The progress a command set up with `showing` (the digest and the baseline run the
    engine several calls down; this saves threading it through every one)."""
    return _current[-1] if _current else None


class showing:
    """`with showing(progress):` engine runs inside report to `progress`."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress

    def __enter__(self) -> Progress:
        _current.append(self.progress)
        return self.progress

    def __exit__(self, *exc: object) -> None:
        _current.pop()
        self.progress.close()
