"""Hostile input, third round: each case failed (a write-scope bypass, a hang, an output its
consumer rejects, a lost file) before its fix.

Like `tests/test_hostile.py`, every row runs the real CLI in a real git
repository and ends in findings, a notice, or exit 2 with one line; the
read-only guard holds each row to "no file changed". Cases that need a
timing, a signal or a second repository live below the table.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
import json
import os
import re
import signal
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import test_fix as fix_tests
from gitrepo import GitRepo
from kbtools import MemorySnapshot
from test_hostile import CONFIG, LIVING, Case, Outcome, assert_outcome, play, run_cli

from kbcheck.config import Config
from kbcheck.files import Terminated
from kbcheck.fix.worktree import replace_if_unchanged
from kbcheck.model.citations import scan_prose
from kbcheck.model.document import Document, HeadingPatterns, parse_document
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.rules.kb009_broken_path import _glob_read_as_emphasis

TREND = "# 活文档\n\n## 1. 投机解码\n\n- 一条。\n"
CARD = "organized/paper_cards/0001-2610-02076.md"
CARD_TEXT = '---\narxiv: "2610.02076"\ntitle: Draft then verify\n---\nA paper card.\n'
#: the maintainer's policy, and a look-alike of it that lets tom write anywhere
LOOSE = CONFIG.replace('emails = ["tom@example.org"]\nrole = "writer"', 'emails = ["tom@example.org"]\nrole = "maintainer"')
UNKNOWN_ID_BRIEF = "# 简报\n\n- 读了 arXiv:2611.00001。\n"


# -- set-ups in git: the writer's attack, after the maintainer committed the files --------------------
def _tom_edits_the_living_document(repo: GitRepo) -> None:
    repo.commit_files({LIVING: TREND + "- 改写了活文档。\n"}, "tom: edit", author="tom")


def tag_shadows_the_base(repo: GitRepo, tmp_path: Path) -> Path:
    """`refs/remotes/origin/main` is the maintainer's; tom pushed a tag `origin/main` to a looser policy."""
    repo.git("update-ref", "refs/remotes/origin/main", "HEAD")
    repo.git("checkout", "-q", "-b", "loose")
    repo.commit_files({".kbcheck.toml": LOOSE}, "loose", author="tom")
    repo.git("tag", "origin/main")
    repo.git("checkout", "-q", "-b", "tom/work", "main")
    _tom_edits_the_living_document(repo)
    return repo.path


def replaced_base(repo: GitRepo, tmp_path: Path) -> Path:
    """`git replace main <look-alike whose policy lets tom write anywhere>`."""
    main = repo.head()
    repo.git("checkout", "-q", "-b", "tom/work")
    _tom_edits_the_living_document(repo)
    repo.git("checkout", "-q", "-b", "look-alike", main)
    repo.write(".kbcheck.toml", LOOSE)
    repo.stage(".kbcheck.toml")
    repo.git("commit", "-q", "--amend", "--no-edit", "--no-verify")
    repo.git("replace", main, repo.head())
    repo.git("checkout", "-q", "tom/work")
    return repo.path


def grafted_history(repo: GitRepo, tmp_path: Path) -> Path:
    """`.git/info/grafts` makes tom's commit a root commit: his history then shares nothing with main."""
    repo.git("checkout", "-q", "-b", "tom/work")
    _tom_edits_the_living_document(repo)
    (repo.path / ".git" / "info").mkdir(exist_ok=True)
    (repo.path / ".git" / "info" / "grafts").write_text(repo.head() + "\n", encoding="utf-8")
    return repo.path


