"""Findings are data: immutable, 1-based, with a line-free fingerprint.

A rule yields `Problem`s (where and what); the engine stamps them with the
rule's id, name and effective severity and turns them into `Finding`s.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args

from kbcheck.printable import printable_data

Severity = Literal["error", "warning"]
#: the severities, most severe first
SEVERITIES: tuple[str, ...] = get_args(Severity)


@dataclass(frozen=True, slots=True)
class Edit:
    """A fix as data: at (line, column) of the checked file, `original` becomes `replacement`.

    Lines and columns are 1-based and count characters of the file's text as
    rules see it (`\\n` line ends, no BOM). An empty `original` inserts; a line
    break in `replacement` is written as the file's own line end there, and one ending `original`
    stands for the line's end (the edit removes the line). The
    fixer applies it only where the file still reads `original` there, so it
    never needs to know the rule that made it. `description` says what it
    does, for the formats that show fixes (`docs/output.md`).
    """

    line: int
    column: int
    original: str
    replacement: str
    description: str = ""

    @property
    def end_column(self) -> int:
        """The column just after the characters it replaces (its own column for an insertion)."""
        return self.column + len(self.original)


class Facts:
    """What a rule found, as typed fields (ruff's violations): the digest, the fixes and JSON's
    `data` read these, never the message, which `message()` says from them.

    Each rule declares its own frozen dataclass of facts beside its check. A
    cached problem names its kind by class name (`kinds`), so the names are
    unique across rules.
    """

    __slots__ = ()
    #: every kind of facts by class name, for reading cached problems back (`kbcheck.model.plain`)
    kinds: ClassVar[dict[str, type[Facts]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Facts.kinds[cls.__name__] = cls

    def message(self) -> str:
        """The message, built as a `kbcheck.i18n.Text` so that an output says it in its language."""
        raise NotImplementedError

    def related(self, path: str) -> tuple[tuple[str, int], ...]:
        """The other places (path, line) this one finding stands for, with `path` its own file:
        SARIF's related locations (`docs/output.md`); none by default."""
        return ()

    def data(self) -> dict[str, object]:
        """The fields as JSON data (`data` of a finding in `docs/output.md`)."""
        return {field.name: _json_value(getattr(self, field.name))
                for field in dataclasses.fields(self)}  # type: ignore[arg-type]  # subclasses are dataclasses


def _json_value(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class Problem:
    """What a rule reports: a place and its facts (or a plain message), before the engine stamps it.

    With `facts`, the message is said from them: a rule gives no `message`.
    """

    path: str
    line: int
    column: int
    message: str = ""
    subject: str = ""
    end_line: int | None = None
    #: about the whole file (KB008): kept by `--filter added` for touched files
    file_level: bool = False
    #: the provably safe change that resolves it (`kbcheck check --fix`), if there is one
    fix: Edit | None = None
    #: the rule's typed fields; None for a rule that says only a message
    facts: Facts | None = None

    def __post_init__(self) -> None:
        if self.facts is not None:  # said anew from the facts, also when read back from the cache
            object.__setattr__(self, "message", self.facts.message())


@dataclass(frozen=True, slots=True)
class Finding:
    """One reported problem, as every output format sees it."""

    rule: str
    name: str
    severity: Severity
    path: str
    line: int
    column: int
    end_line: int
    message: str
    subject: str
    fingerprint: str
    file_level: bool = False
    fix: Edit | None = None
    #: the rule's typed fields (`Facts`), None for a rule that says only a message
    facts: Facts | None = None

    def to_json(self) -> dict[str, object]:
        """The JSON shape of one finding (`docs/output.md`): `data` only when the rule gives facts."""
        shape: dict[str, object] = {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "message": self.message,
            "subject": self.subject,
            "fingerprint": self.fingerprint,
        }
        if self.facts is not None:
            shape["data"] = printable_data(self.facts.data())  # valid UTF-8 like every other field
        return shape


def fingerprint(rule: str, path: str, subject: str, occurrence: int, context: str = "") -> str:
    """A finding's identity without its line number (as detect-secrets does).

    `context` is a digest of the finding's line text (`line_context`), so a
    new line repeating an old finding's subject is another finding;
    `occurrence` counts earlier findings with the same rule, path, subject
    and context in the same file, so two identical lines stay distinct while
    unrelated lines moving around changes nothing. Without a context it is
    the identity baselines were written with before (`kbcheck.accepted`).
    """
    parts = (rule, path, subject, str(occurrence)) + ((context,) if context else ())
    key = "\0".join(parts)
    # a file name that is not UTF-8 holds its bytes as surrogates: they are hashed as those bytes
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def line_context(text: str) -> str:
    """A short digest of a line's text, blanks collapsed: the context of a finding's fingerprint."""
    collapsed = " ".join(text.split())
    return hashlib.sha256(collapsed.encode("utf-8", "surrogateescape")).hexdigest()[:16] if collapsed else ""




def sort_key(finding: Finding) -> tuple[str, int, int, str]:
    """Stable report order: by file, line, column, rule."""
    return (finding.path, finding.line, finding.column, finding.rule)


@dataclass(frozen=True)
class Report:
    """The outcome of one `check` run, handed to a reporter."""

    findings: tuple[Finding, ...]
    #: how many files the run selected and checked, with the changed paths a change rule found a problem in
    files: int
    #: findings dropped by inline comments, config ignores or the baseline
    suppressed: int = 0
    #: one-line notices (a skipped binary file, a missing card): shown on stderr by text
    notices: tuple[str, ...] = ()

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")
