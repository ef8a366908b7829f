"""Apply edits to a file's bytes, keeping its BOM and its line ends.

Rules see text with `\\n` line ends and no BOM; the file may have CRLF or
lone CR ends, even mixed. Lines are split here exactly as the text rules
saw was made, so line N and column C name the same character in both, and
text an edit inserts takes the line end of the line it is inserted into.
`Applied.made` holds each applied edit as written (its replacement in the
file's own line ends): what the output formats offer (`docs/output.md`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from kbcheck.findings import Edit, Finding
from kbcheck.regex import lazy

BOM = b"\xef\xbb\xbf"
_LINE_END = lazy(r"(\r\n|\r|\n)")


@dataclass(frozen=True)
class Applied:
    """A file's new bytes, the findings whose edits made them, and those edits as made."""

    data: bytes
    fixed: tuple[Finding, ...]
    #: the edit of each fixed finding (same order), its line breaks in the file's own line ends
    made: tuple[Edit, ...] = ()


def fixable_by_path(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    """The findings that carry an edit, by file, in report order: what one pass over each file applies."""
    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.fix is not None:
            by_path.setdefault(finding.path, []).append(finding)
    return by_path


def apply_fixes(data: bytes, findings: Sequence[Finding]) -> Applied:
    """The file with every finding's edit applied that still matches and overlaps no earlier one.

    Edits apply in report order; insertions at one place keep that order. An
    edit whose `original` is not at its place is left out (its finding stays).
    """
    bom = data.startswith(BOM)
    try:
        text = data[len(BOM):].decode("utf-8") if bom else data.decode("utf-8")
    except UnicodeDecodeError:
        return Applied(data, (), ())  # never checked as text: nothing to fix
    pieces = _LINE_END.split(text)
    lines = [(pieces[i], pieces[i + 1] if i + 1 < len(pieces) else "") for i in range(0, len(pieces), 2)]
    starts: list[int] = []
    offset = 0
    for content, end in lines:
        starts.append(offset)
        offset += len(content) + len(end)
    default_end = next((end for _, end in lines if end), "\n")
    chosen: list[tuple[int, int, int, Edit, Finding]] = []  # (start, end, order, edit as made, finding)
    taken: list[tuple[int, int]] = []
    for order, finding in enumerate(findings):
        edit = finding.fix
        if edit is None:
            continue
        span = _span(edit, lines, starts)
        if span is None:
            continue
        if any(_overlap(span, other) for other in taken):
            continue
        taken.append(span)
        line_end = lines[edit.line - 1][1] or default_end
        made = replace(edit, replacement=_LINE_END.sub(line_end, edit.replacement))
        chosen.append((span[0], span[1], order, made, finding))
    # apply from the end backwards so earlier offsets stay valid; same-place insertions in report order
    for start, end, _, made, _ in sorted(chosen, key=lambda c: (c[0], c[2]), reverse=True):
        text = text[:start] + made.replacement + text[end:]
    in_order = sorted(chosen, key=lambda c: c[2])
    return Applied((BOM if bom else b"") + text.encode("utf-8"), tuple(c[4] for c in in_order),
                   tuple(c[3] for c in in_order))


def _span(edit: Edit, lines: list[tuple[str, str]], starts: list[int]) -> tuple[int, int] | None:
    """Where the edit's `original` stands in the text, when it still does; an `original` ending in
    a line break takes the line's end with it (a removed line), whatever the file's line ends are."""
    if not 1 <= edit.line <= len(lines):
        return None
    content, end = lines[edit.line - 1]
    original = edit.original[:-1] if edit.original.endswith("\n") else edit.original
    column = edit.column - 1
    if column < 0 or content[column:column + len(original)] != original:
        return None
    start = starts[edit.line - 1] + column
    return start, start + len(original) + (len(end) if original != edit.original else 0)


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two replacements touching the same characters; insertions at one place do not collide."""
    return a[0] < b[1] and b[0] < a[1]
