"""The change that adopts kbcheck: its trusted side has no configuration, and KB007 says so."""

from __future__ import annotations

import json

from gitrepo import GitRepo
from kbtools import run_cli as run

CONFIG = """\
[authors.tom]
emails = ["tom@example.org"]
role = "maintainer"
"""


def kb007(*argv: str) -> list[str]:
    code, out, err = run("check", *argv, "--select", "KB007", "--format", "json")
    assert code in (0, 1), err
    return [f["message"] for f in json.loads(out)["findings"]]


def test_the_first_pull_request_names_its_base_and_what_to_do(git_repo: GitRepo) -> None:
    git_repo.commit_files({"notes/a.md": "# a\n"}, "notes, before kbcheck")
    base = git_repo.head()
    git_repo.git("checkout", "-q", "-b", "adopt")
    git_repo.commit_files({".kbcheck.toml": CONFIG, "notes/b.md": "# b\n"}, "adopt kbcheck")
    messages = kb007("--diff", "main")
    assert len(messages) == 2
    assert messages[0].startswith("main, the trusted side of this change, has no kbcheck configuration, so it "
                                  "names no author (tom@example.org) who may write; a maintainer commits .kbcheck.toml there "
                                  "first, on its own (docs/adopting.md, the first commit) (")
    # the bootstrap: the configuration alone on the base first, then the same change passes
    git_repo.checkout("main")
    git_repo.git("checkout", "-q", "adopt", "--", ".kbcheck.toml")
    git_repo.commit("kbcheck configuration")
    git_repo.git("checkout", "-q", "adopt")
    git_repo.git("rebase", "-q", "main")
    assert kb007("--diff", "main") == []
    assert base != git_repo.head()


def test_a_staged_configuration_on_an_unconfigured_head(git_repo: GitRepo) -> None:
    git_repo.commit_files({"notes/a.md": "# a\n"}, "notes, before kbcheck")
    git_repo.write_many({".kbcheck.toml": CONFIG, "notes/b.md": "# b\n"})
    git_repo.stage(".kbcheck.toml", "notes/b.md")
    messages = kb007("--staged")
    assert messages and all(m.startswith("HEAD, the trusted side of this change, has no kbcheck configuration")
                            for m in messages)


def test_a_configured_base_keeps_the_usual_message(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG}, "config")
    git_repo.write("notes/c.md", "# c\n")
    git_repo.stage("notes/c.md")
    messages = kb007("--staged", "--author", "stranger")
    assert messages == ["author stranger (from --author; no such author) is not configured in .kbcheck.toml "
                        "[authors]; add it or set allow-unknown-authors (the staged change adds notes/c.md)"]
