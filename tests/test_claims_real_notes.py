"""What real notes claim and what they only name: decades, ranges, multiplier-shaped names,
heading labels, blockquotes and math are not claims; token counts, score points and
large magnitudes are. Each case through `find_claims` and through KB005 on a real-shaped note."""

from __future__ import annotations

import time

import pytest
from kbtools import md, run

from kbcheck.config import Config
from kbcheck.findings import Report
from kbcheck.model.citations import scan_prose
from kbcheck.model.claims import find_claims
from kbcheck.model.document import HeadingPatterns, parse_document

ROOTS = ("inbox", "organized")
CONFIG = Config()
PATTERNS = HeadingPatterns(CONFIG.reference_heading, CONFIG.trend_heading, CONFIG.open_question_heading)
DOC = "organized/knowledge/training.md"


def claims(text: str, heading: bool = False) -> list[tuple[str, float]]:
    masked = scan_prose(text, ROOTS)[1]
    return [(written, value) for _s, _e, written, value, _f in find_claims(masked, heading=heading)]


def kb005(text: str) -> list[tuple[int, int, str]]:
    report: Report = run({DOC: md(text)}, paths=[DOC], select={"KB005"})
    return [(f.line, f.column, f.subject) for f in report.findings if f.rule == "KB005"]


# -- not claims -------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        # decades
        "神经网络在 1950s 就已提出", "专家系统流行于 90年代", "the 1980s saw expert systems", "back in the '90s",
        "1990's hardware", "二十世纪 80 年代",
        # names shaped like multipliers
        "InfiniBand 支持 1X/4X/12X 链路宽度", "a 4X link carries four lanes", "the 12x lanes of the port",
        "ViT 把图像切成 48×48 的 patch", "input is 224x224 pixels", "baseline is 1x", "以 1.0× 为基准",
        # dates and times glued to other digits are one number
        "显存峰值 17025.937516636 左右", "ISSN 2307-387X", "2023-2024 学年",
    ],
)
def test_not_claims(text: str) -> None:
    assert claims(text) == []


def test_a_number_ends_where_its_digits_end() -> None:
    assert claims("峰值显存 17025.937516636MiB") == [("17025.937516636MiB", 17025.937516636)]
    assert claims("peak memory was 2026.1012GB") == [("2026.1012GB", 2026.1012)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("首 token 延迟 2-3s", [("2-3s", 2.0)]),
        ("吞吐提升 2–3 倍", [("2–3 倍", 2.0)]),
        ("latency drops by 10~20%", [("10~20%", 10.0)]),
        ("训练耗时 3 至 5 小时", [("3 至 5 小时", 3.0)]),
    ],
)
def test_a_range_is_one_claim(text: str, expected: list[tuple[str, float]]) -> None:
    assert claims(text) == expected


def test_a_hyphen_is_not_a_sign() -> None:
    assert claims("batch 8-16 的吞吐 3-4x") == [("3-4x", 3.0)]
    assert claims("loss 下降 -3%") == [("-3%", -3.0)]


@pytest.mark.parametrize(
    "heading",
    ["6.2 代表性研究工作", "增量 1 秒级调度的来源", "Part 3 Stars and forks", "1 Second-order methods",
     "3.2 Hours of compute", "Step 2 tokens", "§6.2 Stage 2 Stars"],
)
def test_heading_labels_and_ordinals_are_names(heading: str) -> None:
    assert claims(heading, heading=True) == []


@pytest.mark.parametrize(
    ("heading", "written"),
    [("批处理提速 1.4× 的传闻", "1.4×"), ("2.7x faster decoding", "2.7x"), ("3 倍提速从何而来", "3 倍"),
     ("1. 45% 的请求命中缓存", "45%"), ("Part 3: 350ms 的尾延迟", "350ms")],
)
def test_a_heading_that_states_a_quantity_is_a_claim(heading: str, written: str) -> None:
    assert [w for w, _ in claims(heading, heading=True)] == [written]


# -- claims too -------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("预训练用了 20T tokens", [("20T tokens", 20e12)]),
        ("trained on 1.4T tokens", [("1.4T tokens", 1.4e12)]),
        ("语料共 18 万亿 tokens", [("18 万亿 tokens", 18e12)]),
        ("语料规模达到 18 万亿", [("18 万亿", 18e12)]),
        ("参数量 3 亿", [("3 亿", 3e8)]),
        ("MMLU 涨 2 分", [("2 分", 2.0)]),
        ("平均分提升了 1.5 分", [("1.5 分", 1.5)]),
        ("accuracy +2 points", [("+2 points", 2.0)]),
        ("improves MMLU by 3 points", [("3 points", 3.0)]),
        ("GSM8K +2.1 pp", [("+2.1 pp", 2.1)]),
        ("context of 4096 tokens", [("4096 tokens", 4096.0)]),
        ("2x, 4x 和 8x 加速", [("2x", 2.0), ("4x", 4.0), ("8x", 8.0)]),
    ],
)
def test_claims_too(text: str, expected: list[tuple[str, float]]) -> None:
    assert claims(text) == expected


