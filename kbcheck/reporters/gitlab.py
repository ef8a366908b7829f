"""`--format gitlab`: a GitLab Code Quality report (a subset of the Code Climate spec).

GitLab requires `description`, `check_name`, `fingerprint`, `severity` and
`location.path` with `location.lines.begin`. Severity maps error -> `major`,
warning -> `minor` (GitLab's scale: info, minor, major, critical, blocker).
GitLab keeps only the first issue of a fingerprint, so fingerprints are made
unique within the report.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from kbcheck.findings import Finding, Report
    from kbcheck.rules.base import Rule

SEVERITY = {"error": "major", "warning": "minor"}
#: Code Climate's category for readability and correctness of prose-like content
CATEGORIES = ["Style"]


def _issue(finding: Finding, fingerprint: str) -> dict[str, object]:
    lines: dict[str, int] = {"begin": finding.line}
    if finding.end_line > finding.line:
        lines["end"] = finding.end_line
    return {
        "type": "issue",
        "description": f"{finding.rule} {finding.name}: {finding.message}",
        "check_name": finding.rule,
        "fingerprint": fingerprint,
        "severity": SEVERITY.get(finding.severity, "minor"),
        "categories": list(CATEGORIES),
        "location": {"path": finding.path, "lines": lines},
    }


def code_quality(report: Report) -> Iterator[dict[str, object]]:
    """One issue per finding, in the engine's order, made as it is written."""
    seen: set[str] = set()
    for finding in report.findings:
        fingerprint = finding.fingerprint
        # two findings sharing a fingerprint would hide one in GitLab: derive a distinct one
        salt = 0
        while fingerprint in seen:
            salt += 1
            fingerprint = hashlib.sha256(f"{finding.fingerprint}\0{salt}".encode()).hexdigest()[:32]
        seen.add(fingerprint)
        yield _issue(finding, fingerprint)


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "", lang: str = "en") -> None:
    """Indented UTF-8 JSON array with a trailing newline (`[]` when clean)."""
    from kbcheck.reporters.streamed import Items, write_json

    write_json(Items(code_quality(report)), out)
