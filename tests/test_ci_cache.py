"""CI starts warm: the folder the templates keep between runs is kbcheck's whole cache. Restored
into a fresh clone of the same commit, as a CI job restores it, the next check parses nothing
and reports the same findings."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from gitrepo import GitRepo

from kbcheck.cache import cache_root

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "knowledge-base"

#: runs `kbcheck ARGS` and adds, as its last line of stderr, how many markdown texts and cards it parsed
COUNTING = """
import sys
from markdown_it import MarkdownIt
import kbcheck.model.facts as facts
counted = {"markdown": 0, "cards": 0}
parse, parse_card = MarkdownIt.parse, facts.parse_card
def counting_parse(self, *args, **kwargs):
    counted["markdown"] += 1
    return parse(self, *args, **kwargs)
def counting_card(*args, **kwargs):
    counted["cards"] += 1
    return parse_card(*args, **kwargs)
MarkdownIt.parse, facts.parse_card = counting_parse, counting_card
from kbcheck.cli import main
status = main(sys.argv[1:])
print("parsed", counted["markdown"], counted["cards"], file=sys.stderr)
sys.exit(status)
"""


def _templates_cache_folder() -> str:
    """The one folder every template restores and saves."""
    def load(path: Path) -> Any:
        return yaml.safe_load(path.read_text(encoding="utf-8"))

    folders = {step["with"]["path"] for step in load(ROOT / "hooks" / "github-workflow.yml")["jobs"]["check"]["steps"]
               if str(step.get("uses", "")).startswith("actions/cache")}
    folders |= {step["with"]["path"] for step in load(ROOT / "action.yml")["runs"]["steps"]
                if str(step.get("uses", "")).startswith("actions/cache")}
    folders |= set(load(ROOT / "hooks" / "gitlab-ci.yml")["kbcheck"]["cache"]["paths"])
    assert len(folders) == 1, folders
    return folders.pop()


def _check_all(repo: GitRepo) -> tuple[dict[str, Any], tuple[int, int]]:
    done = subprocess.run([sys.executable, "-c", COUNTING, "check", "--all", "--format", "json"], cwd=repo.path,
                          env=repo.env, capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    last = done.stderr.strip().splitlines()[-1].split()
    assert last[0] == "parsed"
    return json.loads(done.stdout), (int(last[1]), int(last[2]))


def test_the_templates_cache_folder_is_kbchecks_cache() -> None:
    assert Path(_templates_cache_folder()) == cache_root(Path(".git"))


def test_a_restored_cache_leaves_nothing_to_parse(git_repo: GitRepo, tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    first, parsed_cold = _check_all(git_repo)
    assert parsed_cold[0] > 5 and parsed_cold[1] > 0

    # the next CI job: a fresh clone of the same commit, with the folder the templates keep restored
    clone = GitRepo(tmp_path / "next-job", git_repo.env)
    subprocess.run(["git", "clone", "-q", str(git_repo.path), str(clone.path)], env=git_repo.env, check=True)
    folder = _templates_cache_folder()
    shutil.copytree(git_repo.path / folder, clone.path / folder)
    second, parsed_warm = _check_all(clone)
    assert parsed_warm == (0, 0)
    assert second == first


def test_without_the_cache_the_next_job_parses_again(git_repo: GitRepo, tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    _check_all(git_repo)
    clone = GitRepo(tmp_path / "next-job", git_repo.env)
    subprocess.run(["git", "clone", "-q", str(git_repo.path), str(clone.path)], env=git_repo.env, check=True)
    _report, parsed = _check_all(clone)
    assert parsed[0] > 5
