"""The table of exemptions (KB005, KB006): each entry exempts its case and not the near case beside
it, is switched off in the configuration, and the claims the table once swallowed are reported."""

from __future__ import annotations

import json

import pytest
from gitrepo import GitRepo
from kbtools import md, run, run_cli

from kbcheck.config import config_from_mapping
from kbcheck.errors import ConfigError
from kbcheck.model.citations import scan_prose
from kbcheck.model.exemptions import NAMES
from kbcheck.rules import get_rule

DOC = "organized/knowledge/notes.md"

#: name -> (a line it exempts, the number it exempts there, a near line whose number is a claim)
PROSE = {
    "date": ("会议 2024-05-01 10:30 开始", None, "会议开了 10.5 小时"),
    "decade": ("the 1990s were slow", "1990s", "the run took 1993s"),
    "issn": ("ISSN 2307-387X", "2307-387X", "耗时 2307s"),
    "version": ("装了 v1.2.3 以后", None, "装了 v1.2 以后提速 3x"),
    "label": ("## 6.2 趋势", None, "## 6.2× 的传闻"),
    "baseline": ("the baseline is 1x", "1x", "ours is 2x"),
    "named-multiplier": ("1X/4X/12X widths", "4X", "the 4X speed-up"),
    "quoted": ("论文说 “提速 3 倍”", "3 倍", "论文说提速 3 倍"),
    "question": ("能否再提速 2 倍？", "2 倍", "能再提速 2 倍。"),
    "first-person": ("我的报价是 50% 折扣", "50%", "我测了一下，提速 50%"),
    "calculation": ("t = 8 MB / 20 GB/s = 0.4 ms", "0.4 ms", "t 是 0.4 ms"),
    "time-point": ("4 小时以后就好了", "4 小时", "训练 4 小时"),
    "gloss": ("sleep 30：持续 30s", "30s", "sleep：持续 30s"),
    "supposition": ("假设带宽为 20GB/s，则很快", "20GB", "带宽为 20GB/s，所以很快"),
    "worked-out": ("从 32 提升到 128 通道。提升 4 倍。", "4 倍", "从 2 个节点扩到 8 个节点，吞吐提升 4 倍。"),
    "model-size-name": ("1750亿参数的GPT-3 很大", "1750亿", "GPT-3 的训练用了 3000亿 token"),
    "idiom": ("100% 兼容旧接口", "100%", "100% 的请求超时"),
    "per-unit": ("$2 per 1M tokens", "1M tokens", "处理了 1M tokens"),
    "definition": ("- short-term: 2-3s", "2-3s", "- latency: 2-3s"),
    "config-value": ("block size 64KB", "64KB", "显存占用 64KB"),
    "condition": ("pretrained on 10% of the data", "10%", "accuracy rose by 10% on the data"),
    "variable-unit": ("FFN 宽 4h，其中 h 是隐藏维度", "4h", "训练用了 4h"),
    "illustrative": ("decode 100 token 和 1M token 的开销不同", "100 token", "吞吐 100 tokens/s"),
    "capacity": ("a page is typically 4 KB", "4 KB", "the new allocator saves up to 4 GB"),
    "example-value": ("hold out a test set (e.g., 10%)", "10%", "it scores 83.6% mAP (e.g., 83.6% on VOC)"),
    "digit-name": ("the 1s must lie on the diagonal", "1s", "the 5s window is too short"),
    "requirement": ("the design targets 99.99% availability", "99.99%", "the service had 99.99% availability"),
}


def claims(text: str, exempt: tuple[str, ...] = NAMES) -> list[str]:
    """The claim numbers of one line, as written, under the exemptions `exempt`."""
    from kbcheck.model.claims import find_claims

    masked = scan_prose(text, ("organized", "inbox"))[1]
    heading = text.startswith("#")
    return [written for _s, _e, written, _v, _f in find_claims(masked.lstrip("# "), heading=heading, exempt=exempt)]


def kb005(text: str, exempt: list[str] | None = None) -> list[str]:
    config = config_from_mapping({"rules": {"KB005": {"exempt": exempt}}} if exempt is not None else {}, "test")
    report = run({DOC: md(text)}, paths=[DOC], select={"KB005"}, config=config)
    return [f.subject for f in report.findings if f.rule == "KB005"]


def test_every_exemption_has_a_case_and_a_near_case() -> None:
    block_level = {"blockquote", "reference-title", "row-change", "own-measurement", "worked-example", "restated"}
    assert set(NAMES) == set(PROSE) | block_level
    assert len(NAMES) == len(set(NAMES))


