"""Disable comments you can trust: an unknown rule is said so, `--report-unused-disables` finds dead ones."""

from __future__ import annotations

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

DOC = "organized/knowledge/推理.md"
BODY = """# 推理

## §4.1 投机解码

<!-- kbcheck: disable=KB005 -->
- 长上下文提速 2.7x

<!-- kbcheck: disable=KB005 -->
- 这一条没有数字

<!-- kbcheck: disable=KB05 -->
- 显存降低 45%

<!-- kbcheck: disable=unverified-number -->
- 吞吐提升 3倍

```markdown
<!-- kbcheck: disable=KB999 -->
```
"""


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    # one paper card, so that KB004 has cards to compare the note's unknown id with
    git_repo.commit_files({DOC: BODY, "inbox/tom/note.md": "# Note\n\n- Latency fell to 350ms (arXiv:2610.00001).\n",
                           "organized/paper_cards/0001-2610-00002.md": '---\narxiv: "2610.00002"\ntitle: "A paper"\n---\n'},
                          "notes")
    return git_repo


def test_a_disable_comment_naming_an_unknown_rule_is_a_kb010_finding(kb: GitRepo) -> None:
    code, out, err = run("check", "--all")
    assert err == ""
    lines = out.splitlines()[:-2]
    assert [line.split(" ")[0] for line in lines] == [
        "inbox/tom/note.md:3:26:", f"{DOC}:11:1:", f"{DOC}:12:8:", f"{DOC}:14:1:", f"{DOC}:15:8:"]
    # the typo hides nothing: both findings it meant to suppress are still there
    assert lines[1] == f"{DOC}:11:1: KB010 [*] disable comment names unknown rule 'KB05'; did you mean KB005?"
    assert lines[3] == (f"{DOC}:14:1: KB010 [*] disable comment names unknown rule 'unverified-number'; "
                        "write the id KB005, not the name")
    assert code == 1  # KB004 (an error) on the note


def test_known_rules_and_comments_in_code_are_not_reported(git_repo: GitRepo) -> None:
    git_repo.commit_files({DOC: "# 推理\n\n<!-- kbcheck: disable-file=KB005, KB009 -->\n\n- 提速 2.7x\n\n"
                                "```\n<!-- kbcheck: disable=KB42 -->\n```\n"}, "clean")
    code, out, err = run("check", "--all")
    assert (code, err) == (0, "")
    assert out == "No findings in 1 file (1 suppressed).\n"


def test_kb010_is_a_rule_like_any_other(kb: GitRepo) -> None:
    assert "KB010" not in run("check", "--all", "--ignore", "KB010")[1]
    assert "KB010" not in run("check", "--all", "--select", "KB005")[1]
    kb.commit_files({".kbcheck.toml": 'per-file-ignores = {"organized/**" = ["KB010"]}\n'}, "config")
    assert "KB010" not in run("check", "--all")[1]


def test_unused_disables_are_reported_only_when_asked(kb: GitRepo) -> None:
    assert "unused" not in run("check", "--all")[1]
    code, out, _err = run("check", "--all", "--report-unused-disables")
    assert f"{DOC}:8:1: KB010 [*] unused disable comment: KB005 reports nothing it covers" in out.splitlines()
    assert f"{DOC}:5:1: KB010" not in out  # this one hides 2.7x
    assert code == 1
    assert run("check", "--all", "--report-unused-disables", "--exit-zero")[0] == 0


def test_the_configuration_asks_for_unused_disables_too(kb: GitRepo) -> None:
    kb.commit_files({".kbcheck.toml": '[rules.KB010]\nreport = ["unknown", "unused"]\n'}, "config")
    code, out, _err = run("check", "--all", "--select", "KB005,KB010")
    assert f"{DOC}:8:1: KB010 [*] unused disable comment: KB005 reports nothing it covers" in out.splitlines()
    assert code == 1


def test_unused_disables_are_findings_in_every_format(kb: GitRepo) -> None:
    import json

    _code, out, _err = run("check", "--all", "--report-unused-disables", "--format", "json")
    found = [f for f in json.loads(out)["findings"] if f["rule"] == "KB010"]
    assert [(f["line"], f["data"]["why"], f["data"]["written"]) for f in found] == [
        (8, "unused", "KB005"), (11, "unknown", "KB05"), (14, "unknown", "unverified-number")]
    for fmt in ("sarif", "github", "gitlab"):
        assert "KB010" in run("check", "--all", "--report-unused-disables", "--format", fmt)[1]


