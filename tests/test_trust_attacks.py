"""The write-scope gate against the writer it guards (docs/trust-model.md).

Each test plays a writer who wants a change outside his inbox past KB007,
on a real repository through the real command line (`python -m kbcheck`
in a child process, so exit statuses and closed pipes are the real ones).
The honest writer's merge of main is here too: it must pass.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo

from kbcheck.findings import fingerprint

ROOT = Path(__file__).resolve().parents[1]
PLAIN_HOOK = ROOT / "hooks" / "pre-commit"

POLICY = """\
[authors.tom]
emails = ["tom@example.org"]
role = "writer"

[authors.jay]
emails = ["jay@example.org"]
role = "writer"

[authors.sam]
emails = ["sam@example.org"]
role = "maintainer"
"""

#: the same, with the forge logins `--actor` looks up
POLICY_WITH_LOGINS = """\
[authors.tom]
emails = ["tom@example.org"]
logins = ["tom-gh"]
role = "writer"

[authors.sam]
emails = ["sam@example.org"]
logins = ["Sam-Lead"]
role = "maintainer"

[authors.zoe]
emails = ["zoë@example.org"]
role = "writer"
"""

LIVING_DOC = """\
# 推理加速 / Inference

## 1. 投机解码

- 草稿模型先猜，再由大模型核验。
"""

CARD = """\
---
arxiv: "2610.02076"
title: Draft then verify
---
A paper card.
"""

BRIEF = "# tom · 简报(2026-10-30)\n\n- 今天读了一篇关于投机解码的论文。\n"


def kbcheck(repo: GitRepo, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kbcheck", *args], cwd=repo.path, env={**repo.env, **(env or {})},
                          capture_output=True, text=True, check=False)


def kb007(result: subprocess.CompletedProcess[str]) -> list[tuple[str, str]]:
    """(path, message) of each KB007 finding of a `--format json` run."""
    findings = json.loads(result.stdout)["findings"]
    return [(f["path"], f["message"]) for f in findings if f["rule"] == "KB007"]


def make_kb(git_repo: GitRepo, policy: str = POLICY) -> str:
    """main: the policy, a living document, a card and tom's inbox, committed by the maintainer; its sha."""
    return git_repo.commit_files({
        ".kbcheck.toml": policy,
        "organized/knowledge/inference.md": LIVING_DOC,
        "organized/paper_cards/0001-2610-02076.md": CARD,
        "inbox/tom/2026-10-29-brief.md": BRIEF,
    }, "knowledge base", name="Sam", email="sam@example.org")


def writer_branch(git_repo: GitRepo) -> None:
    git_repo.branch("tom/work")
    git_repo.checkout("tom/work")


