"""The baseline: a recorded commit plus the fingerprints of the findings accepted there.

It lives in a committed file (`.kbcheck/baseline.json` by default) so it
travels with the repository and is reviewed like any other change. New
findings are "scan minus baseline" on line-free fingerprints that hold the
finding's line text (as detect-secrets does), so moving lines never
un-accepts one and a new line never hides behind an old one
(`kbcheck.accepted`). Each accepted finding is listed with its rule, path
and subject, so a reviewer can read a baseline pull request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from kbcheck import git, i18n
from kbcheck.accepted import Accepted
from kbcheck.cache import repository_cache
from kbcheck.engine import RunOptions, check
from kbcheck.errors import GitError, KbcheckError
from kbcheck.files import atomic_file, read_regular, work_tree_file
from kbcheck.git import Repository
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.rules import all_rules
from kbcheck.snapshots import tree_snapshot
from kbcheck.sources import Selection

if TYPE_CHECKING:
    from kbcheck.config import Config

#: the keys a baseline file must have, and nothing else is required
_KEYS = ("commit", "date", "fingerprints")
#: the format written now: fingerprints hold the line text, and `findings` lists each one;
#: a file without `version` is read as the first format (fingerprints without the line text)
VERSION = 2


@dataclass(frozen=True, order=True)
class AcceptedFinding:
    """One accepted finding as a reviewer reads it."""

    path: str
    rule: str
    subject: str
    fingerprint: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "path": self.path, "subject": self.subject, "fingerprint": self.fingerprint}


@dataclass(frozen=True)
class Baseline:
    """What a baseline file records."""

    commit: str
    date: str
    fingerprints: frozenset[str]
    #: each accepted finding (empty in a first-format file)
    findings: tuple[AcceptedFinding, ...] = ()
    #: written in the first format, whose fingerprints leave the line text out
    legacy: bool = False

    def to_json(self) -> dict[str, object]:
        return {"version": VERSION, "commit": self.commit, "date": self.date,
                "fingerprints": sorted(self.fingerprints),
                "findings": [finding.to_json() for finding in sorted(self.findings)]}


class BaselineError(KbcheckError):
    """The baseline file is missing, corrupt or unusable for this run."""


def baseline_path(repo: Repository, config: Config) -> Path:
    """The baseline file in the working tree; a `BaselineError` when a symlink or `.git` is on the way."""
    try:
        return work_tree_file(repo, config.baseline, f"'baseline' {config.baseline}")
    except KbcheckError as exc:
        raise BaselineError(exc.message, path=exc.path, line=exc.line) from None


def parse_baseline(data: bytes, name: str) -> Baseline:
    """Bytes to a `Baseline`; a `BaselineError` naming the file when it is not one."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise BaselineError(i18n._("baseline {name} is not UTF-8 text; rewrite it with kbcheck baseline update",
                                   name=name)) from None
    except (json.JSONDecodeError, RecursionError) as exc:
        reason = (i18n._("line {line}: {reason}", line=exc.lineno, reason=exc.msg) if isinstance(exc, json.JSONDecodeError)
                  else i18n._("nested too deeply"))
        raise BaselineError(i18n._("baseline {name} is not valid JSON ({reason}); "
                                   "fix it or rewrite it with kbcheck baseline update", name=name, reason=reason)) from None
    if not isinstance(document, dict) or any(key not in document for key in _KEYS):
        raise BaselineError(i18n._("baseline {name} must be an object with {keys}; "
                                   "rewrite it with kbcheck baseline update", name=name, keys=", ".join(_KEYS)))
    commit, date, fingerprints = (document[key] for key in _KEYS)
    if not isinstance(commit, str) or not commit.strip():
        raise BaselineError(i18n._("baseline {name}: 'commit' must be a commit sha", name=name))
    if not isinstance(date, str):
        raise BaselineError(i18n._("baseline {name}: 'date' must be an ISO-8601 string", name=name))
    if not isinstance(fingerprints, list) or not all(isinstance(f, str) for f in fingerprints):
        raise BaselineError(i18n._("baseline {name}: 'fingerprints' must be a list of strings", name=name))
    version = document.get("version", 1)
    if version not in (1, VERSION):
        raise BaselineError(i18n._("baseline {name} has version {version}, which this kbcheck does not read; "
                                   "upgrade kbcheck or rewrite it with kbcheck baseline update",
                                   name=name, version=str(version)))
    return Baseline(commit.strip(), date, frozenset(fingerprints), _accepted_findings(document.get("findings", []), name),
                    legacy=version == 1)


