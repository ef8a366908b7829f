"""Run one job over shares of work in forked processes: a cold run uses every core.

Each share but the parent's own runs in a child forked from this process, so
it sees the same parsed configuration and knowledge base without any set-up.
A child sends its result back pickled through a pipe and leaves with
`os._exit`, running none of the parent's clean-up. A child that fails for any
reason other than a `KbcheckError` (killed, out of memory, a bug) costs only
time: the parent runs that share itself, and the result is the same.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from kbcheck.errors import KbcheckError

T = TypeVar("T")
R = TypeVar("R")

#: `KBCHECK_JOBS=1` keeps a run in one process
JOBS_ENV = "KBCHECK_JOBS"
#: more processes than this cost memory for little gain
MAX_JOBS = 8


def jobs() -> int:
    """Processes a run may use: the CPUs this process may run on, or `KBCHECK_JOBS`."""
    value = os.environ.get(JOBS_ENV, "")
    if value.strip().isdigit():
        return max(1, min(int(value), MAX_JOBS))
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, min(count, MAX_JOBS))


def can_fork() -> bool:
    return hasattr(os, "fork") and jobs() > 1


#: a task is claimed by reading its one-byte number from a shared pipe: at most 256 of them,
#: written at once (256 bytes fit any pipe's atomic write)
MAX_TASKS = 256


def _claim(tokens: int) -> int | None:
    """The next unclaimed task's number, or None when all are taken (one byte read is atomic)."""
    token = os.read(tokens, 1)
    return token[0] if token else None


def _work_through(tokens: int, tasks: Sequence[T], work: Callable[[T], R]) -> dict[int, R]:
    done: dict[int, R] = {}
    while (index := _claim(tokens)) is not None:
        done[index] = work(tasks[index])
    return done


def _child(tokens: int, tasks: Sequence[T], work: Callable[[T], R], in_child: Callable[[], None] | None,
           child_done: Callable[[], None] | None, write_fd: int) -> None:
    """The forked side: work through tasks, send ("ok", results) or ("error", message), leave at once."""
    code = 0
    try:
        try:
            if in_child is not None:
                in_child()
            done = _work_through(tokens, tasks, work)
            if child_done is not None:
                child_done()
            payload: tuple[str, object] = ("ok", done)
        except KbcheckError as exc:
            payload = ("error", (exc.message, exc.path, exc.line))  # the message still a `Text`, said later
        data = pickle.dumps(payload, pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(data)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def run_tasks(tasks: Sequence[T], work: Callable[[T], R], *, workers: int, parent_works: bool = True,
              in_child: Callable[[], None] | None = None,
              child_done: Callable[[], None] | None = None) -> list[R]:
    """`work(task)` for every task, shared out to `workers` processes; the results in task order.

    The processes (this one too, unless `parent_works` is false) take the
    next unclaimed task each time they finish one, so a heavy task does not
    leave the others idle; put the heaviest first. `in_child` runs first in
    each forked child (to let go of pipes shared with the parent),
    `child_done` after its work and before its results are sent (to write
    what it learned while the parent is still busy, never at once with it).
    Tasks a child took but never reported are done here, after the others.
    """
    if len(tasks) > MAX_TASKS:
        raise ValueError(f"at most {MAX_TASKS} tasks, not {len(tasks)}")
    tokens, feed = os.pipe()
    os.write(feed, bytes(range(len(tasks))))
    os.close(feed)  # all written: a read past the last task sees the end
    children: list[tuple[int, int]] = []  # (pid, read end of its result pipe)
    try:
        for _ in range(workers - 1 if parent_works else workers):
            read_fd, write_fd = os.pipe()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                os.close(read_fd)
                _child(tokens, tasks, work, in_child, child_done, write_fd)
            os.close(write_fd)
            children.append((pid, read_fd))
        results: dict[int, R] = _work_through(tokens, tasks, work) if parent_works else {}
    except BaseException:
        for pid, read_fd in children:  # the run is over: leave no worker behind
            os.close(read_fd)
            _stop(pid)
        raise
    finally:
        os.close(tokens)
    errors: list[tuple[str, str | None, int | None]] = []  # (message, path, line) of a child's error
    for pid, read_fd in children:
        with os.fdopen(read_fd, "rb") as pipe:
            data = pipe.read()
        _reap(pid)
        try:
            status, value = pickle.loads(data) if data else ("failed", None)
        except Exception:
            status, value = "failed", None
        if status == "ok" and isinstance(value, dict):
            results.update(value)
        elif status == "error" and isinstance(value, tuple) and len(value) == 3:
            errors.append((value[0], value[1], value[2]))
        elif status == "error":
            errors.append((str(value), None, None))
    if errors:
        message, path, line = errors[0]
        raise KbcheckError(message, path=path, line=line)
    for index, task in enumerate(tasks):
        if index not in results:
            results[index] = work(task)
    return [results[i] for i in range(len(tasks))]


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
    _reap(pid)


__all__ = ["JOBS_ENV", "MAX_TASKS", "can_fork", "jobs", "run_tasks"]
