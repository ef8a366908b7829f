"""Hostile input, third round: each case failed (a write-scope bypass, a hang, an output its
consumer rejects, a lost file) before its fix.

Like `tests/test_hostile.py`, every row runs the real CLI in a real git
repository and ends in findings, a notice, or exit 2 with one line; the
read-only guard holds each row to "no file changed". Cases that need a
timing, a signal or a second repository live below the table.
"""

from __future__ import annotations

import difflib
import itertools
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from gitrepo import GitRepo
from kbtools import MemorySnapshot
from test_hostile import CONFIG, LIVING, Case, Outcome, assert_outcome, play

from kbcheck.config import Config
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

TABLE = {**WRITE_SCOPE}


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
