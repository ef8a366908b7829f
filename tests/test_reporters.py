"""The output formats of `kbcheck check`, read back by real consumers.

Findings are built by hand so each format is checked against known values:
a CJK file name with a space, a message with `%`, `,`, `:` and a line break,
and enough findings (12 errors, 25 warnings) to hit GitHub's annotation caps.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from kbcheck.errors import KbcheckError, UsageError
from kbcheck.findings import Finding, Report, fingerprint
from kbcheck.reporters import FORMATS, render
from kbcheck.reporters.github import ANNOTATION_CAP, escape_data, escape_property
from kbcheck.reporters.sarif import artifact_uri
from kbcheck.rules.base import Rule
from kbcheck.version import version

#: the OASIS SARIF 2.1.0 schema, vendored (see tests/schemas/README.md)
SCHEMA = Path(__file__).resolve().parent / "schemas" / "sarif-schema-2.1.0.json"

CJK_PATH = "inbox/tom/日报 2026-10-29.md"
ODD_MESSAGE = "50% of 1,771⭐: stale\nsee card 0001"
ANSI = "\033["


def make_rule(rule_id: str, name: str, severity: str, summary: str) -> Rule:
    doc = f"{summary}\n\nWhy it matters, and **how to fix** `{name}`."
    return Rule(id=rule_id, name=name, severity=severity, kinds=frozenset({"knowledge"}),  # type: ignore[arg-type]
                doc=doc, summary=summary)


RULES = {
    "KB001": make_rule("KB001", "uncited-trend-line", "error", "A trend line cites no source."),
    "KB002": make_rule("KB002", "cited-but-absent", "warning", "A listed reference is never discussed."),
    "KB004": make_rule("KB004", "unknown-paper", "warning", "An arXiv id has no paper card."),
    "KB005": make_rule("KB005", "unverified-number", "warning", "A claim number has no evidence."),
}


def finding(rule: str, severity: str, path: str, line: int, message: str, subject: str,
            column: int = 1, end_line: int | None = None, occurrence: int = 0) -> Finding:
    return Finding(rule=rule, name=RULES[rule].name if rule in RULES else "write-outside-inbox",
                   severity=severity, path=path, line=line, column=column,  # type: ignore[arg-type]
                   end_line=end_line if end_line is not None else line, message=message, subject=subject,
                   fingerprint=fingerprint(rule, path, subject, occurrence))


def small_report() -> Report:
    findings = (
        finding("KB005", "warning", CJK_PATH, 4, ODD_MESSAGE, "1,771⭐", column=12),
        finding("KB001", "error", "organized/knowledge/inference.md", 88, "trend line has no citation",
                "推理成本持续下降", column=3, end_line=90),
        finding("KB002", "warning", "organized/knowledge/inference.md", 412, "2610.02076 is never discussed",
                "2610.02076", column=3),
    )
    return Report(findings=findings, files=12, suppressed=1, notices=("skipped binary file a.png",))


def big_report() -> Report:
    """12 errors and 25 warnings, interleaved as the engine's path/line order would give."""
    findings: list[Finding] = []
    for i in range(37):
        if i % 3 == 0 and sum(f.severity == "error" for f in findings) < 12:
            findings.append(finding("KB001", "error", "organized/knowledge/a.md", i + 1,
                                    f"trend line {i} has no citation", f"trend {i}"))
        else:
            findings.append(finding("KB005", "warning", CJK_PATH if i % 2 else "organized/guides/g.md", i + 1,
                                    f"{i}% growth, unverified: no source", f"{i}%"))
    report = Report(findings=tuple(findings), files=3)
    assert (report.errors, report.warnings) == (12, 25)
    return report


def rendered(fmt: str, report: Report, *, color: bool = False, rules: dict[str, Rule] | None = None) -> str:
    out = io.StringIO()
    render(fmt, report, RULES if rules is None else rules, out, color=color)
    return out.getvalue()


