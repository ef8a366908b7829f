"""`kbcheck check --fix`: stale numbers restated, missing references appended, in real repositories.

Each fix is checked on the file before and after; the must-not-fix cases
leave the file byte for byte as it was; the index is never written (the
read-only guard of `tests/readonly.py` fails any test whose command touches
the git dir).
"""

from __future__ import annotations

import io

import pytest
from gitrepo import GitRepo
from kbtools import md, paper_card, repo_card

from kbcheck.cli import main

DOC = "organized/knowledge/inference.md"
NOTES = "organized/knowledge/serving.md"
REC = "organized/repo_cards/4572-recursive-oss-rec.md"
INTERNALS = "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md"
JEV = "organized/paper_cards/1695-2610-02076.md"
MIMO = "organized/paper_cards/1700-2610-11959.md"
SPEC = "organized/paper_cards/1702-2610-20417.md"
CARDS: dict[str, str | bytes] = {
    REC: repo_card("recursive-oss/rec", stars=245, weekly_growth=17),
    INTERNALS: repo_card("amitshekhariitbhu/llm-internals", stars=1802, weekly_growth=0),
    JEV: paper_card("2610.02076", "LLM-as-Jev", s2_citations=19, s2_influential=2),
    MIMO: paper_card("2610.11959", "MiMo-V2.6"),
    SPEC: paper_card("2610.20417", "Speculative Decoding at Scale"),
}


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", *argv], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def kb(repo: GitRepo, text: str | bytes, path: str = DOC) -> None:
    repo.commit_files({**CARDS, path: md(text) if isinstance(text, str) else text}, "kb")


def read(repo: GitRepo, path: str = DOC) -> str:
    return (repo.path / path).read_bytes().decode("utf-8")


# -- KB006 ---------------------------------------------------------------------------
def test_stale_star_and_growth_counts_become_the_cards_values(git_repo: GitRepo) -> None:
    kb(git_repo, """
        # 推理引擎

        ## §1.6 引擎与部署

        - recursive-oss/rec：本轮复采 243⭐ / 周增 +14
    """)
    status, out, err = cli("--all", "--fix", "--select", "KB006")
    assert read(git_repo) == md("""
        # 推理引擎

        ## §1.6 引擎与部署

        - recursive-oss/rec：本轮复采 245⭐ / 周增 +17
    """)
    assert err == f"kbcheck: fixed {DOC}: 2 problems (KB006 ×2)\n"
    assert (status, out) == (0, "No findings in 6 files.\n")  # nothing left to report
    assert git_repo.git("diff", "--cached", "--name-only") == ""  # the index is untouched
    assert git_repo.git("diff", "--name-only") == DOC  # the fix waits, unstaged, for review


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("1,771 stars", "1,802 stars"),
        ("1771⭐", "1802⭐"),
        ("stars: 1771", "stars: 1802"),
        ("weekly +3", "weekly +0"),
    ],
)
def test_separator_and_sign_styles_are_kept(git_repo: GitRepo, written: str, fixed: str) -> None:
    kb(git_repo, f"## Serving engines\n\n- amitshekhariitbhu/llm-internals has {written} this week\n")
    status, _, _ = cli("--all", "--fix", "--select", "KB006")
    assert read(git_repo) == f"## Serving engines\n\n- amitshekhariitbhu/llm-internals has {fixed} this week\n"
    assert status == 0


def test_citation_counts_in_english(git_repo: GitRepo) -> None:
    kb(git_repo, "## Judges\n\n- LLM-as-Jev (arXiv:2610.02076): 18 citations, 3 influential citations\n")
    cli("--all", "--fix", "--select", "KB006")
    assert read(git_repo) == "## Judges\n\n- LLM-as-Jev (arXiv:2610.02076): 19 citations, 2 influential citations\n"


NOT_FIXED = {
    "two cards in the block": "- recursive-oss/rec 与 amitshekhariitbhu/llm-internals：合计 243⭐\n",
    "a disable comment": "<!-- kbcheck: disable=KB006 -->\n- recursive-oss/rec：本轮复采 243⭐\n",
    "an uncertainty marker": "- recursive-oss/rec：本轮复采 243⭐（待核）\n",
    "a quoted number": '- recursive-oss/rec：旧简报写的是 "243⭐"\n',
}


