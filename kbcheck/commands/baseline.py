"""`kbcheck baseline update [REV]` and `kbcheck baseline show`: the accepted findings."""

from __future__ import annotations

from typing import TextIO

from kbcheck.commands import configuration, repository


def run_baseline_update(rev: str, config_file: str | None, out: TextIO, err: TextIO) -> int:
    """Record REV's commit, date and findings in the configured baseline file."""
    from kbcheck.baseline import update_baseline
    from kbcheck.progress import progress_for, showing

    repo = repository()
    with showing(progress_for(err, "baseline")):
        return update_baseline(repo, configuration(repo, config_file), rev, out)


def run_baseline_show(config_file: str | None, out: TextIO) -> int:
    """The baseline file, its commit and date, and how many findings it accepts."""
    from kbcheck.baseline import show_baseline

    repo = repository()
    return show_baseline(repo, configuration(repo, config_file), out)


__all__ = ["run_baseline_show", "run_baseline_update"]
