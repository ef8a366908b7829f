"""A deleted or moved note that files at head still link at its old place (`kbcheck.digest.dangling`,
docs/output.md, "Still linked"): the item names them; a deletion nothing links, a link fixed in the
range and a wikilink that finds a moved note by name do not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kbcheck.cli import main
from tests.gitrepo import GitRepo
from tests.kbtools import mapping

CONFIG = mapping(["overview/*.md"], ["notes/**/*.md"])
OVERVIEW = "# Overview\n\n## Compilers\n\nHow compilers schedule instructions.\n"
ILP = "# Instruction-level parallelism\n\nA reading note: pipelining and wide issue.\n"
BOOK = "# The dragon book\n\nChapter ten, read with [the ILP note](ilp/ilp.md).\n"
WIKI_BOOK = "# The dragon book\n\nChapter ten, read with [[ilp]].\n"
PIPE = "# Pipelines\n\nFive stages.\n"


def _warnings(repo: GitRepo, before: dict[str, str], change: Any, capsys: pytest.CaptureFixture[str],
              lang: str, wanted: Any) -> dict[str, list[str]]:
    """The warnings of each item `wanted(item)` picks after `change(repo)` runs in the range."""
    repo.write_many({".kbcheck.toml": CONFIG, "overview/a.md": OVERVIEW, **before})
    base = repo.commit_all("base", author="tom")
    change(repo)
    repo.commit_all("cleanup", author="tom")
    assert main(["digest", "--since", base, "--format", "json", "--lang", lang]) == 0
    items: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["items"]
    return {i["path"]: i["warnings"] for i in items if wanted(i)}


def _deleted(repo: GitRepo, before: dict[str, str], change: Any, capsys: pytest.CaptureFixture[str],
             lang: str = "en") -> dict[str, list[str]]:
    """The warnings of each deleted item."""
    return _warnings(repo, before, change, capsys, lang, lambda i: i["change"] == "deleted")


def _moved(repo: GitRepo, before: dict[str, str], change: Any, capsys: pytest.CaptureFixture[str],
           lang: str = "en") -> dict[str, list[str]]:
    """The warnings of each moved item (one with an `old_path`)."""
    return _warnings(repo, before, change, capsys, lang, lambda i: i["old_path"] is not None)


def test_a_deleted_note_still_linked_by_path_names_the_linking_file(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    warnings = _deleted(git_repo, {"notes/ilp/ilp.md": ILP, "notes/book.md": BOOK, "notes/other.md": "# Other\n\nText.\n"},
                        lambda r: r.remove("notes/ilp/ilp.md"), capsys)
    assert warnings == {"notes/ilp/ilp.md": ["still linked from notes/book.md: those links now lead nowhere"]}


def test_a_deleted_note_linked_without_its_md_names_the_linking_file(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    book = BOOK.replace("(ilp/ilp.md)", "(ilp/ilp)")
    warnings = _deleted(git_repo, {"notes/ilp/ilp.md": ILP, "notes/book.md": book},
                        lambda r: r.remove("notes/ilp/ilp.md"), capsys)
    assert warnings == {"notes/ilp/ilp.md": ["still linked from notes/book.md: those links now lead nowhere"]}


def test_a_deleted_note_still_linked_by_its_name_names_the_linking_file(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    warnings = _deleted(git_repo, {"notes/ilp.md": ILP, "notes/book.md": WIKI_BOOK},
                        lambda r: r.remove("notes/ilp.md"), capsys, lang="zh")
    assert warnings == {"notes/ilp.md": ["仍被 notes/book.md 链接：这些链接已无处可去"]}


def test_a_deletion_nothing_links_or_whose_links_went_with_it_has_no_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    def delete_and_unlink(repo: GitRepo) -> None:
        repo.remove("notes/ilp/ilp.md")
        repo.remove("notes/lonely.md")
        repo.write("notes/book.md", "# The dragon book\n\nChapter ten.\n")

    warnings = _deleted(git_repo, {"notes/ilp/ilp.md": ILP, "notes/book.md": BOOK, "notes/lonely.md": "# Lonely\n\nText.\n"},
                        delete_and_unlink, capsys)
    assert warnings == {"notes/ilp/ilp.md": [], "notes/lonely.md": []}


def test_a_rename_is_no_dangling_deletion(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    def rename(repo: GitRepo) -> None:
        repo.git("mv", "notes/ilp/ilp.md", "notes/ilp/parallelism.md")

    assert _deleted(git_repo, {"notes/ilp/ilp.md": ILP, "notes/book.md": BOOK}, rename, capsys) == {}


def test_the_review_line_of_a_deleted_note_shows_its_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": CONFIG, "overview/a.md": OVERVIEW, "notes/ilp/ilp.md": ILP, "notes/book.md": BOOK})
    base = git_repo.commit_all("base", author="tom")
    git_repo.remove("notes/ilp/ilp.md")
    git_repo.commit_all("cleanup", author="tom")
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    [line] = [x for x in capsys.readouterr().out.splitlines() if "`notes/ilp/ilp.md`" in x and x.startswith("- ")]
    assert line.endswith("deleted ⚠ still linked from notes/book.md: those links now lead nowhere")


def test_a_deleted_note_linked_by_its_percent_encoded_cjk_name_names_the_linking_file(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    book = BOOK.replace("(ilp/ilp.md)", "(%E6%8C%87%E4%BB%A4%E5%B9%B6%E8%A1%8C.md)")
    warnings = _deleted(git_repo, {"notes/指令并行.md": ILP, "notes/book.md": book, "notes/other.md": "# Other\n\nText.\n"},
                        lambda r: r.remove("notes/指令并行.md"), capsys)
    assert warnings == {"notes/指令并行.md": ["still linked from notes/book.md: those links now lead nowhere"]}


def test_the_screen_keeps_every_file_that_may_link_a_deleted_note_and_no_other() -> None:
    from kbcheck.digest.dangling import _Screen

    screen = _Screen(["notes/ilp/ilp-notes.md", "guides/compilers/README.md"])
    # the words of the name, whatever case, escapes or entities stand around them
    assert screen.may_link("a.md", "See [the notes](ilp/ILP-Notes.md).")
    assert screen.may_link("a.md", "See [[ilp notes]].")
    assert screen.may_link("a.md", "See [it](ilp/%69lp-notes.md).")
    assert screen.may_link("a.md", "See [it](ilp/&#105;lp-notes.md).")
    # escapes of capitals are casefolded once decoded, entities decoded before percent-escapes
    assert screen.may_link("a.md", "See [it](ilp/%49LP-Notes.md).")
    assert screen.may_link("a.md", "See [it](ilp/&#73;LP-Notes.md).")
    assert screen.may_link("a.md", "See [it](ilp/&#37;49lp-notes.md).")
    assert _Screen(["notes/Été.md"]).may_link("a.md", "See [x](%C3%89t%C3%A9.md).")
    # an index page by its folder's name, or from inside its folder by no name at all
    assert screen.may_link("a.md", "See [compilers](guides/compilers/).")
    assert screen.may_link("guides/compilers/deep/b.md", "Back [up](../).")
    # a file holding one word of the name, or 50% and no escape, cannot link it
    assert not screen.may_link("a.md", "On ilp scheduling: 50% of issue slots.")
    assert not screen.may_link("guides/compilers-old/b.md", "Back [up](../).")
    # the root's and the site root's index page are linked by `/` alone: every file may link them
    assert _Screen(["README.md"]).may_link("a.md", "Nothing named here.")
    assert _Screen(["src/README.md"], site_root="src").may_link("guide.md", "The [book](/index.html).")
    assert not _Screen(["src/README.md"]).may_link("guide.md", "The [book](/index.html).")


def test_a_deleted_site_root_index_page_linked_by_slash_names_the_linking_file(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    config = mapping(["overview/*.md"], ["*.md", "src/**/*.md"])
    git_repo.write_many({".kbcheck.toml": config, "overview/a.md": OVERVIEW, "book.toml": "[book]\ntitle = 'x'\n",
                         "src/README.md": "# Intro\n\nThe book.\n", "src/SUMMARY.md": "- [Intro](README.md)\n",
                         "src/ch.md": "# Chapter\n\nText.\n", "guide.md": "# Guide\n\nThe [book](/index.html).\n"})
    base = git_repo.commit_all("base", author="tom")
    git_repo.remove("src/README.md")
    git_repo.commit_all("cleanup", author="tom")
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    items: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["items"]
    warnings = {i["path"]: i["warnings"] for i in items if i["change"] == "deleted"}
    assert warnings["src/README.md"] == ["still linked from guide.md, src/SUMMARY.md: those links now lead nowhere"]


def test_a_renamed_note_still_linked_at_its_old_path_names_the_linking_file(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    def rename(repo: GitRepo) -> None:
        repo.git("mv", "notes/ilp/ilp.md", "notes/ilp/parallelism.md")

    assert _moved(git_repo, {"notes/ilp/ilp.md": ILP, "notes/book.md": BOOK}, rename, capsys) == {
        "notes/ilp/parallelism.md": [
            "still linked at its old path notes/ilp/ilp.md from notes/book.md: those links now lead nowhere"]}


def test_a_note_moved_and_rewritten_still_linked_by_its_old_name_says_so_in_zh(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    def move(repo: GitRepo) -> None:  # git pairs nothing: the moved note is rewritten, under a new folder
        repo.remove("notes/ilp/ilp.md")
        repo.write("notes/arch/ilp.md", "# ILP, rewritten\n\nScoreboarding, Tomasulo and the reorder buffer.\n")

    assert _moved(git_repo, {"notes/ilp/ilp.md": ILP, "notes/book.md": BOOK}, move, capsys, lang="zh") == {
        "notes/arch/ilp.md": ["旧路径 notes/ilp/ilp.md 仍被 notes/book.md 链接：这些链接已无处可去"]}


def test_a_move_whose_links_were_updated_or_follow_the_name_has_no_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    def move_and_relink(repo: GitRepo) -> None:
        repo.git("mv", "notes/ilp/ilp.md", "notes/ilp/parallelism.md")
        repo.write("notes/book.md", BOOK.replace("ilp/ilp.md", "ilp/parallelism.md"))
        repo.remove("notes/pipe.md")  # `[[pipe]]` finds it by name in its new folder
        repo.write("notes/arch/pipe.md", PIPE)

    before = {"notes/ilp/ilp.md": ILP, "notes/book.md": BOOK, "notes/pipe.md": PIPE,
              "notes/wiki.md": "# Wiki\n\nSee [[pipe]].\n"}
    assert _moved(git_repo, before, move_and_relink, capsys) == {"notes/ilp/parallelism.md": [], "notes/arch/pipe.md": []}


def test_the_review_line_of_a_renamed_note_shows_only_its_still_linked_caution(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    git_repo.write_many({".kbcheck.toml": CONFIG, "overview/a.md": OVERVIEW, "notes/ilp/ilp.md": ILP, "notes/book.md": BOOK})
    base = git_repo.commit_all("base", author="tom")
    git_repo.git("mv", "notes/ilp/ilp.md", "notes/ilp/parallelism.md")
    git_repo.commit_all("rename", author="tom")
    assert main(["digest", "--since", base, "--lang", "en"]) == 0
    [line] = [x for x in capsys.readouterr().out.splitlines() if "`notes/ilp/parallelism.md`" in x and x.startswith("- ")]
    assert line.endswith(" ⚠ still linked at its old path notes/ilp/ilp.md from notes/book.md: those links now lead nowhere")


def test_a_moved_folder_page_takes_the_links_into_its_old_folder(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    """A folder renamed (its `README.md` moved with it): a link into the old folder leads nowhere."""
    notebook = "# Blitz notes\n\nSee [the tensor notebook](../code/blitz/01_tensor.ipynb).\n"

    def rename_folder(repo: GitRepo) -> None:
        repo.remove("notes/code/blitz/README.md")
        repo.write("notes/code/pytorch-blitz/README.md", "# Blitz\n\nThe tutorial's code.\n")

    before = {"notes/code/blitz/README.md": "# Blitz\n\nThe tutorial's code.\n", "notes/book/blitz.md": notebook}
    assert _moved(git_repo, before, rename_folder, capsys) == {"notes/code/pytorch-blitz/README.md": [
        "links into its old folder notes/code/blitz/ remain in notes/book/blitz.md: they lead nowhere"]}


def test_a_folder_page_moved_out_of_a_folder_that_stays_takes_no_links_into_it(git_repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    notebook = "# Blitz notes\n\nSee [the tensor notebook](../code/blitz/01_tensor.ipynb).\n"

    def move_page(repo: GitRepo) -> None:
        repo.remove("notes/code/blitz/README.md")
        repo.write("notes/code/pytorch-blitz/README.md", "# Blitz\n\nThe tutorial's code.\n")

    before = {"notes/code/blitz/README.md": "# Blitz\n\nThe tutorial's code.\n", "notes/code/blitz/setup.md": "# Setup\n\nPip.\n",
              "notes/book/blitz.md": notebook}
    assert _moved(git_repo, before, move_page, capsys) == {"notes/code/pytorch-blitz/README.md": []}
