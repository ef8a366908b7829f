"""Run the rules over a selection and turn their problems into findings.

Data flows one way: snapshot -> facts (`kbcheck.model.store`, cached by blob id) ->
the knowledge-base view -> rules -> problems -> here (stamp id, name, severity
and fingerprint; apply suppressions, the line filter and the baseline) -> a
`Report` for a reporter. The engine decides how the work is shared out: it
forks the workers and tells the fact store when a file is done, when a
worker starts and when another process has written the cache.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kbcheck.accepted import Accepted, as_accepted
from kbcheck.cache import shard_of
from kbcheck.checked import AtCommit, FileReads, WholeWorkTree, config_digest
from kbcheck.config import effective_severity, is_rule_ignored_for
from kbcheck.errors import KbcheckError
from kbcheck.findings import Finding, Problem, Report, fingerprint, line_context, sort_key
from kbcheck.i18n import _
from kbcheck.model.document import MARKDOWN_SUFFIXES, Document
from kbcheck.model.knowledge_base import KNOWLEDGE, OTHER, KbFile, KnowledgeBase
from kbcheck.model.plain import from_plain, to_plain
from kbcheck.model.store import REFS
from kbcheck.parallel import can_fork, jobs, run_tasks
from kbcheck.printable import printable_message, printable_path, undecodable_as_octal
from kbcheck.rules import all_rules
from kbcheck.rules.base import Rule
from kbcheck.rules.kb009_broken_path import fold_missing_folders

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.progress import Progress
    from kbcheck.sources import Selection

#: the cache namespace of each file's check at a commit (`docs/architecture.md`)
CHECKED = "checked"
#: below this many files to parse, a second process costs more than it saves
PARALLEL_MIN_FILES = 400
#: from this many files on, even a warm run is shared out: each worker then loads only the cache
#: entries of its own files, and the run takes half the time
PARALLEL_WARM_MIN_FILES = 30000
#: above this many, the parent leaves every share to a child and only gathers
#: (a process that has checked 50k files keeps that memory)
PARENT_SHARE_MAX_FILES = 30000


@dataclass(frozen=True)
class RunOptions:
    """What a check run reports: which rules, which lines, which accepted findings."""

    #: "added", "file" or "all"
    filter: str = "file"
    #: rule ids to run (None: every enabled rule)
    select: frozenset[str] | None = None
    #: fingerprints accepted by the baseline (never a change rule's: a baseline cannot forgive KB007)
    accepted: Accepted | frozenset[str] = frozenset()
    #: the configuration rules that judge changes (KB007) obey: the trusted side's
    #: (docs/trust-model.md); None: the run's own
    policy: Config | None = None
    #: told the number of files, then each file checked (a progress line)
    progress: Progress | None = None
    #: report disable comments that suppress nothing (notices, `docs/rules.md`)
    report_unused_disables: bool = False
    #: the links into a missing folder are one finding for the folder (KB009, `docs/rules.md`);
    #: the digest reads each link
    fold_missing_folders: bool = True
    #: a check of every file: in the work tree, each file's check is kept with the files it read
    #: (`kbcheck.checked.FileReads`), for the next full check after an edit
    whole: bool = False


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


def _run_rule(rule: Rule, run: Callable[..., Iterable[Problem]], args: tuple[object, ...], where: str) -> list[Problem]:
    """A crashing rule becomes one clear error naming the rule and the file (flake8 style)."""
    try:
        return list(run(*args))
    except KbcheckError:
        raise
    except Exception as exc:
        raise KbcheckError(_("rule {rule} failed on {where}: {error}: {reason}", rule=rule.id, where=where,
                             error=type(exc).__name__, reason=str(exc))) from exc


@dataclass(frozen=True, slots=True)
class Stamped:
    """A rule's problem with what needs the file at hand: its fingerprint, and whether
    an inline comment disables it. Made where the file is checked (maybe in a worker)."""

    rule: str
    kind: str | None
    problem: Problem
    fingerprint: str
    disabled: bool = False
    #: the digest of the problem's line text that its fingerprint holds (`line_context`)
    context: str = ""


class _Directives:
    """A file's disable comments, looked up once per file, not once per problem."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self._kb = kb
        self._by_path: dict[str, Document | None] = {}

    def _of(self, path: str) -> Document | None:
        if path in self._by_path:
            return self._by_path[path]
        kb = self._kb
        found: Document | None = None
        if path.lower().endswith(MARKDOWN_SUFFIXES) and kb.snapshot.blob_id(path) is not None:
            # no directive can be there without the word: the parse is not needed
            found = kb.document(path) if kb.names_kbcheck(path) else None
        self._by_path[path] = found
        return found

    def disable(self, rule_id: str, problem: Problem) -> bool:
        """Whether a disable comment of the problem's file covers it (`Document.disables`)."""
        doc = self._of(problem.path)
        return doc is not None and doc.disables(rule_id, problem.line)


