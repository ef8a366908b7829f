"""Where and how `kbcheck check` writes its report, and the exit status it ends with.

The habits of linters people already use: `--output FILE` (written
atomically, so a CI artifact is never half a report), `--statistics` (a count
per rule instead of the findings, as ruff prints it; also as JSON), `-q` (findings only: no
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
from kbcheck.i18n import _

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from kbcheck.commands.check import CheckOptions
    from kbcheck.findings import Finding, Report
    from kbcheck.rules.base import Rule


def statistics_lines(report: Report) -> list[str]:
    """`12  KB005  unverified-number`, most frequent rule first, then by id."""
    counts = Counter((f.rule, f.name) for f in report.findings)
    if not counts:
        return []
    width = len(str(max(counts.values())))
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    return [f"{count:>{width}}  {rule}  {name}" for (rule, name), count in ordered]


def _render_statistics_json(report: Report, out: TextIO) -> None:
    """`--statistics --format json`: the count per rule and the summary, no findings."""
    import json

    counts = Counter((f.rule, f.name) for f in report.findings)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    document = {"version": 1,
                "statistics": [{"rule": rule, "name": name, "count": count} for (rule, name), count in ordered],
                "summary": {"files": report.files, "errors": report.errors, "warnings": report.warnings,
                            "suppressed": report.suppressed}}
    out.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


#: formats a person reads: they follow the run's language; the others are read by programs and
#: stay English unless `--lang` asks otherwise (`docs/output.md`)
READ_BY_PEOPLE = ("text", "full", "github")


def output_lang(options: CheckOptions, lang: str) -> str:
    """The language `options.format` is written in."""
    return lang if options.format in READ_BY_PEOPLE or options.lang else "en"


def localized(report: Report, lang: str) -> Report:
    """The report with each finding's message (and its fix's description) said in `lang` (its
    fingerprint, subject and the rest unchanged)."""
    if lang == "en":
        return report
    from dataclasses import replace

    from kbcheck.i18n import say

    def said(finding: Finding) -> Finding:
        fix = finding.fix if finding.fix is None else replace(finding.fix, description=say(finding.fix.description, lang))
        return replace(finding, message=say(finding.message, lang), fix=fix)

    return replace(report, findings=tuple(said(f) for f in report.findings),
                   notices=tuple(say(notice, lang) for notice in report.notices))


def write_report(options: CheckOptions, report: Report, rules: Mapping[str, Rule], out: TextIO,
                 root: Path, cwd: Path, *, lang: str = "en", read: Callable[[str], bytes | None] | None = None) -> None:
    """Render the report in `options.format` to stdout, or to `--output` (replaced atomically),
    its messages in `lang` where the format follows it; `read` gives a checked file's bytes (`full`)."""
    from kbcheck.reporters import render

    if options.statistics and options.format not in ("text", "full", "json"):
        raise UsageError(_("--statistics counts findings in the text and json formats; the others carry every finding"))
    lang = output_lang(options, lang)
    report = localized(report, lang)
    target: TextIO = io.StringIO() if options.output else out
    color = options.format in ("text", "full") and use_color(options.color, target)
    if options.format == "full" and not options.statistics:
        from kbcheck.paths import report_from_here
        from kbcheck.reporters.full import render as render_full

        render_full(report_from_here(report, root, cwd), rules, target, color=color,
                    source=_source_lines(report, read), lang=lang, quiet=options.quiet)
    elif options.format in ("text", "full"):
        from kbcheck.paths import report_from_here
        from kbcheck.reporters.text import render as render_text

        here = report_from_here(report, root, cwd)
        render_text(here, rules, target, color=color, lang=lang, quiet=options.quiet,
                    statistics=statistics_lines(here) if options.statistics else ())
    elif options.statistics:
        _render_statistics_json(report, target)
    else:
        render(options.format, report, rules, target, color=color, lang=lang)
    if options.output:
        from kbcheck.files import write_atomically

        assert isinstance(target, io.StringIO)
        write_atomically(Path(options.output).absolute(), target.getvalue().encode("utf-8"))


def _source_lines(report: Report, read: Callable[[str], bytes | None] | None) -> Callable[[int], list[str] | None]:
    """The lines of the i-th finding's file, each file read once, as the rules saw its text."""
    texts: dict[str, list[str] | None] = {}

    def lines(index: int) -> list[str] | None:
        path = report.findings[index].path
        if path not in texts:
            data = read(path) if read is not None else None
            text = data.decode("utf-8", "replace").removeprefix("\ufeff") if data is not None else None
            texts[path] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if text is not None else None
        return texts[path]

    return lines


def exit_status(options: CheckOptions, report: Report) -> int:
    """1 for errors (warnings too with `--strict`, unused disable comments when reported), else 0;
    always 0 with `--exit-zero`."""
    from kbcheck.suppressions import count_unused

    if options.exit_zero:
        return 0
    if report.errors or (options.strict and report.warnings):
        return 1
    if count_unused(report.findings):  # reported only when asked for
        return 1
    return 0
