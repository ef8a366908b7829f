"""The one user-facing error type.

Every boundary (git, TOML, YAML, bytes to text, command line) turns its
failures into a `KbcheckError`; `cli.main` prints its one-line message to
stderr and exits 2. Nothing inside kbcheck has to guess what went wrong.
"""

from __future__ import annotations


class KbcheckError(Exception):
    """A failure the user can act on: bad configuration, bad revision, bad path."""

    exit_code = 2

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.path = path
        self.line = line
        #: as raised: a message built with `kbcheck.i18n._` can be said in the run's language
        self.message = message
        #: `path:line: ` before the message, "" when the error names no file
        self.where = ""
        if path is not None:
            self.where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(f"{self.where}{message}")


class ConfigError(KbcheckError):
    """The configuration file or a command-line option is invalid."""


class PolicyError(ConfigError):
    """The configuration of the trusted side of a change (`kbcheck.policy`) is missing or invalid."""


class GitError(KbcheckError):
    """Git refused: not a repository, unknown revision, missing object."""


class UsageError(KbcheckError):
    """The command line asks for something impossible."""
