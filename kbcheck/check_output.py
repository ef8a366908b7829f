"""Where and how `kbcheck check` writes its report, and the exit status it ends with.

The habits of linters people already use: `--output FILE` (written
atomically, so a CI artifact is never half a report), `--statistics` (a count
per rule after the findings, as flake8 prints it), `-q` (findings only: no
summary line and no notices), `--color`, paths from where you stand in the
text format, and `--exit-zero`.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from kbcheck.color import use_color
from kbcheck.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from kbcheck.commands.check import CheckOptions
    from kbcheck.findings import Report
    from kbcheck.rules.base import Rule


def statistics_lines(report: Report) -> list[str]:
    """`12  KB005  unverified-number`, most frequent rule first, then by id."""
    counts = Counter((f.rule, f.name) for f in report.findings)
    if not counts:
        return []
    width = len(str(max(counts.values())))
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    return [f"{count:>{width}}  {rule}  {name}" for (rule, name), count in ordered]


def _render_text(report: Report, out: TextIO, *, color: bool, quiet: bool, statistics: bool) -> None:
    from kbcheck.reporters.text import format_finding, summary_line

    for finding in report.findings:
        out.write(format_finding(finding, color=color) + "\n")
    if statistics:
        for line in statistics_lines(report):
            out.write(line + "\n")
    if not quiet:
        out.write(summary_line(report) + "\n")


def write_report(options: CheckOptions, report: Report, rules: Mapping[str, Rule], out: TextIO,
                 root: Path, cwd: Path) -> None:
    """Render the report in `options.format` to stdout, or to `--output` (replaced atomically)."""
    from kbcheck.reporters import render

    if options.statistics and options.format != "text":
        raise UsageError("--statistics counts findings in the text format; the other formats carry every finding")
    target: TextIO = io.StringIO() if options.output else out
    color = options.format == "text" and use_color(options.color, target)
    if options.format == "text":
        from kbcheck.paths import report_from_here

        _render_text(report_from_here(report, root, cwd), target, color=color,
                     quiet=options.quiet, statistics=options.statistics)
    else:
        render(options.format, report, rules, target, color=color)
    if options.output:
        from kbcheck.baseline import write_atomically

        assert isinstance(target, io.StringIO)
        write_atomically(Path(options.output).absolute(), target.getvalue().encode("utf-8"))


def exit_status(options: CheckOptions, report: Report) -> int:
    """1 for errors (warnings too with `--strict`, unused disable comments when reported), else 0;
    always 0 with `--exit-zero`."""
    from kbcheck.suppressions import count_unused

    if options.exit_zero:
        return 0
    if report.errors or (options.strict and report.warnings):
        return 1
    if options.report_unused_disables and count_unused(report.notices):
        return 1
    return 0
