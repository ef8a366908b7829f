"""Claim numbers: numbers attached to a unit or claim word (see KB005 in `docs/rules.md`).

`1771⭐`, `被引 19`, `周增 +26`, `2.7x`, `350ms`, `45%`, `20T tokens`,
`+2 points`, `18 万亿` are claims; dates, decades, versions, ids, section
labels, ordinals and counts of things (`4 条`) are not, and neither is
anything inside quotation marks, which reports another document's words.
Digits right after a Latin letter (`S2`, `H200`) belong to a name, and a
number ends where its digits end: `17025.937516636MiB` is one value, and a
range (`2-3s`, `2–3 倍`) is one claim.

A note also works numbers out for itself, and those are not claims either
(`kbcheck.model.reckoning`): a sentence that writes a calculation out
(`t = 8 MB / 20 GB/s = 0.4 ms`), the condition of a what-if (`假设带宽为
20GB/s`, `If the rate were 10%, …`), a question, and a ratio worked out from
two numbers written just before it (`从 64 到 256 通道，提升 4 倍`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection
from dataclasses import dataclass

from kbcheck.model.citations import MASK
from kbcheck.model.described import condition_spans, described
from kbcheck.model.exemptions import NAMES
from kbcheck.model.reckoning import derived, glosses, reckoned_spans
from kbcheck.regex import lazy


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
    #: the exemptions that make it no claim (`kbcheck.model.exemptions`): it is reported only
    #: where every one of them is switched off
    exempt: tuple[str, ...] = ()


# one number: thousands separators, a decimal part
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
# A sign counts only where it cannot be a hyphen (`2307-387X` is an ISSN,
# `2-3s` a range); a number starts only where no letter, digit, `.` or `,`
# stands before it, nor a hyphen after one (`ResNet-18s`, `n-1 倍`, the end
# of a range). A range is one number: `2-3`, `2–3`, `2 ~ 3`, `2 至 3`.
_NUMBER = (
    r"(?P<num>(?:(?<![A-Za-z0-9_.,%％])[+\-−])?(?<![A-Za-z0-9_.,])(?<![A-Za-z0-9_][-–~～])" + _DIGITS
    + r"(?:(?:-|\s?[–~～至到]\s?)[+\-−]?" + _DIGITS + r")?)(?![\d]|\.\d|,\d{3})"
)
# a magnitude: glued Latin (`1.5k`, `20T`) or CJK, which may stand apart (`18 万亿`)
# (`B`, `T` only before `tokens`: `8B` alone names a model size, `%8B%` is percent-encoding)
_MULTIPLIER = r"(?P<mult>(?-i:[kKM](?![A-Za-z])|[BT](?=\s?tokens?\b))|\s?(?:万亿|亿|万|千))?"

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
    (r"\s?(?-i:tokens?)\b(?!/)", None),  # `Token 类型` in a title is a word, not a unit
    # score points: a sign or `by` must come with it (`+2 points`, `by 3 points`), see `_stands_as_claim`
    (r"\s?(?:points?|pts)\b", None),
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

_SUFFIX_RE = lazy(
    _NUMBER + _MULTIPLIER + "(?P<unit>" + "|".join(f"(?P<s{i}>{p})" for i, (p, _) in enumerate(_SUFFIXES)) + ")",
    re.IGNORECASE,
)
_PREFIX_RE = lazy(
    "(?P<word>" + "|".join(f"(?P<p{i}>{p})" for i, (p, _) in enumerate(_PREFIXES)) + r")\s?[:：=]?\s?"
    + _NUMBER + _MULTIPLIER,
    re.IGNORECASE,
)
# a score moved by points: `涨 2 分`, `提升了 1.5 分` (not `2 分钟`, `3 分类`)
_SCORE_RE = lazy(
    r"(?:涨|跌|提升|提高|高出|领先|落后|下降|降低|掉|增加|减少)了?\s?" + _NUMBER + r"\s?分(?![钟类析布支之数配割])"
)
# a magnitude of a hundred million and up states a quantity on its own (`18 万亿`, `3 亿`)
# (`4亿字`, `27 亿个`: a count of things, as `4 条` is)
_MAGNITUDE_RE = lazy(_NUMBER + r"(?P<mult>\s?(?:万亿|亿))(?!\s?[个条字词张篇次行人项])")
#: what every number above holds (`\d`, as they match it)
_A_DIGIT = lazy(r"\d")
# any one number, for what a card contains: no range, and a hyphen before it may be a sign or not
# (`Apache-2.0` states a 2.0, `2-3s` both a 2 and a 3)
_ANY_NUMBER = lazy(r"(?P<num>[+\-−]?(?<![A-Za-z0-9_.,])" + _DIGITS + r")(?![\d]|\.\d|,\d{3})")

# spans that are never claims, by the exemption that names them (`kbcheck.model.exemptions`):
# dates and times (whole: not out of a longer run of digits), decades, ISSNs, versions, labels
_NOT_CLAIM_KINDS: tuple[tuple[str, str], ...] = (
    ("date", r"(?<![\d.])\d{4}[-/.年]\d{1,2}(?:[-/.月]\d{1,2}日?)?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?(?![\d])"
             r"|(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?(?![\d])"
             r"|(?<!\d)\d{1,2}月\d{1,2}日"),
    ("decade", r"(?<![\d.])1[0-9]\d0[’']?s\b|(?<![\d.])20\d0[’']?s\b|(?<![\w.])[’']\d0s\b|(?<![\d.])\d+\s?年代"),
    ("issn", r"(?<![\d-])\d{4}-\d{3}[\dX](?![\w-])"),
    ("version", r"(?<![\w.])v?\d+(?:\.\d+){2,}"),
    ("label", r"§\s*[\d.]+|第\s*\d+|[#№]\s*\d+"),
)
_NOT_CLAIMS = lazy("|".join(f"(?P<{name}>{pattern})" for name, pattern in _NOT_CLAIM_KINDS), re.IGNORECASE)
# a heading's own label (`6.2`, `§3`, `1.`) and ordinals (`增量 1`, `Part 3`) name the section
_HEADING_LABEL = lazy(r"^\s*§?\s*\d+(?:\.\d+)*\.?(?=[\s、．:：)）]|$)")
_ORDINAL = lazy(
    r"(?:增量|阶段|步骤|部分|章节|实验|问题|Part|Step|Chapter|Section|Phase|Stage|Round|Day|Week|Lecture|Lesson"
    r"|Unit|Module|Appendix|Episode|Lab|Exercise|Question|Q)\s?\d+(?:\.\d+)*(?![\d.])",
    re.IGNORECASE,
)
# a multiplier that names a thing: `1X/4X/12X` link widths, `4X links`
_NAMED_MULTIPLIER = lazy(
    r"[xX×]\s?/\s?\d+[xX×]"
    r"|[xX]\s?(?:links?|lanes?|width|ports?|slots?|cables?)\b",
    re.IGNORECASE,
)
# a symbol after a heading's leading number makes it a quantity (`3 倍提速`); a word keeps it a label
# (`1 Second-order methods`)
_SYMBOL_UNIT = lazy(r"\s?(?:%|％|×|倍|个百分点|pp\b|⭐)", re.IGNORECASE)
#: (opening, closing) quotation marks; a straight `"` quote ends at the end of its line
_QUOTE_PAIRS = (("“", "”"), ("「", "」"), ("『", "』"), ('"', '"'), ("‘", "’"))
_MULTIPLIERS = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12, "千": 1e3, "万": 1e4, "亿": 1e8, "万亿": 1e12}


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


#: a claim as found: (start, end, text as written, value, card field, names of the exemptions that apply)
Tagged = tuple[int, int, str, float, "str | None", tuple[str, ...]]


def find_claims(masked: str, *, heading: bool = False,
                exempt: Collection[str] = NAMES) -> list[tuple[int, int, str, float, str | None]]:
    """Claims in prose whose ids, URLs and paths are masked, but for those an exemption in
    `exempt` (every one by default) rules out. Returns (start, end, text as written, value,
    card field) sorted by start."""
    on = frozenset(exempt)
    return [(start, end, written, value, card_field)
            for start, end, written, value, card_field, tags in tagged_claims(masked, heading=heading)
            if not on.intersection(tags)]


def tagged_claims(masked: str, *, heading: bool = False) -> list[Tagged]:
    """Every number with a unit or claim word in masked prose, each with the names of the
    exemptions (`kbcheck.model.exemptions`) that make it no claim; sorted by start.

    In a heading (`heading=True`) its label and ordinals are names, unless a
    symbol unit makes them a quantity (`1.4× 的传闻`).
    """
    if _A_DIGIT.search(masked) is None:
        return []  # every claim holds a digit: most prose holds none, and needs no more reading
    text = _blank(masked, _NOT_CLAIMS)
    labels = _label_spans(text) if heading else []
    quotes = quoted_spans(text)
    quote_starts = [start for start, _ in quotes]
    reckoned: dict[str, list[tuple[int, int]]] | None = None  # found when a number first asks
    context: list[tuple[int, int, str]] | None = None

    def tags_at(pos: int, m: re.Match[str]) -> list[str]:
        """The exemptions of the text around a number: quotation, what the note works out or supposes."""
        nonlocal reckoned, context
        tags: list[str] = []
        index = bisect_right(quote_starts, pos) - 1  # spans are sorted and never overlap
        if index >= 0 and pos < quotes[index][1]:
            tags.append("quoted")
        if reckoned is None:
            reckoned = {}
            for start, end, name in reckoned_spans(text):
                reckoned.setdefault(name, []).append((start, end))
            reckoned = {name: _merged(spans) for name, spans in reckoned.items()}
        for name, spans in reckoned.items():
            index = bisect_right(spans, (pos, len(text) + 1)) - 1
            if index >= 0 and pos < spans[index][1]:
                tags.append(name)
        if any(a <= pos < b for a, b in labels) and not _SYMBOL_UNIT.match(text, m.end("num")):
            tags.append("label")
        if context is None:
            context = condition_spans(text)
        tags.extend(name for a, b, name in context if a <= pos < b)
        return tags

    claims: dict[int, Tagged] = {}
    for m in _SUFFIX_RE.finditer(text):
        start = m.start("num")
        index = next(i for i in range(len(_SUFFIXES)) if m.group(f"s{i}") is not None)
        stands = _stands_as_claim(text, m, index)
        if stands is False:
            continue
        tags = tags_at(start, m)
        if isinstance(stands, str):
            tags.append(stands)
        if _SUFFIXES[index][1] is None:
            if derived(text, start, _value(m), m.group("num"), m.group("unit")):
                tags.append("worked-out")
            if glosses(text, start, _value(m)):
                tags.append("gloss")
        if _SUFFIXES[index][1] is None:
            tags.extend(described(text, start, m.end("num"), m.start("unit"), m.end()))
        claims[start] = (start, m.end(), masked[start : m.end()], _value(m), _SUFFIXES[index][1], tuple(tags))
    for m in _PREFIX_RE.finditer(text):
        start = m.start("num")
        if start in claims:
            continue
        index = next(i for i in range(len(_PREFIXES)) if m.group(f"p{i}") is not None)
        claims[start] = (m.start(), m.end(), masked[m.start() : m.end()], _value(m), _PREFIXES[index][1],
                         tuple(tags_at(start, m)))
    for pattern in (_SCORE_RE, _MAGNITUDE_RE):
        for m in pattern.finditer(text):
            start = m.start("num")
            if start in claims:
                continue
            tags = tags_at(start, m)
            if pattern is _MAGNITUDE_RE:
                tags.extend(described(text, start, m.end("num"), m.start("mult"), m.end()))
            claims[start] = (start, m.end(), masked[start : m.end()], _value(m), None, tuple(tags))
    if text != masked:
        _not_claims(masked, claims)
    return sorted(claims.values())


def _not_claims(masked: str, claims: dict[int, Tagged]) -> None:
    """The numbers a date, decade, ISSN, version or label holds (`1990s` reads as seconds), tagged
    with that exemption: they are claims only where it is switched off."""
    for span in _NOT_CLAIMS.finditer(masked):
        name = span.lastgroup or "date"
        for m in _SUFFIX_RE.finditer(masked, span.start(), span.end() + 40):
            start = m.start("num")
            if start >= span.end() or start in claims:
                break
            index = next(i for i in range(len(_SUFFIXES)) if m.group(f"s{i}") is not None)
            claims[start] = (start, m.end(), masked[start : m.end()], _value(m), _SUFFIXES[index][1], (name,))


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted spans, overlapping ones joined: each position falls in at most one."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _label_spans(text: str) -> list[tuple[int, int]]:
    spans = [m.span() for m in _ORDINAL.finditer(text)]
    head = _HEADING_LABEL.match(text)
    if head:
        spans.append(head.span())
    return spans


_POINTS = next(i for i, (p, _) in enumerate(_SUFFIXES) if "points" in p)
_TIMES = tuple(i for i, (p, _) in enumerate(_SUFFIXES) if p.startswith(("(?:x|X)", r"\s?×")))


def _stands_as_claim(text: str, m: re.Match[str], index: int) -> bool | str:
    """Rule out the unit words that claim only in context; a multiplier that is no speed-up
    names its exemption."""
    if index == _POINTS:
        # `+2 points`, `by 2 points`; `3 points` alone are more often items of a list
        return m.group("num")[0] in "+-−" or text[max(0, m.start("num") - 3) : m.start("num")].lower() == "by "
    if index in _TIMES:
        # `1x` is the baseline, and a multiplier in a list of them names a width or a mode
        if re.fullmatch(r"1(?:\.0+)?", m.group("num")):
            return "baseline"
        before = text[max(0, m.start("num") - 4) : m.start("num")]
        if re.search(r"[xX×]\s?/\s?$", before) or _NAMED_MULTIPLIER.match(text, m.start("unit")):
            return "named-multiplier"
    return True


def _value(m: re.Match[str]) -> float:
    """The claim's value; a range is valued by its first number."""
    first = re.match(r"[+\-−]?" + _DIGITS, m.group("num"))
    value = parse_number(first.group(0) if first else m.group("num"))
    mult = m.groupdict().get("mult")
    return value * _MULTIPLIERS.get(mult.strip(), 1.0) if mult else value


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
