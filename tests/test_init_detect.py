"""`kbcheck init` in a repository that already has notes: kinds from its folders, the language
from its text, templates excluded, and comments saying what it found."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

PAPER_NOTE = "# {title}\n\n[paper](https://arxiv.org/abs/2401.0000{n})\n\n## Method\n\nThe method in a few lines.\n"
ZH_NOTE = "# 论文{n}\n\n这篇论文提出了一种新的检索方法，实验在三个数据集上完成。\n"


def init(repo: GitRepo) -> tuple[dict[str, object], str, str]:
    code, out, err = run("init")
    assert code == 0, err
    text = (repo.path / ".kbcheck.toml").read_text(encoding="utf-8")
    return tomllib.loads(text), text, out


def test_a_folder_per_paper_with_its_readme_is_guides(git_repo: GitRepo) -> None:
    files = {f"papers/Paper {n}/README.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(4)}
    files["README.md"] = "# Reading list\n\n" + "".join(f"- Paper {n}\n" for n in range(4))
    git_repo.commit_files(files, "notes")
    config, text, out = init(git_repo)
    assert config["guides"] == ["papers/**/*.md"]
    assert config["knowledge"] == [] and config["paper-cards"] == [] and config["briefs"] == []
    assert config["lang"] == "en"
    said = "found: papers/ holds 4 notes (4 of them in sub-folders too small to count alone), one per source: guides"
    assert f"# {said}\n" in text and said in out
    code, _, err = run("check", "--all")
    assert code in (0, 1) and "no file matches" not in err  # no kind left that matches nothing


def test_an_index_linking_many_notes_is_a_living_document_and_templates_are_excluded(git_repo: GitRepo) -> None:
    files = {f"笔记/论文{n}.md": ZH_NOTE.format(n=n) for n in range(6)}
    files["笔记/_template.md"] = "# 标题\n\n## 方法\n"
    files.update({f"模板/templates/{name}.md": "# 标题\n" for name in ("paper", "topic")})
    files["index.md"] = "# 检索综述\n\n## 方法\n\n" + "".join(
        f"第{n}类方法先召回候选，再用交叉编码器重排，见[论文{n}](笔记/论文{n}.md)，它在长文档上更稳。\n\n" for n in range(6))
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["knowledge"] == ["/index.md"]
    assert config["guides"] == ["笔记/**/*.md"]
    assert config["exclude"] == ["模板/templates/**", "笔记/_template.md"]
    assert config["lang"] == "zh"
    assert "# found: index.md links 6 notes: a living document\n" in text
    assert "# found: page templates, excluded: 模板/templates/**, 笔记/_template.md\n" in text


def test_an_index_that_is_a_list_of_links_is_left_unmapped(git_repo: GitRepo) -> None:
    """A reading list or table of contents links many notes but says little itself: no living document."""
    files = {f"notes/paper-{n}.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(6)}
    files["README.md"] = ("# Reading list\n\nMy notes.\n\n## Retrieval\n\n"
                          + "".join(f"- [Paper {n}: dense retrieval, part {n}](notes/paper-{n}.md)\n" for n in range(6)))
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["knowledge"] == []
    assert config["guides"] == ["notes/**/*.md"]
    assert "# found: README.md links 6 notes, 4% of its text in prose: a list, left unmapped" in text


def test_an_index_linking_few_notes_and_small_folders_are_left_alone(git_repo: GitRepo) -> None:
    files = {"notes/a.md": ZH_NOTE.format(n=1), "notes/b.md": ZH_NOTE.format(n=2),
             "README.md": "# x\n\n- [a](notes/a.md)\n- [b](notes/b.md)\n"}
    git_repo.commit_files(files, "notes")
    config, _, _ = init(git_repo)
    assert config["knowledge"] == [] and config["guides"] == []


def test_the_default_layout_keeps_the_defaults(git_repo: GitRepo) -> None:
    files = {f"organized/knowledge/{n}.md": "# topic\n\nSome English text.\n" for n in range(3)}
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["knowledge"] == ["organized/knowledge/**/*.md"]
    assert config["paper-cards"] == ["organized/paper_cards/*.md"]
    assert config["lang"] == "en"
    assert "# found: organized/ or inbox/ is there: the default layout is kept\n" in text


VENUE_NOTE = "# {title}\n\n**会议**: ACL 2025  \n**领域**: 检索\n\n## 实验\n\n召回率提升 {n}.5%。\n"
HOWTO_NOTE = "# Setting up tool {n}\n\n## Steps\n\nInstall it and run it; the build takes {n} minutes.\n"


def test_a_folder_whose_notes_mostly_name_their_work_is_one_work_notes(git_repo: GitRepo) -> None:
    """Init proposes `one-work-notes` there; the note whose head is its title alone is then quiet."""
    files = {f"notes/paper-{n}.md": VENUE_NOTE.format(title=f"Retrieval Study Number {n}", n=n) for n in range(11)}
    files["notes/title-only.md"] = "# Dense Retrieval Without Labels\n\n## 实验\n\n召回率提升 4.5%。\n"
    git_repo.commit_files(files, "notes")
    config, text, out = init(git_repo)
    assert config["guides"] == ["notes/**/*.md"]
    assert config["one-work-notes"] == ["notes/**/*.md"]
    assert "# found: 11 of 12 sampled notes in notes/ name their one work at the head" in text
    assert "发现 one-work-notes = ['notes/**/*.md']：notes/ 中抽样 12 篇笔记，有 11 篇" in out  # the notes are Chinese
    code, out, _err = run("check", "--all", "--format", "json", "--select", "KB005")
    assert code == 0, out


def test_a_folder_of_how_to_notes_is_not_one_work_notes(git_repo: GitRepo) -> None:
    files = {f"howto/tool-{n}.md": HOWTO_NOTE.format(n=n) for n in range(12)}
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["guides"] == ["howto/**/*.md"]
    assert config["one-work-notes"] == []
    assert "found: " not in text.split("one-work-notes", 1)[0].rsplit("\n\n", 1)[-1]


TITLE_ONLY_NOTE = "# Chapter {n}: Virtual Memory\n\n## Paging\n\nA page is usually 4 KB; the TLB hit rate is about 9{n}%.\n"


@pytest.mark.parametrize("folder", ["BookNotes", "Course Notes", "reading/paper-notes", "论文笔记", "ResearchPapers"])
def test_a_folder_named_as_notes_on_one_kind_of_work_is_one_work_notes(git_repo: GitRepo, folder: str) -> None:
    """The folder's name files its notes one per book, course or paper, though their heads show only a title
    (docs/adopting.md): init proposes the named folder, its sub-folders included, and KB005 is then quiet."""
    files = {f"{folder}/os/chapter-{n}.md": TITLE_ONLY_NOTE.format(n=n) for n in range(6)}
    files.update({f"{folder}/net/chapter-{n}.md": TITLE_ONLY_NOTE.format(n=n) for n in range(6)})
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["one-work-notes"] == [f"{folder}/**/*.md"]
    assert f"# found: {folder}/ is named as notes on one kind of work" in text
    code, out, _err = run("check", "--all", "--format", "json", "--select", "KB005")
    assert code == 0 and '"KB005"' not in out, out


@pytest.mark.parametrize("folder", ["ProjectNotes", "dataset-notes", "tbd-articles", "notes-2018", "notebook",
                                    "save-paper"])
def test_a_folder_named_for_other_notes_or_own_writing_is_not_one_work_notes(git_repo: GitRepo, folder: str) -> None:
    """Notes on a project or a dataset, and the author's own articles, are no notes on one work each."""
    files = {f"{folder}/os/chapter-{n}.md": TITLE_ONLY_NOTE.format(n=n) for n in range(6)}
    files.update({f"{folder}/net/chapter-{n}.md": TITLE_ONLY_NOTE.format(n=n) for n in range(6)})
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["one-work-notes"] == []
    assert "named as notes on one kind of work" not in text
    code, out, _err = run("check", "--all", "--format", "json", "--select", "KB005")
    assert code == 0 and out.count('"rule": "KB005"') == 12, out


