"""Claim numbers: numbers attached to a unit or claim word (see KB005 in `docs/rules.md`).

`1771⭐`, `被引 19`, `周增 +26`, `2.7x`, `350ms`, `45%` are claims; dates,
versions, ids, section labels, ordinals and counts of things (`4 条`) are
not, and neither is anything inside quotation marks, which reports another
document's words. Digits right after a Latin letter (`S2`, `H200`) belong to
a name.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from kbcheck.model.citations import MASK


@dataclass(frozen=True, slots=True)
class ClaimNumber:
    """One quantitative claim as written in a block."""

    #: the number with its unit or claim word, as written: `243⭐`, `周增 +14`
    text: str
    value: float
    #: the card field it states (`stars`, `s2_citations`, ...) or None
    field: str | None
    line: int
    column: int


_NUMBER = r"(?P<num>[+\-−]?(?<![A-Za-z0-9_.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?![\d]|\.\d|,\d{3})"
_MULTIPLIER = r"(?P<mult>(?-i:[kKM万千亿])(?![A-Za-z]))?"

# suffix units: (regex, card field); order matters, longest first
_SUFFIXES: tuple[tuple[str, str | None], ...] = (
    (r"\s?(?:⭐|stars?\b|星)", "stars"),
    (r"\s?(?:次)?影响力被引", "s2_influential"),
    (r"\s?influential citations?\b", "s2_influential"),
    (r"\s?(?:次被引|citations?\b|cites\b)", "s2_citations"),
    (r"\s?(?:%|％|个百分点|pp\b)", None),
    # `8×A100`, `8x H100`, `3×3` are counts and shapes, not speed-ups
    (r"(?:x|X)(?![A-Za-z0-9])(?!\s?[A-Z]{1,4}\d)", None),
    (r"\s?×(?!\s?(?:\d|[A-Za-z]{1,4}\d))", None),
    (r"\s?倍", None),
    (r"\s?(?:tokens?/s|tok/s|t/s|req/s|samples?/s|it/s|qps\b|QPS\b|rps\b|fps\b|FPS\b|TFLOPS\b|GFLOPS\b)", None),
    (r"\s?(?:ms|µs|us|ns|sec|secs|seconds?|mins?|minutes?|hours?|hrs?)(?![A-Za-z])", None),
    (r"(?:s|h)(?![A-Za-z0-9])", None),
    (r"\s?(?:毫秒|微秒|秒|分钟|小时)", None),
    (r"\s?(?:[KMGTP]i?B|[kmgt]b)(?![A-Za-z])", None),
)

# prefix words: the number follows; order matters, longest first
_PREFIXES: tuple[tuple[str, str | None], ...] = (
    (r"影响力被引", "s2_influential"),
    (r"influential citations?", "s2_influential"),
    (r"被引(?:用)?(?:数|次数)?", "s2_citations"),
    (r"citations?|cited by", "s2_citations"),
    (r"(?<![\d])⭐|stars?|星标", "stars"),
    (r"周增(?:长)?|weekly(?: growth)?", "weekly_growth"),
    (r"日增(?:长)?|月增(?:长)?|daily(?: growth)?|monthly(?: growth)?|growth", None),
)

_SUFFIX_RE = re.compile(
    _NUMBER + _MULTIPLIER + "(?P<unit>" + "|".join(f"(?P<s{i}>{p})" for i, (p, _) in enumerate(_SUFFIXES)) + ")",
    re.IGNORECASE,
)
_PREFIX_RE = re.compile(
    "(?P<word>" + "|".join(f"(?P<p{i}>{p})" for i, (p, _) in enumerate(_PREFIXES)) + r")\s?[:：=]?\s?"
    + _NUMBER + _MULTIPLIER,
    re.IGNORECASE,
)
_ANY_NUMBER = re.compile(_NUMBER)

# spans that are never claims: dates, times, versions, section labels, ordinals
_NOT_CLAIMS = re.compile(
    r"\d{4}[-/.年]\d{1,2}(?:[-/.月]\d{1,2}日?)?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?"
    r"|\d{1,2}:\d{2}(?::\d{2})?"
    r"|\d{1,2}月\d{1,2}日"
    r"|(?<![\w.])v?\d+(?:\.\d+){2,}"
    r"|§\s*[\d.]+"
    r"|第\s*\d+"
    r"|[#№]\s*\d+",
    re.IGNORECASE,
)
#: (opening, closing) quotation marks; a straight `"` quote ends at the end of its line
_QUOTE_PAIRS = (("“", "”"), ("「", "」"), ("『", "』"), ('"', '"'), ("‘", "’"))
_MULTIPLIERS = {"k": 1e3, "K": 1e3, "M": 1e6, "千": 1e3, "万": 1e4, "亿": 1e8}


def parse_number(text: str) -> float:
    """`1,771` -> 1771.0; `+26` -> 26.0; `−3` -> -3.0."""
    return float(text.replace(",", "").replace("−", "-"))


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Spans of quoted text: numbers there report another document's words.

    The leftmost opening mark that is closed wins, as the regex alternation
    `“[^”]*”|「[^」]*」|…` would pick, but in one pass: that regex rescans to
    the end of the text from every unclosed `“`, quadratic on a long line.
    """
    spans: list[tuple[int, int]] = []
    size = len(text)
    pos = 0
    next_open: dict[str, int] = {}  # opening mark -> its next index at or after `pos` (`size`: none left)
    while True:
        best, pair = size, None
        for opening, closing in _QUOTE_PAIRS:
            index = next_open.get(opening, -1)
            if index < pos:
                found = text.find(opening, pos)
                index = next_open[opening] = found if found >= 0 else size
            if index < best:
                best, pair = index, (opening, closing)
        if pair is None:
            return spans
        opening, closing = pair
        end = text.find(closing, best + 1)
        if end < 0:
            next_open[opening] = size  # no closing mark after this one: none after any later one either
            continue
        if opening == '"':
            newline = text.find("\n", best + 1, end)
            if newline >= 0:  # this quote ends at its line; the next `"` may open one
                next_open[opening] = end
                continue
        spans.append((best, end + 1))
        pos = end + 1


