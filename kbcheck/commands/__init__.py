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

from kbcheck.errors import KbcheckError, UsageError

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Repository


def run_command(command: Callable[[], int], out: TextIO, err: TextIO) -> int:
    """Run one command; an error becomes one `kbcheck: error: …` line on `err` (in the language of
    the command's messages, once it knows it) and its exit status."""
    from kbcheck.i18n import MESSAGE_LANG, _, say

    token = MESSAGE_LANG.set("en")
    try:
        status = int(command())
        out.flush()
        return status
    except KbcheckError as exc:
        print(error_line(exc, MESSAGE_LANG.get()), file=err)
        return exc.exit_code
    except KeyboardInterrupt:
        print(say(_("kbcheck: interrupted"), MESSAGE_LANG.get()), file=err)
        return 130
    except BrokenPipeError:  # output cut short before the command knew its status
        discard_output(out)
        return 1
    except Exception as exc:
        if os.environ.get("KBCHECK_DEBUG"):
            raise
        print(say(_("kbcheck: internal error: {error}: {reason} (set KBCHECK_DEBUG=1 for details)",
                    error=type(exc).__name__, reason=str(exc)), MESSAGE_LANG.get()), file=err)
        return 2
    finally:
        MESSAGE_LANG.reset(token)


def error_line(exc: KbcheckError, lang: str) -> str:
    """`kbcheck: error: …` on one line, said in `lang` when its message can be."""
    if lang == "en":
        return f"kbcheck: error: {one_line(str(exc))}"
    from kbcheck.i18n import _, say

    return say(_("kbcheck: error: {message}", message=one_line(exc.where + say(exc.message, lang))), lang)


def one_line(text: str) -> str:
    """A notice or an error on one line, even when it names a file whose name holds a line break;
    the bytes of a name that is not UTF-8 are written as git writes them (`\\351`)."""
    from kbcheck.printable import for_terminal, undecodable_as_octal

    text = text.replace("\r", "\\r").replace("\n", "\\n")
    return for_terminal(undecodable_as_octal(text))


def notify(lines: Sequence[str], err: TextIO, lang: str = "en") -> None:
    """Each notice as one `kbcheck: …` line on `err`, said in `lang`."""
    from kbcheck.i18n import say

    for line in lines:
        print(f"kbcheck: {one_line(say(line, lang))}", file=err)


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


def configuration(repo: Repository, config_file: str | None, overrides: Sequence[str] = ()) -> Config:
    """The repository's validated configuration (`--config FILE`, else `.kbcheck.toml`), with the
    command line's `--config 'key = value'` overrides."""
    from kbcheck.config import load_config

    return load_config(repo.root, config_file, overrides)


def message_lang(requested: str | None, config: Config | None) -> str:
    """The language of this command's messages: `--lang`, else the configuration's (English unless it
    sets `lang`). Errors raised from now on are said in it (`run_command`)."""
    from kbcheck.i18n import MESSAGE_LANG

    lang = checked_lang(requested, "--lang") if requested else (config.message_lang if config else "en")
    MESSAGE_LANG.set(lang)
    return lang


def checked_lang(value: str, where: str) -> str:
    """`value` when it is a language kbcheck speaks; else a UsageError naming the ones it does."""
    from kbcheck.i18n import LANGS, _

    if value not in LANGS:
        raise UsageError(_("unknown language {value} for {where}; choose one of: {langs}", value=repr(value), where=where,
                           langs=", ".join(LANGS)))
    return value


__all__ = ["checked_lang", "configuration", "discard_output", "error_line", "message_lang", "notify", "one_line",
           "repository", "run_command"]
