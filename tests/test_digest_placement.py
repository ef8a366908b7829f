"""The digest's placement parts: suggested sections, related material, merge actions, back-filled
cards, name clashes, and titles read as a person reads them (hand-written fixtures, zh and en)."""

from __future__ import annotations

import json

import pytest

from kbcheck.cli import main
from kbcheck.digest.placement import paper_month
from kbcheck.digest.render_markdown import escape_markdown

LIVING = "organized/knowledge/serving.md"
SERVING = """# 推理服务活文档

## §2 调度与路由

### §2.1 请求路由

- 路由器按难度把请求分给大小模型（arXiv:2610.05512）：外部打分器在长输入上失准。
- 级联路由：小模型先答，置信度低时升级到大模型，打分器阈值按业务代价设定。

### §2.2 批处理调度

- 连续批处理把解码步交错排布，吞吐随并发上升（[rec](../repo_cards/4572-recursive-oss-rec.md)，243⭐）。

## §6 判断层

### §6.2 趋势

- 路由决策直接从模型的 token 概率读出，外部打分器退场。

## §七 引用列表

- arXiv:2610.05512 — When Dynamic LLM Routers Fail
- arXiv:2610.02076 — Jev-Style Routing
"""
ROUTER = """---
arxiv: "2610.05512"
title: "When Dynamic LLM Routers Fail"
---

# When Dynamic LLM Routers Fail

路由器依赖外部打分器。
"""
REC = """---
repo: recursive-oss/rec
stars: 245
---

# recursive-oss/rec

递归式请求分解的推理调度引擎。
"""
JEV_GUIDE = """# Jev 决策卸载小贴士

Jev 是 TypeSafe 的决策模型，直接返回带校准概率的 typed 决策（https://github.com/typesafe/jev）。
"""
NEW_CARD = """---
arxiv: "2610.02076"
title: "Jev-Style Routing: Reading Decisions from Token Probabilities"
collected: 2026-10-29
tldr: "路由决策直接从 token 概率读出，不依赖外部打分器；级联路由的置信度阈值。"
---

# Jev-Style Routing

路由决策直接从模型的 token 概率读出，不依赖外部打分器，级联路由的升级阈值由置信度给出。
"""
OLD_CARD = """---
arxiv: "1706.03762"
title: "Attention Is All You Need"
collected: 2026-10-29
---

# Attention Is All You Need

Transformer 的原始论文。
"""
RECENT_CARD = """---
arxiv: "2609.01234"
title: "Quiet Batching"
collected: 2026-10-29
---

# Quiet Batching

连续批处理的解码步交错排布。
"""
GUIDE_LINKING = """# 路由实践攻略

读 [Jev-Style Routing](../paper_cards/1695-2610-02076.md) 之前先看路由器失败模式。
"""
TODO = """---
type: TodoList
title: "待办"
---

与 [已完成动作的时间线](log.md) 分开记录，见 [[log|日志]]。
"""


@pytest.fixture
def digest(git_repo) -> dict:  # type: ignore[no-untyped-def,type-arg]
    git_repo.write_many({
        LIVING: SERVING, "organized/paper_cards/1712-2610-05512.md": ROUTER,
        "organized/repo_cards/4572-recursive-oss-rec.md": REC,
        "organized/guides/x-tip-jev-decision-offloading.md": JEV_GUIDE,
        "organized/guides/log.md": "# 时间线\n\n- 完成的动作。\n",
    })
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({
        "organized/paper_cards/1695-2610-02076.md": NEW_CARD,
        "organized/paper_cards/1801-1706-03762.md": OLD_CARD,
        "organized/paper_cards/1802-2609-01234.md": RECENT_CARD,
        "organized/guides/routing-practice.md": GUIDE_LINKING,
        "organized/guides/weekly-plan.md": TODO + f"\n[活文档](../../{LIVING})\n",  # somewhere to go
    })
    git_repo.commit_all("new material", author="tom")
    return {"base": base}


