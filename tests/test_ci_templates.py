"""The CI templates, the hook manifest, `.ci/run` and the README's commands are valid and agree.

Workflows are validated with check-jsonschema's bundled schemas (no network),
the hook manifest with pre-commit's own loader, and every kbcheck command
line in them with kbcheck's real argument parser.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from gitrepo import GitRepo

from kbcheck.cli import main

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / "hooks" / "github-workflow.yml"
GITLAB = ROOT / "hooks" / "gitlab-ci.yml"
ACTION = ROOT / "action.yml"
HOOKS_MANIFEST = ROOT / ".pre-commit-hooks.yaml"
CI_RUN = ROOT / ".ci" / "run"
README = ROOT / "README.md"
EXAMPLE = ROOT / "examples" / "knowledge-base"


def check_jsonschema() -> str:
    script = Path(sys.executable).parent / ("check-jsonschema.exe" if os.name == "nt" else "check-jsonschema")
    assert script.exists(), "check-jsonschema (a test dependency) is not installed next to this Python"
    return str(script)


def validate(schema: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([check_jsonschema(), "--builtin-schema", schema, str(path)],
                          capture_output=True, text=True, check=False)


def load(path: Path) -> Any:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# -- schemas -------------------------------------------------------------------------
@pytest.mark.parametrize(("schema", "path"), [
    ("vendor.github-workflows", WORKFLOW),
    ("vendor.gitlab-ci", GITLAB),
    ("vendor.github-actions", ACTION),
])
def test_template_matches_its_schema(schema: str, path: Path) -> None:
    result = validate(schema, path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_schema_check_catches_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "workflow.yml"
    broken.write_text(WORKFLOW.read_text(encoding="utf-8").replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"),
                      encoding="utf-8")
    assert validate("vendor.github-workflows", broken).returncode != 0


def test_the_schema_check_catches_a_broken_gitlab_job(tmp_path: Path) -> None:
    broken = tmp_path / "gitlab-ci.yml"
    broken.write_text(GITLAB.read_text(encoding="utf-8").replace("codequality:", "code_quality:"), encoding="utf-8")
    assert validate("vendor.gitlab-ci", broken).returncode != 0


# -- the pre-commit hook manifest ------------------------------------------------------
def test_hook_manifest_is_valid_for_pre_commit() -> None:
    from pre_commit.clientlib import load_manifest  # type: ignore[import-untyped]

    hooks = {hook["id"]: hook for hook in load_manifest(str(HOOKS_MANIFEST))}
    assert set(hooks) == {"kbcheck", "kbcheck-write-scope"}
    # no mode: kbcheck takes it from pre-commit's environment (a commit, --all-files, a range)
    # --strict: pre-commit hides a passing hook's output, so a warning must fail to be seen
    assert hooks["kbcheck"]["entry"] == "kbcheck check --strict"
    assert hooks["kbcheck"]["pass_filenames"] is True
    assert hooks["kbcheck-write-scope"]["entry"] == "kbcheck check --select KB007"
    assert hooks["kbcheck-write-scope"]["pass_filenames"] is False
    for hook in hooks.values():
        assert hook["language"] == "python"
        # a commit that only deletes someone else's file must still run KB007
        assert hook["always_run"] is True
        assert hook["require_serial"] is True
        assert hook["stages"] == ["pre-commit"]


# -- kbcheck command lines in the templates ---------------------------------------------
def shell_text(path: Path) -> str:
    """The shell commands a template runs: `run`, `script` and `entry` values, or a script's code lines."""
    if path.suffix not in (".yml", ".yaml"):
        return "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith("#"))
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("run", "script", "before_script", "entry"):
                    found.extend(value if isinstance(value, list) else [str(value)])
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return "\n".join(found)


def kbcheck_commands(text: str, base_sha: str = "0123abcd") -> list[list[str]]:
    """Every `kbcheck ...` command line, shell variables replaced by sample values."""
    samples = {"$BASE": "refs/remotes/origin/main", "$TARGET": "refs/remotes/origin/main", "$FORMAT": "github", "$CI_MERGE_REQUEST_DIFF_BASE_SHA": base_sha,
               "$ACTOR": "tom-gh", "$GITLAB_USER_LOGIN": "tom-gh"}
    commands = []
    for match in re.finditer(r"(?<![\w/-])kbcheck ((?:check|digest|baseline)\b[^\n|>&;]*)", text):
        line = match.group(1)
        for variable, value in samples.items():
            line = line.replace(variable, value)
        commands.append(shlex.split(line))
    return commands


@pytest.mark.parametrize("path", [WORKFLOW, GITLAB, ACTION, HOOKS_MANIFEST, ROOT / "hooks" / "pre-commit"])
def test_every_kbcheck_command_in_a_template_parses(path: Path) -> None:
    from kbcheck.cli import _parser

    commands = kbcheck_commands(shell_text(path))
    assert commands, f"no kbcheck command found in {path.name}"
    for argv in commands:
        try:
            _parser().parse_args(argv)
        except SystemExit as exc:  # argparse rejected it
            pytest.fail(f"{path.name}: `kbcheck {' '.join(argv)}` is not a valid command line ({exc})")


