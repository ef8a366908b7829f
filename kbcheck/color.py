"""Whether to colour output: `--color auto|always|never`, `NO_COLOR` and `FORCE_COLOR`.

`auto` follows the conventions of no-color.org and force-color.org: a
non-empty `NO_COLOR` turns colour off, a non-empty `FORCE_COLOR` turns it on
(NO_COLOR wins when both are set), and otherwise a terminal that is not `dumb`
gets colour. An explicit `always` or `never` wins over the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

CHOICES = ("auto", "always", "never")


def _set(env: Mapping[str, str], name: str) -> bool:
    return bool(env.get(name, ""))


def plain_terminal(env: Mapping[str, str] | None = None) -> bool:
    """A terminal that asked for plain output: `TERM=dumb` or `NO_COLOR`."""
    env = os.environ if env is None else env
    return env.get("TERM") == "dumb" or _set(env, "NO_COLOR")


def use_color(choice: str, stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """True when text written to `stream` should carry ANSI colour."""
    env = os.environ if env is None else env
    if choice == "always":
        return True
    if choice == "never" or _set(env, "NO_COLOR"):
        return False
    if _set(env, "FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
