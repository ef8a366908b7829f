"""Shared fixtures: a real git repository with a pinned author and isolated git config."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gitrepo import GitRepo


@pytest.fixture
def git_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    """An empty repository at `tmp_path/kb`, configured as Tom <tom@example.org>, current directory.

    The process environment is isolated the same way as the repository's own
    git calls, so kbcheck (which runs git itself) sees only this repository's
    configuration.
    """
    repo = GitRepo.create(tmp_path / "kb", home=tmp_path / "home")
    for key in list(os.environ):
        if key not in repo.env:
            monkeypatch.delenv(key)
    for key, value in repo.env.items():
        if os.environ.get(key) != value:
            monkeypatch.setenv(key, value)
    monkeypatch.chdir(repo.path)
    yield repo


@pytest.fixture(autouse=True)
def read_only_promise(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every CLI command a test runs writes nothing but what it is documented to write (`docs/architecture.md`).

    Each command is wrapped to hash its repository before and after; see
    `tests/readonly.py`. Tests that run no CLI command pay only the wrapping.
    """
    from readonly import guard_cli

    guard = guard_cli(monkeypatch, tmp_path_factory.getbasetemp())
    yield
    if guard.violations:
        pytest.fail("read-only promise broken:\n" + "\n".join(guard.violations), pytrace=False)


@pytest.fixture
def rule_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths files are checked for from now on: KB004 reads every kind of file, so its runs
    are the files checked (not served from a kept check, `kbcheck.checked`)."""
    import dataclasses

    import kbcheck.rules.kb004_unknown_paper as kb004
    from kbcheck.rules import all_rules

    runs: list[str] = []
    check = kb004.check

    def counting(file, kb, config):  # type: ignore[no-untyped-def]
        runs.append(file.path)
        return check(file, kb, config)

    rules = all_rules()
    monkeypatch.setitem(rules, "KB004", dataclasses.replace(rules["KB004"], check_file=counting))
    return runs
