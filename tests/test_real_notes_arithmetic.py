"""Numbers a note works out or supposes for itself are not claims (KB005): calculations written
out, what-ifs, questions, the author's own account, glosses, ratios of numbers beside them.
Each case that goes quiet has a neighbour that must still fire."""

from __future__ import annotations

import pytest
from kbtools import md, run

from kbcheck.findings import Report
from kbcheck.model.citations import scan_prose
from kbcheck.model.claims import find_claims

DOC = "organized/knowledge/inference.md"


def claims(text: str, heading: bool = False) -> list[str]:
    masked = scan_prose(text, ("organized", "inbox"))[1]
    return [written for _s, _e, written, _v, _f in find_claims(masked, heading=heading)]


def kb005(text: str, path: str = DOC, **extra: str) -> list[tuple[int, int, str]]:
    files: dict[str, str | bytes] = {path: md(text), **{p.replace("__", "/"): md(b) for p, b in extra.items()}}
    report: Report = run(files, paths=[path], select={"KB005"})
    return [(f.line, f.column, f.subject) for f in report.findings if f.rule == "KB005"]


# -- calculations written out ----------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "访存耗时： t_mem = 6400000 B / 16GB/s = 0.4ms",
        "理论下限： t = max(t_cpu, t_mem) = 12.5ms",
        "则 fp16 峰值 = 1.2G × 8 × 2 = 19.2 GFLOPS",
        "年化 8% 时，年支出 96k 需要本金 96k / 0.08 = 1200k",
        "Peak throughput = 2.0 GHz * 16 lanes * 2 ≈ 64 GFLOPS",
        "so each step takes 512 tokens / 2048 tokens/s = 250 ms",
    ],
)
def test_a_calculation_written_out_is_not_a_claim(text: str) -> None:
    assert claims(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("准确率 = 95%", ["95%"]),  # an = alone states a value
        ("吞吐 = 8×A100 上 1200 tokens/s", ["1200 tokens/s"]),  # `8×A100` names a machine, not a product
        ("latency = 350ms on the shared cluster", ["350ms"]),
    ],
)
def test_an_equals_sign_alone_still_states_a_claim(text: str, expected: list[str]) -> None:
    assert claims(text) == expected


# -- what-ifs and questions ------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "假设显存带宽为：16GB/s",
        "如果实测耗时 180ms，则说明瓶颈在访存。",
        "如果一台机器有 8 张卡，每秒采样 49 次，持续 20 秒，就得到 7,840 个调用栈。",
        "即使 0.5% 的请求超时，也会拖垮整个集群。",
        "Suppose the cache hit rate drops to 60%.",
        "### 2. GPU 利用率到了 100%，还能再提速吗？",
        "能否在不改模型的前提下再提速 2 倍？",
        "如何 3 小时读完一篇论文",
    ],
)
def test_a_condition_or_a_question_states_no_claim(text: str) -> None:
    assert claims(text, heading=text.startswith("#")) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # what follows from the condition is the claim
        ("If the architect wants only 10% wasted work, the predictor must be right 99.1% of the time.", ["99.1%"]),
        ("如果换成 EAGLE，解码提速 2.7x。", ["2.7x"]),
        ("如果 batch 超过 64，就会让延迟升到 350ms", ["350ms"]),
        # `若干` is not `若`, and a plain sentence is no condition
        ("若干实验表明提速 3x", ["3x"]),
    ],
)
def test_what_follows_a_condition_is_still_a_claim(text: str, expected: list[str]) -> None:
    assert claims(text) == expected


def test_a_list_brought_in_by_a_supposition_states_no_claims() -> None:
    text = """
        # 储蓄与收益

        回到问题上来，假设

        - 月薪 15k。
        - 理财年化收益率是 8%。

        实际情况是：

        - 去年的年化收益率是 6%。
        """
    assert kb005(text) == [(10, 13, "6%")]


def test_an_english_list_brought_in_by_assume_states_no_claims() -> None:
    text = """
        # Sizing the cluster

        Assume the following:

        - the hit rate is 80%
        - each miss costs 120ms

        Measured last week:

        - the hit rate was 72%
        """
    assert kb005(text) == [(10, 20, "72%")]


# -- the author's own account ----------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "我的报价方式是：第 1 单 40% 折扣。第 2 单 20% 折扣。",
        "我一般沟通超过 3 小时的单子就不接。",
        "I charge 30% less for the first project.",
        "熬了一夜，6 小时以后终于跑通了。",
        "three days later the job finished; 2 hours later it crashed",
    ],
)
def test_the_authors_own_account_is_not_a_claim(text: str) -> None:
    assert claims(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的看法：真实降幅约 40%", ["40%"]),  # a view of the world is a claim
        ("I think the speed-up is closer to 3x", ["3x"]),
        ("我国 GDP 增长 5%", ["5%"]),  # `我国` is the country, not the author
        ("我们的实验显示提速 2.7x", ["2.7x"]),  # `我们` reports results
        ("训练耗时 12 小时", ["12 小时"]),
    ],
)
def test_a_view_or_a_result_in_the_first_person_is_still_a_claim(text: str, expected: list[str]) -> None:
    assert claims(text) == expected