def _accepted_findings(entries: object, name: str) -> tuple[AcceptedFinding, ...]:
    keys = ("path", "rule", "subject", "fingerprint")
    if not isinstance(entries, list) or not all(
            isinstance(entry, dict) and all(isinstance(entry.get(key), str) for key in keys) for entry in entries):
        raise BaselineError(i18n._("baseline {name}: 'findings' must be a list of objects with {keys}",
                                   name=name, keys=", ".join(keys)))
    return tuple(AcceptedFinding(*(entry[key] for key in keys)) for entry in entries)


def read_baseline(repo: Repository, config: Config, *, required: bool = False) -> Baseline | None:
    """The baseline of the working tree; None when absent (an error when `required`)."""

    try:
        data = read_regular(baseline_path(repo, config), i18n._("baseline {path}", path=config.baseline))
    except BaselineError:
        raise
    except KbcheckError as exc:
        raise BaselineError(exc.message, path=exc.path, line=exc.line) from None
    if data is None:
        if required:
            raise BaselineError(i18n._("no baseline at {path}; run kbcheck baseline update", path=config.baseline))
        return None
    return parse_baseline(data, config.baseline)


def has_unstaged_changes(repo: Repository, rel: str) -> bool:
    """True when the working-tree file differs from its staged version (a tracked file only)."""
    status, _ = git.run(repo, "diff", "--quiet", "--no-ext-diff", "--", f":(literal){rel}", check=False)
    if status not in (0, 1):
        raise GitError(i18n._("git diff failed on {path}", path=rel))
    return status == 1


def accepted_fingerprints(repo: Repository, config: Config, use: bool | None, mode: str | None = None,
                          changes: list[git.Change] | None = None, notices: list[str] | None = None) -> Accepted:
    """What `check` accepts: the baseline when asked (`use`) or when it exists (None).

    With `--staged` a baseline that differs from its staged version is refused:
    the commit would record one baseline while the hook judged another.
    `changes` are the run's own (renames in them are followed back); a baseline
    in the first format adds a notice to `notices`.
    """
    if use is False:
        return Accepted()
    path = baseline_path(repo, config)
    present = path.exists() or path.is_symlink()
    if not present and not use:
        return Accepted()
    if mode == "staged" and path.is_file() and has_unstaged_changes(repo, config.baseline):
        raise BaselineError(i18n._("baseline {path} has unstaged changes; git add {path} (or revert it) before committing",
                                   path=config.baseline))
    baseline = read_baseline(repo, config, required=True)
    assert baseline is not None
    if baseline.legacy and notices is not None:
        notices.append(i18n._("baseline {path} is in the first format (no line text in its fingerprints); "
                              "kbcheck baseline update rewrites it", path=config.baseline))
    if not baseline.fingerprints:
        return Accepted()
    return Accepted(baseline.fingerprints, baseline.legacy, renamed_since(repo, baseline.commit, mode, changes or []))


def renamed_since(repo: Repository, commit: str, mode: str | None, changes: list[git.Change]) -> dict[str, str]:
    """Each checked path renamed since the baseline's `commit` -> its path there.

    The renames between `commit` and HEAD, after those the index holds (for
    `--staged` and the work tree); for `--diff` without `commit` in local
    history, the range's own.
    """
    def renames(found: list[git.Change]) -> dict[str, str]:
        return {change.path: change.old_path for change in found if change.status == "R" and change.old_path}

    head = git.head_sha(repo)
    if head is None:
        return {}
    far: dict[str, str] | None = None
    if in_local_history(repo, commit):
        far = {} if git.resolve(repo, commit) == head else renames(git.diff_paths(repo, commit, head))
    if mode == "diff":
        return far if far is not None else renames(changes)
    near = renames(changes if mode == "staged" else git.staged_changes(repo))
    far = far or {}
    renamed = {new: far.get(old, old) for new, old in near.items()}
    for new, old in far.items():
        renamed.setdefault(new, old)
    return renamed


