"""Numbers a note works out for itself: they need no source (see KB005 in `docs/rules.md`).

A reader can re-check these on the spot, so a citation adds nothing:

- a sentence that writes a calculation out: an `=` or `≈` with an
  arithmetic operator between numbers, or a chain of two `=`
  (`t = 8000000 B / 20 GB/s = 0.4 ms`, `t = max(a, b) = 31.25ms`);
- the condition of a what-if (`假设带宽为 20GB/s`, `如果每秒抽样 99 次，持续
  30 秒，就…`, `If the architect wants 10% waste, …`): up to `就` / `则` /
  `那么` / `也`, else the first comma, in Chinese; up to the first comma in
  English. What follows the condition is the claim and is still read;
- the items of a list that a paragraph brings in as suppositions
  (`回到问题上来，假设`, `Suppose that:`);
- a question (`…能否再提速 2 倍？`, `如何 4 小时学会…`): it asks, it does not state;
- the author's own account, in the first person singular (`我的报价是第 1 单 50%
  折扣`, `I charge 20% less`): the author is the source; a paragraph that opens
  in the first person is such an account throughout. A view the author takes
  of the world (`我的看法：真实降幅约 40%`, `I think it is 3x`) is still a claim;
- a value that glosses a term written before a colon with the same number
  (`sleep 30：持续 30s`, `-F 99: sample at 99 Hz`): it explains, it does not claim;
- a point in time told as a duration (`4 小时以后`, `2 hours later`).
- a multiplier or a gap in points worked out from two other numbers of its
  sentence or the sentence before (`从 64 提升到 256 通道。提升 4 倍`, `4M
  与 4k 的页差 1024 倍`, `从 70.1% 到 72.3%，涨 2.2 个百分点`). Years are
  not operands, nor are other ratios (nor percentages, but for a gap in
  points); a percentage is never taken for worked out: too many pairs of
  numbers give one by chance.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from itertools import permutations

from kbcheck.model.citations import MASK
from kbcheck.regex import lazy

#: where a sentence ends: its terminator stays with it
_SENTENCE_END = lazy(r"[。！？!?；;\n]|\.(?=\s)")
_EQUALS = lazy(r"(?<![=<>!])[=＝≈](?!=)")
#: an arithmetic operator between two numbers (`1.6G × 4`, `132k / 0.1`, `512 tokens / 2048`);
#: `8×A100` names a machine, and `/s` in a unit has no spaces around it
_OPERATOR = lazy(r"(?<![\w.%])\d[\w.%]*(?:\s[A-Za-z]{1,12})?\s*(?:[×*÷]|\s[/+\-−]\s)\s*[\d(]")
_CONDITION_ZH = lazy(r"假设|假如|假定|设想|如果|倘若|要是|即使|即便|哪怕|万一")
#: `Let's say …` (`Let’s also say …`) supposes, as `Suppose …` does (`Let's just say …` asserts)
_CONDITION_EN = lazy(r"\b(?:even if|if|suppose|supposing|assume|assuming|imagine|hypothetically"
                     r"|let(?:['’]s| us)(?:\s+also)?\s+say)\b", re.IGNORECASE)
#: where a Chinese condition hands over to what follows from it
_THEN_ZH = lazy(r"就|则|那么|便|也")
_COMMA = lazy(r"[，,；;]")
_THEN_EN = lazy(r"[,;]|\bthen\b", re.IGNORECASE)
#: a sentence that opens by asking (`如何…`, `How to …`), with or without its question mark
_ASKS = lazy(r"^[\s\d.、:：#*_\-]*(?:如何|怎样|怎么|为什么|为何|(?i:how\s+(?:to|do|does|can)|why)\b)")
#: the author speaking of themselves: `我` (not `我们`, `我国`, `自我`), `I`, `my`, `me`
_ME = r"(?<!自)我(?![们国司校方军省市县])"
_FIRST_PERSON = lazy(_ME + r"|\b(?:I|[Mm]y|me)\b")
_OPENS_FIRST_PERSON = lazy(r"^[\s*_>]*(?:" + _ME + r"|(?:I|My)\b)")
#: the author taking a view of the world, which is a claim like any other
_VIEW = lazy(r"看法|观点|认为|觉得|估计|猜|判断|相信|预计|预测|(?i:\b(?:think|believe|estimate|guess|expect|view)\b)")
#: the author reporting a measurement (`我测了一下`, `I measured it`): a result, not an account of themselves
_MEASURED = lazy(r"实测|测了|测出|测得|跑了|跑出|(?i:\b(?:measured|benchmarked|profiled|timed|tested|clocked)\b)")
_COLON = lazy(r"[:：]")
#: a duration that tells when (`4 小时以后`, `3 days later`), not how long something takes
_TIME_POINT = lazy(
    r"(?<![\d.])\d+(?:\.\d+)?\s?(?:小时|分钟|秒|天|(?i:hours?|minutes?|mins?|seconds?|days?))\s?(?:以后|之后|后|以前|之前|前|(?i:later|ago))"
)
#: a number with a glued magnitude (`4k`, `320G`, `20GB` reads as 20 G), for working ratios out
_OPERAND = lazy(r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)\s?(?-i:([kKMGT])(?![a-z]))?")
_RATIO_UNIT = lazy(r"\s?(?:[xX×倍%％](?![A-Za-z])|个百分点|pp\b)")
_DECIMAL = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_BINARY = {"k": 2.0**10, "K": 2.0**10, "M": 2.0**20, "G": 2.0**30, "T": 2.0**40}
#: how far from a claim its calculation is looked for, in characters each way
_REACH = 200
#: at most this many numbers before a claim are tried in pairs (a table row of scores is not arithmetic)
_MAX_OPERANDS = 6


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, its terminator included."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        spans.append((start, m.end()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def reckoned_spans(text: str) -> list[tuple[int, int, str]]:
    """Spans whose numbers the note works out or supposes, each with its exemption's name:
    calculations, conditions, questions, the author's own account, points in time."""
    first = sentences(text)[0] if text else (0, 0)
    if _OPENS_FIRST_PERSON.match(text) and not _reports(text[first[0] : first[1]]):
        return [(0, len(text), "first-person")]
    spans: list[tuple[int, int, str]] = [(*m.span(), "time-point") for m in _TIME_POINT.finditer(text)]
    for start, end in sentences(text):
        sentence = text[start:end]
        if sentence.rstrip().endswith(("?", "？")):
            spans.append((start, end, "question"))
            continue
        if _ASKS.match(sentence):
            # `Why it matters: EAGLE is 2.7x faster.` asks in its lead and answers after the colon
            colon = _COLON.search(sentence)
            spans.append((start, start + colon.start() if colon else end, "question"))
            if colon is None:
                continue
        if _FIRST_PERSON.search(sentence) and not _reports(sentence):
            spans.append((start, end, "first-person"))
            continue
        equals = len(_EQUALS.findall(sentence))
        if equals >= 2 or (equals and _OPERATOR.search(sentence)):
            spans.append((start, end, "calculation"))
            continue
        spans.extend((start + a, start + b, "supposition") for a, b in _conditions(sentence))
    return spans


