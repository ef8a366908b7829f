"""Every sentence the digest writes, in Chinese and English.

Kept in one table so the two languages stay in step and the classifier and
renderers never hold prose of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

LANGS = ("zh", "en")

_PHRASES: dict[str, tuple[str, str]] = {
    # -- reasons (one line each) -----------------------------------------------------
    "living.added": ("新增活文档：{sections} 个小节、{refs} 条引用", "new living document: {sections} sections, {refs} references"),
    "living.deleted": ("活文档被删除", "living document deleted"),
    "living.renamed": ("改名自 {old}", "renamed from {old}"),
    "living.touched": ("改动小节：{sections}", "sections touched: {sections}"),
    "living.refs_added": ("新增引用：{ids}", "references added: {ids}"),
    "living.refs_removed": ("移除引用：{ids}", "references removed: {ids}"),
    "living.nothing": ("仅格式变化", "formatting only"),
    "deleted": ("已删除", "deleted"),
    "renamed": ("改名自 {old}，内容未变", "renamed from {old}, content unchanged"),
    "manifest": ("清单（manifest）", "manifest"),
    "out_of_scope": ("范围外：主分类 {category} 不在 scope-categories（{scope}）内",
                     "out of scope: category {category} is not in scope-categories ({scope})"),
    "refresh": ("刷新，非新观点：{fields}", "refresh, not a new finding: {fields}"),
    "refresh.where": ("活文档 {sections} 已收录", "already in {sections}"),
    "refresh.stale": ("需更新的旧数字：{stale}", "stale numbers to update: {stale}"),
    "refresh_gap": ("正文缺口：{gap}；本次只是刷新（{fields}），刷新本身不是新观点",
                    "open gap: {gap}; the refresh itself ({fields}) is not new"),
    "digested": ("已消化：活文档 {sections} 已有条目", "already digested, in {sections}"),
    "digested.linked": ("已消化：活文档 {sections} 已链接此文件", "already digested: {sections} link this file"),
    "new": ("新材料：{gap}", "new material: {gap}"),
    "modified": ("实质修改：{what}", "modified: {what}"),
    "modified.recheck": ("复查 {sections} 的条目", "re-check the entry in {sections}"),
    "unchanged": ("区间内未变化：清单重复投递", "unchanged between base and head; listed again by the manifest"),
    "changed": ("改动 {names}", "changed {names}"),
    "body": ("正文有改动", "body changed"),
    "formatting": ("仅格式变化", "formatting only"),
    "stale": ("{path}:{line} 的 {text}（{now}）", "{text} at {path}:{line} ({now})"),
    "now": ("卡片现为 {value}", "card now says {value}"),
    "backfilled": ("采集回填（back-filled）：论文发表于 {published}，采集于 {collected}，早于 {years} 年，是采集机制产物而非研究增量",
                   "back-filled by the collector: the paper is from {published}, collected {collected} (older than {years} years); not news"),
    "clash": ("⚠⚠ 同名歧义：标题里的 \"{name}\" 在库内另指 {there}（{files}），本条是 {here}；读原文确认指代前不得互引",
              "name clash: \"{name}\" in the title already names {there} in {files}; here it is {here}: confirm which is meant before linking them"),
    "related.links_item": ("链接了本条", "links this item"),
    "related.shares": ("同样引用 {ids}", "cites {ids} too"),
    "related.linked": ("本条链接了它", "linked from this item"),
    "related.owner": ("同作者仓库（{owner}）", "same owner ({owner})"),
    "related.name": ("同名材料（{name}）", "about \"{name}\" too"),
    "action.cited_no_entry": ("{section} 新增 {what} 条目（引用挂账、无条目）", "add an entry for {what} in {section} (cited, no entry)"),
    "action.anchor": ("给趋势行「{line}」补出处 {source}", "anchor the trend line \"{line}\" with {source}"),
    "action.a_source": ("来源", "a source"),
    "action.new_entry": ("{section} 新增 {what} 条目", "add {what} to {section}"),
    "action.update_number": ("更新数字 {number}（卡片现为 {now}）", "update {number} (the card now says {now})"),
    # -- gaps, one id each -----------------------------------------------------------
    "gap.cited_no_entry": ("{id} 已在引用列表但正文无条目（引用挂账、无条目）",
                           "{id} is in the reference list with no entry (cited, no entry)"),
    "gap.cited_meta": ("{id} 已在引用列表，正文只在 {sections} 提及（引用挂账、无条目）",
                       "{id} is in the reference list and mentioned only in {sections} (cited, no entry)"),
    "gap.meta_only": ("{id} 只出现在 {sections}（元层），正文无条目", "{id} is mentioned only in {sections} (meta only)"),
    "gap.absent": ("{id} 活文档完全未收录", "{id} is absent from the living documents"),
    "gap.no_ids": ("未引用任何论文或仓库", "it cites no paper or repository"),
    "more": ("等另 {n} 项", "and {n} more"),
    # -- card cautions -----------------------------------------------------------------
    "caution.abstract_only": ("只有摘要级信息：卡片除 tldr 外无正文，没有可引用的数字或结论",
                              "abstract only: the card has no text beyond its tldr, so no numbers or conclusions to quote"),
    "caution.low_citations": ("被引偏低：S2 被引 {n}（低于 {threshold}），属早期论文，结论可能随版本变动",
                              "few citations: {n} (below {threshold}); an early paper whose conclusions may change"),
    "caution.influential_exceeds": ("被引数自相矛盾：影响力被引 {influential} 超过总被引 {total}",
                                    "citation counts disagree: influential citations {influential} exceed total citations {total}"),
    "caution.influential_zero": ("被引与影响力不匹配：被引 {total} 但影响力被引 0",
                                 "citation counts do not match: {total} citations but 0 influential"),
    "caution.refresh_not_new": ("卡片刷新不等于新观点（{fields}），按规则不另计增量",
                                "the refresh itself is not new ({fields}); it does not count as an increment"),
    "caution.not_read": ("内容未读取：{note}", "content not read: {note}"),
    # -- markdown ----------------------------------------------------------------------
    "md.title": ("知识库增量简报（{base}..{head}）", "Knowledge-base digest ({base}..{head})"),
    "md.range": ("范围：{base}（{base_date}）→ {head}（{head_date}）", "Range: {base} ({base_date}) → {head} ({head_date})"),
    "md.against": ("对照活文档：{docs}", "Living documents: {docs}"),
    "md.none": ("（无）", "(none)"),
    "md.counts": ("增量条数：{increment} 条（正文可落地增量）＋ {review} 条复查项（非新观点）",
                  "{increment} increment{s1} (new material to write up) + {review} review item{s2} (not new)"),
    "md.counts.living": ("＋ {n} 条活文档变更", " + {n} living-document change{s}"),
    "md.increment": ("增量 {n}：{title} —— {reason}", "Increment {n}: {title} — {reason}"),
    "md.source": ("来源", "Source"),
    "md.key_points": ("要点", "Key points"),
    "md.relation": ("与活文档的关系", "Relation to the living documents"),
    "md.cautions": ("值得警惕之处", "Cautions"),
    "md.file": ("文件：{path}（{kind}，{change}）", "File: {path} ({kind}, {change})"),
    "md.old_path": ("原路径：{path}", "Previous path: {path}"),
    "md.ids": ("编号：{ids}", "Ids: {ids}"),
    "md.fields": ("字段变化：{fields}", "Changed fields: {fields}"),
    "md.no_key_points": ("（无摘要或正文可摘）", "(no tldr or text to quote)"),
    "md.no_ids": ("未引用任何论文或仓库：无法与活文档对照", "cites no paper or repository: nothing to look up in the living documents"),
    "md.no_cautions": ("无", "none"),
    "md.rel.refs": ("已在引用列表（{sections}）", "in the reference list ({sections})"),
    "md.rel.no_refs": ("不在引用列表", "not in the reference list"),
    "md.rel.entry": ("正文条目提及 {n} 处{where}", "{n} entry mention{s}{where}"),
    "md.rel.meta": ("元层提及 {n} 处{where}", "{n} meta mention{s}{where}"),
    "md.rel.where": ("（{sections}）", " ({sections})"),
    "md.rel.cited_no_entry": ("引用挂账、无条目：这是最高性价比的补齐位", "cited, no entry: the highest-value gap"),
    "md.rel.meta_only": ("只在元层出现，正文无条目", "meta only: no entry in the body"),
    "md.rel.absent": ("活文档完全未收录", "absent from the living documents"),
    "md.review": ("复查项（已消化或非新观点，不计入增量）", "Review items (already digested or not new; not increments)"),
    "md.living": ("活文档变更", "Living-document changes"),
    "md.checklist": ("值得警惕的矛盾 / 待核实清单", "Warnings checklist"),
    "md.new_findings": ("自基线以来新增的检查问题", "Findings new since the baseline"),
    "md.resolved": ("自基线以来已解决的检查问题：{n} 条", "Findings resolved since the baseline: {n}"),
    "md.card_cautions": ("卡片提示", "Card cautions"),
    "md.citable": ("可引用的 arXiv 号列表", "Citable ids"),
    "md.boundary": ("证据边界", "Evidence boundary"),
    "md.b.range": ("范围：{base}（{base_date}）..{head}（{head_date}）", "Range: {base} ({base_date})..{head} ({head_date})"),
    "md.b.manifest": ("增量清单：{path}", "Manifest: {path}"),
    "md.b.consumed": ("消费材料：{n} 项（共 {total} 项）", "Items consumed: {n} (of {total})"),
    "md.b.yes": ("已消费", "consumed"),
    "md.b.no": ("未消费", "not consumed"),
    "md.b.note": ("本简报由 kbcheck digest 生成：只读，不修改活文档、清单或基线。",
                  "Written by kbcheck digest: read-only; no living document, manifest or baseline was changed."),
    "md.suggested": ("建议归入 / Suggested place", "Suggested place"),
    "md.suggestion": ("{doc} {section}（第 {line} 行，得分 {score}）：{why}", "{doc} {section} (line {line}, score {score}): {why}"),
    "md.no_suggestion": ("活文档中没有明显合适的小节", "no section of the living documents fits clearly"),
    "md.related": ("库内同族材料（用于交叉定位，非本轮新增） / Related material", "Related material (already in the knowledge base)"),
    "md.merge_actions": ("建议的归并动作（按优先级）", "Merge actions (in priority order)"),
    "md.backfilled": ("采集回填的老论文卡片 {n} 张（采集机制产物，非研究增量）：{papers}",
                      "{n} new card{s} of years-old papers back-filled by the collector (not news): {papers}"),
    "md.more": ("… 另有 {n} 项", "… {n} more"),
    "md.notices": ("提示", "Notices"),
    "kind.paper_card": ("论文卡片", "paper card"),
    "kind.repo_card": ("仓库卡片", "repo card"),
    "kind.guide": ("攻略", "guide"),
    "kind.knowledge": ("活文档", "living document"),
    "kind.brief": ("简报", "brief"),
    "kind.manifest": ("清单", "manifest"),
    "kind.other": ("其他", "other"),
    "change.added": ("新增", "added"),
    "change.modified": ("修改", "modified"),
    "change.deleted": ("删除", "deleted"),
    "change.renamed": ("改名", "renamed"),
}


def say(lang: str, key: str, **values: Any) -> str:
    """The phrase `key` in `lang` with `values` filled in."""
    zh, en = _PHRASES[key]
    return (zh if lang == "zh" else en).format(**values)


def join(lang: str, parts: Iterable[str]) -> str:
    """A list in running text: `a、b` in Chinese, `a, b` in English."""
    return ("、" if lang == "zh" else ", ").join(parts)


def clauses(lang: str, parts: Iterable[str]) -> str:
    """Clauses of one reason: `；` in Chinese, `; ` in English."""
    return ("；" if lang == "zh" else "; ").join(p for p in parts if p)


def capped(lang: str, parts: list[str], limit: int = 3) -> str:
    """At most `limit` parts, then "and N more" (a reason stays one short line)."""
    shown = parts[:limit]
    if len(parts) > limit:
        shown.append(say(lang, "more", n=len(parts) - limit))
    return join(lang, shown)


def value(raw: object) -> str:
    """A field value as a brief shows it; an absent field is `—`."""
    if raw is None:
        return "—"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, float) and raw == int(raw):
        return str(int(raw))
    if isinstance(raw, (list, dict)):
        import json

        return json.dumps(raw, ensure_ascii=False)
    text = str(raw)
    return text if len(text) <= 60 else text[:57] + "…"


def field_changes(lang: str, changed: dict[str, object]) -> str:
    """`stars 243 → 245、body changed`: every changed field, old → new."""
    parts: list[str] = []
    for name, pair in changed.items():
        if name == "body":
            parts.append(say(lang, "body"))
        elif isinstance(pair, (list, tuple)) and len(pair) == 2:
            parts.append(f"{name} {value(pair[0])} → {value(pair[1])}")
    return join(lang, parts) if parts else say(lang, "formatting")
