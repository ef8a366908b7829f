"""The digest re-creates the eight items of the hand-written sample brief (`tests/fixtures/sample-brief.zh.md`).

A scripted history: a base commit holding the living document and the older
cards, then a commit with the eight changes the sample brief consumed. The
digest must find the same four increments and four review items, for the same
reasons, with the cited-no-entry gaps first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

LIVING = "organized/knowledge/inference.md"
REC = "organized/repo_cards/4572-recursive-oss-rec.md"
INTERNALS = "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md"
LEADS = "inbox/jay/2026-10-29T1220-leads.md"
ENGINEERING = "inbox/jay/2026-10-29-1105-engineering-brief.md"
REAL_NVP = "organized/paper_cards/1802-1605-08803.md"
BUDGETPIX = "organized/paper_cards/1775-2610-12307.md"
MIMO = "organized/paper_cards/1760-2610-11959.md"
JEV = "organized/paper_cards/1695-2610-02076.md"

CONFIG = '''\
scope-categories = ["llm-infra", "engineering", "multimodal"]
'''

LIVING_TEXT = """\
# 推理系统活文档

维护：lead。本文件是示例知识库的节选。

## §1 推理引擎与部署

### §1.6 2026-10 引擎与部署项目增量信号（repo card 级证据）

- recursive-oss/rec（[repo card](../repo_cards/4572-recursive-oss-rec.md)）：递归式请求分解的实验性推理调度引擎，本轮复采 243⭐ / 周增 +14；experimental，暂不进选型表。

## §3 调度与强化学习

### §3.1 调度理论与路由

- Dynamic LLM Routers 的三类失败模式（arXiv:2610.05512）：难度盲区、长度反转、语义匹配失败。

### §3.5 RL rollout 与训推一致性

- MiMo-V2.6（arXiv:2610.11959）：统一轨迹表示、高并发多框架 rollout、控制面与数据面解耦、训推一致性校验。

## §6 判断层

### §6.1 开放问题

30. BudgetPix 的预算—质量权衡在 LLM serving 上的映射未验证（arXiv:2610.12307）。

### §6.2 趋势

- 训推一致性成为 RL rollout 系统的一等约束（arXiv:2610.11959）。
- 路由决策的信号来源从外部打分器转向模型内生信号（arXiv:2610.05512）。

## §七 引用列表

