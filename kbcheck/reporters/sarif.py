"""`--format sarif`: SARIF 2.1.0, one run, uploadable to GitHub code scanning.

Paths become URI references relative to `%SRCROOT%` (the repository root),
percent-encoded as UTF-8 so that names with spaces or CJK characters survive.
Each result carries the finding's line-free fingerprint under
`partialFingerprints["kbcheck/v1"]`, so code scanning keeps an alert's identity
when unrelated lines move. A finding `kbcheck check --fix` would fix carries
the edit as SARIF `fixes`: the region it deletes and the text it inserts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO
from urllib.parse import quote

from kbcheck.urls import HOMEPAGE, rule_doc_url
from kbcheck.version import version

if TYPE_CHECKING:
    from kbcheck.findings import Edit, Finding, Report
    from kbcheck.rules.base import Rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = HOMEPAGE
FINGERPRINT_KEY = "kbcheck/v1"
SRCROOT = "%SRCROOT%"


def artifact_uri(path: str) -> str:
    """A repo-relative path as a relative URI reference.

    Everything outside RFC 3986's unreserved set and `/` is percent-encoded
    (UTF-8), including `:`, which would otherwise read as a scheme in a first
    segment, and `%`, `#`, `?`.
    """
    if not (path.startswith('"') and path.endswith('"')):  # a name quoted as git does keeps its escapes
        path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return quote(path.lstrip("/"), safe="/")


def _rule_descriptor(rule: Rule) -> dict[str, object]:
    described = rule.doc or rule.summary or rule.name
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "fullDescription": {"text": described},
        "help": {"text": described, "markdown": described},
        "helpUri": rule_doc_url(rule.id, rule.name),
        "defaultConfiguration": {"level": rule.severity},
    }


def _bare_descriptor(finding: Finding) -> dict[str, object]:
    # A finding of a rule the caller did not describe still needs a valid ruleIndex.
    return {
        "id": finding.rule,
        "name": finding.name,
        "shortDescription": {"text": finding.name},
        "defaultConfiguration": {"level": finding.severity},
    }


def _fix(path: str, edit: Edit) -> dict[str, object]:
    """One SARIF fix: the characters the edit replaces (`endColumn` just after them; equal columns
    for an insertion) and what it writes there."""
    return {
        "description": {"text": edit.description},
        "artifactChanges": [{
            "artifactLocation": {"uri": artifact_uri(path), "uriBaseId": SRCROOT},
            "replacements": [{
                "deletedRegion": {"startLine": edit.line, "startColumn": edit.column,
                                  "endLine": edit.line, "endColumn": edit.end_column},
                "insertedContent": {"text": edit.replacement},
            }],
        }],
    }


def _result(finding: Finding, rule_index: int) -> dict[str, object]:
    region: dict[str, int] = {"startLine": finding.line}
    if finding.column >= 1:
        region["startColumn"] = finding.column
    region["endLine"] = max(finding.end_line, finding.line)
    result: dict[str, object] = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": finding.severity,
        "message": {"text": finding.message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(finding.path), "uriBaseId": SRCROOT},
                "region": region,
            },
        }],
        "partialFingerprints": {FINGERPRINT_KEY: finding.fingerprint},
    }
    if finding.fix is not None:
        result["fixes"] = [_fix(finding.path, finding.fix)]
    if finding.facts is not None and (related := finding.facts.related(finding.path)):
        result["relatedLocations"] = [{
            "id": number,
            "physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(path), "uriBaseId": SRCROOT},
                "region": {"startLine": line},
            },
        } for number, (path, line) in enumerate(related)]
    return result


def sarif_log(report: Report, rules: Mapping[str, Rule], tool_version: str) -> dict[str, object]:
    """The SARIF log as plain data: every known rule, then one result per finding (made as it is written)."""
    from kbcheck.reporters.streamed import Items

    descriptors = [_rule_descriptor(rule) for rule in rules.values()]
    index = {rule.id: i for i, rule in enumerate(rules.values())}
    for finding in report.findings:
        if finding.rule not in index:
            index[finding.rule] = len(descriptors)
            descriptors.append(_bare_descriptor(finding))
    results = Items(_result(finding, index[finding.rule]) for finding in report.findings)
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "kbcheck",
                "version": tool_version,
                "informationUri": INFORMATION_URI,
                "rules": descriptors,
            }},
            # kbcheck counts columns in characters, not SARIF's default UTF-16 units
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def render(report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "", lang: str = "en") -> None:
    """Indented UTF-8 JSON with a trailing newline."""
    from kbcheck.reporters.streamed import write_json

    write_json(sarif_log(report, rules, tool_version or version()), out)
