"""Synthetic knowledge bases in kbcheck's default layout, for the benchmark.

    python bench/generate.py OUT --paper-cards 10000 --repo-cards 2000 --references 2000

builds a git repository at OUT: Chinese paper cards, repo cards, guides,
briefs in authors' inboxes, manifests, and living documents with numbered
sections, `§6.1`/`§6.2` meta sections and a `§七` reference list, modelled on
`examples/knowledge-base/`. The whole history is written with one
`git fast-import` (seconds even at 100k cards), then checked out.

The history ends with two commits the digest benchmark compares against:
tag `bench-since-large` (its diff to HEAD changes `digest_items[1]` items:
added, refreshed, edited, renamed and deleted cards, new briefs) and tag
`bench-since-small` (`digest_items[0]` items). Everything is drawn from a
seeded generator, so the same shape gives the same commits.

A realistic share of problems is planted, so the checks have work to report:
a few uncited trend lines (KB001), references never discussed (KB002),
unverified and stale numbers (KB005/KB006), unknown ids (KB004).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

AUTHOR = ("Lead", "lead@example.org")
WRITERS = ("tom", "jay", "mia")
#: 2026-10-01T00:00:00+08:00: the history is dated from here, an hour per commit
EPOCH = 1790784000
CONFIG = """\
# kbcheck configuration of a synthetic benchmark knowledge base.
[roles]
writer = ["inbox/{author}/**"]
guide-writer = ["inbox/{author}/**", "organized/guides/**"]
maintainer = ["**"]

[authors.tom]
emails = ["tom@example.org"]
role = "writer"

[authors.jay]
emails = ["jay@example.org"]
role = "writer"

[authors.mia]
emails = ["mia@example.org"]
role = "writer"

[authors.spark]
emails = ["spark-bot@example.org"]
role = "guide-writer"

