"""The named exemptions: numbers with a unit that are no claim (KB005, KB006; see `docs/rules.md`).

Each entry is one general reason a number a reader sees is not a result to
copy. The claim finder tags every candidate with the names of the entries that
apply to it (`kbcheck.model.claims`, `kbcheck.model.document`), so a parse does
not depend on the configuration; the rule drops a candidate when one of its
tags is switched on (`[rules.KB005] exempt`, every entry by default).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Exemption:
    """One reason a number is not a claim: its name (the configuration's word) and one line of doc."""

    name: str
    doc: str


EXEMPTIONS: tuple[Exemption, ...] = (
    Exemption("date", "a date or a time of day: `2024-05-01`, `5月3日`, `10:30`"),
    Exemption("decade", "a decade: `1990s`, `’90s`, `90年代`"),
    Exemption("issn", "an ISSN: `2307-387X`"),
    Exemption("version", "a version of three parts or more: `v1.2.3`, `3.10.2`"),
    Exemption("label", "a section label or an ordinal: `§3`, `第 3`, `#12`; in a heading its leading `6.2` "
                       "and `Part 3`, `增量 1` (a symbol unit keeps it a quantity: `3 倍提速`)"),
    Exemption("baseline", "the baseline multiplier `1x`, which every speed-up is measured against"),
    Exemption("named-multiplier", "a multiplier that names a width or a mode: `1X/4X/12X`, `4X links`"),
    Exemption("quoted", "inside quotation marks (`“…”`, `「…」`, `\"…\"`): another document's words"),
    Exemption("blockquote", "inside a blockquote (`> …`): another document's words"),
    Exemption("reference-title", "in a reference list, anything but a card field: the titles of works "
                                 "(`The 90% Solution`)"),
    Exemption("supposition", "the condition of a what-if (`假设带宽为 20GB/s`, `If the rate were 10%, …`, `Let's say …`) "
                             "and the items of a list brought in by `假设：` / `Suppose:`"),
    Exemption("question", "a sentence that asks (`…能否再提速 2 倍？`, `如何 4 小时学会…`); a `Why …:` lead "
                          "asks only up to its colon"),
    Exemption("first-person", "the author's own account in the first person singular (`我的报价：第 1 单 50% "
                              "折扣`); a view (`我认为约 40%`) or a measurement (`I measured it: 3x faster`) "
                              "is still a claim"),
    Exemption("calculation", "a sentence that writes a calculation out: `t = 8 MB / 20 GB/s = 0.4 ms`"),
    Exemption("time-point", "a duration that tells when: `4 小时以后`, `2 hours later`"),
    Exemption("gloss", "a value glossing the term before its colon with the same number: `sleep 30：持续 30s`"),
    Exemption("worked-out", "a ratio or a gap in points worked out from two numbers of the same quantity "
                            "beside it (`从 64 到 256 通道，提升 4 倍`); a ratio of another quantity "
                            "(`从 2 个节点扩到 8 个节点，吞吐提升 4 倍`) or a speed-up over sizes is a claim"),
    Exemption("model-size-name", "a parameter count used as a model's name: `1750亿参数的GPT-3`"),
    Exemption("idiom", "`100%` used as an adverb: `100% 兼容`, `100% sure`"),
    Exemption("per-unit", "the unit a price or a rate is counted per: `$2 per 1M tokens`, `每 5 秒采样一次`, "
              "`measured every 25ms`"),
    Exemption("definition", "a range or a bound (`<`, `>`) that is the whole value of the term before its colon: "
                            "`short-term: 2-3s`, `长任务：> 10 分钟`; an estimate (`Router: ~12 GB`) or a sentence that "
                            "goes on (`关键：30-50% 的通道就够了`) is a claim"),
    Exemption("config-value", "a configuration or default value the note describes: `block size 64KB`, "
                              "`默认超时 30s`, `set to 10ms`, `--timeout=30s`"),
    Exemption("condition", "an experimental condition, not its result: `pretrained on 10% of the data`, "
                           "`在 64 到 256 token 的区间`"),
    Exemption("variable-unit", "a letter after a number that its sentence defines as a variable, not a unit: "
                               "`4h, where h is the hidden size`"),
    Exemption("illustrative", "example values: the round sizes of a workload set side by side (`decode 100 token "
                              "和 1M token`); amounts of a thing (`2B tokens and 4M tokens of data`) are claims"),
    Exemption("capacity", "a storage size given as a limit, a usual value or an example (`up to 10 GB`, "
                          "`typically 4 KB`, `(e.g., 4 KB)`, `最大 4GB`, `通常 4KB`): a specification, not a result; a "
                          "size saved or cut (`saves up to 10 GB`, `最多节省 4GB`) or used (`显存占用 18GB`) is a claim"),
    Exemption("example-value", "a whole value given right after `e.g.`, `for example`, `例如` or `比如`: "
                               "`a test set (e.g., 10%)`, `例如 75% 的遮蔽率`; a precise value (`e.g., 83.6% mAP`), "
                               "a multiplier (`e.g., 3x`) and a value in a sentence about a saving are claims"),
    Exemption("digit-name", "a digit named in the plural, not seconds: `rows of 0s`, `all the 7s`, `the 1s must "
                            "lie on the diagonal`; `in 5s` and `the 5s window` are durations"),
    Exemption("worked-example", "the values of a worked example: under a heading that names one (`## Example`, "
                                "`### Worked example: …`, `### 一个完整示例`), in a paragraph or item led by "
                                "`Example:` / `SLA example:` / `示例：` / `举例：` or walking through the example just shown "
                                "(`In this example, …`, `In the example above, …`, `在这个例子中`), and in the list "
                                "such a lead brings in (`In the example of …` names a case, no example); a heading "
                                "about examples as data (`Prompt Examples`, `示例质量分析`) is no example"),
    Exemption("requirement", "what a design must meet, not a result: the values under a heading that names "
                             "requirements or goals (`## Requirements`, `### Functional and Non-functional "
                             "Requirements`, `#### Goals`, `## 设计目标`), in a paragraph or item led by `Goal:` / "
                             "`Requirement:` / `目标：`, and right after `aims for`, `targets` or `目标是`; `## Results` "
                             "and `## Achieving the goals` are no such heading, `reached 99.99%` is a result"),
    Exemption("restated", "a value claimed before in the same part of the note (its level-1 or level-2 "
                          "section), as written (`15 minutes`, `3x`): its first statement carries the finding or its "
                          "source; the same value in another `##` section is another item's; a value given first as "
                          "an example or a setting and claimed later is reported where it is claimed, and the cells "
                          "of a table are each a quantity of their own (`| A | 3x | 3x |` reports both)"),
    Exemption("row-change", "a change written as one (`+25%`, `(-3.1%)`, `+2.2pp`) and worked out from two numbers "
                            "in the short data cells of its table row"),
    Exemption("own-measurement", "a number the author shows with the command or log that produced it: the "
                                 "paragraph right before or after a log or console block (a `$ ` prompt, or fenced "
                                 "as `console`, `log`, `output`) holding the same value"),
)

#: every exemption's name, in the table's order (the default of `[rules.KB005] exempt`)
NAMES: tuple[str, ...] = tuple(e.name for e in EXEMPTIONS)


def table_doc() -> str:
    """The table as the rule's docs list it: one line per entry."""
    return "\n".join(f"- `{e.name}`: {e.doc}" for e in EXEMPTIONS)
