"""The command line: `main(argv) -> int`, one function per subcommand.

Exit status: 0 clean, 1 findings at error severity (warnings too with
`--strict`), 2 usage, configuration or repository errors, printed as one line
on stderr; with `--fix`, 2 also when a file could not be fixed safely, and
`--fix --diff` exits 1 when there is something to fix (`docs/output.md`).
Heavy modules are imported inside the commands that need them.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from collections.abc import Callable

    from kbcheck.cache import BlobCache
    from kbcheck.config import Config
    from kbcheck.git import Repository

from kbcheck import __version__
from kbcheck.arguments import ArgumentParser
from kbcheck.errors import KbcheckError, UsageError

FORMATS = ("text", "json", "sarif", "github", "gitlab")


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="kbcheck",
        description="Keep a git-hosted research knowledge base honest: sourced trends, "
        "discussed references, traceable numbers, writers in their own inbox.",
    )
    parser.add_argument("--version", action="version", version=f"kbcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="check the knowledge base (the pre-commit hook and CI job)")
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check (default: by mode)")
    mode = check.add_mutually_exclusive_group()
    mode.add_argument("--staged", action="store_const", const="staged", dest="mode",
                      help="check staged files, as they are in the index")
    mode.add_argument("--all", action="store_const", const="all", dest="mode",
                      help="check every tracked file as it is in the working tree")
    # outside the group: `--staged --fix --diff` shows the fixes of a staged check
    check.add_argument("--diff", metavar="REV", dest="rev", nargs="?", const="",
                      help="check the files that the commits REV..HEAD changed, at HEAD; "
                      "with --fix and no REV: print the fixes as a unified diff and write nothing")
    check.add_argument("--filter", choices=("added", "file", "all"),
                       help="report findings on added lines, in touched files, or everywhere "
                       "(default: added for --diff, file otherwise)")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    base = check.add_mutually_exclusive_group()
    base.add_argument("--baseline", action="store_true", default=None, dest="baseline",
                      help="report only findings not accepted in the baseline (default when it exists)")
    base.add_argument("--no-baseline", action="store_false", dest="baseline", help="ignore the baseline")
    check.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    check.add_argument("--select", metavar="RULES", help="run only these rules, comma-separated (e.g. KB007)")
    check.add_argument("--config", metavar="FILE", help="configuration file (default: .kbcheck.toml)")
    check.add_argument("--author", metavar="SLUG", help="who is committing (KB007); default from KBCHECK_AUTHOR or git")
    check.add_argument("--actor", metavar="LOGIN",
                       help="with --diff: judge the net change as the author whose logins hold LOGIN "
                       "(the pull request's author, as the forge says)")
    check.add_argument("--no-cache", action="store_true", help="do not read or write the parse cache")
    check.add_argument("--fix", action="store_true",
                       help="apply the provably safe fixes to the working tree (never the index)")
    check.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="after the findings, count them per rule")
    check.add_argument("--report-unused-disables", action="store_true",
                       help="report disable comments that suppress nothing (and exit 1 for them)")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary, notices or progress")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the text output (default: auto, on a terminal; NO_COLOR and FORCE_COLOR are honoured)")
    check.add_argument("--lang", metavar="zh|en",
                       help="language of messages, notices and errors (default: lang in .kbcheck.toml, else en); "
                       "json, sarif and gitlab stay English unless it is given")
    check.set_defaults(handler=cmd_check)

    digest = sub.add_parser("digest", help="write the digest brief of what changed since the baseline")
    digest.add_argument("--since", metavar="REV", help="compare from REV (default: the baseline commit)")
    digest.add_argument("--to", metavar="REV", help="compare to REV (default: HEAD)")
    digest.add_argument("--manifest", metavar="FILE", help="take the items from a manifest instead of the diff")
    digest.add_argument("--format", choices=("markdown", "json"), default="markdown")
    digest.add_argument("--lang", metavar="zh|en", help="language of the markdown (default: config lang)")
    digest.add_argument("--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    digest.add_argument("--config", metavar="FILE", help="configuration file")
    digest.set_defaults(handler=cmd_digest)

    suggest = sub.add_parser("suggest", help="the sections of the living documents each note most likely belongs to")
    suggest.add_argument("paths", nargs="+", metavar="PATH", help="cards, guides or briefs (files or folders)")
    suggest.add_argument("--top", type=int, default=3, metavar="N", help="sections per note (default: 3)")
    suggest.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    suggest.add_argument("--config", metavar="FILE", help="configuration file (default: .kbcheck.toml)")
    suggest.add_argument("--no-cache", action="store_true", help="do not read or write the parse cache")
    suggest.set_defaults(handler=cmd_suggest)

    baseline = sub.add_parser("baseline", help="record or show the accepted findings")
    bsub = baseline.add_subparsers(dest="baseline_command", metavar="ACTION", required=True)
    update = bsub.add_parser("update", help="record REV (default HEAD) and its findings")
    update.add_argument("rev", nargs="?", default="HEAD", metavar="REV")
    update.add_argument("--config", metavar="FILE", help="configuration file")
    update.set_defaults(handler=cmd_baseline_update)
    show = bsub.add_parser("show", help="show the recorded baseline")
    show.add_argument("--config", metavar="FILE", help="configuration file")
    show.set_defaults(handler=cmd_baseline_show)

    rules = sub.add_parser("rules", help="list the rules, their severities and whether they are enabled")
    rules.add_argument("--config", metavar="FILE", help="configuration file")
    rules.set_defaults(handler=cmd_rules)
    explain = sub.add_parser("explain", help="explain a rule: what, why, examples, fix, suppress")
    explain.add_argument("rule", metavar="KBnnn|NAME", help="a rule id or name, e.g. KB005 or unverified-number")
    explain.add_argument("--lang", metavar="zh|en", help="language (default: lang in .kbcheck.toml, else en)")
    explain.set_defaults(handler=cmd_explain)
    init = sub.add_parser("init", help="write a commented .kbcheck.toml with every default")
    init.add_argument("--force", action="store_true", help="overwrite an existing .kbcheck.toml")
    init.add_argument("--role", metavar="ROLE", help="role of the git user recorded as first author (default: maintainer)")
    init.set_defaults(handler=cmd_init)
    demo = sub.add_parser("demo", help="run hook, check and digest on a bundled sample knowledge base")
    demo.set_defaults(handler=cmd_demo)
    cache = sub.add_parser("cache", help="manage the parse cache")
    csub = cache.add_subparsers(dest="cache_command", metavar="ACTION", required=True)
    clear = csub.add_parser("clear", help="remove the parse cache under the git directory")
    clear.set_defaults(handler=cmd_cache_clear)
    return parser


# -- shared set-up --------------------------------------------------------------
def _repository(paths: Sequence[str] = ()) -> Repository:
    """The repository of the first named path (so a run from outside finds it), else of the current folder."""
    from kbcheck.git import open_repository
    from kbcheck.paths import search_start

    return open_repository(search_start(paths, Path.cwd()))


def _config(repo: Repository, config_file: str | None) -> Config:
    from kbcheck.config import load_config

    return load_config(repo.root, config_file)


def _select(value: str | None) -> frozenset[str] | None:
    if not value:
        return None
    from kbcheck.rules import get_rule

    return frozenset(get_rule(part).id for part in value.split(",") if part.strip())


def one_line(text: str) -> str:
    """A notice or an error on one line, even when it names a file whose name holds a line break;
    the bytes of a name that is not UTF-8 are written as git writes them (`\\351`)."""
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    if any("\udc80" <= ch <= "\udcff" for ch in text):
        text = "".join(f"\\{ord(ch) - 0xDC00:03o}" if "\udc80" <= ch <= "\udcff" else ch for ch in text)
    return text


def discard_output(stream: TextIO) -> None:
    """After the reader of `stream` went away: send what is still buffered to nowhere, so the
    interpreter's last flush does not fail and replace the exit status (as the Python docs advise)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # not a file descriptor (a test's buffer): nothing will flush it at exit


