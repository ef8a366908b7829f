"""Run the rules over a selection and turn their problems into findings.

Data flows one way: snapshot -> knowledge-base model -> rules -> problems ->
here (stamp id, name, severity and fingerprint; apply suppressions, the line
filter and the baseline) -> a `Report` for a reporter.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.errors import KbcheckError
from kbcheck.findings import Finding, Problem, Report, fingerprint, sort_key
from kbcheck.config import effective_severity, is_rule_ignored_for
from kbcheck.model.knowledge_base import OTHER, KbFile, KnowledgeBase
from kbcheck.rules import all_rules
from kbcheck.rules.base import Rule

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.sources import Selection

MARKDOWN_SUFFIXES = (".md", ".markdown")
#: below this many files to parse, a second process costs more than it saves
PARALLEL_MIN_FILES = 400
#: above this many, the parent leaves all parsing to its children (see `prefetch`)
PARENT_SHARE_MAX_FILES = 30000
#: `KBCHECK_JOBS=1` keeps a cold run in one process
JOBS_ENV = "KBCHECK_JOBS"


@dataclass(frozen=True)
class RunOptions:
    """What a check run reports: which rules, which lines, which accepted findings."""

    #: "added", "file" or "all"
    filter: str = "file"
    #: rule ids to run (None: every enabled rule)
    select: frozenset[str] | None = None
    #: fingerprints accepted by the baseline
    accepted: frozenset[str] = frozenset()


def rule_kind(kb: KnowledgeBase, path: str) -> str | None:
    """The kind rules see: a knowledge-base kind, `markdown` for other .md files, else None."""
    kind = kb.kind_of(path)
    if kind == OTHER:
        return "markdown" if path.lower().endswith(MARKDOWN_SUFFIXES) else None
    return kind


def enabled_rules(config: Config, select: Collection[str] | None) -> list[Rule]:
    """Rules to run: the selection (or all), minus `ignore`."""
    return [
        rule for rule in all_rules().values()
        if (select is None or rule.id in select) and rule.id not in config.ignore
    ]


def _run_rule(rule: Rule, run: Callable[[], Iterable[Problem]], where: str) -> list[Problem]:
    """A crashing rule becomes one clear error naming the rule and the file (flake8 style)."""
    try:
        return list(run())
    except KbcheckError:
        raise
    except Exception as exc:  # noqa: BLE001 - a rule bug must not become a traceback
        raise KbcheckError(f"rule {rule.id} failed on {where}: {type(exc).__name__}: {exc}") from exc


def jobs() -> int:
    """Processes a cold run may use: the CPUs this process may run on, or `KBCHECK_JOBS`."""
    value = os.environ.get(JOBS_ENV, "")
    if value.strip().isdigit():
        return max(1, int(value))
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def prefetch(kb: KnowledgeBase, paths: list[str]) -> None:
    """Parse the files the cache lacks in several processes at once (a cold full check).

    The files are shared out by the first two hex digits of their blob id,
    which is also how cache shards are named, so every process writes its own
    shards and none overwrites another's entries. Each forked child parses its
    share, writes its shards and exits; the parent parses one share itself
    meanwhile, waits, then runs the rules reading the children's shards like
    a warm cache. (The rules must not run before every share is parsed, or
    they would parse cards twice.) Past `PARENT_SHARE_MAX_FILES` the parent
    parses nothing and leaves every share to a child: a process that has
    parsed 50k files keeps that memory. Texts that come from git objects are
    read before forking, so a child never talks to git. Anything a child
    failed to write is simply parsed again by the parent: the result is the
    same, only slower.
    """
    workers = min(jobs(), 8)
    if workers < 2 or not hasattr(os, "fork") or len(paths) < PARALLEL_MIN_FILES:
        return
    missing = kb.uncached(paths)
    if len(missing) < PARALLEL_MIN_FILES:
        return
    shares: list[list[str]] = [[] for _ in range(workers)]
    for path in missing:
        blob = kb.snapshot.blob_id(path) or "0"
        shares[int(blob[:2], 16) % workers].append(path)
    own = shares.pop(0) if len(missing) <= PARENT_SHARE_MAX_FILES else []
    children: list[int] = []
    prefixes: set[str] = set()
    for share in shares:
        if not share:
            continue
        if getattr(kb.snapshot, "reads_git", True):  # the children must not share the parent's `git cat-file` pipe
            for path in share:
                kb.text(path)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: parse, write the cache, leave without any cleanup of the parent's
            status = 1
            try:
                kb.warm(share)
                kb.flush()
                status = 0
            finally:
                os._exit(status)
        children.append(pid)
        prefixes.update((kb.snapshot.blob_id(p) or "")[:2] for p in share)
        kb.forget_texts(share)
    try:
        kb.warm(own)
    finally:
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    kb.forget_loaded(prefixes)


def check(kb: KnowledgeBase, config: Config, selection: Selection, options: RunOptions) -> Report:
    """Check the selected files (or, with filter `all`, every file) against the enabled rules."""
    rules = enabled_rules(config, options.select)
    file_rules = [r for r in rules if r.check_file is not None]
    paths = kb.snapshot.paths() if options.filter == "all" else list(selection.paths)
    prefetch(kb, [p for p in paths if rule_kind(kb, p) is not None])
    problems: list[tuple[Rule, str | None, Problem]] = []
    checked = 0
    for path in paths:
        kind = rule_kind(kb, path)
        if kind is None:
            continue
        checked += 1
        for rule in file_rules:
            if kind in rule.kinds and rule.check_file is not None:
                check_file = rule.check_file
                file = KbFile(path, kind)
                for problem in _run_rule(rule, lambda: check_file(file, kb, config), path):
                    problems.append((rule, kind, problem))
        kb.release(path)  # a full check holds one file's parse at a time (cards stay: others cite them)
    for rule in rules:
        if rule.check_changes is not None and selection.changes:
            check_changes = rule.check_changes
            for problem in _run_rule(rule, lambda: check_changes(list(selection.changes), config), "the changed paths"):
                problems.append((rule, None, problem))
    return _report(kb, config, selection, options, problems, checked)


def _report(kb: KnowledgeBase, config: Config, selection: Selection, options: RunOptions,
            problems: list[tuple[Rule, str | None, Problem]], checked: int) -> Report:
    findings: list[Finding] = []
    suppressed = 0
    occurrences: dict[tuple[str, str, str], int] = {}
    added = selection.added_lines if options.filter == "added" else None
    for rule, kind, problem in sorted(problems, key=lambda item: (item[2].path, item[2].line, item[2].column, item[0].id)):
        key = (rule.id, problem.path, problem.subject)
        occurrence = occurrences.get(key, 0)
        occurrences[key] = occurrence + 1
        if added is not None and rule.check_changes is None and not problem.file_level:
            if problem.line not in added.get(problem.path, ()):
                continue
        severity = effective_severity(config, rule.id, rule.default_severity(kind))
        finding = Finding(
            rule=rule.id, name=rule.name, severity=severity,  # type: ignore[arg-type]
            path=problem.path, line=problem.line, column=problem.column,
            end_line=problem.end_line or problem.line, message=problem.message, subject=problem.subject,
            fingerprint=fingerprint(rule.id, problem.path, problem.subject, occurrence),
            file_level=problem.file_level,
        )
        if _suppressed(kb, config, finding) or finding.fingerprint in options.accepted:
            suppressed += 1
            continue
        findings.append(finding)
    findings.sort(key=sort_key)
    return Report(tuple(findings), checked, suppressed, tuple(kb.notices))


def _suppressed(kb: KnowledgeBase, config: Config, finding: Finding) -> bool:
    """Config `per-file-ignores`, `disable-file` comments, and `disable` comments on the block."""
    if is_rule_ignored_for(config, finding.rule, finding.path):
        return True
    if finding.rule == "KB007" or not finding.path.lower().endswith(MARKDOWN_SUFFIXES):
        return False
    doc = kb.document(finding.path) if kb.snapshot.blob_id(finding.path) is not None else None
    if doc is None:
        return False
    if finding.rule in doc.file_disabled:
        return True
    block = doc.block_at(finding.line)
    return block is not None and finding.rule in block.disabled