@pytest.mark.parametrize("path", [WORKFLOW, GITLAB, ACTION])
def test_every_kbcheck_command_in_a_template_runs(path: Path, git_repo: GitRepo) -> None:
    """Against a real pull request on the example: findings may fail a step, errors (2) may not."""
    shutil.copytree(EXAMPLE, git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    assert main(["baseline", "update"], out=io.StringIO(), err=io.StringIO()) == 0
    base = git_repo.commit_all("baseline", name="lead", email="lead@example.org")
    git_repo.git("update-ref", "refs/remotes/origin/main", base)  # what actions/checkout fetches
    git_repo.write("inbox/tom/2026-10-30-brief.md", "# tom\n\n- 某方法提速 45%，来源待补。\n")
    git_repo.commit_all("tom: brief", author="tom")
    for argv in kbcheck_commands(shell_text(path), base_sha=base):
        out, err = io.StringIO(), io.StringIO()
        status = main(argv, out=out, err=err)
        assert status in (0, 1), f"kbcheck {' '.join(argv)} -> {status}: {err.getvalue()}"
        if argv[:1] == ["check"] and "--diff" in argv and "--format" in argv:
            assert "45%" in out.getvalue()  # the pull request's unsourced number is reported
        if "--output" in argv:
            assert (git_repo.path / argv[argv.index("--output") + 1]).stat().st_size > 0


def test_a_misspelt_option_would_be_caught() -> None:
    from kbcheck.cli import _parser

    (argv,) = kbcheck_commands('run: kbcheck check --diff "$BASE" --filter add --format github')
    with pytest.raises(SystemExit):
        _parser().parse_args(argv)


# -- what each template does -------------------------------------------------------------
def steps_of(job: Any) -> list[Any]:
    steps = job["steps"]
    assert isinstance(steps, list)
    return steps


def test_github_workflow_checks_pull_requests_and_proposes_a_baseline_nightly() -> None:
    workflow = load(WORKFLOW)
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    assert isinstance(triggers, dict) and {"pull_request", "push", "schedule"} <= set(triggers)
    jobs = workflow["jobs"]
    assert isinstance(jobs, dict)
    check, nightly = jobs["check"], jobs["nightly"]
    assert check["permissions"]["security-events"] == "write"
    check_steps = steps_of(check)
    assert check_steps[0]["uses"].startswith("actions/checkout@") and check_steps[0]["with"]["fetch-depth"] == 0
    runs = "\n".join(str(step.get("run", "")) for step in check_steps)
    assert 'kbcheck check --diff "$BASE" --actor "$ACTOR" --filter added --format github' in runs
    assert "--format sarif > kbcheck.sarif" in runs
    assert check["env"]["ACTOR"] == "${{ github.event.pull_request.user.login }}"
    assert check["env"]["BASE"] == "refs/remotes/origin/${{ github.base_ref }}"
    upload = next(step for step in check_steps if str(step.get("uses", "")).startswith("github/codeql-action/upload-sarif@"))
    assert upload["with"]["sarif_file"] == "kbcheck.sarif"
    assert 'GITHUB_STEP_SUMMARY' in runs
    assert 'kbcheck digest --since "$BASE"' in runs
    nightly_steps = steps_of(nightly)
    nightly_runs = "\n".join(str(step.get("run", "")) for step in nightly_steps)
    assert "kbcheck baseline update" in nightly_runs
    uses = [str(step.get("uses", "")) for step in nightly_steps]
    assert any(u.startswith("actions/upload-artifact@") for u in uses)
    assert any(u.startswith("peter-evans/create-pull-request@") for u in uses)
    assert nightly["permissions"] == {"contents": "write", "pull-requests": "write"}


def test_gitlab_job_writes_the_code_quality_report_it_declares() -> None:
    job = load(GITLAB)["kbcheck"]
    assert isinstance(job, dict)
    script = "\n".join(job["script"])
    report = job["artifacts"]["reports"]["codequality"]
    assert (f'kbcheck check --diff "$TARGET" --actor "$GITLAB_USER_LOGIN" --no-cache --format gitlab '
            f'> {report}') in script
    assert job["variables"]["GIT_DEPTH"] == "0"
    assert job["artifacts"]["when"] == "always"
    assert "kbcheck-digest.md" in job["artifacts"]["paths"]
    assert script.rstrip().endswith('exit "$status"')  # findings fail the job, after the digest


def test_action_installs_itself_and_runs_the_check() -> None:
    action = load(ACTION)
    assert set(action["inputs"]) == {"base", "actor", "format", "output", "python-version"}
    runs = action["runs"]
    assert isinstance(runs, dict) and runs["using"] == "composite"
    scripts = "\n".join(str(step.get("run", "")) for step in runs["steps"])
    assert 'pip install --disable-pip-version-check "$GITHUB_ACTION_PATH"' in scripts
    assert 'kbcheck check --diff "$BASE" --actor "$ACTOR" --format "$FORMAT"' in scripts
    assert 'kbcheck check --diff "$BASE" --format "$FORMAT"' in scripts
    assert 'kbcheck check --all --format "$FORMAT"' in scripts


# -- .ci/run and the README ----------------------------------------------------------------
def readme_commands() -> list[str]:
    """The shell commands of the README's "Try it" section, in order."""
    section = README.read_text(encoding="utf-8").split("## Try it", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.DOTALL)]