def _notice(lines: Sequence[str], err: TextIO, lang: str = "en") -> None:
    from kbcheck.i18n import say

    for line in lines:
        print(f"kbcheck: {one_line(say(line, lang))}", file=err)


def _lang(args: argparse.Namespace, config: Config | None) -> str:
    """The language of this run's messages: `--lang`, else the configuration's (English by default).

    It is kept on `args`, so an error raised later is said in it too."""
    lang: str = args.lang or (config.message_lang if config is not None else "en")
    args.message_lang = lang
    return lang


def _checked_lang(args: argparse.Namespace) -> None:
    """Refuse an unknown `--lang` before anything else is done (one line, exit 2)."""
    from kbcheck.i18n import check_lang

    if getattr(args, "lang", None) is not None:
        check_lang(args.lang, "--lang")


# -- commands -------------------------------------------------------------------
def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.authors import judged_as
    from kbcheck.baseline import accepted_fingerprints
    from kbcheck.check_output import exit_status, write_report
    from kbcheck.engine import RunOptions, check
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.policy import trusted_config
    from kbcheck.progress import progress_for
    from kbcheck.rules import all_rules
    from kbcheck.sources import select

    if args.rev == "" and not args.fix:
        raise UsageError("--diff needs REV (only --fix --diff takes none)")
    if args.rev and args.mode:
        raise UsageError(f"--diff REV is not allowed with --{args.mode}")
    mode = "diff" if args.rev else args.mode
    if args.filter in ("added",) and mode not in ("staged", "diff", None):
        raise UsageError("--filter added needs --staged or --diff (it compares with what the change added)")
    select_rules = _select(args.select)
    repo = _repository(args.paths)
    config = _config(repo, args.config)
    lang = _lang(args, config)
    selection = select(repo, config, mode=mode, paths=list(args.paths), rev=args.rev, net=args.actor is not None)
    policy = trusted_config(repo, config, selection.base, args.config)
    selection = judged_as(repo, policy, selection, cli_author=args.author, actor=args.actor)
    filter_mode = args.filter or ("added" if selection.mode == "diff" else "file")
    accepted = accepted_fingerprints(repo, config, args.baseline, selection.mode)
    kb = KnowledgeBase(selection.snapshot, config, None if args.no_cache else _cache_factory(repo))
    options = RunOptions(filter=filter_mode, select=select_rules, accepted=accepted, policy=policy,
                         progress=progress_for(err, "checking", quiet=args.quiet),
                         report_unused_disables=args.report_unused_disables)
    report = check(kb, config, selection, options)
    kb.facts.flush()
    if not args.quiet:
        _notice([*getattr(selection, "notices", ()), *report.notices], err, lang)
    fixes = None
    if args.fix:
        from kbcheck.fix.run import run_fixes

        fixes = run_fixes(repo, selection.snapshot, report, show_diff=args.rev == "", out=out, err=err, lang=lang)
        if args.rev == "":
            return fixes.status(1 if fixes.fixed else 0)
        report = fixes.report
    # the status is known before anything is written: a reader that stops early (`| head`) cannot change it
    status = exit_status(args, report)
    if fixes is not None:
        status = fixes.status(status)
    try:
        write_report(args, report, all_rules(), out, repo.root, Path.cwd(), lang=lang)
        out.flush()
    except BrokenPipeError:
        discard_output(out)
    return status


