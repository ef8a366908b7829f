"""`--format github`: GitHub Actions workflow commands that become annotations.

GitHub shows at most 10 error and 10 warning annotations per step, so errors
come first, then warnings, each capped, and one last `::notice::` counts what
was left out. Escaping follows actions/toolkit (`packages/core/src/command.ts`):
the message escapes `%`, CR and LF; property values also `:` and `,`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from kbcheck.findings import Finding, Report
    from kbcheck.rules.base import Rule

#: annotations GitHub shows per step and per severity
ANNOTATION_CAP = 10
_COMMAND = {"error": "error", "warning": "warning"}


def escape_data(text: str) -> str:
    """Escape a command's message (after the second `::`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (`file=`, `title=`): also `:` and `,`, which delimit."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    """One `::error file=…,line=…,col=…,endLine=…,title=…::message` line."""
    properties = {
        "file": finding.path,
        "line": str(finding.line),
        "col": str(finding.column),
        "endLine": str(max(finding.end_line, finding.line)),
        "title": f"{finding.rule} {finding.name}",
    }
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    return f"::{_COMMAND.get(finding.severity, 'warning')} {props}::{escape_data(finding.message)}"


def _more(count: int, word: str) -> str:
    return f"{count} more {word}" + ("" if count == 1 else "s")


def left_out_notice(errors: int, warnings: int) -> str | None:
    """The closing `::notice::` line, or None when every finding was annotated."""
    parts = [_more(n, w) for n, w in ((errors, "error"), (warnings, "warning")) if n]
    if not parts:
        return None
    text = (f"kbcheck: {' and '.join(parts)} not annotated; "
            "see the full report (kbcheck check --format text)")
    return f"::notice::{escape_data(text)}"


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "") -> None:
    """Most severe first, each severity capped at ANNOTATION_CAP, then the notice."""
    errors = [f for f in report.findings if f.severity == "error"]
    warnings = [f for f in report.findings if f.severity != "error"]
    for finding in errors[:ANNOTATION_CAP] + warnings[:ANNOTATION_CAP]:
        out.write(annotation(finding) + "\n")
    notice = left_out_notice(max(0, len(errors) - ANNOTATION_CAP), max(0, len(warnings) - ANNOTATION_CAP))
    if notice is not None:
        out.write(notice + "\n")