def test_a_small_folder_is_judged_with_the_folders_beside_it(git_repo: GitRepo) -> None:
    files = {f"notes/big/paper-{n}.md": VENUE_NOTE.format(title=f"Retrieval Study Number {n}", n=n) for n in range(10)}
    files.update({f"notes/small/paper-{n}.md": VENUE_NOTE.format(title=f"Parsing Study Number {n}", n=n) for n in range(3)})
    files.update({f"howto/tool-{n}.md": HOWTO_NOTE.format(n=n) for n in range(4)})
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert sorted(config["guides"]) == ["howto/**/*.md", "notes/big/**/*.md", "notes/small/**/*.md"]
    assert sorted(config["one-work-notes"]) == ["notes/big/**/*.md", "notes/small/**/*.md"]
    assert "13 of 13 sampled notes in the folders beside notes/small/" in text


def test_small_sub_folders_count_toward_their_parent(git_repo: GitRepo) -> None:
    """A folder per topic with a note or two each: the parent is the folder of guides, its whole tree."""
    files = {f"tutorials/{n:02d}-topic/step-{k}/README.md": HOWTO_NOTE.format(n=n * 10 + k)
             for n in range(3) for k in range(2)}
    files.update({f"tutorials/03-topic/step-{k}/README.md": HOWTO_NOTE.format(n=40 + k) for k in range(3)})
    files.update({f"notes/paper-{n}.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(2)})
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["guides"] == ["tutorials/**/*.md"]  # notes/ (two notes, alone beside it) is left out
    # 03-topic/ counts on its own and is covered by tutorials/**: its notes are said with the parent's
    assert ("# found: tutorials/ holds 9 notes (6 of them in sub-folders too small to count alone), "
            "one per source: guides\n") in text


def test_one_file_per_folder_that_is_no_readme_does_not_count_toward_the_parent(git_repo: GitRepo) -> None:
    """`raw/<paper>/paper.md`: the paper's own text in a folder per paper, no note about it."""
    files = {f"raw/paper-{n}/paper.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(4)}
    files.update({f"notes/paper-{n}.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(3)})
    git_repo.commit_files(files, "notes")
    config, _, _ = init(git_repo)
    assert config["guides"] == ["notes/**/*.md"]


def test_a_folder_with_notes_of_its_own_does_not_swallow_its_sub_folders(git_repo: GitRepo) -> None:
    """`wiki/` holds a few pages and sub-folders of its own kinds: each keeps its glob."""
    files = {f"wiki/{name}.md": f"# {name}\n\nWhat happened this week.\n" for name in ("log", "hot", "questions")}
    files.update({f"wiki/sources/paper-{n}.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(4)})
    files.update({f"wiki/topics/topic-{n}.md": HOWTO_NOTE.format(n=n) for n in range(3)})
    git_repo.commit_files(files, "notes")
    config, _, _ = init(git_repo)
    assert config["guides"] == ["wiki/*.md", "wiki/sources/**/*.md", "wiki/topics/**/*.md"]


def test_smaller_top_level_folders_join_when_most_are_guides(git_repo: GitRepo) -> None:
    """One folder per topic, one sub-folder per paper: a topic with one paper is filed like the others."""
    files = {f"{topic}/Paper {n}/readme.md": PAPER_NOTE.format(title=f"{topic} {n}", n=n)
             for topic in ("retrieval", "parsing") for n in range(3)}
    files["tagging/Paper 0/readme.md"] = PAPER_NOTE.format(title="tagging", n=0)
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["guides"] == ["parsing/**/*.md", "retrieval/**/*.md", "tagging/**/*.md"]
    assert "# found: 1 smaller top-level folder beside 2 folders of guides (tagging/): guides too" in text


def test_smaller_top_level_folders_stay_out_when_most_are_not_guides(git_repo: GitRepo) -> None:
    files = {f"retrieval/Paper {n}/readme.md": PAPER_NOTE.format(title=f"retrieval {n}", n=n) for n in range(3)}
    files.update({"tagging/a.md": HOWTO_NOTE.format(n=1), "misc/b.md": HOWTO_NOTE.format(n=2)})
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["guides"] == ["retrieval/**/*.md"]
    assert "smaller top-level folders" not in text


def test_init_lists_the_worktree_once(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every look init takes (kinds, links, one-work folders) reads one listing of the worktree."""
    from kbcheck import git

    files = {f"notes/paper-{n}.md": VENUE_NOTE.format(title=f"Retrieval Study Number {n}", n=n) for n in range(11)}
    git_repo.commit_files(files, "notes")
    calls: list[int] = []
    real = git.ls_worktree

    def counted(*args: object, **kwargs: object) -> list[str]:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(git, "ls_worktree", counted)
    config, _, _ = init(git_repo)
    assert config["one-work-notes"] == ["notes/**/*.md"]
    assert len(calls) == 1


def _entries(n: int, folder: str) -> str:
    """A generated catalogue page: each entry a link to a note, then its one-line summary."""
    return "# Papers\n\n" + "".join(f"**[Paper {k}]({folder}-{k}.md)**\n:   A summary of paper {k}.\n\n" for k in range(n))


def test_lists_inside_a_guide_folder_are_left_out_of_it(git_repo: GitRepo) -> None:
    """A catalogue page per topic folder, as a site generator writes them: one negation by their name."""
    files: dict[str, str] = {}
    for topic in range(6):
        files.update({f"docs/t{topic}/p-{k}.md": PAPER_NOTE.format(title=f"Paper {k}", n=k) for k in range(5)})
        files[f"docs/t{topic}/index.md"] = _entries(5, "p")
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["knowledge"] == []
    assert config["guides"] == [*(f"docs/t{topic}/**/*.md" for topic in range(6)), "!**/index.md"]
    assert "# found: 6 lists inside the guide folders are left out of them: !**/index.md\n" in text
    assert config["one-work-notes"] == [f"docs/t{topic}/**/*.md" for topic in range(6)]
    code, out, _ = run("check", "--show-files", "docs/t0/index.md", "docs/t0/p-1.md")
    assert code == 0 and [line.split()[1] for line in out.splitlines()] == ["markdown", "guide"]


def test_a_list_beside_notes_of_the_same_name_is_left_out_by_its_path(git_repo: GitRepo) -> None:
    """One catalogue among folders whose readme is the paper's note: the readmes stay guides."""
    files = {f"papers/p{n}/README.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(8)}
    files["papers/README.md"] = _entries(6, "p0/README").replace("p0/README-", "p")  # links p0.md … p5.md
    files.update({f"papers/p{n}.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(6)})
    git_repo.commit_files(files, "notes")
    config, _, _ = init(git_repo)
    assert config["guides"] == ["papers/**/*.md", "!papers/README.md"]


def test_a_root_index_is_written_anchored_so_it_maps_no_other_readme(git_repo: GitRepo) -> None:
    """`README.md` alone is every readme of the tree, gitignore-style; `/README.md` is the root's."""
    files = {f"papers/p{n}/README.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(6)}
    files["README.md"] = "# Retrieval, an overview\n\n" + "".join(
        f"Method {n} first retrieves candidates and then reranks them, see [paper {n}](papers/p{n}/README.md), "
        "which holds up on long documents.\n\n" for n in range(6))
    git_repo.commit_files(files, "notes")
    config, _, _ = init(git_repo)
    assert config["knowledge"] == ["/README.md"]
    code, out, _ = run("check", "--show-files", "README.md", "papers/p0/README.md")
    assert code == 0 and [line.split()[1] for line in out.splitlines()] == ["knowledge", "guide"]


@pytest.mark.parametrize(("body", "lang"), [
    # Chinese prose full of English names: 18 CJK characters against 25 English words (five
    # letters each); 12 % of the letters are CJK, yet the note is Chinese, as the digest reads it
    ("本文在 Natural Questions、TriviaQA 与 MS MARCO passage ranking 上比较 ColBERTv2、SPLADE++ 和 "
     "Contriever 的 recall@100，并用 BEIR benchmark 检验 zero-shot transfer；结论是 late interaction "
     "retrieval 更稳。", "zh"),
    # English prose with one Chinese term: English
    ("We compare ColBERTv2, SPLADE and Contriever on Natural Questions and TriviaQA, and test "
     "zero-shot transfer on BEIR; the late interaction model (后期交互) is the most robust.", "en"),
])
def test_the_language_is_told_by_words_as_the_digest_tells_it(git_repo: GitRepo, body: str, lang: str) -> None:
    git_repo.commit_files({f"notes/{n}.md": f"# note {n}\n\n{body}\n" for n in range(3)}, "notes")
    config, text, _ = init(git_repo)
    assert config["lang"] == lang
    assert f"# found: language: {lang} (" in text


def test_outside_git_init_writes_here_and_says_the_hooks_need_git(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("init")
    assert code == 0 and out.startswith("wrote .kbcheck.toml: ")
    assert (tmp_path / ".kbcheck.toml").is_file()
    assert err == ("kbcheck: not in a git repository: wrote .kbcheck.toml in the current folder; the hooks, "
                   "--staged and the digest read git (run git init)\n")


def test_in_git_init_says_nothing_on_stderr(git_repo: GitRepo) -> None:
    code, _out, err = run("init")
    assert (code, err) == (0, "")


def test_in_a_chinese_knowledge_base_init_reports_in_chinese_and_writes_the_file_as_ever(git_repo: GitRepo) -> None:
    """The report is said in the language found, which the file's `lang` sets for every later run;
    the file's comments stay in English, as its keys' comments are."""
    git_repo.commit_files({f"笔记/论文{n}.md": ZH_NOTE.format(n=n) for n in range(6)}, "notes")
    config, text, out = init(git_repo)
    assert config["lang"] == "zh"
    lines = out.splitlines()
    assert lines[0] == "已写入 .kbcheck.toml：每个键都是默认值；请编辑 [authors]，写明谁在哪里写"
    assert "发现：笔记/ 有 6 篇笔记，每篇对应一个来源：指南" in lines
    assert "# found: 笔记/ holds 6 notes, one per source: guides\n" in text
    assert not any("found" in line or "wrote" in line for line in lines)


def test_in_an_english_knowledge_base_init_reports_in_english(git_repo: GitRepo) -> None:
    git_repo.commit_files({f"papers/p{n}.md": PAPER_NOTE.format(title=f"Paper {n}", n=n) for n in range(6)}, "notes")
    _config, _text, out = init(git_repo)
    assert out.startswith("wrote .kbcheck.toml: every key with its default; edit [authors] to say who writes where\n")
    assert "found: papers/ holds 6 notes, one per source: guides" in out.splitlines()