# -- glosses and ratios worked out from numbers beside them -----------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "sleep 20：持续 20s，也可以手动停止。",
        "-F 49: sample at 49 Hz",
        "页大小为 2M 的与 4k 的页表条目相差 512 倍。",
        "比如，从 32 提升到 128 通道。提升 4 倍。",
        "from 120 to 360 requests per node, a 3x rise",
        "从 70.1% 提升到 72.3%，涨了 2.2 个百分点",
    ],
)
def test_a_gloss_or_a_worked_out_ratio_is_not_a_claim(text: str) -> None:
    assert [c for c in claims(text) if c not in ("70.1%", "72.3%")] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # other multipliers are claims of their own, not operands
        ("2x, 4x 和 8x 加速", ["2x", "4x", "8x"]),
        # a percentage is never taken for worked out: 15 of 60 is 25%, but the 25% is the fact
        ("up to 60 instructions in flight, including about 15 branches, as branches are about 25% of all",
         ["25%"]),
        # a year is no operand: 2018 / 20 is not where 99% came from
        ("到 2018 年已经增长到 20 billion. 99% 的处理器是 RISC.", ["99%"]),
        ("Llama-3 70B: 延迟 70ms", ["70ms"]),  # `70B` names a model, it does not gloss 70ms
        ("EAGLE 在 8 卡上提速 2.7x，吞吐 1200 tokens/s", ["2.7x", "1200 tokens/s"]),
    ],
)
def test_ratios_and_glosses_that_are_not_worked_out_are_claims(text: str, expected: list[str]) -> None:
    assert claims(text) == expected


def test_kb005_on_a_worked_estimate_fires_only_on_its_stated_result() -> None:
    text = """
        # GEMM 耗时估算

        FMA 耗时： t_cpu = 1000000000 / 320G = 3.125ms

        假设显存带宽为：20GB/s

        理论下限： t = max(t_cpu, t_mem) = 3.125ms

        如果实测耗时 200ms，则找到了需要优化的点。

        实测 cuBLAS 在同一形状上耗时 4.1ms。
        """
    assert kb005(text) == [(11, 20, "4.1ms")]


# -- a note that names its work --------------------------------------------------------------

PAPER_NOTE = """
    ---
    title: Residual Learning for Deep Networks
    authors:
    - A. Author
    - B. Author
    year: 2015
    ---
    ## 实验

    深层网络比浅层网络错误率低 2.8%。
    """
TITLED_NOTE = """
    # MapFold: Simplified Data Processing -- 2004

    ## 参数

    - each task reads 16 MB to 64 MB of input
    """


def test_a_guide_whose_frontmatter_names_its_work_has_that_work_as_its_source() -> None:
    assert kb005(PAPER_NOTE, path="organized/guides/resnet.md") == []


def test_a_living_document_with_the_same_frontmatter_still_fires() -> None:
    # a living document draws on many works: its `title` and `authors` are its own
    assert kb005(PAPER_NOTE) == [(10, 15, "2.8%")]


def test_a_guide_with_a_title_but_no_authors_still_fires() -> None:
    text = PAPER_NOTE.replace("    authors:\n    - A. Author\n    - B. Author\n", "")
    assert kb005(text, path="organized/guides/resnet.md") == [(7, 15, "2.8%")]


def test_a_guide_whose_title_heading_ends_in_its_year_is_that_works_note() -> None:
    assert kb005(TITLED_NOTE, path="organized/guides/mapfold.md") == []
    # a living document's title with a year is a topic and its year, not a work
    assert [s for _l, _c, s in kb005(TITLED_NOTE)] == ["16 MB", "64 MB"]


def test_a_meta_info_section_gives_the_notes_work() -> None:
    text = """
        # 支付简史 - 某作者

        ## Meta Info

        - douban: https://book.example.org/subject/1234/

        ## 第 1 次阅读

        早期引导 90% 的免费用户升级为付费用户。
        """
    assert kb005(text, path="organized/guides/payments.md") == []
    assert kb005(text.replace("## Meta Info", "## 读后感"), path="organized/guides/payments.md") == [(9, 6, "90%")]


def test_a_guide_titled_by_topic_and_year_is_not_a_works_note() -> None:
    text = """
        # 推理部署指南 (2025)

        单卡吞吐 1200 tokens/s。
        """
    assert kb005(text, path="organized/guides/serving.md") == [(3, 6, "1200 tokens/s")]


@pytest.mark.parametrize(
    "unit",
    [
        "如果 5555555555，",  # thousands of conditions in one sentence
        "a = b = 3x. ",  # thousands of calculations, each a claim
        "从 64 到 256，提升 4 倍",  # thousands of ratios in one sentence
        "sleep 30：持续 30s，",  # thousands of glosses
        "1 2 3 4 5 6 7 8 9 10x ",  # many numbers before every multiplier
        "1111111111",  # one run of digits, then an `=`
    ],
)
def test_reading_what_a_note_works_out_takes_linear_time(unit: str) -> None:
    import time

    def timed(text: str) -> float:
        best = float("inf")
        for _ in range(3):  # the fastest of three: a busy machine only ever adds time
            start = time.perf_counter()
            claims(text)
            best = min(best, time.perf_counter() - start)
        return best

    short = unit * (1_000 // len(unit)) + "= 3x"
    long = unit * (50_000 // len(unit)) + "= 3x"
    # fifty times the text: about fifty times the time; quadratic work would take 2,500 times
    assert timed(long) < max(timed(short), 1e-5) * 400
