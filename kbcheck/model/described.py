"""Numbers a note describes rather than claims (see KB005 in `docs/rules.md`).

A reader copies results. A note also names the settings a result was got
under, the values a tool is configured with, example sizes, the unit a price
is given per, a model by its size, a term by the range it stands for, and
says `100%` as an adverb: none of those is a result. Each function here names
the exemption (`kbcheck.model.exemptions`) that applies to one number.
"""

from __future__ import annotations

import re

from kbcheck.regex import lazy

_NUM = r"\d+(?:[.,]\d+)*"
#: an experimental condition: a share of the data trained or tested on, a range of sizes a result holds in
_CONDITIONS = lazy(
    r"(?i:(?:\b(?:(?:pre-?|fine-?)?train(?:ed|ing)?|(?:fine-?)?tuned|distill(?:ed|ing)?|learn(?:ed|ing)?)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:on|with|using)|\b(?:using|with)\s+(?:only|just))\s+(?:about\s+|roughly\s+)?" + _NUM
    + r"\s?%\s+of\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:data|dataset|corpus|samples|examples|labels|training\s+set)\b)"
    r"|(?:用|使用|基于|仅用|只用)\s?(?:约|仅)?\s?" + _NUM + r"\s?[%％]\s?的\s?(?:训练|标注)?(?:数据|样本|语料|标注)"
    r"|在\s?" + _NUM + r"\s?[A-Za-z]*\s?(?:[到至~～]|-)\s?" + _NUM + r"\s?[A-Za-z\u4e00-\u9fff]{0,8}?\s?的?(?:区间|范围|之间|长度内)"
    r"|(?i:\bbetween\s+" + _NUM + r"\s?[kKMB]?\s+and\s+" + _NUM + r"\s?[kKMB]?\s?(?:tokens?|samples|examples|steps|layers|nodes|GPUs)\b)"
    r"|(?i:\b(?:in|over|across)\s+the\s+" + _NUM + r"\s?(?:-|–|to)\s?" + _NUM + r"[\s-]?[A-Za-z]*\s+(?:range|regime|interval)\b)"
)
#: a setting verb or `default` before the value in its clause
_SETTING = lazy(
    r"默认|缺省|设为|设置为|设置成|设成|配置为|配置成|调为|调成|改为|设定为|(?i:\bdefaults?\b|\bset\s+(?:it\s+)?to\b"
    r"|\bconfigured?\s+(?:to|as|at|with)\b|\bsetting\b)"
)
#: the setting word right before the value: `默认超时 30s`, `set to 10ms`; `默认 K=15 时 23.9s` is a result
_SET_TO = lazy(r"(?:" + _SETTING.pattern + r")(?:(?!时|(?i:when|if|with)\b)[^\d,，;；。]){0,12}$")
#: the parameter a value is given for, right before it (`block size 64KB`) or right after it (`10ms step`)
_PARAMETER = (r"(?i:(?:block|stripe|chunk|page|buffer|batch|span)(?:[ _-]?size)?|cache[ _-]?size|step|interval|timeout"
              r"|period|quota|threshold|ttl|heartbeat)|(?:块|条带|分片|页|缓冲区?|批)(?:大小)?|缓存大小|步长|间隔|超时|周期|阈值|配额")
_PARAMETER_BEFORE = lazy(r"(?:" + _PARAMETER + r")\s?(?:[:：=为是]\s?)?$")
#: after the value only a step or a period names a parameter (`a 10ms slow-start step`); `per batch` is a rate
_PARAMETER_AFTER = lazy(r"\s?(?!(?i:per|each|every|a|an|the)\b)(?:[A-Za-z]+[- ]){0,2}"
                              r"(?i:step|interval|timeout|period|heartbeat|ttl)(?![A-Za-z])|\s?(?:间隔|超时|周期)")
