"""The default format: one `path:line:col: RULE message` line per finding, then a summary.

Colour (ANSI) only when asked for: the CLI asks on a TTY without NO_COLOR.
Notices are not printed here; the CLI writes them to stderr.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from kbcheck.findings import Finding, Report
    from kbcheck.rules.base import Rule

_RESET = "\033[0m"
_BOLD = "\033[1m"
_SEVERITY_COLOR = {"error": "\033[1;31m", "warning": "\033[1;33m"}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r'[\x00-\x1f\x7f"\\]')
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}


def display_path(path: str) -> str:
    """The path as is, or quoted with C escapes (as git does) when it holds a control character.

    A file name with a newline would otherwise split one finding over two lines.
    """
    if not any(ch < " " or ch == "\x7f" for ch in path):
        return path
    return '"' + _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), f"\\x{ord(m.group()):02x}"), path) + '"'


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def format_finding(finding: Finding, *, color: bool = False) -> str:
    """One finding on one line (a message's line breaks become spaces, so grep keeps working)."""
    message = _LINE_BREAK.sub(" ", finding.message)
    rule = finding.rule
    location = f"{display_path(finding.path)}:{finding.line}:{finding.column}:"
    if color:
        rule = f"{_SEVERITY_COLOR.get(finding.severity, _BOLD)}{rule}{_RESET}"
        location = f"{_BOLD}{location}{_RESET}"
    return f"{location} {rule} {message}"


def summary_line(report: Report) -> str:
    """`3 errors, 2 warnings in 12 files (1 suppressed)` or `No findings in 12 files.`"""
    suppressed = f" ({report.suppressed} suppressed)" if report.suppressed else ""
    files = _plural(report.files, "file")
    if not report.findings:
        return f"No findings in {files}{suppressed}."
    return (f"{_plural(report.errors, 'error')}, {_plural(report.warnings, 'warning')}"
            f" in {files}{suppressed}")


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "") -> None:
    """Write each finding in the engine's order, then the summary line."""
    for finding in report.findings:
        out.write(format_finding(finding, color=color) + "\n")
    out.write(summary_line(report) + "\n")
