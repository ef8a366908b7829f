"""`kbcheck init` writes the link settings it finds, each with a comment saying why."""

from __future__ import annotations

import io

from gitrepo import GitRepo

from kbcheck.cli import main
from kbcheck.config import load_config


def init(repo: GitRepo) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["init"], out=out, err=err) == 0
    return out.getvalue(), (repo.path / ".kbcheck.toml").read_text(encoding="utf-8")


def test_an_obsidian_vault_by_its_settings_folder(git_repo: GitRepo) -> None:
    git_repo.commit_files({"notes/a.md": "# a\n"})
    git_repo.write(".obsidian/app.json", "{}\n")  # often left untracked: init looks at the disk
    out, written = init(git_repo)
    assert "# found: an Obsidian vault (.obsidian/)" in written
    assert load_config(git_repo.path).link_renderer == "obsidian"
    assert "found link-renderer = obsidian" in out


def test_an_obsidian_vault_by_its_wikilinks(git_repo: GitRepo) -> None:
    git_repo.commit_files({f"notes/n{i}.md": f"# n{i}\n\nSee [[n{i + 1}]].\n" for i in range(6)})
    _, written = init(git_repo)
    assert "# found: 6 of 6 notes link with [[wikilinks]]" in written
    assert load_config(git_repo.path).link_renderer == "obsidian"


def test_a_few_wikilinks_among_markdown_links_stay_github(git_repo: GitRepo) -> None:
    files = {f"notes/n{i}.md": f"# n{i}\n\nSee [next](n{i + 1}.md).\n" for i in range(6)}
    files["notes/w.md"] = "See [[n1]].\n"
    git_repo.commit_files(files)
    out, written = init(git_repo)
    config = load_config(git_repo.path)
    assert (config.link_renderer, config.site_root, config.local_paths) == ("auto", "", ())
    lines = written.splitlines()
    for key in ("link-renderer", "site-root", "local-paths"):  # the layout's own findings may be said
        assert f"found {key}" not in out
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{key} ="))
        assert not lines[at - 1].startswith("# found:"), lines[at - 1]


def test_an_mkdocs_site_and_the_folder_it_serves(git_repo: GitRepo) -> None:
    git_repo.commit_files({"mkdocs.yml": "site_name: n\ndocs_dir: pages\n", "pages/index.md": "# n\n"})
    _, written = init(git_repo)
    config = load_config(git_repo.path)
    assert (config.link_renderer, config.site_root) == ("mkdocs", "pages")
    assert "# found: an MkDocs site (mkdocs.yml)" in written
    assert "# found: the folder mkdocs serves: `/x` links are read from pages/" in written


def test_an_mdbook(git_repo: GitRepo) -> None:
    git_repo.commit_files({"book.toml": "[book]\ntitle = \"n\"\n", "src/SUMMARY.md": "- [a](a.md)\n", "src/a.md": "a\n"})
    _, _written = init(git_repo)
    config = load_config(git_repo.path)
    assert (config.link_renderer, config.site_root) == ("mdbook", "src")


def test_an_ignored_folder_the_notes_link_into(git_repo: GitRepo) -> None:
    git_repo.commit_files({".gitignore": "raw/\nbuild/\n", "notes/a.md": "---\npdf: raw/a.pdf\n---\n[pdf](../raw/a.pdf)\n"})
    git_repo.write("raw/a.pdf", b"%PDF")
    git_repo.write("build/site.html", "<html>")  # ignored, but no note links into it
    _, written = init(git_repo)
    assert load_config(git_repo.path).local_paths == ("raw/**",)
    assert "# found: ignored by .gitignore and linked from the notes: raw/ (2 links)" in written