def _cache_factory(repo: Repository) -> Callable[[str], BlobCache]:
    from kbcheck.cache import repository_cache

    return repository_cache(repo)


def cmd_digest(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.digest import run_digest
    from kbcheck.progress import progress_for, showing

    repo = _repository()
    config = _config(repo, args.config)
    _lang(args, config)  # errors from here on are said in the language of messages
    with showing(progress_for(err, "digest")):
        return run_digest(repo, config, args, out, err)


def cmd_suggest(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.suggest import run_suggest

    repo = _repository()
    return run_suggest(repo, _config(repo, args.config), args, out, err)


def cmd_baseline_update(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.baseline import update_baseline
    from kbcheck.progress import progress_for, showing

    repo = _repository()
    with showing(progress_for(err, "baseline")):
        return update_baseline(repo, _config(repo, args.config), args.rev, out)


def cmd_baseline_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.baseline import show_baseline

    repo = _repository()
    return show_baseline(repo, _config(repo, args.config), out)


def cmd_rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.config import Config, effective_severity
    from kbcheck.rules import all_rules

    config = Config()
    try:
        repo = _repository()
        config = _config(repo, args.config)
    except KbcheckError:
        if args.config:
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


def cmd_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.color import use_color
    from kbcheck.explain_render import explain, find_rule

    config = None
    if args.lang is None:
        try:
            config = _config(_repository(), None)
        except KbcheckError:
            pass  # outside a knowledge base: English
    lang = _lang(args, config)
    on_terminal = out.isatty()
    out.write(explain(find_rule(args.rule), rendered=on_terminal, color=on_terminal and use_color("auto", out),
                      lang=lang))
    return 0


def cmd_init(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.config import DEFAULTS, write_init
    from kbcheck.first_author import first_author
    from kbcheck.git import BareRepositoryError

    root = Path.cwd()
    repo = None
    try:
        repo = _repository()
        root = repo.root
    except BareRepositoryError:
        raise UsageError(f"{root} is a bare repository (no working tree): "
                         "run kbcheck init in a clone's working tree") from None
    except KbcheckError:
        pass
    author = first_author(repo, args.role, tuple(DEFAULTS["roles"]))
    path = write_init(root, force=args.force, author=author.toml() if author else "")
    print(f"wrote {path.name}: every key with its default; edit [authors] to say who writes where", file=out)
    if author is not None:
        print(f"recorded {author.email} as author '{author.slug}' with role {author.role}", file=out)
    return 0


def cmd_demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.demo import run_demo

    return run_demo(out)


def cmd_cache_clear(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.cache import clear_cache

    repo = _repository()
    clear_cache(repo.common_dir)  # where every worktree's runs keep it
    print("kbcheck cache cleared", file=out)
    return 0


def _error_line(exc: KbcheckError, args: argparse.Namespace) -> str:
    """`kbcheck: error: …` in the run's language when it is known by now, else in English."""
    from kbcheck.i18n import LANGS, _, say

    lang = getattr(args, "message_lang", None) or getattr(args, "lang", None)
    if lang not in LANGS or lang == "en":
        return f"kbcheck: error: {one_line(str(exc))}"
    return say(_("kbcheck: error: {message}", message=one_line(exc.said(lang))), lang)


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run kbcheck; returns the exit status instead of exiting (tests call this)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage message
        return 0 if exc.code in (0, None) else 2
    if not getattr(args, "handler", None):
        parser.print_help(out)
        return 2
    try:
        _checked_lang(args)
        status = int(args.handler(args, out, err))
        out.flush()
        return status
    except KbcheckError as exc:
        print(_error_line(exc, args), file=err)
        return exc.exit_code
    except KeyboardInterrupt:
        print("kbcheck: interrupted", file=err)
        return 130
    except BrokenPipeError:  # output cut short before the command knew its status
        discard_output(out)
        return 1
    except Exception as exc:
        if os.environ.get("KBCHECK_DEBUG"):
            raise
        print(f"kbcheck: internal error: {type(exc).__name__}: {exc} (set KBCHECK_DEBUG=1 for details)", file=err)
        return 2
