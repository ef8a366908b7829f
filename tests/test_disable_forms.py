"""Disable comments in the forms ruff, markdownlint and ESLint users write: end of line, next line,
bare, ranges; other tools' comments and misspelt ones are said so, never silently ignored."""

from __future__ import annotations

import pytest
from gitrepo import GitRepo
from kbtools import md
from kbtools import run_cli as run

DOC = "organized/knowledge/推理.md"


def reported(out: str) -> list[str]:
    """`line:rule` of each finding of the text output."""
    found = []
    for line in out.splitlines():
        parts = line.split(" ")
        if len(parts) > 1 and parts[0].count(":") >= 3:
            found.append(f"{parts[0].split(':')[1]}:{parts[1]}")
    return found


def check(git_repo: GitRepo, body: str, *args: str) -> tuple[int, list[str], str]:
    git_repo.commit_files({DOC: md(body)}, "notes")
    code, out, err = run("check", "--all", *args)
    return code, reported(out), err


@pytest.mark.parametrize("comment", [
    "<!-- kbcheck-disable-line KB005 -->",
    "<!-- kbcheck-disable KB005 -->",
    "<!-- kbcheck: disable=KB005 -->",
    "<!-- kbcheck-disable-line -->",
    "<!-- kbcheck-disable-line kb005 -->",
])
def test_a_comment_at_the_end_of_a_line_covers_that_line(git_repo: GitRepo, comment: str) -> None:
    _code, found, err = check(git_repo, f"""
        # 推理

        - 长上下文提速 2.7x {comment}
        - 显存降低 45%
        """)
    assert found == ["4:KB005"] and err == ""


def test_an_end_of_line_comment_in_a_table_row_covers_its_row(git_repo: GitRepo) -> None:
    _code, found, _err = check(git_repo, """
        # 推理

        | 方法 | 结果 |
        |---|---|
        | A | 提速 2.7x <!-- kbcheck-disable-line KB005 --> |
        | B | 提速 3.1x |
        """)
    assert found == ["6:KB005"]


@pytest.mark.parametrize("gap", ["", "\n"])
def test_disable_next_line_covers_the_next_line_that_is_not_blank(git_repo: GitRepo, gap: str) -> None:
    _code, found, err = check(git_repo, "# 推理\n\n<!-- kbcheck-disable-next-line KB005 -->\n" + gap +
                              "- 长上下文提速 2.7x\n- 显存降低 45%\n")
    assert found == [f"{5 + len(gap)}:KB005"] and err == ""


def test_disable_next_line_names_its_rules(git_repo: GitRepo) -> None:
    _code, found, _err = check(git_repo, """
        # 推理

        <!-- kbcheck-disable-next-line KB009 -->
        - 长上下文提速 2.7x，见 [笔记](missing.md)
        """)
    assert found == ["4:KB005"]  # KB009 is hidden, KB005 is not


def test_a_bare_comment_covers_every_rule(git_repo: GitRepo) -> None:
    _code, found, _err = check(git_repo, """
        # 推理

        <!-- kbcheck-disable-next-line -->
        - 长上下文提速 2.7x，见 [笔记](missing.md)
        - 显存降低 45%，见 [笔记](missing.md)
        """)
    assert found == ["5:KB005", "5:KB009"]


def test_a_bare_disable_file_covers_the_whole_file(git_repo: GitRepo) -> None:
    git_repo.commit_files({DOC: "# 推理\n\n- 提速 2.7x [笔记](missing.md)\n\n<!-- kbcheck-disable-file -->\n"}, "n")
    code, out, err = run("check", "--all")
    assert (code, out, err) == (0, "No findings in 1 file (2 suppressed).\n", "")


def test_a_range_runs_from_disable_to_enable(git_repo: GitRepo) -> None:
    _code, found, err = check(git_repo, """
        # 推理

        - 提速 1.5x

        <!-- kbcheck-disable KB005 -->

        - 提速 2.7x
        - 提速 3.1x，见 [笔记](missing.md)

        <!-- kbcheck-enable KB005 -->

        - 提速 4.2x
        """)
    assert found == ["3:KB005", "8:KB009", "12:KB005"] and err == ""


