"""The digest of a real history, for each corpus: rendered, sampled for judging, and redacted.

Each corpus bundle is cloned into a temporary folder, its mapping from
`bench/precision/corpora/<name>.toml` installed as `.kbcheck.toml`, and
`kbcheck digest --since HEAD~N` rendered as markdown (zh and en) and JSON into
`--out`. A maintainer reads those; `--sample` draws items across corpora (fixed
seed) for judging, and `judged.jsonl` holds the judgements, tallied by `--tally`.

    nice -n 10 python bench/digest/run.py --out DIR                 # render every corpus
    python bench/digest/run.py --out DIR --sample 20 --seed 12      # the items to judge
    python bench/digest/run.py --tally                              # agreement of judged.jsonl
    python bench/digest/run.py --only NAME --example FILE.md        # the redacted rendering
    python bench/digest/run.py --out DIR --sheet 30 --seed 21       # a judging sheet for a reviewer
    python bench/digest/run.py --tally-sheet FILE.jsonl             # the columns of a judged sheet

A judging sheet is drawn from the `RANGES` (where notes landed), each digested
twice: as the history has it, and with the living documents rolled back to the
range's start (the notes landed, nothing written from them yet: the digest's
real use). Each line holds what the digest said about one item (class, reason,
title, key points, suggested places, related material, cautions) and empty
judging columns a reviewer who did not write the change fills in: whether the
class agrees, the placement is accepted (or a new page was needed, and
proposed), the key points are usable, and the cautions a hand-written brief
would give that were caught, missed, or false.

The corpora are data for measuring: `--example` writes a rendering that keeps
the digest's structure (headings, lists, counts, file paths, ids, kbcheck's own
phrases) with every other run of text (titles, key points, headings of the
living documents, shared terms, finding subjects) replaced by a numbered
placeholder, so nothing of a corpus's prose enters the project.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CONFIGS = REPO / "bench" / "precision" / "corpora"
#: commits per corpus (a corpus with fewer is read from its first commit)
COMMITS = 30


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True, text=True,
                          env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C.UTF-8"})
    return done.stdout


def kbcheck(root: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "kbcheck", *args], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    if done.returncode not in (0, 1):
        raise RuntimeError(f"kbcheck {' '.join(args)} failed in {root}: {done.stderr.strip()[-400:]}")
    return done.stdout


def prepare(name: str, corpora: Path, scratch: Path) -> Path:
    """A clone of the corpus with its mapping installed (untracked, as an adopter's first run)."""
    root = scratch / name
    if not root.exists():
        git(scratch, "clone", "-q", str(corpora / f"{name}.bundle"), str(root))
        shutil.copyfile(CONFIGS / f"{name}.toml", root / ".kbcheck.toml")
    return root


def since(root: Path, commits: int) -> str:
    """The commit `commits` first-parent steps before HEAD, or the root commit of a shorter history."""
    chain = git(root, "rev-list", "--first-parent", f"--max-count={commits + 1}", "HEAD").split()
    return chain[-1]


def render(name: str, root: Path, out: Path, commits: int) -> dict[str, Any]:
    base = since(root, commits)
    for lang in ("zh", "en"):
        text = kbcheck(root, "digest", "--since", base, "--lang", lang)
        (out / f"{name}.{lang}.md").write_text(text, encoding="utf-8")
    data: dict[str, Any] = json.loads(kbcheck(root, "digest", "--since", base, "--format", "json"))
    (out / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return data


# -- the judging sheet -----------------------------------------------------------------------

#: ranges where notes landed, per corpus (first-parent revisions of the bundle's HEAD)
RANGES: dict[str, list[str]] = {
    "middle-chunjie-mywiki": ["HEAD~1..HEAD"],
    "Zhang-Bocheng-paper-reading": ["HEAD~20..HEAD", "HEAD~60..HEAD~40"],
    "JackonYang-paper-reading": ["HEAD~20..HEAD"],
}
#: the judging columns, empty on the sheet (null: not judged; see `tally_sheet`)
VERDICTS = {"class_agrees": None, "placement_accepted": None, "new_page_needed": None, "new_page_proposed": None,
            "key_points_usable": None, "cautions_expected": None, "cautions_caught": None, "cautions_false": None,
            "reviewer": None, "note": None}


def rolled_back(root: Path, base: str, head: str) -> str:
    """A commit on top of `head` whose living documents are as they were at `base` (those added
    since removed): the notes landed, nothing written from them yet."""
    sys.path.insert(0, str(REPO))
    from kbcheck.config import load_config
    from kbcheck.globs import globset

    config = load_config(root)
    living = globset(config.knowledge)
    excluded = globset(config.exclude)
    branch = f"rolled-back-{base[:7]}-{head[:7]}"
    # the clone's HEAD is where every range is read from: it is put back as it was
    tip = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-q", "-B", branch, head)
    at_head = [p for p in git(root, "ls-tree", "-r", "--name-only", "-z", head).split("\0")
               if p and living.match(p) and not excluded.match(p)]
    at_base = {p for p in git(root, "ls-tree", "-r", "--name-only", "-z", base).split("\0")
               if p and living.match(p) and not excluded.match(p)}
    gone = [p for p in at_head if p not in at_base]
    kept = [p for p in at_head if p in at_base]
    for start in range(0, len(gone), 500):
        git(root, "rm", "-q", "--cached", "--", *gone[start:start + 500])
    for start in range(0, len(kept), 500):
        git(root, "checkout", base, "--", *kept[start:start + 500])
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.org", "commit", "-q", "--allow-empty",
        "-m", "living documents as at the range's start")
    sha = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-q", "-f", "--detach", tip)
    return sha


def sheet_items(name: str, root: Path, spec: str, variant: str, lang: str) -> list[dict[str, Any]]:
    """What the digest of one range says about each of its items (not the living documents' own changes)."""
    sys.path.insert(0, str(REPO))
    from kbcheck.config import load_config
    from kbcheck.digest import make_digest
    from kbcheck.git import open_repository

    base_rev, head_rev = spec.split("..")
    base = git(root, "rev-parse", base_rev).strip()
    head = git(root, "rev-parse", head_rev).strip()
    if variant == "rolled-back":
        head = rolled_back(root, base, head)
    with open_repository(root) as handle:
        digest = make_digest(handle, load_config(handle.root), since=base, to=head, lang=lang)
    out: list[dict[str, Any]] = []
    for item in digest.items:
        if item.cls == "living-doc":
            continue
        out.append({
            "corpus": name, "range": spec, "variant": variant, "path": item.path, "kind": item.kind,
            "change": item.change, "class": item.cls, "reason": item.reason, "title": item.title,
            "key_points": item.key_points, "ids": [c.display for c in item.ids],
            "suggested": [f"{s.living_doc} § {s.section} ({s.score})" for s in item.suggested_sections],
            "related": [f"{r.path}: {r.why}" for r in item.related], "cautions": list(item.warnings),
            "new_pages": [f"{p.path} <- {', '.join(p.linked_from)}" for p in item.new_pages],
        })
    return out


def draw_sheet(corpora: Path, scratch: Path, names: Sequence[str], count: int, seed: int,
               lang: str) -> list[dict[str, Any]]:
    """`count` items drawn in turn from each (corpus, range, variant), increments first in each
    pool's order of draw (they carry placement and cautions), with the verdict columns empty."""
    rng = random.Random(seed)
    pools: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for name in names:
        for spec in RANGES.get(name, []):
            for variant in ("as-is", "rolled-back"):
                print(f"{name} {spec} {variant} ...", file=sys.stderr, flush=True)
                root = prepare(name, corpora, scratch)
                items = sheet_items(name, root, spec, variant, lang)
                rng.shuffle(items)
                items.sort(key=lambda i: i["class"] != "increment")
                pools[(name, spec, variant)] = items[::-1]  # popped from the end: increments first
    drawn: list[dict[str, Any]] = []
    while len(drawn) < count and any(pools.values()):
        for key in sorted(pools):
            if pools[key] and len(drawn) < count:
                drawn.append({**pools[key].pop(), "seed": seed, **VERDICTS})
    return drawn


def tally_sheet(sheet: Path) -> str:
    """The judged columns of a sheet: each a count over the items where it was judged (not null)."""
    rows = [json.loads(line) for line in sheet.read_text(encoding="utf-8").splitlines() if line.strip()]

    def share(column: str, rows_: Sequence[dict[str, Any]]) -> str:
        judged = [r for r in rows_ if r.get(column) is not None]
        return f"{sum(1 for r in judged if r[column])} of {len(judged)}"

    def count(row: dict[str, Any], column: str) -> int:
        """A list column's length, on the sheet as drawn or as committed (its text left out: `<column>_count`)."""
        return len(row[column]) if column in row else int(row.get(f"{column}_count") or 0)

    increments = [r for r in rows if r["class"] == "increment"]
    placed = [r for r in increments if count(r, "suggested")]
    needed = [r for r in rows if r.get("new_page_needed")]
    expected = sum(int(r.get("cautions_expected") or 0) for r in rows)
    caught = sum(int(r.get("cautions_caught") or 0) for r in rows)
    false = sum(int(r.get("cautions_false") or 0) for r in rows)
    shown = sum(len(r["cautions"]) if "cautions" in r else int(r.get("cautions_shown") or 0) for r in rows)
    lines = [f"{len(rows)} items ({', '.join(f'{k} {v}' for k, v in sorted(Counter(r['variant'] for r in rows).items()))})",
             f"  class agrees: {share('class_agrees', rows)}",
             f"  placement accepted: {share('placement_accepted', placed)} increments with a suggestion",
             f"  new page proposed where needed: {share('new_page_proposed', needed)}",
             f"  key points usable: {share('key_points_usable', rows)}",
             f"  cautions caught: {caught} of {expected} a hand-written brief gives; false: {false} of {shown} shown",
             *([f"  length: {sum(len(r['cautions']) + len(r['suggested']) + len(r['related']) + 4 for r in rows)} "
                "lines for these items (title, reason, key points, ids + the lists)"] if all("related" in r for r in rows)
               else [])]
    return "\n".join(lines)


# -- judging ---------------------------------------------------------------------------------

def items_of(out: Path, names: Sequence[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    for name in names:
        path = out / f"{name}.json"
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            for item in data["items"]:
                if item["class"] != "living-doc":  # a living document's own change is not judged for class
                    yield name, item


def sample(out: Path, names: Sequence[str], count: int, seed: int) -> list[dict[str, Any]]:
    """`count` items drawn across corpora: corpora in turn, so a large one does not fill the sample."""
    rng = random.Random(seed)
    pools: dict[str, list[dict[str, Any]]] = {}
    for name, item in items_of(out, names):
        pools.setdefault(name, []).append(item)
    for pool in pools.values():
        rng.shuffle(pool)
    drawn: list[dict[str, Any]] = []
    while len(drawn) < count and any(pools.values()):
        for name in sorted(pools):
            if pools[name] and len(drawn) < count:
                item = pools[name].pop()
                drawn.append({"corpus": name, "path": item["path"], "class": item["class"],
                              "backfilled": item.get("backfilled", False),
                              "reason": item.get("reason", ""),
                              "suggested": [f"{s['living_doc']} § {s['section']} ({s['score']})"
                                            for s in item.get("suggested_sections", [])]})
    return drawn


def tally(judged: Path) -> str:
    """Agreement per sample (seed), the latest judgement of each item of a sample winning (a
    re-judgement is an appended line with the same seed, corpus and path; `"rejudged": true`
    marks one made under a later ranking)."""
    rows = [json.loads(line) for line in judged.read_text(encoding="utf-8").splitlines() if line.strip()]
    latest = {(r.get("seed"), r["corpus"], r["path"]): r for r in rows}
    lines: list[str] = []
    for seed in sorted({r.get("seed") for r in latest.values()}, key=str):
        judged_here = [r for r in latest.values() if r.get("seed") == seed]
        same = sum(1 for r in judged_here if r["kbcheck_class"] == r["maintainer_class"])
        placed = [r for r in judged_here if r.get("section_plausible") is not None]
        plausible = sum(1 for r in placed if r["section_plausible"])
        abstained = [r for r in judged_here if r.get("no_section_right") is not None]
        right = sum(1 for r in abstained if r["no_section_right"])
        by_corpus = Counter(r["corpus"] for r in judged_here)
        lines += [f"seed {seed}: {len(judged_here)} items judged "
                  f"({', '.join(f'{k} {v}' for k, v in sorted(by_corpus.items()))})",
                  f"  class agrees with the maintainer: {same} of {len(judged_here)}",
                  f"  suggested section plausible: {plausible} of {len(placed)} increments with a suggestion",
                  f"  'no section fits' right: {right} of {len(abstained)} increments without one "
                  "(in collections with living documents)"]
    return "\n".join(lines)


# -- redaction -------------------------------------------------------------------------------

_CODE = re.compile(r"(`+)(.+?)\1")
_ID = re.compile(r"arXiv:\d{4}\.\d{4,5}(?:v\d+)?|doi:10\.\S+?(?=[\s,，、；;)）]|$)|\b[0-9a-f]{7}\b|\bKB\d{3}\b")
#: dates and times, numbers, and a file named in a finding (`dir/note.md:12`): paths may stay
_NUMBER = re.compile(r"\d{4}-\d{2}-\d{2}(?:T[\d:]+(?:[+-]\d{2}:\d{2})?)?|\b\d+(?:\.\d+)?\b|[^\s`:：]+\.md(?::\d+)?")
#: kbcheck's own words outside the phrase table: the ranking's reasons, one-character counters
_OWN_WORDS = ["shared terms: ", "where this document lists ", " material", "the note links this document",
              "already cites this note", "shares ids: ", "shares repos: ", "links the same files: ", "cites ",
              ", which reads alike (", "处", "条", "项", "张", "行", "未消费", "已消费", "guide", "paper_card",
              "repo_card", "arxiv", "doi"]


def own_phrases() -> list[str]:
    """The fixed text of kbcheck's Chinese phrases, longest first: what a zh rendering may keep."""
    sys.path.insert(0, str(REPO))
    from kbcheck.digest.phrases import _PHRASES
    from kbcheck.i18n import catalog

    pieces: set[str] = set()
    # the Chinese phrases only: English words that happen to be in a phrase (`for`, `in`) would keep
    # the same words of a corpus's titles
    for key, english in _PHRASES.items():
        for template in (catalog("zh").pgettext(key, english),):
            for literal, _field, _spec, _conv in string.Formatter().parse(template):
                for part in re.split(r"[{}]", literal):
                    if len(part.strip()) >= 2:
                        pieces.add(part)
    pieces |= {"## ", "# ", "- ", "**", " ★★", " ★", "⚠", "—— ", "＋", " — ", "…", "：", "（", "）", "、", "；", ". ", *_OWN_WORDS}
    return sorted(pieces, key=len, reverse=True)


class Redactor:
    """Every run of text that is not kbcheck's own, a file path, an id or a number becomes `‹n›`
    (the same text, the same number: a heading named twice reads as the same placeholder)."""

    def __init__(self) -> None:
        self.phrases = own_phrases()
        self.seen: dict[str, int] = {}

    def placeholder(self, text: str) -> str:
        core = text.strip()
        if not core or all(ch in " ,.;:()[]/-—、，。；：（）|*#+'\"" for ch in core):
            return text
        number = self.seen.setdefault(core, len(self.seen) + 1)
        lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
        return f"{lead}‹{number}›{trail}"

    def line(self, line: str) -> str:
        kept: list[tuple[int, int]] = []
        for pattern in (_CODE, _ID, _NUMBER):
            kept += [m.span() for m in pattern.finditer(line)]
        for phrase in self.phrases:
            start = line.find(phrase)
            while start != -1:
                kept.append((start, start + len(phrase)))
                start = line.find(phrase, start + 1)
        mask = [False] * len(line)
        for start, end in kept:
            if not any(mask[start:end]):  # the longest keep wins where two overlap
                for i in range(start, end):
                    mask[i] = True
        out: list[str] = []
        run: list[str] = []
        for ch, keep in zip(line, mask):
            if keep:
                if run:
                    out.append(self.placeholder("".join(run)))
                    run = []
                out.append(ch)
            else:
                run.append(ch)
        if run:
            out.append(self.placeholder("".join(run)))
        return "".join(out)

    def document(self, text: str) -> str:
        return "\n".join(self.line(line) for line in text.split("\n"))


# -- main ------------------------------------------------------------------------------------

def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora",
                        help="folder of <name>.bundle files (default: ../shared/corpora from the repository root)")
    parser.add_argument("--only", nargs="*", default=[], metavar="NAME", help="these corpora only")
    parser.add_argument("--commits", type=int, default=COMMITS, help=f"commits of history per corpus (default {COMMITS})")
    parser.add_argument("--out", type=Path, help="where the renderings go (default: a new temp folder)")
    parser.add_argument("--no-render", action="store_true", help="reuse the renderings already in --out")
    parser.add_argument("--sample", type=int, default=0, metavar="N", help="print N items to judge, drawn across corpora")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--tally", action="store_true", help="print the agreement recorded in judged.jsonl and stop")
    parser.add_argument("--judged", type=Path, default=HERE / "judged.jsonl")
    parser.add_argument("--example", type=Path, help="write the redacted zh rendering of the (one) corpus here")
    parser.add_argument("--sheet", type=int, default=0, metavar="N",
                        help="write a judging sheet of N items drawn from RANGES (as-is and rolled back) to --out")
    parser.add_argument("--lang", default="zh", help="the sheet's language (default zh)")
    parser.add_argument("--tally-sheet", type=Path, metavar="FILE", help="print the judged columns of a sheet and stop")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.tally:
        print(tally(args.judged))
        return 0
    if args.tally_sheet:
        print(tally_sheet(args.tally_sheet))
        return 0
    if args.sheet:
        names = args.only or sorted(RANGES)
        out = args.out or Path(tempfile.mkdtemp(prefix="kbcheck-digest-"))
        (out / "clones").mkdir(parents=True, exist_ok=True)
        rows = draw_sheet(args.corpora, out / "clones", names, args.sheet, args.seed, args.lang)
        target = out / f"sheet-{args.seed}.jsonl"
        target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{len(rows)} items to judge in {target}", file=sys.stderr)
        return 0
    names = args.only or sorted(p.stem for p in CONFIGS.glob("*.toml"))
    out = args.out or Path(tempfile.mkdtemp(prefix="kbcheck-digest-"))
    out.mkdir(parents=True, exist_ok=True)
    if not args.no_render:
        scratch = out / "clones"
        scratch.mkdir(exist_ok=True)
        for name in names:
            print(f"{name} ...", file=sys.stderr, flush=True)
            data = render(name, prepare(name, args.corpora, scratch), out, args.commits)
            counts = Counter(item["class"] for item in data["items"])
            print(f"  {dict(counts)}", file=sys.stderr)
        print(f"renderings in {out}", file=sys.stderr)
    if args.sample:
        for entry in sample(out, names, args.sample, args.seed):
            print(json.dumps(entry, ensure_ascii=False))
    if args.example:
        if len(names) != 1:
            print("--example takes one corpus (--only NAME)", file=sys.stderr)
            return 2
        text = (out / f"{names[0]}.zh.md").read_text(encoding="utf-8")
        args.example.write_text(Redactor().document(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