def _json(base: str, capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    assert main(["digest", "--since", base, "--format", "json", "--lang", "en"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _item(document: dict, path: str) -> dict:  # type: ignore[type-arg]
    [item] = [i for i in document["items"] if i["path"] == path]
    return item


def test_an_increment_gets_its_section_and_related_material(digest, capsys) -> None:  # type: ignore[no-untyped-def]
    document = _json(digest["base"], capsys)
    card = _item(document, "organized/paper_cards/1695-2610-02076.md")
    assert card["class"] == "increment" and card["cited_no_entry"] is True
    first = card["suggested_sections"][0]
    assert (first["living_doc"], first["section"], first["line"]) == (LIVING, "§2.1 请求路由", 5)
    assert set(first) == {"living_doc", "section", "line", "score", "why"}
    assert {"path": "organized/guides/routing-practice.md", "why": "links this item"} in card["related"]


def test_merge_actions_put_the_cited_no_entry_gap_first(digest, capsys) -> None:  # type: ignore[no-untyped-def]
    actions = _json(digest["base"], capsys)["merge_actions"]
    assert [a["priority"] for a in actions] == list(range(1, len(actions) + 1))
    assert actions[0] == {"priority": 1, "path": LIVING, "section": "§2.1 请求路由",
                          "action": "add an entry for arXiv:2610.02076 (Jev-Style Routing: Reading Decisions from "
                                    "Token Probabilities) in §2.1 请求路由 (cited, no entry)"}
    # the unsourced trend line is anchored with the increment that reads like it
    assert actions[1]["action"] == ('anchor the trend line "路由决策直接从模型的 token 概率读出，外部打分器退场。" '
                                    "with arXiv:2610.02076")
    assert (actions[1]["path"], actions[1]["section"]) == (LIVING, "§6.2")
    # then new entries, then number updates (243⭐ while the card says 245)
    kinds = [a["action"].split(" ", 1)[0] for a in actions]
    assert kinds[-1] == "update" and actions[-1]["section"] == "§2.2"
    assert kinds.index("add", 1) < kinds.index("update")


def test_a_years_old_paper_is_back_filled_and_a_recent_one_is_not(digest, capsys) -> None:  # type: ignore[no-untyped-def]
    document = _json(digest["base"], capsys)
    old = _item(document, "organized/paper_cards/1801-1706-03762.md")
    assert old["class"] == "review"
    assert old["reason"] == ("back-filled by the collector: the paper is from 2017-06, collected 2026-10-29 "
                             "(older than 3 years); not news")
    recent = _item(document, "organized/paper_cards/1802-2609-01234.md")
    assert recent["class"] == "increment" and "back-filled" not in recent["reason"]
    assert main(["digest", "--since", digest["base"], "--lang", "en"]) == 0
    markdown = capsys.readouterr().out
    lines = [line for line in markdown.splitlines() if "back-filled" in line]
    assert lines == ["- 1 new card of years-old papers back-filled by the collector (not news): arXiv:1706.03762"]


def test_backfill_age_is_configurable(digest, capsys, git_repo) -> None:  # type: ignore[no-untyped-def]
    git_repo.write(".kbcheck.toml", "backfill-age-years = 10\n")
    document = _json(digest["base"], capsys)
    assert _item(document, "organized/paper_cards/1801-1706-03762.md")["class"] == "increment"


def test_a_name_already_used_for_other_ids_is_a_warning(digest, capsys) -> None:  # type: ignore[no-untyped-def]
    document = _json(digest["base"], capsys)
    card = _item(document, "organized/paper_cards/1695-2610-02076.md")
    clash = [w for w in card["warnings"] if w.startswith("name clash")]
    assert clash == ['name clash: "Jev" in the title already names typesafe/jev in '
                     "organized/guides/x-tip-jev-decision-offloading.md; here it is arXiv:2610.02076: "
                     "confirm which is meant before linking them"]
    # "Routing", "Reading", "Decisions" are words, not names; "Quiet Batching" names nothing else
    recent = _item(document, "organized/paper_cards/1802-2609-01234.md")
    assert not [w for w in recent["warnings"] if w.startswith("name clash")]


def test_a_title_is_never_frontmatter_text_and_link_text_is_kept(digest, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["digest", "--since", digest["base"], "--lang", "en"]) == 0
    markdown = capsys.readouterr().out
    heading = [line for line in markdown.splitlines() if "`organized/guides/weekly-plan.md`" in line or "待办" in line]
    assert any(line.startswith("## Increment") and ": 待办 — " in line for line in heading)
    assert "type: TodoList" not in markdown
    assert "与 已完成动作的时间线 分开记录，见 日志。" in markdown


def test_paper_month_reads_both_id_styles() -> None:
    assert str(paper_month("1706.03762")) == "2017-06-01"
    assert str(paper_month("hep-th/9901001")) == "1999-01-01"
    assert paper_month("2613.00001") is None


def test_escape_markdown_keeps_one_line_and_no_markup() -> None:
    assert escape_markdown("a *b*\n[c](d) <e> |f|") == "a \\*b\\* \\[c\\](d) \\<e\\> \\|f\\|"


def test_the_chinese_brief_has_the_place_the_related_material_and_the_actions(digest, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["digest", "--since", digest["base"], "--lang", "zh"]) == 0
    markdown = capsys.readouterr().out
    assert "**建议归入**" in markdown and "Suggested place" not in markdown
    assert f"- `{LIVING}` §2.1 请求路由（第 5 行，得分 " in markdown
    assert "**库内同族材料（用于交叉定位，非本轮新增）**" in markdown
    assert "- `organized/guides/routing-practice.md`：链接了本条" in markdown
    actions = markdown.split("## 建议的归并动作（按优先级）", 1)[1].split("\n## ", 1)[0]
    assert actions.strip().splitlines()[0].startswith("1. §2.1 请求路由 新增 arXiv:2610.02076")
    assert "- 采集回填的老论文卡片 1 张（采集机制产物，非研究增量）：arXiv:1706.03762" in markdown
    assert '⚠⚠ 同名歧义：标题里的 "Jev" 在库内另指 typesafe/jev' in markdown


def test_a_new_repo_card_is_related_to_the_same_owner_cards(git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    """Cards are filed as `owner-name.md`; an owner's name may hold a hyphen, so the card's own id
    says whose it is: `recursive-oss-rec.md` (recursive-oss/rec) is the new card's owner's, and
    `recursive-labs-kit.md` (recursive-labs/kit), filed under the same first word, is not."""
    def card(repo: str) -> str:
        return f"---\nrepo: {repo}\nstars: 10\n---\n\n# {repo}\n\n一个推理调度工具。\n"

    git_repo.write_many({LIVING: SERVING, "organized/repo_cards/4572-recursive-oss-rec.md": REC,
                         "organized/repo_cards/4573-recursive-labs-kit.md": card("recursive-labs/kit")})
    base = git_repo.commit_all("base", author="tom")
    git_repo.write_many({"organized/repo_cards/4574-recursive-oss-plan.md": card("recursive-oss/plan")})
    git_repo.commit_all("new card", author="tom")
    item = _item(_json(base, capsys), "organized/repo_cards/4574-recursive-oss-plan.md")
    owned = [r["path"] for r in item["related"] if r["why"].startswith("same owner")]
    assert owned == ["organized/repo_cards/4572-recursive-oss-rec.md"]
    assert {"path": "organized/repo_cards/4572-recursive-oss-rec.md", "why": "same owner (recursive-oss)"} in item["related"]
