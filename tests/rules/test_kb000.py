"""KB000 unreadable-note: a note kbcheck could not read is a finding, never a silent pass."""

from __future__ import annotations

import json

from gitrepo import GitRepo
from kbtools import run_cli as run

CONFIG = """\
max-file-size = 200

[authors.tom]
emails = ["tom@example.org"]
role = "maintainer"
"""
BINARY = "organized/guides/diagram.md"
LEGACY = "inbox/tom/gbk.md"
LARGE = "organized/knowledge/big.md"


def staged_findings(repo: GitRepo, files: dict[str, str | bytes], *argv: str) -> tuple[int, list[tuple[str, str]], str]:
    repo.write_many(files)
    repo.stage(*files)
    code, out, err = run("check", "--staged", "--format", "json", *argv)
    assert code in (0, 1), err
    return code, [(f["path"], f["message"]) for f in json.loads(out)["findings"] if f["rule"] == "KB000"], err


def test_notes_it_cannot_read_are_findings(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG}, "config")
    code, found, _ = staged_findings(git_repo, {
        BINARY: b"# diagram\n\x00\x01\x02",
        LEGACY: "# 笔记\n\n中文内容\n".encode("gbk"),
        LARGE: "# big\n\n" + "a line of text\n" * 20,
    }, "--strict")
    assert code == 1  # the hook runs with --strict: it fails, and shows why
    assert [path for path, _ in found] == [LEGACY, BINARY, LARGE]
    messages = dict(found)
    assert messages[BINARY].startswith(f"{BINARY} could not be read, so nothing in it was checked (")
    assert "max-file-size" in messages[LARGE]
    code, out, _ = run("check", "--staged")
    assert "3 warnings in 3 files" in out


def test_files_that_are_no_notes_are_not_read(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG}, "config")
    code, found, _ = staged_findings(git_repo, {
        "organized/guides/figure.png": b"\x89PNG\r\n\x1a\n\x00\x00",
        "data/table.bin": b"\x00" * 500,
        "inbox/tom/brief.md": "# tom\n\nA short brief.\n",
    }, "--strict")
    assert code == 0 and found == []


def test_a_warm_run_still_reports_it(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG, BINARY: b"# diagram\n\x00"}, "binary note")
    for _ in range(2):
        code, out, err = run("check", "--all", "--format", "json")
        assert code == 0, err
        assert [f["rule"] for f in json.loads(out)["findings"]] == ["KB000"]


def test_per_file_ignores_silence_it(git_repo: GitRepo) -> None:
    config = CONFIG.replace("max-file-size = 200\n", 'max-file-size = 200\nper-file-ignores = {"organized/guides/**" = ["KB000"]}\n')
    git_repo.commit_files({".kbcheck.toml": config}, "config")
    _, found, _ = staged_findings(git_repo, {BINARY: b"\x00\x01"})
    assert found == []


def test_the_finding_replaces_the_notice_and_an_ignored_one_keeps_it(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG}, "config")
    code, found, err = staged_findings(git_repo, {LEGACY: "# 笔记\n\n中文内容\n".encode("gbk")})
    assert [path for path, _ in found] == [LEGACY] and err == ""
    code, out, err = run("check", "--staged", "--format", "json")
    assert json.loads(out)["findings"][0]["data"] == {"reason": "skipped: not UTF-8 (byte 0xb1 at offset 2)"}
    code, out, err = run("check", "--staged", "--ignore", "KB000")
    assert (code, out) == (0, "No findings in 1 file.\n")
    assert err == f"kbcheck: {LEGACY}: skipped: not UTF-8 (byte 0xb1 at offset 2)\n"


def test_checked_in_worker_processes_the_notice_is_still_left_out(git_repo: GitRepo) -> None:
    """The notice and the finding come back from a worker: the parent read no file itself."""
    from kbcheck.engine import PARALLEL_MIN_FILES

    notes = {f"organized/guides/n{n:04d}.md": f"# note {n}\n" for n in range(PARALLEL_MIN_FILES + 10)}
    git_repo.commit_files({".kbcheck.toml": CONFIG, BINARY: b"# diagram\n\x00", **notes}, "many notes")
    for _ in range(2):  # cold, then from the cache
        code, out, err = run("check", "--all", "--format", "json")
        assert (code, err) == (0, "")
        assert [f["path"] for f in json.loads(out)["findings"]] == [BINARY]