#: `--timeout 30s`, `timeout=30s`: a flag or a key given its value
_ASSIGNED = lazy(r"(?:--[\w-]+[ =]|(?<![\w.])[A-Za-z_][\w.]*=)$")
#: a parameter count used as the name of the model it goes with: `1750亿参数的GPT-3`
_MODEL_NAME = lazy(r"\s?(?:参数|个参数|-?parameters?|-?params?)(?:的|量的|版本?的?)?\s?(?:[A-Z][\w.-]*|[A-Za-z]+-?\d)")
#: `100%` as an adverb: `100% 兼容`, `100% sure`
_IDIOM = lazy(
    r"\s?(?:的)?(?:兼容|确定|肯定|正确(?!率)|可靠|保证|安全|相信|同意|满意|确信|适用|支持|复现|还原|免费|开源"
    r"|(?i:sure|certain|compatible|correct|confident|guaranteed|safe|free|open[- ]source|agree|true|honest|reproducible)\b)"
)
#: the unit a price or a rate is counted per: `per 1M tokens`, `每 1M token`, `每 5 秒一次`, `every 25ms`
_PER = lazy(r"(?:(?i:\b(?:per|every))|每)\s?$")
#: a term and its colon, at the start of its line or item: what follows defines it
_TERM = lazy(r"(?:^|\n)\s*(?:[-*+]\s+)?(?P<term>[^\d\n:：,，。;；]{1,24})[:：]\s*(?:[<>≤≥]\s?)?$")
#: a term that names a measured quantity is not defined by a range: `延迟：2-3s` reports one
_MEASURED_TERM = lazy(
    r"延迟|吞吐|耗时|速度|时间|显存|内存|准确|精度|提升|加速|成本|价格|(?i:latency|throughput|speed|time|memory|accuracy"
    r"|cost|price|score|gain)"
)
#: a definition is the whole value: its line or clause ends after it (`short-term: 2-3s`), where a claim
#: goes on (`Key result: 30-50% of channels suffice`)
_VALUE_ENDS = lazy(r"\s?(?:以内|以上|以下|之内|内|\+)?\s*(?:$|[,，;；。\n)）|]|\.(?:\s|$))")
_BOUND_AFTER = lazy(r"\s?(?:以内|以上|以下|之内|内|\+)")
#: example values: two round sizes set side by side (`100 token 和 1M token`)
_SIZE_UNIT = lazy(r"(?i:tokens?\b|[KMGT]i?B\b)|[kKMBT](?=\s?tokens?)")
#: the work done on a size, right before it: `decode 100 token`, `处理 1M token`
_WORK = (r"(?i:\b(?:decode|decoding|prefill|generate|generating|process|processing|read|reading|write|writing"
         r"|load|loading|send|sending|encode|encoding))|解码|预填充|生成|处理|读取|写入|加载|发送|编码|输入|输出")
_WORKLOAD = lazy(r"(?:" + _WORK + r")\s?$")
#: an example value is round: one significant digit (`100`, `1M`, `4k`), a measured one rarely is
_ROUND = lazy(r"[1-9]0*")
_PAIR = lazy(r"\s?(?:和|与|或|(?i:vs\.?|versus|and|or))\s?[1-9]0*\s?(?:[kKMBT]\s?)?(?P<unit>(?i:tokens?|[KMGT]i?B))(?!\s?(?:respectively|分别))")
_RATIO = lazy(r"\s?(?:[xX×倍%％]|个百分点|pp\b)")
#: a letter defined as a variable: `where h is`, `h = hidden size`, `其中 h 为`, `h 表示`
_DEFINED = (r"(?:(?i:\bwhere|\blet)|其中|令|设)\s+\$?{v}\$?(?![A-Za-z0-9])"
            r"|(?<![A-Za-z0-9'’]){v}\$?\s*(?:=|(?i:is the|denotes|stands for)|为|是|表示|代表)")
