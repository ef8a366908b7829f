"""An argument parser that answers a misspelled flag or subcommand with "did you mean".

argparse (before 3.14) names neither the flag nor the subcommand a typo was
probably meant to be; this parser adds the closest known spelling to its
one-line error, as git and ruff do.
"""

from __future__ import annotations

import argparse
import difflib
from typing import NoReturn

from kbcheck.regex import lazy

_UNRECOGNIZED = lazy(r"unrecognized arguments: (.*)")
_INVALID_CHOICE = lazy(r"invalid choice: '([^']*)'")


def _options(parser: argparse.ArgumentParser) -> list[str]:
    """Every long option of the parser and of its subcommands."""
    found: list[str] = []
    for action in parser._actions:
        found.extend(opt for opt in action.option_strings if opt.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found.extend(_options(sub))
    return sorted(set(found))


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    found: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.choices:
            found.extend(str(choice) for choice in action.choices or ())
    return found


def suggestion(parser: argparse.ArgumentParser, message: str) -> str:
    """` (did you mean --staged?)` for a message about a typo, else ``."""
    m = _UNRECOGNIZED.search(message)
    if m:
        for word in m.group(1).split():
            if word.startswith("-"):
                flag = word.split("=", 1)[0]
                close = difflib.get_close_matches(flag, _options(parser), n=1, cutoff=0.6)
                if close:
                    return f"; did you mean {close[0]}?"
        return ""
    m = _INVALID_CHOICE.search(message)
    if m:
        close = difflib.get_close_matches(m.group(1), _choices(parser), n=1, cutoff=0.6)
        if close:
            return f"; did you mean '{close[0]}'?"
    return ""


class ArgumentParser(argparse.ArgumentParser):
    """`argparse.ArgumentParser` whose usage errors suggest the closest flag or subcommand."""

    def error(self, message: str) -> NoReturn:
        super().error(message + suggestion(self, message))
