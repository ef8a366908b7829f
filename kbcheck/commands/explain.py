"""`kbcheck explain KBnnn|NAME`: what a rule catches, why, examples, the fix and how to suppress it."""

from __future__ import annotations

from typing import TextIO


def run_explain(rule: str, out: TextIO, lang: str | None = None) -> int:
    """The rule's documentation in `lang` (else the configuration's language of messages, English
    outside a knowledge base); rendered and coloured on a terminal, its markdown otherwise."""
    from kbcheck.color import use_color
    from kbcheck.commands import configuration, message_lang, repository
    from kbcheck.errors import KbcheckError
    from kbcheck.explain_render import explain
    from kbcheck.rules import find_rule

    config = None
    if lang is None:
        try:
            config = configuration(repository(), None)
        except KbcheckError:
            pass  # outside a knowledge base, or its configuration is broken: English
    said_in = message_lang(lang, config)
    on_terminal = out.isatty()
    out.write(explain(find_rule(rule), rendered=on_terminal, color=on_terminal and use_color("auto", out),
                      lang=said_in))
    return 0


__all__ = ["run_explain"]