#: how far around a number its sentence is looked at, in characters each way
_NEAR = 120
_CLAUSE = lazy(r"[，,；;。!！?？\n]|\.(?=\s)")
#: a unit of storage: what a capacity is given in
_STORAGE_UNIT = lazy(r"(?i:[KMGTPE]i?B|[kmgt]b|bytes?)")
#: a limit, a usual value or an example right before a size: `up to 10 GB`, `typically 4 KB`, `(e.g., 4 KB)`
_CAPACITY_BEFORE = lazy(
    r"(?:(?i:\b(?:e\.g\.|i\.e\.|typically|commonly|usually|normally|often|up\s+to|maximum(?:\s+of)?|max\.?"
    r"|at\s+most|no\s+more\s+than|cannot\s+exceed|limit(?:ed)?\s+(?:to|of|is)|minimum(?:\s+of)?|multiples?\s+of))"
    r"|通常|一般|常见|最大|最多|上限|不超过|至多|最小|最少)(?:[^\d.,;:，。；：]{0,12}?|,)[~≈约]?[\s*_]{0,3}$"
)
#: a value given as an example, right after the words that give one: `(e.g., 10%)`, `例如 75%`, `比如 500 ms`
_EXAMPLE_BEFORE = lazy(r"(?:(?i:\be\.g\.|\bfor\s+example)|例如|比如|譬如)[,，:：]?\s?[~≈约]?[\s*_]{0,3}$")
#: a value a design aims at, right before it: `aims for 100%`, `targets 99.99% availability`, `目标是 5 ms`
_TARGET_BEFORE = lazy(r"(?:(?i:\b(?:aims?|aiming)\s+(?:for|at)|\btargets?|\btargeting|\bgoal\s+(?:is|of))"
                      r"|目标(?:是|为)|旨在达到|力争达到)[\s*_]*(?:(?i:an?|the|about|around)\s+|[~≈约])?[\s*_]*$")
#: a multiplier after `e.g.` is a speed-up the example reports
_MULTIPLIER = lazy(r"[xX×倍]")
#: a change in the clause makes the size a result: `saves up to 10 GB`, `显存最多降低 4GB`
_CHANGE = lazy(r"(?i:reduc|sav(?:e|es|ed|ing)\b|cut|shrink|lower|less|fewer|drop|free[sd]?\b)|节省|减少|降低|压缩|缩小|省")
#: a digit named in the plural (`rows of 0s`, `all the 7s`) is picked out by a word for plural things,
#: and what follows it is no noun it would time (`the 1s must`, `7s labeled`; `the 5s window` is a duration)
_DIGIT_NAME_BEFORE = lazy(
    r"(?i:\b(?:the|all(?:\s+the)?|some|many|most|these|those|has|have|had|contains?|containing|entirely\s+of"
    r"|filled\s+with|removing|number\s+of|zeros\s+and|ones\s+and))[\s*_]*$"
)
_DIGIT_NAME_AFTER = lazy(
    r"[\s*_]*(?:$|[,.;:!?)|\]]|(?i:and\s+\d+s\b|(?:are|is|were|was|must|have|has|in|on|from|labeled|everywhere"
    r"|include|includes|elsewhere)\b))"
)
#: a heading that shows a worked example: `## Example`, `### Worked example: …`, `### 一个完整示例`
_EXAMPLE_HEADING = lazy(
    r"^[\s\d.、:：§#*_\-]*(?:"
    r"(?i:(?:(?:an?|one)\s+)?(?:(?:simple|concrete|numerical|complete|quick|full|detailed|practical|illustrative|toy"
    r"|worked)[\s-]+)*examples?(?:\s+(?:scenario|calculation|walk-?through|run|problem)s?)?)"
    r"|(?:一个|一些|几个)?(?:完整|具体|简单|数值|计算)?的?(?:示例|例子|算例|举例(?:说明)?))"
    r"(?:\s*\d+)?[\s*_]*(?:[:：(（—–-].*)?$"
)
#: a paragraph or item led by the word for an example (`Example:`, `SLA example:`, `**示例**：`, `举例：`) or walking
#: through the one just shown (`In this example, …`, `In the example above, …`, `在这个例子中，…`)
_EXAMPLE_LEAD = lazy(
    r"^\s*(?:(?:(?i:(?:(?!(?:for|some|two|three|more|other|these|those|such|many|few|the|an?)\s)[a-z][\w-]*\s+)?examples?)|示例|举例|算例|例)(?:\s*\d+)?\s*[:：]"
    r"|(?i:in\s+(?:this|the|our)\s+(?:above\s+|below\s+)?example(?:\s+(?:above|below))?|in\s+the\s+above)\s*[,，:：]"
    r"|在?(?:这个|这一|该|上面的|上述|下面的)例子?中|本例中|上例中)"
)

