"""The docs say what the code does: generated parts are current, JSON outputs match their schemas.

`docs/generate.py` writes `docs/rules.md` from the rule docstrings, the key reference of
`docs/configuration.md` from the configuration's descriptions, and the import graph of
`docs/architecture.md`. The JSON Schemas under `docs/schemas/` are checked against real
outputs on the example knowledge base and against the examples `docs/output.md` shows.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from gitrepo import GitRepo
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from kbcheck.cli import main
from kbcheck.config import DEFAULTS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCHEMAS = DOCS / "schemas"
EXAMPLE = ROOT / "examples" / "knowledge-base"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kbcheck_docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def validator(name: str) -> Draft202012Validator:
    """The schema `name` (e.g. "check"), with the other schemas resolvable by their ids."""
    schemas = {path.name: json.loads(path.read_text(encoding="utf-8")) for path in SCHEMAS.glob("*.schema.json")}
    registry: Registry[Any] = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    return Draft202012Validator(schemas[f"{name}.schema.json"], registry=registry)


def errors(name: str, instance: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator(name).iter_errors(instance)]


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out=out, err=err)
    assert status in (0, 1), err.getvalue()
    return status, out.getvalue()


@pytest.fixture
def example(git_repo: GitRepo) -> GitRepo:
    """The example knowledge base added in one commit on top of an empty one."""
    git_repo.git("commit", "--allow-empty", "-q", "-m", "start")
    shutil.copytree(EXAMPLE, git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    return git_repo


# -- generated docs ---------------------------------------------------------------------------
def test_generated_docs_are_current() -> None:
    assert generator().stale() == [], "run: python docs/generate.py"


def test_rules_md_holds_every_rule_docstring() -> None:
    from kbcheck.rules import all_rules

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for rule in all_rules().values():
        assert f"## {rule.id} {rule.name}\n" in text
        assert rule.doc in text


def test_configuration_md_describes_every_key() -> None:
    from kbcheck.config import _COMMENTS

    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    for key in DEFAULTS:
        if key in ("roles", "authors", "rules"):
            assert f"[{key}" in text
            continue
        assert f"### `{key}`\n\n{_COMMENTS[key][0].upper()}{_COMMENTS[key][1:]}." in text


def test_the_import_graph_has_no_cycle() -> None:
    gen = generator()
    modules = gen.module_imports()
    assert gen.cycles(modules) == []
    # nor between packages (model and store, say), counting the rule modules the registry loads by name
    assert gen.cycles(gen.import_graph(modules)) == []
    assert ("kbcheck.rules", "kbcheck.rules.kb007_write_outside_inbox", "lazy") in {
        (e.source, e.target, e.how) for e in modules}
    assert gen.architecture_graph().count("- none") == 2
    # an import only for types is not counted: the rules name the configuration only in annotations
    assert ("kbcheck.rules.base", "kbcheck.config", "types") in {(e.source, e.target, e.how) for e in modules}


def test_a_cycle_would_be_found_and_named() -> None:
    gen = generator()
    edges = [gen.Edge("kbcheck.a", "kbcheck.b", "top"), gen.Edge("kbcheck.b", "kbcheck.a", "lazy"),
             gen.Edge("kbcheck.b", "kbcheck.c", "top"), gen.Edge("kbcheck.c", "kbcheck.b", "types")]
    assert gen.cycles(edges) == [["kbcheck.a", "kbcheck.b"]]
    # at package level: a module reaching into a package that reaches back into it
    across = [gen.Edge("kbcheck.model.knowledge_base", "kbcheck.store", "top"),
              gen.Edge("kbcheck.store", "kbcheck.model.cards", "top")]
    assert gen.cycles(across) == []
    assert gen.cycles(gen.import_graph(across)) == [["model", "store"]]


# -- schemas ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.schema.json")), ids=lambda p: p.name)
def test_each_schema_is_a_valid_schema(path: Path) -> None:
    Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_check_json_on_the_example_matches_its_schema(example: GitRepo) -> None:
    status, out = run("check", "--all", "--format", "json", "--no-cache")
    report = json.loads(out)
    assert status == 1 and len(report["findings"]) == 11
    assert errors("check", report) == []


def test_digest_json_on_the_example_matches_its_schema(example: GitRepo) -> None:
    base = example.git("rev-list", "--max-parents=0", "HEAD").strip()
    _, out = run("digest", "--since", base, "--format", "json")
    digest = json.loads(out)
    # the 2016 paper collected in 2026 is a back-filled review item, not an increment
    assert digest["counts"] == {"increment": 13, "review": 7, "living-doc": 1}
    assert errors("digest", digest) == []


def test_the_baseline_file_matches_its_schema(example: GitRepo) -> None:
    run("baseline", "update")
    baseline = json.loads((example.path / ".kbcheck" / "baseline.json").read_text(encoding="utf-8"))
    assert len(baseline["fingerprints"]) == 11
    assert errors("baseline", baseline) == []


def test_the_schemas_refuse_what_is_not_their_shape() -> None:
    finding = {"rule": "KB005", "name": "unverified-number", "severity": "note", "path": "a.md", "line": 0,
               "column": 1, "end_line": 1, "message": "m", "subject": "2.7x", "fingerprint": "0" * 32,
               "fix": None}
    found = errors("check", {"version": 1, "findings": [finding], "summary": {"files": 1, "errors": 0,
                                                                              "warnings": 1, "suppressed": 0}})
    assert sorted(found) == ["['findings', 0, 'line']: 0 is less than the minimum of 1",
                             "['findings', 0, 'severity']: 'note' is not one of ['error', 'warning']"]
    assert errors("suggest", {"version": 1, "items": [{"path": "a.md", "suggestions": [{"living_doc": "k.md"}]}]})
    assert errors("baseline", {"commit": "HEAD", "date": "2026-10-29", "fingerprints": []})


def test_the_json_examples_of_output_md_match_the_schemas() -> None:
    text = (DOCS / "output.md").read_text(encoding="utf-8")
    blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]
    assert len(blocks) == 4
    check, digest, suggest, baseline = blocks
    assert errors("check", check) == []
    digest["base"] = digest["head"] = "0" * 40  # the example writes <sha>
    assert errors("digest", digest) == []
    assert errors("suggest", suggest) == []
    assert errors("baseline", baseline) == []
