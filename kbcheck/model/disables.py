"""Disable comments in the forms a ruff, markdownlint or ESLint user writes, read from the token stream.

Only an HTML comment markdown-it reads as HTML is a comment: one inside a
code span or block is text. A comment alone on its line is a block of its
own; one after text on its line is inline and covers that line
(`docs/rules.md`, "Suppressing a finding"):

    <!-- kbcheck: disable=KB005 -->             the next block (at the end of a line: that line)
    <!-- kbcheck: disable-file=KB005 -->        the whole file
    <!-- kbcheck-disable KB005 -->              up to `kbcheck-enable KB005` or the end of the file
                                                (at the end of a line: that line)
    <!-- kbcheck-enable KB005 -->               ends that range
    <!-- kbcheck-disable-next-line KB005 -->    the next line that is not blank
    <!-- kbcheck-disable-line KB005 -->         its own line
    <!-- kbcheck-disable-file KB005 -->         the whole file

Without a rule list a comment covers every rule. Another tool's comment
(markdownlint's, Vale's) or a `kbcheck` comment in no form above disables
nothing and is said so (`UnreadComment`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kbcheck.regex import lazy

#: the rule of a comment that names none: every rule
ALL = "*"
#: how far a comment reaches
BLOCK, FILE, RANGE, ENABLE, NEXT_LINE, LINE = "block", "file", "range", "enable", "next-line", "line"
#: an unread comment that looks like kbcheck's own
KBCHECK = "kbcheck"

_KEYWORDS = {"kbcheck-disable": RANGE, "kbcheck-enable": ENABLE, "kbcheck-disable-next-line": NEXT_LINE,
             "kbcheck-disable-line": LINE, "kbcheck-disable-file": FILE}
#: the first form, `kbcheck: disable=KB005, KB006`
_COLON_FORM = lazy(r"kbcheck\s*:\s*(disable|disable-file)\s*=([^=]*)")
_NAME = lazy(r"[A-Za-z0-9_-]+")
#: comments of other tools a markdown linter's user may bring
_FOREIGN = (("markdownlint", lazy(r"markdownlint-(?:disable|enable|capture|restore|configure)")),
            ("vale", lazy(r"vale\s+(?:on|off|[\w.]+\s*=)", re.IGNORECASE)))
#: whether a text may hold a comment of interest (the cheap test before a parse)
MAY_HOLD = lazy(r"<!--\s*(?:kbcheck|markdownlint|vale)", re.IGNORECASE)


@dataclass(frozen=True)
class Directive:
    """One rule of one disable comment, and the lines it covers."""

    line: int
    #: 1-based column of the comment's `<!--`
    column: int
    #: the comment as written, `<!--` to `-->`
    comment: str
    #: BLOCK, FILE, RANGE, ENABLE, NEXT_LINE or LINE
    reach: str
    #: every rule name the comment lists, as written (empty: every rule)
    names: tuple[str, ...]
    #: the rule this entry is about, as written, or ALL
    rule: str
    first: int = 0
    last: int = -1
    #: the comment is all its line holds
    alone: bool = True

    def covers(self, rule_id: str, line: int) -> bool:
        """Whether it disables `rule_id` (an id in capitals) on `line`."""
        if self.reach == ENABLE or not self.first <= line <= self.last:
            return False
        return self.rule == ALL or self.rule.upper() == rule_id


@dataclass(frozen=True)
class UnreadComment:
    """A comment that disables nothing: another tool's, or a `kbcheck` one in no form kbcheck reads."""

    line: int
    comment: str
    #: KBCHECK, or the tool whose comment it is ("markdownlint", "vale")
    tool: str


def covers_rule(rules: frozenset[str], rule_id: str) -> bool:
    """Whether a set of disabled rules (a block's, a file's) holds `rule_id` or every rule."""
    return rule_id in rules or ALL in rules


def comments_in(html: str) -> list[tuple[int, int, str]]:
    """Each `<!-- … -->` of an HTML token: (line offset in it, 0-based column, the comment)."""
    found: list[tuple[int, int, str]] = []
    at = html.find("<!--")
    while at >= 0:
        end = html.find("-->", at + 4)
        if end < 0:
            break
        line = html.count("\n", 0, at)
        column = at - (html.rfind("\n", 0, at) + 1)
        found.append((line, column, html[at:end + 3]))
        at = html.find("<!--", end + 3)
    return found


def read_comment(comment: str, line: int, column: int, alone: bool) -> list[Directive] | UnreadComment | None:
    """A comment's directives (one per rule it names, or one for ALL), an `UnreadComment`, or None
    for a comment about something else."""
    inner = comment[4:-3].strip()
    lowered = inner.lower()
    colon = _COLON_FORM.fullmatch(inner)
    if colon is not None:
        reach = FILE if colon.group(1) == "disable-file" else BLOCK
        names = tuple(part.strip() for part in colon.group(2).split(","))
        if not names or not all(_NAME.fullmatch(name) for name in names):
            return UnreadComment(line, comment, KBCHECK)
        return _directives(line, column, comment, reach if alone or reach == FILE else LINE, names, alone)
    if lowered.startswith("kbcheck"):
        keyword, _space, rest = inner.partition(" ")
        named = _KEYWORDS.get(keyword.lower())
        names = tuple(name for name in re.split(r"[\s,]+", rest.strip()) if name)
        if named is None or not all(_NAME.fullmatch(name) for name in names):
            return UnreadComment(line, comment, KBCHECK)
        # at the end of a line a range covers that line, as ruff's noqa comment does
        return _directives(line, column, comment, LINE if named == RANGE and not alone else named, names, alone)
    for tool, pattern in _FOREIGN:
        if pattern.match(inner):
            return UnreadComment(line, comment, tool)
    return None


def _directives(line: int, column: int, comment: str, reach: str, names: tuple[str, ...],
                alone: bool) -> list[Directive]:
    return [Directive(line, column, comment, reach, names, rule, alone=alone) for rule in names or (ALL,)]


def with_reach(directives: list[Directive], lines: list[str], offset: int) -> list[Directive]:
    """Directives with the lines they cover filled in, but BLOCK ones (the parser knows blocks).

    `lines` are the text's lines; `offset` the number of the first one less one (a card's body).
    """
    from dataclasses import replace

    end = len(lines) + offset
    placed: list[Directive] = []
    for index, directive in enumerate(directives):
        if directive.reach == FILE:
            directive = replace(directive, first=1, last=1 << 30)
        elif directive.reach == LINE:
            directive = replace(directive, first=directive.line, last=directive.line)
        elif directive.reach == NEXT_LINE:
            after = directive.line + directive.comment.count("\n") + 1
            while after <= end and not lines[after - 1 - offset].strip():
                after += 1
            directive = replace(directive, first=after, last=after)
        elif directive.reach == RANGE:
            directive = replace(directive, first=directive.line, last=_range_end(directive, directives[index + 1:], end))
        placed.append(directive)
    return placed


def _range_end(opened: Directive, later: list[Directive], end: int) -> int:
    """The line before the first `kbcheck-enable` that ends this range: a bare one ends every range,
    a named one the ranges of the rules it names."""
    for directive in later:
        if directive.reach == ENABLE and (directive.rule == ALL or directive.rule.upper() == opened.rule.upper()):
            return directive.line
    return end
