"""The example knowledge base gives exactly the findings written down for it.

`examples/expected-findings.json` is the contract of the example: what
`kbcheck check --all` reports on it when it is committed as its own git
repository. The other tests change one thing in the example and watch that
one finding come or go, and check the files that ship with it.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from kbcheck.cli import main
from kbcheck.config import DEFAULTS, load_config

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
EXAMPLE = EXAMPLES / "knowledge-base"
EXPECTED = json.loads((EXAMPLES / "expected-findings.json").read_text(encoding="utf-8"))
SAMPLE_BRIEF = ROOT / "tests" / "fixtures" / "sample-brief.zh.md"

LIVING_DOCUMENT = "organized/knowledge/inference.md"
TOM_BRIEF = "inbox/tom/2026-10-29-inference-e1prep.md"


def check_all(repo: GitRepo, *extra: str) -> tuple[int, Any]:
    """`kbcheck check --all --format json` in the repository (the current directory)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", "--all", "--format", "json", "--no-cache", *extra], out=out, err=err)
    assert status in (0, 1), err.getvalue()
    return status, json.loads(out.getvalue())


def keys(report: Any) -> list[tuple[str, str, int, str]]:
    findings = report["findings"]
    assert isinstance(findings, list)
    return sorted((f["rule"], f["path"], f["line"], f["subject"]) for f in findings)


EXPECTED_KEYS = sorted((f["rule"], f["path"], f["line"], f["subject"]) for f in EXPECTED["findings"])


