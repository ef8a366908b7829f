"""`kbcheck init` in a repository that already has notes: kinds from its folders, the language
from its text, templates excluded, and comments saying what it found."""

from __future__ import annotations

import tomllib

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
    assert "# found: papers/ holds 4 notes, one per source: guides\n" in text
    assert "found: papers/ holds 4 notes, one per source: guides" in out
    code, _, err = run("check", "--all")
    assert code in (0, 1) and "no file matches" not in err  # no kind left that matches nothing


def test_an_index_linking_many_notes_is_a_living_document_and_templates_are_excluded(git_repo: GitRepo) -> None:
    files = {f"笔记/论文{n}.md": ZH_NOTE.format(n=n) for n in range(6)}
    files["笔记/_template.md"] = "# 标题\n\n## 方法\n"
    files["index.md"] = "# 索引\n\n## 检索\n\n" + "".join(f"- [论文{n}](笔记/论文{n}.md)\n" for n in range(6))
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["knowledge"] == ["index.md"]
    assert config["guides"] == ["笔记/**/*.md"]
    assert config["exclude"] == ["笔记/_template.md"]
    assert config["lang"] == "zh"
    assert "# found: index.md links 6 notes: a living document\n" in text
    assert "# found: page templates, excluded: 笔记/_template.md\n" in text


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
    assert "found one-work-notes" in out
    code, out, _err = run("check", "--all", "--format", "json", "--select", "KB005")
    assert code == 0, out


def test_a_folder_of_how_to_notes_is_not_one_work_notes(git_repo: GitRepo) -> None:
    files = {f"howto/tool-{n}.md": HOWTO_NOTE.format(n=n) for n in range(12)}
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert config["guides"] == ["howto/**/*.md"]
    assert config["one-work-notes"] == []
    assert "found: " not in text.split("one-work-notes", 1)[0].rsplit("\n\n", 1)[-1]


def test_a_small_folder_is_judged_with_the_folders_beside_it(git_repo: GitRepo) -> None:
    files = {f"notes/big/paper-{n}.md": VENUE_NOTE.format(title=f"Retrieval Study Number {n}", n=n) for n in range(10)}
    files.update({f"notes/small/paper-{n}.md": VENUE_NOTE.format(title=f"Parsing Study Number {n}", n=n) for n in range(3)})
    files.update({f"howto/tool-{n}.md": HOWTO_NOTE.format(n=n) for n in range(4)})
    git_repo.commit_files(files, "notes")
    config, text, _ = init(git_repo)
    assert sorted(config["guides"]) == ["howto/**/*.md", "notes/big/**/*.md", "notes/small/**/*.md"]
    assert sorted(config["one-work-notes"]) == ["notes/big/**/*.md", "notes/small/**/*.md"]
    assert "13 of 13 sampled notes in the folders beside notes/small/" in text