def stamp(kb: KnowledgeBase, found: list[tuple[Rule, str | None, Problem]], *, comments: bool = True) -> list[Stamped]:
    """Fingerprint problems (numbering same-subject ones in file order) and read disable comments.

    Occurrences count per rule, path and subject, so the problems of one file
    can be stamped apart from every other file's.
    """
    found = sorted(found, key=lambda item: (item[2].path, item[2].line, item[2].column, item[0].id))
    occurrences: dict[tuple[str, str, str, str], int] = {}
    directives = _Directives(kb)
    lines: dict[str, list[str]] = {}
    stamped: list[Stamped] = []
    for rule, kind, problem in found:
        context = _context(kb, lines, problem) if comments else ""
        key = (rule.id, problem.path, problem.subject, context)
        occurrence = occurrences.get(key, 0)
        occurrences[key] = occurrence + 1
        stamped.append(Stamped(
            rule.id, kind, problem, fingerprint(rule.id, problem.path, problem.subject, occurrence, context),
            comments and directives.disable(rule.id, problem), context,
        ))
    return stamped


#: the cache key of a file's line digests (`_line_contexts`)
LINE_CONTEXTS_KEY = "line-contexts"


def _line_contexts(text: str) -> list[str]:
    return [line_context(line) for line in text.split("\n")]


def _context(kb: KnowledgeBase, lines: dict[str, list[str]], problem: Problem) -> str:
    """The digest of the problem's line text (none for a file-level problem); kept per blob,
    so a warm run reads no file for it."""
    if problem.file_level or problem.line < 1:
        return ""
    if problem.path not in lines:
        lines[problem.path] = kb.facts.fact(REFS, problem.path, LINE_CONTEXTS_KEY, _line_contexts) or []
    digests = lines[problem.path]
    return digests[problem.line - 1] if problem.line <= len(digests) else ""


def _decode_checked(value: object) -> tuple[list[Stamped], list[str]] | None:
    """A file's kept check (`kbcheck.checked`): its stamped problems and notices; None for another shape."""
    if not isinstance(value, tuple) or len(value) != 2 or not isinstance(value[1], list):
        return None
    try:
        stamped = from_plain(value[0], list[Stamped])
    except (TypeError, ValueError):
        return None
    return stamped, [str(notice) for notice in value[1]]


