"""Disable comments you can trust: one naming an unknown rule, or suppressing nothing, is said so.

A disable comment (`<!-- kbcheck: disable=KB005 -->` before a block,
`disable-file=` anywhere) that names a rule kbcheck does not have is a typo:
the finding it meant to hide is still reported, and the comment would
otherwise sit there looking like it works. With `--report-unused-disables`,
a comment naming a rule that ran on the file and found nothing it covers is
reported too, as ESLint's `--report-unused-disable-directives` and ruff's
RUF100 do. Both are notices (one `path:line: …` line on stderr), not
findings: a finding carries a rule id, and these are about the comments,
not about the knowledge base (`docs/rules.md`, "Suppressing a finding").
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.i18n import Text, _

if TYPE_CHECKING:
    from kbcheck.engine import Stamped
    from kbcheck.model.knowledge_base import KnowledgeBase

#: rules judged on the change, not on a file's text: a comment cannot disable them
CHANGE_RULES = ("KB007",)


@dataclass(frozen=True)
class Directive:
    """One disable comment: its line, whether it covers the file, the rule names as written,
    and the lines it covers (the block after it; the whole file for `disable-file`)."""

    line: int
    file_wide: bool
    names: tuple[str, ...]
    first: int
    last: int


def directives(kb: KnowledgeBase, path: str) -> list[Directive]:
    """The disable comments of a markdown file, read from the same token stream the parser uses."""
    from kbcheck.model.document import MARKDOWN_SUFFIXES

    if not path.lower().endswith(MARKDOWN_SUFFIXES) or kb.snapshot.blob_id(path) is None:
        return []
    if not kb.names_kbcheck(path):  # the common case, known without reading the file on a warm run
        return []
    text = kb.text(path)
    if text is None:
        return []
    from kbcheck.model.document import directives_in

    doc = kb.document(path)
    starts = sorted((block.line, block.end_line) for block in doc.blocks) if doc is not None else []
    found: list[Directive] = []
    for line, file_wide, names in directives_in(text):
        if file_wide:
            found.append(Directive(line, True, names, 1, 1 << 30))
            continue
        covered = next(((first, last) for first, last in starts if first > line), (0, -1))
        found.append(Directive(line, False, names, *covered))
    return found


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
    found = directives(kb, path)
    if not found:
        return []
    from kbcheck.rules import all_rules

    rules = all_rules()
    known = list(rules)
    names = {rule.name.lower(): rule.id for rule in rules.values()}
    ran_ids = set(ran)
    notices: list[str] = []
    for directive in found:
        for name in directive.names:
            rule_id = name.upper()
            if rule_id not in rules:
                notices.append(_("{path}:{line}: {notice}", path=path, line=directive.line,
                                 notice=_unknown(name, known, names)))
            elif rule_id in CHANGE_RULES:
                notices.append(_("{path}:{line}: {id} judges the change, not the text: "
                                 "a disable comment cannot suppress it (see `kbcheck explain {id}`)",
                                 path=path, line=directive.line, id=rule_id))
            elif report_unused and rule_id in ran_ids and not _used(directive, rule_id, stamped):
                notices.append(_unused_notice(path, directive.line, rule_id))
    return notices


def _used(directive: Directive, rule_id: str, stamped: Sequence[Stamped]) -> bool:
    return any(item.disabled and item.rule == rule_id and directive.first <= item.problem.line <= directive.last
               for item in stamped)


def _unused_notice(path: str, line: int, rule_id: str) -> Text:
    return _("{path}:{line}: unused disable comment: {id} reports nothing it covers", path=path, line=line, id=rule_id)


def count_unused(notices: Iterable[str]) -> int:
    """How many notices report an unused disable comment (they make `check` exit 1): known by
    the message they were said with, not by their words."""
    unused = _unused_notice("", 0, "").msgid
    return sum(1 for notice in notices if isinstance(notice, Text) and notice.msgid == unused)