@pytest.mark.parametrize("name", sorted(PROSE))
def test_an_exemption_exempts_its_case_and_not_the_near_case(name: str) -> None:
    exempted, number, near = PROSE[name]
    assert claims(exempted) == [], name
    assert claims(near), name
    if number is not None:
        # switched off, the entry's number is a claim again
        assert number in "".join(claims(exempted, tuple(n for n in NAMES if n != name)))


# -- the claims the table once swallowed ------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I measured it: the new kernel is 3x faster at 20ms.", ["3x", "20ms"]),
        ("我测了一下，新模型提速 3 倍，延迟 20ms。", ["3 倍", "20ms"]),
        ("从 2 个节点扩到 8 个节点，吞吐提升 4 倍。", ["4 倍"]),  # a 4x that equals 8/2 is still a scaling claim
        ("Why it matters: EAGLE is 2.7x faster.", ["2.7x"]),
        ("EAGLE 在 64 到 256 token 的区间提速 4 倍", ["4 倍"]),  # the range is the condition, the 4 倍 the claim
        ("latency fell from 200ms to 50ms, a 4x speedup", ["200ms", "50ms"]),  # times: the 4x is worked out
    ],
)
def test_these_are_claims(text: str, expected: list[str]) -> None:
    assert claims(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a size after the number is a result, not a parameter
        ("AlexNet-level accuracy with <1MB model size", ["1MB"]),
        # an estimate after a colon is no definition
        ("- Router: ~12 GB GPU memory for training", ["12 GB"]),
        # a split of a data set, not a price
        ("splits of 100M/250K tokens", ["250K tokens"]),
        # precise values after e.g. are results
        ("it saves memory, e.g. 25.15GB vs 5.93GB", ["25.15GB", "5.93GB"]),
        # amounts of a thing are no example values, a rate per batch is no parameter, a cache no setting
        ("totaling 20GB, 50GB and 3TB of code", ["20GB", "50GB", "3TB"]),
        ("about 15 seconds per batch", ["15 seconds"]),
        ("the KV cache of 180 GB", ["180 GB"]),
        # a value that a sentence goes on about defines nothing; `100% 是…` is a value, not an adverb
        ("- 关键结果：30-50% 的通道就能保持性能", ["30-50%"]),
        ("归一化准确率超 100% 是最好的结果", ["100%"]),
        # a result under a default setting is a result
        ("默认 K=15 时单次查询 23.9s", ["23.9s"]),
        # a share of the samples a result holds on is the result, not a condition
        ("the model is correct on 80% of the samples", ["80%"]),
        ("辩论只在 8.3% 的样本上激活", ["8.3%"]),
        # a range of results is no condition
        ("accuracy between 70% and 80%", ["70%", "80%"]),
        # a letter that is no variable of the sentence is a unit
        ("detects text at 0.09s per image, as its s-shaped curve shows", ["0.09s"]),
        # a size used, or a speed-up given as usual, is a result; a measured size after e.g. too
        ("显存占用 18GB", ["18GB"]),
        ("it is typically 3x faster", ["3x"]),
        ("memory fell a lot, e.g. to 5.93GB", ["5.93GB"]),
        # a digit's plural is picked out as things are; a duration is timed
        ("a row made entirely of 0s, and all the 7s labeled as 9", []),
        ("it retried for 5s, in 1s steps", ["5s", "1s"]),
    ],
)
def test_near_shapes_stay_claims(text: str, expected: list[str]) -> None:
    assert claims(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the period of something done again and again is counted per, as `每 5 秒` is
        ("power was measured every 25ms and averaged", []),
        ("- **Refresh rate**: every 5 seconds", []),
        ("every request took 25ms", ["25ms"]),
        ("the job finished in 15 minutes", ["15 minutes"]),
        # `Let's say …` supposes, as `Suppose …` does
        ("Let's say the head holds 2 hours of data, split into chunks.", []),
        ("The head holds 2 hours of data, split into chunks.", ["2 hours"]),
        ("Let's also say the warm-up period is 5 seconds.", []),
        ("Let's just say the new model is 30% faster.", ["30%"]),  # an idiom that asserts
        # an example of a setting is no result; what an example reports is
        ("masking a high share of the image, e.g., 75%, makes the task hard", []),
        ("对输入图像的高比例（例如 75%）进行遮蔽", []),
        ("each request expires (e.g. 500 ms for reads)", []),
        ("competitive results (e.g., 83.6% mAP on the 2007 set)", ["83.6%"]),
        ("faster on long inputs (e.g., 3x on long ones)", ["3x"]),
        ("it cuts memory, e.g. 25 GB on the large model", ["25 GB"]),
    ],
)
def test_a_period_an_example_and_a_lets_say_are_no_claims(text: str, expected: list[str]) -> None:
    assert claims(text) == expected


