"""The progress line: shown on a terminal (a real pseudo-terminal here), never in a pipe, CI log or `-q` run."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import termios
from collections.abc import Iterator

import pytest
from gitrepo import GitRepo

from kbcheck import progress
from kbcheck.cli import main

NOTES = {f"organized/knowledge/笔记-{i:02d}.md": f"# 笔记 {i}\n\n- 提速 {i}x（arXiv:2610.{i:05d}）\n" for i in range(12)}


@pytest.fixture
def kb(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    git_repo.commit_files(NOTES, "notes")
    monkeypatch.setattr(progress, "DELAY", 0.0)  # a tiny run: show the line at once
    monkeypatch.setattr(progress, "MININTERVAL", 0.0)  # and draw every file
    monkeypatch.setenv("TERM", "xterm")
    return git_repo


@pytest.fixture
def terminal() -> Iterator[tuple[io.TextIOWrapper, int]]:
    """A text stream on a pseudo-terminal's slave side, and its master fd to read what it shows."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 24 rows, 100 columns
    stream = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), encoding="utf-8", write_through=True)
    try:
        yield stream, master
    finally:
        stream.close()
        os.close(master)


def shown(master: int) -> str:
    data = b""
    while select.select([master], [], [], 0.2)[0]:
        chunk = os.read(master, 65536)
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace")


def test_a_terminal_sees_files_done_of_total_and_the_rate(kb: GitRepo, terminal: tuple[io.TextIOWrapper, int]) -> None:
    err, master = terminal
    out = io.StringIO()
    assert main(["check", "--all"], out=out, err=err) == 0
    screen = shown(master)
    assert re.search(r"checking: +100%\|.*\| 12/12 \[[0-9:<]+, +[0-9.?]+ ?file/s\]", screen), screen
    assert "12/12" not in out.getvalue()  # the report itself never carries it


def test_a_terminal_without_a_size_still_sees_the_line(kb: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = pty.openpty()  # 0 rows, 0 columns, as under `script` without a window
    err = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), encoding="utf-8", write_through=True)
    try:
        main(["check", "--all"], out=io.StringIO(), err=err)
        assert re.search(r"checking: +\d+%\|.*\| \d+/12 ", shown(master))
    finally:
        err.close()
        os.close(master)


@pytest.mark.parametrize("argv", [["check", "--all", "-q"], ["check", "--all", "--quiet"]])
def test_quiet_shows_no_progress(kb: GitRepo, terminal: tuple[io.TextIOWrapper, int], argv: list[str]) -> None:
    err, master = terminal
    main(argv, out=io.StringIO(), err=err)
    assert shown(master) == ""


@pytest.mark.parametrize(("name", "value"), [("TERM", "dumb"), ("NO_COLOR", "1")])
def test_a_plain_terminal_shows_no_progress(kb: GitRepo, terminal: tuple[io.TextIOWrapper, int],
                                            monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    err, master = terminal
    main(["check", "--all"], out=io.StringIO(), err=err)
    assert "12/12" not in shown(master)


def test_a_pipe_shows_no_progress(kb: GitRepo) -> None:
    read, write = os.pipe()
    with os.fdopen(write, "w", encoding="utf-8") as err:
        main(["check", "--all"], out=io.StringIO(), err=err)
    with os.fdopen(read, encoding="utf-8") as pipe:
        assert "file/s" not in pipe.read()


def test_baseline_update_and_digest_show_progress(kb: GitRepo, terminal: tuple[io.TextIOWrapper, int]) -> None:
    err, master = terminal
    out = io.StringIO()
    assert main(["baseline", "update"], out=out, err=err) == 0
    assert re.search(r"baseline: +100%\|.*\| 12/12 ", shown(master))
    kb.commit_files({".kbcheck/baseline.json": (kb.path / ".kbcheck/baseline.json").read_text("utf-8"),
                     "organized/knowledge/新.md": "# 新\n\n- 提速 9x\n"}, "more")
    assert main(["digest", "--format", "json"], out=io.StringIO(), err=err) == 0
    assert re.search(r"digest: +100%\|.*\| \d+/\d+ ", shown(master))


def test_without_a_terminal_nothing_is_imported() -> None:
    assert isinstance(progress.progress_for(io.StringIO(), "checking"), progress.Silent)
