"""The fixes a report offers: what `kbcheck check --fix` would write, shown by the output formats.

A finding is offered as fixable only when its edit applies to the checked
bytes as `--fix` would apply it (`kbcheck.fix.apply`): its original is there
and no earlier edit took the same characters. Its edit is then shown as
made, a line break written as the file's own line end, so a consumer that
applies the shown edits gets the very file `--fix` writes (`docs/output.md`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from kbcheck.fix.apply import apply_fixes, fixable_by_path

if TYPE_CHECKING:
    from kbcheck.findings import Edit, Report


def offered_fixes(report: Report, read_many: Callable[[Iterable[str]], Mapping[str, bytes]]) -> Report:
    """The report with each fix as `--fix` would make it on the checked bytes, or None where it
    would not apply; `read_many(paths)` gives those bytes (a snapshot's `read_many`)."""
    by_path = fixable_by_path(report.findings)
    if not by_path:
        return report
    checked = read_many(by_path)
    made: dict[int, Edit] = {}
    for path, findings in by_path.items():
        data = checked.get(path)
        if data is None:
            continue
        applied = apply_fixes(data, findings)
        made.update((id(finding), edit) for finding, edit in zip(applied.fixed, applied.made, strict=True))
    return replace(report, findings=tuple(
        finding if finding.fix is None else replace(finding, fix=made.get(id(finding)))
        for finding in report.findings))


def without_fixes(report: Report) -> Report:
    """The report offering no fix (what is left after `--fix` is what it could not fix)."""
    if all(finding.fix is None for finding in report.findings):
        return report
    return replace(report, findings=tuple(replace(finding, fix=None) for finding in report.findings))