@pytest.mark.parametrize("block", NOT_FIXED.values(), ids=NOT_FIXED.keys())
def test_numbers_that_are_not_provably_stale_are_left_alone(git_repo: GitRepo, block: str) -> None:
    text = f"## §1.6 引擎与部署\n\n{block}"
    kb(git_repo, text)
    status, out, err = cli("--all", "--fix", "--select", "KB006")
    assert read(git_repo) == text
    assert (status, err) == (0, "")
    assert "KB006" not in out


def test_a_number_with_a_multiplier_is_reported_not_rounded(git_repo: GitRepo) -> None:
    text = "## §1.6\n\n- amitshekhariitbhu/llm-internals：1.7k⭐\n"
    kb(git_repo, text)
    status, out, err = cli("--all", "--fix", "--select", "KB006")
    assert read(git_repo) == text
    assert f"{DOC}:3:" in out and "1.7k⭐ is stale" in out
    assert (status, err) == (0, "")


# -- KB003 ---------------------------------------------------------------------------
def test_missing_reference_is_appended_to_a_numbered_list(git_repo: GitRepo) -> None:
    kb(git_repo, """
        # 推理

        ## §3.5 RL rollout

        - MiMo-V2.6 的统一轨迹表示（arXiv:2610.11959）
        - 投机解码（arXiv:2610.20417）与 LLM-as-Jev（arXiv:2610.02076）

        ## §七 引用列表

        1. arXiv:2610.02076 — LLM-as-Jev
    """)
    status, _, err = cli("--all", "--fix", "--select", "KB003")
    assert read(git_repo).endswith(md("""
        ## §七 引用列表

        1. arXiv:2610.02076 — LLM-as-Jev
        2. arXiv:2610.11959 — MiMo-V2.6
        3. arXiv:2610.20417 — Speculative Decoding at Scale
    """))
    assert err == f"kbcheck: fixed {DOC}: 2 problems (KB003 ×2)\n"
    assert status == 0


def test_bullet_marker_indentation_and_a_following_section_are_kept(git_repo: GitRepo) -> None:
    kb(git_repo, """
        # Serving

        ## Engines

        Speculative decoding (arXiv:2610.20417) halves latency.

        ## References

          * arXiv:2610.02076

        ## Open questions

        - none yet
    """)
    cli("--all", "--fix", "--select", "KB003")
    assert read(git_repo) == md("""
        # Serving

        ## Engines

        Speculative decoding (arXiv:2610.20417) halves latency.

        ## References

          * arXiv:2610.02076
          * arXiv:2610.20417 — Speculative Decoding at Scale

        ## Open questions

        - none yet
    """)


def test_a_loose_list_gets_a_blank_line_and_an_id_without_card_gets_no_title(git_repo: GitRepo) -> None:
    kb(git_repo, """
        ## 增量

        - 新工作（arXiv:2611.00042）

        ## 参考文献

        - arXiv:2610.02076

        - arXiv:2610.11959
    """)
    cli("--all", "--fix", "--select", "KB003")
    assert read(git_repo).endswith("- arXiv:2610.11959\n\n- arXiv:2611.00042\n")


REFERENCES_NOT_A_LIST = {
    "prose after the list": "## 参考文献\n\n- arXiv:2610.02076\n\n以上为本轮引用。\n",
    "a table": "## 参考文献\n\n| id |\n| --- |\n| arXiv:2610.02076 |\n",
    "two reference sections": "## 参考文献\n\n- arXiv:2610.02076\n\n## References\n\n- arXiv:2610.11959\n",
}


@pytest.mark.parametrize("references", REFERENCES_NOT_A_LIST.values(), ids=REFERENCES_NOT_A_LIST.keys())
def test_a_reference_section_not_ending_in_a_list_is_not_fixed(git_repo: GitRepo, references: str) -> None:
    text = f"## 增量\n\n- 投机解码（arXiv:2610.20417）\n\n{references}"
    kb(git_repo, text)
    status, out, err = cli("--all", "--fix", "--select", "KB003")
    assert read(git_repo) == text
    assert "KB003 2610.20417 is mentioned" in out
    assert (status, err) == (0, "")


