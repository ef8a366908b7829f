"""`--format json`: the shape of `docs/output.md` (`docs/schemas/check.schema.json`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from kbcheck.findings import Report
    from kbcheck.rules.base import Rule

#: the version of the JSON shape, not of kbcheck
JSON_VERSION = 1


def report_json(report: Report) -> dict[str, object]:
    """The document as plain data (what `render` writes)."""
    return {
        "version": JSON_VERSION,
        "findings": [finding.to_json() for finding in report.findings],
        "summary": {
            "files": report.files,
            "errors": report.errors,
            "warnings": report.warnings,
            "suppressed": report.suppressed,
        },
    }


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "", lang: str = "en") -> None:
    """Indented UTF-8 JSON (CJK paths stay readable), with a trailing newline."""
    out.write(json.dumps(report_json(report), ensure_ascii=False, indent=2) + "\n")
