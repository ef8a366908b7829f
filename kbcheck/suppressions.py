"""Disable comments you can trust: one naming an unknown rule, or suppressing nothing, is said so.

The comments come from the file's one parse (`kbcheck.model.disables`). One
that names a rule kbcheck does not have is a typo: the finding it meant to
hide is still reported, and the comment would otherwise sit there looking
like it works. With `--report-unused-disables`, a comment naming a rule that
ran on the file and found nothing it covers is reported too, as ESLint's
`--report-unused-disable-directives` and ruff's RUF100 do. Another tool's
comment (markdownlint's, Vale's) is said once per run with what to write
instead; a `kbcheck` comment in no known form is said with its place
(`docs/rules.md`, "Suppressing a finding").
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kbcheck.findings import Edit, Finding, Problem
from kbcheck.i18n import Text, _
from kbcheck.model.disables import ALL, ENABLE, Directive, UnreadComment
from kbcheck.printable import printable_message
from kbcheck.rules.kb010_unused_disable import CHANGE_RULE, ID, UNKNOWN, UNUSED, UselessDisable

#: the rule that reports disable comments that disable nothing
USELESS_DISABLE = ID

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.engine import Stamped
    from kbcheck.model.knowledge_base import KnowledgeBase

#: rules judged on the change, not on a file's text: a comment cannot disable them
CHANGE_RULES = ("KB007",)


def directives(kb: KnowledgeBase, path: str) -> tuple[list[Directive], list[UnreadComment]]:
    """The disable comments of a markdown file and those it cannot read, from its one parse."""
    from kbcheck.model.document import MARKDOWN_SUFFIXES

    if not path.lower().endswith(MARKDOWN_SUFFIXES) or kb.snapshot.blob_id(path) is None:
        return [], []
    if not kb.names_kbcheck(path):  # the common case, known without reading the file on a warm run
        return [], []
    doc = kb.document(path)
    if doc is None:
        return [], []
    return doc.directives, doc.unread_comments


def _unread_notice(path: str, comment: UnreadComment) -> Text:
    if comment.tool == "markdownlint":
        return _("kbcheck does not read markdownlint's comments (`<!-- markdownlint-disable -->`); to hide a "
                 "kbcheck finding write `<!-- kbcheck-disable KBnnn -->` … `<!-- kbcheck-enable KBnnn -->` "
                 "(docs/rules.md)")
    if comment.tool == "vale":
        return _("kbcheck does not read Vale's comments (`<!-- vale off -->`); to hide a kbcheck finding write "
                 "`<!-- kbcheck-disable -->` … `<!-- kbcheck-enable -->` (docs/rules.md)")
    return _("{path}:{line}: kbcheck does not understand the comment {comment}: it disables nothing; the forms "
             "are `kbcheck-disable`, `kbcheck-enable`, `kbcheck-disable-line`, `kbcheck-disable-next-line` and "
             "`kbcheck-disable-file`, each with rule ids or none for every rule (docs/rules.md)",
             path=path, line=comment.line, comment=printable_message(comment.comment[:200]))


def _unknown(name: str, known: Sequence[str], names: dict[str, str]) -> UselessDisable:
    if name.lower() in names:
        return UselessDisable(UNKNOWN, name, names[name.lower()], as_name=True)
    close = difflib.get_close_matches(name.upper(), known, n=1)
    return UselessDisable(UNKNOWN, name, close[0] if close else "")


def audit_disables(kb: KnowledgeBase, path: str, ran: Iterable[str], stamped: Sequence[Stamped],
                   report_unused: bool) -> tuple[list[str], list[Problem]]:
    """Notices for `path`'s comments kbcheck cannot read, and its KB010 problems: comments naming
    unknown rules (when KB010 ran), unused ones when asked.

    `ran` is the rules that ran on this file; a comment for a rule that did not
    run (not selected, ignored, another kind of file) is never called unused.
    """
    found, unread = directives(kb, path)
    notices: list[str] = [_unread_notice(path, comment) for comment in unread]
    ran_ids = set(ran)
    if not found or ID not in ran_ids:
        return notices, []
    from kbcheck.rules import all_rules

    rules = all_rules()
    known = list(rules)
    names = {rule.name.lower(): rule.id for rule in rules.values()}
    lines: list[str] | None = None  # read only for a comment to fix: a warm run reads no file
    problems: list[Problem] = []
    # only a comment naming KB010 hides its findings: a bare one would hide the finding about itself
    hidden = [directive for directive in found if directive.rule.upper() == ID]
    for directive in found:
        name = directive.rule
        rule_id = name.upper()
        facts: UselessDisable | None = None
        if directive.reach == ENABLE or rule_id == ID:
            continue
        if name == ALL:
            if report_unused and not _used(directive, ran_ids, stamped):
                facts = UselessDisable(UNUSED, "")
        elif rule_id not in rules:
            facts = _unknown(name, known, names)
        elif rule_id in CHANGE_RULES:
            facts = UselessDisable(CHANGE_RULE, name)
        elif report_unused and rule_id in ran_ids and not _used(directive, {rule_id}, stamped):
            facts = UselessDisable(UNUSED, name)
        if facts is not None and not any(other.covers(ID, directive.line) for other in hidden):
            if lines is None:
                text = kb.text(path)
                lines = text.split("\n") if text is not None else []
            problems.append(Problem(path=path, line=directive.line, column=directive.column,
                                    subject=f"{facts.why} {name}", fix=removal(lines, directive), facts=facts))
    return notices, problems


def _used(directive: Directive, rule_ids: set[str], stamped: Sequence[Stamped]) -> bool:
    """Whether the comment covers a suppressed problem of one of these rules."""
    return any(item.disabled and item.rule in rule_ids and directive.covers(item.rule, item.problem.line)
               for item in stamped)


def removal(lines: list[str], directive: Directive) -> Edit | None:
    """The edit that takes the directive's rule out of its comment, and the comment with it when it
    names nothing else (its line too, when it is alone there); None for a comment over several lines."""
    comment = directive.comment
    if "\n" in comment or not 1 <= directive.line <= len(lines):
        return None
    line = lines[directive.line - 1]
    start = directive.column - 1
    if line[start:start + len(comment)] != comment:
        return None
    rest = [name for name in directive.names if name != directive.rule]
    if directive.rule != ALL and rest:
        inner = comment[4:-3].strip()
        head = inner[:inner.index("=") + 1] if inner.startswith("kbcheck:") else inner.split()[0] + " "
        listed = inner[len(head):]
        kept = (", " if "," in listed else " ").join(rest)
        return Edit(directive.line, directive.column, comment, f"<!-- {head}{kept} -->",
                    _("Remove {name} from the disable comment", name=directive.rule))
    if directive.alone:
        return Edit(directive.line, 1, line + "\n", "", _("Remove the disable comment"))
    before = len(line[:start].rstrip(" \t"))
    return Edit(directive.line, before + 1, line[before:start + len(comment)], "", _("Remove the disable comment"))


def reports_unused_disables(config: Config) -> bool:
    """Whether the configuration asks KB010 for unused comments (`[rules.KB010] report`)."""
    from kbcheck.rules import rule_option

    return UNUSED in rule_option(config, ID, "report")


def count_unused(findings: Iterable[Finding]) -> int:
    """How many findings report an unused disable comment (they make `check` exit 1 when asked for)."""
    return sum(1 for finding in findings
               if finding.rule == ID and isinstance(finding.facts, UselessDisable) and finding.facts.why == UNUSED)
