"""An argument parser that answers a misspelled flag or subcommand with "did you mean".

argparse (before 3.14) names neither the flag nor the subcommand a typo was
probably meant to be; this parser adds the closest known spelling to its
one-line error, as git and ruff do.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from kbcheck.regex import lazy

_UNRECOGNIZED = lazy(r"unrecognized arguments: (.*)")
_INVALID_CHOICE = lazy(r"invalid choice: '([^']*)'")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser's subcommands by name (none for a parser without)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> list[str]:
    """Every long option of the parser and of its subcommands."""
    found = [opt for action in parser._actions for opt in action.option_strings if opt.startswith("--")]
    for sub in _subcommands(parser).values():
        found.extend(_options(sub))
    return sorted(set(found))


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    found: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.choices:
            found.extend(str(choice) for choice in action.choices or ())
    return found


def _command_of(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser | None:
    """The innermost subcommand the arguments name (`baseline update`), or None for none."""
    found = None
    commands = _subcommands(parser)
    for word in argv:
        if word in commands:
            found = commands[word]
            commands = _subcommands(found)
    return found


def _owners(parser: argparse.ArgumentParser, flag: str) -> list[str]:
    """The subcommands that have this flag (`kbcheck suggest` for `--top`)."""
    return [sub.prog for sub in _subcommands(parser).values() if flag in _options(sub)]


def suggestion(parser: argparse.ArgumentParser, message: str, root: argparse.ArgumentParser | None = None) -> str:
    """`; did you mean --staged?` for a message about a typo (the spellings the parser knows), or
    where the flag belongs when another subcommand of `root` has it; else ``."""
    m = _UNRECOGNIZED.search(message)
    if m:
        for word in m.group(1).split():
            if word.startswith("-"):
                flag = word.split("=", 1)[0]
                owners = _owners(root, flag) if root is not None else []
                if owners:  # a flag of another subcommand, spelled right
                    return f"; {flag} is an option of {', '.join(f'`{o}`' for o in owners)}"
                close = difflib.get_close_matches(flag, _options(parser), n=1, cutoff=0.6)
                if close and close[0] != flag:
                    return f"; did you mean {close[0]}?"
        return ""
    m = _INVALID_CHOICE.search(message)
    if m:
        close = difflib.get_close_matches(m.group(1), _choices(parser), n=1, cutoff=0.6)
        if close:
            return f"; did you mean '{close[0]}'?"
    return ""


class ArgumentParser(argparse.ArgumentParser):
    """`argparse.ArgumentParser` whose usage errors suggest the closest flag or subcommand.

    A flag no subcommand knows is reported by the top parser (argparse collects the leftovers
    there): the error is said with the usage of the subcommand the arguments name, and the
    spellings that subcommand knows."""

    _argv: Sequence[str] = ()

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        command = _command_of(self, self._argv) if _UNRECOGNIZED.search(message) else None
        if command is not None:
            command.print_usage(sys.stderr)
            command.exit(2, f"{command.prog}: error: {message}{suggestion(command, message, self)}\n")
        super().error(message + suggestion(self, message))