def _submodule_ignored(repo: GitRepo, tmp_path: Path) -> str:
    """A submodule under organized/ that `.gitmodules` says to ignore; a newer commit of its source."""
    source = GitRepo.create(tmp_path / "vendor-src", home=tmp_path / "home")
    source.commit_files({"README.md": "# vendor\n"}, "vendor")
    repo.run("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source.path), "organized/vendor")
    repo.git("config", "-f", ".gitmodules", "submodule.organized/vendor.ignore", "all")
    repo.stage(".gitmodules")
    repo.commit("add submodule", author="mia")
    return source.commit_files({"README.md": "# vendor 2\n"}, "vendor 2")


def submodule_repointed(repo: GitRepo, tmp_path: Path) -> Path:
    repo.git("update-index", "--cacheinfo", f"160000,{_submodule_ignored(repo, tmp_path)},organized/vendor")
    repo.commit("tom: repoint", author="tom")
    return repo.path


def submodule_repointed_staged(repo: GitRepo, tmp_path: Path) -> Path:
    repo.git("update-index", "--cacheinfo", f"160000,{_submodule_ignored(repo, tmp_path)},organized/vendor")
    return repo.path


def attributes_hide_the_brief(repo: GitRepo, tmp_path: Path) -> Path:
    """tom marks his own inbox `-diff`: the patch of his brief then has no hunks."""
    repo.git("checkout", "-q", "-b", "tom/work")
    repo.commit_files({"inbox/tom/.gitattributes": "*.md -diff\n", "inbox/tom/b.md": UNKNOWN_ID_BRIEF},
                      "tom: brief", author="tom")
    return repo.path


def candidate_added(repo: GitRepo, tmp_path: Path) -> Path:
    """An excluded file with an unknown id, committed after the configuration that excludes it."""
    repo.commit_files({"inbox/tom/_candidates/c.md": UNKNOWN_ID_BRIEF}, "tom: candidate", author="tom")
    return repo.path


EXCLUDING = 'exclude = ["inbox/*/_candidates/**"]\n\n' + CONFIG
BASE_FILES: dict[str, str | bytes] = {".kbcheck.toml": CONFIG, LIVING: TREND, CARD: CARD_TEXT}
KB007_LIVING = ("KB007", LIVING, 1, 1, LIVING)

WRITE_SCOPE: dict[str, tuple[Case, Outcome]] = {
    # 1: a short name that a tag shadows is refused, naming both refs
    "tag-shadows-the-base": (
        Case(BASE_FILES, setup=tag_shadows_the_base, argv=("check", "--diff", "origin/main", "--format", "json")),
        Outcome(2, stderr=("error: ambiguous revision 'origin/main': it names refs/tags/origin/main and "
                           "refs/remotes/origin/main; give the full ref name",)),
    ),
    "tag-shadows-the-base-by-its-full-name": (
        Case(BASE_FILES, setup=tag_shadows_the_base,
             argv=("check", "--diff", "refs/remotes/origin/main", "--format", "json")),
        Outcome(1, (KB007_LIVING,)),
    ),
    # 3: `submodule.<name>.ignore = all` does not hide a repointed gitlink
    "submodule-ignored-repointed": (
        Case(BASE_FILES, setup=submodule_repointed, argv=("check", "--diff", "HEAD~1", "--format", "json")),
        Outcome(1, (("KB007", "organized/vendor", 1, 1, "organized/vendor"),)),
    ),
    "submodule-ignored-repointed-staged": (
        Case(BASE_FILES, setup=submodule_repointed_staged,
             argv=("check", "--staged", "--author", "tom", "--format", "json")),
        Outcome(1, (("KB007", "organized/vendor", 1, 1, "organized/vendor"),)),
    ),
    # 4: a replace ref does not substitute the trusted base
    "replaced-base": (
        Case(BASE_FILES, setup=replaced_base, argv=("check", "--diff", "main", "--format", "json")),
        Outcome(1, (KB007_LIVING,)),
    ),
    "grafted-history": (
        Case(BASE_FILES, setup=grafted_history, argv=("check", "--diff", "main", "--format", "json")),
        Outcome(1, (KB007_LIVING,)),
    ),
    # 5: `-diff` in the writer's own .gitattributes does not hide his findings from `--filter added`
    "attributes-hide-the-brief": (
        Case(BASE_FILES, setup=attributes_hide_the_brief, argv=("check", "--diff", "main", "--format", "json")),
        Outcome(1, (("KB004", "inbox/tom/b.md", 3, 6, "2611.00001"),)),
    ),
    # 6: slugs that one case-insensitive checkout makes one folder
    "slugs-differ-by-case": (
        Case({".kbcheck.toml": CONFIG + '\n[authors.Tom]\nemails = ["t2@example.org"]\n'}),
        Outcome(2, stderr=("error: author slugs 'tom' and 'Tom' in .kbcheck.toml differ only by case or Unicode "
                           "normalisation: on a case-insensitive checkout they are one inbox folder",)),
    ),
    "slugs-differ-by-normalisation": (
        Case({".kbcheck.toml": '[authors."zo\u00eb"]\nemails = ["z@example.org"]\n\n'
                               '[authors."zoe\u0308"]\nemails = ["z2@example.org"]\n'}),
        Outcome(2, stderr=("error: author slugs 'zo\u00eb' and 'zoe\u0308' in .kbcheck.toml differ only by case or "
                           "Unicode normalisation: on a case-insensitive checkout they are one inbox folder",)),
    ),
}

SELECTION: dict[str, tuple[Case, Outcome]] = {
    # an excluded file is left out of every mode, `--diff` too
    "excluded-file-in-a-diff": (
        Case({".kbcheck.toml": EXCLUDING, CARD: CARD_TEXT}, setup=candidate_added,
             argv=("check", "--diff", "HEAD~1", "--filter", "all", "--format", "json")),
        Outcome(0),
    ),
    "excluded-file-in-a-diff-named": (
        Case({".kbcheck.toml": EXCLUDING, CARD: CARD_TEXT}, setup=candidate_added,
             argv=("check", "--diff", "HEAD~1", "--format", "json", "inbox/tom")),
        Outcome(0),
    ),
}

TABLE = {**WRITE_SCOPE, **SELECTION}


@pytest.mark.parametrize("case, outcome", list(TABLE.values()), ids=list(TABLE))
def test_hostile_case(case: Case, outcome: Outcome, git_repo: GitRepo, tmp_path: Path,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert_outcome(play(case, git_repo, tmp_path, monkeypatch), outcome, case.argv)


# -- 7: linear time in kbcheck's own code (each was quadratic: a 1 MB brief stalled the hook) ---------
def _seconds(run: Callable[[], object]) -> float:
    times = []
    for _ in range(2):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def _growth(run: Callable[[int], object], small: int, factor: int = 8) -> float:
    """How many times longer `factor` times the input takes: about `factor` when linear, its square when
    quadratic (the bound below sits between the two, far from both)."""
    return _seconds(lambda: run(small * factor)) / max(_seconds(lambda: run(small)), 1e-3)


def _parse(text: str) -> Document:
    config = Config()
    return parse_document(text, HeadingPatterns(config.reference_heading, config.trend_heading,
                                                config.open_question_heading))


#: between two links, text that markdown-it passes over quickly and a search for a link's target does not
PAD = "`" + "a" * 2000 + "`"


@pytest.mark.parametrize("shape", [
    # the wikilink rule looked for `]]` from every `[[`, to the end of the text
    lambda n: " ".join(f"[[a{i} {PAD}" for i in range(n)) + "\n",
    # a link's target was looked for in the whole line, once per link
    lambda n: " ".join(f"[a{i}](文{i}) {PAD}" for i in range(n)) + "\n",
    # a reference-style link's target is not in its line: each miss scanned the rest of it
    lambda n: " ".join(f"[a{i}][r{i}] {PAD}" for i in range(n)) + "\n\n"
    + "".join(f"[r{i}]: https://e.example/{i}\n" for i in range(n)),
], ids=["open-wikilinks", "links-on-one-line", "reference-links-on-one-line"])
def test_a_line_of_many_links_parses_in_linear_time(shape: Callable[[int], str]) -> None:
    """8x the links: about 8x the time (it was 40x and more: quadratic)."""
    assert _growth(lambda n: _parse(shape(n)), 250) < 24


def test_a_paragraph_of_many_arxiv_ids_is_scanned_in_linear_time() -> None:
    """Each id masked by a copy of the whole text was quadratic."""
    def scan(n: int) -> None:
        found, masked = scan_prose(" ".join(f"arXiv:2601.{i:05d} 2602.{i:05d}" for i in range(n)), ("organized",))
        assert len(found) == 2 * n and "2601" not in masked
    assert _growth(scan, 2_000) < 24


def test_the_emphasis_check_of_many_broken_paths_on_one_line_is_linear() -> None:
    """KB009 looked for each broken path in its whole line."""
    def check(n: int) -> None:
        links = [f"[a{i}](no/m{i}.md) " for i in range(n)]
        columns = list(itertools.accumulate((len(link) for link in links), initial=0))
        line = "".join(links) + "*"
        assert not any(_glob_read_as_emphasis(f"no/m{i}.md", [line], 1, columns[i] + len(f"[a{i}](") + 1)
                       for i in range(n))
    assert _growth(check, 2_000) < 24
    assert _glob_read_as_emphasis("wiki/a/.md", ['see "wiki/a/*.md" and "wiki/b/*.md"'], 1, 6)


# -- 8: KB004's nearest card is looked for among a bounded set of candidates ----------------------------
def _cards(count: int) -> KnowledgeBase:
    files: dict[str, str | bytes] = {f"organized/paper_cards/{i:05d}-2601-{i * 7:05d}.md": "" for i in range(count)}
    return KnowledgeBase(MemorySnapshot(files), Config())


def test_the_nearest_card_of_a_made_up_id_does_not_grow_with_the_cards() -> None:
    """8x the cards of the month: about the same time per unknown id (it compared with every card: 8x)."""
    def ask(count: int) -> Callable[[], object]:
        kb = _cards(count)
        kb.nearest_paper_ids("2601.99999")  # the index is built once per run, not per id
        return lambda: [kb.nearest_paper_ids(f"2601.{i:05d}") for i in range(1, 1400, 14)]
    small, large = ask(600), ask(4800)
    assert _seconds(large) / max(_seconds(small), 1e-3) < 3


def test_in_a_month_of_few_cards_the_nearest_is_the_nearest_of_all() -> None:
    kb = _cards(60)
    cards = list(kb.paper_index())
    for unknown in [f"2601.{i:05d}" for i in range(0, 500, 3)] + ["2612.00070", "2601.0070", "2601.000700"]:
        same_month = [i for i in cards if i[:4] == unknown[:4]] or cards
        assert kb.nearest_paper_ids(unknown) == difflib.get_close_matches(unknown, same_month, n=1, cutoff=0.7)


@pytest.mark.parametrize("typo", [
    "2601.07701",  # 2601.07700, a digit changed
    "2601.07070",  # 2601.07700, two digits swapped
    "2601.0770",   # 2601.07700, a digit dropped
    "2601.077000",  # 2601.07700, a digit added
])
def test_in_a_month_of_many_cards_a_typo_finds_a_card_one_edit_away(typo: str) -> None:
    (nearest,) = _cards(4800).nearest_paper_ids(typo)
    assert difflib.SequenceMatcher(None, typo, nearest).ratio() >= 0.9, nearest


# -- 17: every command that reads the cache can be told not to ------------------------------------------
@pytest.mark.parametrize("argv", [
    ("digest", "--no-cache", "--since", "HEAD~1", "--format", "json"),
    ("baseline", "update", "--no-cache"),
    ("check", "--all", "--no-cache"),
])
def test_no_cache_neither_reads_nor_writes_the_cache(git_repo: GitRepo, argv: tuple[str, ...]) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG, CARD: CARD_TEXT}, "cards", author="mia")
    git_repo.commit_files({"inbox/tom/b.md": "# 简报\n\n- 读了 arXiv:2610.02076。\n"}, "brief", author="tom")
    code, _, err = run_cli(argv)
    assert code == 0, err
    assert not (git_repo.path / ".git" / "kbcheck").exists()


