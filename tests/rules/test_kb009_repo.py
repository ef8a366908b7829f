"""KB009 in real repositories: the mapping never hides a broken link, near files are offered as
fixes, a path git ignores on purpose is one notice, a site's settings say how links resolve."""

from __future__ import annotations

import io
import json

from gitrepo import GitRepo

from kbcheck.cli import main

#: a paper-notes layout: topic pages link the one-note-per-paper folder
TOPIC = "topics/segmentation.md"
NOTE = "paper_notes/condinst.md"
LINKS = "# Segmentation\n\n- [CondInst](paper_notes/condinst.md)\n- [Same](../paper_notes/condinst.md)\n"
MAPPED = 'knowledge = ["topics/*.md"]\nguides = ["paper_notes/*.md"]\n'


def kb009(*argv: str) -> tuple[int, list[dict[str, object]], str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", *(argv or ["--all"]), "--select", "KB009", "--format", "json"], out=out, err=err)
    return status, json.loads(out.getvalue())["findings"], err.getvalue()


def text(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", "--all", "--select", "KB009", *argv], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def where(findings: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(f["path"], f["line"], f["subject"]) for f in findings]


def test_a_markdown_link_resolves_from_its_file_whatever_the_mapping(git_repo: GitRepo) -> None:
    git_repo.commit_files({TOPIC: LINKS, NOTE: "# CondInst\n"})
    _, default, _ = kb009()
    git_repo.commit_files({".kbcheck.toml": MAPPED})
    _, mapped, _ = kb009()
    broken = [(TOPIC, 3, "topics/paper_notes/condinst.md")]
    assert where(default) == broken
    assert where(mapped) == broken  # mapping the notes as guides used to make these links go quiet
    assert mapped[0]["message"] == (
        "paper_notes/condinst.md does not exist in the checked tree (resolved to topics/paper_notes/condinst.md); "
        "did you mean ../paper_notes/condinst.md?")


def test_a_near_file_is_offered_and_fixed(git_repo: GitRepo) -> None:
    git_repo.commit_files({
        "notes/pointpillars.md": "# PointPillars\n",
        "paper_notes/x.md": "# x\n",
        "notes/Readme.md": "# r\n",
        "notes/2301.12345.md": "# a paper\n",
        TOPIC: "# T\n\n[PP](../notes/point_pillars.md#method) [R](../notes/README.md) [X](../paper_note/x.md)"
               " [Y](../notes/2301.12346.md) [Q](../nowhere/q.md)\n",
    })
    _, findings, _ = kb009()
    assert [(f["subject"], str(f["message"]).partition("did you mean ")[2]) for f in findings] == [
        ("notes/point_pillars.md", "../notes/pointpillars.md?"),
        ("notes/README.md", "../notes/Readme.md?"),
        ("paper_note/x.md", "../paper_notes/x.md?"),
        ("notes/2301.12346.md", ""),  # another id is another paper: no suggestion
        ("nowhere/q.md", ""),
    ]
    text("--fix")
    assert (git_repo.path / TOPIC).read_text(encoding="utf-8") == (
        "# T\n\n[PP](../notes/pointpillars.md#method) [R](../notes/Readme.md) [X](../paper_notes/x.md)"
        " [Y](../notes/2301.12346.md) [Q](../nowhere/q.md)\n")


def test_a_wikilink_near_a_note_is_offered(git_repo: GitRepo) -> None:
    git_repo.commit_files({"wiki/Point Pillars.md": "# PP\n", "wiki/a.md": "See [[point-pillars]] and [[nothing here]].\n"})
    _, findings, _ = kb009()
    assert [(f["subject"], f["message"]) for f in findings] == [
        ("[[point-pillars]]", "[[point-pillars]] names no file in the knowledge base; did you mean [[Point Pillars]]?"),
        ("[[nothing here]]", "[[nothing here]] names no file in the knowledge base"),
    ]


def test_a_folder_the_repository_ignores_is_one_notice_not_a_finding_per_link(git_repo: GitRepo) -> None:
    git_repo.commit_files({
        ".gitignore": "raw/\n",
        "notes/a.md": "---\nraw: raw/papers/a.pdf\n---\n# A\n\n[pdf](../raw/papers/a.pdf) ![f](../raw/fig.png)\n",
        "notes/b.md": "# B\n\n[pdf](../raw/papers/b.pdf) [gone](missing.md)\n",
    })
    _, out, err = text()
    assert "KB009" not in err and out.count("KB009") == 1
    _, findings, _ = kb009()
    assert where(findings) == [("notes/b.md", 3, "notes/missing.md")]
    assert err.count("links into raw/ are not checked: the repository keeps it out of git on purpose") == 1


def test_local_paths_from_the_configuration(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": 'local-paths = ["papers/**"]\n',
                           "notes/a.md": "[pdf](../papers/a.pdf) [other](../pdfs/a.pdf)\n"})
    _, findings, _ = kb009()
    assert where(findings) == [("notes/a.md", 1, "pdfs/a.pdf")]


def test_an_untracked_file_is_broken_for_everyone_else(git_repo: GitRepo) -> None:
    git_repo.commit_files({"notes/a.md": "[b](b.md)\n"})
    git_repo.write("notes/b.md", "# b, on this disk only\n")
    _, findings, _ = kb009("notes/a.md", "notes/b.md")
    assert where(findings) == [("notes/a.md", 1, "notes/b.md")]
    git_repo.stage("notes/b.md")
    _, findings, _ = kb009("notes/a.md", "notes/b.md")
    assert findings == []


def test_a_tracked_file_kept_off_the_disk_by_a_sparse_checkout_exists(git_repo: GitRepo) -> None:
    git_repo.commit_files({"notes/a.md": "[b](../cards/b.md)\n", "cards/b.md": "# b\n", "cards/c.md": "# c\n"})
    git_repo.git("sparse-checkout", "set", "--no-cone", "/notes/")
    assert not (git_repo.path / "cards/b.md").exists()
    _, findings, _ = kb009()
    assert findings == []


def test_mkdocs_serves_docs_dir_and_links_pages_by_their_html(git_repo: GitRepo) -> None:
    git_repo.commit_files({
        "mkdocs.yml": "site_name: notes\ndocs_dir: site\n",
        "site/index.md": "# Home\n\n[a](/papers/a.md) [b](papers/b.html) [dir](papers/) [gone](/papers/c.md)\n",
        "site/papers/a.md": "# a\n", "site/papers/b.md": "# b\n", "site/papers/index.md": "# papers\n",
    })
    _, findings, _ = kb009()
    assert where(findings) == [("site/index.md", 3, "site/papers/c.md")]


def test_mdbook_serves_src_and_builds_readme_as_index(git_repo: GitRepo) -> None:
    git_repo.commit_files({
        "book.toml": "[book]\ntitle = \"notes\"\n",
        "src/SUMMARY.md": "- [Intro](intro/index.md)\n- [Pic](/assets/x.png) [Page](intro/page.html)\n",
        "src/intro/README.md": "# intro\n", "src/intro/page.md": "# page\n", "src/assets/x.png": b"\x89PNG",
    })
    _, findings, _ = kb009()
    assert findings == []


def test_a_site_root_from_the_configuration(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": 'site-root = "book"\n', "book/a.png": b"\x89PNG",
                           "book/ch1/x.md": "![a](/a.png) ![b](/b.png)\n"})
    _, findings, _ = kb009()
    assert where(findings) == [("book/ch1/x.md", 1, "book/b.png")]


def test_obsidian_resolves_markdown_links_from_the_vault_root_and_by_name(git_repo: GitRepo) -> None:
    files = {"topics/x.md": "[a](paper_notes/condinst.md) [b](condinst.md) [c](gone.md)\n",
             "paper_notes/condinst.md": "# c\n"}
    git_repo.commit_files(files)
    _, github, _ = kb009()
    assert [f["subject"] for f in github] == ["topics/paper_notes/condinst.md", "topics/condinst.md", "topics/gone.md"]
    git_repo.commit_files({".obsidian/app.json": "{}\n"})
    _, obsidian, _ = kb009()
    assert [f["subject"] for f in obsidian] == ["topics/gone.md"]


def test_template_files_and_placeholders_are_no_paths(git_repo: GitRepo) -> None:
    git_repo.commit_files({
        "Templates/paper.md": "# {{title}}\n\n[paper](paper.pdf) [[related note]]\n",
        "notes/_template.md": "[code](code.md)\n",
        "notes/a.md": "[paper](link_to_paper) [code](code_url) [x](path/to/file.md) [y](<path>)"
                      " [real](real-missing.md)\n",
        "notes/thought-template.md": "[gone](gone.md)\n",  # a note about templates is a note
    })
    _, findings, _ = kb009()
    assert where(findings) == [("notes/a.md", 1, "notes/real-missing.md"), ("notes/thought-template.md", 1, "notes/gone.md")]


def test_a_link_written_twice_is_said_without_its_markdown(git_repo: GitRepo) -> None:
    git_repo.commit_files({"topics/x.md": "See [the paper]([https://arxiv.org/abs/1](https://arxiv.org/abs/1)).\n"})
    _, findings, _ = kb009()
    assert [(f["subject"], f["message"]) for f in findings] == [(
        "https://arxiv.org/abs/1",
        "the link's target is a markdown link itself; write its address alone: https://arxiv.org/abs/1")]
    text("--fix")
    assert (git_repo.path / "topics/x.md").read_text(encoding="utf-8") == "See [the paper](https://arxiv.org/abs/1).\n"