def test_values_of_a_table_row_are_no_changes() -> None:
    text = """
        # Results

        | task | a | b | c |
        |---|---|---|---|
        | one | 15.8% | 18.2% | 29.1% |
        | two | a long cell of prose that says it went from 20% to 30% | +50% | x |
        """
    assert kb005(text) == ["15.8%", "18.2%", "29.1%", "20%", "30%", "+50%"]


# -- exemptions of a block's place in the page ------------------------------------------------

def test_a_blockquote_and_a_reference_title_are_exempt_until_switched_off() -> None:
    text = """
        # Notes

        > 作者说提速 45%

        ## References

        1. The 90% Solution
        """
    assert kb005(text) == []
    assert kb005(text, [n for n in NAMES if n != "blockquote"]) == ["45%"]
    assert kb005(text, [n for n in NAMES if n != "reference-title"]) == ["90%"]


def test_a_percent_change_worked_out_from_its_table_row() -> None:
    text = """
        # Results

        | model | before | after | change |
        |---|---|---|---|
        | A | 120 | 150 | +25% |
        | B | 120 | 150 | +31% |
        """
    # 150 / 120 is +25%; +31% is nobody's arithmetic (the 120 and 150 are claims of neither row)
    assert kb005(text) == ["+31%"]
    assert kb005(text, [n for n in NAMES if n != "row-change"]) == ["+25%", "+31%"]


def test_a_number_shown_with_the_log_that_produced_it() -> None:
    text = """
        # Kernel

        The new kernel runs at 20ms per call:

        ```
        $ ./bench --iters 100
        mean 20ms  p99 31ms
        ```

        So p99 is 31ms, and the old kernel took 90ms.

        I measured it: the new kernel is 3x faster.
        """
    # 20ms and 31ms are in the log beside them; 90ms is not, and a measurement without its log is a claim
    assert kb005(text) == ["90ms", "3x"]
    assert kb005(text, [n for n in NAMES if n != "own-measurement"]) == ["20ms", "31ms", "90ms", "3x"]


def test_the_values_of_a_worked_example_are_exempt_until_switched_off() -> None:
    text = """
        # Scheduling

        ## Example: round robin

        A quantum of 4 ms gives a wait of 16 ms.

        ### The arithmetic

        - the third job waits 12 ms

        ## Results

        The new scheduler is 3x faster.

        **Example**: an update check needs 5-10 MB.

        Example:

        - a burst of 20 ms
          - then 40 ms

        After the example, a run took 50 ms.
        """
    # under the example heading and its sub-sections, led by `Example:`, or in the list it brings in
    assert kb005(text) == ["3x", "50 ms"]
    assert kb005(text, [n for n in NAMES if n != "worked-example"]) == [
        "4 ms", "16 ms", "12 ms", "3x", "5-10 MB", "20 ms", "40 ms", "50 ms"]


def test_a_heading_about_examples_as_data_is_no_worked_example() -> None:
    text = """
        # Prompting

        ## Prompt Examples

        The model scored 45% with them.

        For example: EAGLE is 2.7x faster.

        ## 示例质量分析

        准确率提升 12%。

        ## 一个完整示例：推理一步

        这一步耗时 3 秒。
        """
    # `For example:` leads a sentence of its own, which may state a result; the walk-through is an example
    assert kb005(text) == ["45%", "2.7x", "12%"]


def test_a_walk_through_of_the_example_just_shown_is_a_worked_example() -> None:
    text = """
        # Paging

        ## Pages

        In this example, each page holds 4 KB of memory.

        - In the above, allocating a 9 KB block fails.

        在这个例子中，一次换页耗时 3 秒。

        - **SLA example**:
          - a page fault served within 20 ms.

        In the example of the new allocator, fragmentation fell by 40%.

        In this paper, the allocator is 2x faster.
        """
    # a walk-through is led by `In this example,`, an example by `SLA example:`; `In the example of …` names a case
    assert kb005(text) == ["40%", "2x"]
    assert kb005(text, [n for n in NAMES if n != "worked-example"]) == ["4 KB", "9 KB", "3 秒", "20 ms", "40%", "2x"]