# -- 10, 11: file names that are not UTF-8 or hold terminal controls, in every output ---------------------
def _writes_outside(repo: GitRepo, name: str) -> None:
    repo.commit_files({".kbcheck.toml": CONFIG}, "policy", author="mia")
    repo.commit_files({name: "# x\n"}, "tom: outside", author="tom")


@pytest.mark.parametrize("fmt", ["json", "sarif", "gitlab", "text", "github"])
def test_a_name_that_is_not_utf8_is_valid_utf8_in_every_output(git_repo: GitRepo, fmt: str) -> None:
    _writes_outside(git_repo, "organized/caf\udce9.md")
    code, out, err = run_cli(("check", "--diff", "HEAD~1", "--format", fmt))
    assert code == 1, err
    out.encode("utf-8")  # strict: a lone surrogate would raise
    assert "organized/caf\\351.md" in out.replace("\\\\", "\\")


def test_a_name_that_is_not_utf8_is_written_to_an_output_file(git_repo: GitRepo) -> None:
    _writes_outside(git_repo, "organized/caf\udce9.md")
    code, _, err = run_cli(("check", "--diff", "HEAD~1", "--format", "json", "-o", "report.json"))
    assert code == 1 and "internal error" not in err, err
    report = json.loads((git_repo.path / "report.json").read_text(encoding="utf-8"))
    (finding,) = report["findings"]
    assert (finding["path"], finding["subject"]) == ('"organized/caf\\351.md"', "organized/caf\\351.md")
    assert finding["message"].endswith(" adds organized/caf\\351.md")


