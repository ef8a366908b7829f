"""What a rule is: an id, a name, a default severity, its docs, and a check.

A rule is data in, findings out: it reads the knowledge-base model and yields
`Problem`s. No printing, no git, no configuration changes.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from kbcheck.findings import Problem, Severity

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Change
    from kbcheck.model.knowledge_base import KbFile, KnowledgeBase

#: a check over one file of the knowledge base
FileCheck = Callable[["KbFile", "KnowledgeBase", "Config"], Iterator[Problem]]
#: a check over the changed paths of a run (KB007)
ChangeCheck = Callable[[list["Change"], "Config"], Iterator[Problem]]


@dataclass(frozen=True)
class Option:
    """A per-rule option (`[rules.KBnnn]` in the configuration): a list of names from `choices`."""

    default: tuple[str, ...]
    choices: tuple[str, ...]
    #: one line for the commented option `kbcheck init` writes
    doc: str


@dataclass(frozen=True)
class Rule:
    """One rule, described by its module (yamllint style)."""

    id: str
    name: str
    severity: Severity
    #: file kinds it looks at: "knowledge", "paper_card", "repo_card", "guide", "brief"
    kinds: frozenset[str]
    doc: str
    summary: str
    check_file: FileCheck | None = None
    check_changes: ChangeCheck | None = None
    #: severity by file kind where it differs from `severity` (KB004 in briefs)
    severity_by_kind: tuple[tuple[str, Severity], ...] = ()
    #: its options by name, declared in its module as `OPTIONS` (yamllint style), with their defaults
    options: tuple[tuple[str, Option], ...] = ()

    def default_severity(self, kind: str | None) -> Severity:
        """The rule's own severity for a file of this kind."""
        for k, sev in self.severity_by_kind:
            if k == kind:
                return sev
        return self.severity

    @classmethod
    def from_module(cls, module: ModuleType) -> Rule:
        """Build a rule from a module's ID, NAME, SEVERITY, KINDS, docstring, check()."""
        doc = inspect.cleandoc(module.__doc__ or "")
        return cls(
            id=module.ID,
            name=module.NAME,
            severity=module.SEVERITY,
            kinds=frozenset(getattr(module, "KINDS", ())),
            doc=doc,
            summary=doc.splitlines()[0] if doc else module.NAME,
            check_file=getattr(module, "check", None),
            check_changes=getattr(module, "check_changes", None),
            severity_by_kind=tuple(getattr(module, "SEVERITY_BY_KIND", {}).items()),
            options=tuple(getattr(module, "OPTIONS", {}).items()),
        )
