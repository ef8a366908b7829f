"""Small knowledge bases for rule tests: files in memory, checked through the real engine."""

from __future__ import annotations

import hashlib
import io
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from kbcheck.cli import main
from kbcheck.config import Config
from kbcheck.engine import RunOptions, check
from kbcheck.findings import Report
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.sources import Snapshot


class MemorySnapshot(Snapshot):
    """A snapshot whose files live in a dict (rules never touch git)."""

    def __init__(self, files: dict[str, str | bytes]) -> None:
        super().__init__(Path("."))
        self.files = {p: (c.encode("utf-8") if isinstance(c, str) else c) for p, c in files.items()}

    def _entries(self) -> list[str]:
        return list(self.files)

    def paths(self) -> list[str]:
        return sorted(self.files)

    def blob_id(self, path: str) -> str | None:
        data = self.files.get(path)
        if data is None:
            return None
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()

    def read(self, path: str) -> bytes | None:
        return self.files.get(path)


@dataclass
class FakeSelection:
    snapshot: MemorySnapshot
    paths: list[str]
    changes: list[object] = field(default_factory=list)
    added_lines: dict[str, set[int]] | None = None
    mode: str = "paths"


def md(text: str) -> str:
    """Dedent a fixture written inline in a test."""
    return textwrap.dedent(text).lstrip("\n")


def paper_card(arxiv: str, title: str = "A paper", body: str = "", **fields: object) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f'---\narxiv: "{arxiv}"\ntitle: "{title}"\n{extra}---\n{body}\n'


def repo_card(repo: str, body: str = "", **fields: object) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\nrepo: {repo}\n{extra}---\n{body}\n"


def mapping(knowledge: list[str], guides: list[str], extra: str = "") -> str:
    """A `.kbcheck.toml` that maps living documents and guides and sets every other kind to nothing
    (a collection outside the default layout); `extra` adds lines (a heading pattern)."""
    def globs(values: list[str]) -> str:
        return "[" + ", ".join(f'"{v}"' for v in values) + "]"

    return (f"knowledge = {globs(knowledge)}\n{extra}paper-cards = []\nrepo-cards = []\nbriefs = []\n"
            f"manifests = []\nguides = {globs(guides)}\n")


def run(files: dict[str, str | bytes], paths: list[str] | None = None, config: Config | None = None,
        select: set[str] | None = None, filter: str = "file") -> Report:
    """Check `paths` (default: every file) of an in-memory knowledge base."""
    config = config or Config()
    snapshot = MemorySnapshot(files)
    kb = KnowledgeBase(snapshot, config)  # type: ignore[arg-type]
    selection = FakeSelection(snapshot, paths if paths is not None else snapshot.paths())
    options = RunOptions(filter=filter, select=frozenset(select) if select else None)
    return check(kb, config, selection, options)  # type: ignore[arg-type]


def found(report: Report, rule: str | None = None) -> list[tuple[str, str, int, str]]:
    """(rule, path, line, subject) of each finding, optionally of one rule."""
    return [(f.rule, f.path, f.line, f.subject) for f in report.findings if rule is None or f.rule == rule]


def run_cli(*argv: str) -> tuple[int, str, str]:
    """`kbcheck ARGV` in this process: its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out=out, err=err)
    return status, out.getvalue(), err.getvalue()