def findings_at(repo: Repository, config: Config, sha: str, *, cache: bool = True) -> list[AcceptedFinding]:
    """Every finding of the whole knowledge base at commit `sha` (no KB007, no baseline)."""
    snapshot = tree_snapshot(repo, sha, config.exclude)
    kb = KnowledgeBase(snapshot, config, repository_cache(repo) if cache else None)
    selection = Selection(snapshot, snapshot.paths(), [], None, "all")
    rules = frozenset(rule_id for rule_id in all_rules() if rule_id != "KB007")
    report = check(kb, config, selection, RunOptions(filter="all", select=rules))
    kb.facts.flush()
    return sorted({AcceptedFinding(finding.path, finding.rule, finding.subject, finding.fingerprint)
                   for finding in report.findings})


def update_baseline(repo: Repository, config: Config, rev: str, out: TextIO, lang: str = "en", *,
                    cache: bool = True) -> int:
    """`kbcheck baseline update [REV]`: record REV's commit, date and findings (said in `lang`)."""
    sha = git.resolve(repo, rev or "HEAD")
    path = baseline_path(repo, config)
    if path.exists() and not path.is_file():
        raise BaselineError(i18n._("baseline {path} is not a regular file", path=config.baseline))
    # opened first: an unwritable folder fails at once, and an interrupted run leaves no temporary file
    with atomic_file(path) as target:
        accepted = findings_at(repo, config, sha, cache=cache)
        baseline = Baseline(sha, git.commit_date(repo, sha), frozenset(f.fingerprint for f in accepted), tuple(accepted))
        text = json.dumps(baseline.to_json(), ensure_ascii=False, indent=2) + "\n"
        target.write(text.encode("utf-8"))
    count = len(baseline.fingerprints)
    print(i18n.say(i18n.ngettext("baseline: {sha} with {count} accepted finding -> {path}",
                                 "baseline: {sha} with {count} accepted findings -> {path}", count,
                                 sha=sha[:7], count=count, path=config.baseline), lang), file=out)
    return 0


def in_local_history(repo: Repository, sha: str) -> bool:
    status, _ = git.run(repo, "cat-file", "-e", f"{sha}^{{commit}}", check=False)
    return status == 0


def show_baseline(repo: Repository, config: Config, out: TextIO, lang: str = "en") -> int:
    """`kbcheck baseline show`: the file, its commit and date, how many findings it accepts (said in `lang`)."""
    baseline = read_baseline(repo, config, required=True)
    assert baseline is not None
    if in_local_history(repo, baseline.commit):
        where = i18n._("in local history")
    elif git.is_shallow(repo):
        where = i18n._("not in local history: fetch the full history (`git fetch --unshallow`, or `fetch-depth: 0`)")
    else:
        where = i18n._("not in this repository's history: rewritten, or recorded in another clone")
    for line in (i18n._("baseline: {path}", path=config.baseline),
                 i18n._("commit: {sha} ({where})", sha=baseline.commit, where=where),
                 i18n._("date: {date}", date=baseline.date),
                 i18n._("accepted findings: {count}", count=len(baseline.fingerprints))):
        print(i18n.say(line, lang), file=out)
    counts: dict[tuple[str, str, str], int] = {}
    for finding in baseline.findings:
        key = (finding.path, finding.rule, finding.subject)
        counts[key] = counts.get(key, 0) + 1
    if counts:
        header = (i18n._("file"), i18n._("rule"), i18n._("count"), i18n._("subject"))
        rows: list[tuple[str, ...]] = [tuple(i18n.say(cell, lang) for cell in header)]
        rows += [(path, rule, str(count), subject) for (path, rule, subject), count in sorted(counts.items())]
        widths = [max(len(row[column]) for row in rows) for column in range(3)]
        print("", file=out)
        for row in rows:
            print("  ".join([*(cell.ljust(width) for cell, width in zip(row, widths)), row[3]]), file=out)
    elif baseline.legacy and baseline.fingerprints:
        print(i18n.say(i18n._("(the first format lists no findings: kbcheck baseline update rewrites it)"), lang),
              file=out)
    return 0


__all__ = [
    "Baseline", "BaselineError", "accepted_fingerprints", "baseline_path", "findings_at",
    "parse_baseline", "read_baseline", "show_baseline", "update_baseline",
]
