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


def left_out_notice(errors: int, warnings: int, lang: str = "en") -> str | None:
    """The closing `::notice::` line, or None when every finding was annotated."""
    from kbcheck.i18n import _, ngettext, say

    parts = []
    if errors:
        parts.append(ngettext("{count} more error", "{count} more errors", errors, count=errors))
    if warnings:
        parts.append(ngettext("{count} more warning", "{count} more warnings", warnings, count=warnings))
    if not parts:
        return None
    left_out = parts[0] if len(parts) == 1 else _("{errors} and {warnings}", errors=parts[0], warnings=parts[1])
    text = _("kbcheck: {left_out} not annotated; see the full report (kbcheck check --format text)", left_out=left_out)
    return f"::notice::{escape_data(say(text, lang))}"


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "", lang: str = "en") -> None:
    """Most severe first, each severity capped at ANNOTATION_CAP, then the notice."""
    errors = [f for f in report.findings if f.severity == "error"]
    warnings = [f for f in report.findings if f.severity != "error"]
    for finding in errors[:ANNOTATION_CAP] + warnings[:ANNOTATION_CAP]:
        out.write(annotation(finding) + "\n")
    notice = left_out_notice(max(0, len(errors) - ANNOTATION_CAP), max(0, len(warnings) - ANNOTATION_CAP), lang)
    if notice is not None:
        out.write(notice + "\n")
