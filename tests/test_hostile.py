"""Hostile input, as a table: each row is a case and the outcome kbcheck promises for it.

kbcheck runs on every writer's commit and in every CI job, so bad input must
end in one of three ways (`docs/architecture.md`), never in a traceback, a hang or a
changed file:

- findings: the problem is reported where it is (rule, path, line, column, subject);
- a notice: one `kbcheck: …` line on stderr, and the run goes on;
- exit 2 with a one-line reason on stderr.

Every row runs the real CLI (`kbcheck.cli.main`) in a real git repository;
the autouse read-only guard (`tests/readonly.py`) also holds each row to
"no file changed". An `internal error` line is a bug in kbcheck, never an
accepted outcome.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from gitrepo import GitRepo

from kbcheck.cli import main
from kbcheck.config import Config
from kbcheck.model.claims import ClaimNumber
from kbcheck.model.document import Block, HeadingPatterns, parse_document

CONFIG = """\
[authors.tom]
emails = ["tom@example.org"]
role = "writer"

[authors.mia]
emails = ["mia@example.org"]
role = "maintainer"
"""
CARD = "organized/paper_cards/1695-2610-02076.md"
LIVING = "organized/knowledge/inference.md"
TREND_DOC = "# 活文档\n\n## §6.2 趋势\n\n- 未注明来源的趋势。\n"
MB = 1024 * 1024

#: (rule, path, line, column, subject) of one finding
Spot = tuple[str, str, int, int, str]


@dataclass(frozen=True)
class Outcome:
    """What a row promises: the exit status and exactly these findings, notices or error."""

    code: int
    findings: tuple[Spot, ...] = ()
    #: stderr lines after `kbcheck: ` (notices), in order; for exit 2, the one error line
    stderr: tuple[str, ...] = ()
    #: for outputs that are not `check --format json`: text stdout must contain
    stdout_has: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    """A hostile input: files to commit, an optional set-up in git, the command, the outcome."""

    files: dict[str, str | bytes] = field(default_factory=dict)
    argv: tuple[str, ...] = ("check", "--all", "--format", "json")
    #: runs after the files are committed; returns the folder to run kbcheck in
    setup: Callable[[GitRepo, Path], Path] | None = None
    #: commit the files first (False: an empty repository)
    commit: bool = True


def run_cli(argv: tuple[str, ...]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def spots(output: str) -> tuple[Spot, ...]:
    report = json.loads(output)
    return tuple((f["rule"], f["path"], f["line"], f["column"], f["subject"]) for f in report["findings"])


def play(case: Case, repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    repo.write_many(case.files)
    if case.commit:
        repo.commit_all("hostile input", author="mia")
    where = case.setup(repo, tmp_path) if case.setup else repo.path
    monkeypatch.chdir(where)
    return run_cli(case.argv)


def assert_outcome(result: tuple[int, str, str], outcome: Outcome, argv: tuple[str, ...]) -> None:
    code, out, err = result
    assert "internal error" not in err and "Traceback" not in err, err
    assert code == outcome.code, (code, out[:2000], err)
    lines = [line.removeprefix("kbcheck: ") for line in err.splitlines()]
    assert len(lines) == len(outcome.stderr), lines
    for line, expected in zip(lines, outcome.stderr):
        # `…` in an expected line stands for a machine-specific part (a temporary path)
        assert re.fullmatch(".*".join(re.escape(part) for part in expected.split("…")), line), (line, expected)
    if code == 2:
        assert out == ""
        return
    if "json" in argv and argv[0] == "check":
        assert spots(out) == outcome.findings
    for text in outcome.stdout_has:
        assert text in out, out


# -- set-ups in git ---------------------------------------------------------------------------------

def symlinks_outside(repo: GitRepo, tmp_path: Path) -> Path:
    """A tracked symlink to a file outside, one to a folder outside, a self loop, a two-link cycle, a folder loop."""
    (repo.path / "organized").mkdir(exist_ok=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# secret\n\n- 99% leaked\n", encoding="utf-8")
    os.symlink(outside / "secret.md", repo.path / "inbox/tom/secret.md")
    os.symlink(outside, repo.path / "inbox/ext")
    os.symlink("loop.md", repo.path / "inbox/tom/loop.md")
    os.symlink("cycle-b.md", repo.path / "inbox/tom/cycle-a.md")
    os.symlink("cycle-a.md", repo.path / "inbox/tom/cycle-b.md")
    os.symlink(".", repo.path / "organized/self")
    repo.commit_all("symlinks", author="mia")
    return repo.path


def history(repo: GitRepo, tmp_path: Path) -> Path:
    """base (tag) -> a writer's side branch merged by a maintainer -> a rename chain by the writer."""
    repo.git("tag", "base")
    repo.branch("side")
    repo.commit_files({"inbox/tom/side.md": "# side\n\n- 6x faster\n"}, "side work", author="tom")
    repo.checkout("side")
    repo.commit_files({"organized/guides/stray.md": "# stray\n"}, "stray guide", author="jay")
    repo.checkout("main")
    repo.merge("side", author="mia")
    repo.move("inbox/tom/draft.md", "inbox/tom/draft-2.md")
    repo.commit("rename 1", author="tom")
    repo.move("inbox/tom/draft-2.md", "organized/guides/draft-3.md")
    repo.commit("rename 2", author="tom")
    return repo.path


