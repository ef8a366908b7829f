"""What `--fix` would fix, shown in every format: `[*]` and a count in text, `fix` in JSON, SARIF `fixes`.

The shown edits are checked the way a consumer uses them: applied to the
file that was checked, they must give byte for byte the file `kbcheck check
--fix` writes (LF, CRLF and a BOM alike).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from hypothesis import HealthCheck, given, settings
from kbtools import md, paper_card, repo_card, run_cli
from test_fix_properties import CARDS as PROPERTY_CARDS
from test_fix_properties import DOC as PROPERTY_DOC
from test_fix_properties import documents

from kbcheck.findings import Edit, Finding, Report
from kbcheck.fix.offered import offered_fixes, without_fixes

DOC = "organized/knowledge/inference.md"
CARDS: dict[str, str | bytes] = {
    "organized/repo_cards/4572-recursive-oss-rec.md": repo_card("recursive-oss/rec", stars=245, weekly_growth=17),
    "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md": repo_card(
        "amitshekhariitbhu/llm-internals", stars=1802, weekly_growth=0),
    "organized/paper_cards/1695-2610-02076.md": paper_card("2610.02076", "LLM-as-Jev"),
    "organized/paper_cards/1700-2610-11959.md": paper_card("2610.11959", "MiMo-V2.6"),
    "organized/paper_cards/1702-2610-20417.md": paper_card("2610.20417", "Speculative Decoding at Scale"),
}
#: two stale counts and two missing references that `--fix` fixes; a count with a multiplier and an
#: uncited reference that it does not
ZH = md("""
    # 推理引擎

    ## §1.6 引擎与部署

    - recursive-oss/rec：本轮复采 243⭐ / 周增 +14
    - amitshekhariitbhu/llm-internals：1.7k⭐

    ## §3.5 RL rollout

    - MiMo-V2.6 的统一轨迹表示（arXiv:2610.11959）
    - 投机解码（arXiv:2610.20417）

    ## §七 引用列表

    1. arXiv:2610.02076 — LLM-as-Jev
""")
EN = md("""
    # Serving

    ## Engines

    - amitshekhariitbhu/llm-internals has 1,771 stars this week
    - Speculative decoding (arXiv:2610.20417) halves latency.

    ## References

      * arXiv:2610.11959