@pytest.mark.parametrize("text", ["耗时 2 分钟后", "分成 3 分类", "three key points: 3 points here", "共 3 万条数据", "7B 模型"])
def test_words_that_claim_only_in_context(text: str) -> None:
    assert [w for w, _ in claims(text)] in ([], ["2 分钟"])


# -- blockquotes and math in a parsed note ----------------------------------

def parsed_claims(text: str) -> list[tuple[str, int, int]]:
    document = parse_document(md(text), PATTERNS)
    return [(c.text, c.line, c.column) for block in document.blocks for c in block.claims]


def test_a_blockquote_states_no_claims_but_its_links_are_read() -> None:
    document = parse_document(md("""
        # 读书笔记

        > 书中说：推理成本三年下降了 90%，见 https://example.org/book
        > 第二行 3x

        我的看法：真实降幅约 40%
        """), PATTERNS)
    assert [(c.text, c.line) for b in document.blocks for c in b.claims] == [("40%", 6)]
    assert [(r.kind, r.line) for b in document.blocks for r in b.refs] == [("url", 3)]


def test_math_is_neither_numbers_nor_links() -> None:
    first = "缩放因子 $\\frac{1}{\\sqrt{d_k}}$ 与 $2x$ 无关，实测提速 1.3x"
    last = "The loss $L = 3s + 2.5\\%$ is smooth; it costs $5 to $10 per run and drops 12%."
    assert parsed_claims(f"# Attention\n\n{first}\n\n$$\n\\mathrm{{speedup}} = 45\\%\n$$\n\n{last}\n") == [
        ("1.3x", 3, first.index("1.3x") + 1), ("12%", 9, last.index("12%") + 1),
    ]


def test_display_math_inside_a_paragraph_is_math() -> None:
    # `$$` lines right after a sentence or a list item, with no blank line between: still
    # display math (its `_` subscripts and `[a](x)` are no emphasis and no links) ...
    text = ("# Kernels\n\nThe cubic kernel is\n$$\nW(r, h) = 1 - r_{0x}, \\quad r < 2h\n$$\n"
            "and it is 3x faster than the Gaussian one.\n\n- **Gaussian**:\n$$\nW = [a](x) e^{-r^2/2h}\n$$\n")
    assert parsed_claims(text) == [("3x", 7, 11)]
    # ... while two prices written with double dollars stay prose
    assert claims("it costs $$5 and $$10 per run, 12% less") == [("12%", 12.0)]


def test_math_hides_ids_too() -> None:
    document = parse_document("# x\n\n公式 $2610.02076 x$ 与 arXiv:2610.12307\n", PATTERNS)
    assert [r.value for b in document.blocks for r in b.refs] == ["2610.12307"]


# -- through KB005 on a real-shaped note -------------------------------------

def test_kb005_fires_on_claims_real_notes_make() -> None:
    lines = [
        "- 预训练语料 20T tokens，比上一代多 18 万亿",
        "- 数学能力涨 2 分，代码 +2.1 pp",
        "- 首包延迟 2-3s",
    ]
    found = kb005("# 训练笔记\n\n## 数据\n\n" + "\n".join(lines) + "\n")
    assert found == [
        (5, lines[0].index("20T") + 1, "20T tokens"), (5, lines[0].index("18 万亿") + 1, "18 万亿"),
        (6, lines[1].index("2 分") + 1, "2 分"), (6, lines[1].index("+2.1") + 1, "+2.1 pp"),
        (7, lines[2].index("2-3s") + 1, "2-3s"),
    ]


def test_kb005_quiet_on_what_real_notes_only_name() -> None:
    assert kb005("""
        # Reading notes: a history of AI

        ## 6.2 代表性研究工作

        ### 增量 1 秒级调度

        - 神经网络的概念在 1950s 出现，90年代 复兴
        - InfiniBand 链路有 1X/4X/12X 三种宽度；ViT 用 48×48 的 patch
        - 日志里的峰值是 17025.937516636MiB（原样保留，不是日期）

        > 作者写道：算力每年增长 10x，成本下降 90%

        注意力的缩放是 $1/\\sqrt{d}$，复杂度 $O(n^2)$，加速比记作 $3x$。
        """) == [(9, len("- 日志里的峰值是 ") + 1, "17025.937516636MiB")]


def test_kb005_a_heading_with_a_unit_is_a_claim() -> None:
    assert kb005("# 传闻\n\n## 批处理提速 1.4× 的传闻\n\n正文没有数字\n") == [(3, 10, "1.4×")]


def test_kb005_english_note() -> None:
    line = "Pretraining used 15T tokens and improved MMLU by +3 points over the 1990s-era baselines."
    assert kb005(f"# Notes\n\n## Part 3 Data\n\n{line}\n\n> The paper claims 4x lower cost.\n") == [
        (5, line.index("15T") + 1, "15T tokens"), (5, line.index("+3") + 1, "+3 points"),
    ]


# -- special headings ---------------------------------------------------------

