"""`kbcheck check`: select the files, run the rules, fix or report, and the exit status."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from kbcheck.commands import configuration, discard_output, message_lang, notify, repository
from kbcheck.errors import UsageError
from kbcheck.i18n import _

if TYPE_CHECKING:
    from collections.abc import Callable

    from kbcheck.cache import BlobCache
    from kbcheck.config import Config
    from kbcheck.git import Repository
    from kbcheck.model.knowledge_base import KnowledgeBase


@dataclass(frozen=True)
class CheckOptions:
    """What `kbcheck check` was asked; the defaults are the command line's."""

    paths: Sequence[str] = ()
    #: "staged", "all" or None (paths, or the default by mode); `--diff REV` is `rev`
    mode: str | None = None
    #: `--diff REV`; "" for `--fix --diff` without REV (show the fixes), None without `--diff`
    rev: str | None = None
    filter: str | None = None
    format: str = "text"
    #: True `--baseline`, False `--no-baseline`, None: use it when it exists
    baseline: bool | None = None
    strict: bool = False
    select: str | None = None
    extend_select: str | None = None
    ignore: str | None = None
    config: str | None = None
    #: `--config 'key = value'`: TOML lines over the configuration file
    config_overrides: Sequence[str] = ()
    #: `--per-file-ignores GLOB:RULES`, added to the configuration's
    per_file_ignores: Sequence[str] = ()
    author: str | None = None
    actor: str | None = None
    no_cache: bool = False
    fix: bool = False
    output: str | None = None
    exit_zero: bool = False
    statistics: bool = False
    report_unused_disables: bool = False
    quiet: bool = False
    show_files: bool = False
    show_settings: bool = False
    color: str = "auto"
    #: `--lang`: the language of messages; None: the configuration's (`docs/configuration.md`)
    lang: str | None = None
    #: `--stdin-filename`: check standard input as this file (an editor's buffer)
    stdin_filename: str | None = None


def run_check(options: CheckOptions, out: TextIO, err: TextIO) -> int:
    """Check the selected files; 1 when findings fail the run (`docs/output.md`), 0 otherwise."""
    from kbcheck.authors import judged_as
    from kbcheck.baseline import accepted_fingerprints
    from kbcheck.check_output import exit_status, write_report
    from kbcheck.engine import RunOptions, check
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.policy import trusted_config
    from kbcheck.progress import progress_for
    from kbcheck.rules import all_rules
    from kbcheck.sources import select

    message_lang(options.lang, None)  # an error from here on is said in `--lang`
    options = _fix_diff_path(options)
    if options.rev == "" and not options.fix:
        raise UsageError(_("--diff needs REV (only --fix --diff takes none)"))
    if options.rev and options.mode:
        raise UsageError(_("--diff REV is not allowed with --{mode}", mode=options.mode))
    if options.stdin_filename is not None and options.fix:
        raise UsageError(_("--fix writes files; with --stdin-filename there is no file to write"))
    mode = "diff" if options.rev else options.mode
    if options.filter in ("added",) and mode not in ("staged", "diff", None):
        raise UsageError(_("--filter added needs --staged or --diff (it compares with what the change added)"))
    select_rules = _selected_rules(options.select)
    repo = repository(options.paths)
    if options.output:
        from kbcheck.files import output_file

        options = replace(options, output=str(output_file(repo, options.output)))  # refused before the run
    config = _with_per_file_ignores(configuration(repo, options.config, options.config_overrides),
                                    options.per_file_ignores)
    select_rules, config = _extended(select_rules, config, _selected_rules(options.extend_select),
                                     _selected_rules(options.ignore))
    lang = message_lang(options.lang, config)
    if options.show_settings:
        from kbcheck.layout import settings_text

        out.write(settings_text(config))
        return 0
    given = (options.stdin_filename, _stdin_bytes()) if options.stdin_filename is not None else None
    selection = select(repo, config, mode=mode, paths=list(options.paths), rev=options.rev,
                       net=options.actor is not None, given=given)
    policy = trusted_config(repo, config, selection.base, options.config)
    selection = judged_as(repo, policy, selection, cli_author=options.author, actor=options.actor)
    filter_mode = options.filter or ("added" if selection.mode == "diff" else "file")
    accepted = accepted_fingerprints(repo, config, options.baseline, selection.mode, selection.changes,
                                     selection.notices)
    kb = KnowledgeBase(selection.snapshot, config, None if options.no_cache else _cache_factory(repo))
    if options.show_files:
        from kbcheck.layout import show_files

        shown = kb.snapshot.paths() if selection.mode == "all" else selection.paths
        out.writelines(line + "\n" for line in show_files(kb, shown))
        return 0
    run = RunOptions(filter=filter_mode, select=select_rules, accepted=accepted, policy=policy,
                     progress=progress_for(err, "checking", quiet=options.quiet),
                     report_unused_disables=options.report_unused_disables)
    report = check(kb, config, selection, run)
    kb.facts.flush()
    if not options.quiet:
        checked = None if selection.mode == "all" else selection.paths
        notify([*getattr(selection, "notices", ()), *_layout_notices(kb, config, report.notices, checked)], err, lang)
    fixes = None
    if options.fix:
        from kbcheck.fix.offered import without_fixes
        from kbcheck.fix.run import run_fixes

        fixes = run_fixes(repo, selection.snapshot, report, show_diff=options.rev == "", out=out, err=err,
                           lang=lang)
        if options.rev == "":
            return fixes.status(1 if fixes.fixed else 0)
        report = without_fixes(fixes.report)
    else:
        from kbcheck.fix.offered import offered_fixes

        report = offered_fixes(report, selection.snapshot.read_many)
    # the status is known before anything is written: a reader that stops early (`| head`) cannot change it
    status = exit_status(options, report)
    if fixes is not None:
        status = fixes.status(status)
    try:
        write_report(options, report, all_rules(), out, repo.root, Path.cwd(), lang=lang,
                     read=selection.snapshot.read)
        out.flush()
    except BrokenPipeError:
        discard_output(out)
    return status


