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
    import argparse
    from collections.abc import Mapping

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


def _render_text(report: Report, out: TextIO, *, color: bool, quiet: bool, statistics: bool, lang: str) -> None:
    from kbcheck.reporters.text import format_finding, summary_line

    for finding in report.findings:
        out.write(format_finding(finding, color=color) + "\n")
    if statistics:
        for line in statistics_lines(report):
            out.write(line + "\n")
    if not quiet:
        out.write(summary_line(report, lang=lang) + "\n")


#: formats a person reads: they follow the run's language; the others are read by programs and
#: stay English unless `--lang` asks otherwise (`docs/output.md`)
READ_BY_PEOPLE = ("text", "github")


def output_lang(args: argparse.Namespace, lang: str) -> str:
    """The language `args.format` is written in."""
    return lang if args.format in READ_BY_PEOPLE or args.lang else "en"


def localized(report: Report, lang: str) -> Report:
    """The report with each finding's message said in `lang` (its fingerprint, subject and the rest unchanged)."""
    if lang == "en":
        return report
    from dataclasses import replace

    from kbcheck.i18n import say

    return replace(report, findings=tuple(replace(f, message=say(f.message, lang)) for f in report.findings),
                   notices=tuple(say(notice, lang) for notice in report.notices))


def write_report(args: argparse.Namespace, report: Report, rules: Mapping[str, Rule], out: TextIO,
                 root: Path, cwd: Path, *, lang: str = "en") -> None:
    """Render the report in `args.format` to stdout, or to `--output` (replaced atomically),
    its messages in `lang` where the format follows it."""
    from kbcheck.reporters import render

    lang = output_lang(args, lang)
    report = localized(report, lang)

    if args.statistics and args.format != "text":
        raise UsageError("--statistics counts findings in the text format; the other formats carry every finding")
    target: TextIO = io.StringIO() if args.output else out
    color = args.format == "text" and use_color(args.color, target)
    if args.format == "text":
        from kbcheck.paths import report_from_here

        _render_text(report_from_here(report, root, cwd), target, color=color,
                     quiet=args.quiet, statistics=args.statistics, lang=lang)
    else:
        render(args.format, report, rules, target, color=color, lang=lang)
    if args.output:
        from kbcheck.baseline import write_atomically

        assert isinstance(target, io.StringIO)
        write_atomically(Path(args.output).absolute(), target.getvalue().encode("utf-8"))


def exit_status(args: argparse.Namespace, report: Report) -> int:
    """1 for errors (warnings too with `--strict`, unused disable comments when reported), else 0;
    always 0 with `--exit-zero`."""
    from kbcheck.suppressions import count_unused

    if args.exit_zero:
        return 0
    if report.errors or (args.strict and report.warnings):
        return 1
    if args.report_unused_disables and count_unused(report.notices):
        return 1
    return 0
