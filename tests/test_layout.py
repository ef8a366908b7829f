"""What the configuration makes of the tree, said to the user: --show-files, --show-settings,
and one notice per run for the kinds whose globs match nothing."""

from __future__ import annotations

import tomllib

from gitrepo import GitRepo
from kbtools import run_cli as run

CONFIG = """\
lang = "en"
guides = ["notes/**/*.md"]
paper-cards = ["cards/*.md"]
repo-cards = []
manifests = []
ignore = ["KB006"]

[authors.tom]
emails = ["tom@example.org"]
role = "maintainer"
"""
FILES = {
    ".kbcheck.toml": CONFIG,
    "organized/knowledge/llm.md": "# LLM\n",
    "notes/a.md": "# a\n\nSee arXiv:2610.02076.\n",
    "notes/b.md": "# b\n\nSee arXiv:2610.02077.\n",
    "README.md": "# readme\n",
    "figures/plot.png": b"\x89PNG\r\n\x1a\n\x00",
}


def test_show_files_gives_each_file_its_kind_and_why(git_repo: GitRepo) -> None:
    git_repo.commit_files(FILES, "kb")
    code, out, err = run("check", "--all", "--show-files")
    assert (code, err) == (0, "")
    rows = [line.split(None, 2) for line in out.splitlines()]
    assert rows == [
        [".kbcheck.toml", "-", "no kind's glob matches and it is not markdown: not read"],
        ["README.md", "markdown", "no kind's glob matches; a markdown file: ids, links and readability are checked"],
        ["figures/plot.png", "-", "no kind's glob matches and it is not markdown: not read"],
        ["notes/a.md", "guide", "guides = 'notes/**/*.md'"],
        ["notes/b.md", "guide", "guides = 'notes/**/*.md'"],
        ["organized/knowledge/llm.md", "knowledge", "knowledge = 'organized/knowledge/**/*.md'"],
    ]
    code, out, _ = run("check", "--show-files", "notes/a.md")
    assert code == 0 and out.split() == ["notes/a.md", "guide", "guides", "=", "'notes/**/*.md'"]


def test_show_settings_prints_the_merged_configuration_as_toml(git_repo: GitRepo) -> None:
    git_repo.commit_files(FILES, "kb")
    code, out, err = run("check", "--show-settings")
    assert (code, err) == (0, "")
    assert out.startswith("# from .kbcheck.toml\n")
    settings = tomllib.loads(out)
    assert settings["guides"] == ["notes/**/*.md"] and settings["repo-cards"] == []
    assert settings["ignore"] == ["KB006"] and settings["max-file-size"] == 4 * 1024 * 1024
    assert settings["roles"]["writer"] == ["inbox/{author}/**"]
    assert settings["authors"]["tom"]["role"] == "maintainer"


def test_a_kind_matching_nothing_is_said_once_per_run(git_repo: GitRepo) -> None:
    git_repo.commit_files(FILES, "kb")
    code, _, err = run("check", "--all")
    assert code == 0
    # briefs keep their default glob and match nothing; paper-cards too, which says KB004's notice already
    assert err == ("kbcheck: paper-cards, briefs in .kbcheck.toml: no file matches; set a kind to [] when the "
                   "knowledge base has none (kbcheck check --show-files shows each file's kind)\n")


def test_a_hook_says_it_when_a_file_it_checks_matches_no_kind(git_repo: GitRepo) -> None:
    git_repo.commit_files(FILES, "kb")
    git_repo.write("notes/c.md", "# c\n")
    git_repo.stage("notes/c.md")
    code, _, err = run("check", "--staged")
    # a guide: the hook reads no other file to learn whether some note of the tree has no kind
    assert (code, err) == (0, "")
    git_repo.write("loose/d.md", "# d\n")
    git_repo.stage("loose/d.md")
    code, _, err = run("check", "--staged")
    assert code == 0 and err.startswith("kbcheck: paper-cards, briefs in .kbcheck.toml: no file matches;")


def test_kinds_set_to_nothing_or_matching_files_say_nothing(git_repo: GitRepo) -> None:
    files = dict(FILES)
    files[".kbcheck.toml"] = CONFIG.replace('paper-cards = ["cards/*.md"]', "paper-cards = []\nbriefs = []")
    git_repo.commit_files(files, "kb")
    code, _, err = run("check", "--all")
    # no paper cards at all: only KB004's own notice, once
    assert (code, err) == (0, "kbcheck: KB004 not evaluated: no paper cards in the knowledge base "
                              "(the paper-cards glob matches nothing)\n")


def test_without_a_configuration_file_the_defaults_say_nothing_of_the_layout(git_repo: GitRepo) -> None:
    git_repo.commit_files({"notes/a.md": "# a\n"}, "kb")
    code, _, err = run("check", "--all")
    assert (code, err) == (0, "")


def _with_guides(guides: str) -> dict[str, str]:
    """The files, mapped with these guide globs and no paper cards or briefs."""
    config = CONFIG.replace('guides = ["notes/**/*.md"]', f"guides = {guides}")
    return {**FILES, ".kbcheck.toml": config.replace('paper-cards = ["cards/*.md"]', "paper-cards = []\nbriefs = []")}


def test_a_glob_matching_nothing_beside_one_that_matches_is_said_once(git_repo: GitRepo) -> None:
    """A folder renamed since the mapping was written: its glob is said, once, whatever the files checked."""
    git_repo.commit_files(_with_guides('["notes/**/*.md", "note/**/*.md"]'), "kb")
    code, _, err = run("check", "--all")
    assert code == 0
    assert err.splitlines()[0] == ("kbcheck: guides 'note/**/*.md' in .kbcheck.toml: no file matches; fix or remove "
                                   "the glob (kbcheck check --show-files shows each file's kind)")
    assert err.count("note/**/*.md") == 1
    code, _, err = run("check", "notes/a.md")
    assert err.count("note/**/*.md") == 1


def test_globs_that_each_match_a_file_say_nothing(git_repo: GitRepo) -> None:
    git_repo.commit_files(_with_guides('["notes/a.md", "notes/b.md", "!x"]'), "kb")
    code, _, err = run("check", "--all")
    assert (code, err) == (0, "kbcheck: KB004 not evaluated: no paper cards in the knowledge base "
                              "(the paper-cards glob matches nothing)\n")


def test_show_files_names_the_glob_that_matched_not_the_first_of_its_key(git_repo: GitRepo) -> None:
    config = CONFIG.replace('guides = ["notes/**/*.md"]', 'guides = ["papers/*.md", "notes/**/*.md", "!notes/skip.md"]')
    git_repo.commit_files({**FILES, ".kbcheck.toml": config, "papers/p.md": "# p\n", "notes/skip.md": "# s\n"}, "kb")
    code, out, _ = run("check", "--all", "--show-files")
    rows = {line.split(None, 1)[0]: line.split(None, 2)[2] for line in out.splitlines()}
    assert code == 0
    assert rows["notes/a.md"] == "guides = 'notes/**/*.md'"
    assert rows["papers/p.md"] == "guides = 'papers/*.md'"
    assert rows["notes/skip.md"].startswith("no kind's glob matches")
