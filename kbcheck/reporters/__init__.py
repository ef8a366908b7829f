"""Output formats of `kbcheck check`, chosen by name (as flake8 chooses formatters).

Each format is one module with the same `render()` signature; the module is
imported only when its format is asked for, so `--format text` never loads
JSON or SARIF code. Reporters only write: they never decide the exit status,
and they never print `report.notices` (the CLI prints those on stderr, so that
machine-readable output on stdout stays clean).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, TextIO

from kbcheck.errors import UsageError

if TYPE_CHECKING:
    from kbcheck.findings import Report
    from kbcheck.rules.base import Rule

#: format name -> module under kbcheck.reporters (a module named `json` would shadow the stdlib)
_MODULES = {
    "text": "text",
    "json": "json_format",
    "sarif": "sarif",
    "github": "github",
    "gitlab": "gitlab",
}
FORMATS = tuple(_MODULES)
#: `check`'s formats: `full` is the text format with each finding's source lines, written where the
#: checked files can be read (`kbcheck.check_output`, `kbcheck.reporters.full`)
CHECK_FORMATS = ("text", "full", *FORMATS[1:])


class _Renderer(Protocol):
    def __call__(self, report: Report, rules: Mapping[str, Rule], out: TextIO, *,
                 color: bool, tool_version: str, lang: str) -> None: ...


def render(fmt: str, report: Report, rules: Mapping[str, Rule], out: TextIO, *,
           color: bool = False, tool_version: str = "", lang: str = "en") -> None:
    """Write `report` to `out` in format `fmt`; `rules` describes every rule (for SARIF).

    The findings' messages are already in the language asked for; `lang` is for the
    format's own words (a summary line, GitHub's closing notice)."""
    module_name = _MODULES.get(fmt)
    if module_name is None:
        from kbcheck.i18n import _
        raise UsageError(_("unknown output format '{format}'; valid formats are {formats}", format=fmt, formats=", ".join(FORMATS)))
    module = importlib.import_module(f"kbcheck.reporters.{module_name}")
    renderer: _Renderer = module.render
    renderer(report, rules, out, color=color, tool_version=tool_version, lang=lang)