def test_a_disable_for_a_rule_that_did_not_run_is_not_unused(kb: GitRepo) -> None:
    code, out, _err = run("check", "--all", "--report-unused-disables", "--select", "KB009,KB010")
    assert "unused" not in out and code == 0


def test_disable_file_that_suppresses_something_is_used(git_repo: GitRepo) -> None:
    git_repo.commit_files({"inbox/tom/brief.md": "<!-- kbcheck: disable-file=KB005 -->\n# Brief\n\n- 提速 2.7x\n",
                           "inbox/tom/clean.md": "<!-- kbcheck: disable-file=KB005 -->\n# Clean\n\n- 没有数字\n"}, "b")
    _code, out, _err = run("check", "--all", "--report-unused-disables")
    assert out.splitlines()[0] == "inbox/tom/clean.md:1:1: KB010 [*] unused disable comment: KB005 reports nothing it covers"
    assert "brief.md" not in out


def test_kb007_cannot_be_disabled_by_a_comment(git_repo: GitRepo) -> None:
    git_repo.commit_files({"inbox/tom/brief.md": "<!-- kbcheck: disable-file=KB007 -->\n# Brief\n"}, "b")
    _code, out, _err = run("check", "--all")
    assert out.startswith("inbox/tom/brief.md:1:1: KB010 [*] KB007 judges the change, not the text: "
                          "a disable comment cannot suppress it")


def test_a_comment_naming_kb010_hides_its_findings_and_a_bare_one_does_not(git_repo: GitRepo) -> None:
    git_repo.commit_files({DOC: "# 推理\n\n- 没有数字 <!-- kbcheck-disable-line KB05 KB010 -->\n"
                                "- 也没有 <!-- kbcheck-disable-line -->\n"}, "n")
    _code, out, _err = run("check", "--all", "--report-unused-disables")
    assert [line.split(" ")[0] for line in out.splitlines()[:-2]] == [f"{DOC}:4:7:"]


@pytest.mark.parametrize(("before", "after"), [
    ("# 推理\n\n<!-- kbcheck-disable-next-line KB005 -->\n- 没有数字\n", "# 推理\n\n- 没有数字\n"),
    ("# 推理\n\n<!-- kbcheck-disable-next-line KB005 -->\r\n- 没有数字\r\n", "# 推理\n\n- 没有数字\r\n"),
    ("# 推理\n\n- 没有数字  <!-- kbcheck-disable-line KB005 -->\n", "# 推理\n\n- 没有数字\n"),
    ("# 推理\n\n<!-- kbcheck-disable-next-line KB05, KB009 -->\n- 没有数字 [x](x.md)\n",
     "# 推理\n\n<!-- kbcheck-disable-next-line KB009 -->\n- 没有数字 [x](x.md)\n"),
    ("# 推理\n\n<!-- kbcheck: disable=KB009, unverified-number -->\n- 没有数字 [x](x.md)\n",
     "# 推理\n\n<!-- kbcheck: disable=KB009 -->\n- 没有数字 [x](x.md)\n"),
    ("# 推理\n\n<!-- kbcheck-disable -->\n- 没有数字\n<!-- kbcheck-enable -->\n",
     "# 推理\n\n- 没有数字\n<!-- kbcheck-enable -->\n"),
])
def test_fix_removes_the_useless_id_or_the_comment(git_repo: GitRepo, before: str, after: str) -> None:
    git_repo.commit_files({DOC: before}, "n")
    run("check", "--all", "--report-unused-disables", "--fix")
    assert (git_repo.path / DOC).read_bytes().decode("utf-8") == after


def test_fix_leaves_a_used_comment_alone(git_repo: GitRepo) -> None:
    body = "# 推理\n\n<!-- kbcheck-disable-next-line KB005 -->\n- 提速 2.7x\n"
    git_repo.commit_files({DOC: body}, "n")
    run("check", "--all", "--report-unused-disables", "--fix")
    assert (git_repo.path / DOC).read_text(encoding="utf-8") == body