def _reports(sentence: str) -> bool:
    """The author taking a view of the world or reporting what they measured: a claim like any other."""
    return bool(_VIEW.search(sentence) or _MEASURED.search(sentence))


def _conditions(sentence: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    # where each kind of ending stands, found once: a sentence may hold thousands of markers
    then_zh = [m.start() for m in _THEN_ZH.finditer(sentence)]
    comma = [m.start() for m in _COMMA.finditer(sentence)]
    then_en = [m.start() for m in _THEN_EN.finditer(sentence)]

    def next_of(positions: list[int], after: int) -> int | None:
        index = bisect_left(positions, after)
        return positions[index] if index < len(positions) else None

    for m in _CONDITION_ZH.finditer(sentence):
        end = next_of(then_zh, m.end())
        end = next_of(comma, m.end()) if end is None else end
        out.append((m.start(), len(sentence) if end is None else end))
    for m in _CONDITION_EN.finditer(sentence):
        end = next_of(then_en, m.end())
        out.append((m.start(), len(sentence) if end is None else end))
    return out


#: a paragraph that ends by bringing in suppositions: `假设：`, `Assume the following:`
_SUPPOSITION_INTRO = lazy(
    r"(?:假设|假如|假定|设想|(?i:\b(?:suppose|assume|assuming|imagine)\b))[^。.!?！？\n]{0,30}[:：,，]?\s*$"
)


def introduces_supposition(paragraph: str) -> bool:
    """A paragraph whose last clause brings in a list of what-ifs."""
    return bool(_SUPPOSITION_INTRO.search(paragraph))


def derived(text: str, start: int, value: float, written: str, unit: str) -> bool:
    """A multiplier or point gap that is a ratio (or gap) of two numbers of the same quantity
    written before it, in its sentence or the one before: the note worked it out.

    A ratio whose clause names another quantity (`从 2 个节点扩到 8 个节点，吞吐提升 4 倍`) or a
    speed-up over numbers that are no times or rates (`在 64 到 256 token 的区间提速 4 倍`) is
    measured, not worked out."""
    unit = unit.strip().lower()
    if unit in ("个百分点", "pp"):
        kind = "gap"
    elif unit in ("x", "×", "倍"):
        kind = "times"
    else:
        return False
    if not re.fullmatch(r"\d+(?:\.\d+)?", written) or value <= 0:
        return False  # a range or a signed change is stated, not worked out
    decimals = len(written.partition(".")[2])
    tolerance = min(0.5 * 10.0**-decimals, 0.05 * value) + 1e-9
    before, after = _window(text, start)
    found = _operands(reversed(list(_OPERAND.finditer(before))), kind == "gap", _MAX_OPERANDS)[::-1]
    found += _operands(_OPERAND.finditer(after), kind == "gap", _MAX_OPERANDS - len(found))
    speed = kind == "times" and _is_speed_up(before, after)
    for base in (_DECIMAL, _BINARY):
        numbers = [(float(m.group(1)) * base.get(m.group(2) or "", 1.0), m) for m in found]
        for (a, ma), (b, mb) in permutations(numbers, 2):
            if a == b or b in (0.0, 1.0) or a == 1.0:
                continue
            result = a / b if kind == "times" else abs(a - b)
            if abs(result - value) > tolerance:
                continue
            if speed and not (_TIME_OR_RATE.match(ma.string, ma.end()) and _TIME_OR_RATE.match(mb.string, mb.end())):
                continue
            # `从 A 到 B，X 提升 N 倍`: both operands before it, and its clause may name another quantity
            if ma.string is before and mb.string is before and _names_another_quantity(before[max(ma.end(), mb.end()) :]):
                continue
            return True
    return False


#: a ratio that states a speed: it is worked out only from times or rates
_SPEED_UP = lazy(r"提速|加速|快|慢|(?i:faster|slower|speed-?ups?|quicker)")
_TIME_OR_RATE = lazy(
    r"\s?(?:ms|µs|us|ns|s|secs?|seconds?|mins?|minutes?|hours?|h|毫秒|微秒|秒|分钟|小时|天|"
    r"[A-Za-z]+/s|[A-Za-z]+/sec|qps|QPS|rps|fps|FPS|TFLOPS|GFLOPS)(?![A-Za-z])"
)
#: where a clause ends, and the words that only say a quantity changed (`提升`, `a 3x rise`)
_CLAUSE_END = lazy(r"[，,；;。.!！?？:：]\s*")
_CHANGE_WORDS = lazy(
    r"提升|提高|增加|增长|增大|扩大|降低|下降|减少|缩小|变为|变成|翻了|达到|高出|相差|差了?|即|也就是|相当于|共|约|近|涨|跌|升|降|增|减"
    r"|了|到|为|是|的|倍|(?i:\b(?:a|an|the|i\.e\.|that is|which is|is|was|so|up|down|by|about|around|roughly|"
    r"rise|rises|rose|increase|increases|increased|growth|grew|drop|drops|dropped|decrease|decreased|fall|fell|"
    r"jump|jumped|gain|times|of)\b)"
)


def _is_speed_up(before: str, after: str) -> bool:
    """The ratio names a speed: its clause's verb before it (`提速 4 倍`) or the word after it (`4x faster`)."""
    clause = _CLAUSE_END.split(before)[-1]
    return bool(_SPEED_UP.search(clause[-12:]) or _SPEED_UP.match(after.lstrip()[:10]))


def _names_another_quantity(between: str) -> bool:
    """After the operands' own clause, the ratio's clause names what it measures (`，吞吐提升`)."""
    pieces = _CLAUSE_END.split(between)
    if len(pieces) < 2:
        return False  # the operands and the ratio share one clause: `4M 与 4k 的页差 1024 倍`
    rest = _CHANGE_WORDS.sub(" ", re.sub(r"\d+(?:\.\d+)?[A-Za-z]*", " ", pieces[-1]))
    return bool(re.search(r"[^\W\d_]", rest))


def glosses(text: str, start: int, value: float) -> bool:
    """Whether the claim at `start` explains a term before a colon in its sentence that holds the
    same number bare (`sleep 30：持续 30s`)."""
    before, _after = _window(text, start)
    sentence = before[sentences(before)[-1][0]:] if before else ""
    colon = max(sentence.rfind(":"), sentence.rfind("："))
    if colon < 0:
        return False
    term = sentence[:colon]
    return any(_operand(m, False) and float(m.group(1)) == value and not m.group(2)
               and not re.match(r"[A-Za-z]", term[m.end() : m.end() + 1]) for m in _OPERAND.finditer(term))


def _operands(matches: Iterable[re.Match[str]], percent_ok: bool, limit: int) -> list[re.Match[str]]:
    """The first `limit` of these numbers that may enter a calculation."""
    out: list[re.Match[str]] = []
    for m in matches:
        if len(out) >= limit:
            break
        if _operand(m, percent_ok):
            out.append(m)
    return out


def _operand(m: re.Match[str], percent_ok: bool) -> bool:
    """A number that may enter a calculation: not masked, not a year (`2018 年`), not itself a
    ratio (`2x, 4x 和 8x` are three claims, not 8 / 4)."""
    digits = m.group(1)
    if len(digits) == 4 and m.group(2) is None and digits[:2] in ("19", "20"):
        return False
    return MASK not in m.group(0) and (percent_ok or not _RATIO_UNIT.match(m.string, m.end()))


def _window(text: str, start: int) -> tuple[str, str]:
    """Before the claim: its sentence and the one before; after it: the rest of its sentence
    (the claim's own number left out). Each reaches at most `_REACH` characters: a sentence
    that runs for pages is no calculation, and every claim in it would read it all."""
    spans = sentences(text[max(0, start - _REACH) : start])
    near = text[max(0, start - _REACH) : start]
    before = near[spans[max(0, len(spans) - 2)][0] :] if spans else ""
    rest = text[start : start + _REACH]
    end = next((e for s, e in sentences(rest)), len(rest))
    skip = re.match(r"[\d.]+", rest)
    return before, rest[skip.end() if skip else 0 : end]