def check_files(kb: KnowledgeBase, config: Config, rules: list[Rule], targets: list[tuple[str, str]],
                options: RunOptions | None = None) -> list[Stamped]:
    """Every file rule on each (path, kind), one file at a time, each file let go once checked,
    and each cache shard's parses once the run moves on to another shard (`by_shard`).

    Disable comments are audited while the file is at hand (`kbcheck.suppressions`).
    """
    from kbcheck.suppressions import USELESS_DISABLE, audit_disables

    by_id = all_rules()

    progress = options.progress if options else None
    unused = _reports_unused(config, options)
    # what a file's check found is kept, at a commit or, in the work tree, with the files it read:
    # asked again, the file is not checked again (`kbcheck.checked`)
    inputs = _checked_inputs(config, rules, unused)
    kept = AtCommit.for_run(kb, CHECKED, "checked", *inputs)
    keeps_reads = kept is None and options is not None and options.whole
    kept_reads = FileReads.for_run(kb, CHECKED, "checked", *inputs) if keeps_reads else None
    source = kept or kept_reads
    reads = kb.facts.reads
    stamped: list[Stamped] = []
    shard: str | None = None
    for path, kind in targets:
        if (here := _shard(kb, path)) != shard:
            kb.facts.let_go_parses()  # the last shard's files are done: their cached parses are let go
            shard = here
        hit = _decode_checked(source.get(path, kind)) if source is not None else None
        if hit is not None:
            stamped.extend(hit[0])
            kb.notices.extend(n for n in hit[1] if n not in kb.notices)
            if progress is not None:
                progress.advance()
            continue
        file = KbFile(path, kind)
        found: list[tuple[Rule, str | None, Problem]] = []
        frame = reads.open()
        try:
            for rule in rules:
                check_file = rule.check_file
                if kind in rule.kinds and check_file is not None:
                    found.extend((rule, kind, p) for p in _run_rule(rule, check_file, (file, kb, config), path))
            file_stamped = stamp(kb, found) if found else []
            audited, useless = audit_disables(kb, path, [r.id for r in rules if kind in r.kinds], file_stamped, unused)
            for notice in audited:  # another tool's comments: said once
                kb.say(notice)
            if useless:
                file_stamped += stamp(kb, [(by_id[USELESS_DISABLE], kind, problem) for problem in useless],
                                      comments=False)
        finally:
            reads.close(frame)
        stamped.extend(file_stamped)
        if source is not None:
            checked = (to_plain(file_stamped, list[Stamped]), list(dict.fromkeys(frame.said)))
            if kept is not None:
                kept.put(path, checked, kind)
            elif kept_reads is not None:
                kept_reads.put(path, checked, frame.paths | {path}, kind)
        if progress is not None:
            progress.advance()
        kb.forget(path)  # a full check holds one file's parse at a time
        kb.facts.release(path, kind)
        if kind == KNOWLEDGE:
            kb.facts.release_cards()  # and not the thousands of cards a living document cites
    return stamped


def _tasks(kb: KnowledgeBase, targets: list[tuple[str, str]]) -> list[list[tuple[str, str]]] | None:
    """The targets grouped for worker processes, or None when one process is the faster way.

    Files are grouped by the cache shard of their blob (`shard_of`): each
    group's entries are written by the one process that checked it. Groups
    holding living documents (the heaviest files: every card they cite is
    read as evidence) come first.
    """
    if not can_fork() or len(targets) < PARALLEL_MIN_FILES:
        return None
    if len(targets) < PARALLEL_WARM_MIN_FILES and len(kb.facts.uncached(targets)) < PARALLEL_MIN_FILES:
        return None  # warm and not large: loading the cache twice costs more than checking in one process
    groups: dict[str, list[tuple[str, str]]] = {}
    for target in targets:
        groups.setdefault(_shard(kb, target[0]), []).append(target)
    return sorted(groups.values(), key=lambda group: not any(kind == KNOWLEDGE for _, kind in group))


def _shard(kb: KnowledgeBase, path: str) -> str:
    return shard_of(kb.snapshot.blob_id(path) or "00")


