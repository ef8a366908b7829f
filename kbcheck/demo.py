"""`kbcheck demo`: one writer's session on the bundled example knowledge base.

A new user should see in a minute what kbcheck is for: the hook blocking a
commit that writes outside the author's inbox and adds an unsourced trend
line, the same commit passing once it is fixed, the findings of the whole
knowledge base, and the digest. Everything happens in a temporary git
repository that is removed at the end; the current directory is never
written to.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from kbcheck.errors import KbcheckError
from kbcheck.i18n import _

#: a file that only the example's root has (the check that we found the right folder)
EXAMPLE_MARKER = ".kbcheck.toml"
#: where the package keeps the example knowledge base
EXAMPLE_FOLDER = "example-kb"

LIVING_DOCUMENT = "organized/knowledge/inference.md"
JAY_BRIEF = "inbox/jay/2026-10-29-1105-engineering-brief.md"
TOM_BRIEF = "inbox/tom/2026-10-30-inference-e1prep.md"
REC_CARD = "organized/repo_cards/4572-recursive-oss-rec.md"
SUGGESTED_CARD = "organized/paper_cards/1695-2610-02076.md"

#: name and email of each person the demo plays; they match the example's .kbcheck.toml
IDENTITIES = {"lead": ("lead", "lead@example.org"), "tom": ("Tom", "tom@example.org")}

#: git variables a surrounding hook or CI job may set; they would point git elsewhere
_GIT_LOCATION_VARIABLES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_PREFIX", "GIT_COMMON_DIR",
)

NEW_BRIEF = """\
# inference · E1 预消化简报(2026-10-30)

- 作者：Tom · E1 日间预消化轮(inference)
- 对照活文档：organized/knowledge/inference.md

## 复查项：recursive-oss/rec 计数刷新

来源：organized/repo_cards/4572-recursive-oss-rec.md

活文档 §1.6 仍写"243⭐"，卡片现为 245⭐ / 周增 +14。只需更新数字，不是新观点。

## 建议：给 §6.2 的两条无源趋势行补出处