def test_a_suppressed_missing_reference_is_not_fixed(git_repo: GitRepo) -> None:
    text = "## 增量\n\n<!-- kbcheck: disable=KB003 -->\n- 投机解码（arXiv:2610.20417）\n\n## 参考文献\n\n- arXiv:2610.02076\n"
    kb(git_repo, text)
    status, out, err = cli("--all", "--fix", "--select", "KB003")
    assert (status, err) == (0, "") and "KB003" not in out
    assert read(git_repo) == text


# -- the file as a whole -------------------------------------------------------------
def test_crlf_line_ends_and_the_bom_are_kept(git_repo: GitRepo) -> None:
    text = "## §1.6\r\n\r\n- recursive-oss/rec：243⭐\r\n- MiMo（arXiv:2610.11959）\r\n\r\n## 参考文献\r\n\r\n- arXiv:2610.02076\r\n"
    kb(git_repo, b"\xef\xbb\xbf" + text.encode("utf-8"))
    cli("--all", "--fix", "--select", "KB003,KB006")
    fixed = (git_repo.path / DOC).read_bytes()
    assert fixed == b"\xef\xbb\xbf" + (
        "## §1.6\r\n\r\n- recursive-oss/rec：245⭐\r\n- MiMo（arXiv:2610.11959）\r\n\r\n## 参考文献\r\n\r\n"
        "- arXiv:2610.02076\r\n- arXiv:2610.11959 — MiMo-V2.6\r\n"
    ).encode()


def test_a_file_without_a_final_line_end_gets_none(git_repo: GitRepo) -> None:
    kb(git_repo, b"## A\n\n- MiMo (arXiv:2610.11959)\n\n## References\n\n- arXiv:2610.02076")
    cli("--all", "--fix", "--select", "KB003")
    assert read(git_repo).endswith("- arXiv:2610.02076\n- arXiv:2610.11959 — MiMo-V2.6")


def test_the_file_mode_is_kept_and_no_temporary_file_is_left(git_repo: GitRepo) -> None:
    kb(git_repo, "## §1.6\n\n- recursive-oss/rec：243⭐\n")
    (git_repo.path / DOC).chmod(0o664)
    cli("--all", "--fix")
    assert (git_repo.path / DOC).stat().st_mode & 0o777 == 0o664
    assert sorted(p.name for p in (git_repo.path / DOC).parent.iterdir()) == ["inference.md"]


# -- --diff ---------------------------------------------------------------------------
def test_fix_diff_prints_a_unified_diff_and_writes_nothing(git_repo: GitRepo) -> None:
    text = "## §1.6\n\n- recursive-oss/rec：本轮复采 243⭐\n"
    kb(git_repo, text)
    status, out, err = cli("--fix", "--diff", "--select", "KB006")
    assert read(git_repo) == text
    assert out == (
        f"--- a/{DOC}\n+++ b/{DOC}\n@@ -1,3 +1,3 @@\n ## §1.6\n \n"
        "-- recursive-oss/rec：本轮复采 243⭐\n+- recursive-oss/rec：本轮复采 245⭐\n"
    )
    assert err == f"kbcheck: would fix {DOC}: 1 problem (KB006 ×1)\n"
    assert status == 1  # fixes are pending
    # the diff applies cleanly with git: it is the fix
    git_repo.run("apply", "--check", input=out.encode("utf-8"))


def test_fix_diff_takes_a_path_as_the_file_to_show(git_repo: GitRepo) -> None:
    """`--fix --diff PATH`: the optional REV of --diff took the path; it is the path."""
    text = "## §1.6\n\n- recursive-oss/rec：本轮复采 243⭐\n"
    kb(git_repo, text)
    status, out, err = cli("--fix", "--diff", DOC, "--select", "KB006")
    assert read(git_repo) == text
    assert status == 1 and out.startswith(f"--- a/{DOC}\n") and "+- recursive-oss/rec：本轮复采 245⭐" in out
    assert err == f"kbcheck: would fix {DOC}: 1 problem (KB006 ×1)\n"
    git_repo.git("branch", "organized")  # a name that is a folder and a branch
    status, out, err = cli("--fix", "--diff", "organized")
    assert (status, out) == (2, "")
    assert err.startswith("kbcheck: error: --fix --diff organized: both a path and a revision")


