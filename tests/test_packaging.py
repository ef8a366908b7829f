"""Packaging: the sdist carries the tests, the wheel carries the example, the addresses agree."""

from __future__ import annotations

import filecmp
import os
import re
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

from kbcheck import demo
from kbcheck.findings import Report
from kbcheck.reporters.sarif import sarif_log
from kbcheck.rules import all_rules
from kbcheck.urls import DOCS, HOMEPAGE, rule_doc_url

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "knowledge-base"
PACKAGED = ROOT / "kbcheck" / demo.EXAMPLE_FOLDER


def _differences(left: Path, right: Path) -> list[str]:
    cmp = filecmp.dircmp(left, right, ignore=["__pycache__"])
    found = [f"only in {left}: {n}" for n in cmp.left_only] + [f"only in {right}: {n}" for n in cmp.right_only]
    found += [f"differs: {n}" for n in filecmp.cmpfiles(left, right, cmp.common_files, shallow=False)[1]]
    for sub in cmp.common_dirs:
        found += _differences(left / sub, right / sub)
    return found


@pytest.mark.skipif(not EXAMPLE.is_dir(), reason="no examples/ folder beside the package")
def test_the_packaged_example_is_the_example() -> None:
    """`kbcheck demo` plays the copy inside the package; it must be `examples/knowledge-base/` exactly."""
    assert _differences(EXAMPLE, PACKAGED) == [], (
        "kbcheck/example-kb differs from examples/knowledge-base; copy it anew: "
        "rm -r kbcheck/example-kb && cp -a examples/knowledge-base kbcheck/example-kb")


def test_the_demo_finds_the_packaged_example() -> None:
    assert demo.example_root() == PACKAGED


def _heading_anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as `-`."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_sarif_rule_links_its_doc() -> None:
    rules = all_rules()
    driver = sarif_log(Report((), 0), rules, "0")["runs"][0]["tool"]["driver"]  # type: ignore[index]
    anchors = {_heading_anchor(line[3:]) for line in (ROOT / "docs" / "rules.md").read_text("utf-8").splitlines()
               if line.startswith("## ")}
    assert driver["informationUri"] == HOMEPAGE
    for descriptor in driver["rules"]:
        uri = descriptor["helpUri"]
        assert uri == f"{DOCS}/rules.md#{descriptor['id'].lower()}-{descriptor['name']}"
        assert uri.split("#", 1)[1] in anchors
    assert rule_doc_url("KB005", "unverified-number") == f"{HOMEPAGE}/blob/main/docs/rules.md#kb005-unverified-number"


def test_project_urls_name_the_home_page_and_the_docs() -> None:
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["urls"]
    assert urls["Homepage"] == HOMEPAGE
    assert urls["Documentation"] == DOCS


def _build(kind: str, out: Path) -> tuple[Path, str]:
    pytest.importorskip("build")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run([sys.executable, "-m", "build", f"--{kind}", "-o", str(out), str(ROOT)],
                            capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    built = next(out.glob("*.tar.gz" if kind == "sdist" else "*.whl"))
    return built, result.stdout + result.stderr


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="builds from a checkout, not from an unpacked sdist")
def test_the_sdist_carries_every_tracked_file_and_builds_without_warnings(tmp_path: Path) -> None:
    sdist, log = _build("sdist", tmp_path)
    tracked = subprocess.run(["git", "ls-files", "-z"],
                             cwd=ROOT, capture_output=True, check=True).stdout.decode("utf-8").split("\0")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    missing = [path for path in tracked if path and path not in names]
    assert missing == []
    warnings = [line for line in log.splitlines() if "warning" in line.lower()]
    assert warnings == []


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="builds from a checkout, not from an unpacked sdist")
def test_the_wheel_carries_the_example(tmp_path: Path) -> None:
    import zipfile

    wheel, log = _build("wheel", tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert "kbcheck/example-kb/.kbcheck.toml" in names
    assert "kbcheck/example-kb/organized/knowledge/inference.md" in names
    assert not any(name.startswith("examples/") for name in names)
    assert [line for line in log.splitlines() if "warning" in line.lower()] == []
    metadata = next(n for n in names if n.endswith("METADATA"))
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(metadata).decode("utf-8")
    assert f"Project-URL: Homepage, {HOMEPAGE}" in text