""")
REC_CARD = "organized/repo_cards/4572-recursive-oss-rec.md"
INTERNALS_CARD = "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md"
ZH_TEXT = [
    f"{DOC}:5:26: KB006 [*] 243⭐ is stale: {REC_CARD} now says stars: 245",
    f"{DOC}:5:33: KB006 [*] 周增 +14 is stale: {REC_CARD} now says weekly_growth: 17",
    f"{DOC}:6:35: KB006 1.7k⭐ is stale: {INTERNALS_CARD} now says stars: 1802",
    f"{DOC}:10:21: KB003 [*] 2610.11959 is mentioned in §3.5 but missing from the reference list",
    f"{DOC}:11:8: KB003 [*] 2610.20417 is mentioned in §3.5 but missing from the reference list",
    f"{DOC}:15:4: KB002 2610.02076 is in the reference list but never mentioned in the body; "
    "write its entry or drop the reference",
    "0 errors, 6 warnings in 6 files",
    "[*] 4 fixable with `kbcheck check --fix`",
]


def kb(repo: GitRepo, text: str | bytes, path: str = DOC) -> None:
    repo.commit_files({**CARDS, path: text}, "kb")


def check(*argv: str) -> tuple[int, str, str]:
    return run_cli("check", "--all", *argv)


# -- text ------------------------------------------------------------------------------------
def test_text_marks_what_fix_would_fix_and_counts_it(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    status, out, err = check()
    assert out.splitlines() == ZH_TEXT
    assert (status, err) == (0, "")


def test_text_in_chinese(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("--lang", "zh")
    lines = out.splitlines()
    assert lines[0] == f"{DOC}:5:26: KB006 [*] 243⭐ 已过时：{REC_CARD} 现为 stars: 245"
    assert lines[2].startswith(f"{DOC}:6:35: KB006 1.7k⭐ 已过时")  # no fix: no mark
    assert lines[-2:] == ["6 个文件中有 0 个错误、6 个警告", "[*] 4 处可用 `kbcheck check --fix` 自动修复"]


def test_text_in_english(git_repo: GitRepo) -> None:
    kb(git_repo, EN, "organized/knowledge/serving.md")
    _, out, _ = check("--select", "KB003,KB006")
    assert out.splitlines() == [
        "organized/knowledge/serving.md:5:39: KB006 [*] 1,771 stars is stale: "
        f"{INTERNALS_CARD} now says stars: 1802",
        "organized/knowledge/serving.md:6:25: KB003 [*] 2610.20417 is mentioned in Engines but missing from the "
        "reference list",
        "0 errors, 2 warnings in 6 files",
        "[*] 2 fixable with `kbcheck check --fix`",
    ]


def test_no_fixable_finding_no_mark_and_no_count_line(git_repo: GitRepo) -> None:
    kb(git_repo, "## §1.6\n\n- amitshekhariitbhu/llm-internals：1.7k⭐\n\n## 参考文献\n\n- arXiv:2610.02076\n")
    status, out, _ = check()
    assert out.splitlines() == [
        f"{DOC}:3:35: KB006 1.7k⭐ is stale: {INTERNALS_CARD} now says stars: 1802",
        f"{DOC}:7:3: KB002 2610.02076 is in the reference list but never mentioned in the body; "
        "write its entry or drop the reference",
        "0 errors, 2 warnings in 6 files",
    ]
    assert "[*]" not in out and status == 0


def test_quiet_keeps_the_marks_but_prints_no_count_line(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("-q")
    assert out.splitlines() == ZH_TEXT[:-2]


def test_statistics_come_before_the_summary_and_the_count_line_ends_it(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("--statistics")
    assert out.splitlines() == ["3  KB006  stale-number", "2  KB003  missing-reference",
                                "1  KB002  cited-but-absent", *ZH_TEXT[-2:]]


def test_after_fix_nothing_is_marked_and_nothing_counted(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    status, out, err = check("--fix")
    assert out.splitlines() == [ZH_TEXT[2], ZH_TEXT[5], "0 errors, 2 warnings in 6 files"]
    assert err == f"kbcheck: fixed {DOC}: 4 problems (KB003 ×2, KB006 ×2)\n"
    assert status == 0


def test_a_refused_file_keeps_its_findings_unmarked(git_repo: GitRepo) -> None:
    kb(git_repo, ZH.replace("243⭐", "245⭐"))
    git_repo.write(DOC, ZH)
    git_repo.stage(DOC)
    git_repo.write(DOC, ZH + "- 还在写\n")  # unstaged: `--staged --fix` refuses the file
    status, out, err = run_cli("check", "--staged", "--fix")
    assert status == 2 and "not fixed" in err
    assert "[*]" not in out and "KB006 243⭐ is stale" in out


def test_colour_marks_the_fixable_in_cyan(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("--color", "always")
    lines = out.splitlines()
    assert "\033[36m[*]\033[0m 243⭐ is stale" in lines[0]
    assert "[*]" not in lines[2]
    assert lines[-1] == "\033[36m[*]\033[0m 4 fixable with `kbcheck check --fix`"


# -- json ------------------------------------------------------------------------------------
def test_json_fix_is_ruffs_shape_and_null_without_a_fix(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("--format", "json")
    fixes = [(f["rule"], f["line"], f["fix"]) for f in json.loads(out)["findings"]]
    assert fixes == [
        ("KB006", 5, {"applicability": "safe", "message": "Replace `243` with `245`",
                      "edits": [{"content": "245", "location": {"line": 5, "column": 26},
                                 "end_location": {"line": 5, "column": 29}}]}),
        ("KB006", 5, {"applicability": "safe", "message": "Replace `+14` with `+17`",
                      "edits": [{"content": "+17", "location": {"line": 5, "column": 36},
                                 "end_location": {"line": 5, "column": 39}}]}),
        ("KB006", 6, None),
        ("KB003", 10, {"applicability": "safe",
                       "message": "Append `arXiv:2610.11959 — MiMo-V2.6` to the reference list",
                       "edits": [{"content": "\n2. arXiv:2610.11959 — MiMo-V2.6",
                                  "location": {"line": 15, "column": 33},
                                  "end_location": {"line": 15, "column": 33}}]}),
        ("KB003", 11, {"applicability": "safe",
                       "message": "Append `arXiv:2610.20417 — Speculative Decoding at Scale` to the reference list",
                       "edits": [{"content": "\n3. arXiv:2610.20417 — Speculative Decoding at Scale",
                                  "location": {"line": 15, "column": 33},
                                  "end_location": {"line": 15, "column": 33}}]}),
        ("KB002", 15, None),
    ]


def test_json_fix_message_in_chinese_with_lang(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("--format", "json", "--lang", "zh")
    messages = [f["fix"]["message"] for f in json.loads(out)["findings"] if f["fix"]]
    assert messages[0] == "将 `243` 改为 `245`"
    assert messages[2] == "在引用列表末尾追加 `arXiv:2610.11959 — MiMo-V2.6`"


def test_json_after_fix_offers_nothing(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("--format", "json", "--fix")
    findings = json.loads(out)["findings"]
    assert [(f["rule"], f["line"], f["fix"]) for f in findings] == [("KB006", 6, None), ("KB002", 15, None)]


#: the same document with CRLF line ends, lone CR ends, and a BOM
SHAPES = {
    "LF": ZH.encode(),
    "CRLF": ZH.replace("\n", "\r\n").encode(),
    "CR": ZH.replace("\n", "\r").encode(),
    "BOM and CRLF": b"\xef\xbb\xbf" + ZH.replace("\n", "\r\n").encode(),
    "no final line end": ZH.rstrip("\n").encode(),
}


@pytest.mark.parametrize("data", SHAPES.values(), ids=SHAPES.keys())
def test_json_edits_applied_give_what_fix_writes(git_repo: GitRepo, data: bytes) -> None:
    kb(git_repo, data)
    _, out, _ = check("--format", "json")
    edits = [(e["location"]["line"], e["location"]["column"], e["end_location"]["line"],
              e["end_location"]["column"], e["content"])
             for f in json.loads(out)["findings"] if f["fix"] for e in f["fix"]["edits"]]
    assert len(edits) == 4
    shown = apply_edits(data, edits)
    check("--fix")
    fixed = (git_repo.path / DOC).read_bytes()
    assert shown == fixed != data


def test_staged_json_edits_are_those_of_the_staged_content(git_repo: GitRepo) -> None:
    kb(git_repo, ZH.replace("243⭐", "245⭐").replace("+14", "+17"))
    git_repo.write(DOC, ZH)
    git_repo.stage(DOC)
    git_repo.write(DOC, "<!-- 工作区里多了一行 -->\n" + ZH)  # unstaged: moves every line of the work tree
    _, out, _ = run_cli("check", "--staged", "--format", "json")
    edits = [(e["location"]["line"], e["location"]["column"], e["end_location"]["line"],
              e["end_location"]["column"], e["content"])
             for f in json.loads(out)["findings"] if f["fix"] for e in f["fix"]["edits"]]
    assert [line for line, *_ in edits] == [5, 5, 15, 15]
    shown = apply_edits(ZH.encode(), edits)
    git_repo.git("checkout", "--", DOC)  # the work tree back to what is staged: now --fix may write it
    run_cli("check", "--staged", "--fix")
    assert shown == (git_repo.path / DOC).read_bytes()


# -- sarif -----------------------------------------------------------------------------------
SCHEMA = Path(__file__).resolve().parent / "schemas" / "sarif-schema-2.1.0.json"


def sarif_errors(log: dict[str, Any]) -> list[str]:
    import jsonschema  # type: ignore[import-untyped]

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    return [error.message for error in validator.iter_errors(log)]


def test_sarif_fixes_validate_and_only_fixable_results_carry_them(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    _, out, _ = check("--format", "sarif")
    log = json.loads(out)
    assert sarif_errors(log) == []
    results = log["runs"][0]["results"]
    assert [("fixes" in r) for r in results] == [True, True, False, True, True, False]
    assert results[0]["fixes"] == [{
        "description": {"text": "Replace `243` with `245`"},
        "artifactChanges": [{
            "artifactLocation": {"uri": "organized/knowledge/inference.md", "uriBaseId": "%SRCROOT%"},
            "replacements": [{"deletedRegion": {"startLine": 5, "startColumn": 26, "endLine": 5, "endColumn": 29},
                              "insertedContent": {"text": "245"}}],
        }],
    }]
    inserted = results[3]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert inserted == {"deletedRegion": {"startLine": 15, "startColumn": 33, "endLine": 15, "endColumn": 33},
                        "insertedContent": {"text": "\n2. arXiv:2610.11959 — MiMo-V2.6"}}


@pytest.mark.parametrize("data", [SHAPES["LF"], SHAPES["BOM and CRLF"]], ids=["LF", "BOM and CRLF"])
def test_sarif_replacements_applied_give_what_fix_writes(git_repo: GitRepo, data: bytes) -> None:
    kb(git_repo, data)
    _, out, _ = check("--format", "sarif")
    edits = []
    for result in json.loads(out)["runs"][0]["results"]:
        for fix in result.get("fixes", ()):
            for change in fix["artifactChanges"]:
                assert change["artifactLocation"]["uri"] == DOC
                for replacement in change["replacements"]:
                    region = replacement["deletedRegion"]
                    edits.append((region["startLine"], region["startColumn"], region["endLine"], region["endColumn"],
                                  replacement["insertedContent"]["text"]))
    shown = apply_edits(data, edits)
    check("--fix")
    assert shown == (git_repo.path / DOC).read_bytes() != data


# -- github, gitlab --------------------------------------------------------------------------
def test_github_and_gitlab_have_no_place_for_a_fix(git_repo: GitRepo) -> None:
    kb(git_repo, ZH)
    github = check("--format", "github")[1]
    assert "[*]" not in github and "fix" not in github.lower()
    issues = json.loads(check("--format", "gitlab")[1])
    assert all(set(issue) == {"type", "description", "check_name", "fingerprint", "severity", "categories",
                              "location"} for issue in issues)


# -- what is offered -------------------------------------------------------------------------
def _finding(line: int, column: int, original: str, replacement: str, n: int) -> Finding:
    return Finding("KB006", "stale-number", "warning", DOC, line, column, line, "m", original, f"{n:032x}",
                   fix=Edit(line, column, original, replacement, "d"))


def test_only_edits_fix_would_apply_are_offered() -> None:
    data = "- rec 243⭐ / 周增 +14\r\n- 其他\r\n".encode()
    applies = _finding(1, 7, "243", "245", 1)
    overlaps = _finding(1, 8, "43", "99", 2)  # takes characters the first edit replaces
    gone = _finding(2, 3, "243", "245", 3)  # its original is not where it says
    inserts = _finding(2, 5, "", "\n- 新条目", 4)
    report = offered_fixes(Report(findings=(applies, overlaps, gone, inserts), files=1), lambda paths: {DOC: data})
    assert [f.fix for f in report.findings] == [
        applies.fix, None, None, Edit(2, 5, "", "\r\n- 新条目", "d")]  # the file's own line end
    assert [f.fingerprint for f in report.findings] == [f.fingerprint for f in (applies, overlaps, gone, inserts)]
    assert all(f.fix is None for f in without_fixes(report).findings)


def test_a_report_without_fixes_is_offered_as_it_is() -> None:
    plain = Finding("KB002", "cited-but-absent", "warning", DOC, 1, 1, 1, "m", "2610.02076", "0" * 32)
    report = Report(findings=(plain,), files=1)
    assert offered_fixes(report, lambda paths: pytest.fail("nothing to read")) is report
    assert without_fixes(report) is report


# -- the property: the shown edits are the fix ---------------------------------------------
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents())
def test_json_edits_always_give_what_fix_writes(git_repo: GitRepo, document: bytes) -> None:
    if not (git_repo.path / PROPERTY_DOC).exists():
        git_repo.commit_files(PROPERTY_CARDS, "cards")
    git_repo.write(PROPERTY_DOC, document)
    git_repo.stage(PROPERTY_DOC)
    _, out, _ = run_cli("check", "--all", "--select", "KB003,KB006", "--format", "json")
    edits = [(e["location"]["line"], e["location"]["column"], e["end_location"]["line"],
              e["end_location"]["column"], e["content"])
             for f in json.loads(out)["findings"] if f["fix"] for e in f["fix"]["edits"]]
    shown = apply_edits(document, edits)
    run_cli("check", "--all", "--select", "KB003,KB006", "--fix")
    assert shown == (git_repo.path / PROPERTY_DOC).read_bytes()


# -- a consumer of the shown edits -----------------------------------------------------------
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def apply_edits(data: bytes, edits: list[tuple[int, int, int, int, str]]) -> bytes:
    """Apply edits as `docs/output.md` describes them: lines end at LF, CRLF or CR; columns count
    characters from 1 (a BOM not counted); the end is just after the last character replaced; two
    insertions at one place keep their order."""
    bom = data.startswith(b"\xef\xbb\xbf")
    text = data[3:].decode() if bom else data.decode()
    starts = [match.start() for match in _LINE.finditer(text)] + [len(text)]

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    ordered = sorted(((offset(l1, c1), offset(l2, c2), n, content) for n, (l1, c1, l2, c2, content) in enumerate(edits)),
                     reverse=True)
    for start, end, _, content in ordered:
        text = text[:start] + content + text[end:]
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode()
