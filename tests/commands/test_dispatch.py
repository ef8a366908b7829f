"""The commands take typed options; the command line only parses and dispatches to them."""

from __future__ import annotations

import ast
import dataclasses
import io
import re
from pathlib import Path
from typing import Any

import pytest

from kbcheck import cli, demo
from kbcheck.commands import run_command
from kbcheck.commands.check import CheckOptions
from kbcheck.commands.digest import DigestOptions
from kbcheck.commands.suggest import SuggestOptions
from kbcheck.errors import UsageError

PACKAGE = Path(cli.__file__).resolve().parent

#: each typed command, the shortest command line for it, and its options class
COMMANDS = [(["check"], CheckOptions), (["digest"], DigestOptions), (["suggest", "a.md"], SuggestOptions)]


@pytest.mark.parametrize(("argv", "kind"), COMMANDS, ids=[argv[0] for argv, _ in COMMANDS])
def test_the_options_defaults_are_the_command_lines(argv: list[str], kind: type[Any]) -> None:
    parsed = cli._options(kind, cli._parser().parse_args(argv))
    defaults = kind(**({"paths": ("a.md",)} if argv[0] == "suggest" else {}))
    assert parsed == defaults


def test_every_option_of_a_command_line_has_its_field() -> None:
    args = cli._parser().parse_args(["check", "--all", "--no-baseline", "--author", "tom", "--format", "json",
                                     "--select", "KB001", "-q", "--statistics"])
    options = cli._options(CheckOptions, args)
    assert options == CheckOptions(mode="all", baseline=False, author="tom", format="json", select="KB001",
                                   quiet=True, statistics=True)
    # nothing the parser reads for `check` is left without a field, but the dispatch itself
    assert set(vars(args)) - {f.name for f in dataclasses.fields(CheckOptions)} == {"command", "handler"}


def test_run_command_turns_an_error_into_one_line_and_its_status() -> None:
    out, err = io.StringIO(), io.StringIO()

    def failing() -> int:
        raise UsageError("no file\nnamed x.md")

    assert run_command(failing, out, err) == 2
    assert err.getvalue() == "kbcheck: error: no file\\nnamed x.md\n"
    assert out.getvalue() == ""


def test_run_command_returns_the_commands_status() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_command(lambda: out.write("done\n") and 1, out, err) == 1
    assert (out.getvalue(), err.getvalue()) == ("done\n", "")


def test_the_demo_runs_what_it_shows(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each `$ kbcheck …` line the demo prints, parsed by the command line, gives the options it runs."""
    import kbcheck.commands.check as check
    import kbcheck.commands.digest as digest
    import kbcheck.commands.suggest as suggest

    ran: list[object] = []
    for module, name in ((check, "run_check"), (digest, "run_digest"), (suggest, "run_suggest")):
        original = getattr(module, name)

        def record(options: object, out: Any, err: Any, original: Any = original) -> int:
            ran.append(options)
            return int(original(options, out, err))

        monkeypatch.setattr(module, name, record)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    out = io.StringIO()
    assert demo.run_demo(out) == 0
    shown = [line.split()[2:] for line in out.getvalue().splitlines()
             if re.match(r"\$ kbcheck (check|digest|suggest) ", line)]
    assert len(shown) == len(ran) == 5
    kinds = {"check": CheckOptions, "digest": DigestOptions, "suggest": SuggestOptions}
    for argv, options in zip(shown, ran, strict=True):
        assert cli._options(kinds[argv[0]], cli._parser().parse_args(argv)) == options


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py") if p.name not in ("cli.py", "__main__.py")),
                         ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_nothing_but_the_entry_point_imports_the_command_line(path: Path) -> None:
    assert "kbcheck.cli" not in _imported(path)
    assert "argparse" not in _imported(path) or path.name == "arguments.py"
