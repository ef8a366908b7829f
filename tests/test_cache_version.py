"""One cache version: kbcheck's version and a digest of its installed source; `--version` tells the truth.

No cached fact carries a version of its own: an edit to the code that computes one is a new
cache version, and the next run computes it again (one case per cached fact below)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from kbtools import mapping

from kbcheck.version import cache_version, checkout_commit, source_digest, version

ROOT = Path(__file__).resolve().parent.parent
CARD = "organized/paper_cards/1802-2610-04418.md"


def _copy_of_kbcheck(dest: Path) -> Path:
    shutil.copytree(ROOT / "kbcheck", dest / "kbcheck", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _edit(package: Path, module: str, old: str, new: str) -> None:
    """Replace one exact piece of a module of the copy of kbcheck in `package`."""
    target = package / "kbcheck" / module
    source = target.read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{old!r} is not exactly once in {module}"
    target.write_text(source.replace(old, new), encoding="utf-8")


def _run(repo: GitRepo, package: Path, *argv: str, statuses: tuple[int, ...] = (0,)) -> str:
    """The output of `kbcheck ARGV` in the repository, made by the kbcheck in `package`, cache on."""
    env = {**repo.env, "PYTHONPATH": str(package)}
    result = subprocess.run([sys.executable, "-m", "kbcheck", *argv], cwd=repo.path, env=env, capture_output=True,
                            text=True, check=False, timeout=120)
    assert result.returncode in statuses, result.stderr
    return result.stdout


def _digest(repo: GitRepo, package: Path, base: str) -> str:
    """The markdown digest (which shows each item's title), made by the kbcheck in `package`."""
    return _run(repo, package, "digest", "--since", base, "--lang", "en")


def test_an_edited_digest_is_seen_on_the_next_run_without_clearing_the_cache(git_repo: GitRepo, tmp_path: Path) -> None:
    base = git_repo.commit_files({"organized/knowledge/推理.md": "# 推理\n\n## §1 解码\n\n- 正文。\n"}, "base")
    git_repo.commit_files({CARD: '---\narxiv: "2610.04418"\ntitle: "EAGLE at long context"\n---\n\n长上下文。\n'},
                          "card")
    package = _copy_of_kbcheck(tmp_path / "copy")
    first = _digest(git_repo, package, base)
    assert "EAGLE at long context" in first
    assert _digest(git_repo, package, base) == first  # warm: from the cache
    items = package / "kbcheck" / "digest" / "items.py"
    source = items.read_text(encoding="utf-8")
    wanted = "            item.title = card.title\n"
    assert source.count(wanted) == 1
    items.write_text(source.replace(wanted, '            item.title = card.title.upper() + " (edited)"\n'),
                     encoding="utf-8")
    edited = _digest(git_repo, package, base)
    assert "EAGLE AT LONG CONTEXT (edited)" in edited and "EAGLE AT LONG CONTEXT (edited)" not in first


LIVING = """# 推理

## §6.2 趋势

- 二次检索是否触发都变成按收益付费的决策问题（arXiv:2610.37358）
- 图像 token 预算开始随内容复杂度浮动
<!-- kbcheck: disable=KB001 -->
- 训推一致性成为系统的一等约束
"""

#: per fact a check keeps by blob id: its key's module, an edit to the code computing it, and
#: what the findings (rule, line, fingerprint) show once the edit is seen
CHECK_FACTS = {
    "readable": ("rules/kb000_unreadable_note.py", ("def _readable(_text: str) -> bool:\n    return True",
                                                   "def _readable(_text: str) -> bool:\n    return False")),
    "line-contexts": ("engine.py", ("[line_context(line) for line", "[line_context(line + \"!\") for line")),
    "may-hold-disables": ("model/knowledge_base.py", ("return MAY_HOLD.search(text) is not None", "return False")),
}


def _findings(repo: GitRepo, package: Path) -> list[tuple[str, int, str]]:
    report = json.loads(_run(repo, package, "check", "--all", "--format", "json", statuses=(0, 1)))
    return sorted((f["rule"], f["line"], f["fingerprint"]) for f in report["findings"])


@pytest.mark.parametrize("fact", CHECK_FACTS)
def test_an_edited_fact_of_the_check_is_seen_on_the_next_run(fact: str, git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.commit_files({"organized/knowledge/inference.md": LIVING}, "living")
    package = _copy_of_kbcheck(tmp_path / "copy")
    first = _findings(git_repo, package)
    assert [(rule, line) for rule, line, _ in first] == [("KB001", 6)]
    module, (old, new) = CHECK_FACTS[fact]
    _edit(package, module, old, new)
    edited = _findings(git_repo, package)
    if fact == "readable":  # KB000 takes every note for unreadable
        assert [(rule, line) for rule, line, _ in edited] == [("KB000", 1), ("KB001", 6)]
    elif fact == "line-contexts":  # the same finding with a new fingerprint
        assert [(rule, line) for rule, line, _ in edited] == [("KB001", 6)] and edited != first
    else:  # no disable comment is looked for: the one disabled line is reported too
        assert [(rule, line) for rule, line, _ in edited] == [("KB001", 6), ("KB001", 8)]


LECTURE = """# Chips over sixty years

The lecture looks back at sixty years of processor design.

- Mainframes shared one instruction set across a product line.
- Microcode made complex instructions cheap to add.
- Reduced instruction sets won once compilers did the work.
- Very long instruction words needed compilers that never came.
- Single-thread speed grows a few percent a year.
- Domain-specific chips are where the gains are.
"""

READING_MAP = """# Reading map

## Hardware

- [Chips](chips.md) and how they got faster
- [Caches](cache.md)
- [Queues](../queues.md)

## Models

- [Attention](attention.md)
- [Decoding](decoding.md#beam)
"""

PRUNING = """# Pruning

Magnitude pruning removes the smallest weights first, see [the overview](../overview/a.md#pruning).
"""

STUB = ("review", "stub: nothing written yet (a title, links, code or the paper's abstract only), nothing to fold in", [])
NEW = "new material: it cites no paper or repository"
#: what the digest says of a note nothing in the living documents relates to (`digest/no_home.py`)
NO_HOME = ("review", "nothing to fold into: it cites no paper or repository, no section of the living documents holds "
           "its words, none links it, and it links no page still to write; a note to read (or a page's start)", [])
#: what the digest says of each added note before any edit
DIGESTED = {
    "notes/pruning.md": ("increment", NEW, ["Pruning"]),
    "notes/chips-copy.md": ("review", "near-copy of notes/chips.md: the same text but for a line or two, not new material",
                            []),
    "notes/map.md": ("review", "index page: a list of links to notes, not a note", []),
}
#: per fact the digest keeps (by blob id, or under the commit): an edit to the code computing
#: it, and what the digest then says of one note
DIGEST_FACTS = {
    "stub": ("digest/items.py", ("lambda read: is_stub(kb.document(path), read, front_fields(kb, path)))",
                                 "lambda read: True)"), ("notes/pruning.md", STUB)),
    "near-copy": ("digest/near_copy.py", ("return len(lines), sorted(", "return 0, sorted("),
                  ("notes/chips-copy.md", NO_HOME)),
    "link-list": ("layout_detect.py", ("return len(notes) >= INDEX_MIN_LINKS and", "return False and"),
                  ("notes/map.md", NO_HOME)),
    "placed": ("digest/placed.py", ("out = linked_placement(kb, path, suggester, topic_unwritten=topic_unwritten)",
                                   "out = []"),
               ("notes/pruning.md", ("increment", NEW, []))),
}


def _items(repo: GitRepo, package: Path, base: str) -> dict[str, tuple[str, str, list[str]]]:
    report = json.loads(_run(repo, package, "digest", "--since", base, "--format", "json", "--lang", "en"))
    return {item["path"]: (item["class"], item["reason"], [s["section"] for s in item["suggested_sections"]])
            for item in report["items"]}


@pytest.mark.parametrize("fact", DIGEST_FACTS)
def test_an_edited_fact_of_the_digest_is_seen_on_the_next_run(fact: str, git_repo: GitRepo, tmp_path: Path) -> None:
    base = git_repo.commit_files({".kbcheck.toml": mapping(["overview/*.md"], ["notes/**/*.md"]),
                                  "overview/a.md": "# Overview\n\n## Pruning\n\nHow weights are pruned.\n",
                                  "notes/chips.md": LECTURE}, "base")
    git_repo.commit_files({"notes/map.md": READING_MAP,
                           "notes/chips-copy.md": LECTURE.replace("sixty years of", "sixty-one years of"),
                           "notes/pruning.md": PRUNING}, "new")
    package = _copy_of_kbcheck(tmp_path / "copy")
    assert _items(git_repo, package, base) == DIGESTED
    module, (old, new), (path, said) = DIGEST_FACTS[fact]
    _edit(package, module, old, new)
    assert _items(git_repo, package, base)[path] == said


def test_no_cache_key_carries_a_version_of_its_own() -> None:
    """A key like `stub-3`, bumped by hand, is what the cache version made needless."""
    bumped = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path in sorted((ROOT / "kbcheck").rglob("*.py"))
              for m in re.finditer(r'_KEY\b.*=.*"[\w-]*-\d+"', path.read_text(encoding="utf-8"))]
    assert bumped == []


def test_the_cache_version_is_the_version_and_the_source(tmp_path: Path) -> None:
    from importlib.metadata import version as installed

    from kbcheck import __version__

    assert cache_version() == f"{__version__}+{source_digest()[:16]}"
    assert installed("kbcheck") == __version__  # the metadata is built from it
    assert len(source_digest()) == 40


def test_version_from_a_git_checkout_names_its_commit(git_repo: GitRepo) -> None:
    head = git_repo.commit_files({"a.md": "# a\n"}, "a")
    assert checkout_commit(git_repo.path) == head
    git_repo.run("pack-refs", "--all")  # a packed branch is found too
    assert checkout_commit(git_repo.path) == head
    git_repo.run("checkout", "-q", "--detach")
    assert checkout_commit(git_repo.path) == head
    worktree = git_repo.path.parent / "other-worktree"
    git_repo.run("worktree", "add", "-q", "--detach", str(worktree), head)
    assert checkout_commit(worktree) == head


def test_no_checkout_no_commit(tmp_path: Path) -> None:
    assert checkout_commit(tmp_path) is None


def test_version_says_the_release_and_the_checkouts_commit() -> None:
    commit = checkout_commit(ROOT)
    from importlib.metadata import version as installed

    release = installed("kbcheck")
    assert version() == (f"{release}.dev0+g{commit[:12]}" if commit else release)
    result = subprocess.run([sys.executable, "-m", "kbcheck", "--version"], capture_output=True, text=True,
                            check=False, cwd=ROOT)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"kbcheck {version()}\n", "")
