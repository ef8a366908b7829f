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


def test_a_disable_comment_naming_an_unknown_rule_is_a_notice(kb: GitRepo) -> None:
    code, out, err = run("check", "--all")
    assert err.splitlines() == [
        f"kbcheck: {DOC}:11: disable comment names unknown rule 'KB05'; did you mean KB005?",
        f"kbcheck: {DOC}:14: disable comment names unknown rule 'unverified-number'; write the id KB005, not the name",
    ]
    # the typo hides nothing: both findings it meant to suppress are still there
    assert [line.split(" ")[0] for line in out.splitlines()[:-1]] == [
        "inbox/tom/note.md:3:26:", f"{DOC}:12:8:", f"{DOC}:15:8:"]
    assert code == 1  # KB004 (an error) on the note


def test_known_rules_and_comments_in_code_are_not_reported(git_repo: GitRepo) -> None:
    git_repo.commit_files({DOC: "# 推理\n\n<!-- kbcheck: disable-file=KB005, KB009 -->\n\n- 提速 2.7x\n\n"
                                "```\n<!-- kbcheck: disable=KB42 -->\n```\n"}, "clean")
    code, out, err = run("check", "--all")
    assert (code, err) == (0, "")
    assert out == "No findings in 1 file (1 suppressed).\n"


def test_unused_disables_are_reported_only_when_asked(kb: GitRepo) -> None:
    assert "unused" not in run("check", "--all")[2]
    code, _out, err = run("check", "--all", "--report-unused-disables")
    assert f"kbcheck: {DOC}:8: unused disable comment: KB005 reports nothing it covers" in err.splitlines()
    assert f"{DOC}:5:" not in err  # this one hides 2.7x
    assert code == 1
    assert run("check", "--all", "--report-unused-disables", "--exit-zero")[0] == 0


def test_a_disable_for_a_rule_that_did_not_run_is_not_unused(kb: GitRepo) -> None:
    code, _out, err = run("check", "--all", "--report-unused-disables", "--select", "KB009")
    assert "unused" not in err and code == 0


def test_disable_file_that_suppresses_something_is_used(git_repo: GitRepo) -> None:
    git_repo.commit_files({"inbox/tom/brief.md": "<!-- kbcheck: disable-file=KB005 -->\n# Brief\n\n- 提速 2.7x\n",
                           "inbox/tom/clean.md": "<!-- kbcheck: disable-file=KB005 -->\n# Clean\n\n- 没有数字\n"}, "b")
    _code, out, err = run("check", "--all", "--report-unused-disables")
    assert err.splitlines() == ["kbcheck: inbox/tom/clean.md:1: unused disable comment: KB005 reports nothing it covers"]
    assert out == "No findings in 2 files (1 suppressed).\n"


def test_kb007_cannot_be_disabled_by_a_comment(git_repo: GitRepo) -> None:
    git_repo.commit_files({"inbox/tom/brief.md": "<!-- kbcheck: disable-file=KB007 -->\n# Brief\n"}, "b")
    _code, _out, err = run("check", "--all")
    assert err.startswith("kbcheck: inbox/tom/brief.md:1: KB007 judges the change, not the text: "
                          "a disable comment cannot suppress it")
