"""Each rule's docstring examples, run: every **Fires** block yields the rule, every **Passes** block does not.

The docstring is the rule's user documentation (`kbcheck explain`, `docs/rules.md`), so
its examples are held to what the rule does. The convention, kept readable:

- an indented block after a paragraph starting **Fires** or **Passes** is one example;
  several blocks under one label (with prose between them) are several examples;
- a path in backticks in that paragraph (as in: **Fires:** `organized/paper_cards/x.md`
  says) is where the example is written; by default `organized/knowledge/example.md`;
- an indented block after a paragraph starting **Given** and naming a path in backticks
  is a file every example of the rule needs, committed before the example is staged.

Each example runs in a real repository: the given files committed, the example staged,
then `kbcheck check --staged --select RULE`.
"""

from __future__ import annotations

import io
import json
import re
import textwrap
from dataclasses import dataclass

import pytest
from gitrepo import GitRepo

from kbcheck.cli import main
from kbcheck.rules import all_rules

DEFAULT_PATH = "organized/knowledge/example.md"
_LABEL = re.compile(r"\*\*(Given|Fires|Passes)\b")
_PATH = re.compile(r"`([^`\s]*[/.][^`\s]*)`")


@dataclass(frozen=True)
class Example:
    rule: str
    verdict: str  # "Fires" or "Passes"
    number: int
    path: str
    text: str
    given: tuple[tuple[str, str], ...]

    @property
    def name(self) -> str:
        return f"{self.rule}-{self.verdict.lower()}-{self.number}"


def examples_of(rule_id: str, doc: str) -> list[Example]:
    """The examples of one docstring, in order, each with the rule's given files."""
    found: list[tuple[str, str, str]] = []  # (label, path, text)
    given: list[tuple[str, str]] = []
    label, path = "", ""
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    "):
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i])
                i += 1
            text = textwrap.dedent("\n".join(block)).strip("\n") + "\n"
            if label == "Given":
                given.append((path, text))
            elif label:
                found.append((label, path or DEFAULT_PATH, text))
            continue
        labelled = _LABEL.match(line)
        if labelled:
            paragraph = [line]
            while i + 1 < len(lines) and lines[i + 1].strip() and not lines[i + 1].startswith("    "):
                i += 1
                paragraph.append(lines[i])
            label = labelled.group(1)
            named = _PATH.search(" ".join(paragraph))
            path = named.group(1) if named else ""
        elif line.startswith("**"):
            label, path = "", ""  # another section of the docstring: its blocks are not examples
        i += 1
    numbers: dict[str, int] = {}
    examples = []
    for verdict, where, text in found:
        numbers[verdict] = numbers.get(verdict, 0) + 1
        examples.append(Example(rule_id, verdict, numbers[verdict], where, text, tuple(given)))
    return examples


EXAMPLES = [example for rule in all_rules().values() for example in examples_of(rule.id, rule.doc)]


def test_every_rule_has_an_example_that_fires_and_one_that_passes() -> None:
    for rule_id in all_rules():
        verdicts = {e.verdict for e in EXAMPLES if e.rule == rule_id}
        assert verdicts == {"Fires", "Passes"}, rule_id


def test_the_convention_reads_given_files_paths_and_several_examples() -> None:
    doc = textwrap.dedent("""\
        Summary.

        **Given:** the card `organized/repo_cards/4572-a-b.md`:

            ---
            repo: a/b
            ---

        **Fires:** in `inbox/tom/x.md`:

            - a/b 12⭐

        **Passes:** the same with the value,

            - a/b 13⭐

        or quoted:

            - "12⭐"

        **How to fix.** Not an example:

            - ignored
        """)
    examples = examples_of("KB006", doc)
    assert [(e.verdict, e.number, e.path, e.text) for e in examples] == [
        ("Fires", 1, "inbox/tom/x.md", "- a/b 12⭐\n"),
        ("Passes", 1, DEFAULT_PATH, "- a/b 13⭐\n"),
        ("Passes", 2, DEFAULT_PATH, '- "12⭐"\n'),
    ]
    assert examples[0].given == (("organized/repo_cards/4572-a-b.md", "---\nrepo: a/b\n---\n"),)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_docstring_example(example: Example, git_repo: GitRepo) -> None:
    for path, text in example.given:
        git_repo.write(path, text)
    git_repo.git("add", "-A")
    git_repo.git("commit", "--allow-empty", "-q", "-m", "given")
    git_repo.write(example.path, example.text)
    git_repo.stage(example.path)
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", "--staged", "--select", example.rule, "--format", "json", "--no-cache", "--no-baseline"],
                  out=out, err=err)
    assert status in (0, 1), err.getvalue()
    findings = [(f["rule"], f["path"], f["line"], f["message"]) for f in json.loads(out.getvalue())["findings"]]
    mine = [f for f in findings if f[0] == example.rule and f[1] == example.path]
    if example.verdict == "Fires":
        assert mine, f"{example.name} should fire on:\n{example.text}"
    else:
        assert mine == [], f"{example.name} should pass on:\n{example.text}"