#: a heading over what a design must meet: `## Requirements`, `#### 14.1 Functional and Non-functional
#: Requirements`, `### Design goals`, `## 设计目标`, `## 性能需求`
_REQUIREMENT_HEADING = lazy(
    r"^[\s\d.、:：§#*_\-]*(?:"
    r"(?i:(?:(?:functional|non-functional|system|design|performance|key|business|product|scale|scalability"
    r"|latency|availability|service|project|core)[\s-]+(?:and[\s-]+(?:non-functional|functional)[\s-]+)?)*"
    r"(?:requirements?|goals?|SLAs?|SLOs?|(?:expected|target)\s+outcomes?))"
    r"|(?:设计|性能|业务|产品|功能|非功能|系统|项目|核心)?(?:需求|目标|指标要求))"
    r"[\s*_]*(?:[:：(（].*|\s[—–-]\s.*)?$"
)
#: a paragraph or item led by what a design must meet: `Goal:`, `**Requirement**: …`, `目标：`
_REQUIREMENT_LEAD = lazy(r"^[\s*_]*(?:(?i:(?:design\s+)?(?:goals?|requirements?|targets?))|目标|需求|要求)[\s*_]*[:：]")


def condition_spans(text: str) -> list[tuple[int, int, str]]:
    """The experimental conditions of a text (`pretrained on 10% of the data`): what a result was
    got under, not the result."""
    return [(*m.span(), "condition") for m in _CONDITIONS.finditer(text)]


def described(text: str, start: int, end: int, unit_start: int, unit_end: int) -> list[str]:
    """The exemptions that make the number `text[start:end]` with its unit `text[unit_start:unit_end]`
    a description, not a result."""
    tags: list[str] = []
    clause_start = max((m.end() for m in _CLAUSE.finditer(text, max(0, start - 80), start)), default=max(0, start - 80))
    before = text[clause_start:start]
    unit = text[unit_start:unit_end].strip()
    after = text[unit_end : unit_end + 40]
    ratio = bool(_RATIO.match(text, end))
    if not ratio and (_SET_TO.search(before[-24:]) or _PARAMETER_BEFORE.search(before[-16:])
                      or _ASSIGNED.search(text[max(0, start - 30) : start]) or _PARAMETER_AFTER.match(after)):
        tags.append("config-value")
    if _MODEL_NAME.match(after) and not ratio:
        tags.append("model-size-name")
    if text[start:end] == "100" and unit in ("%", "％") and _IDIOM.match(after):
        tags.append("idiom")
    if _PER.search(before[-8:]) and not ratio:
        tags.append("per-unit")
    term = _TERM.search(text, max(0, start - 40), start)
    if (term and term.end() == start and not _MEASURED_TERM.search(term.group("term"))
            and (re.search(r"\d\s?[-–~～到至]\s?\d", text[start:end]) or term.group(0).rstrip()[-1:] in "<>≤≥"
                 or _BOUND_AFTER.match(text, unit_end))
            and _VALUE_ENDS.match(text, unit_end)):
        tags.append("definition")
    around = text[max(0, start - _NEAR) : unit_start] + " " + text[unit_end : unit_end + _NEAR]
    if unit in ("h", "s") and re.search(_DEFINED.format(v=unit), around):
        tags.append("variable-unit")
    if not ratio and _STORAGE_UNIT.fullmatch(unit) and _capacity(text, start, end):
        tags.append("capacity")
    if (unit == "s" and len(text[start:end]) == 1 and _DIGIT_NAME_BEFORE.search(text, max(0, start - 24), start)
            and _DIGIT_NAME_AFTER.match(text, unit_end)):
        tags.append("digit-name")
    if _example_value(text, start, end, unit):
        tags.append("example-value")
    if _TARGET_BEFORE.search(text, max(0, start - 24), start):
        tags.append("requirement")
    size = not ratio and bool(_SIZE_UNIT.match(text, end) or _SIZE_UNIT.match(unit))
    if size and _ROUND.fullmatch(text[start:end]) and (
            (_PAIR.match(after) and _WORKLOAD.search(before[-16:])) or _paired_before(text, start)):
        tags.append("illustrative")
    return tags


