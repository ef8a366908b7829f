"""The default format: one `path:line:col: RULE message` line per finding, then a summary.

A finding `kbcheck check --fix` would fix reads `RULE [*] message`, and the
summary is followed by how many there are, as ruff marks its fixable
diagnostics. Colour (ANSI) only when asked for: the CLI asks on a TTY
without NO_COLOR. Notices are not printed here; the CLI writes them to stderr.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

from kbcheck.printable import for_terminal
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.findings import Finding, Report
    from kbcheck.rules.base import Rule

_RESET = "\033[0m"
_BOLD = "\033[1m"
_SEVERITY_COLOR = {"error": "\033[1;31m", "warning": "\033[1;33m"}
_FIXABLE_COLOR = "\033[36m"
#: what marks a finding that `kbcheck check --fix` would fix (ruff's mark)
FIXABLE = "[*]"
_LINE_BREAK = lazy(r"\r\n|\r|\n")
_CONTROL = lazy(r'[\x00-\x1f\x7f-\x9f"\\]')
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}


def display_path(path: str) -> str:
    """The path as is, or quoted with C escapes (as git does) when it holds a control character.

    A file name with a newline would otherwise split one finding over two lines.
    """
    if not any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in path):
        return path
    return '"' + _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), f"\\x{ord(m.group()):02x}"), path) + '"'


def format_finding(finding: Finding, *, color: bool = False) -> str:
    """One finding on one line (a message's line breaks become spaces, so grep keeps working)."""
    message = for_terminal(_LINE_BREAK.sub(" ", finding.message))
    rule = finding.rule
    location = f"{display_path(finding.path)}:{finding.line}:{finding.column}:"
    mark = FIXABLE if finding.fix is not None else ""
    if color:
        rule = f"{_SEVERITY_COLOR.get(finding.severity, _BOLD)}{rule}{_RESET}"
        location = f"{_BOLD}{location}{_RESET}"
        mark = mark and f"{_FIXABLE_COLOR}{mark}{_RESET}"
    return f"{location} {rule} {mark} {message}" if mark else f"{location} {rule} {message}"


def summary_line(report: Report, *, lang: str = "en") -> str:
    """`3 errors, 2 warnings in 12 files (1 suppressed)` or `No findings in 12 files.`, in `lang`."""
    from kbcheck.i18n import _, ngettext, say

    files = ngettext("{count} file", "{count} files", report.files, count=report.files)
    suppressed = report.suppressed
    if not report.findings:
        if suppressed:
            return say(_("No findings in {files} ({suppressed} suppressed).", files=files, suppressed=suppressed), lang)
        return say(_("No findings in {files}.", files=files), lang)
    errors = ngettext("{count} error", "{count} errors", report.errors, count=report.errors)
    warnings = ngettext("{count} warning", "{count} warnings", report.warnings, count=report.warnings)
    if suppressed:
        line = _("{errors}, {warnings} in {files} ({suppressed} suppressed)",
                 errors=errors, warnings=warnings, files=files, suppressed=suppressed)
    else:
        line = _("{errors}, {warnings} in {files}", errors=errors, warnings=warnings, files=files)
    return say(line, lang)


def fixable_line(report: Report, *, color: bool = False, lang: str = "en") -> str | None:
    """`[*] 3 fixable with `kbcheck check --fix``, in `lang`; None when nothing is fixable."""
    from kbcheck.i18n import ngettext, say

    count = sum(1 for finding in report.findings if finding.fix is not None)
    if not count:
        return None
    mark = f"{_FIXABLE_COLOR}{FIXABLE}{_RESET}" if color else FIXABLE
    line = ngettext("{count} fixable with `kbcheck check --fix`", "{count} fixable with `kbcheck check --fix`",
                    count, count=count)
    return f"{mark} {say(line, lang)}"


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *, color: bool = False,
           tool_version: str = "", lang: str = "en", quiet: bool = False, statistics: Sequence[str] = ()) -> None:
    """Write each finding in the engine's order, or instead the `statistics` lines (`--statistics`,
    the table alone, as ruff prints it), then, unless `quiet`, the summary line and the fixable count."""
    for finding in () if statistics else report.findings:
        out.write(format_finding(finding, color=color) + "\n")
    for line in statistics:
        out.write(line + "\n")
    if not quiet:
        write_summary(report, out, color=color, lang=lang)


def write_summary(report: Report, out: TextIO, *, color: bool = False, lang: str = "en") -> None:
    """The summary line and the fixable count, as every human-readable format ends."""
    out.write(summary_line(report, lang=lang) + "\n")
    fixable = fixable_line(report, color=color, lang=lang)
    if fixable is not None:
        out.write(fixable + "\n")
