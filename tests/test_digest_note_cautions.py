"""Cautions from reading notes: one paper id under two titles, a back-filled paper, a note marked
unread or possibly outdated, and near-name clashes between coined names (hand-written fixtures
shaped like one-README-per-paper notes copied from a template and a wiki's source notes)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kbcheck.cli import main
from tests.gitrepo import GitRepo
from tests.kbtools import mapping

CONFIG = mapping(["overview/*.md"], ["papers/**/README.md", "notes/*.md"])
OVERVIEW = "# Overview\n\n## Methods\n\nSequence labelling and decoding.\n"


def paper(title: str, arxiv: str, body: str = "The method and its results, in a few sentences.") -> str:
    return f"# {title}\n[paper link](https://arxiv.org/pdf/{arxiv})\n\n## Method\n\n{body}\n"


def _cautions(repo: GitRepo, before: dict[str, str], new: dict[str, str],
              capsys: pytest.CaptureFixture[str], config: str = CONFIG) -> dict[str, list[str]]:
    repo.write_many({".kbcheck.toml": config, "overview/a.md": OVERVIEW, **before})
    base = repo.commit_all("base", author="tom")
    repo.write_many(new)
    repo.commit_all("new", author="tom")  # dated 2026-10-29
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    items: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["items"]
    return {i["path"]: i["warnings"] for i in items}


SEQ = "papers/seq/README.md"


def test_a_paper_link_another_note_of_another_title_has_is_one_id_under_two_titles(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    warnings = _cautions(git_repo, {SEQ: paper("Task-Aware Sequence Labeling", "2609.04109")},
                         {"papers/camo/README.md": paper("Breaking Camouflage", "2609.04109")}, capsys)
    assert [w for w in warnings["papers/camo/README.md"] if w.startswith("one id under two titles")] == [
        "one id under two titles: arXiv:2609.04109 is also the paper of papers/seq/README.md "
        "(Task-Aware Sequence Labeling); one of them names the wrong paper (a copied link?)"]


def test_an_id_under_two_titles_dates_neither_note(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the copied link names a 2017 paper; the note's own paper may be this year's: no back-fill from it
    warnings = _cautions(git_repo, {SEQ: paper("Task-Aware Sequence Labeling", "1709.04109")},
                         {"papers/pal/README.md": paper("Program-Aided Models", "1709.04109"),
                          "papers/old/README.md": paper("Attention Everywhere", "1706.03762")}, capsys)
    assert [w[:23] for w in warnings["papers/pal/README.md"]] == ["one id under two titles"]
    assert [w[:11] for w in warnings["papers/old/README.md"]] == ["back-filled"]


def test_the_same_paper_under_the_same_title_or_cited_in_passing_is_no_twin(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    passing = "# Reading notes\n\nMethods such as [this one](https://arxiv.org/abs/2609.04109) and [that one](https://arxiv.org/abs/2609.05555) label sequences.\n"
    warnings = _cautions(git_repo, {SEQ: paper("Task-Aware Sequence Labeling", "2609.04109")},
                         {"papers/copy/README.md": paper("Task-aware sequence labeling", "2609.04109"),
                          "notes/reading.md": passing}, capsys)
    assert not [w for ws in warnings.values() for w in ws if "two titles" in w]
    # the same paper under the same title is a second note on it; a paper cited in passing is none
    assert [w for w in warnings["papers/copy/README.md"] if w.startswith("a second note")] == [
        "a second note on one paper: papers/seq/README.md is also a note on arXiv:2609.04109, under the same "
        "title; one of them may be enough"]
    assert not [w for w in warnings["notes/reading.md"] if w.startswith("a second note")]


def test_a_paper_years_older_than_its_note_is_back_filled(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    warnings = _cautions(git_repo, {}, {"papers/old/README.md": paper("Attention Everywhere", "1706.03762"),
                                        "papers/new/README.md": paper("Drafts Everywhere", "2609.01234")}, capsys)
    assert [w for w in warnings["papers/old/README.md"] if w.startswith("back-filled")] == [
        "back-filled: the paper is from 2017-06, noted 2026-10-29 (more than 3 years later); "
        "not news, and newer work may have overtaken it"]
    assert not [w for w in warnings["papers/new/README.md"] if w.startswith("back-filled")]


def test_without_living_documents_an_old_paper_is_back_filled_too(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A note of a knowledge base without living documents is a note to read, and its reader wants
    to know its paper is old, as beside a living document (the test above)."""
    without = CONFIG.replace('knowledge = ["overview/*.md"]', "knowledge = []")
    warnings = _cautions(git_repo, {}, {"papers/old/README.md": paper("Attention Everywhere", "1706.03762")}, capsys,
                         without)
    assert [w[:11] for w in warnings["papers/old/README.md"]] == ["back-filled"]


