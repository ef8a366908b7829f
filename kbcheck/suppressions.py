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

from kbcheck.i18n import Text, _
from kbcheck.model.disables import ALL, ENABLE, Directive, UnreadComment
from kbcheck.printable import printable_message

if TYPE_CHECKING:
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


def _unknown(name: str, known: Sequence[str], names: dict[str, str]) -> str:
    if name.lower() in names:
        return _("disable comment names unknown rule '{name}'; write the id {id}, not the name",
                 name=name, id=names[name.lower()])
    close = difflib.get_close_matches(name.upper(), known, n=1)
    if close:
        return _("disable comment names unknown rule '{name}'; did you mean {id}?", name=name, id=close[0])
    return _("disable comment names unknown rule '{name}'", name=name)


def audit_disables(kb: KnowledgeBase, path: str, ran: Iterable[str], stamped: Sequence[Stamped],
                   report_unused: bool) -> list[str]:
    """Notices for `path`'s disable comments: unknown rules always, unused ones when asked.

    `ran` is the rules that ran on this file; a comment for a rule that did not
    run (not selected, ignored, another kind of file) is never called unused.
    """
    found, unread = directives(kb, path)
    notices: list[str] = [_unread_notice(path, comment) for comment in unread]
    if not found:
        return notices
    from kbcheck.rules import all_rules

    rules = all_rules()
    known = list(rules)
    names = {rule.name.lower(): rule.id for rule in rules.values()}
    ran_ids = set(ran)
    for directive in found:
        name = directive.rule
        rule_id = name.upper()
        if directive.reach == ENABLE:
            continue
        if name == ALL:
            if report_unused and not _used(directive, ran_ids, stamped):
                notices.append(_("{path}:{line}: unused disable comment: no rule reports anything it covers",
                                 path=path, line=directive.line))
        elif rule_id not in rules:
            notices.append(_("{path}:{line}: {notice}", path=path, line=directive.line,
                             notice=_unknown(name, known, names)))
        elif rule_id in CHANGE_RULES:
            notices.append(_("{path}:{line}: {id} judges the change, not the text: "
                             "a disable comment cannot suppress it (see `kbcheck explain {id}`)",
                             path=path, line=directive.line, id=rule_id))
        elif report_unused and rule_id in ran_ids and not _used(directive, {rule_id}, stamped):
            notices.append(_unused_notice(path, directive.line, rule_id))
    return notices


def _used(directive: Directive, rule_ids: set[str], stamped: Sequence[Stamped]) -> bool:
    """Whether the comment covers a suppressed problem of one of these rules."""
    return any(item.disabled and item.rule in rule_ids and directive.covers(item.rule, item.problem.line)
               for item in stamped)


def _unused_notice(path: str, line: int, rule_id: str) -> Text:
    return _("{path}:{line}: unused disable comment: {id} reports nothing it covers", path=path, line=line, id=rule_id)


def count_unused(notices: Iterable[str]) -> int:
    """How many notices report an unused disable comment (they make `check` exit 1): known by
    the message they were said with, not by their words."""
    unused = _unused_notice("", 0, "").msgid
    return sum(1 for notice in notices if isinstance(notice, Text) and notice.msgid == unused)