def test_a_range_without_enable_runs_to_the_end_and_a_named_enable_ends_only_its_rule(git_repo: GitRepo) -> None:
    _code, found, _err = check(git_repo, """
        # 推理

        <!-- kbcheck-disable KB005, KB009 -->

        - 提速 2.7x，见 [笔记](missing.md)

        <!-- kbcheck-enable KB009 -->

        - 提速 3.1x，见 [笔记](missing.md)
        """)
    assert found == ["9:KB009"]


def test_a_bare_enable_ends_every_range(git_repo: GitRepo) -> None:
    _code, found, _err = check(git_repo, """
        # 推理

        <!-- kbcheck-disable -->
        - 提速 2.7x
        <!-- kbcheck-enable -->
        - 提速 3.1x
        """)
    assert found == ["6:KB005"]


def test_comments_in_code_are_text(git_repo: GitRepo) -> None:
    _code, found, err = check(git_repo, """
        # 推理

        ```markdown
        <!-- kbcheck-disable -->
        <!-- markdownlint-disable -->
        <!-- kbcheck-disabel KB005 -->
        ```

        `<!-- kbcheck-disable-next-line -->`
        - 提速 2.7x
        """)
    assert found == ["10:KB005"] and err == ""


def test_other_tools_comments_are_said_once_with_what_to_write(git_repo: GitRepo) -> None:
    git_repo.commit_files({
        DOC: "# 推理\n\n<!-- markdownlint-disable MD013 -->\n- 提速 2.7x\n<!-- markdownlint-enable MD013 -->\n",
        "organized/knowledge/b.md": "# B\n\n<!-- vale off -->\n- 提速 3.1x\n<!-- vale on -->\n\n"
                                    "<!-- markdownlint-disable -->\n",
    }, "notes")
    _code, out, err = run("check", "--all")
    # once per tool, in the order the files are checked (by cache shard, not by path)
    assert sorted(err.splitlines()) == [
        "kbcheck: kbcheck does not read Vale's comments (`<!-- vale off -->`); to hide a kbcheck finding write "
        "`<!-- kbcheck-disable -->` … `<!-- kbcheck-enable -->` (docs/rules.md)",
        "kbcheck: kbcheck does not read markdownlint's comments (`<!-- markdownlint-disable -->`); to hide a "
        "kbcheck finding write `<!-- kbcheck-disable KBnnn -->` … `<!-- kbcheck-enable KBnnn -->` (docs/rules.md)",
    ]
    assert reported(out) == ["4:KB005", "4:KB005"]  # both numbers are still reported


@pytest.mark.parametrize("comment", [
    "<!-- kbcheck-disabel KB005 -->",
    "<!-- kbcheck disable KB005 -->",
    "<!-- kbcheck: enable=KB005 -->",
    "<!-- kbcheck-disable KB005; KB006 -->",
])
def test_a_kbcheck_comment_in_no_known_form_is_a_notice_naming_its_place(git_repo: GitRepo, comment: str) -> None:
    _code, found, err = check(git_repo, f"# 推理\n\n{comment}\n- 提速 2.7x\n")
    assert found == ["4:KB005"]
    assert err.startswith(f"kbcheck: {DOC}:3: kbcheck does not understand the comment {comment}: it disables nothing")


def test_ordinary_comments_say_nothing(git_repo: GitRepo) -> None:
    _code, found, err = check(git_repo, "# 推理\n\n<!-- TODO: sources -->\n- 提速 2.7x <!-- check this -->\n"
                                        "<!-- valeriy's note -->\n")
    assert found == ["4:KB005"] and err == ""


def test_an_unused_comment_of_the_new_forms_is_reported_when_asked(git_repo: GitRepo) -> None:
    code, found, err = check(git_repo, """
        # 推理

        <!-- kbcheck-disable-next-line KB005 -->
        - 提速 2.7x
        <!-- kbcheck-disable-next-line KB005 -->
        - 没有数字
        - 也没有 <!-- kbcheck-disable-line -->
        """, "--report-unused-disables")
    assert found == ["5:KB010", "7:KB010"] and err == ""
    assert code == 1