def test_fix_diff_with_nothing_to_fix_is_silent(git_repo: GitRepo) -> None:
    kb(git_repo, "## §1.6\n\n- recursive-oss/rec：本轮复采 245⭐\n")
    assert cli("--all", "--fix", "--diff") == (0, "", "")


def test_diff_without_rev_needs_fix(git_repo: GitRepo) -> None:
    kb(git_repo, "# x\n")
    status, _, err = cli("--diff")
    assert status == 2
    assert "--diff needs REV" in err


# -- staged changes and refusals -------------------------------------------------------
def test_staged_fix_writes_the_work_tree_not_the_index(git_repo: GitRepo) -> None:
    kb(git_repo, "## §1.6\n\n- recursive-oss/rec：245⭐\n")
    staged = "## §1.6\n\n- recursive-oss/rec：243⭐\n"
    git_repo.write(DOC, staged)
    git_repo.stage(DOC)
    status, _, err = cli("--staged", "--fix", "--select", "KB006")
    assert read(git_repo) == "## §1.6\n\n- recursive-oss/rec：245⭐\n"
    assert git_repo.git("show", f":{DOC}") + "\n" == staged  # the staged blob is as the writer staged it
    assert err == f"kbcheck: fixed {DOC}: 1 problem (KB006 ×1)\n"
    assert status == 0


def test_staged_fix_refuses_a_file_with_unstaged_changes(git_repo: GitRepo) -> None:
    kb(git_repo, "## §1.6\n\n- recursive-oss/rec：245⭐\n")
    git_repo.write(DOC, "## §1.6\n\n- recursive-oss/rec：243⭐\n")
    git_repo.stage(DOC)
    unstaged = "## §1.6\n\n- recursive-oss/rec：243⭐\n- 还在写\n"
    git_repo.write(DOC, unstaged)
    status, out, err = cli("--staged", "--fix", "--select", "KB006")
    assert read(git_repo) == unstaged
    assert err == f"kbcheck: not fixed {DOC}: the working tree differs from what was checked (unstaged changes?)\n"
    assert status == 2
    assert f"{DOC}:3:" in out  # the finding is still reported


def test_a_refused_file_does_not_stop_the_others(git_repo: GitRepo) -> None:
    kb(git_repo, "## §1.6\n\n- recursive-oss/rec：245⭐\n")
    git_repo.write_many({DOC: "## §1.6\n\n- recursive-oss/rec：243⭐\n", NOTES: "## A\n\n- recursive-oss/rec：1⭐\n"})
    git_repo.stage(DOC, NOTES)
    git_repo.write(NOTES, "## A\n\n- recursive-oss/rec：1⭐ (draft)\n")
    status, _, err = cli("--staged", "--fix", "--select", "KB006")
    assert read(git_repo) == "## §1.6\n\n- recursive-oss/rec：245⭐\n"
    assert read(git_repo, NOTES) == "## A\n\n- recursive-oss/rec：1⭐ (draft)\n"
    assert err.splitlines() == [
        f"kbcheck: fixed {DOC}: 1 problem (KB006 ×1)",
        f"kbcheck: not fixed {NOTES}: the working tree differs from what was checked (unstaged changes?)",
    ]
    assert status == 2


def test_diff_mode_fix_refuses_a_work_tree_that_moved_on(git_repo: GitRepo) -> None:
    base = git_repo.commit_files(CARDS, "cards")
    git_repo.commit_files({DOC: "## §1.6\n\n- recursive-oss/rec：243⭐\n"}, "doc")
    git_repo.write(DOC, "## §1.6\n\n- recursive-oss/rec：243⭐ 草稿\n")
    status, _, err = cli("--diff", base, "--fix")
    assert status == 2 and "not fixed" in err
    assert read(git_repo) == "## §1.6\n\n- recursive-oss/rec：243⭐ 草稿\n"