# -- choosing a format ----------------------------------------------------------
def test_formats_are_the_spec_names() -> None:
    assert FORMATS == ("text", "json", "sarif", "github", "gitlab")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders_and_ends_with_a_newline(fmt: str) -> None:
    text = rendered(fmt, small_report())
    assert text.endswith("\n")
    assert len(text) > 20


def test_unknown_format_is_a_usage_error_naming_the_valid_ones() -> None:
    with pytest.raises(UsageError) as caught:
        rendered("xml", small_report())
    assert "xml" in str(caught.value)
    assert "text, json, sarif, github, gitlab" in str(caught.value)
    assert isinstance(caught.value, KbcheckError)


@pytest.mark.parametrize("fmt", FORMATS)
def test_notices_are_left_to_the_cli(fmt: str) -> None:
    assert "skipped binary file" not in rendered(fmt, small_report())


# -- text -------------------------------------------------------------------------
def test_text_exact_lines() -> None:
    assert rendered("text", small_report()).splitlines() == [
        f"{CJK_PATH}:4:12: KB005 50% of 1,771⭐: stale see card 0001",
        "organized/knowledge/inference.md:88:3: KB001 trend line has no citation",
        "organized/knowledge/inference.md:412:3: KB002 2610.02076 is never discussed",
        "1 error, 2 warnings in 12 files (1 suppressed)",
    ]


def test_text_without_colour_has_no_ansi() -> None:
    assert ANSI not in rendered("text", small_report(), color=False)


def test_text_with_colour_marks_rule_ids_by_severity() -> None:
    lines = rendered("text", small_report(), color=True).splitlines()
    assert "\033[1;33mKB005\033[0m" in lines[0]
    assert "\033[1;31mKB001\033[0m" in lines[1]
    # the visible text is unchanged once the escapes are stripped
    plain = [re.sub(r"\033\[[0-9;]*m", "", line) for line in lines]
    assert plain == rendered("text", small_report()).splitlines()


def test_text_summary_when_clean() -> None:
    assert rendered("text", Report(findings=(), files=12)) == "No findings in 12 files.\n"
    assert rendered("text", Report(findings=(), files=1, suppressed=3)) == "No findings in 1 file (3 suppressed).\n"


def test_text_summary_counts_and_plurals() -> None:
    report = Report(findings=(finding("KB004", "error", "inbox/tom/a.md", 1, "unknown", "2610.99999"),), files=1)
    assert rendered("text", report).splitlines()[-1] == "1 error, 0 warnings in 1 file"
    assert rendered("text", big_report()).splitlines()[-1] == "12 errors, 25 warnings in 3 files"


# -- json -------------------------------------------------------------------------
def test_json_is_the_spec_shape() -> None:
    report = small_report()
    text = rendered("json", report)
    data = json.loads(text)
    assert set(data) == {"version", "findings", "summary"}
    assert data["version"] == 1
    assert data["summary"] == {"files": 12, "errors": 1, "warnings": 2, "suppressed": 1}
    assert len(data["findings"]) == 3
    first = data["findings"][0]
    assert set(first) == {"rule", "name", "severity", "path", "line", "column", "end_line",
                          "message", "subject", "fingerprint", "fix"}
    assert first == {
        "rule": "KB005", "name": "unverified-number", "severity": "warning", "path": CJK_PATH,
        "line": 4, "column": 12, "end_line": 4, "message": ODD_MESSAGE, "subject": "1,771⭐",
        "fingerprint": fingerprint("KB005", CJK_PATH, "1,771⭐", 0), "fix": None,
    }
    assert data["findings"][1]["end_line"] == 90
    # engine order is kept
    assert [f["rule"] for f in data["findings"]] == ["KB005", "KB001", "KB002"]


def test_json_is_readable_utf8_indented_with_trailing_newline() -> None:
    text = rendered("json", small_report())
    assert "日报" in text and "\\u" not in text
    assert text.endswith("}\n")
    assert text.splitlines()[1].startswith('  "version"')


