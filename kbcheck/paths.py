"""Where a run stands: the repository of the paths it was given, and paths shown from the current folder.

Findings name files relative to the repository root (that is what JSON,
SARIF and CI annotations need). A person typing `kbcheck check` in a
sub-folder reads them relative to where they stand, as git and ruff print
them, so the text output rewrites them; and a run from outside the
repository on a path inside it uses that path's repository.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kbcheck.findings import Report


def search_start(paths: Sequence[str], cwd: Path) -> Path:
    """Where to look for the repository: the first named path's folder, else the current one."""
    for arg in paths:
        if not arg or "\0" in arg:
            continue
        here = Path(os.path.abspath(cwd / arg))
        while not here.exists() and here != here.parent:  # a missing file: its folder still says where
            here = here.parent
        return here if here.is_dir() else here.parent
    return cwd


def from_here(path: str, root: Path, cwd: Path) -> str:
    """A repo-relative path as seen from `cwd` (`../x.md` from a sibling folder)."""
    return Path(os.path.relpath(root / path, cwd)).as_posix()


def report_from_here(report: Report, root: Path, cwd: Path) -> Report:
    """The report with every finding's path relative to `cwd`; unchanged when `cwd` is the root."""
    if Path(os.path.realpath(cwd)) == Path(os.path.realpath(root)):
        return report
    real_root = Path(os.path.realpath(root))
    real_cwd = Path(os.path.realpath(cwd))
    findings = tuple(replace(f, path=from_here(f.path, real_root, real_cwd)) for f in report.findings)
    return replace(report, findings=findings)
