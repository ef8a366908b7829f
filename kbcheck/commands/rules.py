"""`kbcheck rules`: every rule, its severity under the configuration, and whether it is enabled."""

from __future__ import annotations

from typing import TextIO

from kbcheck.commands import configuration, repository
from kbcheck.errors import KbcheckError


def run_rules(config_file: str | None, out: TextIO) -> int:
    """The table of rules; outside a repository, with the defaults (unless `--config` names a file)."""
    from kbcheck.config import Config, effective_severity
    from kbcheck.rules import all_rules

    config = Config()
    try:
        config = configuration(repository(), config_file)
    except KbcheckError:
        if config_file:
            raise
    rows = [("id", "name", "severity", "enabled", "summary")]
    for rule in all_rules().values():
        severity = effective_severity(config, rule.id, rule.severity)
        if rule.severity_by_kind and rule.id not in config.severity:
            severity += " (" + ", ".join(f"{s} in {k}s" for k, s in rule.severity_by_kind) + ")"
        rows.append((rule.id, rule.name, severity, "no" if rule.id in config.ignore else "yes", rule.summary))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4], file=out)
    return 0


__all__ = ["run_rules"]