@pytest.fixture
def example(git_repo: GitRepo) -> GitRepo:
    """The example committed by its maintainer as a fresh repository (the current directory)."""
    shutil.copytree(EXAMPLE, git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    return git_repo


def edit(repo: GitRepo, path: str, old: str, new: str) -> None:
    """Replace one exact piece of a file of the example, and commit it."""
    target = repo.path / path
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not exactly once in {path}"
    target.write_text(text.replace(old, new), encoding="utf-8")
    repo.commit_all(f"edit {path}", name="lead", email="lead@example.org")


# -- the contract ------------------------------------------------------------------
def test_check_all_gives_exactly_the_expected_findings(example: GitRepo) -> None:
    status, report = check_all(example)
    assert keys(report) == EXPECTED_KEYS
    assert status == EXPECTED["exit_status"] == 1


def test_expected_findings_have_the_rules_default_severities(example: GitRepo) -> None:
    _, report = check_all(example)
    severities = {(f["rule"], f["line"], f["subject"]): f["severity"] for f in report["findings"]}
    assert {rule: sev for (rule, _, _), sev in severities.items()} == {
        "KB001": "error", "KB002": "warning", "KB005": "warning", "KB006": "warning",
    }
    # 22 markdown files are checked; the manifest is read by the digest only
    assert report["summary"] == {"files": 22, "errors": 2, "warnings": 9, "suppressed": 0}


def test_the_stale_star_count_names_the_card_and_its_value(example: GitRepo) -> None:
    _, report = check_all(example)
    (stale,) = [f for f in report["findings"] if f["rule"] == "KB006"]
    assert "organized/repo_cards/4572-recursive-oss-rec.md" in stale["message"]
    assert "245" in stale["message"]


def test_what_must_not_fire_does_not(example: GitRepo) -> None:
    """Code, quotes, marked blocks, sourced numbers and existing paths stay quiet."""
    _, report = check_all(example)
    findings = report["findings"]
    assert isinstance(findings, list)
    subjects = " ".join(f["subject"] for f in findings)
    for quiet in ("2610.99999", "350ms", "1.8", "1.2×", "23%", "3.1", "35ms", "42 tokens/s", "180ms",
                  "1,450", "18GB", "245⭐", "周增 +14", "4768", "被引 19", "paper_cards"):
        assert quiet not in subjects
    assert {f["rule"] for f in findings} == {"KB001", "KB002", "KB005", "KB006"}
    noisy_files = {f["path"] for f in findings}
    assert noisy_files == {LIVING_DOCUMENT, TOM_BRIEF}


# -- one change, one finding more or less --------------------------------------------
def test_citing_the_trend_lines_sources_clears_kb001_and_kb002(example: GitRepo) -> None:
    edit(example, LIVING_DOCUMENT, "都变成\"按收益付费\"的决策问题。", "都变成\"按收益付费\"的决策问题（arXiv:2610.37358）。")
    status, report = check_all(example)
    gone = {k for k in EXPECTED_KEYS if k[0] in ("KB001", "KB002") and ("按收益付费" in k[3] or k[3] == "2610.37358")}
    assert len(gone) == 2
    assert keys(report) == sorted(set(EXPECTED_KEYS) - gone)
    assert status == 1  # the image-token trend line is still unsourced


def test_updating_the_star_count_clears_kb006(example: GitRepo) -> None:
    edit(example, LIVING_DOCUMENT, "本轮复采 243⭐", "本轮复采 245⭐")
    _, report = check_all(example)
    assert keys(report) == [k for k in EXPECTED_KEYS if k[0] != "KB006"]


def test_a_refreshed_card_makes_the_living_document_stale(example: GitRepo) -> None:
    """The card moves on (a nightly refresh), the document does not: KB006 follows the card."""
    edit(example, "organized/repo_cards/4572-recursive-oss-rec.md", "weekly_growth: 14", "weekly_growth: 17")
    _, report = check_all(example)
    new = sorted(k for k in set(keys(report)) - set(EXPECTED_KEYS) if k[1] == LIVING_DOCUMENT)
    assert new == [("KB006", LIVING_DOCUMENT, 14, "周增 +14")]


def test_reading_the_code_block_as_prose_would_fire(example: GitRepo) -> None:
    """The fenced block holds an unknown id and an unsourced number: out of the fence they fire."""
    edit(example, LIVING_DOCUMENT, "```bash\n# 占位编号", "# 占位编号")
    text = (example.path / LIVING_DOCUMENT).read_text(encoding="utf-8")
    text = text.replace("--ttft-budget 350ms\n```\n", "--ttft-budget 350ms\n", 1)
    (example.path / LIVING_DOCUMENT).write_text(text, encoding="utf-8")
    example.commit_all("unfence", name="lead", email="lead@example.org")
    _, report = check_all(example)
    new = {(k[0], k[3]) for k in set(keys(report)) - set(EXPECTED_KEYS)}
    assert ("KB004", "2610.99999") in new
    assert ("KB003", "2610.99999") in new


def test_removing_the_uncertainty_marker_exposes_the_number(example: GitRepo) -> None:
    edit(example, LIVING_DOCUMENT, "1,450 tokens/s（待核）", "1,450 tokens/s")
    _, report = check_all(example)
    new = sorted(set(keys(report)) - set(EXPECTED_KEYS))
    assert [(rule, subject) for rule, _, _, subject in new] == [("KB005", "1,450 tokens/s")]


def test_an_unquoted_old_star_count_in_a_brief_is_flagged(example: GitRepo) -> None:
    """Tom's brief quotes the living document's 243⭐; unquoted, no card it cites backs it."""
    edit(example, TOM_BRIEF, "已以\"本轮复采 243⭐ / 周增 +14\"收录", "已以本轮复采 243⭐ / 周增 +14 收录")
    _, report = check_all(example)
    new = sorted(set(keys(report)) - set(EXPECTED_KEYS))
    # KB006 (stale against rec's card) or KB005 (in no cited card), depending on whether
    # the block's own card or all cards of its section count as its evidence
    assert [(path, subject) for _, path, _, subject in new] == [(TOM_BRIEF, "243⭐")]
    assert new[0][0] in ("KB005", "KB006")


# -- the files of the example ----------------------------------------------------------
def test_the_example_config_names_its_authors() -> None:
    config = load_config(EXAMPLE)
    assert {slug: (a.emails, a.role) for slug, a in config.authors.items()} == {
        "tom": (("tom@example.org",), "writer"),
        "jay": (("jay@example.org",), "writer"),
        "lead": (("lead@example.org",), "maintainer"),
    }
    assert config.knowledge == tuple(DEFAULTS["knowledge"])  # everything else is left at defaults


def test_the_manifest_lists_eight_existing_items() -> None:
    (manifest,) = (EXAMPLE / "organized/indexes/work-guard").glob("*.json")
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json", manifest.name)
    items = json.loads(manifest.read_text(encoding="utf-8"))["items"]
    assert len(items) == 8
    assert all((EXAMPLE / item["path"]).is_file() for item in items)


def test_the_commented_config_example_loads_and_takes_effect(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "kbcheck.toml", tmp_path / ".kbcheck.toml")
    config = load_config(tmp_path)
    assert config.severity == {"KB002": "error"}
    assert config.lang == "en"
    assert config.reference_kinds == ("arxiv", "doi", "repo")
    assert config.roles["guide-writer"] == ("inbox/{author}/**", "organized/guides/**")
    assert config.authors["spark"].role == "guide-writer"
    keys_used = set(tomllib.loads((EXAMPLES / "kbcheck.toml").read_text(encoding="utf-8")))
    assert keys_used <= set(DEFAULTS)


def test_the_pre_commit_config_example_is_valid_for_pre_commit() -> None:
    from pre_commit.clientlib import load_config as load_pre_commit_config  # type: ignore[import-untyped]

    config = load_pre_commit_config(str(EXAMPLES / "pre-commit-config.yaml"))
    (repo,) = config["repos"]
    assert [hook["id"] for hook in repo["hooks"]] == ["kbcheck"]


def test_tom_brief_keeps_the_sample_brief_text() -> None:
    """The brief is a markdown rendering of the hand-written sample: same words, added markup."""
    sample = SAMPLE_BRIEF

    def bare(text: str) -> str:
        # markup the rendering adds: headings, bold, list markers and ordinals, line breaks
        text = re.sub(r"(?m)^\s*(?:#+\s|\d+\.\s)", "", text)
        return re.sub(r"[\s*\-]", "", text)

    rendering = bare((EXAMPLE / TOM_BRIEF).read_text(encoding="utf-8"))
    missing = [line for line in sample.read_text(encoding="utf-8").splitlines()
               if line.strip() and bare(line) not in rendering]
    assert missing == []


# -- packaging -------------------------------------------------------------------------
def test_the_example_is_mapped_into_the_package() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = pyproject["tool"]["setuptools"]
    assert setuptools["package-dir"]["kbcheck._example"] == "examples/knowledge-base"
    assert {"**/*", ".kbcheck.toml"} <= set(setuptools["package-data"]["kbcheck._example"])
    # package discovery only sees a folder that exists, in the checkout and in the sdist
    assert (ROOT / "kbcheck/_example/README").is_file()
    assert "include kbcheck/_example/README" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")


def test_example_root_finds_the_checkout_copy() -> None:
    from kbcheck.demo import example_root

    assert example_root() == EXAMPLE
    assert sys.modules["kbcheck.demo"].EXAMPLE_MARKER == ".kbcheck.toml"
