"""`--format full`: the text format with each finding's source lines under it, as ruff's `full` shows them.

    organized/knowledge/a.md:4:8: KB005 unverified number: 2.7x is not sourced …
      |
    3 | ## Speed
    4 | - Decoding got 2.7x faster
      |                ^
      |

The line before the finding's first line is shown for context, and at most
`MAX_LINES` of the finding itself. The caret stands under the column counted
in display cells (a CJK character is two). A finding about the whole file,
or one whose file cannot be read, is its line alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TextIO

from kbcheck.printable import cells, for_terminal
from kbcheck.reporters.text import format_finding, write_summary

if TYPE_CHECKING:
    from kbcheck.findings import Finding, Report
    from kbcheck.rules.base import Rule

#: how many lines of one finding are shown
MAX_LINES = 5
#: how much of a long line is shown
MAX_WIDTH = 200


def context(finding: Finding, lines: list[str]) -> list[str]:
    """The source lines shown under a finding, with a gutter of line numbers and a caret."""
    if finding.file_level or not 1 <= finding.line <= len(lines):
        return []
    first = max(1, finding.line - 1)
    last = min(len(lines), finding.end_line or finding.line, finding.line + MAX_LINES - 1)
    width = len(str(last))
    gutter = " " * width + " |"
    out = [gutter]
    for number in range(first, last + 1):
        text = for_terminal(lines[number - 1].expandtabs(4)[:MAX_WIDTH])
        out.append(f"{number:>{width}} | {text}".rstrip())
        if number == finding.line:
            before = lines[number - 1][:max(0, finding.column - 1)].expandtabs(4)
            out.append(f"{gutter} {' ' * cells(before)}^")
    out.append(gutter)
    return out


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *, color: bool = False,
           source: Callable[[int], list[str] | None], lang: str = "en", quiet: bool = False) -> None:
    """Each finding with its source lines (`source(i)`: the lines of the i-th finding's file, None
    when it cannot be read), then the summary as the text format writes it."""
    for index, finding in enumerate(report.findings):
        out.write(format_finding(finding, color=color) + "\n")
        lines = source(index)
        for line in context(finding, lines) if lines is not None else ():
            out.write(line + "\n")
    if not quiet:
        write_summary(report, out, color=color, lang=lang)