[authors.lead]
emails = ["lead@example.org"]
role = "maintainer"
"""

_SYLLABLES = ("Spec", "Flash", "Route", "Prefix", "Cache", "Flow", "Mo", "Ra", "Tok", "Pix", "Budget",
              "Sage", "Echo", "Lumen", "Quant", "Sparse", "Turbo", "Hydra", "Nova", "Orca", "Kite", "Jev",
              "Mira", "Astra", "Delta", "Vela", "Rho", "Zeta", "Pico", "Tera")
_SUFFIX = ("", "", "-2", "-X", "++", "Net", "Bench", "LM", "-Lite", "Serve")
_ADJECTIVES = ("Fixed-Budget", "Compute-Adaptive", "Prefetch-Aware", "Session-Level", "Training-Free",
               "Difficulty-Aware", "Calibrated", "Decoupled", "Hierarchical", "Sparse", "Low-Latency")
_NOUNS = ("Speculative Decoding", "Request Routing", "KV Cache Reuse", "Tokenization", "RL Rollout",
          "Retrieval", "Batch Scheduling", "Quantized Serving", "Long-Context Inference", "Evaluation")
_SETTINGS = ("Batched Serving", "Edge Devices", "Multi-Tenant Clusters", "Conversational Recommendation",
             "Pixel-Space Diffusion", "Agentic Workloads", "Heterogeneous GPUs", "RAG Pipelines")
CATEGORIES = ("llm-infra", "engineering", "multimodal", "evaluation", "rl", "retrieval", "recsys")
_TOPICS = ("推理调度", "投机解码", "KV 缓存", "长上下文", "量化部署", "检索增强", "强化学习 rollout",
           "多模态生成", "评测基准", "路由与级联", "端侧推理", "训推一致性")
_PROBLEMS = ("长尾请求的排队延迟", "草稿长度固定带来的浪费", "路由依赖外部打分器", "前缀缓存命中率低",
             "训推分布不一致", "图像 token 预算固定", "批量变大后收益递减", "评测集泄漏")
_IDEAS = ("按请求动态调整预算的调度器", "从 next-token 概率直接读出决策的配方", "预取感知的重排策略",
          "会话级缓存淘汰", "解耦控制面与数据面的 rollout 框架", "按内容复杂度浮动的 token 预算",
          "分层草稿树", "无需训练的置信度校准")
_BENCHES = ("ShareGPT", "LongBench", "MT-Bench", "SWE-bench Lite", "MMLU-Pro", "GSM8K", "Arena-Hard")
_OWNERS = ("vllm-project", "sgl-project", "flare-labs", "rapid-mlx", "autosim-lab", "amitshekhariitbhu",
           "recursive-oss", "safeailab", "typesafe", "earendil-works", "openbmb", "deepmind-lab")
_REPO_WORDS = ("serve", "infer", "router", "cache", "spec", "bench", "rollout", "kit", "engine", "tune",
               "lab", "flow", "pilot", "forge")
_LICENSES = ("Apache-2.0", "MIT", "BSD-3-Clause", "GPL-3.0")
_MATURITY = ("research", "experimental", "beta", "production")
_SECTIONS = (
    ("§1", "推理引擎与部署", ("§1.1 引擎选型", "§1.3 静默超参数", "§1.6 引擎与部署项目增量信号（repo card 级证据）")),
    ("§2", "缓存与长上下文", ("§2.1 KV 缓存复用", "§2.4 长上下文评测")),
    ("§3", "调度与强化学习", ("§3.1 调度理论与路由", "§3.5 RL rollout 与训推一致性")),
    ("§4", "投机解码与蒸馏部署", ("§4.1 投机解码", "§4.2 蒸馏与量化部署")),
    ("§5", "跨域与待核查材料", ("§5.7 跨域可迁移方法", "§5.9 待核查线索")),
)


@dataclass(frozen=True)
class Shape:
    """How big a synthetic knowledge base is."""

    paper_cards: int = 1000
    repo_cards: int = 200
    #: reference-list entries of each living document
    references: int = 200
    #: lines of each living document (at least enough to discuss its references)
    doc_lines: int = 0
    living_documents: int = 1
    #: commits of ordinary history before the two digest commits
    history: int = 5
    #: items changed since tag bench-since-small, and since tag bench-since-large
    digest_items: tuple[int, int] = (50, 500)
    seed: int = 0

    @classmethod
    def cards(cls, paper_cards: int, **overrides: object) -> Shape:
        """The bench's standard shape for a size: repo cards 1/5, 2,000 references per 10k cards."""
        repo = max(4, paper_cards // 5)
        docs = max(1, paper_cards // 20000)
        refs = max(10, min(2000, paper_cards // 5))
        values: dict[str, object] = {"paper_cards": paper_cards, "repo_cards": repo, "references": refs,
                                     "living_documents": docs}
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]


@dataclass
class PaperFacts:
    seq: int
    arxiv: str
    name: str
    title: str
    category: str
    citations: int
    influential: int
    speedup: float
    latency: int
    repo: int | None = None
    related: list[int] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"organized/paper_cards/{self.seq:04d}-{self.arxiv.replace('.', '-')}.md"


@dataclass
class RepoFacts:
    seq: int
    owner: str
    name: str
    stars: int
    weekly: int

    @property
    def slug(self) -> str:
        return f"{self.owner}/{self.name}"

    @property
    def path(self) -> str:
        return f"organized/repo_cards/{self.seq:04d}-{self.owner}-{self.name}.md"


@dataclass
class Generated:
    """What `generate` built: where, and what the bench needs to know about it."""

    root: Path
    shape: Shape
    files: int
    markdown_files: int
    living_documents: list[str]
    head: str


# -- content ------------------------------------------------------------------------

class _Kb:
    """The knowledge base's files as a path -> text map, grown commit by commit."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.rng = random.Random(shape.seed)
        self.files: dict[str, str] = {}
        self.papers: list[PaperFacts] = []
        self.repos: list[RepoFacts] = []
        self._ids: set[str] = set()
        self._repo_names: set[str] = set()
        self.touched: set[str] = set()
        self.date = 29

    # ids and names
    def _arxiv_id(self) -> str:
        while True:
            year = self.rng.choice((23, 24, 25, 26))
            month = self.rng.randint(1, 12 if year < 26 else 10)
            value = f"{year:02d}{month:02d}.{self.rng.randint(1, 39999):05d}"
            if value not in self._ids:
                self._ids.add(value)
                return value

    def _name(self) -> str:
        return self.rng.choice(_SYLLABLES) + self.rng.choice(_SYLLABLES) + self.rng.choice(_SUFFIX)

    def new_paper(self) -> PaperFacts:
        name = self._name()
        title = f"{name}: {self.rng.choice(_ADJECTIVES)} {self.rng.choice(_NOUNS)} for {self.rng.choice(_SETTINGS)}"
        citations = self.rng.choice((0, 1, 2, 3, 5, 8, 12, 19, 27, 41, 66, 120, 310))
        paper = PaperFacts(
            seq=1000 + len(self.papers), arxiv=self._arxiv_id(), name=name, title=title,
            category=self.rng.choice(CATEGORIES), citations=citations,
            influential=min(citations, self.rng.randint(0, 6)),
            speedup=round(self.rng.uniform(1.1, 4.9), 1), latency=self.rng.randint(20, 900),
        )
        if self.repos and self.rng.random() < 0.3:
            paper.repo = self.rng.randrange(len(self.repos))
        if self.papers:
            paper.related = [self.rng.randrange(len(self.papers)) for _ in range(self.rng.randint(0, 2))]
        self.papers.append(paper)
        return paper

    def new_repo(self) -> RepoFacts:
        while True:
            owner = self.rng.choice(_OWNERS)
            name = f"{self.rng.choice(_REPO_WORDS)}-{self.rng.choice(_REPO_WORDS)}"
            if self.rng.random() < 0.5:
                name += f"-{self.rng.randint(2, 999)}"
            if f"{owner}/{name}" not in self._repo_names:
                self._repo_names.add(f"{owner}/{name}")
                break
        repo = RepoFacts(seq=3000 + len(self.repos), owner=owner, name=name,
                         stars=self.rng.randint(12, 25000), weekly=self.rng.randint(0, 400))
        self.repos.append(repo)
        return repo

    # cards
    def paper_card(self, p: PaperFacts, extra: str = "") -> str:
        rng = random.Random(f"{self.shape.seed}:{p.arxiv}")
        topic, problem, idea = rng.choice(_TOPICS), rng.choice(_PROBLEMS), rng.choice(_IDEAS)
        bench = rng.choice(_BENCHES)
        lines = [
            "---",
            f'arxiv: "{p.arxiv}"',
            f'title: "{p.title}"',
            f"category: {p.category}",
            f"secondary: [{rng.choice(CATEGORIES)}]",
            f"s2_citations: {p.citations}",
            f"s2_influential: {p.influential}",
            f"openalex_updated: 2026-10-{rng.randint(1, 28):02d}",
            f"collected: 2026-10-{self.date:02d}",
            f'tldr: "{p.name} targets {problem_en(problem)} with {idea_en(idea)}."',
            "---",
            "",
            f"# {p.name}",
            "",
            f"{p.name} 针对{topic}中的{problem}，提出{idea}。方法分两步：",
            "",
            f"- 先在离线轨迹上估计每个请求的收益，再按收益分配{rng.choice(('草稿预算', '缓存容量', '检索次数', 'token 预算'))}；",
            "- 调度器只读模型已有的信号，不引入额外打分器。",
            "",
            f"论文报告在 {bench} 上端到端 {p.speedup}× 加速，P99 延迟降到 {p.latency}ms；"
            f"显存占用下降 {rng.randint(5, 70)}%。",
        ]
        if p.repo is not None:
            repo = self.repos[p.repo]
            lines += ["", f"实现见 [repo card](../repo_cards/{repo.path.rsplit('/', 1)[1]})（{repo.slug}）。"]
        for index in p.related:
            other = self.papers[index]
            lines += ["", f"相关工作：arXiv:{other.arxiv}（{other.name}），结论互相印证但设置不同。"]
        if p.citations < 5:
            lines += ["", "只有摘要级信息，核心结论没有可引用的数字，落笔前需读全文。"]
        lines += ["", f"S2 被引 {p.citations}，影响力被引 {p.influential}。"]
        if extra:
            lines += ["", extra]
        return "\n".join(lines) + "\n"

    def repo_card(self, r: RepoFacts, extra: str = "") -> str:
        rng = random.Random(f"{self.shape.seed}:{r.slug}")
        lines = [
            "---",
            f"repo: {r.slug}",
            f"stars: {r.stars}",
            f"weekly_growth: {r.weekly}",
            f"first_collected: 2026-{rng.randint(6, 10):02d}-{rng.randint(1, 28):02d}",
            f"last_commit: 2026-10-{rng.randint(1, 29):02d}",
            f"license: {rng.choice(_LICENSES)}",
            f"maturity: {rng.choice(_MATURITY)}",
            "---",
            "",
            f"# {r.slug}",
            "",
            f"{rng.choice(_TOPICS)}方向的开源实现：{rng.choice(_IDEAS)}。README 自报单卡 decode "
            f"{rng.randint(20, 3000)} tokens/s，首 token 延迟 {rng.randint(30, 900)}ms。",
            "",
            f"首次采集 {r.stars}⭐，周增 +{r.weekly}。仓库地址 https://github.com/{r.slug}。",
        ]
        if extra:
            lines += ["", extra]
        return "\n".join(lines) + "\n"

    def guide(self, r: RepoFacts, peers: list[RepoFacts]) -> str:
        rng = random.Random(f"{self.shape.seed}:guide:{r.slug}")
        rows = "\n".join(
            f"| [{x.slug}](../repo_cards/{x.path.rsplit('/', 1)[1]}) | {x.stars}⭐ | 周增 +{x.weekly} | {rng.choice(_TOPICS)} |"
            for x in [r, *peers]
        )
        pits = "\n".join(f"{i}. {rng.choice(_PROBLEMS)}：{rng.choice(_IDEAS)}之前先核对默认参数。" for i in range(1, 8))
        return (
            f"# {r.slug} 攻略\n\n作者：spark · 2026-10-{self.date:02d}。仓库：https://github.com/{r.slug}"
            f"（[repo card](../repo_cards/{r.path.rsplit('/', 1)[1]})）\n\n## 它是什么\n\n"
            f"{rng.choice(_TOPICS)}方向的工具，适合做选型对照，不适合直接上生产。\n\n## 七条坑\n\n{pits}\n\n"
            f"## 同类对比\n\n| 仓库 | 星标 | 周增 | 定位 |\n|---|---|---|---|\n{rows}\n"
        )

    def brief(self, author: str, day: int, papers: list[PaperFacts], repos: list[RepoFacts], topic: str) -> str:
        rng = random.Random(f"{self.shape.seed}:brief:{author}:{day}:{topic}")
        out = [
            f"# {topic} · E1 预消化简报（2026-10-{day:02d}）", "",
            f"- 作者：{author.title()} · E1 日间预消化轮（{topic}）",
            f"- 时间：2026-10-{day:02d} 22:20",
            "- 对照活文档：organized/knowledge/inference-00.md", "",
            f"增量条数：{len(papers)} 条（正文可落地增量）＋ {len(repos)} 条复查项（非新观点）", "",
        ]
        for i, p in enumerate(papers, 1):
            out += [
                f"## 增量 {i}：{p.name} —— {rng.choice(_PROBLEMS)}的新解法（arXiv:{p.arxiv}）", "",
                "**来源**", "",
                f"- 卡片：{p.path}（arXiv:{p.arxiv}，S2 被引 {p.citations} / 影响力被引 {p.influential}）", "",
                "**要点**", "",
                f"提出{rng.choice(_IDEAS)}；论文报告端到端 {p.speedup}× 加速，P99 延迟 {p.latency}ms。", "",
                "**值得警惕之处**", "",
                "- 只有摘要级信息，结论可能随版本变动。", "",
            ]
        if repos:
            out += ["## 复查项（非新增量）", ""]
            for r in repos:
                out.append(f"- {r.slug}（[repo card](../../organized/repo_cards/{r.path.rsplit('/', 1)[1]})）："
                           f"本轮复采 {r.stars}⭐ / 周增 +{r.weekly}，只是计数刷新。")
            out.append("")
        return "\n".join(out)

    def living_document(self, index: int, papers: list[PaperFacts], repos: list[RepoFacts]) -> str:
        """A long Chinese living document discussing most of `papers` and listing all in §七."""
        rng = random.Random(f"{self.shape.seed}:doc:{index}")
        discussed = [p for p in papers if rng.random() > 0.03]  # ~3% cited, no entry (KB002)
        target = max(self.shape.doc_lines, 0)
        out = [f"# 推理系统活文档（第 {index} 卷）", "",
               f"维护：lead（maintainer）。末次更新 2026-10-{self.date:02d}。§七 引用列表 {len(papers)} 条。", ""]
        subsections = [(s, title, sub) for s, title, subs in _SECTIONS for sub in subs]
        per = max(1, -(-len(discussed) // len(subsections)))
        cursor = 0
        repo_cursor = 0
        for s, title, subs in _SECTIONS:
            out += [f"## {s} {title}", ""]
            for sub in subs:
                out += [f"### {sub}", ""]
                chunk = discussed[cursor:cursor + per]
                cursor += per
                for p in chunk:
                    number = p.speedup if rng.random() > 0.02 else round(p.speedup + 0.3, 1)  # ~2% KB005
                    out.append(f"- {p.name}（arXiv:{p.arxiv}）：{rng.choice(_IDEAS)}；针对{rng.choice(_PROBLEMS)}，"
                               f"论文报告端到端 {number}× 加速。")
                    if rng.random() < 0.15:
                        out.append(f"  - 复现注意：P99 延迟 {p.latency}ms 只在 {rng.choice(_BENCHES)} 上测得。")
                if sub.startswith("§1.6") and repos:
                    for r in repos[repo_cursor:repo_cursor + max(4, per // 4)]:
                        stars = r.stars if rng.random() > 0.1 else r.stars - rng.randint(1, 9)  # ~10% KB006
                        out.append(f"- {r.slug}（[repo card](../repo_cards/{r.path.rsplit('/', 1)[1]})）："
                                   f"本轮复采 {stars}⭐，{rng.choice(_TOPICS)}方向，暂不进选型表。")
                    repo_cursor += max(4, per // 4)
                out.append("")
        out += ["## §6 判断层", "", "### §6.1 开放问题", ""]
        for i in range(1, 1 + max(3, len(papers) // 40)):
            p = rng.choice(papers)
            out.append(f"{i}. {rng.choice(_PROBLEMS)}能否用{rng.choice(_IDEAS)}缓解（arXiv:{p.arxiv}）？")
        out += ["", "### §6.2 趋势", ""]
        for _ in range(max(4, len(papers) // 25)):
            p = rng.choice(papers)
            if rng.random() < 0.05:  # uncited trend line (KB001)
                out.append(f"- {rng.choice(_TOPICS)}的{rng.choice(_PROBLEMS)}正在变成按收益付费的决策问题。")
            else:
                out.append(f"- {rng.choice(_TOPICS)}从固定配置转向{rng.choice(_IDEAS)}（arXiv:{p.arxiv}）。")
        out += [""]
        # pad the body with running notes up to the requested length
        while len(out) + len(papers) + 4 < target:
            p = rng.choice(discussed or papers)
            out += [f"补记：{p.name} 的{rng.choice(_PROBLEMS)}讨论见 arXiv:{p.arxiv}，"
                    f"复现时延迟 {p.latency}ms，需要在{rng.choice(_BENCHES)}上再核一次。", ""]
        out += ["## §七 引用列表", ""]
        out += [f"- arXiv:{p.arxiv} — {p.title}" for p in papers]
        return "\n".join(out) + "\n"

    def manifest(self, paths: list[str], number: int) -> str:
        rng = random.Random(f"{self.shape.seed}:manifest:{number}")
        ident = f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-4{rng.getrandbits(12):03x}-a{rng.getrandbits(12):03x}-{rng.getrandbits(48):012x}"
        items = [{"path": p, "kind": "paper_card" if "paper_cards" in p else "repo_card"} for p in paths]
        return json.dumps({"id": ident, "created": f"2026-10-{self.date:02d}T21:55:00+08:00",
                           "topic": "inference", "items": items}, ensure_ascii=False, indent=2) + "\n"


def problem_en(problem: str) -> str:
    return {"长尾请求的排队延迟": "tail queueing delay", "草稿长度固定带来的浪费": "fixed draft budgets",
            "路由依赖外部打分器": "scorer-dependent routing", "前缀缓存命中率低": "low prefix-cache hit rates",
            "训推分布不一致": "train-inference mismatch", "图像 token 预算固定": "fixed image token budgets",
            "批量变大后收益递减": "diminishing gains at large batch", "评测集泄漏": "benchmark leakage"}[problem]


def idea_en(idea: str) -> str:
    return "a " + {"按请求动态调整预算的调度器": "per-request budget scheduler",
                   "从 next-token 概率直接读出决策的配方": "next-token probability readout",
                   "预取感知的重排策略": "prefetch-aware reranker", "会话级缓存淘汰": "session-level eviction policy",
                   "解耦控制面与数据面的 rollout 框架": "decoupled rollout framework",
                   "按内容复杂度浮动的 token 预算": "content-adaptive token budget",
                   "分层草稿树": "hierarchical draft tree", "无需训练的置信度校准": "training-free calibration"}[idea]


# -- history ------------------------------------------------------------------------

class _Stream:
    """A `git fast-import` stream: blobs by mark, commits of changed paths."""

    def __init__(self, out) -> None:  # type: ignore[no-untyped-def]
        self.out = out
        self.mark = 0
        self.commits = 0
        self.last: int | None = None
        self.blobs: dict[str, int] = {}

    def blob(self, text: str) -> int:
        known = self.blobs.get(text)
        if known is not None:
            return known
        data = text.encode("utf-8")
        self.mark += 1
        self.out.write(b"blob\nmark :%d\ndata %d\n" % (self.mark, len(data)) + data + b"\n")
        self.blobs[text] = self.mark
        return self.mark

    def commit(self, message: str, changes: dict[str, str | None], author: tuple[str, str] = AUTHOR) -> int:
        marks = {path: (self.blob(text) if text is not None else None) for path, text in sorted(changes.items())}
        self.mark += 1
        stamp = EPOCH + 3600 * self.commits
        self.commits += 1
        who = f"{author[0]} <{author[1]}> {stamp} +0800".encode()
        msg = message.encode("utf-8")
        parts = [b"commit refs/heads/main\nmark :%d\nauthor %s\ncommitter %s\ndata %d\n" % (self.mark, who, who, len(msg)),
                 msg, b"\n"]
        if self.last is not None:
            parts.append(b"from :%d\n" % self.last)
        for path, mark in marks.items():
            raw = path.encode("utf-8")
            parts.append(b"D %s\n" % raw if mark is None else b"M 100644 :%d %s\n" % (mark, raw))
        self.out.write(b"".join(parts) + b"\n")
        self.last = self.mark
        return self.mark

    def tag(self, name: str, mark: int) -> None:
        self.out.write(b"reset refs/tags/%s\nfrom :%d\n\n" % (name.encode(), mark))


def git_env(home: Path | None = None) -> dict[str, str]:
    """The environment for git in a bench repository: no user or system configuration."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k not in ("KBCHECK_AUTHOR", "PRE_COMMIT")}
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
                "LC_ALL": "C.UTF-8"})
    return env


def _git(root: Path, *args: str, stdin: bytes | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=git_env(), input=stdin, capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.decode("utf-8", "replace")


def _digest_changes(kb: _Kb, count: int, label: str) -> dict[str, str | None]:
    """`count` changed items of every kind the digest tells apart, applied to `kb.files`."""
    rng = kb.rng
    changes: dict[str, str | None] = {}
    day = kb.date
    existing = [p for p in kb.papers if p.path in kb.files]
    plan = (["refresh"] * 40 + ["added"] * 25 + ["edited"] * 20 + ["brief"] * 8 + ["renamed"] * 4 + ["deleted"] * 3)
    touched = kb.touched  # an item changes once over both digest commits, so the counts add up
    added = items = 0
    while items < count:
        what = plan[added % len(plan)] if count >= len(plan) else rng.choice(plan)
        added += 1
        if what == "added":
            p = kb.new_paper()
            changes[p.path] = kb.paper_card(p)
            touched.add(p.path)
            items += 1
            continue
        if what == "brief":
            author = rng.choice(WRITERS)
            path = f"inbox/{author}/2026-10-{day:02d}-{label}-{added:04d}-brief.md"
            changes[path] = kb.brief(author, day, rng.sample(existing, 3), rng.sample(kb.repos, 2), "inference")
            items += 1
            continue
        if what == "refresh" and rng.random() < 0.5:
            r = rng.choice(kb.repos)
            if r.path in touched:
                continue
            r.stars += rng.randint(1, 40)
            r.weekly = rng.randint(0, 60)
            changes[r.path] = kb.repo_card(r)
            touched.add(r.path)
            items += 1
            continue
        p = rng.choice(existing)
        if p.path in touched:
            continue
        touched.add(p.path)
        items += 1
        if what == "refresh":
            p.citations += rng.randint(1, 9)
            changes[p.path] = kb.paper_card(p)
        elif what == "edited":
            changes[p.path] = kb.paper_card(p, extra=f"补充（{label}）：全文读完，{rng.choice(_IDEAS)}只在 batch ≤ 16 时成立。")
        elif what == "renamed":
            old = p.path
            p.seq += 500000
            changes[old] = None
            changes[p.path] = kb.files[old]
            touched.add(p.path)
        else:  # deleted
            changes[p.path] = None
    for path, text in changes.items():
        if text is None:
            kb.files.pop(path, None)
        else:
            kb.files[path] = text
    return changes


def generate(root: Path, shape: Shape) -> Generated:
    """Build the knowledge base as a new git repository at `root` (which must not exist or be empty)."""
    root.mkdir(parents=True, exist_ok=True)
    if any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty")
    kb = _Kb(shape)
    rng = kb.rng
    for _ in range(shape.repo_cards):
        kb.new_repo()
    for _ in range(shape.paper_cards):
        kb.new_paper()
    files = kb.files
    files[".kbcheck.toml"] = CONFIG
    files["README.md"] = "# 研究知识库（基准测试用合成数据）\n\n目录结构见 organized/ 与 inbox/。\n"
    for r in kb.repos:
        files[r.path] = kb.repo_card(r)
    for p in kb.papers:
        files[p.path] = kb.paper_card(p)
    per_doc = max(1, min(shape.references, len(kb.papers) // shape.living_documents))
    docs: list[str] = []
    for i in range(shape.living_documents):
        cited = kb.papers[i * per_doc:(i + 1) * per_doc] or kb.papers[:per_doc]
        repos = kb.repos[i * 40:(i + 1) * 40] or kb.repos[:40]
        path = f"organized/knowledge/inference-{i:02d}.md"
        files[path] = kb.living_document(i, cited, repos)
        docs.append(path)
    for i in range(max(1, shape.repo_cards // 40)):
        r = kb.repos[(i * 7) % len(kb.repos)]
        files[f"organized/guides/{r.owner}-{r.name}.md"] = kb.guide(r, rng.sample(kb.repos, min(3, len(kb.repos))))
    for i in range(max(3, shape.paper_cards // 100)):
        author = WRITERS[i % len(WRITERS)]
        day = 1 + (i // len(WRITERS)) % 28
        files[f"inbox/{author}/2026-10-{day:02d}-{i:04d}-inference-e1prep.md"] = kb.brief(
            author, day, rng.sample(kb.papers, min(4, len(kb.papers))), rng.sample(kb.repos, min(2, len(kb.repos))), "inference")
    files["inbox/jay/2026-10-29-推理 速记.md"] = "# 推理速记\n\n作者：Jay\n\n- 端侧推理：单卡 decode 1,450 tokens/s（待核）。\n"
    for i in range(max(1, shape.paper_cards // 1000)):
        files[f"organized/indexes/work-guard/manifest-{i:04d}.json"] = kb.manifest(
            [p.path for p in rng.sample(kb.papers, min(8, len(kb.papers)))], i)

    process = subprocess.Popen(["git", "init", "-q", "-b", "main", str(root)], env=git_env())
    process.wait()
    _git(root, "config", "user.name", AUTHOR[0])
    _git(root, "config", "user.email", AUTHOR[1])
    _git(root, "config", "commit.gpgsign", "false")
    importer = subprocess.Popen(["git", "fast-import", "--quiet", "--done"], cwd=root, env=git_env(),
                                stdin=subprocess.PIPE)
    assert importer.stdin is not None
    stream = _Stream(importer.stdin)
    stream.commit("知识库初始导入", dict(files))
    for h in range(shape.history):
        kb.date = 1 + h % 28
        changed: dict[str, str | None] = {}
        for r in rng.sample(kb.repos, max(1, len(kb.repos) // 100)):
            r.stars += rng.randint(1, 30)
            changed[r.path] = kb.repo_card(r)
        for p in rng.sample(kb.papers, max(1, len(kb.papers) // 200)):
            p.citations += 1
            changed[p.path] = kb.paper_card(p)
        files.update(changed)  # type: ignore[arg-type]
        stream.commit(f"例行复采 #{h + 1}：刷新星标与被引", changed)
    kb.date = 29
    small, large = shape.digest_items
    stream.tag("bench-since-large", stream.last or 0)
    stream.commit("E1 批量入库", _digest_changes(kb, max(0, large - small), "large"))
    stream.tag("bench-since-small", stream.last or 0)
    stream.commit("E1 晚间入库", _digest_changes(kb, small, "small"))
    stream.out.write(b"done\n")
    importer.stdin.close()
    if importer.wait() != 0:
        raise RuntimeError("git fast-import failed")
    _git(root, "reset", "-q", "--hard", "main")
    head = _git(root, "rev-parse", "HEAD").strip()
    markdown = sum(1 for p in files if p.endswith(".md"))
    return Generated(root, shape, len(files), markdown, docs, head)


def stage_hook_change(root: Path, seed: int = 0) -> list[str]:
    """Stage what one pre-commit usually holds: a new brief and a refreshed card (2 files)."""
    cards = sorted((root / "organized" / "paper_cards").iterdir())
    rng = random.Random(seed)
    picks = rng.sample(cards, min(4, len(cards)))
    card = picks[0]
    text = card.read_text(encoding="utf-8")
    text = text.replace("openalex_updated: 2026-10-", "openalex_updated: 2026-11-", 1)
    card.write_text(text, encoding="utf-8")
    rel_card = card.relative_to(root).as_posix()
    lines = ["# 晚间简报（2026-10-30）", "", "- 作者：Lead · 维护轮", ""]
    for i, other in enumerate(picks, 1):
        body = other.read_text(encoding="utf-8")
        arxiv = body.split('arxiv: "', 1)[1].split('"', 1)[0]
        speed = body.split("端到端 ", 1)[1].split("×", 1)[0]
        lines += [f"## 条目 {i}（arXiv:{arxiv}）", "",
                  f"来源：{other.relative_to(root).as_posix()}。论文报告端到端 {speed}× 加速。", ""]
    brief = root / "inbox" / "lead" / "2026-10-30-evening-brief.md"
    brief.parent.mkdir(parents=True, exist_ok=True)
    brief.write_text("\n".join(lines), encoding="utf-8")
    rel_brief = brief.relative_to(root).as_posix()
    _git(root, "add", "--", rel_card, rel_brief)
    return [rel_brief, rel_card]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for the new repository (must not exist or be empty)")
    parser.add_argument("--paper-cards", type=int, default=1000)
    parser.add_argument("--repo-cards", type=int, help="default: paper cards / 5")
    parser.add_argument("--references", type=int, help="reference-list entries per living document")
    parser.add_argument("--doc-lines", type=int, default=0, help="minimum lines of each living document")
    parser.add_argument("--living-documents", type=int)
    parser.add_argument("--history", type=int, default=5, help="commits of ordinary history")
    parser.add_argument("--digest-items", type=int, nargs=2, default=(50, 500), metavar=("SMALL", "LARGE"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    overrides = {k: v for k, v in {
        "repo_cards": args.repo_cards, "references": args.references, "living_documents": args.living_documents,
    }.items() if v is not None}
    shape = Shape.cards(args.paper_cards, doc_lines=args.doc_lines, history=args.history,
                        digest_items=tuple(args.digest_items), seed=args.seed, **overrides)
    built = generate(args.out, shape)
    print(f"{built.root}: {built.files} files ({built.markdown_files} markdown), HEAD {built.head[:12]}, "
          f"living documents {', '.join(built.living_documents)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