def detached(repo: GitRepo, tmp_path: Path) -> Path:
    history(repo, tmp_path)
    repo.checkout(repo.head())
    return repo.path


def staged_deletion(repo: GitRepo, tmp_path: Path) -> Path:
    repo.delete("organized/guides/g.md")
    return repo.path


def empty_with_staged_file(repo: GitRepo, tmp_path: Path) -> Path:
    repo.write_many({".kbcheck.toml": CONFIG, "inbox/tom/a.md": "# a\n\n- 5x faster\n"})
    repo.stage()
    return repo.path


def submodule(repo: GitRepo, tmp_path: Path) -> Path:
    source = GitRepo.create(tmp_path / "vendor-src", home=tmp_path / "home")
    source.commit_files({"README.md": "# vendor\n\n- 99x faster\n"}, "vendor")
    repo.run("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source.path), "vendor/sub")
    repo.commit("add submodule", author="mia")
    return repo.path


def submodule_staged(repo: GitRepo, tmp_path: Path) -> Path:
    source = GitRepo.create(tmp_path / "vendor-src", home=tmp_path / "home")
    source.commit_files({"README.md": "# vendor\n"}, "vendor")
    repo.run("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source.path), "vendor/sub")
    return repo.path


def _baseline_then_more(repo: GitRepo) -> str:
    """Record a baseline at the current commit, then add a commit on top; the baseline sha."""
    assert run_cli(("baseline", "update"))[0] == 0
    base = repo.commit_all("baseline", author="mia")
    repo.commit_files({"inbox/tom/new.md": "# new\n\n- 6x faster\n"}, "more", author="tom")
    return base


def shallow_clone(repo: GitRepo, tmp_path: Path) -> Path:
    _baseline_then_more(repo)
    clone = tmp_path / "shallow"
    repo.git("clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone))
    return clone


BIG_PROSE = "# big\n\n" + "长文，" * 400 + "\n\n"


def partial_clone(repo: GitRepo, tmp_path: Path) -> Path:
    """A blobless-over-1k clone whose remote is gone: the old version of the big brief is missing."""
    repo.commit_files({"inbox/tom/big.md": BIG_PROSE + "- 7x faster\n"}, "big", author="tom")
    repo.commit_files({"inbox/tom/big.md": BIG_PROSE + "- 8x faster\n"}, "bigger", author="tom")
    return repo.partial_clone(tmp_path / "partial", "--filter=blob:limit=1k")


def partial_clone_no_checkout(repo: GitRepo, tmp_path: Path) -> Path:
    """No checkout: every blob over 1k is missing, the new version of the big brief too."""
    repo.commit_files({"inbox/tom/big.md": BIG_PROSE + "- 7x faster\n"}, "big", author="tom")
    repo.commit_files({"inbox/tom/big.md": BIG_PROSE + "- 8x faster\n"}, "bigger", author="tom")
    return repo.partial_clone(tmp_path / "partial", "--filter=blob:limit=1k", "--no-checkout")


def worktree(repo: GitRepo, tmp_path: Path) -> Path:
    linked = tmp_path / "linked"
    repo.git("worktree", "add", "-q", str(linked), "-b", "linked")
    (linked / "inbox/tom/w.md").write_text("# w\n\n- 3x faster\n", encoding="utf-8")
    repo.run("-C", str(linked), "add", "inbox/tom/w.md")
    return linked


def odd_names_added(repo: GitRepo, tmp_path: Path) -> Path:
    """A commit adding a binary file and a brief whose names hold a newline."""
    repo.commit_files({"inbox/tom/bin\nary.md": b"\x00\x01binary", "inbox/tom/new\nline.md": "- 7x faster\n"},
                      "odd names", author="tom")
    return repo.path


def fifo_in_place_of_a_file(repo: GitRepo, tmp_path: Path) -> Path:
    """A tracked file replaced on disk by a named pipe: opening it for reading would block forever."""
    os.unlink(repo.path / "inbox/tom/a.md")
    os.mkfifo(repo.path / "inbox/tom/a.md")
    return repo.path


def corrupt_baseline(repo: GitRepo, tmp_path: Path) -> Path:
    repo.write(".kbcheck/baseline.json", '{"commit": "abc", "fingerprints": [')
    return repo.path


def manifest_outside(repo: GitRepo, tmp_path: Path) -> Path:
    repo.write("m.json", json.dumps(["inbox/tom/a.md", "../../etc/passwd"]))
    return repo.path


def manifest_absolute_with_newline(repo: GitRepo, tmp_path: Path) -> Path:
    repo.write("m.json", json.dumps(["/etc/pass\nwd"]))
    return repo.path


# -- the table -------------------------------------------------------------------------------------

def _nested_list(depth: int) -> str:
    return "".join("  " * level + f"- level {level}\n" for level in range(depth - 1)) + "  " * (depth - 1) + "- deepest 12%\n"


ALIAS_BOMB = "---\n" + "".join(
    f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
    for prev, name in zip("abcdefgh", "bcdefghi")
).replace("b: &b [*a", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a", 1) + 'arxiv: "2610.02076"\ntitle: "bomb"\n---\n'

FILES: dict[str, tuple[Case, Outcome]] = {
    "yaml-malformed": (
        Case({CARD: '---\narxiv: "2610.02076"\ntitle: [unclosed\n---\n\nbody\n'}),
        Outcome(1, (("KB008", CARD, 4, 1, CARD),)),
    ),
    "yaml-python-object-tag": (
        Case({CARD: '---\narxiv: !!python/object/apply:os.system ["touch pwned"]\ntitle: "x"\n---\n'}),
        Outcome(1, (("KB008", CARD, 2, 1, CARD),)),
    ),
    "yaml-alias-bomb": (
        Case({CARD: ALIAS_BOMB}),
        Outcome(1, (("KB008", CARD, 2, 1, CARD),)),
    ),
    "non-utf8-bytes": (
        Case({"inbox/tom/latin1.md": "# café\n\n- 12% faster\n".encode("latin-1")}),
        Outcome(0, (("KB000", "inbox/tom/latin1.md", 1, 1, "inbox/tom/latin1.md"),)),  # the finding says why: no notice
    ),
    "utf8-bom": (
        Case({"inbox/tom/bom.md": "\ufeff# 简报\n\n- 提速 12%\n"}),
        Outcome(0, (("KB005", "inbox/tom/bom.md", 3, 6, "12%"),)),
    ),
    "crlf-line-endings": (
        Case({"inbox/tom/crlf.md": "# 简报\r\n\r\n- 提速 12%\r\n", LIVING: TREND_DOC.replace("\n", "\r\n")}),
        Outcome(1, (("KB005", "inbox/tom/crlf.md", 3, 6, "12%"), ("KB001", LIVING, 5, 1, "未注明来源的趋势。"))),
    ),
    "bare-cr-line-endings": (
        Case({"inbox/tom/cr.md": "# 简报\r\r- 提速 12%\r", LIVING: TREND_DOC.replace("\n", "\r")}),
        Outcome(1, (("KB005", "inbox/tom/cr.md", 3, 6, "12%"), ("KB001", LIVING, 5, 1, "未注明来源的趋势。"))),
    ),
    "binary-blob-named-md": (
        Case({"inbox/tom/figure.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))}),
        Outcome(0, (("KB000", "inbox/tom/figure.md", 1, 1, "inbox/tom/figure.md"),)),
    ),
    "five-mb-single-line": (
        Case({"inbox/tom/huge.md": "- 12% " + "x" * (5 * MB - 6)}),
        Outcome(0, (("KB000", "inbox/tom/huge.md", 1, 1, "inbox/tom/huge.md"),)),
    ),
    "empty-file": (
        Case({"inbox/tom/empty.md": "", LIVING: ""}),
        Outcome(0),
    ),
    "empty-card": (
        Case({CARD: ""}),
        Outcome(1, (("KB008", CARD, 1, 1, CARD),)),
    ),
    "card-with-frontmatter-only": (
        Case({CARD: '---\narxiv: "2610.02076"\ntitle: "LLM-as-Jev"\n---\n', "inbox/tom/a.md": "# a\n\narXiv:2610.02076\n"}),
        Outcome(0),
    ),
    "deeply-nested-list": (
        Case({"inbox/tom/deep.md": _nested_list(200) + "\n# 之后\n\n- 之后 13%\n",
              LIVING: _nested_list(60) + "\n" + TREND_DOC}),
        Outcome(1, (("KB005", "inbox/tom/deep.md", 200, 409, "12%"), ("KB005", "inbox/tom/deep.md", 204, 6, "13%"),
                    ("KB005", LIVING, 60, 129, "12%"), ("KB001", LIVING, 66, 1, "未注明来源的趋势。"))),
    ),
    "tab-indented-lists": (
        Case({"inbox/tom/tabs.md": "- a 12%\n\t- b 13%\n\t\t- c 14%\n\t\t\t1. d 15%\n"}),
        Outcome(0, (("KB005", "inbox/tom/tabs.md", 1, 5, "12%"), ("KB005", "inbox/tom/tabs.md", 2, 6, "13%"),
                    ("KB005", "inbox/tom/tabs.md", 3, 7, "14%"), ("KB005", "inbox/tom/tabs.md", 4, 9, "15%"))),
    ),
}

NAMES: dict[str, tuple[Case, Outcome]] = {
    "cjk-and-spaces": (
        Case({"inbox/tom/笔记 一 二.md": "# 笔记\n\n- 提速 12%\n",
              "inbox/tom/index.md": "[笔记](笔记%20一%20二.md) [另](<笔记 一 二.md>) [缺](<不存在 的.md>)\n"}),
        Outcome(0, (("KB009", "inbox/tom/index.md", 1, 43, "inbox/tom/不存在 的.md"),
                    ("KB005", "inbox/tom/笔记 一 二.md", 3, 6, "12%"))),
    ),
    "leading-dash-all": (
        Case({"inbox/tom/-draft.md": "- 5x faster\n", "--help.md": "- 6x faster\n"}),
        Outcome(0, (("KB005", "inbox/tom/-draft.md", 1, 3, "5x"),)),
    ),
    "leading-dash-named": (
        Case({"inbox/tom/-draft.md": "- 5x faster\n"}, argv=("check", "--format", "json", "--", "inbox/tom/-draft.md")),
        Outcome(0, (("KB005", "inbox/tom/-draft.md", 1, 3, "5x"),)),
    ),
    "newline-in-name-json": (
        Case({"inbox/tom/new\nline.md": "- 7x faster\n"}),
        Outcome(0, (("KB005", "inbox/tom/new\nline.md", 1, 3, "7x"),)),
    ),
    "newline-in-name-text": (
        Case({"inbox/tom/new\nline.md": "- 7x faster\n"}, argv=("check", "--all")),
        Outcome(0, stdout_has=('"inbox/tom/new\\nline.md":1:3: KB005 7x has no source',)),
    ),
    "newline-in-name-github": (
        Case({"inbox/tom/new\nline.md": "- 7x faster\n"}, argv=("check", "--all", "--format", "github")),
        Outcome(0, stdout_has=("::warning file=inbox/tom/new%0Aline.md,line=1,col=3,",)),
    ),
    "newline-in-name-digest": (
        Case({"inbox/tom/a.md": "# a\n"}, setup=odd_names_added, argv=("digest", "--since", "HEAD~1", "--format", "json")),
        Outcome(0, stderr=("inbox/tom/bin\\nary.md: skipped: binary file (contains NUL bytes)",),
                stdout_has=('"path": "inbox/tom/new\\nline.md"',)),
    ),
}

LINKS: dict[str, tuple[Case, Outcome]] = {
    "symlink-outside-never-followed": (
        Case({"inbox/tom/a.md": "# a\n\n[密](secret.md) [外](ext/secret.md)\n"}, setup=symlinks_outside),
        Outcome(0, (("KB009", "inbox/tom/a.md", 3, 20, "inbox/tom/ext/secret.md"),)),
    ),
    "symlink-named-on-the-command-line": (
        Case({"inbox/tom/a.md": "# a\n"}, setup=symlinks_outside,
             argv=("check", "--format", "json", "inbox/tom/secret.md", "inbox/tom/loop.md", "inbox/ext")),
        Outcome(0, stderr=("inbox/tom/secret.md: skipped: symlink (not followed)",
                           "inbox/tom/loop.md: skipped: symlink (not followed)",
                           "inbox/ext: skipped: symlink (not followed)")),
    ),
    "path-through-a-symlinked-folder": (
        Case({"inbox/tom/a.md": "# a\n"}, setup=symlinks_outside, argv=("check", "inbox/ext/secret.md")),
        Outcome(2, stderr=("error: path is outside the repository: inbox/ext/secret.md",)),
    ),
    "link-cycle": (
        Case({"inbox/tom/a.md": "# a\n\n[b](b.md) [loop](loop.md) [cycle](cycle-a.md) [self](../../organized/self/inbox/tom/a.md)\n",
              "inbox/tom/b.md": "# b\n\n[a](a.md)\n", "organized/.keep": ""}, setup=symlinks_outside),
        Outcome(0, (("KB009", "inbox/tom/a.md", 3, 54, "organized/self/inbox/tom/a.md"),)),
    ),
    "fifo-in-place-of-a-tracked-file": (
        # (a link to a note is a source: the unsourced number stands in a section of its own)
        Case({"inbox/tom/a.md": "- 5x\n", "inbox/tom/b.md": "[a](a.md)\n\n## b\n\n6x\n"}, setup=fifo_in_place_of_a_file),
        Outcome(0, (("KB005", "inbox/tom/b.md", 5, 1, "6x"),)),
    ),
    "fifo-named-on-the-command-line": (
        Case({"inbox/tom/a.md": "- 5x\n"}, setup=fifo_in_place_of_a_file, argv=("check", "inbox/tom/a.md")),
        Outcome(0, stderr=("inbox/tom/a.md: skipped: not a regular file",), stdout_has=("No findings in 0 files.",)),
    ),
    "dot-dot-link-and-path": (
        Case({"inbox/tom/a.md": "# a\n\n[p](../../../etc/passwd) [q](../../etc/passwd) `organized/../../etc/passwd`\n"}),
        Outcome(0, (("KB009", "inbox/tom/a.md", 3, 5, "../../../etc/passwd"),
                    ("KB009", "inbox/tom/a.md", 3, 30, "etc/passwd"),
                    ("KB009", "inbox/tom/a.md", 3, 49, "organized/../../etc/passwd"))),
    ),
    "dot-dot-manifest-entry": (
        Case({"inbox/tom/a.md": "# a\n"}, setup=manifest_outside,
             argv=("digest", "--since", "HEAD", "--manifest", "m.json")),
        Outcome(2, stderr=("error: manifest m.json names a path outside the repository: ../../etc/passwd",)),
    ),
    "absolute-manifest-entry-with-a-newline": (
        Case({"inbox/tom/a.md": "# a\n"}, setup=manifest_absolute_with_newline,
             argv=("digest", "--since", "HEAD", "--manifest", "m.json")),
        Outcome(2, stderr=("error: manifest m.json names a path outside the repository: /etc/pass\\nwd",)),
    ),
}

HISTORY_FILES: dict[str, str | bytes] = {
    ".kbcheck.toml": CONFIG,
    "inbox/tom/draft.md": "# draft\n\n- 5x faster\n",
    "organized/guides/g.md": "# g\n",
    "inbox/tom/links.md": "[g](../../organized/guides/g.md)\n",
}

GIT: dict[str, tuple[Case, Outcome]] = {
    "empty-repository-check-all": (
        Case(commit=False, argv=("check", "--all")),
        Outcome(0, stdout_has=("No findings in 0 files.",)),
    ),
    "empty-repository-check-diff": (
        Case(commit=False, argv=("check", "--diff", "HEAD")),
        Outcome(2, stderr=("error: unknown revision 'HEAD': the repository has no commits yet",)),
    ),
    "empty-repository-digest": (
        Case(commit=False, argv=("digest", "--since", "HEAD")),
        Outcome(2, stderr=("error: unknown revision 'HEAD': the repository has no commits yet",)),
    ),
    "empty-repository-baseline": (
        Case(commit=False, argv=("baseline", "update")),
        Outcome(2, stderr=("error: unknown revision 'HEAD': the repository has no commits yet",)),
    ),
    "empty-repository-staged": (
        Case(commit=False, setup=empty_with_staged_file, argv=("check", "--staged", "--format", "json")),
        Outcome(1, (("KB007", ".kbcheck.toml", 1, 1, ".kbcheck.toml"), ("KB005", "inbox/tom/a.md", 3, 3, "5x"))),
    ),
    "detached-head-diff": (
        Case(HISTORY_FILES, setup=detached, argv=("check", "--diff", "base", "--format", "json")),
        # the renamed file's old line is not an added line; the merge commit itself is judged by nobody
        Outcome(1, (("KB005", "inbox/tom/side.md", 3, 3, "6x"),
                    ("KB007", "organized/guides/draft-3.md", 1, 1, "organized/guides/draft-3.md"),
                    ("KB007", "organized/guides/stray.md", 1, 1, "organized/guides/stray.md"))),
    ),
    "detached-head-digest": (
        Case(HISTORY_FILES, setup=detached, argv=("digest", "--since", "base", "--lang", "en")),
        Outcome(0, stdout_has=("organized/guides/draft-3.md", "inbox/tom/side.md")),
    ),
    "merge-commit-in-range": (
        Case(HISTORY_FILES, setup=history, argv=("check", "--diff", "base", "--select", "KB007", "--format", "json")),
        # tom's first rename stays in his inbox; his second leaves it; jay is nobody's author; mia merged
        Outcome(1, (("KB007", "organized/guides/draft-3.md", 1, 1, "organized/guides/draft-3.md"),
                    ("KB007", "organized/guides/stray.md", 1, 1, "organized/guides/stray.md"))),
    ),
    "rename-chain-digest": (
        Case(HISTORY_FILES, setup=history, argv=("digest", "--since", "base", "--format", "json")),
        Outcome(0, stdout_has=('"old_path": "inbox/tom/draft.md"',)),
    ),
    "deleted-file-staged": (
        Case(HISTORY_FILES, setup=staged_deletion, argv=("check", "--staged", "--format", "json")),
        Outcome(1, (("KB007", "organized/guides/g.md", 1, 1, "organized/guides/g.md"),)),
    ),
    "deleted-file-staged-whole-kb": (
        Case(HISTORY_FILES, setup=staged_deletion, argv=("check", "--staged", "--filter", "all", "--format", "json")),
        Outcome(1, (("KB005", "inbox/tom/draft.md", 3, 3, "5x"),
                    ("KB009", "inbox/tom/links.md", 1, 5, "organized/guides/g.md"),
                    ("KB007", "organized/guides/g.md", 1, 1, "organized/guides/g.md"))),
    ),
    # the submodule's own files are not in the checked tree: a link into it is a broken path (KB009)
    "submodule-never-entered": (
        Case({"inbox/tom/a.md": "# a\n\n[v](../../vendor/sub) [r](../../vendor/sub/README.md)\n"}, setup=submodule),
        Outcome(0, (("KB009", "inbox/tom/a.md", 3, 27, "vendor/sub/README.md"),)),
    ),
    "submodule-staged": (
        Case({".kbcheck.toml": CONFIG}, setup=submodule_staged, argv=("check", "--staged", "--format", "json")),
        Outcome(1, (("KB007", ".gitmodules", 1, 1, ".gitmodules"), ("KB007", "vendor/sub", 1, 1, "vendor/sub"))),
    ),
    "shallow-clone-missing-baseline-diff": (
        Case(HISTORY_FILES, setup=shallow_clone, argv=("check", "--diff", "HEAD~1")),
        Outcome(2, stderr=("error: unknown revision 'HEAD~1': this clone is shallow and lacks that history; "
                           "fetch the full history (`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout)",)),
    ),
    "shallow-clone-missing-baseline-check-all": (
        Case(HISTORY_FILES, setup=shallow_clone, argv=("check", "--all", "--format", "json")),
        Outcome(0, (("KB005", "inbox/tom/new.md", 3, 3, "6x"),)),
    ),
    "shallow-clone-missing-baseline-show": (
        Case(HISTORY_FILES, setup=shallow_clone, argv=("baseline", "show")),
        Outcome(0, stdout_has=("(not in local history: fetch the full history",)),
    ),
    "partial-clone-missing-blobs-diff": (
        Case(HISTORY_FILES, setup=partial_clone, argv=("check", "--diff", "HEAD~1", "--format", "json")),
        Outcome(0, (("KB005", "inbox/tom/big.md", 5, 3, "8x"),), stderr=(
            "changed lines unknown: this partial clone lacks earlier versions and cannot fetch them (git diff-tree "
            "failed: …); reporting every finding in the changed files",)),
    ),
    "partial-clone-missing-blobs-all": (
        Case(HISTORY_FILES, setup=partial_clone, argv=("check", "--all", "--format", "json")),
        Outcome(0, (("KB005", "inbox/tom/big.md", 5, 3, "8x"), ("KB005", "inbox/tom/draft.md", 3, 3, "5x"))),
    ),
    "partial-clone-no-checkout-diff": (
        # no checkout, so no .kbcheck.toml on disk: KB007's policy is the one committed at HEAD~1 (tom is known)
        Case(HISTORY_FILES, setup=partial_clone_no_checkout, argv=("check", "--diff", "HEAD~1", "--format", "json")),
        Outcome(0, (("KB000", "inbox/tom/big.md", 1, 1, "inbox/tom/big.md"),), stderr=(
            "changed lines unknown: this partial clone lacks earlier versions and cannot fetch them (git diff-tree "
            "failed: …); reporting every finding in the changed files",
            "inbox/tom/big.md: skipped: content missing from this partial clone")),
    ),
    "worktree-git-file-check-all": (
        Case(HISTORY_FILES, setup=worktree, argv=("check", "--all", "--format", "json")),
        Outcome(0, (("KB005", "inbox/tom/draft.md", 3, 3, "5x"), ("KB005", "inbox/tom/w.md", 3, 3, "3x"))),
    ),
    "worktree-git-file-staged": (
        Case(HISTORY_FILES, setup=worktree, argv=("check", "--staged", "--format", "json")),
        Outcome(0, (("KB005", "inbox/tom/w.md", 3, 3, "3x"),)),
    ),
}

CONFIGURATION: dict[str, tuple[Case, Outcome]] = {
    "unknown-key": (
        Case({".kbcheck.toml": "exclued = []\n"}),
        Outcome(2, stderr=("error: unknown key 'exclued' in .kbcheck.toml; did you mean 'exclude'?",)),
    ),
    "wrong-type": (
        Case({".kbcheck.toml": 'max-file-size = "4 MB"\n'}),
        Outcome(2, stderr=("error: 'max-file-size' in .kbcheck.toml must be an integer >= 1, "
                           "got the string '4 MB'",)),
    ),
    "bad-regex": (
        Case({".kbcheck.toml": 'trend-heading = "(趋势"\n'}),
        Outcome(2, stderr=("error: 'trend-heading' in .kbcheck.toml is not a valid regular "
                           "expression: missing ), unterminated subpattern at position 0",)),
    ),
    "pyproject-without-section": (
        Case({"pyproject.toml": '[project]\nname = "kb"\n', LIVING: TREND_DOC}),
        Outcome(1, (("KB001", LIVING, 5, 1, "未注明来源的趋势。"),)),
    ),
    "pyproject-without-section-named": (
        Case({"pyproject.toml": '[project]\nname = "kb"\n'}, argv=("check", "--config", "pyproject.toml")),
        Outcome(2, stderr=("error: pyproject.toml has no [tool.kbcheck] table",)),
    ),
    "baseline-corrupt-json": (
        Case({"inbox/tom/a.md": "# a\n"}, setup=corrupt_baseline),
        Outcome(2, stderr=("error: baseline .kbcheck/baseline.json is not valid JSON (line 1: Expecting value); "
                           "fix it or rewrite it with kbcheck baseline update",)),
    ),
    "baseline-corrupt-json-ignored": (
        Case({"inbox/tom/a.md": "# a\n\n- 5x\n"}, setup=corrupt_baseline,
             argv=("check", "--all", "--no-baseline", "--format", "json")),
        Outcome(0, (("KB005", "inbox/tom/a.md", 3, 3, "5x"),)),
    ),
}

LIMITS: dict[str, tuple[Case, Outcome]] = {
    "max-file-size-configured": (
        Case({".kbcheck.toml": "max-file-size = 1000\n", "inbox/tom/big.md": "- 5x\n" + "x" * 2000 + "\n",
              "inbox/tom/small.md": "- 6x\n"}),
        Outcome(0, (("KB000", "inbox/tom/big.md", 1, 1, "inbox/tom/big.md"), ("KB005", "inbox/tom/small.md", 1, 3, "6x"))),
    ),
    # the unclosed comment comes last: like any unclosed HTML comment it runs to the end of the file
    "long-lines-of-every-shape": (
        Case({"inbox/tom/long.md": "\n\n".join((
            "**1%** " * 2 + "“" * 100_000, "「" * 100_000 + " 2%", "*_" * 50_000, "[" * 100_000,
            "a\r" * 20_000 + "3%", "<!-- kbcheck: disable=" + " " * 100_000,
        ))}),
        # the second `1%` restates the first (`restated`)
        Outcome(0, (("KB005", "inbox/tom/long.md", 1, 3, "1%"),
                    ("KB005", "inbox/tom/long.md", 3, 100_002, "2%"),
                    ("KB005", "inbox/tom/long.md", 20_009, 1, "3%"))),
    ),
}

TABLE = {**FILES, **NAMES, **LINKS, **GIT, **CONFIGURATION, **LIMITS}


@pytest.mark.parametrize("case, outcome", list(TABLE.values()), ids=list(TABLE))
def test_hostile_case(case: Case, outcome: Outcome, git_repo: GitRepo, tmp_path: Path,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert_outcome(play(case, git_repo, tmp_path, monkeypatch), outcome, case.argv)


# -- details the table cannot show --------------------------------------------------------------------

def test_python_tags_are_never_run(git_repo: GitRepo) -> None:
    git_repo.commit_files({CARD: '---\narxiv: !!python/object/apply:os.system ["touch pwned"]\ntitle: "x"\n---\n'}, "tag")
    code, out, _ = run_cli(("check", "--all"))
    assert code == 1 and "could not determine a constructor for the tag" in out
    assert not (git_repo.path / "pwned").exists()


def test_symlinked_content_is_never_read(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.commit_files({"inbox/tom/a.md": "# a\n", "organized/.keep": ""}, "a")
    symlinks_outside(git_repo, tmp_path)
    code, out, err = run_cli(("check", "--all", "--format", "json"))
    assert (code, err) == (0, "")
    assert "99%" not in out and "secret" not in out
    assert json.loads(out)["summary"]["files"] == 1  # only a.md: every symlink is an entry, not a file


def test_a_lone_cr_in_a_file_name_is_one_line_in_text(git_repo: GitRepo) -> None:
    git_repo.commit_files({"inbox/tom/odd\rname\t.md": "- 7x faster\n"}, "odd")
    code, out, _ = run_cli(("check", "--all"))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].startswith('"inbox/tom/odd\\rname\\t.md":1:3: KB005 7x')


def test_named_path_with_a_newline_is_checked(git_repo: GitRepo) -> None:
    git_repo.commit_files({"inbox/tom/new\nline.md": "- 7x faster\n"}, "odd")
    code, out, _ = run_cli(("check", "--format", "json", "inbox/tom/new\nline.md"))
    assert code == 0 and spots(out) == (("KB005", "inbox/tom/new\nline.md", 1, 3, "7x"),)


def test_deep_nesting_keeps_every_block_and_the_rest_of_the_document() -> None:
    config = Config()
    patterns = HeadingPatterns(config.reference_heading, config.trend_heading, config.open_question_heading)
    for text in (_nested_list(400), "- " * 400 + "x 12%\n", "> " * 400 + "x 12%\n", "- > " * 200 + "x 12%\n"):
        document = parse_document(text + "\n## §6.2 趋势\n\n- 之后 13%\n", patterns)
        claims = [(claim.text, claim.line) for block in document.blocks for claim in block.claims]
        quoted = [] if ">" in text else [("12%", text.count("\n"))]  # a blockquote states no claims
        assert claims == [*quoted, ("13%", text.count("\n") + 4)], text[:20]
        assert [s.heading for s in document.sections][-1] == "§6.2 趋势"


@pytest.mark.parametrize("line, claims", [
    ("“" * 100_000, 0),
    ("“12% " * 20_000, 20_000),  # never closed: nothing is quoted
    ("「" * 100_000, 0),
    ('"' * 100_000, 0),
    ("<!-- kbcheck: disable=" + " " * 100_000, 0),
    ("<!-- kbcheck: disable=KB005" + " " * 100_000 + "-->", 0),
    ("**1%** " * 14_000, 14_000),
    ("1% " * 33_000, 33_000),
    ("[" * 100_000, 0),
    ("*_" * 50_000, 0),
    ("1," * 50_000, 0),
    ("organized/" * 10_000, 0),
    ("a/" * 50_000, 0),
    ("10.1234/" * 12_500, 0),
    ("https://github.com/a/b " * 4_000, 0),
])
def test_a_100k_character_line_is_parsed(line: str, claims: int) -> None:
    """No catastrophic backtracking: each finishes in well under a second (timed by hand, see the report)."""
    config = Config()
    patterns = HeadingPatterns(config.reference_heading, config.trend_heading, config.open_question_heading)
    document = parse_document(line + "\n", patterns)
    assert sum(len(_stated(block)) for block in document.blocks) == claims
    assert all(block.line == 1 for block in document.blocks)


def test_many_lines_in_one_paragraph_are_parsed() -> None:
    config = Config()
    patterns = HeadingPatterns(config.reference_heading, config.trend_heading, config.open_question_heading)
    for text in ("a 1%\n" * 20_000, "a 1%\r" * 20_000, "[a](b) 1%\n" * 20_000):
        document = parse_document(text, patterns)
        assert [(c.line, c.column) for b in document.blocks for c in _stated(b)][-1] == (20_000, text.index("1%") + 1)


def _stated(block: Block) -> list[ClaimNumber]:
    """The block's claims, the values it repeats (`restated`) among them: each is parsed alike."""
    return sorted([*block.claims, *(c for c in block.exempted if c.exempt == ("restated",))],
                  key=lambda c: (c.line, c.column))


def test_quoted_numbers_still_skip_after_the_fix() -> None:
    from kbcheck.model.claims import find_claims, quoted_spans

    text = "“12%” 「3x」 ‘5x’ \"7%\" 9% “open 4x"
    assert quoted_spans(text) == [(0, 5), (6, 10), (11, 15), (16, 20)]
    assert [claim[2] for claim in find_claims(text)] == ["9%", "4x"]
    assert quoted_spans('"a\nb" "c"') == [(4, 7)]  # a straight quote ends at its line; the next one opens