def test_the_digest_of_a_name_that_is_not_utf8_is_written(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG}, "policy", author="mia")
    git_repo.commit_files({"inbox/tom/caf\udce9.md": "# 简报\n\n- 一条。\n"}, "tom: brief", author="tom")
    code, _, err = run_cli(("digest", "--since", "HEAD~1", "--format", "json", "--output", "digest.json"))
    assert code == 0, err
    digest = json.loads((git_repo.path / "digest.json").read_text(encoding="utf-8"))
    assert [item["path"] for item in digest["items"]] == ['"inbox/tom/caf\\351.md"']


def test_terminal_controls_in_a_name_are_shown_escaped(git_repo: GitRepo) -> None:
    _writes_outside(git_repo, "organized/\x1b[2K\x1b[1Gok.md")
    code, out, err = run_cli(("check", "--diff", "HEAD~1"))
    assert code == 1, err
    assert "\x1b" not in out + err
    assert " adds organized/\\x1b[2K\\x1b[1Gok.md" in out


def test_terminal_controls_in_a_notice_are_shown_escaped(git_repo: GitRepo) -> None:
    git_repo.commit_files({"inbox/tom/caf\x1b[2K.md": b"caf\xe9 7x\n"}, "binary-ish", author="tom")
    code, out, err = run_cli(("check", "--all", "--ignore", "KB000"))  # ignored: a notice says it
    assert code == 0
    assert "\x1b" not in err and "inbox/tom/caf\\x1b[2K.md: skipped: not UTF-8" in err
    code, out, err = run_cli(("check", "--all"))  # the finding says it, escaped as well
    assert "\x1b" not in out + err and '"inbox/tom/caf\\x1b[2K.md":1:1: KB000 ' in out


