"""`kbcheck rules`: every rule, its severity under the configuration, and whether it is enabled."""

from __future__ import annotations

from typing import TextIO

from kbcheck.commands import configuration, message_lang, repository
from kbcheck.errors import KbcheckError
from kbcheck.printable import cells


def run_rules(config_file: str | None, out: TextIO) -> int:
    """The table of rules; outside a repository, with the defaults (unless `--config` names a file).
    Its words are said in the configuration's `lang` when it sets one."""
    from kbcheck.config import Config, effective_severity
    from kbcheck.i18n import _, catalog, listing, say
    from kbcheck.rules import all_rules

    config = Config()
    try:
        config = configuration(repository(), config_file)
    except KbcheckError:
        if config_file:
            raise
    lang = message_lang(None, config)
    header = (_("id"), _("name"), _("severity"), _("enabled"), _("summary"))
    rows = [tuple(say(word, lang) for word in header)]
    for rule in all_rules().values():
        severity: str = effective_severity(config, rule.id, rule.severity)
        if rule.severity_by_kind and rule.id not in config.severity:
            by_kind = listing(_("{severity} in {kind}s", severity=s, kind=k) for k, s in rule.severity_by_kind)
            severity = _("{severity} ({by_kind})", severity=severity, by_kind=by_kind)
        enabled = _("no") if rule.id in config.ignore else _("yes")
        summary = rule.summary if lang == "en" else catalog(lang).gettext(rule.summary)  # its doc's first paragraph
        rows.append((rule.id, rule.name, say(severity, lang), say(enabled, lang), summary))
    widths = [max(cells(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        padded = [cell + " " * (widths[i] - cells(cell)) for i, cell in enumerate(row[:4])]
        print("  ".join(padded) + "  " + row[4], file=out)
    return 0


__all__ = ["run_rules"]
