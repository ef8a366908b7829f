"""`kbcheck completion SHELL`: a completion script generated from the parser itself (docs: README, "Command line")."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from kbtools import run_cli as run

from kbcheck.cli import COMPLETION_SHELLS


def test_the_bash_script_completes_every_command_and_a_flag_and_is_valid_bash() -> None:
    code, out, err = run("completion", "bash")
    assert (code, err) == (0, "")
    for word in ("check", "digest", "suggest", "baseline", "explain", "init", "completion", "--staged", "--format"):
        assert word in out
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash to parse the script")
    assert subprocess.run([bash, "-n"], input=out, text=True).returncode == 0


@pytest.mark.parametrize("shell", COMPLETION_SHELLS)
def test_every_shell_gets_a_script_that_names_kbcheck(shell: str) -> None:
    code, out, _ = run("completion", shell)
    assert code == 0 and "kbcheck" in out and "check" in out


def test_without_shtab_the_command_says_what_to_install() -> None:
    script = ("import sys; sys.modules['shtab'] = None\n"
              "from kbcheck.cli import main\nsys.exit(main(['completion', 'bash']))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "kbcheck: error: shell completion needs the shtab package: pip install 'kbcheck[completion]'"


def test_an_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run("completion", "fish")
    assert code == 2 and "invalid choice: 'fish'" in capsys.readouterr().err