def test_json_empty_report() -> None:
    data = json.loads(rendered("json", Report(findings=(), files=0)))
    assert data == {"version": 1, "findings": [], "summary": {"files": 0, "errors": 0, "warnings": 0,
                                                               "suppressed": 0}}


# -- sarif ------------------------------------------------------------------------
def sarif(report: Report, rules: dict[str, Rule] | None = None) -> Any:
    return json.loads(rendered("sarif", report, rules=rules))


def test_sarif_validates_against_the_oasis_schema() -> None:
    import jsonschema  # type: ignore[import-untyped]

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    for report in (small_report(), big_report(), Report(findings=(), files=0)):
        errors = sorted(validator.iter_errors(sarif(report)), key=lambda e: list(e.path))
        assert errors == [], [f"{list(e.path)}: {e.message}" for e in errors]


def test_sarif_driver_describes_every_rule() -> None:
    log = sarif(small_report())
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert len(log["runs"]) == 1
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "kbcheck"
    assert driver["version"] == version()
    assert driver["informationUri"].startswith("https://")
    assert [r["id"] for r in driver["rules"]] == ["KB001", "KB002", "KB004", "KB005"]
    kb004 = driver["rules"][2]  # described even though nothing fired
    assert kb004 == {
        "id": "KB004", "name": "unknown-paper",
        "shortDescription": {"text": "An arXiv id has no paper card."},
        "fullDescription": {"text": RULES["KB004"].doc},
        "help": {"text": RULES["KB004"].doc, "markdown": RULES["KB004"].doc},
        "helpUri": "https://github.com/kbcheck/kbcheck/blob/main/docs/rules.md#kb004-unknown-paper",
        "defaultConfiguration": {"level": "warning"},
    }
    assert driver["rules"][0]["defaultConfiguration"] == {"level": "error"}


def test_sarif_results_point_at_their_rule_and_place() -> None:
    log = sarif(small_report())
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert len(results) == 3
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    cjk, trend, _ = results
    assert cjk["level"] == "warning" and trend["level"] == "error"
    assert cjk["message"] == {"text": ODD_MESSAGE}
    location = cjk["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": "inbox/tom/%E6%97%A5%E6%8A%A5%202026-10-29.md", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 4, "startColumn": 12, "endLine": 4}
    assert trend["locations"][0]["physicalLocation"]["region"] == {"startLine": 88, "startColumn": 3,
                                                                    "endLine": 90}
    assert cjk["partialFingerprints"] == {"kbcheck/v1": fingerprint("KB005", CJK_PATH, "1,771⭐", 0)}


@pytest.mark.parametrize("path", [CJK_PATH, "organized/paper_cards/0001-2610-02076.md", "a:b/c#d?e%f.md",
                                  "organized/knowledge/推理 综述.md"])
def test_sarif_uri_is_an_encoded_relative_reference(path: str) -> None:
    uri = artifact_uri(path)
    assert unquote(uri) == path
    assert re.fullmatch(r"[A-Za-z0-9\-._~/%]+", uri), uri
    assert ":" not in uri.split("/")[0]  # would read as a scheme


def test_sarif_fingerprint_ignores_the_line() -> None:
    before = finding("KB005", "warning", CJK_PATH, 4, "243⭐ is stale", "243⭐")
    after = finding("KB005", "warning", CJK_PATH, 40, "243⭐ is stale", "243⭐")
    [r1] = sarif(Report(findings=(before,), files=1))["runs"][0]["results"]
    [r2] = sarif(Report(findings=(after,), files=1))["runs"][0]["results"]
    assert r1["partialFingerprints"] == r2["partialFingerprints"]
    assert r1["locations"] != r2["locations"]
    other = finding("KB005", "warning", CJK_PATH, 4, "244⭐ is stale", "244⭐")
    [r3] = sarif(Report(findings=(other,), files=1))["runs"][0]["results"]
    assert r3["partialFingerprints"] != r1["partialFingerprints"]