def test_what_a_design_must_meet_is_exempt_until_switched_off() -> None:
    text = """
        # A chat service

        ## 1.2 Functional and Non-functional Requirements

        - **Availability**: target 99.99% uptime.
        - **Latency**: a p99 delivery time of 10 seconds.

        ### Storage

        Each region holds 40 TB of history.

        ## Results

        The prototype delivered at p99 in 14 seconds.

        **Goal**: writes finish in 40 ms.

        ## 设计目标

        写入延迟低于 5 ms。

        ## Achieving the goals

        The cache cut reads by 3x.
        """
    # the values under the requirements heading and its sub-sections, or led by `Goal:`, are targets
    assert kb005(text) == ["14 seconds", "3x"]
    assert kb005(text, [n for n in NAMES if n != "requirement"]) == [
        "99.99%", "10 seconds", "40 TB", "14 seconds", "40 ms", "5 ms", "3x"]


def test_a_value_claimed_again_is_reported_where_it_is_first_claimed() -> None:
    text = """
        # Serverless limits

        ## Limits

        A single invocation runs for at most 15 minutes.

        ### Use cases

        Jobs under 15 minutes fit well; the cold start adds 200 ms.

        ## Tuning

        The timeout is set to 300 ms for batch jobs.

        Warm pools cut the start-up time by 300 ms.

        ## Pricing

        A warm pool costs 200 ms of billed time per start.
        """
    # the second `15 minutes` repeats the first in its part; `300 ms` is a setting before it is claimed;
    # the `200 ms` of another `##` section is another item's
    assert kb005(text) == ["15 minutes", "200 ms", "300 ms", "200 ms"]
    assert kb005(text, [n for n in NAMES if n != "restated"]) == [
        "15 minutes", "15 minutes", "200 ms", "300 ms", "200 ms"]


# -- the configuration ------------------------------------------------------------------------

def test_a_diagram_or_code_beside_a_number_is_no_log() -> None:
    text = """
        # Pipeline

        Each stage takes 20ms:

        ```
        input -> encoder (20ms) -> decoder
        ```
        """
    assert kb005(text) == ["20ms"]


def test_the_option_is_declared_by_the_rule_with_every_entry_as_its_default() -> None:
    option = dict(get_rule("KB005").options)["exempt"]
    assert option.default == NAMES and option.choices == NAMES
    for name in NAMES:
        assert f"- `{name}`: " in get_rule("KB005").doc


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"KB005": {"exmpt": []}}, "unknown key 'exmpt' in [rules.KB005] in test; did you mean 'exempt'?"),
        ({"KB005": {"exempt": ["qouted"]}}, "unknown name 'qouted' in 'exempt' of [rules.KB005] in test; did you mean 'quoted'?"),
        ({"KB05": {}}, "unknown rule 'KB05' in 'rules' in test; did you mean 'KB005'?"),
        ({"KB001": {"exempt": []}}, "[rules.KB001] in test: rule KB001 has no options"),
        ({"KB005": {"exempt": "date"}}, "'exempt' in [rules.KB005] in test must be a list of strings, got the string 'date'"),
    ],
)
def test_a_wrong_option_is_one_line_naming_it(rules: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as error:
        config_from_mapping({"rules": rules}, "test")
    assert str(error.value) == message


def test_an_exemption_switched_off_in_the_config_file_reports_what_it_exempted(git_repo: GitRepo) -> None:
    git_repo.write(DOC, md("""
        # Storage

        默认 block size 64KB，读放大 3 倍。
        """))
    git_repo.commit_all("notes")
    status, out, _err = run_cli("check", "--all", "--format", "json")
    assert status == 0
    assert [f["subject"] for f in json.loads(out)["findings"] if f["rule"] == "KB005"] == ["3 倍"]
    exempt = ", ".join(f'"{n}"' for n in NAMES if n != "config-value")
    git_repo.write(".kbcheck.toml", f"[rules.KB005]\nexempt = [{exempt}]\n")
    git_repo.commit_all("report configuration values too")
    status, out, _err = run_cli("check", "--all", "--format", "json")
    assert status == 0
    assert [f["subject"] for f in json.loads(out)["findings"] if f["rule"] == "KB005"] == ["64KB", "3 倍"]


def test_init_writes_the_option_commented_at_its_default() -> None:
    import tomllib

    from kbcheck.config import init_text

    text = init_text()
    assert "# [rules.KB005]\n" in text
    block = text[text.index("# [rules.KB005]\n"):]
    uncommented = "\n".join(line[2:] for line in block.splitlines() if line.startswith("# ") and ":" not in line)
    assert tomllib.loads(uncommented)["rules"]["KB005"]["exempt"] == list(NAMES)