def by_shard(kb: KnowledgeBase, targets: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The targets in the order of their blob's cache shard, living documents first: checked so,
    one process holds the cached parses of one shard at a time, not of the whole knowledge base."""
    return sorted(targets, key=lambda target: (target[1] != KNOWLEDGE, _shard(kb, target[0])))


def check_in_workers(kb: KnowledgeBase, config: Config, rules: list[Rule],
                     targets: list[tuple[str, str]], options: RunOptions | None = None) -> list[Stamped]:
    """`check_files` over all targets, in one process per core when the cache is cold.

    Forked workers take groups of files one at a time, check them, write
    what they parsed to the cache and send back their stamped problems and
    notices; the parent works through groups too (unless the run is very
    large), then gathers. Workers never talk to git through the parent's pipes.
    """
    tasks = _tasks(kb, targets)
    if tasks is None:
        return check_files(kb, config, rules, by_shard(kb, targets), options)
    # what every file's check needs, built once before forking so that no worker builds its own
    kb.paper_index()
    kb.repo_index()
    kb.facts.prepare()
    notices_before = len(kb.notices)
    parent = os.getpid()
    # only this process draws progress: a child's files are counted when its results come back
    quiet_options = replace(options, progress=None) if options is not None else None

    def work(group: list[tuple[str, str]]) -> tuple[list[Stamped], list[str], int]:
        seen = len(kb.notices)
        found = check_files(kb, config, rules, group, options if os.getpid() == parent else quiet_options)
        return found, kb.notices[max(seen, notices_before):], os.getpid()

    # a worker writes what it parsed when it is done: written sooner, the shards other workers
    # look cards up in would fill, and be held whole by each of them
    results = run_tasks(tasks, work, workers=jobs(), parent_works=len(targets) <= PARENT_SHARE_MAX_FILES,
                        in_child=kb.facts.after_fork, child_done=kb.facts.flush)
    stamped: list[Stamped] = []
    written_elsewhere: set[str] = set()
    for group, (found, notices, pid) in zip(tasks, results):
        stamped.extend(found)
        kb.notices.extend(n for n in notices if n not in kb.notices)
        if pid != os.getpid():
            written_elsewhere.add(_shard(kb, group[0][0]))
            if options is not None and options.progress is not None:
                options.progress.advance(len(group))
    # a worker wrote these shards: read them anew if this run (a digest) asks for more
    kb.facts.forget_loaded(written_elsewhere)
    return stamped


def _reports_unused(config: Config, options: RunOptions | None) -> bool:
    """Whether the run reports disable comments that suppress nothing (the flag or the configuration)."""
    from kbcheck.suppressions import reports_unused_disables

    return bool(options and options.report_unused_disables) or reports_unused_disables(config)


def _checked_inputs(config: Config, rules: list[Rule], unused: bool) -> tuple[str, str, str]:
    """What a kept check depends on besides the files: every setting, the rules run, and whether
    disable comments that suppress nothing are reported."""
    return config_digest(config), ",".join(sorted(r.id for r in rules)), "unused" if unused else ""


def _check_whole(kb: KnowledgeBase, config: Config, rules: list[Rule], targets: list[tuple[str, str]],
                 options: RunOptions) -> list[Stamped]:
    """`check_in_workers` over every file of the work tree, kept whole under its state
    (`kbcheck.checked.WholeWorkTree`): the very same work tree asked again is not checked again."""
    kept = WholeWorkTree.for_run(kb, CHECKED, *_checked_inputs(config, rules, _reports_unused(config, options)))
    hit = _decode_checked(kept.get()) if kept is not None else None
    if hit is not None:
        kb.notices.extend(n for n in hit[1] if n not in kb.notices)
        if options.progress is not None:
            options.progress.advance(len(targets))
        return hit[0]
    notices_before = len(kb.notices)
    stamped = check_in_workers(kb, config, rules, targets, replace(options, whole=True))
    if kept is not None:
        kept.put((to_plain(stamped, list[Stamped]), kb.notices[notices_before:]))
    return stamped


def check(kb: KnowledgeBase, config: Config, selection: Selection, options: RunOptions) -> Report:
    """Check the selected files (or, with filter `all`, every file) against the enabled rules."""
    from kbcheck.progress import current

    if options.progress is None and (ambient := current()) is not None:
        options = replace(options, progress=ambient)
    rules = enabled_rules(config, options.select)
    file_rules = [r for r in rules if r.check_file is not None]
    policy = options.policy or config
    change_rules = [r for r in enabled_rules(policy, options.select) if r.check_changes is not None]
    paths = kb.snapshot.paths() if options.filter == "all" else list(selection.paths)
    targets = [(path, kind) for path in paths if (kind := rule_kind(kb, path)) is not None]
    # living documents first: the cards they cite as evidence are then parsed once, numbers and all
    targets.sort(key=lambda target: target[1] != KNOWLEDGE)
    if options.progress is not None:
        options.progress.start(len(targets))
    try:
        if selection.mode == "all":
            stamped = _check_whole(kb, config, file_rules, targets, options)
        else:
            stamped = check_in_workers(kb, config, file_rules, targets, options)
    finally:
        if options.progress is not None:
            options.progress.close()
    changed: list[tuple[Rule, str | None, Problem]] = []
    for rule in change_rules:
        if rule.check_changes is not None and selection.changes:
            check_changes = rule.check_changes
            for problem in _run_rule(rule, check_changes, (list(selection.changes), policy), "the changed paths"):
                changed.append((rule, None, problem))
    stamped.extend(stamp(kb, changed, comments=False))
    # a path a change rule found a problem in is a file the run judged, though no file rule read it
    # (a deletion): never `1 error in 0 files`
    judged = {path for path, _kind in targets} | {problem.path for _rule, _path, problem in changed}
    return _report(kb, config, selection, options, stamped, len(judged))


def _report(kb: KnowledgeBase, config: Config, selection: Selection, options: RunOptions,
            stamped: list[Stamped], checked: int) -> Report:
    """Severity, the line filter, `per-file-ignores`, comments and the baseline: the findings.

    A change rule's severity and ignores come from the policy, and the
    baseline never accepts its findings.
    """
    from kbcheck.model.store import unread_notice
    from kbcheck.rules.kb000_unreadable_note import UnreadableNote

    policy = options.policy or config
    findings: list[Finding] = []
    unread_said: set[str] = set()
    suppressed = 0
    added = selection.added_lines if options.filter == "added" else None
    by_id = all_rules()
    accepted_items = as_accepted(options.accepted).matched(stamped, selection.added_lines)
    for index, item in enumerate(stamped):
        rule, problem = by_id[item.rule], item.problem
        if added is not None and rule.check_changes is None and not problem.file_level:
            # a problem over several lines (a trend section's) is the change's when any of them is
            lines = added.get(problem.path, ())
            if not any(line in lines for line in range(problem.line, (problem.end_line or problem.line) + 1)):
                continue
        judges_changes = rule.check_changes is not None
        rule_config = policy if judges_changes else config
        severity = effective_severity(rule_config, rule.id, rule.default_severity(item.kind))
        finding = Finding(
            rule=rule.id, name=rule.name, severity=severity,  # type: ignore[arg-type]
            path=printable_path(problem.path), line=problem.line, column=problem.column,
            end_line=problem.end_line or problem.line, message=printable_message(problem.message),
            subject=undecodable_as_octal(problem.subject),
            fingerprint=item.fingerprint, file_level=problem.file_level, fix=problem.fix, facts=problem.facts,
        )
        accepted = not judges_changes and index in accepted_items
        if item.disabled or is_rule_ignored_for(rule_config, rule.id, problem.path) or accepted:
            suppressed += 1
            continue
        findings.append(finding)
        if isinstance(problem.facts, UnreadableNote):  # it says what the file's notice would: one is enough
            unread_said.add(unread_notice(problem.path, problem.facts.reason))
    if options.fold_missing_folders:
        findings, accepted_folders = fold_missing_folders(findings, kb.snapshot.tracked,
                                                          as_accepted(options.accepted).fingerprints)
        suppressed += accepted_folders
    findings.sort(key=sort_key)
    return Report(tuple(findings), checked, suppressed, tuple(n for n in kb.notices if n not in unread_said))