def test_sarif_finding_of_an_undescribed_rule_still_has_a_valid_rule_index() -> None:
    kb007 = finding("KB007", "error", "organized/knowledge/x.md", 1, "tom may not write here", "x")
    run = sarif(Report(findings=(kb007,), files=1))["runs"][0]
    [result] = run["results"]
    descriptor = run["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert descriptor["id"] == "KB007"
    assert descriptor["name"] == "write-outside-inbox"
    assert len(run["tool"]["driver"]["rules"]) == len(RULES) + 1


def _sarif_script() -> str:
    beside = Path(sys.executable).parent / "sarif"
    if beside.is_file():
        return str(beside)
    found = shutil.which("sarif")
    if found is None:
        pytest.skip("sarif-tools (the `sarif` command) is not installed")
    return found


def test_sarif_tools_reads_the_counts_back(tmp_path: Path) -> None:
    script = _sarif_script()
    path = tmp_path / "kbcheck.sarif"
    path.write_text(rendered("sarif", big_report()), encoding="utf-8")
    done = subprocess.run([script, "summary", str(path)], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, check=True)
    counts = dict(re.findall(r"^(error|warning|note): (\d+)$", done.stdout, re.MULTILINE))
    assert counts == {"error": "12", "warning": "25", "note": "0"}, done.stdout


def test_sarif_tools_reads_the_records_back(tmp_path: Path) -> None:
    loader = pytest.importorskip("sarif.loader", reason="sarif-tools is not installed")
    path = tmp_path / "kbcheck.sarif"
    path.write_text(rendered("sarif", small_report()), encoding="utf-8")
    sarif_file = loader.load_sarif_file(str(path))
    assert sarif_file.get_distinct_tool_names() == ["kbcheck"]
    assert sarif_file.get_result_count() == 3
    records = sarif_file.get_records()
    assert [(r["Code"], r["Severity"], r["Line"]) for r in records] == [
        ("KB005", "warning", 4), ("KB001", "error", 88), ("KB002", "warning", 412)]
    assert unquote(records[0]["Location"]) == CJK_PATH


# -- github -----------------------------------------------------------------------
COMMAND = re.compile(r"^::(?P<command>error|warning|notice)(?: (?P<props>[^:]*))?::(?P<message>.*)$")


def unescape(text: str) -> str:
    """Undo both escapings in one pass, so `%250A` comes back as `%0A`, not a line break."""
    table = {"%25": "%", "%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": ","}
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: table[m.group(0)], text)


def parse_commands(text: str) -> list[dict[str, str]]:
    commands = []
    for line in text.splitlines():
        match = COMMAND.match(line)
        assert match, f"not a workflow command: {line!r}"
        command = {"command": match["command"], "message": unescape(match["message"])}
        for pair in (match["props"] or "").split(","):
            if pair:
                key, _, value = pair.partition("=")
                command[key] = unescape(value)
        commands.append(command)
    return commands


def test_github_escaping_matches_actions_toolkit() -> None:
    assert escape_data("50%, a: b\r\nc") == "50%25, a: b%0D%0Ac"
    assert escape_property("50%, a: b\r\nc") == "50%25%2C a%3A b%0D%0Ac"
    assert escape_data("%0A") == "%250A"


def test_github_annotations_round_trip() -> None:
    odd_path = "inbox/tom/a,b:c.md"
    report = Report(findings=(*small_report().findings,
                              finding("KB005", "warning", odd_path, 7, "literal %0A stays", "%0A")), files=12)
    text = rendered("github", report)
    commands = parse_commands(text)
    assert len(commands) == 4
    assert [c["command"] for c in commands] == ["error", "warning", "warning", "warning"]
    trend, cjk, kb002, odd = commands
    assert trend == {"command": "error", "file": "organized/knowledge/inference.md", "line": "88", "col": "3",
                     "endLine": "90", "title": "KB001 uncited-trend-line", "message": "trend line has no citation"}
    assert cjk == {"command": "warning", "file": CJK_PATH, "line": "4", "col": "12", "endLine": "4",
                   "title": "KB005 unverified-number", "message": ODD_MESSAGE}
    assert kb002["title"] == "KB002 cited-but-absent"
    assert odd["file"] == odd_path and odd["message"] == "literal %0A stays"
    # one physical line per command: the message's line break is escaped
    assert len(text.splitlines()) == 4


