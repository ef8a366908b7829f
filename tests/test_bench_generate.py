"""The benchmark's generator makes a valid knowledge base that kbcheck runs on (not a timing test)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kbcheck.cli import main

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import generate  # noqa: E402

SHAPE = generate.Shape(paper_cards=40, repo_cards=8, references=25, doc_lines=120, history=2,
                       digest_items=(5, 12), seed=7)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> generate.Generated:
    return generate.generate(tmp_path_factory.mktemp("bench") / "kb", SHAPE)


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=generate.git_env(), capture_output=True, check=True)
    return done.stdout.decode("utf-8")


def run_kbcheck(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    for key, value in generate.git_env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("KBCHECK_AUTHOR", raising=False)
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    monkeypatch.chdir(root)
    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_layout_matches_the_default_globs(built: generate.Generated) -> None:
    root = built.root
    papers = sorted((root / "organized" / "paper_cards").glob("*.md"))
    repos = sorted((root / "organized" / "repo_cards").glob("*.md"))
    assert len(repos) == SHAPE.repo_cards
    # the digest commits add and delete cards: the count moves a little, never far
    assert SHAPE.paper_cards - 5 <= len(papers) <= SHAPE.paper_cards + SHAPE.digest_items[1]
    assert built.living_documents == ["organized/knowledge/inference-00.md"]
    assert list((root / "inbox").glob("*/*.md"))
    assert list((root / "organized" / "guides").glob("*.md"))
    assert list((root / "organized" / "indexes" / "work-guard").glob("*.json"))
    text = papers[0].read_text(encoding="utf-8")
    arxiv = text.split('arxiv: "', 1)[1].split('"', 1)[0]
    assert papers[0].name.endswith(arxiv.replace(".", "-") + ".md")  # NNNN-YYMM-NNNNN.md
    assert "被引" in text and "加速" in text  # Chinese, with numbers to check


def test_living_document_has_the_special_sections(built: generate.Generated) -> None:
    doc = (built.root / built.living_documents[0]).read_text(encoding="utf-8")
    for heading in ("## §1 ", "### §6.1 开放问题", "### §6.2 趋势", "## §七 引用列表"):
        assert heading in doc
    references = doc.split("## §七 引用列表", 1)[1]
    assert references.count("- arXiv:") == SHAPE.references
    assert len(doc.splitlines()) >= SHAPE.doc_lines


def test_history_and_digest_tags(built: generate.Generated) -> None:
    root = built.root
    commits = git(root, "rev-list", "--count", "HEAD").strip()
    assert int(commits) == 1 + SHAPE.history + 2
    small = git(root, "diff", "-M", "--name-status", "bench-since-small", "HEAD").splitlines()
    large = git(root, "diff", "-M", "--name-status", "bench-since-large", "HEAD").splitlines()
    assert len(small) == SHAPE.digest_items[0]
    assert len(large) == SHAPE.digest_items[1]
    assert {line[0] for line in large} >= {"A", "M"}
    assert git(root, "status", "--porcelain") == ""  # checked out, clean


def test_same_shape_same_commits(tmp_path: Path) -> None:
    shape = generate.Shape(paper_cards=12, repo_cards=4, references=10, history=1, digest_items=(2, 5), seed=3)
    first = generate.generate(tmp_path / "a", shape)
    second = generate.generate(tmp_path / "b", shape)
    assert first.head == second.head


def test_refuses_a_folder_with_files(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep.md").write_text("mine\n", encoding="utf-8")
    with pytest.raises(FileExistsError):
        generate.generate(tmp_path / "x", SHAPE)
    assert (tmp_path / "x" / "keep.md").read_text(encoding="utf-8") == "mine\n"


def test_kbcheck_checks_it_all(built: generate.Generated, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run_kbcheck(built.root, monkeypatch, "check", "--all", "--format", "json", "--no-cache")
    assert status in (0, 1), err
    assert "internal error" not in err
    report = json.loads(out)
    checked = [p for p in git(built.root, "ls-files", "-z").split("\0") if p.endswith((".md", ".json"))]
    assert report["summary"]["files"] == len(checked)
    rules = {f["rule"] for f in report["findings"]}
    assert "KB008" not in rules  # every generated card is well formed
    assert rules <= {"KB001", "KB002", "KB003", "KB004", "KB005", "KB006", "KB009"}


def test_staged_change_is_two_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shape = generate.Shape(paper_cards=15, repo_cards=4, references=10, history=1, digest_items=(2, 5), seed=1)
    built = generate.generate(tmp_path / "kb", shape)
    staged = generate.stage_hook_change(built.root)
    assert len(staged) == 2
    assert git(built.root, "diff", "--cached", "--name-only").splitlines() == sorted(staged)
    status, out, err = run_kbcheck(built.root, monkeypatch, "check", "--staged", "--format", "json")
    assert status in (0, 1), err
    assert {f["path"] for f in json.loads(out)["findings"]} <= set(staged)


def test_command_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "generate.py"), str(tmp_path / "kb"), "--paper-cards", "20",
         "--history", "1", "--digest-items", "2", "6"],
        capture_output=True, text=True, env=generate.git_env(), check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "HEAD" in done.stdout
    assert len(list((tmp_path / "kb" / "organized" / "repo_cards").glob("*.md"))) == 4
