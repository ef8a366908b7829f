"""The command line: `main(argv) -> int` parses the arguments and runs the command they name.

The commands themselves live in `kbcheck.commands`, one module each, and take
typed options; this module only knows the options' spelling. Exit status: 0
clean, 1 findings at error severity (warnings too with `--strict`), 2 usage,
configuration or repository errors, printed as one line on stderr; with
`--fix`, 2 also when a file could not be fixed safely, and `--fix --diff`
exits 1 when there is something to fix (`docs/output.md`). A command's module
is imported only when it runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO, TypeVar

from kbcheck.arguments import ArgumentParser
from kbcheck.color import CHOICES as COLOR_CHOICES
from kbcheck.commands import run_command
from kbcheck.reporters import CHECK_FORMATS

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Options = TypeVar("_Options", bound="DataclassInstance")


class _Version(argparse.Action):
    """`--version`, worked out only when asked for (`kbcheck.version`)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from kbcheck.version import version

        sys.stdout.write(f"kbcheck {version()}\n")
        parser.exit()


class _ConfigArgument(argparse.Action):
    """`--config FILE`, or `--config 'key = value'` as ruff reads it: a value holding `=` that
    names no file is a TOML override (`config_overrides`, in the order given)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        import os

        value = str(values)
        if "=" in value and not os.path.exists(value):
            namespace.config_overrides = [*(getattr(namespace, "config_overrides", None) or []), value]
        else:
            namespace.config = value


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="kbcheck",
        description="Keep a git-hosted research knowledge base honest: sourced trends, "
        "discussed references, traceable numbers, writers in their own inbox.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="show kbcheck's version and exit")
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
    check.add_argument("--format", "--output-format", choices=CHECK_FORMATS, default="text",
                       help="output format (default: text; full: text with the source lines of each finding)")
    base = check.add_mutually_exclusive_group()
    base.add_argument("--baseline", action="store_true", default=None, dest="baseline",
                      help="report only findings not accepted in the baseline (default when it exists)")
    base.add_argument("--no-baseline", action="store_false", dest="baseline", help="ignore the baseline")
    check.add_argument("--strict", action=argparse.BooleanOptionalAction, default=False,
                       help="exit 1 on warnings too (--no-strict: on errors only, undoing an earlier --strict)")
    check.add_argument("--select", metavar="RULES",
                       help="run only these rules, comma-separated ids or names (e.g. KB007,unverified-number)")
    check.add_argument("--extend-select", metavar="RULES",
                       help="run these rules as well, even when the configuration ignores them")
    check.add_argument("--ignore", metavar="RULES", help="do not run these rules (after --select)")
    check.add_argument("--config", metavar="FILE|KEY=VALUE", action=_ConfigArgument, default=None,
                       help="configuration file (default: .kbcheck.toml), or a 'key = value' in TOML that "
                       "overrides it (repeatable), e.g. --config 'lang = \"en\"'")
    check.add_argument("--per-file-ignores", metavar="GLOB:RULES", action="append", default=[],
                       help="do not report these rules (ids or names, comma-separated) in files matching GLOB "
                       "(repeatable; adds to the configuration's per-file-ignores)")
    check.add_argument("--author", metavar="SLUG", help="who is committing (KB007); default from KBCHECK_AUTHOR or git")
    check.add_argument("--actor", metavar="LOGIN",
                       help="with --diff: judge the net change as the author whose logins hold LOGIN "
                       "(the pull request's author, as the forge says)")
    check.add_argument("--no-cache", action="store_true", help="do not read or write the parse cache")
    check.add_argument("--fix", action="store_true",
                       help="apply the provably safe fixes to the working tree (never the index)")
    check.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true",
                       help="print a count per rule instead of the findings (text or json)")
    check.add_argument("--report-unused-disables", action="store_true",
                       help="report disable comments that suppress nothing (and exit 1 for them)")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="check the text on standard input as the file PATH (for editors); nothing is written")
    check.add_argument("--show-files", action="store_true",
                       help="list the selected files with their kind and why, and check nothing")
    check.add_argument("--show-settings", action="store_true",
                       help="print the merged configuration, and check nothing")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary, notices or progress")
    check.add_argument("--color", choices=COLOR_CHOICES, default="auto",
                       help="colour the text output (default: auto, on a terminal; NO_COLOR and FORCE_COLOR are honoured)")
    check.add_argument("--lang", metavar="zh|en",
                       help="language of messages, notices and errors (default: lang in .kbcheck.toml, else en); "
                       "json, sarif and gitlab stay English unless it is given")
    check.set_defaults(handler=cmd_check, config_overrides=[])

    digest = sub.add_parser("digest", help="write the digest brief of what changed since the baseline")
    digest.add_argument("--since", metavar="REV", help="compare from REV (default: the baseline commit)")
    digest.add_argument("--to", metavar="REV", help="compare to REV (default: HEAD)")
    digest.add_argument("--manifest", metavar="FILE", help="take the items from a manifest instead of the diff")
    digest.add_argument("--format", choices=("markdown", "json"), default="markdown")
    digest.add_argument("--lang", metavar="zh|en", help="language of the markdown (default: config lang)")
    digest.add_argument("--output", "-o", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    digest.add_argument("--config", metavar="FILE", help="configuration file")
    digest.add_argument("--no-cache", action="store_true", help="do not read or write the parse cache")
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
    update.add_argument("--no-cache", action="store_true", help="do not read or write the parse cache")
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
    completion = sub.add_parser("completion", help="print the shell completion script for bash, zsh or tcsh")
    completion.add_argument("shell", choices=COMPLETION_SHELLS, help="the shell the script is for")
    completion.set_defaults(handler=cmd_completion)
    return parser


# -- dispatch -------------------------------------------------------------------
# Each handler turns the parsed arguments into its command's typed options (`kbcheck.commands`).
def _options(kind: type[_Options], args: argparse.Namespace) -> _Options:
    """The options dataclass `kind`, each field from the argument of the same name (a list as a tuple)."""
    values = {field.name: getattr(args, field.name) for field in dataclasses.fields(kind)}
    return kind(**{name: tuple(value) if isinstance(value, list) else value for name, value in values.items()})


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.check import CheckOptions, run_check

    return run_check(_options(CheckOptions, args), out, err)


def cmd_digest(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.digest import DigestOptions, run_digest

    return run_digest(_options(DigestOptions, args), out, err)


def cmd_suggest(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.suggest import SuggestOptions, run_suggest

    return run_suggest(_options(SuggestOptions, args), out, err)


def cmd_baseline_update(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.baseline import run_baseline_update

    return run_baseline_update(args.rev, args.config, out, err, cache=not args.no_cache)


def cmd_baseline_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.baseline import run_baseline_show

    return run_baseline_show(args.config, out)


def cmd_rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.rules import run_rules

    return run_rules(args.config, out)


def cmd_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.explain import run_explain

    return run_explain(args.rule, out, args.lang)


def cmd_init(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.init import run_init

    return run_init(args.role, args.force, out, err)


def cmd_demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.demo import run_demo

    return run_demo(out)


def cmd_cache_clear(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kbcheck.commands.cache import run_cache_clear

    return run_cache_clear(out)


#: the shells `kbcheck completion` writes a script for (those shtab writes)
COMPLETION_SHELLS = ("bash", "zsh", "tcsh")


def cmd_completion(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The completion script, generated from this very parser by shtab (an optional dependency:
    `pip install 'kbcheck[completion]'`), so it never falls behind the commands and flags."""
    try:
        import shtab
    except ImportError:
        from kbcheck.errors import UsageError
        from kbcheck.i18n import _

        raise UsageError(_("shell completion needs the shtab package: pip install 'kbcheck[completion]'")) from None
    out.write(shtab.complete(_parser(), shell=args.shell))
    return 0


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run kbcheck; returns the exit status instead of exiting (tests call this)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage message
        return 0 if exc.code in (0, None) else 2
    handler: Callable[[argparse.Namespace, TextIO, TextIO], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(out)
        return 2
    return run_command(lambda: handler(args, out, err), out, err)