# -- 1. the config judges itself ----------------------------------------------------------
@pytest.mark.parametrize("grant", [
    'role = "maintainer"',
    'role = "writer"\n\n[roles]\nwriter = ["**"]',
])
def test_a_pull_request_cannot_make_its_author_a_maintainer(git_repo: GitRepo, grant: str) -> None:
    make_kb(git_repo)
    writer_branch(git_repo)
    policy = POLICY.replace('emails = ["tom@example.org"]\nrole = "writer"', f'emails = ["tom@example.org"]\n{grant}')
    git_repo.commit_files({".kbcheck.toml": policy,
                           "organized/knowledge/inference.md": LIVING_DOC + "\n- 改写了活文档。\n"},
                          "tom: promote myself", author="tom")
    result = kbcheck(git_repo, "check", "--diff", "main", "--format", "json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert sorted(path for path, _ in kb007(result)) == [".kbcheck.toml", "organized/knowledge/inference.md"]
    assert all(message.startswith("tom (role writer) may write only inbox/tom/**; commit ")
               for _, message in kb007(result))


@pytest.mark.parametrize("loosening, who", [
    ('per-file-ignores = {"**" = ["KB007"]}\n', "tom"),
    ('ignore = ["KB007"]\n', "tom"),
    ('severity = {KB007 = "warning"}\n', "tom"),
    ("allow-unknown-authors = true\n", "mallory"),
])
def test_a_staged_config_change_does_not_loosen_kb007(git_repo: GitRepo, loosening: str, who: str) -> None:
    make_kb(git_repo)
    git_repo.write(".kbcheck.toml", loosening + POLICY)
    git_repo.write("organized/paper_cards/0001-2610-02076.md", CARD + "\nEdited by a writer.\n")
    git_repo.stage()
    result = kbcheck(git_repo, "check", "--staged", "--format", "json", env={"KBCHECK_AUTHOR": who})
    assert result.returncode == 1, result.stdout + result.stderr
    assert sorted(path for path, _ in kb007(result)) == [".kbcheck.toml", "organized/paper_cards/0001-2610-02076.md"]


def test_a_maintainers_config_change_applies_from_the_next_change(git_repo: GitRepo) -> None:
    """Must not fire: the maintainer opens `organized/indexes/` to everyone; tom then writes there."""
    make_kb(git_repo)
    git_repo.write(".kbcheck.toml", 'per-file-ignores = {"organized/indexes/**" = ["KB007"]}\n' + POLICY)
    git_repo.stage()
    by_sam = kbcheck(git_repo, "check", "--staged", "--format", "json", env={"KBCHECK_AUTHOR": "sam"})
    assert by_sam.returncode == 0 and kb007(by_sam) == [], by_sam.stdout + by_sam.stderr
    git_repo.commit("sam: open the indexes", name="Sam", email="sam@example.org")
    git_repo.write("organized/indexes/queue.json", '["2610.02076"]\n')
    git_repo.stage()
    by_tom = kbcheck(git_repo, "check", "--staged", "--format", "json", env={"KBCHECK_AUTHOR": "tom"})
    assert by_tom.returncode == 0 and kb007(by_tom) == [], by_tom.stdout + by_tom.stderr


def test_the_policy_of_a_range_is_the_bases(git_repo: GitRepo) -> None:
    """A bad config at the base stops the run and names the revision; the PR's own fix does not count."""
    make_kb(git_repo)
    git_repo.commit_files({".kbcheck.toml": "role = 1\n"}, "broken", name="Sam", email="sam@example.org")
    writer_branch(git_repo)
    git_repo.commit_files({".kbcheck.toml": POLICY}, "tom: fix it", author="tom")
    result = kbcheck(git_repo, "check", "--diff", "main")
    assert result.returncode == 2
    assert "as committed at main, the trusted side of this change" in result.stderr
    assert "Traceback" not in result.stderr


# -- 2. the baseline forgives KB007 ---------------------------------------------------------
def test_a_baseline_never_accepts_kb007(git_repo: GitRepo) -> None:
    make_kb(git_repo)
    writer_branch(git_repo)
    forged = [fingerprint("KB007", path, path, 0) for path in
              (".kbcheck/baseline.json", "organized/knowledge/inference.md")]
    baseline = {"commit": git_repo.head(), "date": "2026-10-29T12:00:00+00:00", "fingerprints": forged}
    git_repo.commit_files({".kbcheck/baseline.json": json.dumps(baseline),
                           "organized/knowledge/inference.md": LIVING_DOC + "\n- 未经审阅的改动。\n"},
                          "tom: accept my own findings", author="tom")
    result = kbcheck(git_repo, "check", "--diff", "main", "--format", "json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert sorted(path for path, _ in kb007(result)) == [".kbcheck/baseline.json", "organized/knowledge/inference.md"]
    assert json.loads(result.stdout)["summary"]["suppressed"] == 0


# -- 3. the evil merge, and the honest one ------------------------------------------------------
def diverge(git_repo: GitRepo) -> None:
    """tom works on his branch while sam changes the living document and tom's brief on main."""
    make_kb(git_repo)
    writer_branch(git_repo)
    git_repo.commit_files({"inbox/tom/2026-10-29-brief.md": BRIEF + "- tom 的补充。\n"}, "tom: brief", author="tom")
    git_repo.checkout("main")
    git_repo.commit_files({"organized/knowledge/inference.md": LIVING_DOC + "\n- sam 折入了新材料。\n",
                           "inbox/tom/2026-10-29-brief.md": BRIEF + "- sam 的批注。\n"},
                          "sam: fold in", name="Sam", email="sam@example.org")
    git_repo.checkout("tom/work")


def merge_main_with_conflict(git_repo: GitRepo) -> None:
    """`git merge main` stops on the conflict in tom's brief; tom resolves it and stages it."""
    result = git_repo.run("merge", "--no-ff", "main", check=False,
                          env={"GIT_AUTHOR_NAME": "Tom", "GIT_AUTHOR_EMAIL": "tom@example.org",
                               "GIT_COMMITTER_NAME": "Tom", "GIT_COMMITTER_EMAIL": "tom@example.org"})
    assert result.returncode == 1, result.stdout  # the conflict
    git_repo.write("inbox/tom/2026-10-29-brief.md", BRIEF + "- tom 的补充。\n- sam 的批注。\n")
    git_repo.stage("inbox/tom/2026-10-29-brief.md")


def evil_edits(git_repo: GitRepo) -> None:
    git_repo.write("organized/knowledge/inference.md", LIVING_DOC + "\n- sam 折入了新材料。\n- tom 顺手改的。\n")
    git_repo.stage("organized/knowledge/inference.md")
    git_repo.delete("organized/paper_cards/0001-2610-02076.md")


def test_the_honest_merge_of_main_passes_the_hook(git_repo: GitRepo) -> None:
    diverge(git_repo)
    merge_main_with_conflict(git_repo)
    result = kbcheck(git_repo, "check", "--staged", "--format", "json", env={"KBCHECK_AUTHOR": "tom"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert kb007(result) == []


def test_the_evil_merge_fails_the_hook(git_repo: GitRepo) -> None:
    diverge(git_repo)
    merge_main_with_conflict(git_repo)
    evil_edits(git_repo)
    result = kbcheck(git_repo, "check", "--staged", "--format", "json", env={"KBCHECK_AUTHOR": "tom"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert kb007(result) == [
        ("organized/knowledge/inference.md",
         "tom (role writer) may write only inbox/tom/**; the staged change modifies organized/knowledge/inference.md"),
        ("organized/paper_cards/0001-2610-02076.md",
         "tom (role writer) may write only inbox/tom/**; the staged change deletes organized/paper_cards/0001-2610-02076.md"),
    ]


def test_the_honest_merge_of_main_passes_in_ci(git_repo: GitRepo) -> None:
    diverge(git_repo)
    merge_main_with_conflict(git_repo)
    git_repo.commit("Merge main into tom/work", author="tom")
    for extra in ([], ["--actor", "tom-gh"]):
        if extra:
            git_repo.checkout("main")
            git_repo.commit_files({".kbcheck.toml": POLICY_WITH_LOGINS}, "logins", name="Sam", email="sam@example.org")
            git_repo.checkout("tom/work")
        result = kbcheck(git_repo, "check", "--diff", "main", *extra, "--format", "json")
        assert result.returncode == 0, result.stdout + result.stderr
        assert kb007(result) == []


def test_the_evil_merge_commit_fails_in_ci(git_repo: GitRepo) -> None:
    diverge(git_repo)
    merge_main_with_conflict(git_repo)
    evil_edits(git_repo)
    merge = git_repo.commit("Merge main into tom/work", author="tom")
    result = kbcheck(git_repo, "check", "--diff", "main", "--format", "json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert kb007(result) == [
        ("organized/knowledge/inference.md",
         f"tom (role writer) may write only inbox/tom/**; commit {merge[:12]} modifies organized/knowledge/inference.md"),
        ("organized/paper_cards/0001-2610-02076.md",
         f"tom (role writer) may write only inbox/tom/**; commit {merge[:12]} deletes "
         "organized/paper_cards/0001-2610-02076.md"),
    ]


# -- 4. the borrowed identity ----------------------------------------------------------------------
def test_a_borrowed_email_does_not_pass_the_pull_request_check(git_repo: GitRepo) -> None:
    make_kb(git_repo, POLICY_WITH_LOGINS)
    writer_branch(git_repo)
    git_repo.commit_files({"organized/knowledge/inference.md": LIVING_DOC + "\n- 冒名的改动。\n"},
                          "lead's edit, honestly", name="Sam", email="sam@example.org")
    by_email = kbcheck(git_repo, "check", "--diff", "main", "--format", "json")
    assert by_email.returncode == 0  # what commit e-mails can prove: nothing about who pushed
    result = kbcheck(git_repo, "check", "--diff", "main", "--actor", "tom-gh", "--format", "json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert kb007(result) == [(
        "organized/knowledge/inference.md",
        "tom (role writer) may write only inbox/tom/**; the change main...HEAD modifies organized/knowledge/inference.md",
    )]


def test_the_actor_is_matched_by_login_ignoring_ascii_case(git_repo: GitRepo) -> None:
    """Must not fire: the maintainer's own pull request, the forge spelling the login in lower case."""
    make_kb(git_repo, POLICY_WITH_LOGINS)
    writer_branch(git_repo)
    git_repo.commit_files({"organized/knowledge/inference.md": LIVING_DOC + "\n- 维护者的改动。\n"},
                          "sam: edit", name="Sam", email="sam@example.org")
    result = kbcheck(git_repo, "check", "--diff", "main", "--actor", "sam-lead", "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_actor_no_author_lists_is_unknown(git_repo: GitRepo) -> None:
    make_kb(git_repo, POLICY_WITH_LOGINS)
    writer_branch(git_repo)
    git_repo.commit_files({"inbox/tom/x.md": BRIEF}, "x", author="tom")
    result = kbcheck(git_repo, "check", "--diff", "main", "--actor", "mallory", "--format", "json")
    assert result.returncode == 1
    assert kb007(result) == [("inbox/tom/x.md", "author login mallory is not configured in .kbcheck.toml [authors]; "
                                                "add it or set allow-unknown-authors (the change main...HEAD adds "
                                                "inbox/tom/x.md)")]


def test_actor_needs_a_range(git_repo: GitRepo) -> None:
    make_kb(git_repo, POLICY_WITH_LOGINS)
    result = kbcheck(git_repo, "check", "--staged", "--actor", "tom-gh")
    assert result.returncode == 2
    assert "--actor judges the net change of a range: give it with --diff REV" in result.stderr


def test_an_empty_actor_is_a_usage_error(git_repo: GitRepo) -> None:
    """An unset forge variable must not turn into "nobody" silently."""
    make_kb(git_repo, POLICY_WITH_LOGINS)
    result = kbcheck(git_repo, "check", "--diff", "main", "--actor", " ")
    assert result.returncode == 2
    assert result.stderr == "kbcheck: error: --actor is empty: give the login of the pull request's author\n"


def test_a_long_s_is_not_an_s(git_repo: GitRepo) -> None:
    """`ſam@example.org` case-folds to `sam@example.org`, the maintainer's address: it must not be his."""
    make_kb(git_repo)
    writer_branch(git_repo)
    git_repo.commit_files({"organized/knowledge/inference.md": LIVING_DOC + "\n- 长 s 的改动。\n"},
                          "edit", name="Sam", email="\u017fam@example.org")
    result = kbcheck(git_repo, "check", "--diff", "main", "--format", "json")
    assert result.returncode == 1, result.stdout + result.stderr
    (path, message), = kb007(result)
    assert path == "organized/knowledge/inference.md"
    assert message.startswith("author \u017fam@example.org is not configured in .kbcheck.toml [authors]")


def test_emails_match_after_nfc_and_ascii_case(git_repo: GitRepo) -> None:
    """Must not fire: a decomposed `ë` is the same address, and so is upper-case ASCII."""
    make_kb(git_repo, POLICY_WITH_LOGINS)
    writer_branch(git_repo)
    git_repo.commit_files({"inbox/zoe/a.md": "# zoë\n"}, "zoë", name="Zoë", email="zoe\u0308@Example.org")
    git_repo.commit_files({"inbox/tom/a.md": BRIEF}, "tom", name="Tom", email="Tom@EXAMPLE.org")
    result = kbcheck(git_repo, "check", "--diff", "main", "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr


# -- 5. a piped hook ------------------------------------------------------------------------------
def many_writes_outside(git_repo: GitRepo) -> None:
    """Enough findings that their report overflows a pipe's buffer (64 KiB on Linux)."""
    git_repo.write_many({f"organized/knowledge/notes/第{i:04d}节.md": f"# {i}\n" for i in range(1200)})
    git_repo.stage()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for pipefail")
def test_exit_status_survives_a_closed_pipe(git_repo: GitRepo) -> None:
    make_kb(git_repo)
    many_writes_outside(git_repo)
    script = f"set -o pipefail; {sys.executable} -m kbcheck check --staged | head -1"
    result = subprocess.run(["bash", "-c", script], cwd=git_repo.path, capture_output=True, text=True,
                            env={**git_repo.env, "KBCHECK_AUTHOR": "tom"}, check=False)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count("\n") == 1 and "KB007" in result.stdout
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


def test_a_closed_pipe_after_a_clean_run_stays_clean(git_repo: GitRepo) -> None:
    """Must not fire: nothing to report, the reader gone early, status 0."""
    make_kb(git_repo)
    git_repo.write("inbox/tom/x.md", BRIEF)
    git_repo.stage()
    script = f"set -o pipefail; {sys.executable} -m kbcheck check --staged | head -c 0"
    result = subprocess.run(["bash", "-c", script], cwd=git_repo.path, capture_output=True, text=True,
                            env={**git_repo.env, "KBCHECK_AUTHOR": "tom"}, check=False)
    assert result.returncode == 0, result.stderr


def test_a_piped_commit_through_the_shell_hook_is_blocked(git_repo: GitRepo) -> None:
    make_kb(git_repo)
    hook = git_repo.path / ".git" / "hooks" / "pre-commit"
    shutil.copy(PLAIN_HOOK, hook)
    hook.chmod(0o755)
    git_repo.git("config", "kbcheck.author", "tom")
    many_writes_outside(git_repo)
    before = git_repo.head()
    path = os.pathsep.join([str(Path(sys.executable).parent), git_repo.env["PATH"]])
    result = subprocess.run(["sh", "-c", "git commit -q -m 'tom: notes' 2>&1 | head -1"], cwd=git_repo.path,
                            capture_output=True, text=True, env={**git_repo.env, "PATH": path}, check=False)
    assert "KB007" in result.stdout
    assert git_repo.head() == before, "the commit went in"


def test_a_trusted_config_file_outside_the_repository_is_read_as_the_working_trees_is(
        git_repo: GitRepo, tmp_path: Path) -> None:
    """A `--config` outside the repository is the operator's own: the policy reads it with the
    limits `load_config` reads it with, so a FIFO is refused at once rather than waited on."""
    from kbcheck import git
    from kbcheck.errors import ConfigError
    from kbcheck.policy import config_at

    git_repo.commit_files({"notes.md": "# n\n"}, "kb")
    repo = git.open_repository(git_repo.path)
    outside = tmp_path / "outside.toml"
    outside.write_text('lang = "en"\n', encoding="utf-8")
    assert config_at(repo, "HEAD", str(outside)).lang == "en"
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="is not a regular file"):
        config_at(repo, "HEAD", str(fifo))
