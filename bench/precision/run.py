"""Precision of kbcheck on real note collections: findings, rates and judged precision per rule and corpus.

    python bench/precision/run.py                        # every corpus; table on stdout
    python bench/precision/run.py --only km1994-nlp_paper_study
    python bench/precision/run.py --sample 12 --seed 10 --sample-out to-judge.jsonl
    python bench/precision/run.py --kbcheck-src ../other-checkout --json after.json
    python bench/precision/run.py --compare results-before.json results-after.json

Each corpus is a git bundle in the corpora folder (default `../shared/corpora`
beside the repository). It is cloned into a temporary folder, its mapping from
`corpora/<name>.toml` is written as `.kbcheck.toml`, and `kbcheck check --all
--format json` runs there as a fresh child process (the kbcheck of this
checkout, or of `--kbcheck-src`), timed wall clock on a cold cache.

Per rule and corpus it prints the findings, the findings per 1,000 lines of
the markdown files kbcheck reads (tracked `.md` files outside `exclude`), and
the precision on the judged sample: the items of `judged.jsonl` that match a
finding by corpus, rule, path and fingerprint (fingerprints leave line numbers
out, so a judgement survives edits elsewhere in the file).

The bundles hold only markdown files: images, PDFs and code were left out. A
KB009 finding about a link to such a file says nothing about the knowledge
base, so it is set aside (column `set aside`), never counted or sampled.

`--sample N --seed S` draws, per rule and corpus, N findings at random (the
same ones for the same seed and findings) and writes those not judged yet to
`--sample-out`, one JSON object per line, with the line's text and its
heading to judge by. That file holds the corpora's text: keep it out of the
repository. `--missed-claims N` writes, per corpus, up to N lines of the files
KB005 reads that hold a number with a unit and no finding, to judge recall:
judged `fire` when kbcheck should have reported the line, `quiet` when its
silence is right.

The real corpora run by hand (minutes); a test runs this on a tiny knowledge
base so CI knows it works.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
#: the rule name of a recall candidate: a line that states a quantity and got no finding
MISSED = "missed-claim"
#: kinds of file the bundles left out (they keep markdown only): a broken link to one says nothing
LEFT_OUT = frozenset(
    ".png .jpg .jpeg .gif .svg .webp .bmp .pdf .ipynb .py .cu .cpp .cc .c .h .hpp .rs .go .sh .txt .json"
    " .yaml .yml .csv .tsv .zip .gz .tar .html .htm .pptx .docx .xlsx .mp4 .bib .tex .xml .toml".split()
)

Finding = dict[str, Any]
JudgedKey = tuple[str, str, str, str]


@dataclass
class RuleResult:
    """One rule on one corpus."""

    findings: int = 0
    set_aside: int = 0
    fire: int = 0
    quiet: int = 0

    @property
    def judged(self) -> int:
        return self.fire + self.quiet

    @property
    def precision(self) -> float | None:
        return self.fire / self.judged if self.judged else None


@dataclass
class CorpusResult:
    """One kbcheck run on one corpus."""

    name: str
    lines: int
    files: int
    wall_s: float
    exit_code: int
    crashed: bool
    stderr_tail: str
    rules: dict[str, RuleResult] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"lines": self.lines, "files": self.files, "wall_s": round(self.wall_s, 2),
                "exit_code": self.exit_code, "crashed": self.crashed, "stderr_tail": self.stderr_tail,
                "rules": {rule: {"findings": r.findings, "per_1k_lines": per_1k(r.findings, self.lines),
                                 "set_aside": r.set_aside, "judged": r.judged, "fire": r.fire,
                                 "quiet": r.quiet, "precision": r.precision}
                          for rule, r in sorted(self.rules.items())}}


def per_1k(count: int, lines: int) -> float:
    return round(1000 * count / lines, 2) if lines else 0.0


def git(cwd: Path, *args: str) -> bytes:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True,
                          env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C.UTF-8"})
    return done.stdout


def clone(bundle: Path, into: Path) -> None:
    git(into.parent, "clone", "-q", str(bundle), str(into))


def read_config(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def markdown_files(root: Path, config: dict[str, Any]) -> list[str]:
    """Tracked `.md` files kbcheck reads: `exclude` applied as git glob pathspecs."""
    excluded = [f":(glob,exclude){pattern}" for pattern in config.get("exclude", [])]
    out = git(root, "ls-files", "-z", "--", ":(glob)**/*.md", *excluded)
    return [name for name in out.decode("utf-8", "surrogateescape").split("\0") if name]


def count_lines(root: Path, paths: Iterable[str]) -> int:
    total = 0
    for path in paths:
        try:
            total += (root / path).read_bytes().count(b"\n")
        except OSError:  # a symlink to nowhere, a name the filesystem refused
            continue
    return total


def run_kbcheck(root: Path, src: Path) -> tuple[list[Finding], float, int, bool, str]:
    """Findings, wall seconds, exit code, whether it crashed, and the tail of stderr."""
    env = {**os.environ, "PYTHONPATH": str(src), "GIT_TERMINAL_PROMPT": "0"}
    for leaky in ("KBCHECK_AUTHOR", "PRE_COMMIT"):
        env.pop(leaky, None)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "kbcheck", "check", "--all", "--format", "json"],
                          cwd=root, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    stderr = done.stderr.decode("utf-8", "replace")
    crashed = done.returncode not in (0, 1) or "Traceback" in stderr
    findings: list[Finding] = []
    if not crashed:
        try:
            findings = json.loads(done.stdout)["findings"]
        except (ValueError, KeyError):
            crashed = True
    return findings, wall, done.returncode, crashed, stderr.strip()[-400:]


def left_out_of_bundle(finding: Finding) -> bool:
    """A KB009 about a link to a kind of file the bundles do not carry (image, PDF, code)."""
    if finding["rule"] != "KB009":
        return False
    # a missing folder's finding is set aside by its first link (`data.target`)
    subject = str(finding.get("subject", ""))
    named = (finding.get("data") or {}).get("target") if subject.endswith("/") else None
    # a wikilink by its file name: `[[Screenshot 1.png|300]]` links `Screenshot 1.png`
    name = str(named or subject).removeprefix("[[").removesuffix("]]").split("|")[0].split("#")[0]
    return os.path.splitext(name)[1].lower() in LEFT_OUT


def judged_key(corpus: str, item: Finding) -> JudgedKey:
    return corpus, str(item["rule"]), str(item["path"]), str(item["fingerprint"])


def load_judged(path: Path, state: str | None = None) -> dict[JudgedKey, str]:
    """Verdicts by item identity; with `state`, only the items judged on that state of kbcheck."""
    judged: dict[JudgedKey, str] = {}
    if not path.exists():
        return judged
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        item = json.loads(line)
        if item.get("verdict") not in ("fire", "quiet", "unsure"):
            raise SystemExit(f"{path}:{number}: verdict must be 'fire', 'quiet' or 'unsure'")
        if item["verdict"] == "unsure" or (state is not None and item.get("state") != state):
            continue  # unsure items are left out of every figure
        judged[judged_key(item["corpus"], item)] = item["verdict"]
    return judged


def tally(name: str, findings: Sequence[Finding], judged: dict[JudgedKey, str]) -> dict[str, RuleResult]:
    rules: dict[str, RuleResult] = {}
    seen: set[JudgedKey] = set()
    for finding in findings:
        result = rules.setdefault(finding["rule"], RuleResult())
        if left_out_of_bundle(finding):
            result.set_aside += 1
            continue
        result.findings += 1
        key = judged_key(name, finding)
        if key in judged and key not in seen:  # several findings may share a fingerprint: count it once
            seen.add(key)
            if judged[key] == "fire":
                result.fire += 1
            else:
                result.quiet += 1
    return rules


def heading_above(lines: Sequence[str], index: int) -> str:
    for line in reversed(lines[:index]):
        if re.match(r"#{1,6}\s", line):
            return line.strip()[:160]
    return ""


def context(root: Path, path: str, line: int) -> tuple[str, str]:
    try:
        # split on newlines only, as kbcheck counts lines (str.splitlines also breaks at form feeds)
        lines = (root / path).read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return "", ""
    if not 1 <= line <= len(lines):
        return "", heading_above(lines, len(lines))
    return lines[line - 1][:600], heading_above(lines, line - 1)


def draw_sample(name: str, root: Path, findings: Sequence[Finding], judged: dict[JudgedKey, str],
                size: int, seed: str) -> list[dict[str, Any]]:
    """`size` findings per rule not judged before, the same for the same seed, with text to judge by."""
    by_rule: dict[str, list[Finding]] = {}
    for finding in findings:
        if not left_out_of_bundle(finding):
            by_rule.setdefault(finding["rule"], []).append(finding)
    items: list[dict[str, Any]] = []
    for rule, group in sorted(by_rule.items()):
        unique = {judged_key(name, f): f for f in sorted(group, key=lambda f: (f["path"], f["line"], f["fingerprint"]))}
        keys = sorted(key for key in unique if key not in judged)
        rng = random.Random(f"{seed}/{name}/{rule}")
        for key in rng.sample(keys, min(size, len(keys))):
            finding = unique[key]
            text, heading = context(root, finding["path"], int(finding["line"]))
            items.append({"corpus": name, "rule": rule, "path": finding["path"], "line": finding["line"],
                          "fingerprint": finding["fingerprint"], "subject": finding.get("subject"),
                          "message": finding.get("message"), "heading": heading, "text": text})
    return items


def line_fingerprint(path: str, line: str) -> str:
    """A recall candidate's identity without its line number, as kbcheck's fingerprints are."""
    return hashlib.sha256(f"{path}\0{line.strip()}".encode()).hexdigest()[:16]


CLAIM_SHAPE = re.compile(r"\d(?:[\d,.]*\d)?\s*(?:%|×|x\b|倍|ms\b|GB\b|tokens?\b|points?\b|pp\b|分)", re.IGNORECASE)


def missed_claims(name: str, root: Path, config: dict[str, Any], findings: Sequence[Finding],
                  files: Sequence[str], judged: dict[JudgedKey, str], limit: int, seed: str) -> list[dict[str, Any]]:
    """Lines of files KB005 reads that look like they state a quantity but got no KB005/KB006: recall candidates."""
    from pathspec import GitIgnoreSpec  # a kbcheck dependency; only this mode needs it

    kinds = [*config.get("knowledge", []), *config.get("guides", []), *config.get("briefs", [])]
    spec = GitIgnoreSpec.from_lines(kinds)
    flagged = {(f["path"], f["line"]) for f in findings if f["rule"] in ("KB005", "KB006")}
    candidates: list[dict[str, Any]] = []
    for path in files:
        if not spec.match_file(path):
            continue
        lines = (root / path).read_text(encoding="utf-8", errors="replace").split("\n")
        fenced = False
        for number, line in enumerate(lines, start=1):
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            if fenced or (path, number) in flagged or not CLAIM_SHAPE.search(line):
                continue
            candidates.append({"corpus": name, "rule": MISSED, "path": path, "line": number,
                               "fingerprint": line_fingerprint(path, line),
                               "heading": heading_above(lines, number - 1), "text": line[:600]})
    candidates = [c for c in candidates if judged_key(name, c) not in judged]
    rng = random.Random(f"{seed}/{name}/missed")
    return rng.sample(candidates, min(limit, len(candidates)))


def measure(name: str, bundle: Path, config_path: Path, src: Path, judged: dict[JudgedKey, str],
            args: argparse.Namespace, scratch: Path, extra: list[dict[str, Any]]) -> CorpusResult:
    root = scratch / name
    clone(bundle, root)
    shutil.copyfile(config_path, root / ".kbcheck.toml")
    config = read_config(config_path)
    files = markdown_files(root, config)
    findings, wall, code, crashed, stderr = run_kbcheck(root, src)
    result = CorpusResult(name=name, lines=count_lines(root, files), files=len(files), wall_s=wall,
                          exit_code=code, crashed=crashed, stderr_tail=stderr if crashed else "")
    result.rules = tally(name, findings, judged)
    if args.sample:
        extra.extend(draw_sample(name, root, findings, judged, args.sample, args.seed))
    if args.missed_claims:
        extra.extend(missed_claims(name, root, config, findings, files, judged, args.missed_claims, args.seed))
    if args.keep:
        dest = args.keep / name
        dest.mkdir(parents=True, exist_ok=True)
        (dest / "findings.json").write_text(json.dumps(findings, ensure_ascii=False, indent=1), encoding="utf-8")
    return result


def fmt_precision(result: RuleResult) -> str:
    return "—" if result.precision is None else f"{result.precision:.2f} ({result.fire}/{result.judged})"


def render(results: Sequence[CorpusResult], judged: dict[JudgedKey, str]) -> str:
    """Markdown tables: runs, then per rule and corpus, then the judged recall candidates."""
    out = ["| corpus | md files | md lines | wall s | exit | crash |", "|---|---:|---:|---:|---:|---|"]
    for r in results:
        out.append(f"| {r.name} | {r.files} | {r.lines} | {r.wall_s:.1f} | {r.exit_code} | {'CRASH' if r.crashed else 'no'} |")
    out += ["", "| corpus | rule | findings | per 1k lines | set aside | judged precision |",
            "|---|---|---:|---:|---:|---|"]
    totals: dict[str, RuleResult] = {}
    for r in results:
        for rule in sorted(r.rules):
            rr = r.rules[rule]
            out.append(f"| {r.name} | {rule} | {rr.findings} | {per_1k(rr.findings, r.lines):.2f} | {rr.set_aside} | {fmt_precision(rr)} |")
            t = totals.setdefault(rule, RuleResult())
            t.findings += rr.findings
            t.set_aside += rr.set_aside
            t.fire += rr.fire
            t.quiet += rr.quiet
    lines = sum(r.lines for r in results)
    for rule in sorted(totals):
        t = totals[rule]
        out.append(f"| **all** | {rule} | {t.findings} | {per_1k(t.findings, lines):.2f} | {t.set_aside} | {fmt_precision(t)} |")
    fire = sum(t.fire for t in totals.values())
    judged_count = sum(t.judged for t in totals.values())
    out.append("")
    out.append(f"judged findings matched: {judged_count}; precision over all rules: "
               f"{fire / judged_count:.2f}" if judged_count else "judged findings matched: 0")
    missed = Counter((key[0], verdict) for key, verdict in judged.items() if key[1] == MISSED)
    if missed:
        out += ["", "| corpus | recall candidates judged | real claims kbcheck missed |", "|---|---:|---:|"]
        for name in sorted({corpus for corpus, _ in missed}):
            out.append(f"| {name} | {missed[name, 'fire'] + missed[name, 'quiet']} | {missed[name, 'fire']} |")
    return "\n".join(out)


def compare(before: dict[str, Any], after: dict[str, Any]) -> str:
    """The before -> after table of two `--json` results: runs, then per corpus and rule."""
    def cell(rule: dict[str, Any] | None, key: str) -> str:
        if rule is None:
            return "0" if key != "precision" else "—"
        if key == "precision":
            return "—" if rule["precision"] is None else f"{rule['precision']:.2f} ({rule['fire']}/{rule['judged']})"
        return f"{rule[key]:.2f}" if isinstance(rule[key], float) else str(rule[key])

    out = ["| corpus | md lines | wall s before → after | crash after |", "|---|---:|---:|---|"]
    for name in sorted(set(before) | set(after)):
        b, a = before.get(name, {}), after.get(name, {})
        out.append(f"| {name} | {a.get('lines', b.get('lines', 0))} | {b.get('wall_s', '—')} → {a.get('wall_s', '—')} "
                   f"| {'CRASH' if a.get('crashed') else 'no'} |")
    out += ["", "| corpus | rule | findings | per 1k lines | judged precision |", "|---|---|---:|---:|---|"]
    for name in sorted(set(before) | set(after)):
        b_rules, a_rules = before.get(name, {}).get("rules", {}), after.get(name, {}).get("rules", {})
        for rule in sorted(set(b_rules) | set(a_rules)):
            b, a = b_rules.get(rule), a_rules.get(rule)
            out.append(f"| {name} | {rule} | {cell(b, 'findings')} → {cell(a, 'findings')} "
                       f"| {cell(b, 'per_1k_lines')} → {cell(a, 'per_1k_lines')} "
                       f"| {cell(b, 'precision')} → {cell(a, 'precision')} |")
    return "\n".join(out)


def corpus_names(folder: Path, configs: Path, only: Sequence[str]) -> list[str]:
    names = sorted(p.stem for p in configs.glob("*.toml"))
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise SystemExit(f"no mapping for {', '.join(unknown)} in {configs}")
        names = [n for n in names if n in only]
    missing = [n for n in names if not (folder / f"{n}.bundle").is_file()]
    if missing:
        raise SystemExit(f"no bundle for {', '.join(missing)} in {folder}")
    return names


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora",
                        help="folder of <name>.bundle files (default: ../shared/corpora from the repository root)")
    parser.add_argument("--configs", type=Path, default=HERE / "corpora", help="folder of <name>.toml mappings")
    parser.add_argument("--judged", type=Path, default=HERE / "judged.jsonl", help="judged items (JSON lines)")
    parser.add_argument("--judged-state", metavar="STATE",
                        help="count only items judged on this state (e.g. before), so a precision rests on its own random sample")
    parser.add_argument("--only", nargs="*", default=[], metavar="NAME", help="run these corpora only")
    parser.add_argument("--kbcheck-src", type=Path, default=REPO, help="checkout whose kbcheck runs (default: this one)")
    parser.add_argument("--sample", type=int, default=0, metavar="N", help="draw N findings per rule and corpus")
    parser.add_argument("--seed", default="10", help="seed of the sample, e.g. the commit id (default 10)")
    parser.add_argument("--workdir", type=Path, help="clone the corpora here and keep them (default: a temp folder)")
    parser.add_argument("--sample-out", type=Path, help="where the unjudged sample goes (default: a temp file)")
    parser.add_argument("--missed-claims", type=int, default=0, metavar="N",
                        help="also write N recall candidates per corpus to the sample file")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--keep", type=Path, help="write each corpus's raw findings under this folder")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="print the before -> after table of two --json results and run nothing")
    args = parser.parse_args(argv)
    if args.sample < 0 or args.missed_claims < 0:
        parser.error("--sample and --missed-claims take a count of 0 or more")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.compare:
        before, after = (json.loads(path.read_text(encoding="utf-8")) for path in args.compare)
        print(compare(before, after))
        return 0
    names = corpus_names(args.corpora, args.configs, args.only)
    judged = load_judged(args.judged, args.judged_state)
    results: list[CorpusResult] = []
    extra: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="kbcheck-precision-") as temporary:
        scratch = args.workdir or temporary
        Path(scratch).mkdir(parents=True, exist_ok=True)
        for name in names:
            print(f"{name} ...", file=sys.stderr, flush=True)
            results.append(measure(name, args.corpora / f"{name}.bundle", args.configs / f"{name}.toml",
                                   args.kbcheck_src.resolve(), judged, args, Path(scratch), extra))
    print(render(results, judged))
    if args.json:
        args.json.write_text(json.dumps({r.name: r.as_json() for r in results}, ensure_ascii=False, indent=1) + "\n",
                             encoding="utf-8")
    if args.sample or args.missed_claims:
        out = args.sample_out or Path(tempfile.gettempdir()) / "kbcheck-precision-sample.jsonl"
        with out.open("w", encoding="utf-8") as handle:
            for item in extra:
                handle.write(json.dumps(item, ensure_ascii=False) + "\n")
        counts = Counter(item["rule"] for item in extra)
        print(f"\n{len(extra)} items to judge written to {out}: "
              + ", ".join(f"{rule} {n}" for rule, n in sorted(counts.items())), file=sys.stderr)
    return 1 if any(r.crashed for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