- "二次检索是否触发"一行补 arXiv:2610.37358。
- "图像 token 预算"一行补 arXiv:2610.12307。
"""

#: what tom slips into jay's brief by mistake
JAY_EDIT = "- （tom 补充）同一结论已写进 inbox/tom/2026-10-29-evaluation-e1prep.md。\n"

#: the trend line tom adds to the living document, with no source
UNSOURCED_TREND = "- 同作者教学仓的热度正从推理原理单点迁向全栈课程（LLM 知识供给的结构性迁移）。\n"


def example_root() -> Path:
    """The example knowledge base shipped inside the package (`kbcheck/example-kb/`).

    It is a copy of `examples/knowledge-base/`, kept identical by a test; a
    folder name that is no Python identifier makes it package data, not a package.
    """
    candidate = Path(__file__).resolve().parent / EXAMPLE_FOLDER
    if (candidate / EXAMPLE_MARKER).is_file() and (candidate / "organized").is_dir():
        return candidate
    raise KbcheckError(_("the example knowledge base is not installed with this copy of kbcheck"))


def run_demo(out: TextIO = sys.stdout) -> int:
    """Play the demo on a temporary copy of the example; 0 when every step went as intended."""
    try:
        source = example_root()
    except KbcheckError as exc:
        print(f"kbcheck demo: {exc}", file=out)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="kbcheck-demo-"))
    try:
        return _Session(workdir / "knowledge-base", out).play(source)
    except (KbcheckError, OSError) as exc:
        print(f"kbcheck demo: {exc}", file=out)
        return 2
    finally:
        _remove_tree(workdir)


def _remove_tree(path: Path) -> None:
    """Remove the temporary repository, read-only git objects included (Windows)."""

    def make_writable(function: Callable[..., Any], name: str, *_: Any) -> None:
        try:
            os.chmod(name, 0o700)
            function(name)
        except OSError:
            pass  # leave it to the system's temp cleaning rather than fail the demo

    if sys.version_info >= (3, 12):
        shutil.rmtree(path, onexc=make_writable)
    else:
        shutil.rmtree(path, onerror=make_writable)


class _Session:
    """The temporary repository and the narration printed while playing in it."""

    def __init__(self, root: Path, out: TextIO) -> None:
        self.root = root
        self.out = out
        self.step_number = 0
        self.surprises: list[str] = []

    # -- narration -------------------------------------------------------------
    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def step(self, title: str, *explanation: str) -> None:
        self.step_number += 1
        self.say()
        self.say(f"== {self.step_number}. {title} ==")
        for line in explanation:
            self.say(line)

    def expect(self, status: int, wanted: int, what: str) -> None:
        if status != wanted:
            self.surprises.append(f"{what}: exit status {status}, expected {wanted}")

    # -- git and kbcheck -------------------------------------------------------
    def git(self, *args: str, who: str = "lead") -> str:
        """Run git in the demo repository as `who`, ignoring the user's git configuration."""
        name, email = IDENTITIES[who]
        env = {key: value for key, value in os.environ.items() if key not in _GIT_LOCATION_VARIABLES}
        env.update({
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
            "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
            "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
        })
        try:
            result = subprocess.run(["git", *args], cwd=self.root, env=env, capture_output=True, text=True, check=False)
        except FileNotFoundError as exc:
            raise KbcheckError(_("the demo needs git on PATH")) from exc
        if result.returncode != 0:
            reason = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise KbcheckError(_("git {command} failed in the demo repository: {reason}", command=args[0], reason=reason))
        return result.stdout

    def shell(self, line: str) -> None:
        """Show a command the way a user would type it."""
        self.say(f"$ {line}")

    def kbcheck(self, argv: Sequence[str], command: Callable[[TextIO], int]) -> int:
        """Show `kbcheck ARGV` as typed, then run `command`, that same command, in-process with the
        demo repository as the current directory, its output and errors both in the narration."""
        from kbcheck.commands import run_command

        self.shell("kbcheck " + " ".join(argv))
        previous = os.getcwd()
        os.chdir(self.root)
        try:
            status = run_command(lambda: command(self.out), self.out, self.out)
        finally:
            os.chdir(previous)
        self.say(f"(exit status {status})")
        return status

    def commit(self, message: str, who: str) -> None:
        self.git("commit", "-q", "--no-verify", "-m", message, who=who)

    # -- the story -------------------------------------------------------------
    def play(self, source: Path) -> int:
        self.root.parent.mkdir(parents=True, exist_ok=True)
        # the installed example may hold the README that keeps its package discoverable
        shutil.copytree(source, self.root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "README"))
        self.setup_repository()
        self.blocked_commit()
        self.fixed_commit()
        self.whole_knowledge_base()
        self.suggest()
        self.digest()
        self.say()
        if self.surprises:
            self.say("The demo did not go as intended:")
            for surprise in self.surprises:
                self.say(f"  - {surprise}")
            return 1
        self.say("Done (the temporary repository is removed now). To start on your own knowledge")
        self.say("base, run `kbcheck init` there; kbcheck's README shows the pre-commit and CI set-up.")
        return 0

    def setup_repository(self) -> None:
        self.say("kbcheck demo: a sample research knowledge base (paper cards, repo cards, guides,")
        self.say("per-author inbox briefs and a Chinese living document) in a temporary git repository:")
        self.say(f"  {self.root}")
        self.step(
            "The maintainer commits the knowledge base",
            "lead (role maintainer, may write anywhere) commits it; tom and jay are writers and may",
            "write only inbox/tom/** and inbox/jay/** (see .kbcheck.toml).",
        )
        self.git("-c", "init.defaultBranch=main", "init", "-q")
        for key, value in (("user.name", IDENTITIES["lead"][0]), ("user.email", IDENTITIES["lead"][1]),
                           ("commit.gpgsign", "false")):
            self.git("config", key, value)
        self.git("add", "-A")
        self.commit("Knowledge base as of 2026-10-29", who="lead")
        files = self.git("ls-files").splitlines()
        self.say(f"{len(files)} files committed, among them {LIVING_DOCUMENT} (the living document).")
        self.say()
        self.say("The knowledge base already has problems. The maintainer accepts them as the")
        self.say("baseline, so that commits are judged only on what they add:")
        self.expect(self.kbcheck(["baseline", "update"], _baseline_update), 0, "kbcheck baseline update")
        self.git("add", "-A")
        self.commit("Record the kbcheck baseline", who="lead")

    def blocked_commit(self) -> None:
        self.step(
            "tom prepares a commit",
            f"tom writes his new brief {TOM_BRIEF}, and, by mistake, also",
            f"appends a line to jay's brief {JAY_BRIEF} and adds a trend line",
            f"with no source to §6.2 of {LIVING_DOCUMENT}:",
        )
        (self.root / TOM_BRIEF).write_text(NEW_BRIEF, encoding="utf-8")
        with (self.root / JAY_BRIEF).open("a", encoding="utf-8") as jay:
            jay.write(JAY_EDIT)
        living = self.root / LIVING_DOCUMENT
        text = living.read_text(encoding="utf-8")
        marker = "\n## §七"
        if marker not in text:
            raise KbcheckError(_("the example's {path} has no reference section to insert before", path=LIVING_DOCUMENT))
        living.write_text(text.replace(marker, UNSOURCED_TREND + marker, 1), encoding="utf-8")
        self.shell("git add -A")
        self.git("add", "-A")
        self.shell("git status --short")
        self.say(self.git("status", "--short").rstrip())
        self.step(
            "The pre-commit hook runs and blocks the commit",
            "In tom's clone the hook runs `kbcheck check --staged`; tom is identified by --author,",
            "KBCHECK_AUTHOR, `git config kbcheck.author` or his commit email.",
        )
        status = self.kbcheck(["check", "--staged", "--author", "tom"], _check(mode="staged", author="tom"))
        self.expect(status, 1, "the hook on tom's first attempt")
        self.say("-> Blocked. KB007: a writer may write only his own inbox. KB001: a trend line")
        self.say("   must cite the paper, repo or card it rests on.")

    def fixed_commit(self) -> None:
        self.step(
            "tom keeps only his own brief and commits again",
            "He restores jay's brief and the living document; proposing the trend line is the",
            "maintainer's call, so he suggests it in his brief instead.",
        )
        self.shell(f"git checkout HEAD -- {JAY_BRIEF} {LIVING_DOCUMENT}")
        self.git("checkout", "HEAD", "--", JAY_BRIEF, LIVING_DOCUMENT)
        status = self.kbcheck(["check", "--staged", "--author", "tom"], _check(mode="staged", author="tom"))
        self.expect(status, 0, "the hook on tom's second attempt")
        if status == 0:
            self.commit("inference: E1 brief 2026-10-30", who="tom")
            self.say("-> Accepted: the commit is recorded as tom's.")

    def whole_knowledge_base(self) -> None:
        self.step(
            "The whole knowledge base, as CI and the maintainer see it",
            "Every finding in every file, those the baseline accepted included: trend lines with no source (KB001),",
            "references the body never discusses (KB002), a star count gone stale (KB006),",
            "numbers that no cited card contains (KB005). This is the maintainer's to-do list;",
            "[*] marks what `kbcheck check --fix` would fix.",
        )
        status = self.kbcheck(["check", "--all", "--no-baseline"], _check(mode="all", baseline=False))
        self.expect(status, 1, "kbcheck check --all (the example has two unsourced trend lines)")

    def suggest(self) -> None:
        self.step(
            "Where does a paper belong?",
            f"The reference list of {LIVING_DOCUMENT} cites LLM-as-Jev, but no section discusses it.",
            "kbcheck ranks the sections it most likely belongs to, with the evidence for each:",
        )
        self.expect(self.kbcheck(["suggest", SUGGESTED_CARD, "--top", "2"], _suggest(SUGGESTED_CARD, top=2)), 0,
                    "kbcheck suggest")

    def digest(self) -> None:
        self.step(
            "Overnight, the collector refreshes a repo card",
            f"It runs as the maintainer and moves the counts of {REC_CARD}:",
            "stars 245 -> 251, weekly_growth 14 -> 17. A refresh, not new material.",
        )
        card = self.root / REC_CARD
        text = card.read_text(encoding="utf-8")
        for old, new in (("stars: 245", "stars: 251"), ("weekly_growth: 14", "weekly_growth: 17")):
            if old not in text:
                raise KbcheckError(_("the example's {path} has no `{old}` to refresh", path=REC_CARD, old=old))
            text = text.replace(old, new, 1)
        card.write_text(text, encoding="utf-8")
        self.git("add", "-A")
        self.commit("Refresh repo card counts", who="lead")
        self.step(
            "The digest: what changed since the baseline",
            "Which changes are real increments and which are refreshes, and how each relates",
            "to the living document (this knowledge base's default language is zh; --lang en here).",
        )
        self.expect(self.kbcheck(["digest", "--lang", "en"], _digest(lang="en")), 0, "kbcheck digest")


# -- the commands the story runs, each as its command line would run it ---------
def _baseline_update(out: TextIO) -> int:
    from kbcheck.commands.baseline import run_baseline_update

    return run_baseline_update("HEAD", None, out, out)


def _check(*, mode: str, author: str | None = None, baseline: bool | None = None) -> Callable[[TextIO], int]:
    def command(out: TextIO) -> int:
        from kbcheck.commands.check import CheckOptions, run_check

        return run_check(CheckOptions(mode=mode, author=author, baseline=baseline), out, out)

    return command


def _suggest(path: str, *, top: int) -> Callable[[TextIO], int]:
    def command(out: TextIO) -> int:
        from kbcheck.commands.suggest import SuggestOptions, run_suggest

        return run_suggest(SuggestOptions(paths=(path,), top=top), out, out)

    return command


def _digest(*, lang: str) -> Callable[[TextIO], int]:
    def command(out: TextIO) -> int:
        from kbcheck.commands.digest import DigestOptions, run_digest

        return run_digest(DigestOptions(lang=lang), out, out)

    return command
