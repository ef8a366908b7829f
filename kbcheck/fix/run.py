"""`kbcheck check --fix`: apply the edits findings carry, or show them as a unified diff.

Checking decides what is wrong and attaches an `Edit` when the change is
provably safe (`kbcheck.fix.edits`); here edits are only applied
(`kbcheck.fix.apply`) and files written (`kbcheck.fix.worktree`). A file is fixed only while its
work-tree bytes are the very blob that was checked: with `--staged` and
unstaged changes in a file, or `--diff REV` and a work tree that moved on,
that file is refused with one line and the run exits 2 (`docs/output.md`).
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TextIO

from kbcheck.findings import Finding, Report
from kbcheck.fix.apply import apply_fixes, fixable_by_path
from kbcheck.fix.worktree import replace_if_unchanged, tracked_bytes
from kbcheck.git import blob_id

if TYPE_CHECKING:
    from kbcheck.git import Repository
    from kbcheck.snapshots import Snapshot

#: exit status when a file could not be fixed safely (as for any run that cannot go on)
REFUSED = 2


@dataclass(frozen=True)
class FixRun:
    """What `--fix` did: the findings left to report, the files changed, the files refused."""

    report: Report
    fixed: tuple[str, ...]
    refused: tuple[str, ...]

    def status(self, status: int) -> int:
        """The run's exit status: a refused file wins over findings."""
        return REFUSED if self.refused else status


def run_fixes(repo: Repository, snapshot: Snapshot, report: Report, *, show_diff: bool,
              out: TextIO, err: TextIO, lang: str = "en") -> FixRun:
    """Fix (or, with `show_diff`, print as a diff) every reported finding that carries an edit.

    One line per file on `err`, in `lang`: what was fixed there, or why it was refused.
    """
    from kbcheck.git import object_format
    from kbcheck.i18n import _, say

    by_path = fixable_by_path(report.findings)
    fmt = object_format(repo) if by_path else "sha1"
    done: set[Finding] = set()
    fixed: list[str] = []
    refused: list[str] = []
    for path, findings in by_path.items():
        current = tracked_bytes(repo.root, path)
        checked = snapshot.blob_id(path)
        if current is None or checked is None or blob_id(current, fmt) != checked:
            refused.append(path)
            print(say(_("kbcheck: not fixed {path}: the working tree differs from what was checked (unstaged changes?)",
                        path=_quoted(path)), lang), file=err)
            continue
        applied = apply_fixes(current, findings)
        if not applied.fixed:
            continue
        if show_diff:
            out.write(_unified_diff(path, current, applied.data))
        elif (reason := replace_if_unchanged(repo.root, path, current, applied.data)) is not None:
            refused.append(path)
            print(say(_("kbcheck: not fixed {path}: {reason}", path=_quoted(path), reason=reason), lang), file=err)
            continue
        done.update(applied.fixed)
        fixed.append(path)
        if show_diff:
            line = _("kbcheck: would fix {path}: {summary}", path=_quoted(path), summary=_summary(applied.fixed))
        else:
            line = _("kbcheck: fixed {path}: {summary}", path=_quoted(path), summary=_summary(applied.fixed))
        print(say(line, lang), file=err)
    remaining = report if show_diff else replace(report, findings=tuple(f for f in report.findings if f not in done))
    return FixRun(remaining, tuple(fixed), tuple(refused))


def _summary(findings: tuple[Finding, ...]) -> str:
    from kbcheck.i18n import listing, ngettext

    counts = Counter(f.rule for f in findings)
    total = len(findings)
    rules = listing(f"{rule} ×{n}" for rule, n in sorted(counts.items()))
    return ngettext("{count} problem ({rules})", "{count} problems ({rules})", total, count=total, rules=rules)


def _quoted(path: str) -> str:
    """A path on one line, even when its name holds a line break."""
    return path.replace("\r", "\\r").replace("\n", "\\n")


def _unified_diff(path: str, old: bytes, new: bytes) -> str:
    """`git diff`-shaped: a/ and b/ prefixes, three lines of context, the file's own line ends kept."""
    before = old.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    after = new.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, f"a/{_quoted(path)}", f"b/{_quoted(path)}")
    text = ""
    for line in lines:
        text += line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
    return text