def test_readme_try_it_has_exactly_two_one_line_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2 and all("\n" not in command for command in commands)
    demo, tests = commands
    assert demo == "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/kbcheck demo"
    assert tests.startswith("python3 -m venv .venv && ")


def test_ci_run_runs_the_readme_test_command() -> None:
    """Each step of the README's test command appears in .ci/run with the temporary venv."""
    text = CI_RUN.read_text(encoding="utf-8")
    venv_step, *steps = readme_commands()[1].split(" && ")
    assert venv_step == "python3 -m venv .venv"
    assert 'python3 -m venv "$venv"' in text
    for step in steps:
        program, arguments = step.split(" ", 1)
        assert program.startswith(".venv/bin/")
        assert f'"{program.replace(".venv/", "$venv/")}" {arguments}' in text, step
    assert "set -euo pipefail" in text
    assert os.stat(CI_RUN).st_mode & stat.S_IXUSR


def fake_python(bin_dir: Path, pytest_status: int) -> Path:
    """A `python3` whose `-m venv DIR` makes a venv whose pytest exits with `pytest_status`
    (its lint and type steps pass)."""
    bin_dir.mkdir()
    log = bin_dir / "log"
    script = bin_dir / "python3"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "python3 $*" >> "{log}"\n'
        '[ "$1 $2" = "-m venv" ] || exit 9\n'
        'mkdir -p "$3/bin"\n'
        f'printf \'#!/bin/sh\\necho "pip $*" >> "{log}"\\n\' > "$3/bin/pip"\n'
        f'printf \'#!/bin/sh\\necho "python $*" >> "{log}"\\n[ "$2" = pytest ] || exit 0\\nexit {pytest_status}\\n\' > "$3/bin/python"\n'
        'chmod +x "$3/bin/pip" "$3/bin/python"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return log


@pytest.mark.skipif(os.name == "nt", reason="a POSIX shell script")
@pytest.mark.parametrize(("pytest_status", "expected"), [(0, 0), (1, 1), (5, 5)])
def test_ci_run_fails_when_pytest_fails_or_collects_nothing(tmp_path: Path, pytest_status: int, expected: int) -> None:
    log = fake_python(tmp_path / "bin", pytest_status)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(tmp_path)}
    result = subprocess.run(["bash", str(CI_RUN)], env=env, capture_output=True, text=True, check=False)
    assert result.returncode == expected, result.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert calls[0].startswith("python3 -m venv ")
    assert calls[1:] == ["pip install -e .[test]", "python -m ruff check", "python -m mypy",
                         "python -m pytest"]
    assert ("collected no tests" in result.stderr) == (pytest_status == 5)
    assert [p for p in tmp_path.iterdir() if p.name != "bin"] == []  # the temporary venv is gone


def test_ci_run_and_the_plain_hook_are_valid_shell() -> None:
    assert subprocess.run(["bash", "-n", str(CI_RUN)], check=False).returncode == 0
    assert subprocess.run(["sh", "-n", str(ROOT / "hooks" / "pre-commit")], check=False).returncode == 0


@pytest.mark.parametrize(("status", "kept"), [(0, True), (1, True), (2, False)])
def test_gitlab_job_leaves_no_empty_report_when_kbcheck_cannot_run(tmp_path: Path, status: int, kept: bool) -> None:
    """The job's own script, run by sh with a stand-in `kbcheck` that exits with `status`."""
    job = load(GITLAB)["kbcheck"]
    assert isinstance(job, dict)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "kbcheck"
    output = "" if status == 2 else "[]"
    stand_in.write_text(f"#!/bin/sh\nprintf '{output}'\nexit {status}\n", encoding="utf-8")
    stand_in.chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CI_COMMIT_BRANCH": "main"}
    result = subprocess.run(["sh", "-c", "\n".join(job["script"])], cwd=tmp_path, env=env, capture_output=True,
                            text=True, check=False)
    assert result.returncode == status, result.stderr
    report = tmp_path / job["artifacts"]["reports"]["codequality"]
    assert report.exists() is kept
    if kept:
        assert report.read_text(encoding="utf-8") == "[]"
