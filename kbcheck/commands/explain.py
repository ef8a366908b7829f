"""`kbcheck explain KBnnn|NAME`: what a rule catches, why, examples, the fix and how to suppress it."""

from __future__ import annotations

from typing import TextIO


def run_explain(rule: str, out: TextIO) -> int:
    """The rule's documentation; rendered and coloured on a terminal, its markdown otherwise."""
    from kbcheck.color import use_color
    from kbcheck.explain_render import explain, find_rule

    on_terminal = out.isatty()
    out.write(explain(find_rule(rule), rendered=on_terminal, color=on_terminal and use_color("auto", out)))
    return 0


__all__ = ["run_explain"]