def test_the_note_own_date_decides_the_back_fill(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    dated = "---\ndate: 2018-01-05\n---\n\n" + paper("Attention Everywhere", "1706.03762")
    warnings = _cautions(git_repo, {}, {"papers/old/README.md": dated}, capsys)
    assert not [w for w in warnings["papers/old/README.md"] if w.startswith("back-filled")]


def test_a_note_marked_unread_or_outdated_says_so(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    unread = "---\nreading_status: TBD\n---\n\n" + paper("Drafts Everywhere", "2609.01234")
    outdated = "---\nread_status: read\npossibly_outdated: true\n---\n\n" + paper("Trees Everywhere", "2609.05678")
    read = "---\nread_status: read\n---\n\n" + paper("Heads Everywhere", "2609.09999")
    old_outdated = "---\npossibly_outdated: true\n---\n\n" + paper("Attention Everywhere", "1706.03762")
    warnings = _cautions(git_repo, {}, {"papers/a/README.md": unread, "papers/b/README.md": outdated,
                                        "papers/c/README.md": read, "papers/d/README.md": old_outdated}, capsys)
    assert "marked unread (reading_status: TBD): the note is not its author's reading yet" in warnings["papers/a/README.md"]
    assert ("the note marks itself possibly outdated (possibly_outdated): re-check before citing it"
            in warnings["papers/b/README.md"])
    assert not [w for w in warnings["papers/c/README.md"] if "unread" in w or "outdated" in w]
    # the back-fill already says the paper is old
    assert [w.split(":")[0] for w in warnings["papers/d/README.md"] if "outdated" in w or "back-filled" in w] == [
        "back-filled"]


def test_an_empty_note_marked_unread_says_nothing_more(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # a title and the paper's link only: its reason says it is empty, "unread" repeats it
    empty = "---\nreading_status: TBD\npossibly_outdated: true\n---\n\n# Drafts Everywhere\n[paper link](https://arxiv.org/pdf/2609.01234)\n"
    warnings = _cautions(git_repo, {}, {"papers/a/README.md": empty}, capsys)
    assert not [w for w in warnings["papers/a/README.md"] if "unread" in w or "outdated" in w]


def test_a_coined_name_written_another_way_is_a_near_name_clash(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    warnings = _cautions(git_repo, {"papers/qwen/README.md": paper("Qwen-AgentWorld: Worlds for Agents", "2609.11111")},
                         {"papers/aw/README.md": paper("Agent-World: Scaling Environments", "2609.22222")}, capsys)
    assert [w for w in warnings["papers/aw/README.md"] if w.startswith("near-name")] == [
        'near-name clash: "Agent-World" here, "Qwen-AgentWorld" in papers/qwen/README.md: close names of '
        "different works; confirm which is meant"]


def test_words_and_variants_are_no_near_name_clash(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    before = {"papers/ft/README.md": paper("Finetuning at Scale", "2609.11111", "We study finetuning of large models."),
              "papers/llama/README.md": paper("Llama-2-Chat: Dialogue Tuning", "2609.33333")}
    new = {"papers/ft2/README.md": paper("Fine-Tuning Small Models", "2609.22222"),
           "papers/llama2/README.md": paper("Llama-2: Open Models", "2609.44444")}
    warnings = _cautions(git_repo, before, new, capsys)
    assert not [w for ws in warnings.values() for w in ws if w.startswith("near-name")]


def test_a_note_to_read_shows_its_cautions_on_its_review_line(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": CONFIG.replace('knowledge = ["overview/*.md"]', "knowledge = []"),
                         SEQ: paper("Task-Aware Sequence Labeling", "2609.04109")})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write("papers/camo/README.md", paper("Breaking Camouflage", "2609.04109"))
    git_repo.commit_all("new", author="tom")
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    [line] = [x for x in capsys.readouterr().out.splitlines() if "papers/camo/README.md" in x and x.startswith("- ")]
    assert "a note to read" in line and "⚠ one id under two titles: arXiv:2609.04109" in line


def test_two_notes_of_one_paper_under_one_long_title_are_no_twins(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    long = "Black-Box Prompt Optimization: Aligning Large Language Models without Model Training, at Scale"
    warnings = _cautions(git_repo, {SEQ: paper(long, "2609.04109")}, {"papers/again/README.md": paper(long, "2609.04109")},
                         capsys)
    assert not [w for w in warnings["papers/again/README.md"] if "two titles" in w]


def _dated_cautions(repo: GitRepo, note: str, added_on: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The note added in a commit of `added_on`, then the overview rewritten in a later commit (a
    roll-back, a batch edit of the living documents): the head commit's day is not the note's."""
    repo.write_many({".kbcheck.toml": CONFIG, "overview/a.md": OVERVIEW})
    base = repo.commit_all("base", author="tom", date="2019-01-01T10:00:00+00:00")
    repo.write_many({"papers/old/README.md": note})
    repo.commit_all("note", author="tom", date=added_on)
    repo.write_many({"overview/a.md": OVERVIEW + "\n## Decoding\n\nBeam search.\n"})
    repo.commit_all("overview", author="tom")  # dated 2026-10-29
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    items: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["items"]
    return [w for i in items if i["path"] == "papers/old/README.md" for w in i["warnings"] if w.startswith("back-filled")]


def test_a_note_without_a_date_is_dated_by_the_commit_that_added_it(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _dated_cautions(git_repo, paper("Attention Everywhere", "1706.03762"), "2019-03-01T10:00:00+00:00",
                           capsys) == []


def test_a_note_added_years_after_its_paper_is_back_filled_at_its_adding_commit(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _dated_cautions(git_repo, paper("Attention Everywhere", "1706.03762"), "2024-03-01T10:00:00+00:00",
                           capsys) == [
        "back-filled: the paper is from 2017-06, noted 2024-03-01 (more than 3 years later); "
        "not news, and newer work may have overtaken it"]


def test_a_metadata_header_date_is_the_note_own_date(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    headed = "Title: Attention Everywhere\nDate: 2018-01-05 10:00\n\n" + paper("Attention Everywhere", "1706.03762")
    assert _dated_cautions(git_repo, headed, "2024-03-01T10:00:00+00:00", capsys) == []


#: six classics noted in 2025, each older than three years then: the folder back-fills by habit
CLASSICS = {f"classics/c{n}/README.md": paper(f"Classic Number {n}", f"15{n:02d}.0{n}123") for n in range(6)}


def _added_to(repo: GitRepo, folder_notes: dict[str, str], folder_added_on: str, new_path: str,
              capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The back-fill cautions of a note on a 2017 paper added (2026-10-29) to a folder whose other
    notes landed on `folder_added_on` and state no date: the history's first commit dates them."""
    repo.write_many({".kbcheck.toml": mapping(["overview/*.md"], ["classics/**/README.md", "papers/**/README.md"]),
                     "overview/a.md": OVERVIEW, **folder_notes})
    base = repo.commit_all("the folder", author="tom", date=folder_added_on)
    repo.write_many({new_path: paper("Attention Everywhere", "1706.03762")})
    repo.commit_all("new", author="tom")
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    items: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["items"]
    return [w[:11] for i in items if i["path"] == new_path for w in i["warnings"] if w.startswith("back-filled")]


def test_an_old_paper_in_a_folder_that_mostly_holds_old_papers_is_no_back_fill(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the six classics are from 2015, noted 2025-05: more than half the folder is back-filled
    assert _added_to(git_repo, CLASSICS, "2025-05-01T10:00:00+00:00", "classics/new/README.md", capsys) == []


def test_an_old_paper_among_notes_on_news_is_back_filled(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the same six notes landed in 2016, a year after their papers: the folder notes news
    assert _added_to(git_repo, CLASSICS, "2016-05-01T10:00:00+00:00", "classics/new/README.md", capsys) == [
        "back-filled"]


def test_a_habit_is_the_folder_own(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    # the classics folder back-fills by habit; a note in another folder is judged on its own
    assert _added_to(git_repo, CLASSICS, "2025-05-01T10:00:00+00:00", "papers/new/README.md", capsys) == [
        "back-filled"]


def test_four_old_notes_tell_no_habit(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    few = dict(list(CLASSICS.items())[:4])
    assert _added_to(git_repo, few, "2025-05-01T10:00:00+00:00", "classics/new/README.md", capsys) == ["back-filled"]


@pytest.mark.parametrize(("path", "folder"), [("classics/Attention/README.md", "classics"), ("notes/a.md", "notes"),
                                              ("wiki/sources/index.md", "wiki"), ("a.md", ""), ("README.md", "")])
def test_a_folder_own_page_is_filed_in_the_folder_parent(path: str, folder: str) -> None:
    from kbcheck.digest.moves import note_folder

    assert note_folder(path) == folder


NOTES = mapping(["overview/*.md"], ["notes/**/*.md"])


def _namesakes(warnings: dict[str, list[str]], path: str) -> list[str]:
    return [w for w in warnings[path] if w.startswith("another note has the same name")]


def _said(other: str) -> str:
    return f"another note has the same name: {other}; a second note on the same work, or one to merge"


MAPREDUCE = "# MapReduce: Simplified Data Processing\n\nMap, then reduce; the combiner saves the network.\n"


def test_an_added_note_under_a_long_file_name_another_folder_holds_has_a_namesake(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A paper noted under two venues, a course's folder copied: the second note of one work."""
    stub = "# Mapreduce Simplified Data Processing\n\nAbstract only, to read.\n"
    warnings = _cautions(git_repo, {"notes/papers/mapreduce-simplified-data-processing.md": stub},
                         {"notes/drafts/mapreduce-simplified-data-processing.md": MAPREDUCE,
                          "notes/新/分布式系统数据处理模型.md": "# 分布式\n\n模型与实践。\n"}, capsys, config=NOTES)
    assert _namesakes(warnings, "notes/drafts/mapreduce-simplified-data-processing.md") == [
        _said("notes/papers/mapreduce-simplified-data-processing.md")]
    assert not _namesakes(warnings, "notes/新/分布式系统数据处理模型.md")


def test_a_short_or_index_file_name_in_two_folders_is_no_namesake(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    before = {"notes/os/2 - Introduction to Systems.md": "# Intro\n\nProcesses.\n",
              "notes/os/README.md": "# OS\n\nA course.\n",
              "notes/db/分布式系统数据处理模型.md": "# 分布式\n\n模型。\n"}
    new = {"notes/net/2 - Introduction to Systems.md": "# Intro\n\nPackets.\n",
           "notes/net/README.md": "# Networks\n\nA course.\n",
           "notes/new/分布式系统数据处理模型.md": "# 分布式\n\n实践。\n"}
    warnings = _cautions(git_repo, before, new, capsys, config=NOTES)
    assert not _namesakes(warnings, "notes/net/2 - Introduction to Systems.md")
    assert not _namesakes(warnings, "notes/net/README.md")
    # a CJK name of ten characters is five words: it names one work
    assert _namesakes(warnings, "notes/new/分布式系统数据处理模型.md") == [_said("notes/db/分布式系统数据处理模型.md")]


def test_a_near_copy_is_told_once_not_again_as_a_namesake(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    body = "# MapReduce notes\n\n" + "".join(f"Line {n} of what the paper says about its model.\n\n" for n in range(8))
    warnings = _cautions(git_repo, {"notes/a/mapreduce-simplified-data-processing.md": body},
                         {"notes/b/mapreduce-simplified-data-processing.md": body}, capsys, config=NOTES)
    assert not _namesakes(warnings, "notes/b/mapreduce-simplified-data-processing.md")


def test_a_name_under_another_year_or_other_separators_is_a_namesake(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A bibliography files a work under its year: the same book under two years is noted twice."""
    before = {"notes/papers/2003-the-elements-of-statistical-learning.md": "# The Elements\n\nA stub.\n",
              "notes/papers/is-deeper-better-only-when-shallow.md": "# Deeper\n\nA stub.\n",
              "notes/diary/2026-05-01-reading-group-weekly-sync.md": "# Sync\n\nPapers.\n"}
    new = {"notes/papers/2001-the-elements-of-statistical-learning.md": "# The Elements\n\nAnother stub.\n",
           "notes/papers/is-deeper-better-only-when-shallow?.md": "# Deeper?\n\nAnother stub.\n",
           "notes/diary/2026-05-08-reading-group-weekly-sync.md": "# Sync\n\nMore papers.\n"}
    warnings = _cautions(git_repo, before, new, capsys, config=NOTES)
    assert _namesakes(warnings, "notes/papers/2001-the-elements-of-statistical-learning.md") == [
        _said("notes/papers/2003-the-elements-of-statistical-learning.md")]
    assert _namesakes(warnings, "notes/papers/is-deeper-better-only-when-shallow?.md") == [
        _said("notes/papers/is-deeper-better-only-when-shallow.md")]
    # a diary's whole dates differ: two meetings, not one work twice
    assert not _namesakes(warnings, "notes/diary/2026-05-08-reading-group-weekly-sync.md")


def _year_table(title: str, arxiv: str, year: str) -> str:
    """A one-README-per-paper note whose head is a table with a Year column."""
    return (f"# {title}\n[paper link](https://arxiv.org/pdf/{arxiv})\n\n| Year | Introduction | Field |\n"
            f"| ---- | ---- | ---- |\n| {year} | The method, in a sentence. | NLP |\n\n## Method\n\nThe method.\n")


def test_a_year_the_paper_id_rules_out_is_a_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A year two or more away from the preprint's is the wrong year or the wrong paper link:
    a table column (the per-paper READMEs), a frontmatter year (a wiki's source notes), a `Year:` line."""
    wiki = "---\ntitle: Tools by Reinforcement\nyear: 2028\narxiv: '2604.11536'\n---\n\n# Tools by Reinforcement\n\nThe method.\n"
    byline = "# Trees Everywhere\n\n**Year**: 2019\n[paper link](https://arxiv.org/pdf/2609.05678)\n\n## Method\n\nThe method.\n"
    warnings = _cautions(git_repo, {}, {"papers/pal/README.md": _year_table("Program-Aided Models", "1709.04109", "2023"),
                                        "notes/retool.md": wiki, "papers/trees/README.md": byline}, capsys)
    assert [w for w in warnings["papers/pal/README.md"] if w.startswith("the note gives")] == [
        "the note gives the year 2023, but arXiv:1709.04109 is from 2017-09: the year or the paper link is wrong"]
    assert [w[:28] for w in warnings["notes/retool.md"] if w.startswith("the note gives")] == ["the note gives the year 2028"]
    assert [w[:28] for w in warnings["papers/trees/README.md"] if w.startswith("the note gives")] == [
        "the note gives the year 2019"]


def test_a_venue_year_after_the_preprint_is_no_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A paper posted in the autumn appears at next year's venue, and one sent on 31 December is
    numbered for January: one year from its id is no caution, nor is the id's own year, nor a table
    whose Year column holds no year."""
    turn = "---\nyear: 2025\narxiv: '2601.00303'\n---\n\n# Rethinking Retrieval at the Turn\n\nThe method.\n"
    warnings = _cautions(git_repo, {}, {"notes/turn.md": turn,
        "papers/iclr/README.md": _year_table("Length Extrapolation Biases", "2608.12409", "2027"),
        "papers/same/README.md": _year_table("Rethinking Attention Kernels", "2609.14794", "2026"),
        "papers/none/README.md": _year_table("Heads Everywhere Again", "2609.09999", "n/a")}, capsys)
    assert not [w for ws in warnings.values() for w in ws if w.startswith("the note gives")]


DRAFT = ("C++11 brought a memory model into the standard library, so that threads sharing memory behave the same "
         "on every processor.")


def test_a_paragraph_written_twice_is_a_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A draft that pasted a paragraph twice (as English prose, and as Chinese prose)."""
    chinese = "可以在高级语言层面控制多处理器中多线程共享内存的交互，从而在语言层面忽略编译器和处理器架构的差异。"
    english = f"# Memory model\n\n{DRAFT}\n\nThe model names orders.\n\n{DRAFT}\n"
    zh = f"# 内存模型\n\n{chinese}\n\n内存序有六种。\n\n{chinese}\n"
    warnings = _cautions(git_repo, {}, {"notes/model.md": english, "notes/zh.md": zh}, capsys)
    assert [w for w in warnings["notes/model.md"] if w.startswith("line")] == [
        "line 7 repeats the paragraph of line 3 word for word: a paste to tidy up?"]
    assert [w[:7] for w in warnings["notes/zh.md"] if w.startswith("line")] == ["line 7 "]


def test_short_lines_formulas_and_near_repeats_are_no_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    formula = r"[ V^\pi(s) = \sum_{a \in A} \pi(a | s) \left[ R(s, a) + \gamma \sum_{s'} P(s' | s, a) V^\pi(s') \right] ]"
    text = (f"# Notes\n\nSee the section above.\n\n{formula}\n\n{DRAFT}\n\n## Recap\n\nSee the section above.\n\n"
            f"{formula}\n\n{DRAFT.replace('every', 'any')}\n")
    warnings = _cautions(git_repo, {}, {"notes/recap.md": text}, capsys)
    assert not [w for w in warnings["notes/recap.md"] if w.startswith("line")]
