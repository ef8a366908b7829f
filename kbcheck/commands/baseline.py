"""`kbcheck baseline update [REV]` and `kbcheck baseline show`: the accepted findings."""

from __future__ import annotations

from typing import TextIO

from kbcheck.commands import configuration, message_lang, repository


def run_baseline_update(rev: str, config_file: str | None, out: TextIO, err: TextIO, *, cache: bool = True) -> int:
    """Record REV's commit, date and findings in the configured baseline file."""
    from kbcheck.baseline import update_baseline
    from kbcheck.progress import progress_for, showing

    repo = repository()
    config = configuration(repo, config_file)
    lang = message_lang(None, config)  # `lang` when the configuration sets it
    with showing(progress_for(err, "baseline")):
        return update_baseline(repo, config, rev, out, lang, cache=cache)


def run_baseline_show(config_file: str | None, out: TextIO) -> int:
    """The baseline file, its commit and date, and how many findings it accepts."""
    from kbcheck.baseline import show_baseline

    repo = repository()
    config = configuration(repo, config_file)
    return show_baseline(repo, config, out, message_lang(None, config))


__all__ = ["run_baseline_show", "run_baseline_update"]
