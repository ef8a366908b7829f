"""The registry is the only list of rules: a new rule is one new module, and nothing else.

A throwaway `kb011_todo_left_in.py` is written into a temporary folder that
joins the `kbcheck.rules` package; without any other change it is accepted by
the configuration, listed by `kbcheck rules`, explained by `kbcheck explain`
and run by `kbcheck check`.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

import kbcheck.rules
from kbcheck.config import config_from_mapping
from kbcheck.errors import ConfigError
from kbcheck.rules import all_rules, forget_discovered, get_rule, rule_ids

THROWAWAY = '''\
"""A living document still holds a TODO.

**What it catches.** The word TODO anywhere in a living document.

**Fires:**

    - TODO 补上 §3 的对比

**Passes:**

    - §3 的对比见下表

**How to fix.** Finish the sentence.

**How to suppress.** `ignore = ["KB011"]`.
"""

from __future__ import annotations

from collections.abc import Iterator

from kbcheck.findings import Problem

ID = "KB011"
NAME = "todo-left-in"
SEVERITY = "warning"
KINDS = ("knowledge",)


def check(file, kb, config) -> Iterator[Problem]:
    for number, line in enumerate((kb.text(file.path) or "").splitlines(), 1):
        column = line.find("TODO")
        if column >= 0:
            yield Problem(path=file.path, line=number, column=column + 1,
                          message="a TODO is left in the document", subject="TODO")
'''


@pytest.fixture
def throwaway_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`kb011_todo_left_in.py` in a folder of the rules package, for this test only."""
    folder = tmp_path / "more_rules"
    folder.mkdir()
    (folder / "kb011_todo_left_in.py").write_text(THROWAWAY, encoding="utf-8")
    monkeypatch.setattr(kbcheck.rules, "__path__", [*kbcheck.rules.__path__, str(folder)])
    forget_discovered()
    yield
    monkeypatch.undo()
    sys.modules.pop("kbcheck.rules.kb011_todo_left_in", None)
    forget_discovered()


def test_the_package_holds_the_eleven_rules_in_id_order() -> None:
    assert rule_ids() == ("KB000", "KB001", "KB002", "KB003", "KB004", "KB005", "KB006", "KB007", "KB008", "KB009",
                          "KB010")
    assert list(all_rules()) == list(rule_ids())


def test_each_rule_module_is_named_after_its_id_and_name() -> None:
    for rule in all_rules().values():
        module = rule.check_file or rule.check_changes
        assert module is not None
        expected = f"kbcheck.rules.{rule.id.lower()}_{rule.name.replace('-', '_')}"
        assert module.__module__ == expected


def test_without_the_module_kb011_is_refused_with_the_nearest_id() -> None:
    with pytest.raises(ConfigError, match=r"unknown rule 'KB011' in 'ignore' in t.toml; did you mean 'KB010'\?"):
        config_from_mapping({"ignore": ["KB011"]}, "t.toml")


@pytest.mark.usefixtures("throwaway_rule")
def test_a_new_module_is_a_known_rule_id() -> None:
    assert rule_ids()[-1] == "KB011"
    assert get_rule("kb011").name == "todo-left-in"
    config = config_from_mapping(
        {"ignore": ["KB011"], "severity": {"KB011": "error"}, "per-file-ignores": {"inbox/**": ["KB011"]}}, "t.toml",
    )
    assert config.ignore == frozenset({"KB011"})
    assert config.severity == {"KB011": "error"}
    assert config.per_file_ignores == {"inbox/**": ("KB011",)}
    with pytest.raises(ConfigError, match=r"unknown rule 'KB012' in 'ignore' in t.toml; did you mean 'KB011'\?"):
        config_from_mapping({"ignore": ["KB012"]}, "t.toml")


@pytest.mark.usefixtures("throwaway_rule")
def test_kbcheck_rules_lists_it_and_explain_prints_its_docstring(git_repo: GitRepo) -> None:
    status, out, _ = run("rules")
    assert status == 0
    last = out.splitlines()[-1].split()
    assert last[:4] == ["KB011", "todo-left-in", "warning", "yes"]
    assert " ".join(last[4:]) == "A living document still holds a TODO."
    status, out, _ = run("explain", "KB011")
    assert status == 0
    assert out.startswith("KB011 todo-left-in (default severity: warning)\n\nA living document still holds a TODO.\n")


@pytest.mark.usefixtures("throwaway_rule")
def test_check_runs_it_and_ignore_turns_it_off(git_repo: GitRepo) -> None:
    git_repo.write("organized/knowledge/inference.md", textwrap.dedent("""\
        # 推理

        ## §3 对比
        - TODO 补上 §3 的对比
        """))
    git_repo.commit_all("doc")
    status, out, err = run("check", "--all", "--format", "json", "--no-cache")
    findings = [f for f in json.loads(out)["findings"] if f["rule"] == "KB011"]
    assert [(f["path"], f["line"], f["column"], f["message"], f["severity"]) for f in findings] == [
        ("organized/knowledge/inference.md", 4, 3, "a TODO is left in the document", "warning"),
    ]
    git_repo.write(".kbcheck.toml", 'ignore = ["KB011"]\n')
    status, out, err = run("check", "--all", "--format", "json", "--no-cache")
    assert status == 0, err
    assert [f for f in json.loads(out)["findings"] if f["rule"] == "KB011"] == []
    status, out, err = run("check", "--all", "--select", "KB011", "--format", "json", "--no-cache")
    assert status == 0, err