def _blank(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: MASK * len(m.group(0)), text)


def find_claims(masked: str) -> list[tuple[int, int, str, float, str | None]]:
    """Claims in prose whose ids, URLs and paths are masked.

    Returns (start, end, text as written, value, card field) sorted by start.
    """
    text = _blank(masked, _NOT_CLAIMS)
    quotes = quoted_spans(text)
    quote_starts = [start for start, _ in quotes]

    def quoted(pos: int) -> bool:
        index = bisect_right(quote_starts, pos) - 1  # spans are sorted and never overlap
        return index >= 0 and pos < quotes[index][1]

    claims: dict[int, tuple[int, int, str, float, str | None]] = {}
    for m in _SUFFIX_RE.finditer(text):
        start = m.start("num")
        if quoted(start):
            continue
        index = next(i for i in range(len(_SUFFIXES)) if m.group(f"s{i}") is not None)
        claims[start] = (start, m.end(), masked[start : m.end()], _value(m), _SUFFIXES[index][1])
    for m in _PREFIX_RE.finditer(text):
        start = m.start("num")
        if start in claims or quoted(start):
            continue
        index = next(i for i in range(len(_PREFIXES)) if m.group(f"p{i}") is not None)
        claims[start] = (m.start(), m.end(), masked[m.start() : m.end()], _value(m), _PREFIXES[index][1])
    return sorted(claims.values())


def _value(m: re.Match[str]) -> float:
    value = parse_number(m.group("num"))
    mult = m.group("mult")
    return value * _MULTIPLIERS.get(mult, 1.0) if mult else value


def numeric_values(masked: str) -> set[float]:
    """Every number in a text (no unit needed), skipping dates, versions and masked ids.

    This is what a card "contains" for KB005: a numeric token of equal value.
    """
    text = _blank(masked, _NOT_CLAIMS)
    values: set[float] = set()
    for m in _ANY_NUMBER.finditer(text):
        values.add(abs(parse_number(m.group("num"))))
    for m in _SUFFIX_RE.finditer(text):
        values.add(abs(_value(m)))
    return values