def _example_value(text: str, start: int, end: int, unit: str) -> bool:
    """A whole value right after `e.g.` / `例如`, in a clause that changes nothing: an example of a
    setting or a size (`a test set (e.g., 10%)`). A precise value (`e.g., 83.6% mAP`), a multiplier
    and a value in a sentence about a saving (`saves memory, e.g. 25 GB`) are what the example reports."""
    if "." in text[start:end] or _MULTIPLIER.match(unit):
        return False
    return bool(_EXAMPLE_BEFORE.search(text, max(0, start - 16), start)) and not _CHANGE.search(
        text, max(0, start - 80), start)


def _capacity(text: str, start: int, end: int) -> bool:
    """A size given as a limit, a usual value or an example, in a sentence that changes no size
    (`saves memory, e.g. 25.15GB` reports a saving); an example size is a whole number."""
    lead = _CAPACITY_BEFORE.search(text, max(0, start - 32), start)
    if lead is None or _CHANGE.search(text, max(0, start - 80), start):
        return False
    return not (lead.group(0).lstrip().lower().startswith(("e.g", "i.e")) and "." in text[start:end])


def example_heading(heading: str) -> bool:
    """A heading over a worked example: the values under it are the example's, not results."""
    return bool(_EXAMPLE_HEADING.match(heading))


def leads_example(text: str) -> bool:
    """A paragraph or a list item that opens as an example (`Example:`, `示例：`), and so brings in
    the list that follows it."""
    return bool(_EXAMPLE_LEAD.match(text))


def requirement_heading(heading: str) -> bool:
    """A heading over requirements or goals: the values under it are what the design must meet, not results."""
    return bool(_REQUIREMENT_HEADING.match(heading))


def leads_requirement(text: str) -> bool:
    """A paragraph or a list item that opens as a requirement or a goal (`Goal:`, `目标：`)."""
    return bool(_REQUIREMENT_LEAD.match(text))


def _paired_before(text: str, start: int) -> bool:
    """The second of two sizes set side by side: `100 token 和 1M token`."""
    before = text[max(0, start - 30) : start]
    m = re.search(r"(?:" + _WORK + r")\s?(?<![\d.,])[1-9]0*\s?(?:[kKMBT]\s?)?(?i:tokens?|[KMGT]i?B)\s?"
                  r"(?:和|与|或|(?i:vs\.?|versus|and|or))\s?$", before)
    return m is not None


#: a number of a table row before a change (`| 70.1 | 72.3 | +3.1% |`); masked ids hold no digits
_ROW_NUMBER = lazy(r"(?<![\w.])(\d+(?:\.\d+)?)(\s?[%％])?")
#: a data cell is short: a number, maybe its unit and a change in parentheses
_DATA_CELL = 32
#: how many numbers before a change in its row are tried in pairs
_ROW_OPERANDS = 4


#: what joins a table row's cells in its block's text (`Block.cells`)
CELL_SEPARATOR = " | "


def row_change(before: str, written: str, value: float) -> bool:
    """A percent change (`+3.1%`, `(-25%)`) or a gap in points that the author worked out from two
    numbers written before it in its table row (`before`: the row's cells up to the change).

    Only short data cells count: a cell of prose holds numbers of all kinds."""
    points = written.rstrip().endswith(("pp", "个百分点"))
    if not (points or written.rstrip().endswith(("%", "％"))) or re.search(r"\d\s?[-–~～到至]\s?\d", written):
        return False
    cells = before.split(CELL_SEPARATOR)
    if len(cells[-1]) > _DATA_CELL or not (points or written[:1] in "+-−" or cells[-1].rstrip().endswith("(")):
        return False
    digits = re.search(r"\d+(?:\.(\d+))?", written)
    decimals = len(digits.group(1) or "") if digits else 0
    tolerance = 0.5 * 10.0**-decimals + 1e-9
    data = CELL_SEPARATOR.join(cell for cell in cells if len(cell) <= _DATA_CELL)
    found = [(float(m.group(1)), bool(m.group(2))) for m in _ROW_NUMBER.finditer(data)][-_ROW_OPERANDS:]
    target = abs(value)
    for i, (a, a_percent) in enumerate(found):
        for b, b_percent in found[i + 1 :]:
            if a == b:
                continue
            if not points and a and abs(abs(b - a) / a * 100 - target) <= tolerance:
                return True
            if (points or (a_percent and b_percent)) and abs(abs(b - a) - target) <= tolerance:
                return True
    return False
