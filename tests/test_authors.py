"""Who the author of a run is, and where a role may write (`docs/configuration.md`)."""

from __future__ import annotations

import pytest
from gitrepo import GitRepo

from kbcheck import git
from kbcheck.authors import allowed_globs, author_for_email, configured_slug, may_write, resolve_run_author
from kbcheck.config import Author, Config

CONFIG = Config(
    roles={"writer": ("inbox/{author}/**",), "maintainer": ("**",),
           "indexer": ("organized/indexes/**", "inbox/{author}/**"), "empty": ()},
    authors={
        "tom": Author("tom", ("tom@example.org", "Tom.Work@Example.ORG"), "writer"),
        "jay": Author("jay", ("jay@example.org",), "writer"),
        "mia": Author("mia", ("mia@example.org",), "maintainer"),
        "bot": Author("bot", ("bot@example.org",), "indexer"),
        "ghost": Author("ghost", (), "undefined-role"),
        "nobody": Author("nobody", (), "empty"),
    },
)


@pytest.fixture
def repo(git_repo: GitRepo):
    handle = git.open_repository(git_repo.path)
    yield handle
    handle.close()


# -- resolution order --------------------------------------------------------------------

def test_from_user_email(repo: git.Repository) -> None:
    assert resolve_run_author(repo, CONFIG, None) == ("tom", "tom@example.org")


def test_email_match_ignores_case(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.git("config", "user.email", "tom.work@example.org")
    assert resolve_run_author(repo, CONFIG, None) == ("tom", "tom.work@example.org")


def test_git_config_kbcheck_author_beats_email(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.git("config", "kbcheck.author", "jay")
    assert resolve_run_author(repo, CONFIG, None) == ("jay", "jay")


def test_environment_beats_git_config(git_repo: GitRepo, repo: git.Repository,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.git("config", "kbcheck.author", "jay")
    monkeypatch.setenv("KBCHECK_AUTHOR", "mia")
    assert resolve_run_author(repo, CONFIG, None) == ("mia", "mia")


def test_cli_beats_everything(git_repo: GitRepo, repo: git.Repository, monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.git("config", "kbcheck.author", "jay")
    monkeypatch.setenv("KBCHECK_AUTHOR", "mia")
    assert resolve_run_author(repo, CONFIG, "bot") == ("bot", "bot")


def test_blank_sources_are_skipped(git_repo: GitRepo, repo: git.Repository, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KBCHECK_AUTHOR", "  ")
    assert resolve_run_author(repo, CONFIG, "") == ("tom", "tom@example.org")


def test_explicit_slug_ignores_case(repo: git.Repository) -> None:
    assert resolve_run_author(repo, CONFIG, "Jay") == ("jay", "jay")


@pytest.mark.parametrize("source", ["--author", "KBCHECK_AUTHOR", "git config kbcheck.author"])
def test_unconfigured_explicit_slug_is_unknown(git_repo: GitRepo, repo: git.Repository,
                                               monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    cli = None
    if source == "--author":
        cli = "zed"
    elif source == "KBCHECK_AUTHOR":
        monkeypatch.setenv("KBCHECK_AUTHOR", "zed")
    else:
        git_repo.git("config", "kbcheck.author", "zed")
    slug, label = resolve_run_author(repo, CONFIG, cli)
    assert slug is None
    assert label == f"zed (from {source}; no such author)"


def test_unconfigured_email(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.git("config", "user.email", "stranger@elsewhere.net")
    assert resolve_run_author(repo, CONFIG, None) == (None, "stranger@elsewhere.net")


def test_no_email_at_all(git_repo: GitRepo, repo: git.Repository) -> None:
    git_repo.git("config", "--unset", "user.email")
    assert resolve_run_author(repo, CONFIG, None) == (None, "unknown (git config user.email is not set)")


def test_the_email_git_will_record_wins(git_repo: GitRepo, repo: git.Repository,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.git("config", "author.email", "jay@example.org")
    assert resolve_run_author(repo, CONFIG, None) == ("jay", "jay@example.org")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "mia@example.org")
    assert resolve_run_author(repo, CONFIG, None) == ("mia", "mia@example.org")


def test_no_authors_configured(repo: git.Repository) -> None:
    assert resolve_run_author(repo, Config(), None) == (None, "tom@example.org")


# -- lookups -----------------------------------------------------------------------------

def test_author_for_email() -> None:
    assert author_for_email(CONFIG, "TOM@example.org") == "tom"
    assert author_for_email(CONFIG, " tom.work@example.org ") == "tom"
    assert author_for_email(CONFIG, "someone@example.org") is None
    assert author_for_email(CONFIG, "") is None
    assert author_for_email(CONFIG, None) is None


def test_configured_slug() -> None:
    assert configured_slug(CONFIG, "MIA") == "mia"
    assert configured_slug(CONFIG, "zed") is None


def test_allowed_globs() -> None:
    assert allowed_globs(CONFIG, "tom") == ("inbox/tom/**",)
    assert allowed_globs(CONFIG, "mia") == ("**",)
    assert allowed_globs(CONFIG, "bot") == ("organized/indexes/**", "inbox/bot/**")
    assert allowed_globs(CONFIG, "ghost") == ()
    assert allowed_globs(CONFIG, "zed") == ()
    assert allowed_globs(CONFIG, None) == ()


@pytest.mark.parametrize("slug, path, allowed", [
    ("tom", "inbox/tom/a.md", True),
    ("tom", "inbox/tom/2026/10/中文 brief.md", True),
    ("tom", "inbox/jay/a.md", False),
    ("tom", "inbox/tomato/a.md", False),
    ("tom", "organized/knowledge/inference.md", False),
    ("tom", "inbox/tom", False),
    ("mia", "organized/knowledge/inference.md", True),
    ("mia", "anything/at/all.md", True),
    ("bot", "organized/indexes/work-guard/x.json", True),
    ("bot", "organized/paper_cards/1.md", False),
    ("ghost", "inbox/ghost/a.md", False),
    ("nobody", "inbox/nobody/a.md", False),
    ("zed", "inbox/zed/a.md", False),
    (None, "inbox/tom/a.md", False),
])
def test_may_write(slug: str | None, path: str, allowed: bool) -> None:
    assert may_write(CONFIG, slug, path) is allowed