def test_diff_rev_still_excludes_staged(git_repo: GitRepo) -> None:
    kb(git_repo, "# x\n")
    status, _, err = cli("--staged", "--diff", "HEAD")
    assert status == 2
    assert err == "kbcheck: error: --diff REV is not allowed with --staged\n"


def test_staged_fix_diff_shows_the_fix_of_the_staged_file(git_repo: GitRepo) -> None:
    kb(git_repo, "## §1.6\n\n- recursive-oss/rec：245⭐\n")
    git_repo.write(DOC, "## §1.6\n\n- recursive-oss/rec：243⭐\n")
    git_repo.stage(DOC)
    status, out, _ = cli("--staged", "--fix", "--diff", "--select", "KB006")
    assert status == 1
    assert "-- recursive-oss/rec：243⭐\n+- recursive-oss/rec：245⭐\n" in out
    assert read(git_repo) == "## §1.6\n\n- recursive-oss/rec：243⭐\n"


def test_a_file_edited_while_it_is_being_fixed_is_left_as_the_writer_left_it(git_repo: GitRepo) -> None:
    from kbcheck.fix.worktree import replace_if_unchanged

    git_repo.commit_files({DOC: "## A\n\n- 243⭐\n"}, "doc")
    git_repo.write(DOC, "## A\n\n- 243⭐ (still typing)\n")
    assert replace_if_unchanged(git_repo.path, DOC, b"## A\n\n- 243\xe2\xad\x90\n",
                                b"## A\n\n- 245\xe2\xad\x90\n") == "the file changed while it was being fixed"
    assert read(git_repo) == "## A\n\n- 243⭐ (still typing)\n"
    assert sorted(p.name for p in (git_repo.path / DOC).parent.iterdir()) == ["inference.md"]


def test_json_output_stays_json_and_lists_only_what_is_left(git_repo: GitRepo) -> None:
    import json

    kb(git_repo, "## §1.6\n\n- recursive-oss/rec：243⭐\n- amitshekhariitbhu/llm-internals：1.7k⭐\n")
    status, out, err = cli("--all", "--fix", "--select", "KB006", "--format", "json")
    assert [(f["line"], f["subject"]) for f in json.loads(out)["findings"]] == [(4, "1.7k⭐")]
    assert err == f"kbcheck: fixed {DOC}: 1 problem (KB006 ×1)\n"
    assert status == 0


def test_a_missing_reference_is_written_as_its_linked_neighbours_are(git_repo: GitRepo) -> None:
    kb(git_repo, """
        # 推理

        - MiMo-V2.6 的统一轨迹表示（arXiv:2610.11959）与新工作（arXiv:2611.00042）

        ## 参考文献

        - [LLM-as-Jev](https://arxiv.org/abs/2610.02076)
        - [Speculative Decoding at Scale](https://arxiv.org/abs/2610.20417)
        - arXiv:2610.20417 的讨论
    """)
    status, _, err = cli("--all", "--fix", "--select", "KB003")
    assert read(git_repo).endswith(md("""
        - arXiv:2610.20417 的讨论
        - [MiMo-V2.6](https://arxiv.org/abs/2610.11959)
        - [arXiv:2611.00042](https://arxiv.org/abs/2611.00042)
    """))
    assert (status, err) == (0, f"kbcheck: fixed {DOC}: 2 problems (KB003 ×2)\n")
    assert "KB003" not in cli("--all", "--select", "KB003")[1]


@pytest.mark.parametrize("neighbours", [
    "- [LLM-as-Jev](https://arxiv.org/pdf/2610.02076)\n- arXiv:2610.20417\n",  # the PDF, and one plain entry
    "- arXiv:2610.02076 — LLM-as-Jev\n- [Speculative Decoding at Scale](https://arxiv.org/abs/2610.20417)\n"
    "- arXiv:2610.20418\n",  # most are plain
])
def test_a_list_mostly_of_plain_ids_gets_a_plain_id(git_repo: GitRepo, neighbours: str) -> None:
    kb(git_repo, "# 推理\n\n- MiMo-V2.6（arXiv:2610.11959）\n\n## 参考文献\n\n" + neighbours)
    cli("--all", "--fix", "--select", "KB003")
    assert read(git_repo).endswith("\n- arXiv:2610.11959 — MiMo-V2.6\n")
