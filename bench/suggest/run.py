"""Benchmark of `kbcheck suggest` on a wiki whose living documents link their notes.

A wiki that links each source note from the concept and entity pages that
draw on it holds its own ground truth. For each sampled note: delete every
line of a living document that links it, commit, and ask for the note's
sections; a hit is a suggested section that held a link (the page: any
section of a page that held one). A plain BM25 ranking of the same sections,
with the same terms, runs beside it as the baseline.

    nice -n 10 python bench/suggest/run.py CLONE_OF_WIKI --notes 100 --seed 12
    nice -n 10 python bench/suggest/run.py CLONE_OF_WIKI --notes 60 --seed 7 --digest \
        --config bench/precision/corpora/middle-chunjie-mywiki.toml

`--digest` asks the digest's placement instead (the note's own places first,
`kbcheck/digest/own_links.py`, then the ranking), and counts as right only the
pages that discuss the note in their body: a page that lists it under
`Sources` alone (an author's page, an institution's) is where the wiki records
who wrote it, not where a maintainer writes what it says.

The wiki is cloned into a temporary folder (the commits go there).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kbcheck.cache import repository_cache  # noqa: E402
from kbcheck.config import load_config  # noqa: E402
from kbcheck.digest.own_links import linked_placement  # noqa: E402
from kbcheck.git import open_repository  # noqa: E402
from kbcheck.model.knowledge_base import KnowledgeBase  # noqa: E402
from kbcheck.sources import TreeSnapshot  # noqa: E402
from kbcheck.suggest import Suggester  # noqa: E402
from kbcheck.suggest.rank import bm25, make_query  # noqa: E402

HERE = Path(__file__).resolve().parent
PAGES = ("wiki/concepts/", "wiki/entities/")
NOTES = "wiki/sources/"
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def link_pattern(slug: str) -> re.Pattern[str]:
    return re.compile(r"\[\[\s*" + re.escape(slug) + r"\s*(?:[|#][^\]]*)?\]\]", re.IGNORECASE)


def body_start(lines: list[str]) -> int:
    """Index of the first line after a `---` frontmatter block (0 without one)."""
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() == "---":
                return i + 1
    return 0


def holders(text: str, pattern: re.Pattern[str]) -> tuple[set[str], list[int]]:
    """(headings of the sections that link the note, indexes of the lines that do)."""
    lines = text.split("\n")
    heading, fenced = "", False
    sections: set[str] = set()
    linking: list[int] = []
    for i in range(body_start(lines), len(lines)):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
        m = _HEADING.match(line) if not fenced else None
        if m:
            heading = m.group(2).strip()
        if pattern.search(line):
            sections.add(heading)
            linking.append(i)
    return sections, linking


_SOURCES = re.compile(r"(?i)^\s*(?:sources?|references?)\s*$")


def ground_truth(repo: Path, body_only: bool = False) -> dict[str, dict[str, set[str]]]:
    """Note path -> {page path -> headings of sections linking it} (`body_only`: not a `Sources` list)."""
    pages = {p: (repo / p).read_text(encoding="utf-8") for p in git(repo, "ls-files", *PAGES).split("\n") if p.endswith(".md")}
    notes = [p for p in git(repo, "ls-files", NOTES).split("\n") if p.endswith(".md")]
    truth: dict[str, dict[str, set[str]]] = {}
    links = re.compile(r"\[\[\s*([^\]|#]+?)\s*(?:[|#][^\]]*)?\]\]")
    by_slug: dict[str, list[str]] = {}
    for page, text in pages.items():
        for slug in set(links.findall(text)):
            by_slug.setdefault(slug.lower(), []).append(page)
    for note in notes:
        slug = Path(note).stem
        pattern = link_pattern(slug)
        found: dict[str, set[str]] = {}
        for page in by_slug.get(slug.lower(), []):
            sections, _ = holders(pages[page], pattern)
            if body_only:
                sections = {h for h in sections if not _SOURCES.match(h)}
            if sections:
                found[page] = sections
        if found:
            truth[note] = found
    return truth


def unlink(repo: Path, note: str, pages: list[str]) -> None:
    pattern = link_pattern(Path(note).stem)
    for page in pages:
        path = repo / page
        lines = path.read_text(encoding="utf-8").split("\n")
        _, linking = holders("\n".join(lines), pattern)
        drop = set(linking)
        path.write_text("\n".join(line for i, line in enumerate(lines) if i not in drop), encoding="utf-8")
    git(repo, "commit", "-qam", f"unlink {note}")


def ranked(repo: Path, note: str, top: int, digest: bool = False
           ) -> tuple[list[tuple[str, str]], list[tuple[str, str]], float]:
    """(suggest's top sections, or the digest's with `digest`; BM25's top sections; seconds it took), at HEAD."""
    repository = open_repository(repo)
    config = load_config(repo)
    kb = KnowledgeBase(TreeSnapshot(repository, "HEAD", config.exclude), config, repository_cache(repository))
    start = time.perf_counter()
    suggester = Suggester(kb)
    places = linked_placement(kb, note, suggester, top) if digest else suggester.suggest(note, top)
    found = [(s.living_doc, s.section) for s in places]
    seconds = time.perf_counter() - start
    kb.facts.flush()
    query = make_query(kb, suggester.resolver, note)
    index = suggester.index
    scores = bm25(index, query.terms) if query is not None else {}
    best = sorted(scores, key=lambda n: -scores[n])[:top]
    baseline = [(index.candidates[n].doc, index.candidates[n].heading) for n in best]
    return found, baseline, seconds


def hits(found: list[tuple[str, str]], truth: dict[str, set[str]], k: int) -> tuple[bool, bool]:
    top = found[:k]
    return (any(doc in truth and heading in truth[doc] for doc, heading in top), any(doc in truth for doc, _ in top))


def table(rows: list[dict[str, object]]) -> str:
    """Hits at 1 and 3, sections and pages, for both rankings, as a markdown table."""
    n = len(rows)
    lines = [f"| ranking ({n} notes) | section@1 | section@3 | page@1 | page@3 |", "|---|---|---|---|---|"]
    for name in ("suggest", "bm25"):
        cells = [f"{100 * sum(bool(r[f'{name}_{what}@{k}']) for r in rows) / n:.1f} %"
                 for what, k in (("section", 1), ("section", 3), ("page", 1), ("page", 3))]
        lines.append(f"| {'kbcheck suggest' if name == 'suggest' else 'plain BM25'} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wiki", help="a git repository of the wiki (cloned, never changed)")
    parser.add_argument("--notes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--json", help="append each note's result here as a JSON line, as soon as it is known")
    parser.add_argument("--table", metavar="JSONL", help="only print the table of the results in JSONL")
    parser.add_argument("--digest", action="store_true", help="the digest's placement, judged against body links")
    parser.add_argument("--config", type=Path, default=HERE / "kbcheck.toml", help="the wiki's mapping")
    args = parser.parse_args()
    if args.table:
        rows = [json.loads(line) for line in Path(args.table).read_text(encoding="utf-8").splitlines() if line]
        print(table(rows))
        return 0
    work = Path(tempfile.mkdtemp(prefix="kbcheck-suggest-bench-"))
    try:
        repo = work / "wiki"
        subprocess.run(["git", "clone", "-q", args.wiki, str(repo)], check=True)
        git(repo, "config", "user.email", "bench@example.org")
        git(repo, "config", "user.name", "bench")
        shutil.copy(args.config, repo / ".kbcheck.toml")
        git(repo, "add", ".kbcheck.toml")
        git(repo, "commit", "-qm", "kbcheck configuration")
        base = git(repo, "rev-parse", "HEAD").strip()
        linked = ground_truth(repo)
        truth = ground_truth(repo, body_only=True) if args.digest else linked
        sample = sorted(random.Random(args.seed).sample(sorted(truth), min(args.notes, len(truth))))
        start = time.perf_counter()
        ranked(repo, sample[0], 3, args.digest)  # fills the cache: every run after it is warm
        cold = time.perf_counter() - start
        rows = []
        for number, note in enumerate(sample, 1):
            unlink(repo, note, sorted(linked[note]))
            found, baseline, seconds = ranked(repo, note, 3, args.digest)
            row = {"note": note, "truth": {p: sorted(h) for p, h in truth[note].items()},
                   "suggest": found, "bm25": baseline, "seconds": round(seconds, 3)}
            for name, ranking in (("suggest", found), ("bm25", baseline)):
                for k in (1, 3):
                    row[f"{name}_section@{k}"], row[f"{name}_page@{k}"] = hits(ranking, truth[note], k)
            rows.append(row)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            git(repo, "reset", "-q", "--hard", base)
            print(f"{number:3d}/{len(sample)} {note}: section@3 {row['suggest_section@3']} "
                  f"page@3 {row['suggest_page@3']} bm25 section@3 {row['bm25_section@3']}", file=sys.stderr)
        n = len(rows)
        print(f"notes: {n} (seed {args.seed}) of {len(truth)} linked from living documents; "
              f"links per note: median {statistics.median(sum(len(h) for h in truth[r['note']].values()) for r in rows)}")
        print(f"first run (cold cache): {cold:.1f} s; suggest per note, warm: median "
              f"{statistics.median(r['seconds'] for r in rows):.2f} s")
        print(table(rows))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
