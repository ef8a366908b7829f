"""`--format json`: the shape of `docs/output.md` (`docs/schemas/check.schema.json`).

Each finding carries `fix`, as ruff's JSON does: null, or the edits
`kbcheck check --fix` would make, with 1-based lines and columns counting
characters as the finding's own do, the end just after the last character
replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from kbcheck.findings import Edit, Finding, Report
    from kbcheck.rules.base import Rule

#: the version of the JSON shape, not of kbcheck
JSON_VERSION = 1
#: every fix kbcheck offers is safe: `--fix` applies it without asking (ruff's `applicability`)
SAFE = "safe"


def fix_json(edit: Edit | None) -> dict[str, object] | None:
    """`{"applicability": "safe", "message": …, "edits": [{"content", "location", "end_location"}]}`."""
    if edit is None:
        return None
    return {
        "applicability": SAFE,
        "message": edit.description,
        "edits": [{
            "content": edit.replacement,
            "location": {"line": edit.line, "column": edit.column},
            "end_location": {"line": edit.line, "column": edit.end_column},
        }],
    }


def finding_json(finding: Finding) -> dict[str, object]:
    """A finding's fields (`Finding.to_json`), then its `fix`."""
    return {**finding.to_json(), "fix": fix_json(finding.fix)}


def report_json(report: Report) -> dict[str, object]:
    """The document as plain data (what `render` writes), its findings made one at a time as
    they are written (`Items`)."""
    from kbcheck.reporters.streamed import Items

    return {
        "version": JSON_VERSION,
        "findings": Items(finding_json(finding) for finding in report.findings),
        "summary": {
            "files": report.files,
            "errors": report.errors,
            "warnings": report.warnings,
            "suppressed": report.suppressed,
        },
    }


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "", lang: str = "en") -> None:
    """Indented UTF-8 JSON (CJK paths stay readable), with a trailing newline, written a finding at a time."""
    from kbcheck.reporters.streamed import write_json

    write_json(report_json(report), out)
