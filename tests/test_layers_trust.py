"""git -> snapshots -> sources -> authors -> policy: imports run one way, at the top of each module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["kbcheck.git", "kbcheck.snapshots", "kbcheck.sources", "kbcheck.authors", "kbcheck.policy", "kbcheck.digest.build",
           "kbcheck.baseline", "kbcheck.rules.kb007_write_outside_inbox"]


def inner_kbcheck_imports(module: str) -> list[str]:
    """kbcheck modules imported inside a function (outside `if TYPE_CHECKING:`)."""
    path = ROOT / (module.replace(".", "/") + ".py")
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("kbcheck"):
                    found.append(str(inner.module))
                elif isinstance(inner, ast.Import):
                    found += [alias.name for alias in inner.names if alias.name.startswith("kbcheck")]
    return found


@pytest.mark.parametrize("module", MODULES)
def test_no_import_inside_a_function(module: str) -> None:
    assert inner_kbcheck_imports(module) == []


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_first_on_its_own(module: str) -> None:
    """A cycle shows as an ImportError when the module of the cycle is the first one imported."""
    result = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_the_snapshot_of_a_commit_is_no_longer_in_the_digest_package() -> None:
    assert not (ROOT / "kbcheck" / "digest" / "snapshots.py").exists()