- arXiv:1605.08803 — Density Estimation Using Real NVP
- arXiv:2610.02076 — LLM-as-Jev
- arXiv:2610.05512 — When Dynamic LLM Routers Fail
- arXiv:2610.11959 — MiMo-V2.6
- arXiv:2610.12307 — BudgetPix
- arXiv:2610.37358 — When Is Additional Retrieval Worthwhile?
"""


def paper(arxiv: str, title: str, category: str, body: str = "", **fields: object) -> str:
    extra = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f'---\narxiv: "{arxiv}"\ntitle: "{title}"\ncategory: {category}\n{extra}---\n\n# {title}\n{body}'


def repo(name: str, body: str = "", **fields: object) -> str:
    extra = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\nrepo: {name}\n{extra}---\n\n# {name}\n\n{body}\n"


BASE_FILES = {
    ".kbcheck.toml": CONFIG,
    LIVING: LIVING_TEXT,
    REC: repo("recursive-oss/rec", "递归式请求分解的实验性推理调度引擎：https://github.com/recursive-oss/rec",
              stars=243, weekly_growth=14, last_commit="2026-10-27", maturity="experimental"),
    REAL_NVP: paper("1605.08803", "Density Estimation Using Real NVP", "ml-theory",
                    "\n2016 年的经典 flow 模型论文，与推理 serving 没有直接的工程接口。\n",
                    s2_citations=4760, s2_influential=730, openalex_updated="2026-10-20",
                    tldr='"Real NVP transformations give exact log-likelihood and sampling."'),
    BUDGETPIX: paper("2610.12307", "BudgetPix: Compute-Adaptive Tokenization for Pixel-Space Image Diffusion",
                     "multimodal", s2_citations=1, s2_influential=0, openalex_updated="2026-10-09",
                     collected="2026-10-13",
                     tldr='"Adaptive tokenization for pixel-space diffusion with flexible inference-time budgets."'),
    MIMO: paper("2610.11959", "MiMo-V2.6: Scaling Reinforcement Learning Towards Self-Improvement", "llm-infra",
                "\nRL rollout 系统的四要素：统一轨迹表示、高并发多框架 rollout、控制面与数据面解耦、训推一致性校验。\n",
                s2_citations=6, s2_influential=1, openalex_updated="2026-10-20",
                tldr='"A rollout system that keeps training and inference consistent."'),
    "organized/paper_cards/1790-2610-37358.md": paper(
        "2610.37358", "When Is Additional Retrieval Worthwhile?", "engineering",
        "\n两动作按收益付费的检索决策与冻结阈值的评估协议。\n", s2_citations=3, s2_influential=0),
    "organized/paper_cards/1712-2610-05512.md": paper(
        "2610.05512", "When Dynamic LLM Routers Fail", "llm-infra",
        "\n路由器的三类失败模式：难度盲区、长度反转、语义匹配失败。\n", s2_citations=12, s2_influential=2),
}

HEAD_FILES = {
    # (1) a refresh: only the star count moved
    REC: BASE_FILES[REC].replace("stars: 243", "stars: 245"),
    # (2) a new repo card the living document does not know
    INTERNALS: repo("amitshekhariitbhu/llm-internals",
                    "Learn LLM internals step by step: KV cache, paged attention, speculative decoding.",
                    stars=1771, weekly_growth=0, first_collected="2026-10-29", license="Apache-2.0"),
    # (3) a brief whose leads the living document already covers
    LEADS: "# 线索整理 · 2026-10-29 12:20\n\n作者：Jay\n\n"
           "- MiMo-V2.6 的训推一致性四要素（arXiv:2610.11959）值得再读一遍。\n"
           "- recursive-oss/rec 仍在活跃提交：https://github.com/recursive-oss/rec\n",
    # (4) a brief citing a paper that is in §七 with no entry
    ENGINEERING: "# 工程实践简报 · 2026-10-29 11:05\n\n作者：Jay\n\n"
                 "## 论文：When Is Additional Retrieval Worthwhile?\n\n"
                 "来源：https://papers.cool/arxiv/2610.37358\n\n"
                 "- 把要不要再检索一次改成按收益付费的两动作决策。\n",
    # (5) an out-of-scope classic whose citation counts were refreshed
    REAL_NVP: BASE_FILES[REAL_NVP].replace("s2_citations: 4760", "s2_citations: 4768")
                                    .replace("s2_influential: 730", "s2_influential: 738")
                                    .replace("openalex_updated: 2026-10-20", "openalex_updated: 2026-10-27"),
    # (6) a refresh of a paper mentioned only in §6.1
    BUDGETPIX: BASE_FILES[BUDGETPIX].replace("openalex_updated: 2026-10-09", "openalex_updated: 2026-10-14")
                                      .replace("collected: 2026-10-13", "collected: 2026-10-29"),
    # (7) a refresh of a paper already digested in §3.5
    MIMO: BASE_FILES[MIMO].replace("s2_citations: 6", "s2_citations: 7")
                            .replace("openalex_updated: 2026-10-20", "openalex_updated: 2026-10-21"),
    # (8) a new paper card that is in §七 with no entry
    JEV: paper("2610.02076", "LLM-as-Jev: LLMs Are Already Jev-Style Decision Models", "engineering",
               s2_citations=19, s2_influential=2, openalex_updated="2026-10-09",
               tldr='"Calibrated decisions read from next-token probabilities, and when to fine-tune."'),
}


def build_sample(repo_: GitRepo) -> tuple[str, str]:
    """The scripted history; (base sha, head sha)."""
    base = repo_.commit_files(BASE_FILES, "base: living document and older cards", author="tom")
    head = repo_.commit_files(HEAD_FILES, "the eight items of 2026-10-29", author="tom")
    return base, head


@pytest.fixture
def sample(git_repo: GitRepo) -> tuple[GitRepo, str, str]:
    base, head = build_sample(git_repo)
    return git_repo, base, head


def digest_json(base: str, *extra: str) -> dict[str, Any]:
    code, out, err = run("digest", "--since", base, "--format", "json", *extra)
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def by_path(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["path"]: item for item in document["items"]}


def test_four_increments_and_four_review_items(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, head = sample
    document = digest_json(base, "--lang", "en")
    assert document["version"] == 1
    assert (document["base"], document["head"]) == (base, head)
    assert document["counts"] == {"increment": 4, "review": 4, "living-doc": 0}
    classes = {path: item["class"] for path, item in by_path(document).items()}
    assert classes == {
        REC: "review", INTERNALS: "increment", LEADS: "review", ENGINEERING: "increment",
        REAL_NVP: "review", BUDGETPIX: "increment", MIMO: "review", JEV: "increment",
    }
    assert sorted(document["citable_ids"]) == ["2610.02076", "2610.12307", "2610.37358"]


def test_increments_come_cited_no_entry_first(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, _head = sample
    document = digest_json(base, "--lang", "en")
    increments = [item for item in document["items"] if item["class"] == "increment"]
    order = [item["path"] for item in increments]
    # pure gaps (cited, no entry) by path, then cited-no-entry with a meta mention, then the rest
    assert order == [ENGINEERING, JEV, BUDGETPIX, INTERNALS]
    assert [i["cited_no_entry"] for i in increments] == [True, True, True, False]
    assert [i["meta_only"] for i in increments] == [False, False, True, False]
    # increments precede review items in the list
    assert [item["class"] for item in document["items"]][:4] == ["increment"] * 4


def test_each_item_has_the_sample_briefs_reason(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, _head = sample
    items = by_path(digest_json(base, "--lang", "en"))

    rec = items[REC]
    assert rec["change"] == "modified" and rec["changed_fields"] == {"stars": [243, 245]}
    assert rec["reason"].startswith("refresh, not a new finding: stars 243 → 245")
    assert "already in §1.6" in rec["reason"]
    assert f"stale numbers to update: 243⭐ at {LIVING}:" in rec["reason"]
    assert "card now says stars: 245" in rec["reason"]
    assert rec["ids"] == ["recursive-oss/rec"]
    # the name and the link to its card are two mentions in one entry
    assert rec["living_doc"]["entry_mentions"] == 2 and rec["living_doc"]["sections"] == ["§1.6"]

    internals = items[INTERNALS]
    assert internals["change"] == "added" and internals["ids"] == ["amitshekhariitbhu/llm-internals"]
    assert internals["reason"] == ("new material: amitshekhariitbhu/llm-internals is absent from the "
                                   "living documents")
    assert internals["living_doc"]["in_references"] is False and internals["living_doc"]["sections"] == []

    leads = items[LEADS]
    assert leads["kind"] == "brief" and leads["ids"] == ["2610.11959", "recursive-oss/rec"]
    assert leads["reason"] == "already digested, in §3.5, §1.6"

    engineering = items[ENGINEERING]
    assert engineering["ids"] == ["2610.37358"]
    assert engineering["reason"] == ("new material: arXiv:2610.37358 is in the reference list with no entry "
                                     "(cited, no entry)")
    assert engineering["living_doc"]["per_id"]["2610.37358"] == {
        "in_references": True, "entry_mentions": 0, "meta_mentions": 0, "sections": []}

    real_nvp = items[REAL_NVP]
    assert real_nvp["reason"] == ("out of scope: category ml-theory is not in scope-categories "
                                  "(llm-infra, engineering, multimodal)")
    assert real_nvp["changed_fields"] == {"s2_citations": [4760, 4768], "s2_influential": [730, 738],
                                          "openalex_updated": ["2026-10-20", "2026-10-27"]}

    budgetpix = items[BUDGETPIX]
    assert budgetpix["changed_fields"] == {"openalex_updated": ["2026-10-09", "2026-10-14"],
                                           "collected": ["2026-10-13", "2026-10-29"]}
    assert budgetpix["living_doc"] == {
        "in_references": True, "entry_mentions": 0, "meta_mentions": 1, "sections": ["§6.1"],
        "per_id": {"2610.12307": {"in_references": True, "entry_mentions": 0, "meta_mentions": 1,
                                  "sections": ["§6.1"]}}}
    assert budgetpix["reason"].startswith("open gap: arXiv:2610.12307 is in the reference list and "
                                          "mentioned only in §6.1 (cited, no entry)")
    assert budgetpix["reason"].endswith("the refresh itself (openalex_updated 2026-10-09 → 2026-10-14, "
                                        "collected 2026-10-13 → 2026-10-29) is not new")
    assert any(w.startswith("the refresh itself is not new") for w in budgetpix["warnings"])

    mimo = items[MIMO]
    assert mimo["reason"] == ("refresh, not a new finding: s2_citations 6 → 7, openalex_updated "
                              "2026-10-20 → 2026-10-21; already in §3.5, §6.2")
    assert mimo["cited_no_entry"] is False and mimo["meta_only"] is False

    jev = items[JEV]
    assert jev["change"] == "added" and jev["old_path"] is None and jev["changed_fields"] == {}
    assert jev["reason"] == "new material: arXiv:2610.02076 is in the reference list with no entry (cited, no entry)"


def test_card_cautions_and_findings_reach_the_increments(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, _head = sample
    items = by_path(digest_json(base, "--lang", "en"))
    jev = items[JEV]["warnings"]
    assert jev[0].startswith("abstract only: the card has no text beyond its tldr")
    # KB002 (cited, no entry) names the id: it concerns the card
    assert any(w.startswith(f"KB002 {LIVING}:") and "2610.02076" in w for w in jev)
    budgetpix = items[BUDGETPIX]["warnings"]
    assert any(w.startswith("few citations: 1 (below 5)") for w in budgetpix)
    assert any(w.startswith("abstract only") for w in budgetpix)
    # a card with prose beyond its tldr and enough citations carries no card caution
    assert not any(w.startswith(("abstract only", "few citations")) for w in items[MIMO]["warnings"])


def test_findings_new_since_base(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, _head = sample
    document = digest_json(base)
    new = [(f["rule"], f["path"], f["subject"]) for f in document["findings_new"]]
    assert new == [("KB006", LIVING, "243⭐")]
    # at base 2610.02076 had no card (KB004); the new card resolves it
    resolved = [(f["rule"], f["path"], f["subject"]) for f in document["findings_resolved"]]
    assert resolved == [("KB004", LIVING, "2610.02076")]
    assert set(document["findings_new"][0]) == {"rule", "name", "severity", "path", "line", "column",
                                                "end_line", "message", "subject", "fingerprint", "data"}


def test_json_item_fields_are_exactly_the_spec(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, _head = sample
    document = digest_json(base)
    assert list(document)[:8] == ["version", "base", "head", "items", "findings_new", "findings_resolved",
                                  "citable_ids", "counts"]
    for item in document["items"]:
        assert list(item) == ["path", "kind", "change", "old_path", "class", "reason", "ids", "changed_fields",
                              "living_doc", "cited_no_entry", "meta_only", "warnings",
                              "suggested_sections", "related"]
        assert set(item["living_doc"]) == {"in_references", "entry_mentions", "meta_mentions", "sections", "per_id"}


def test_markdown_in_chinese_follows_the_sample_shape(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, head = sample
    code, out, err = run("digest", "--since", base)
    assert code == 0, err
    assert out.startswith(f"# 知识库增量简报（{base[:7]}..{head[:7]}）\n")
    assert "增量条数：4 条（正文可落地增量）＋ 4 条复查项（非新观点）" in out
    headings = [line for line in out.splitlines() if line.startswith("## 增量 ")]
    assert len(headings) == 4
    assert headings[1].startswith("## 增量 2：LLM-as-Jev: LLMs Are Already Jev-Style Decision Models —— 新材料：")
    assert headings[1].endswith("★★")
    assert headings[3].startswith("## 增量 4：amitshekhariitbhu/llm-internals —— 新材料：")
    for label in ("**来源**", "**要点**", "**与活文档的关系**", "**值得警惕之处**", "## 复查项", "## 值得警惕的矛盾 / 待核实清单",
                  "## 可引用的 arXiv 号列表", "## 证据边界"):
        assert label in out, label
    assert "- arXiv:2610.02076：已在引用列表（§七）；正文条目提及 0 处；元层提及 0 处 —— 引用挂账、无条目" in out
    assert "- arXiv:2610.12307：已在引用列表（§七）；正文条目提及 0 处；元层提及 1 处（§6.1） —— 引用挂账、无条目" in out
    assert "- arXiv:2610.02076 —— LLM-as-Jev: LLMs Are Already Jev-Style Decision Models" in out
    assert "Calibrated decisions read from next-token probabilities" in out  # key points from the tldr
    assert f"- ⚠ KB006 `{LIVING}`:" in out  # the new stale number is on the checklist
    assert "消费材料：8 项（共 8 项）" in out
    assert out.index("## 增量 4") < out.index("## 复查项") < out.index("## 值得警惕的矛盾") < out.index("## 证据边界")


def test_markdown_in_english(sample: tuple[GitRepo, str, str]) -> None:
    _repo, base, _head = sample
    code, out, err = run("digest", "--since", base, "--lang", "en")
    assert code == 0, err
    assert "4 increments (new material to write up) + 4 review items (not new)" in out
    for label in ("## Increment 1: ", "**Source**", "**Key points**", "**Relation to the living documents**",
                  "**Cautions**", "## Review items", "## Warnings checklist", "## Citable ids",
                  "## Evidence boundary"):
        assert label in out, label
    assert "- Density Estimation Using Real NVP (`organized/paper_cards/1802-1605-08803.md`): out of scope" in out
    assert "- arXiv:2610.37358: in the reference list (§七); 0 entry mentions; 0 meta mentions — cited, no entry" in out
    assert "Items consumed: 8 (of 8)" in out


def test_language_defaults_to_the_config(sample: tuple[GitRepo, str, str]) -> None:
    repo_, base, _head = sample
    repo_.write(".kbcheck.toml", CONFIG + 'lang = "en"\n')
    code, out, _ = run("digest", "--since", base)
    assert code == 0 and "4 increments (new material to write up)" in out


def test_sample_brief_is_present_for_reference() -> None:
    """The shape above comes from the sample brief; keep an eye on its headings."""
    sample = Path(__file__).resolve().parent / "fixtures" / "sample-brief.zh.md"
    text = sample.read_text(encoding="utf-8")
    for label in ("增量条数：", "来源", "要点", "值得警惕之处", "复查项", "值得警惕的矛盾 / 待核实清单", "可引用的 arXiv 号列表", "证据边界"):
        assert label in text
