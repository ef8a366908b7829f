"""Command-line habits of ruff users: `--stdin-filename`, `--config key=value`, `--per-file-ignores`,
`--output-format full`, and `extend` in the configuration; each run in a real repository."""

from __future__ import annotations

import io
import sys

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

DOC = "organized/knowledge/推理.md"
BODY = "# 推理\n\n## 速度\n- 长上下文提速 2.7x\n- 见 [笔记](missing.md)\n"


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files({DOC: BODY}, "notes")
    return git_repo


def rules_of(out: str) -> list[str]:
    return [line.split(" ")[1] for line in out.splitlines() if line.startswith(("organized/", "inbox/"))]


def with_stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


# -- --stdin-filename -------------------------------------------------------------------------

def test_stdin_is_checked_as_the_file_it_names(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    with_stdin(monkeypatch, "# 推理\n\n- 显存降低 45%\n")  # the editor's buffer, not the file on disk
    code, out, err = run("check", "--stdin-filename", DOC)
    assert out.splitlines()[0].startswith(f"{DOC}:3:8: KB005 45%")
    assert out.splitlines()[-1] == "0 errors, 1 warning in 1 file"
    assert (code, err) == (0, "")
    assert (kb.path / DOC).read_text(encoding="utf-8") == BODY


def test_stdin_may_name_a_file_not_yet_on_disk(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    with_stdin(monkeypatch, "# 新\n\n见 [笔记](推理.md) 与 [另一篇](gone.md)\n")
    _code, out, _err = run("check", "--stdin-filename", "organized/knowledge/new.md", "--select", "KB009")
    assert out.splitlines()[:-1] == [
        "organized/knowledge/new.md:3:23: KB009 gone.md does not exist in the checked tree "
        "(resolved to organized/knowledge/gone.md)"]


def test_a_clean_buffer_passes(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    with_stdin(monkeypatch, "# 推理\n\n没有数字。\n")
    assert run("check", "--stdin-filename", DOC) == (0, "No findings in 1 file.\n", "")


@pytest.mark.parametrize("extra", [["--all"], ["--staged"], [DOC], ["--fix"]])
def test_stdin_filename_is_one_file_and_writes_nothing(kb: GitRepo, monkeypatch: pytest.MonkeyPatch,
                                                     extra: list[str]) -> None:
    with_stdin(monkeypatch, "# x\n")
    code, out, err = run("check", "--stdin-filename", DOC, *extra)
    assert (code, out) == (2, "") and err.startswith("kbcheck: error: ") and "--stdin-filename" in err


def test_stdin_filename_outside_the_repository_is_refused(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    with_stdin(monkeypatch, "# x\n")
    code, _out, err = run("check", "--stdin-filename", "../elsewhere.md")
    assert code == 2 and err == "kbcheck: error: path is outside the repository: ../elsewhere.md\n"


# -- --config key=value ------------------------------------------------------------------------

def test_a_config_override_is_toml_over_the_file(kb: GitRepo) -> None:
    kb.commit_files({".kbcheck.toml": 'ignore = ["KB009"]\n'}, "config")
    assert rules_of(run("check", "--all")[1]) == ["KB005"]
    assert rules_of(run("check", "--all", "--config", "ignore = []")[1]) == ["KB005", "KB009"]
    code, out, _err = run("check", "--all", "--config", 'ignore = ["KB005", "KB009"]')
    assert (code, out) == (0, "No findings in 1 file.\n")


def test_overrides_merge_tables_and_stack(kb: GitRepo) -> None:
    code, out, _err = run("check", "--all", "--show-settings", "--config", 'rules.KB010.report = ["unknown", "unused"]',
                          "--config", 'severity = {KB005 = "error"}')
    assert code == 0
    assert 'rules = {"KB010" = {"report" = ["unknown", "unused"]}}' in out
    assert 'severity = {"KB005" = "error"}' in out


def test_a_config_file_is_still_a_file(kb: GitRepo) -> None:
    (kb.path / "other=name.toml").write_text('ignore = ["KB005"]\n', encoding="utf-8")
    assert rules_of(run("check", "--all", "--config", "other=name.toml")[1]) == ["KB009"]


@pytest.mark.parametrize(("override", "message"), [
    ("ignor = []", "kbcheck: error: unknown key 'ignor' in --config; did you mean 'ignore'?\n"),
    ('ignore = ["KB099"]', "kbcheck: error: unknown rule 'KB099' in 'ignore' in --config; did you mean 'KB009'?\n"),
    ("lang = ", "kbcheck: error: --config 'lang = ' is neither a file nor a TOML 'key = value': "
                "Invalid value (at end of document)\n"),
])
def test_a_bad_override_is_one_line_naming_it(kb: GitRepo, override: str, message: str) -> None:
    assert run("check", "--all", "--config", override) == (2, "", message)


# -- --per-file-ignores ------------------------------------------------------------------------

def test_per_file_ignores_on_the_command_line(kb: GitRepo) -> None:
    kb.commit_files({"inbox/tom/brief.md": "# Brief\n\n- 提速 3.1x\n"}, "brief")
    _code, out, _err = run("check", "--all", "--per-file-ignores", "organized/**:unverified-number,KB009")
    assert rules_of(out) == ["KB005"] and out.startswith("inbox/tom/brief.md:")
    _code, out, _err = run("check", "--all", "--per-file-ignores", "inbox/**:KB005",
                           "--per-file-ignores", "organized/**:KB009")
    assert rules_of(out) == ["KB005"] and out.startswith(f"{DOC}:4:")


@pytest.mark.parametrize("value", ["organized/**", ":KB005", "organized/**:"])
def test_per_file_ignores_needs_glob_and_rules(kb: GitRepo, value: str) -> None:
    code, _out, err = run("check", "--all", "--per-file-ignores", value)
    assert code == 2 and err.startswith("kbcheck: error: --per-file-ignores takes GLOB:RULES")


def test_per_file_ignores_names_an_unknown_rule(kb: GitRepo) -> None:
    code, _out, err = run("check", "--all", "--per-file-ignores", "organized/**:KB05")
    assert code == 2 and err.startswith("kbcheck: error: unknown rule 'KB05'")


# -- extend ------------------------------------------------------------------------------------

def test_extend_reads_the_shared_file_under_this_one(kb: GitRepo) -> None:
    kb.commit_files({"config/base.toml": 'ignore = ["KB009"]\nseverity = {KB005 = "error"}\n',
                     ".kbcheck.toml": 'extend = "config/base.toml"\nseverity = {KB009 = "error"}\n'}, "config")
    code, out, _err = run("check", "--all")
    assert rules_of(out) == ["KB005"] and code == 1  # KB009 ignored by the base; KB005 an error there
    code, out, _err = run("check", "--all", "--show-settings")
    assert 'severity = {"KB005" = "error", "KB009" = "error"}' in out


def test_extend_chains_relative_to_each_file(kb: GitRepo) -> None:
    kb.commit_files({"config/org.toml": 'ignore = ["KB005"]\n', "config/team.toml": 'extend = "org.toml"\n',
                     ".kbcheck.toml": 'extend = "config/team.toml"\n'}, "config")
    assert rules_of(run("check", "--all")[1]) == ["KB009"]


@pytest.mark.parametrize(("files", "message"), [
    ({".kbcheck.toml": 'extend = "nowhere.toml"\n'},
     "kbcheck: error: 'extend' in .kbcheck.toml: config file 'nowhere.toml' not found\n"),
    ({".kbcheck.toml": 'extend = "a.toml"\n', "a.toml": 'extend = ".kbcheck.toml"\n'},
     "kbcheck: error: 'extend' in a.toml makes a loop or a chain over 8 files: .kbcheck.toml\n"),
    ({".kbcheck.toml": "extend = 3\n"},
     "kbcheck: error: 'extend' in .kbcheck.toml must be the path of a configuration file, got an integer (3)\n"),
])
def test_a_bad_extend_is_one_line(kb: GitRepo, files: dict[str, str], message: str) -> None:
    kb.commit_files(files, "config")
    assert run("check", "--all") == (2, "", message)


def test_kb007_reads_extend_at_the_trusted_revision(kb: GitRepo) -> None:
    kb.commit_files({"config/base.toml": '[authors.tom]\nemails = ["tom@example.org"]\nrole = "writer"\n',
                     ".kbcheck.toml": 'extend = "config/base.toml"\n'}, "config")
    kb.commit_files({"organized/knowledge/other.md": "# Other\n"}, "tom writes outside his inbox")
    code, out, _err = run("check", "--diff", "HEAD~1", "--select", "KB007")
    assert code == 1 and rules_of(out) == ["KB007"]


# -- --output-format full ----------------------------------------------------------------------

def test_full_shows_each_finding_with_its_source_lines(kb: GitRepo) -> None:
    code, out, _err = run("check", "--all", "--output-format", "full")
    assert out.splitlines() == [
        f"{DOC}:4:10: KB005 2.7x has no source in its block, its sections or the file's own sources; "
        "cite the paper, repo or card it comes from",
        "  |",
        "3 | ## 速度",
        "4 | - 长上下文提速 2.7x",
        "  |                ^",  # under `2`: each CJK character takes two cells
        "  |",
        f"{DOC}:5:10: KB009 missing.md does not exist in the checked tree (resolved to organized/knowledge/missing.md)",
        "  |",
        "4 | - 长上下文提速 2.7x",
        "5 | - 见 [笔记](missing.md)",
        "  |             ^",
        "  |",
        "0 errors, 2 warnings in 1 file",
    ]
    assert code == 0
    assert run("check", "--all", "--format", "full")[1] == out


def test_full_without_findings_and_with_statistics_is_the_text_format(kb: GitRepo) -> None:
    assert run("check", "--all", "--format", "full", "--statistics")[1] == run("check", "--all", "--statistics")[1]
    assert run("check", "--all", "--format", "full", "--ignore", "KB005,KB009")[1] == "No findings in 1 file.\n"


def test_full_shows_a_file_level_finding_alone(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": "max-file-size = 10\n", DOC: BODY}, "big")
    _code, out, _err = run("check", "--all", "--format", "full")
    assert out.splitlines()[0].startswith(f"{DOC}:1:1: KB000")
    assert out.splitlines()[1] == "0 errors, 1 warning in 1 file"
