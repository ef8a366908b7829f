"""Benchmark kbcheck against the tools a user would otherwise run, in the same run.

    python bench/run.py                 # 1k and 10k cards; writes bench/RESULTS.md and bench/scaling.png
    python bench/run.py --with-100k     # also 100k cards (builds a ~1 GB repository; run it alone)
    python bench/run.py --real X.bundle # also a real note collection (its mapping from precision/corpora/)

Every measured command is a fresh child process (kbcheck as `python -m
kbcheck`, so start-up is paid as a hook pays it, with bytecode cached as
after an install); time is wall clock, peak memory is the child's max RSS
(GNU time's `%M` when /usr/bin/time exists, else `wait4`, which also counts
this process's pages). Cold cache means `kbcheck cache clear` before the
run, and nothing else dropped. Medians over repeated runs.

Peers run on the same markdown files: `pymarkdown scan` (pymarkdownlnt, in a
virtualenv this script makes under the tools folder) and, when Node.js is
present, markdownlint-cli2 (npm-installed into the tools folder). Neither is
ever a kbcheck dependency. Floors: reading every blob with `git cat-file
--batch`, parsing every living document with markdown-it-py alone, and
Python start-up plus `import kbcheck.cli`.

No unit test times anything: the machine is shared and noisy. Run this by
hand on a quiet machine and commit the table.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from generate import Shape, generate, git_env, stage_hook_change  # noqa: E402

SIZES = (1000, 10000)
BIG = 100000
#: the size the targets are judged at
TARGET_SIZE = 10000
HAND_WRITTEN = "<!-- everything below this line is written by hand; bench/run.py keeps it -->"

#: mode -> (label, kind); kind "kbcheck" rows get ratios to every peer and floor
MODES: dict[str, tuple[str, str]] = {
    "staged-cold": ("kbcheck check --staged (2 files), cold cache", "kbcheck"),
    "staged-warm": ("kbcheck check --staged (2 files), warm cache", "kbcheck"),
    "all-cold": ("kbcheck check --all, cold cache", "kbcheck"),
    "all-warm": ("kbcheck check --all, warm cache", "kbcheck"),
    "all-edited": ("kbcheck check --all, warm cache, one note edited before each run", "kbcheck"),
    "digest-small-cold": ("kbcheck digest, 50 changed items, cold cache", "kbcheck"),
    "digest-small-warm": ("kbcheck digest, 50 changed items, warm cache", "kbcheck"),
    "digest-large-cold": ("kbcheck digest, 500 changed items, cold cache", "kbcheck"),
    "digest-large-warm": ("kbcheck digest, 500 changed items, warm cache", "kbcheck"),
    "markdownlint-cli2": ("peer: markdownlint-cli2 on the same files", "peer"),
    "pymarkdown": ("peer: pymarkdown scan on the same files", "peer"),
    "floor-cat-file": ("floor: read every blob (git cat-file --batch)", "floor"),
    "floor-markdown-it": ("floor: markdown-it-py parses every living document", "floor"),
    "floor-startup": ("floor: Python start-up + import kbcheck.cli", "floor"),
}
RATIO_COLUMNS = ("markdownlint-cli2", "pymarkdown", "floor-cat-file", "floor-markdown-it", "floor-startup")
SHORT = {"markdownlint-cli2": "× mdl-cli2", "pymarkdown": "× pymarkdown", "floor-cat-file": "× cat-file",
         "floor-markdown-it": "× markdown-it", "floor-startup": "× start-up"}

#: rows measured on a real note collection (`--real`): mode -> label; their size is its number of notes
REAL_MODES: dict[str, str] = {
    "real-all-cold": "kbcheck check --all, cold cache",
    "real-all-warm": "kbcheck check --all, warm cache",
    "real-all-edited": "kbcheck check --all, warm cache, one note edited before each run",
    "real-staged-warm": "kbcheck check --staged (one changed note), warm cache",
    "real-digest-cold": "kbcheck digest of the last N notes, cold cache",
    "real-digest-warm": "kbcheck digest of the last N notes, warm cache",
    "real-markdownlint-cli2": "peer: markdownlint-cli2 on the same files",
}
REAL_BASE_TAG = "bench-real-base"


@dataclass
class Sample:
    seconds: float
    max_rss_mb: float
    status: int


@dataclass
class Row:
    mode: str
    size: int
    samples: list[Sample] = field(default_factory=list)
    #: why there is no number (tool missing, command not available yet, timed out)
    na: str | None = None
    #: what a probe run printed, e.g. the number of findings
    note: str = ""
    #: the real collection the row was measured on ("" for the synthetic ones)
    corpus: str = ""
    #: kbcheck's time over the peer's, run by run, for rows measured in pairs with a peer
    paired: list[float] = field(default_factory=list)

    @property
    def median(self) -> float | None:
        return statistics.median(s.seconds for s in self.samples) if self.samples else None

    @property
    def peak_rss(self) -> float | None:
        return max(s.max_rss_mb for s in self.samples) if self.samples else None


# -- running and measuring -------------------------------------------------------------

#: GNU time forks the measured command from a small process; without it the child's max RSS
#: would include this (large) process, whose pages the child has before it execs
GNU_TIME = "/usr/bin/time" if Path("/usr/bin/time").exists() else None


def measure(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float, stdout: Path | None = None) -> Sample:
    """Run `cmd` once in a fresh child: wall time, its max RSS and exit status."""
    rss_file = None
    if GNU_TIME:
        fd, rss_file = tempfile.mkstemp(prefix="kbcheck-bench-rss-")
        os.close(fd)
        cmd = [GNU_TIME, "-q", "-f", "%M", "-o", rss_file, *cmd]
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        process = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        timer = threading.Timer(timeout, lambda: os.killpg(process.pid, 9))
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdout:
            out.close()  # type: ignore[union-attr]
    if process.returncode == -9 and seconds >= timeout:
        raise TimeoutError(f"over {timeout:.0f} s")
    max_rss_kb = float(usage.ru_maxrss)
    if rss_file:
        text = Path(rss_file).read_text().split()
        os.unlink(rss_file)
        max_rss_kb = float(text[-1]) if text and text[-1].isdigit() else max_rss_kb
    # GNU time and getrusage count KiB; the table and the target speak of MB (10^6 bytes)
    return Sample(seconds, max_rss_kb * 1024 / 1e6, process.returncode)


def quiet(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)


# -- tools -----------------------------------------------------------------------------

@dataclass
class Tools:
    pymarkdown: list[str] | None
    markdownlint: list[str] | None
    notes: dict[str, str]


def _version(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return (done.stdout or done.stderr).strip().splitlines()[0] if (done.stdout or done.stderr).strip() else "?"


def setup_tools(folder: Path, want_peers: bool) -> Tools:
    """pymarkdownlnt in a virtualenv and markdownlint-cli2 from npm, both under `folder` (reused)."""
    notes: dict[str, str] = {}
    if not want_peers:
        return Tools(None, None, {"peers": "skipped (--no-peers)"})
    folder.mkdir(parents=True, exist_ok=True)
    venv = folder / "py"
    pymd = venv / "bin" / "pymarkdown"
    if not pymd.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "pymarkdownlnt"], check=False)
        if done.returncode != 0:
            notes["pymarkdown"] = "pip install pymarkdownlnt failed"
    pymarkdown = [str(pymd)] if pymd.exists() else None
    if pymarkdown:
        notes["pymarkdown"] = "pymarkdownlnt " + _version([str(venv / "bin" / "python"), "-c",
                                                            "import importlib.metadata as m; print(m.version('pymarkdownlnt'))"])
    markdownlint = None
    node, npm = shutil.which("node"), shutil.which("npm")
    if node and npm:
        prefix = folder / "node"
        binary = prefix / "node_modules" / "markdownlint-cli2" / "markdownlint-cli2-bin.mjs"
        if not binary.exists():
            prefix.mkdir(exist_ok=True)
            subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--silent",
                            "markdownlint-cli2"], check=False)
        if not binary.exists():
            candidates = list((prefix / "node_modules" / "markdownlint-cli2").glob("markdownlint-cli2*.*js"))
            binary = candidates[0] if candidates else binary
        if binary.exists():
            markdownlint = [node, str(binary)]
            package = json.loads((prefix / "node_modules" / "markdownlint-cli2" / "package.json").read_text())
            notes["markdownlint-cli2"] = f"markdownlint-cli2 {package['version']} on Node.js {_version([node, '--version'])}"
        else:
            notes["markdownlint-cli2"] = "npm install markdownlint-cli2 failed"
    else:
        notes["markdownlint-cli2"] = "Node.js not found: skipped"
    return Tools(pymarkdown, markdownlint, notes)


# -- one knowledge base ----------------------------------------------------------------

class Bench:
    def __init__(self, args: argparse.Namespace, tools: Tools) -> None:
        self.args = args
        self.tools = tools
        self.rows: list[Row] = []
        #: when each real collection was measured: corpus -> date, load, notes
        self.real: dict[str, dict[str, str]] = {}

    def env(self) -> dict[str, str]:
        env = git_env()
        env["PYTHONPATH"] = str(self.args.kbcheck_src)
        env.pop("NO_COLOR", None)
        # bytecode is cached as after a pip install (kept out of the source tree): without it every
        # run would compile kbcheck from source, which no installed hook pays
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(self.args.workdir) / "pycache")
        return env

    def kbcheck(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "kbcheck", *args]

    def repeat(self, row: Row, cmd: list[str], root: Path, runs: int, before: list[str] | None = None) -> None:
        """`runs` measured runs of `cmd`; `before` (e.g. a cache clear) runs untimed before each."""
        env = self.env()
        for _ in range(runs):
            if before:
                quiet(before, root, env)
            try:
                row.samples.append(measure(cmd, root, env, self.args.timeout))
            except TimeoutError as exc:
                row.na = f"timed out ({exc})"
                row.samples.clear()
                return
        print(f"  {row.mode:<20} {row.size:>7}: median {row.median:.3f} s, "
              f"peak {row.peak_rss:.0f} MB  ({', '.join(f'{s.seconds:.3f}' for s in row.samples)})", flush=True)

    def probe(self, row: Row, cmd: list[str], root: Path, check: str) -> bool:
        """One untimed run whose output is checked; False (and `row.na`) when the command does not work yet."""
        out = Path(self.args.workdir) / "probe.out"
        sample = measure(cmd, root, self.env(), self.args.timeout, stdout=out)
        data = out.read_bytes()
        if check == "json":
            try:
                document = json.loads(data)
            except ValueError:
                document = None
            if sample.status not in (0, 1) or not isinstance(document, dict):
                err = quiet(cmd, root, self.env()).stderr.decode(errors="replace").strip().splitlines()
                row.na = "n/a: " + (err[-1][:120] if err else f"exit {sample.status}, no JSON")
                print(f"  {row.mode:<20} {row.size:>7}: {row.na}", flush=True)
                return False
            if "findings" in document and "summary" in document:
                row.note = f"{len(document['findings'])} findings in {document['summary'].get('files')} files"
            elif "items" in document:
                row.note = f"{len(document['items'])} items, counts {document.get('counts')}"
        return True

    def run_size(self, cards: int) -> None:
        args = self.args
        shape = Shape.cards(cards, history=args.history)
        root = Path(args.workdir) / f"kb-{cards}"
        stamp = root / ".git" / "bench-shape.json"
        wanted = json.loads(json.dumps(asdict(shape)))  # tuples as JSON lists, as the stamp holds them
        if not (stamp.exists() and json.loads(stamp.read_text()) == wanted):
            if root.exists():
                shutil.rmtree(root)
            print(f"building a {cards}-card knowledge base ...", flush=True)
            started = time.perf_counter()
            built = generate(root, shape)
            stamp.write_text(json.dumps(asdict(shape)))
            print(f"  {built.files} files in {time.perf_counter() - started:.1f} s", flush=True)
        env = self.env()
        quiet(["git", "reset", "-q", "--hard", "main"], root, env)
        shutil.rmtree(root / "inbox" / "lead", ignore_errors=True)
        staged = stage_hook_change(root)
        markdown = sorted(p for p in quiet(["git", "ls-files", "-z", "--", "*.md"], root, env).stdout.decode().split("\0") if p)
        docs = [p for p in markdown if p.startswith("organized/knowledge/")]
        fast, slow = args.repeats_fast, args.repeats_slow
        clear = self.kbcheck("cache", "clear")
        want = set(args.only.split(",")) if args.only else set(MODES)

        def row(mode: str) -> Row | None:
            if mode not in want:
                return None
            r = Row(mode, cards)
            self.rows.append(r)
            return r

        print(f"size {cards}: {len(markdown)} markdown files, staged {', '.join(staged)}", flush=True)
        if r := row("floor-startup"):
            self.repeat(r, [sys.executable, "-c", "import kbcheck.cli"], root, fast)
        if r := row("floor-cat-file"):
            self.repeat(r, ["sh", "-c", "git ls-tree -r --format='%(objectname)' HEAD | git cat-file --batch >/dev/null"],
                        root, fast)
        if r := row("floor-markdown-it"):
            script = ("import sys\nfrom markdown_it import MarkdownIt\n"
                      "md = MarkdownIt('commonmark', {'html': True}).enable('table')\n"
                      "for p in sys.argv[1:]:\n    md.parse(open(p, encoding='utf-8').read())\n")
            self.repeat(r, [sys.executable, "-c", script, *docs], root, fast)
        def cold_and_warm(mode: str, cmd: list[str], cold_runs: int, warm_runs: int) -> None:
            """The cold rows clear the cache before every run; the warm rows follow them."""
            if r := row(f"{mode}-cold"):
                quiet(clear, root, env)
                if self.probe(r, cmd, root, "json"):
                    self.repeat(r, cmd, root, cold_runs, before=clear)
            if r := row(f"{mode}-warm"):
                if self.probe(r, cmd, root, "json"):
                    self.repeat(r, cmd, root, warm_runs)

        cold_and_warm("staged", self.kbcheck("check", "--staged", "--format", "json"), fast, fast)
        cold_and_warm("all", self.kbcheck("check", "--all", "--format", "json"), slow, fast)
        if r := row("all-edited"):
            self.edited(r, self.kbcheck("check", "--all", "--format", "json"), root, markdown[len(markdown) // 2],
                        fast)
        for which, tag in (("small", "bench-since-small"), ("large", "bench-since-large")):
            cold_and_warm(f"digest-{which}", self.kbcheck("digest", "--since", tag, "--format", "json"),
                          slow, fast if which == "small" else slow)
        if r := row("markdownlint-cli2"):
            if self.tools.markdownlint is None:
                r.na = self.tools.notes.get("markdownlint-cli2", "not installed")
            else:
                # no configuration file: its default rule set, as a user would first run it
                self.repeat(r, [*self.tools.markdownlint, "organized/**/*.md", "inbox/**/*.md", "*.md"], root, slow)
        if r := row("pymarkdown"):
            if self.tools.pymarkdown is None:
                r.na = self.tools.notes.get("pymarkdown", "not installed")
            elif cards > args.pymarkdown_max:
                r.na = f"skipped above {args.pymarkdown_max} cards (--pymarkdown-max)"
            else:
                self.repeat(r, [*self.tools.pymarkdown, "scan", "-r", "organized", "inbox", "README.md"], root,
                            slow)

    def edited(self, r: Row, cmd: list[str], root: Path, note: str, runs: int) -> None:
        """A warm run after a line is added to one note: the work tree is not the one the cache
        last saw checked whole, so every file is checked again, from cached parses (a full
        check of the very same work tree checks nothing again). The note is restored after."""
        touch = [sys.executable, "-c", "import sys, time; open(sys.argv[1], 'a', encoding='utf-8')"
                 ".write(f'\\nA line the bench adds at {time.time_ns()}.\\n')", note]
        if self.probe(r, cmd, root, "json"):
            self.repeat(r, cmd, root, runs, before=touch)
        quiet(["git", "checkout", "-q", "--", note], root, self.env())

    def run_real(self, bundle: Path, config: Path, notes: int) -> None:
        """The rows of one real note collection: a clone of its bundle with its mapping as `.kbcheck.toml`.

        Cold `check --all` runs in pairs with markdownlint-cli2 (kbcheck, peer, kbcheck, peer ...), so the
        ratio is taken pair by pair; the digest compares against a commit made without the last `notes`
        markdown files (in path order) and one that adds them back; the staged change adds a line to one note.
        """
        args = self.args
        name = bundle.name.removesuffix(".bundle")
        root = Path(args.workdir) / f"real-{name}"
        env = self.env()
        if not (root / ".git" / "bench-real.json").exists():
            shutil.rmtree(root, ignore_errors=True)
            print(f"cloning {bundle.name} ...", flush=True)
            subprocess.run(["git", "clone", "-q", str(bundle), str(root)], env=env, check=True)
            markdown = sorted(p for p in quiet(["git", "ls-files", "-z", "--", "*.md"], root, env).stdout.decode()
                              .split("\0") if p)
            last = markdown[-notes:]
            identity = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
            feed = "\0".join(last).encode()
            subprocess.run(["git", "rm", "-q", "--cached", "--pathspec-from-file=-", "--pathspec-file-nul"],
                           cwd=root, env=env, input=feed, check=True)
            subprocess.run(["git", *identity, "commit", "-q", "--no-verify", "-m", "bench: without the last notes"],
                           cwd=root, env=env, check=True)
            subprocess.run(["git", "tag", REAL_BASE_TAG], cwd=root, env=env, check=True)
            subprocess.run(["git", "add", "--pathspec-from-file=-", "--pathspec-file-nul"], cwd=root, env=env,
                           input=feed, check=True)
            subprocess.run(["git", *identity, "commit", "-q", "--no-verify", "-m", "bench: the last notes"],
                           cwd=root, env=env, check=True)
            (root / ".git" / "bench-real.json").write_text(json.dumps({"notes": notes, "markdown": len(markdown)}))
        shutil.copyfile(config, root / ".kbcheck.toml")
        quiet(["git", "reset", "-q", "--hard", "HEAD"], root, env)
        size = json.loads((root / ".git" / "bench-real.json").read_text())["markdown"]
        markdown = sorted(p for p in quiet(["git", "ls-files", "-z", "--", "*.md"], root, env).stdout.decode()
                          .split("\0") if p)
        fast, slow = args.real_repeats_fast, args.real_repeats_slow
        when = machine(args.kbcheck_src)
        self.real[name] = {"date": when["date"], "load": when["load"], "notes": str(notes), "kbcheck": when["kbcheck"]}
        clear = self.kbcheck("cache", "clear")
        check_all = self.kbcheck("check", "--all", "--format", "json")
        want = set(args.only.split(",")) if args.only else set(REAL_MODES)

        def row(mode: str) -> Row | None:
            if mode not in want:
                return None
            r = Row(mode, size, corpus=name)
            self.rows.append(r)
            return r

        print(f"{name}: {len(markdown)} markdown files", flush=True)
        cold, peer = row("real-all-cold"), row("real-markdownlint-cli2")
        if peer is not None and self.tools.markdownlint is None:
            peer.na, peer = self.tools.notes.get("markdownlint-cli2", "not installed"), None
        # no configuration file: its default rule set, as a user would first run it
        lint = [*self.tools.markdownlint, "**/*.md"] if self.tools.markdownlint else []
        if cold is not None:
            quiet(clear, root, env)
            if not self.probe(cold, check_all, root, "json"):
                cold = None
        def timed(r: Row, cmd: list[str], ok: tuple[int, ...]) -> bool:
            try:
                sample = measure(cmd, root, env, args.timeout)
            except TimeoutError as exc:
                r.na = f"timed out ({exc})"
                r.samples.clear()
                return False
            if sample.status not in ok:  # a run that stopped early measured nothing
                r.na = f"exit {sample.status} in a timed run"
                r.samples.clear()
                return False
            r.samples.append(sample)
            return True

        for _ in range(slow):
            if cold is not None:
                quiet(clear, root, env)
            if cold is not None and not timed(cold, check_all, (0, 1)):
                cold = None
            if peer is not None and not timed(peer, lint, (0, 1)):
                peer = None
            if cold is not None and peer is not None:
                cold.paired.append(cold.samples[-1].seconds / peer.samples[-1].seconds)
        for r in (cold, peer):
            if r is not None and r.samples:
                print(f"  {r.mode:<24} {size:>7}: median {r.median:.3f} s, peak {r.peak_rss:.0f} MB "
                      f"({', '.join(f'{x.seconds:.3f}' for x in r.samples)})", flush=True)
        if r := row("real-all-warm"):
            if self.probe(r, check_all, root, "json"):
                self.repeat(r, check_all, root, fast)
        if r := row("real-all-edited"):
            self.edited(r, check_all, root, markdown[len(markdown) // 2], fast)
        if r := row("real-staged-warm"):
            changed = markdown[len(markdown) // 2]
            with open(root / changed, "a", encoding="utf-8") as handle:
                handle.write("\nA line the bench adds.\n")
            quiet(["git", "add", "--", changed], root, env)
            staged = self.kbcheck("check", "--staged", "--format", "json")
            if self.probe(r, staged, root, "json"):
                self.repeat(r, staged, root, fast)
            quiet(["git", "reset", "-q", "--hard", "HEAD"], root, env)
        digest = self.kbcheck("digest", "--since", REAL_BASE_TAG, "--format", "json")
        if r := row("real-digest-cold"):
            quiet(clear, root, env)
            if self.probe(r, digest, root, "json"):
                self.repeat(r, digest, root, slow, before=clear)
        if r := row("real-digest-warm"):
            if self.probe(r, digest, root, "json"):
                self.repeat(r, digest, root, fast)



# -- the report ------------------------------------------------------------------------

def machine(src: Path = REPO) -> dict[str, str]:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "?"
    ram = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    version = subprocess.run([sys.executable, "-m", "kbcheck", "--version"], cwd=src, capture_output=True,
                             text=True, check=False, env={**os.environ, "PYTHONPATH": str(src)}).stdout.strip()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return {
        "cpu": cpu, "cores": str(os.cpu_count()), "ram": ram, "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(), "kbcheck": version, "git": _version(["git", "--version"]),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "load": f"{load:.2f}",
    }


def _fmt(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _by(rows: list[Row]) -> dict[tuple[str, int], Row]:
    return {(r.mode, r.size): r for r in rows}


def table(rows: list[Row]) -> list[str]:
    found = _by(rows)
    sizes = sorted({r.size for r in rows})
    head = ["mode", "cards", "median s", "peak RSS MB", "runs", *(SHORT[c] for c in RATIO_COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for mode, (label, kind) in MODES.items():
        for size in sizes:
            row = found.get((mode, size))
            if row is None:
                continue
            cells = [label, f"{size:,}", row.na or _fmt(row.median), _fmt(row.peak_rss, 0), str(len(row.samples))]
            for column in RATIO_COLUMNS:
                other = found.get((column, size))
                if kind != "kbcheck" or row.median is None or other is None or not other.median:
                    cells.append("")
                else:
                    cells.append(f"{row.median / other.median:.2f}")
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def targets(rows: list[Row]) -> list[tuple[str, bool | None, str]]:
    """(target, met or None when not measured, the numbers) at the target size."""
    f = _by(rows)

    def med(mode: str, size: int = TARGET_SIZE) -> float | None:
        row = f.get((mode, size))
        return row.median if row else None

    out: list[tuple[str, bool | None, str]] = []

    def check(name: str, value: float | None, limit: float | None, show: str) -> None:
        if value is None or limit is None:
            out.append((name, None, "not measured"))
        else:
            out.append((name, value <= limit, show.format(v=value, l=limit)))

    sw, start = med("staged-warm"), med("floor-startup")
    check("staged hook, 2 files, warm cache ≤ 0.30 s", sw, 0.30, "{v:.3f} s")
    check("staged hook, warm ≤ 2× (Python start-up + import kbcheck)", sw, 2 * start if start else None,
          "{v:.3f} s vs 2 × floor = {l:.3f} s")
    ac, mdl, pymd = med("all-cold"), med("markdownlint-cli2"), med("pymarkdown")
    check("check --all cold ≤ ⅓ markdownlint-cli2", ac, mdl / 3 if mdl else None, "{v:.2f} s vs ⅓ × peer = {l:.2f} s")
    check("check --all cold ≤ ⅒ pymarkdown", ac, pymd / 10 if pymd else None, "{v:.2f} s vs ⅒ × peer = {l:.2f} s")
    check("check --all warm ≤ 1 s", med("all-warm"), 1.0, "{v:.3f} s")
    check("digest of 500 changed items, warm cache ≤ 1.5 s", med("digest-large-warm"), 1.5, "{v:.3f} s")
    check("digest of 500 changed items, cold cache ≤ 1.5 s", med("digest-large-cold"), 1.5, "{v:.3f} s")
    peaks = [r.peak_rss for r in rows if r.size == BIG and MODES.get(r.mode, ("", ""))[1] == "kbcheck" and r.peak_rss]
    check("peak RSS at 100k cards ≤ 300 MB", max(peaks) if peaks else None, 300, "{v:.0f} MB (max over kbcheck runs)")
    sizes = sorted({r.size for r in rows})
    if len(sizes) >= 2:
        lo, hi = sizes[0], sizes[-1]
        a, b = med("staged-warm", lo), med("staged-warm", hi)
        check(f"staged runs flat: warm at {hi:,} ≤ 1.5× warm at {lo:,}", b, a * 1.5 if a else None,
              "{v:.3f} s vs 1.5 × " + f"{a or 0:.3f}" + " = {l:.3f} s")
        for mode in ("all-cold", "all-warm"):
            x, y = med(mode, sizes[-2]), med(mode, hi)
            s = med("floor-startup", hi) or 0
            if x is not None and y is not None:
                per_lo, per_hi = (x - s) / sizes[-2], (y - s) / hi
                out.append((f"{mode} linear: time per card at {hi:,} ≤ 1.3× that at {sizes[-2]:,}",
                            per_hi <= 1.3 * per_lo, f"{per_hi * 1e6:.0f} µs vs {per_lo * 1e6:.0f} µs per card"))
    return out


def chart(rows: list[Row], path: Path) -> str:
    """Time against knowledge-base size, one line per mode, log-log; '' or why there is no chart."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed: no chart"
    panels = (
        ("kbcheck modes", [m for m, (_, k) in MODES.items() if k == "kbcheck"]),
        ("full run against peers and floors", ["all-cold", "all-warm", "markdownlint-cli2", "pymarkdown",
                                               "floor-cat-file", "floor-markdown-it", "floor-startup"]),
    )
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
    for ax, (title, modes) in zip(axes, panels):
        for mode in modes:
            points = sorted((r.size, r.median) for r in rows if r.mode == mode and r.median is not None)
            if not points:
                continue
            style = "--" if MODES[mode][1] != "kbcheck" else "-"
            ax.plot([p[0] for p in points], [p[1] for p in points], style, marker="o", label=mode)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("paper cards in the knowledge base")
        ax.set_ylabel("median wall time (s)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("kbcheck: time against knowledge-base size")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return ""


def real_section(rows: list[Row], data: dict[str, Any]) -> list[str]:
    """The rows measured on real note collections (`--real`), one table per collection."""
    lines: list[str] = []
    for corpus in sorted({r.corpus for r in rows}):
        mine = {r.mode: r for r in rows if r.corpus == corpus}
        size = next(iter(mine.values())).size
        peer = mine.get("real-markdownlint-cli2")
        when = data.get("real", {}).get(corpus, {})
        lines += ["", f"## Real notes: {corpus} ({size:,} markdown files)", "",
                  f"Measured {when.get('date', '?')} ({when.get('kbcheck', '?')}), load average {when.get('load', '?')} at the start; the digest "
                  f"covers the last {when.get('notes', '?')} notes. Cold `check --all` and markdownlint-cli2 ran in "
                  "pairs, one after the other; `× mdl-cli2` is the median of the pairs' ratios.", "",
                  "| mode | median s | peak RSS MB | runs | × mdl-cli2 |", "|---|---|---|---|---|"]
        for mode, label in REAL_MODES.items():
            r = mine.get(mode)
            if r is None:
                continue
            ratio = ""
            if r.paired:
                ratio = f"{statistics.median(r.paired):.2f}"
            elif mode != "real-markdownlint-cli2" and r.median and peer is not None and peer.median:
                ratio = f"{r.median / peer.median:.2f}"
            lines.append(f"| {label} | {r.na or _fmt(r.median)} | {_fmt(r.peak_rss, 0)} | {len(r.samples)} | {ratio} |")
        notes = [f"- {r.mode}: {r.note}" for r in mine.values() if r.note]
        if notes:
            lines += ["", "What the probe runs reported:", "", *notes]
    return lines


def render(data: dict[str, Any], out: Path, chart_path: Path) -> None:
    every = [Row(r["mode"], r["size"], [Sample(**s) for s in r["samples"]], r.get("na"), r.get("note", ""),
                 r.get("corpus", ""), r.get("paired", [])) for r in data["rows"]]
    rows = [r for r in every if r.mode in MODES]
    real = [r for r in every if r.mode in REAL_MODES]
    info = data["machine"]
    why_no_chart = chart(rows, chart_path)
    lines = [
        "# kbcheck benchmark results",
        "",
        "Written by `python bench/run.py` (see `bench/README.md`); numbers are medians of repeated runs, each a "
        "fresh process, wall clock. Not a test: the machine is shared, so read ratios more than absolutes.",
        "",
        "## Machine",
        "",
        f"- CPU: {info['cpu']}, {info['cores']} cores; RAM {info['ram']}; {info['os']}",
        f"- Python {info['python']}; {info['kbcheck']}; {info['git']}",
        f"- run at {info['date']}, load average {info['load']} at the start",
        *(f"- {name}: {note}" for name, note in sorted(data.get("tools", {}).items())),
        f"- repeats: {data['repeats'][0]} for fast modes, {data['repeats'][1]} for slow ones (cold full runs, "
        "digests of 500 items, peers)",
        "",
        "Shapes: N paper cards, N/5 repo cards, one living document per 20k cards with min(2000, N/5) references, "
        "N/100 briefs, N/200 guides; the staged change is a new brief and a refreshed paper card; digests compare "
        "against commits 50 and 500 changed items back.",
        "",
        "## Targets (at 10,000 paper cards + 2,000 repo cards, one living document with 2,000 references)",
        "",
        "| target | met | measured |",
        "|---|---|---|",
    ]
    for name, met, shown in targets(rows):
        lines.append(f"| {name} | {'✅' if met else ('❌' if met is False else '—')} | {shown} |")
    lines += ["", "## All runs", "",
              "Ratios are kbcheck's median over the peer's or floor's median at the same size (below 1: faster).", ""]
    lines += table(rows)
    notes = [f"- {r.mode} at {r.size:,}: {r.note}" for r in rows if r.note]
    if notes:
        lines += ["", "What the probe run of each kbcheck mode reported (the same every run):", "", *notes]
    lines += real_section(real, data)
    lines += ["", "## Scaling", ""]
    lines.append(why_no_chart or f"![time against knowledge-base size]({chart_path.name})")
    previous = out.read_text(encoding="utf-8") if out.exists() else ""
    kept = previous.split(HAND_WRITTEN, 1)[1] if HAND_WRITTEN in previous else "\n"
    out.write_text("\n".join(lines) + "\n\n" + HAND_WRITTEN + kept, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--with-100k", action="store_true", help="also build and measure a 100k-card knowledge base")
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",") if x], default=list(SIZES),
                        help="paper-card counts, comma-separated (default 1000,10000; '' for none)")
    parser.add_argument("--real", type=Path, action="append", default=[], metavar="BUNDLE",
                        help="also measure a real note collection (a git bundle), mapped by "
                             "precision/corpora/<name>.toml; repeatable")
    parser.add_argument("--real-notes", type=int, default=500, help="the digest of a real collection covers its "
                        "last N notes (default 500)")
    parser.add_argument("--real-repeats-fast", type=int, default=5)
    parser.add_argument("--real-repeats-slow", type=int, default=3,
                        help="cold runs of a real collection, each paired with one of markdownlint-cli2")
    parser.add_argument("--only", help="modes to run, comma-separated (default all): " + ", ".join(MODES))
    parser.add_argument("--repeats-fast", type=int, default=5)
    parser.add_argument("--repeats-slow", type=int, default=3)
    parser.add_argument("--history", type=int, default=20, help="ordinary commits before the digest commits")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before one run is abandoned")
    parser.add_argument("--pymarkdown-max", type=int, default=10000, help="largest size pymarkdown runs at")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--workdir", help="where the knowledge bases are built (default: a temp dir, removed)")
    parser.add_argument("--tools-dir", default=os.path.join(tempfile.gettempdir(), "kbcheck-bench-tools"),
                        help="where peers are installed (kept and reused)")
    parser.add_argument("--results", type=Path, default=BENCH / "results.json",
                        help="raw samples; merged with the rows already there (other sizes or modes)")
    parser.add_argument("--output", type=Path, default=BENCH / "RESULTS.md")
    parser.add_argument("--chart", type=Path, default=BENCH / "scaling.png")
    parser.add_argument("--render-only", action="store_true", help="rewrite RESULTS.md and the chart from --results")
    parser.add_argument("--kbcheck-src", type=Path, default=REPO,
                        help="the source tree whose kbcheck is measured (e.g. an older checkout, for before/after)")
    args = parser.parse_args(argv)

    if args.render_only:
        render(json.loads(args.results.read_text(encoding="utf-8")), args.output, args.chart)
        print(f"wrote {args.output} and {args.chart}")
        return 0
    sizes = list(args.sizes) + ([BIG] if args.with_100k and BIG not in args.sizes else [])
    temporary = args.workdir is None
    args.workdir = args.workdir or tempfile.mkdtemp(prefix="kbcheck-bench-")
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    info = machine(args.kbcheck_src)
    tools = setup_tools(Path(args.tools_dir), not args.no_peers)
    bench = Bench(args, tools)
    try:
        for size in sizes:
            bench.run_size(size)
        for bundle in args.real:
            bench.run_real(bundle.resolve(), BENCH / "precision" / "corpora" / (bundle.name.removesuffix(".bundle")
                                                                                + ".toml"), args.real_notes)
    finally:
        if temporary:
            shutil.rmtree(args.workdir, ignore_errors=True)
    old = json.loads(args.results.read_text(encoding="utf-8")) if args.results.exists() else {"rows": []}
    fresh = {(r.mode, r.size, r.corpus) for r in bench.rows}
    rows = [r for r in old["rows"] if (r["mode"], r["size"], r.get("corpus", "")) not in fresh] + [asdict(r) for r in bench.rows]
    data = {"machine": info if sizes or "machine" not in old else old["machine"],
            "tools": {**old.get("tools", {}), **tools.notes},
            "repeats": [args.repeats_fast, args.repeats_slow] if sizes or "repeats" not in old else old["repeats"],
            "real": {**old.get("real", {}), **bench.real}, "rows": rows}
    args.results.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    render(data, args.output, args.chart)
    print(f"wrote {args.results}, {args.output} and {args.chart}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