def _stdin_bytes() -> bytes:
    """Standard input as bytes (an editor's buffer: decoded later, as a file's bytes are)."""
    import sys

    stream = sys.stdin
    if stream is None:
        return b""
    buffer = getattr(stream, "buffer", None)
    return buffer.read() if buffer is not None else stream.read().encode("utf-8")


def _fix_diff_path(options: CheckOptions) -> CheckOptions:
    """`--fix --diff PATH` shows the fixes of PATH: `--diff`'s optional REV took the path.
    A name that is both a path and a revision is refused, as git refuses it without `--`."""
    if not options.fix or not options.rev or not Path(options.rev).exists():
        return options

    from kbcheck import git
    from kbcheck.errors import GitError

    try:
        git.resolve(repository([options.rev]), options.rev)
    except GitError:  # not a revision: the path it looks like
        return replace(options, paths=(*options.paths, options.rev), rev="")
    raise UsageError(_("--fix --diff {name}: both a path and a revision; write --fix --diff -- {name} for the path "
                       "or --fix --diff {name}^{{commit}} for the revision", name=options.rev))


def _layout_notices(kb: KnowledgeBase, config: Config, notices: Sequence[str],
                    checked: Sequence[str] | None) -> list[str]:
    """The run's notices, after one per kind whose globs match nothing (which says KB004's, when
    there are no paper cards, already), with `checked` when one of those files matches no kind,
    and one for the globs that match nothing."""
    from kbcheck.layout import empty_kinds, stale_globs
    from kbcheck.rules.kb004_unknown_paper import NO_CARDS

    empty, notice = empty_kinds(kb, config, checked)
    layout = [n for n in (notice, stale_globs(kb, config)) if n]
    return [*layout, *(n for n in notices if not ("paper-cards" in empty and n == NO_CARDS))]


def _selected_rules(value: str | None) -> frozenset[str] | None:
    """`--select KB001,unverified-number`: the rule ids it names (by id or name), or None for every rule."""
    if not value:
        return None
    from kbcheck.rules import find_rule

    return frozenset(find_rule(part).id for part in value.split(",") if part.strip())


def _with_per_file_ignores(config: Config, given: Sequence[str]) -> Config:
    """`--per-file-ignores 'inbox/**:KB005,KB009'` over the configuration's (a glob given again wins)."""
    if not given:
        return config

    from kbcheck.config import config_from_mapping

    table: dict[str, list[str]] = {}
    for value in given:
        glob, colon, rules = value.rpartition(":")
        if not colon or not glob.strip() or not rules.strip():
            raise UsageError(_("--per-file-ignores takes GLOB:RULES (e.g. 'inbox/**:KB005,KB009'), got {value}",
                               value=repr(value)))
        table[glob.strip()] = sorted(_selected_rules(rules) or ())
    checked = config_from_mapping({"per-file-ignores": table}, "--per-file-ignores")  # globs and ids validated
    return replace(config, per_file_ignores={**config.per_file_ignores, **checked.per_file_ignores})


def _extended(select: frozenset[str] | None, config: Config, extend: frozenset[str] | None,
              ignore: frozenset[str] | None) -> tuple[frozenset[str] | None, Config]:
    """`--extend-select` adds rules (and takes them out of the configuration's `ignore`), then
    `--ignore` removes rules. KB007's own ignores come from the trusted policy and stay."""
    if not extend and not ignore:
        return select, config

    from kbcheck.rules import rule_ids

    chosen = set(select if select is not None else rule_ids())
    if extend:
        chosen |= extend
        config = replace(config, ignore=config.ignore - extend)
    return frozenset(chosen - (ignore or frozenset())), config


def _cache_factory(repo: Repository) -> Callable[[str], BlobCache]:
    from kbcheck.cache import repository_cache

    return repository_cache(repo)


__all__ = ["CheckOptions", "run_check"]