# -- 12: the digest's markdown carries no autolink, mention or math from the data -----------------------------
#: what GitHub's renderer links or mentions without any markup (GFM autolinks, mentions) or renders as math
GITHUB_LIVE = re.compile(r"(?i)(?:https?|ftp)://|(?:^|[\s*_~(])www\.|@\w|(?<!\\)\$")


@pytest.mark.parametrize("hostile", [
    "Approve at https://evil.example/login", "see www.evil.example", "WWW.Evil.example", "cc @octocat",
    "mail lead@example.org", "@org/team", "$x^2$ costs $5", "ftp://e.example/x",
])
def test_escaped_text_links_and_mentions_nothing(hostile: str) -> None:
    from markdown_it import MarkdownIt

    from kbcheck.digest.render_markdown import escape_markdown

    escaped = escape_markdown(hostile)
    assert not GITHUB_LIVE.search(escaped), escaped
    (inline,) = [token for token in MarkdownIt("commonmark").parse(escaped) if token.type == "inline"]
    assert "".join(child.content for child in inline.children or []).replace("\u200b", "") == hostile


def test_a_card_title_with_an_address_is_no_link_in_the_digest(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": CONFIG}, "policy", author="mia")
    git_repo.commit_files({CARD: CARD_TEXT.replace("Draft then verify", "Approve at https://evil.example/login @admin")},
                          "card", author="mia")
    code, out, err = run_cli(("digest", "--since", "HEAD~1", "--lang", "en"))
    assert code == 0, err
    assert "evil.example/login" in out and not GITHUB_LIVE.search(out.replace("](http", "")), out


# -- 13, 14, 15: `--fix` leaves nothing behind and says why it did not write -----------------------------------
STALE = "# 推理引擎\n\n## §1.6 引擎与部署\n\n- recursive-oss/rec：本轮复采 243⭐ / 周增 +14\n"


def _temporary_files(repo: GitRepo) -> list[str]:
    return sorted(p.name for p in (repo.path / fix_tests.DOC).parent.iterdir() if p.name.endswith(".kbcheck-fix"))


def test_fix_leaves_a_read_only_file_alone_and_says_so(git_repo: GitRepo) -> None:
    fix_tests.kb(git_repo, STALE)
    (git_repo.path / fix_tests.DOC).chmod(0o444)
    status, _, err = fix_tests.cli("--all", "--fix", "--select", "KB006")
    assert err == f"kbcheck: not fixed {fix_tests.DOC}: the file is read-only\n"
    assert status == 2  # a refused file wins over findings
    assert fix_tests.read(git_repo) == STALE
    assert stat.S_IMODE((git_repo.path / fix_tests.DOC).stat().st_mode) == 0o444


class _Stop(Exception):
    """What the test's own SIGTERM handler raises, had the fix writer installed none."""


@pytest.mark.parametrize("interrupt", ["SIGINT", "SIGTERM"])
def test_an_interrupted_fix_removes_its_temporary_file(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch,
                                                      interrupt: str) -> None:
    fix_tests.kb(git_repo, STALE)

    def interrupted(fd: int) -> None:  # the signal arrives while the new content is being synced
        if interrupt == "SIGINT":
            raise KeyboardInterrupt
        os.kill(os.getpid(), signal.SIGTERM)

    def stop(signum: int, frame: object) -> None:
        raise _Stop

    previous = signal.signal(signal.SIGTERM, stop)
    monkeypatch.setattr(os, "fsync", interrupted)
    try:
        with pytest.raises((KeyboardInterrupt, Terminated, _Stop)):
            replace_if_unchanged(git_repo.path, fix_tests.DOC, STALE.encode(), STALE.replace("243", "245").encode())
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert _temporary_files(git_repo) == []
    assert fix_tests.read(git_repo) == STALE


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB file system of its own (needs the right to mount; skipped without it)."""
    where = tmp_path / "disk"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
                      capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot mount a small file system here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_fix_on_a_full_disk_says_so(small_disk: Path, git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo.create(small_disk / "kb", home=git_repo.path.parent / "home")
    fix_tests.kb(repo, STALE)
    monkeypatch.chdir(repo.path)
    with open(small_disk / "filler", "wb", buffering=0) as filler:  # fill the disk to its last byte
        with contextlib.suppress(OSError):
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
    status, _, err = fix_tests.cli("--all", "--fix", "--select", "KB006")
    assert err == f"kbcheck: not fixed {fix_tests.DOC}: No space left on device\n"
    assert status == 2 and fix_tests.read(repo) == STALE and _temporary_files(repo) == []