def test_github_caps_and_the_closing_notice() -> None:
    report = big_report()
    commands = parse_commands(rendered("github", report))
    errors = [c for c in commands if c["command"] == "error"]
    warnings = [c for c in commands if c["command"] == "warning"]
    assert len(errors) == ANNOTATION_CAP == 10
    assert len(warnings) == 10
    # most severe first, each kept in the engine's order
    assert [c["command"] for c in commands[:10]] == ["error"] * 10
    assert [c["command"] for c in commands[10:20]] == ["warning"] * 10
    expected_errors = [f for f in report.findings if f.severity == "error"][:10]
    expected_warnings = [f for f in report.findings if f.severity == "warning"][:10]
    assert [(c["file"], int(c["line"]), c["message"]) for c in errors + warnings] == [
        (f.path, f.line, f.message) for f in expected_errors + expected_warnings]
    notice = commands[-1]
    assert len(commands) == 21
    assert notice["command"] == "notice"
    assert notice["message"] == ("kbcheck: 2 more errors and 15 more warnings not annotated; "
                                 "see the full report (kbcheck check --format text)")


def test_github_notice_names_only_what_was_left_out() -> None:
    warnings = tuple(finding("KB005", "warning", "inbox/tom/a.md", i, f"{i}%", f"{i}%") for i in range(1, 12))
    commands = parse_commands(rendered("github", Report(findings=warnings, files=1)))
    assert len(commands) == 11
    assert commands[-1]["message"].startswith("kbcheck: 1 more warning not annotated;")


def test_github_no_notice_under_the_caps() -> None:
    findings = tuple(finding("KB001", "error", "organized/knowledge/a.md", i, "no source", f"t{i}")
                     for i in range(1, 11))
    findings += tuple(finding("KB005", "warning", "inbox/tom/a.md", i, f"{i}%", f"{i}%") for i in range(1, 11))
    commands = parse_commands(rendered("github", Report(findings=findings, files=2)))
    assert len(commands) == 20
    assert all(c["command"] != "notice" for c in commands)


def test_github_clean_report_prints_nothing() -> None:
    assert rendered("github", Report(findings=(), files=5)) == ""


# -- gitlab -----------------------------------------------------------------------
def test_gitlab_code_quality_entries() -> None:
    report = small_report()
    issues = json.loads(rendered("gitlab", report))
    assert isinstance(issues, list) and len(issues) == len(report.findings)
    for issue, f in zip(issues, report.findings):
        assert {"description", "check_name", "fingerprint", "severity", "location"} <= set(issue)
        assert issue["check_name"] == f.rule
        assert issue["fingerprint"] == f.fingerprint
        assert issue["location"]["path"] == f.path
        assert issue["location"]["lines"]["begin"] == f.line
        assert f.message in issue["description"]
    assert [i["severity"] for i in issues] == ["minor", "major", "minor"]
    assert issues[1]["location"]["lines"] == {"begin": 88, "end": 90}
    assert issues[0]["location"]["path"] == CJK_PATH  # a plain path, not a URI


def test_gitlab_fingerprints_are_unique() -> None:
    issues = json.loads(rendered("gitlab", big_report()))
    assert len(issues) == 37
    assert len({i["fingerprint"] for i in issues}) == 37
    twin = finding("KB005", "warning", "inbox/tom/a.md", 3, "same", "5%")
    issues = json.loads(rendered("gitlab", Report(findings=(twin, twin), files=1)))
    assert len(issues) == 2
    assert issues[0]["fingerprint"] == twin.fingerprint
    assert issues[1]["fingerprint"] != twin.fingerprint
    assert re.fullmatch(r"[0-9a-f]{32}", issues[1]["fingerprint"])


def test_gitlab_empty_report_is_an_empty_list() -> None:
    assert rendered("gitlab", Report(findings=(), files=3)) == "[]\n"
