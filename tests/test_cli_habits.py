"""The habits of ruff and flake8 users: --output, --exit-zero, --statistics, -q, --color,
explain by name, "did you mean", and paths from where you stand."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

from kbcheck.check_output import statistics_lines
from kbcheck.cli import main
from kbcheck.color import use_color
from kbcheck.explain_render import explain, render_markdown
from kbcheck.findings import Finding, Report
from kbcheck.rules import find_rule

DOC = "organized/knowledge/推理.md"
NOTE = "inbox/tom/2026-11-02-brief.md"
FILES = {
    DOC: "# 推理\n\n## §4.1 投机解码\n\n- 长上下文提速 2.7x\n- 显存降低 45%\n\n## §6.2 趋势\n\n- 无源趋势在变强\n",
    NOTE: "# Brief\n\n## Numbers\n\n- Throughput went up 3x last week.\n",
}


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files(FILES, "notes")
    return git_repo


def test_output_writes_the_report_to_a_file_and_nothing_to_stdout(kb: GitRepo) -> None:
    code, out, _ = run("check", "--all", "--format", "json", "--output", "../report.json")
    assert (code, out) == (1, "")
    report = json.loads((kb.path.parent / "report.json").read_text("utf-8"))
    assert [(f["rule"], f["path"], f["line"], f["column"], f["subject"]) for f in report["findings"]] == [
        ("KB005", NOTE, 5, 22, "3x"), ("KB005", DOC, 5, 10, "2.7x"), ("KB005", DOC, 6, 8, "45%"),
        ("KB001", DOC, 10, 1, "无源趋势在变强")]


def test_output_is_relative_to_where_you_stand(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = kb.path.parent / "elsewhere"
    outside.mkdir()
    monkeypatch.chdir(outside)
    code, out, _ = run("check", "../kb", "--output", "report.txt", "--color", "always")
    assert (code, out) == (1, "")
    lines = (outside / "report.txt").read_text("utf-8").splitlines()
    assert lines[0].startswith("\033[1m../kb/inbox/tom/2026-11-02-brief.md:5:22:\033[0m ")
    assert lines[-1] == "1 error, 3 warnings in 2 files"


def test_exit_zero_keeps_errors_from_failing_the_run(kb: GitRepo) -> None:
    code, out, _ = run("check", "--all")
    assert code == 1 and f"{DOC}:10:1: KB001 " in out
    code, out, _ = run("check", "--all", "--exit-zero")
    assert code == 0 and f"{DOC}:10:1: KB001 " in out
    assert run("check", "--all", "--exit-zero", "--config", "missing.toml")[0] == 2  # usage errors still fail


def test_statistics_print_only_the_count_per_rule(kb: GitRepo) -> None:
    _code, out, _ = run("check", "--all", "--statistics")
    assert out.splitlines() == ["3  KB005  unverified-number", "1  KB001  uncited-trend-line",
                                "1 error, 3 warnings in 2 files"]
    code, out, _ = run("check", "--all", "--statistics", "--format", "json")
    assert code == 1
    assert json.loads(out) == {"version": 1, "statistics": [
        {"rule": "KB005", "name": "unverified-number", "count": 3},
        {"rule": "KB001", "name": "uncited-trend-line", "count": 1}],
        "summary": {"files": 2, "errors": 1, "warnings": 3, "suppressed": 0}}
    assert run("check", "--all", "--statistics", "--format", "sarif")[0] == 2


def test_rules_by_name_extend_select_and_ignore(kb: GitRepo) -> None:
    def rules(*argv: str) -> list[str]:
        code, out, err = run("check", "--all", "--format", "json", *argv)
        assert code in (0, 1), err
        return sorted({f["rule"] for f in json.loads(out)["findings"]})

    assert rules("--select", "unverified-number") == ["KB005"]
    assert rules("--select", "uncited-trend-line,KB005") == ["KB001", "KB005"]
    assert rules("--ignore", "KB005") == ["KB001"]
    assert rules("--select", "KB001,KB005", "--ignore", "unverified-number") == ["KB001"]
    kb.commit_files({".kbcheck.toml": 'ignore = ["KB005"]\n'}, "ignore KB005")
    assert rules() == ["KB001"]
    assert rules("--extend-select", "KB005") == ["KB001", "KB005"]
    assert run("check", "--all", "--ignore", "no-such-rule")[0] == 2


def test_statistics_of_a_clean_run_add_nothing() -> None:
    assert statistics_lines(Report((), 3)) == []


def test_quiet_prints_findings_only(kb: GitRepo) -> None:
    kb.commit_files({"organized/knowledge/blob.md": b"\xff\xfe not utf-8"}, "binary")
    code, out, err = run("check", "--all", "-q")
    assert out.splitlines() == [
        f"{NOTE}:5:22: KB005 3x has no source in its block, its sections or the file's own sources; cite the paper, repo or card it comes from",
        "organized/knowledge/blob.md:1:1: KB000 organized/knowledge/blob.md could not be read, so nothing in it "
        "was checked (skipped: not UTF-8 (byte 0xff at offset 0))",
        f"{DOC}:5:10: KB005 2.7x has no source in its block, its sections or the file's own sources; cite the paper, repo or card it comes from",
        f"{DOC}:6:8: KB005 45% has no source in its block, its sections or the file's own sources; cite the paper, repo or card it comes from",
        f'{DOC}:10:1: KB001 trend line cites no source: "无源趋势在变强"; add the arXiv id, DOI, repo or card it rests on',
    ]
    assert (code, err) == (1, "")
    code, out, err = run("check", "--all", "--ignore", "KB000")  # a notice says it then, and -q keeps it out
    assert out.splitlines()[-1] == "1 error, 3 warnings in 3 files"
    assert err == "kbcheck: organized/knowledge/blob.md: skipped: not UTF-8 (byte 0xff at offset 0)\n"
    assert run("check", "--all", "--ignore", "KB000", "-q")[2] == ""


FINDING = Finding("KB005", "unverified-number", "warning", DOC, 5, 7, 5, "m", "2.7x", "f" * 32)


@pytest.mark.parametrize(("choice", "env", "tty", "expected"), [
    ("auto", {}, True, True),
    ("auto", {}, False, False),
    ("auto", {"NO_COLOR": "1"}, True, False),
    ("auto", {"NO_COLOR": ""}, True, True),  # an empty NO_COLOR is unset (no-color.org)
    ("auto", {"FORCE_COLOR": "1"}, False, True),
    ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
    ("auto", {"TERM": "dumb"}, True, False),
    ("always", {"NO_COLOR": "1"}, False, True),
    ("never", {"FORCE_COLOR": "1"}, True, False),
])
def test_color_choice(choice: str, env: dict[str, str], tty: bool, expected: bool) -> None:
    assert use_color(choice, Tty() if tty else io.StringIO(), env) is expected


def test_color_flag_reaches_the_text_output(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "\033[" in run("check", "--all", "--color", "always")[1]
    assert "\033[" not in run("check", "--all")[1]  # a pipe
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\033[1;33mKB005\033[0m" in run("check", "--all")[1]
    assert "\033[" not in run("check", "--all", "--color", "never")[1]


def test_explain_takes_a_name_or_an_id() -> None:
    assert find_rule("unverified-number").id == "KB005"
    assert find_rule("kb005").id == "KB005"
    assert find_rule("Stale-Number").id == "KB006"
    code, out, err = run("explain", "unverifed-number")
    assert code == 2 and "did you mean unverified-number?" in err
    code, out, _ = run("explain", "uncited-trend-line")
    assert code == 0 and out.startswith("KB001 uncited-trend-line (default severity: ")


def test_explain_piped_is_the_markdown_as_written() -> None:
    rule = find_rule("KB005")
    _code, out, _ = run("explain", "KB005")
    assert out == f"KB005 unverified-number (default severity: warning)\n\n{rule.doc}\n"
    assert "**What it catches.**" in out


def test_explain_on_a_terminal_is_rendered() -> None:
    out = Tty()
    assert main(["explain", "unverified-number"], out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "**" not in text and "\033[1m" in text
    assert "\033[2m        ### §4.1 投机解码" not in text  # code keeps its own indent once
    assert "    ### §4.1 投机解码" in text


def test_render_markdown_for_a_terminal() -> None:
    doc = ("# 标题\n\n**加粗** 与 *强调* 与 `代码`\n\n- 一\n- 二\n\n1. first\n2. second\n\n"
           "```toml\nignore = [\"KB009\"]\n```\n")
    assert render_markdown(doc, color=False) == (
        "标题\n\n加粗 与 强调 与 `代码`\n\n• 一\n\n• 二\n\n1. first\n\n2. second\n\n    ignore = [\"KB009\"]\n")
    colored = render_markdown(doc, color=True)
    assert "\033[1m标题\033[0m" in colored and "\033[36m代码\033[0m" in colored and "`" not in colored


def test_explain_renders_without_markup_left() -> None:
    text = explain(find_rule("KB003"), rendered=True, color=False)
    assert "**" not in text and "\n#" not in text


@pytest.mark.parametrize(("argv", "hint"), [
    (["chek"], "did you mean 'check'?"),
    (["check", "--stagd"], "did you mean --staged?"),
    (["check", "--exit-zeroo"], "did you mean --exit-zero?"),
    (["check", "--format", "jsn"], "did you mean 'json'?"),
    (["baseline", "updte"], "did you mean 'update'?"),
])
def test_a_typo_gets_did_you_mean(argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert hint in capsys.readouterr().err


def test_a_flag_of_another_subcommand_is_said_to_be_its_with_this_ones_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--top", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: kbcheck check ")
    assert err.endswith("kbcheck check: error: unrecognized arguments: --top; --top is an option of `kbcheck suggest`\n")
    assert main(["check", "--formt", "json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: kbcheck check ") and "did you mean --format?" in err


def test_no_suggestion_for_a_word_unlike_any(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--zzzzzzzz"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --zzzzzzzz" in err and "did you mean" not in err


def test_from_a_subfolder_paths_print_relative_to_it(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(kb.path / "inbox")
    _code, out, _ = run("check", "--all", "-q")
    assert [line.split(" ")[0] for line in out.splitlines()] == [
        "tom/2026-11-02-brief.md:5:22:", "../organized/knowledge/推理.md:5:10:",
        "../organized/knowledge/推理.md:6:8:", "../organized/knowledge/推理.md:10:1:"]
    _code, out, _ = run("check", "tom", "-q")  # a path relative to the subfolder
    assert [line.split(" ")[0] for line in out.splitlines()] == ["tom/2026-11-02-brief.md:5:22:"]
    _code, out, _ = run("check", str(kb.path / DOC), "-q")  # an absolute path
    assert out.splitlines()[0].startswith("../organized/knowledge/推理.md:5:10: KB005 ")
    _code, out, _ = run("check", "--all", "--format", "json")  # machine formats stay repo-relative
    assert json.loads(out)["findings"][1]["path"] == DOC


def test_from_outside_the_repository_a_path_finds_its_repository(kb: GitRepo, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    monkeypatch.chdir(outside)
    code, out, err = run("check", str(kb.path / "organized"), "-q")
    assert err == ""
    assert out.splitlines()[0].startswith("../kb/organized/knowledge/推理.md:5:10: KB005 ")
    code, out, err = run("check", os.path.relpath(kb.path / NOTE, outside))
    assert out.startswith("../kb/inbox/tom/2026-11-02-brief.md:5:")
    code, out, err = run("check", "--all")  # no path: the current folder decides, and it is no repository
    assert code == 2 and "not a git repository" in err


def test_digest_takes_o_for_its_output_too(kb: GitRepo) -> None:
    code, out, err = run("digest", "--since", "HEAD", "-o", "brief.md")
    assert (code, out) == (0, ""), err
    assert (kb.path / "brief.md").read_text(encoding="utf-8").startswith("#")


@pytest.mark.parametrize(("flag", "value", "meant"), [
    ("--select", "kb5", "KB005"), ("--ignore", "unverified-numbr", "unverified-number"),
    ("--extend-select", "KB01", "KB010"), ("--per-file-ignores", "inbox/**:KB009,KB0O5", "KB005")])
def test_a_misspelt_rule_on_the_command_line_gets_the_closest_spelling(kb: GitRepo, flag: str, value: str,
                                                                       meant: str) -> None:
    code, out, err = run("check", "--all", flag, value)
    assert (code, out) == (2, "")
    assert err.startswith("kbcheck: error: unknown rule '") and f"; did you mean {meant}? (valid rules: KB000, " in err


def test_a_rule_named_nothing_like_any_gets_the_list_without_a_guess(kb: GitRepo) -> None:
    code, _, err = run("check", "--all", "--select", "spelling")
    assert code == 2 and "did you mean" not in err
    assert err == ("kbcheck: error: unknown rule 'spelling' (valid rules: KB000, KB001, KB002, KB003, KB004, KB005, "
                   "KB006, KB007, KB008, KB009, KB010, or their names; see `kbcheck rules`)\n")