@pytest.mark.parametrize(
    ("heading", "role"),
    [
        ("未来 6 到 18 个月趋势预测", "trend"),
        ("Key trends in 2026", "trend"),
        ("§6.2 展望", "trend"),
        ("参考文献", "reference"),
        ("七、参考资料", "reference"),
        ("参考链接", "reference"),
        ("§七 引用列表", "reference"),
        ("§七", "reference"),
        ("References", "reference"),
        ("7. Reference", "reference"),
        ("参考", "reference"),
        ("Bibliography", "reference"),
        ("Further reading", "reference"),
        ("开放问题", "open_question"),
        ("§6.1 待解", "open_question"),
        ("Open questions for the next quarter", "open_question"),
        # not special
        ("6.2 代表性研究工作", None),
        ("6.1 背景", None),
        ("七、实验", None),
        ("参考LLM建模方式", None),
        ("参考 GPT 的做法改进", None),
        ("Reference implementation details", None),
        ("Trending repositories", None),
        ("引用计数", None),
    ],
)
def test_special_headings(heading: str, role: str | None) -> None:
    assert PATTERNS.role_of(heading) == role


def test_the_example_and_fixture_sections_are_still_found() -> None:
    for heading, role in [("§七 引用列表", "reference"), ("§6.1 开放问题", "open_question"), ("§6.2 趋势", "trend"),
                          ("七、引用列表", "reference"), ("6.2 Trends", "trend"), ("6.1 Open questions", "open_question"),
                          ("7. References", "reference"), ("6.2 趋势", "trend"), ("6.1 开放问题", "open_question")]:
        assert PATTERNS.role_of(heading) == role, heading


@pytest.mark.parametrize("pattern", [CONFIG.reference_heading, CONFIG.trend_heading, CONFIG.open_question_heading])
@pytest.mark.parametrize("filler", [" ", "\u3000", "1.", "§ ", "参", "a"])
def test_heading_patterns_run_in_linear_time(pattern: object, filler: str) -> None:
    import re

    assert isinstance(pattern, re.Pattern)

    def timed(heading: str) -> float:
        best = float("inf")
        for _ in range(5):  # the fastest of five: a busy machine only ever adds time
            start = time.perf_counter()
            pattern.search(heading)
            best = min(best, time.perf_counter() - start)
        return best

    short = "1" + filler * (1_000 // len(filler)) + "x"
    long = "1" + filler * (100_000 // len(filler)) + "x"
    # a hundred times the text: about a hundred times the time (a few hundred with cache
    # misses on a busy machine); a pattern quadratic in the heading would take ten thousand
    assert timed(long) < max(timed(short), 1e-6) * 3_000


def test_kb001_trend_keyword_anywhere_and_no_bare_number() -> None:
    doc = md("""
        # 推理活文档

        ## 6.2 代表性研究工作

        - 没有引用的工作列表项

        ## 未来 6 到 18 个月趋势预测

        - 投机解码会成为默认配置
        - 长上下文走向稀疏注意力（arXiv:2610.02076）
        """)
    report = run({DOC: doc, "organized/paper_cards/1-2610-02076.md": "---\narxiv: \"2610.02076\"\ntitle: x\n---\n"},
                 paths=[DOC], select={"KB001"})
    assert [(f.line, f.subject) for f in report.findings] == [(9, "投机解码会成为默认配置")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("用两个 ResNet-18s 做编码器", []),
        ("每次 mask 一个字，增加了 n-1 倍复杂度", []),
        ("- 1.1 Token 类型", []),
        ("共 2亿词，4亿字", []),
        ("OPT 模型有 27 亿个参数", []),
        ("GPT-3 有 1750亿参数", [("1750亿", 1750e8)]),
        ("成功率 30%-50%", [("30%", 30.0), ("50%", 50.0)]),
        ("A100-80GB 上训练", []),
    ],
)
def test_hyphenated_names_and_counts(text: str, expected: list[tuple[str, float]]) -> None:
    assert claims(text) == expected


def test_any_mix_of_ranges_dates_signs_and_units_reads_without_error() -> None:
    import random

    pieces = ["2", "3", ".", ",", "-", "–", "~", "至", " ", "%", "x", "X", "×", "s", "倍", "万亿", "亿", "T", "B",
              " tokens", " points", "分", "涨", "+", "2026-10-29", "1950s", "年代", "MiB", "/", "a", "§", "#"]
    rnd = random.Random(5)
    for _ in range(3000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 12)))
        for _start, _end, written, value, _field in find_claims(text) + find_claims(text, heading=True):
            assert written and value == value  # a real number, never NaN


def test_a_reference_list_names_works_and_states_no_claims() -> None:
    assert kb005("""
        # Reading notes

        ## Results

        - the model reaches 91% on the benchmark

        ## Paper References

        1. OntoNotes - The 90% Solution
        2. 10x Faster Transformers, 2025

        ## 参考文献

        - 《提速 3 倍的推理引擎》
        """) == [(5, len("- the model reaches ") + 1, "91%")]


def test_a_reference_list_still_states_card_fields() -> None:
    document = parse_document(md("""
        ## §七 引用列表

        - recursive-oss/rec 本轮复采 243⭐，论文标题《提速 3 倍》
        """), PATTERNS)
    assert [(c.text, c.field) for b in document.blocks for c in b.claims] == [("243⭐", "stars")]
