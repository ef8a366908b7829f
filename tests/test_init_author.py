"""`kbcheck init` records the git user as the first author, so the first commit after it passes KB007."""

from __future__ import annotations

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

from kbcheck.config import load_config
from kbcheck.first_author import slug_for


def test_init_records_the_git_user_as_maintainer(git_repo: GitRepo) -> None:
    code, out, _ = run("init")
    assert code == 0
    assert out.splitlines()[1] == "recorded tom@example.org as author 'tom' with role maintainer"
    author = load_config(git_repo.path).authors["tom"]
    assert (author.emails, author.role) == (("tom@example.org",), "maintainer")


def test_first_commit_after_init_passes_the_hook(git_repo: GitRepo) -> None:
    run("init")
    git_repo.write("organized/knowledge/推理.md", "# 推理\n\n正文。\n")
    git_repo.stage(".kbcheck.toml", "organized/knowledge/推理.md")
    code, out, err = run("check", "--staged")
    # `kbcheck init` writes lang = "zh": from then on kbcheck speaks the knowledge base's language
    assert (code, out, err) == (0, "1 个文件中没有发现问题。\n", "")


def test_without_init_the_same_commit_fails_kb007(git_repo: GitRepo) -> None:
    git_repo.write(".kbcheck.toml", "")
    git_repo.write("organized/knowledge/推理.md", "# 推理\n\n正文。\n")
    git_repo.stage(".kbcheck.toml", "organized/knowledge/推理.md")
    code, out, _ = run("check", "--staged")
    assert code == 1 and "KB007" in out


def test_role_flag_names_the_role(git_repo: GitRepo) -> None:
    _code, out, _ = run("init", "--role", "writer")
    assert "with role writer" in out
    assert load_config(git_repo.path).authors["tom"].role == "writer"


def test_an_unknown_role_is_a_usage_error(git_repo: GitRepo) -> None:
    code, _, err = run("init", "--role", "editor")
    assert code == 2 and "unknown role 'editor'" in err
    assert not (git_repo.path / ".kbcheck.toml").exists()


def test_a_chinese_name_and_the_environment_author(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_AUTHOR_NAME", "王 小明")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "Wang@Example.org")
    run("init")
    author = load_config(git_repo.path).authors["王-小明"]
    assert author.emails == ("wang@example.org",)


@pytest.mark.parametrize(("name", "email", "slug"), [
    ("Tom Lee", "t@x.org", "tom-lee"),
    ("  ", "ana.b@x.org", "ana-b"),
    ("李雷", "li@x.org", "李雷"),
    ("O'Brien / Ops", "o@x.org", "o-brien-ops"),
])
def test_slug_for(name: str, email: str, slug: str) -> None:
    assert slug_for(name, email) == slug
