"""Small typed git functions over GitPython: trees, the index, changes, blobs, authors.

Every git failure leaves this module as a `GitError` with a one-line reason,
never a GitPython exception. Paths are read with `-z` so that spaces, CJK,
leading dashes and newlines in file names survive; they are decoded as UTF-8
with `surrogateescape`, so undecodable bytes still round-trip to git.

GitPython (`import git`, ~80 ms) is imported only when a repository is opened.
Blobs are read through GitPython's one persistent `git cat-file --batch`
process per repository, however many are asked for.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from kbcheck import i18n
from kbcheck.errors import GitError
from kbcheck.files import regular_bytes
from kbcheck.regex import lazy

#: the empty tree, which git knows without it being stored (sha1, sha256)
EMPTY_TREE = {
    "sha1": "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "sha256": "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
}
REGULAR_MODES = frozenset({"100644", "100755", "100664"})
SYMLINK_MODE = "120000"
GITLINK_MODE = "160000"

_HEX_ID = lazy(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
#: a record of a path in a merge conflict in `git ls-files --stage` (or, rarely, a path holding " 1<tab>")
_UNMERGED = lazy(r" [1-3]\t")
#: a patch as `parse_added_lines` reads it, whatever the user's diff config; `--text`: a
#: `.gitattributes` marking a file `-diff` or `binary` must not hide its lines from `--filter added`
_PATCH_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "--text", "--src-prefix=a/", "--dst-prefix=b/")
#: `submodule.<name>.ignore = all` in `.gitmodules` (the change's own file) must not hide a repointed gitlink
_ALL_SUBMODULES = "--ignore-submodules=none"
_HUNK = lazy(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_SHALLOW_HINT = i18n._(
    "this clone is shallow and lacks that history; fetch the full history "
    "(`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout)"
)


class BareRepositoryError(GitError):
    """The repository has no working tree: nothing to check, nowhere to write a configuration."""


@dataclass
class Repository:
    """An open git repository with a working tree."""

    #: top of the working tree
    root: Path
    #: the real git dir (for a linked worktree, its own `.git/worktrees/<name>`)
    git_dir: Path
    #: the dir shared by all worktrees (objects, config): where shared caches belong
    common_dir: Path
    handle: Any = field(repr=False)
    _object_format: str | None = field(default=None, repr=False)

    def close(self) -> None:
        """Stop the persistent `cat-file` processes."""
        self.handle.close()

    def __enter__(self) -> Repository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Change:
    """One changed path of a staged change, a commit or a range, and who it is judged as."""

    #: "A", "M", "D" or "R" (a copy is an "A")
    status: str
    #: the new path; the deleted path for "D"
    path: str
    #: the path before a rename
    old_path: str | None = None
    #: the configured author slug it is judged as; None when nobody configured this author
    author: str | None = None
    #: who made it, for messages (an email, a login or a slug and where it came from)
    author_label: str = ""
    #: the commit that made it (None for a staged change or a range's net change)
    commit: str | None = None
    #: the author the commit records: its e-mail, else its name ("" when not from a commit)
    recorded_author: str = ""
    #: the range of a net change, as `BASE...HEAD` (None otherwise)
    range: str | None = None


@dataclass(frozen=True)
class CommitChanges:
    """One commit of a range: who wrote it and what it changed.

    For a merge, what it changed is what differs from every parent: a
    conflict resolution or an edit made in the merge itself, never what it
    brought in from one side.
    """

    sha: str
    author_name: str
    author_email: str
    changes: list[Change]


def open_repository(start: Path) -> Repository:
    """The repository containing `start`, searching parent directories."""
    try:
        import git
    except ImportError:  # GitPython refuses to import when it finds no git executable
        raise GitError(i18n._("git is not installed or not on PATH")) from None

    try:
        handle = git.Repo(start, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GitError(i18n._("not a git repository: {path}", path=str(start))) from None
    except (git.GitError, OSError) as exc:
        raise GitError(i18n._("cannot open git repository at {path}: {reason}", path=str(start),
                              reason=_first_line(str(exc)))) from None
    # what the policy and the change are read from is the history as stored: replace refs
    # (`git replace`) and grafts would let a writer substitute the trusted base. The graft file
    # named is one that does not exist (an empty one makes git print a deprecation hint).
    handle.git.update_environment(GIT_NO_REPLACE_OBJECTS="1",
                                  GIT_GRAFT_FILE=os.path.join(handle.git_dir, "kbcheck", "no-grafts"))
    if handle.bare or handle.working_tree_dir is None:
        handle.close()
        raise BareRepositoryError(i18n._("bare repository has no working tree: {path}", path=str(handle.git_dir)))
    return Repository(
        root=Path(handle.working_tree_dir).resolve(),
        git_dir=Path(handle.git_dir).resolve(),
        common_dir=Path(handle.common_dir).resolve(),
        handle=handle,
    )


# -- the one wrapper around running git ------------------------------------------------

def _first_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line.removeprefix("fatal: ").removeprefix("error: ")
    return "no message"


def run(repo: Repository, *args: str, check: bool = True, stdin: bytes | None = None) -> tuple[int, bytes]:
    """Run `git <args>` in the work tree; (status, raw stdout). GitError on failure when `check`."""
    import git

    options: dict[str, Any] = {
        "with_extended_output": True,
        "with_exceptions": False,
        "stdout_as_string": False,
        "strip_newline_in_stdout": False,
    }
    with contextlib.ExitStack() as stack:
        if stdin is not None:
            feed = stack.enter_context(tempfile.TemporaryFile())
            feed.write(stdin)
            feed.seek(0)
            options["istream"] = feed
        try:
            status, out, err = repo.handle.git.execute([repo.handle.git.GIT_PYTHON_GIT_EXECUTABLE, *args], **options)
        except git.GitCommandNotFound:
            raise GitError(i18n._("git is not installed or not on PATH")) from None
        except (git.GitError, OSError) as exc:
            raise GitError(i18n._("git {command} failed: {reason}", command=args[0], reason=_first_line(str(exc)))) from None
    if status != 0 and b"dubious ownership" in (err if isinstance(err, bytes) else str(err).encode()):
        raise GitError(_refused(repo))  # whatever was asked: no answer git gives here can be trusted
    if check and status != 0:
        raise GitError(i18n._("git {command} failed: {reason}", command=args[0], reason=_first_line(err)))
    return status, out


def _refused(repo: Repository) -> str:
    """git's safe.directory check refuses a repository owned by another user: say so, not "no commits"."""
    return i18n._("git refuses this repository: it belongs to another user (detected dubious ownership); "
                  "if you trust it: git config --global --add safe.directory {root}", root=str(repo.root))


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _zsplit(raw: bytes) -> list[str]:
    raw = raw.strip(b"\0")
    # interned: the same 100k paths come from several listings, and are held once
    return [sys.intern(_decode(part)) for part in raw.split(b"\0")] if raw else []


# -- revisions -------------------------------------------------------------------------

def head_sha(repo: Repository) -> str | None:
    """The commit HEAD points at, or None in a repository with no commits yet."""
    status, out = run(repo, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
    return out.decode().strip() if status == 0 else None


def is_shallow(repo: Repository) -> bool:
    """True in a shallow clone (history cut at some depth)."""
    _, out = run(repo, "rev-parse", "--is-shallow-repository", check=False)
    return out.strip() == b"true" or (repo.common_dir / "shallow").is_file()


def resolve(repo: Repository, rev: str) -> str:
    """The full sha of the commit `rev` names; GitError "unknown revision" otherwise."""
    if not rev or rev.startswith("-") or any(c in rev for c in "\0\n"):
        raise GitError(i18n._("unknown revision '{rev}'", rev=rev))
    refs = _refs_named(repo, rev)
    if len(refs) > 1:
        raise GitError(i18n._("ambiguous revision '{rev}': it names {refs}; give the full ref name",
                              rev=rev, refs=" and ".join(refs)))
    status, out = run(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
    if status == 0:
        return out.decode().strip()
    if is_shallow(repo):
        raise GitError(i18n._("unknown revision '{rev}': {hint}", rev=rev, hint=_SHALLOW_HINT))
    if head_sha(repo) is None:
        raise GitError(i18n._("unknown revision '{rev}': the repository has no commits yet", rev=rev))
    raise GitError(i18n._("unknown revision '{rev}'", rev=rev))


#: the short ref name a revision starts with (before `^`, `~`, `:` or `@{`)
_SHORT_REF = lazy(r"[^\^~:@]+(?:@(?!\{)[^\^~:@]*)*")
#: where git looks for a short name, in its order (`git help revisions`)
_REF_RULES = ("refs/{}", "refs/tags/{}", "refs/heads/{}", "refs/remotes/{}", "refs/remotes/{}/HEAD")


def _refs_named(repo: Repository, rev: str) -> list[str]:
    """Every ref a short name in `rev` could mean. git takes the first and only warns on stderr,
    so a tag `origin/main` silently stands for the trusted base `refs/remotes/origin/main`."""
    match = _SHORT_REF.match(rev)
    name = match.group(0) if match else ""
    if not name or name.startswith("refs/") or _HEX_ID.fullmatch(name):
        return []
    candidates = [rule.format(name) for rule in _REF_RULES]
    _, out = run(repo, "for-each-ref", "--format=%(refname)", "--", *candidates, check=False)
    found = set(_decode(out).splitlines())
    refs = [ref for ref in candidates if ref in found]
    if re.fullmatch(r"[A-Z_]*HEAD", name) and (repo.git_dir / name).is_file():
        refs.insert(0, name)
    return refs


def blob_id(data: bytes, object_format: str) -> str:
    """The id git gives these bytes as a blob (`git hash-object`), in the repository's object format."""
    hasher = hashlib.sha256 if object_format == "sha256" else hashlib.sha1
    return hasher(b"blob %d\0" % len(data) + data).hexdigest()


def object_format(repo: Repository) -> str:
    """`sha1` or `sha256`."""
    if repo._object_format is None:
        status, out = run(repo, "rev-parse", "--show-object-format", check=False)
        value = out.decode(errors="replace").strip()
        repo._object_format = value if status == 0 and value in EMPTY_TREE else "sha1"
    return repo._object_format


def empty_tree(repo: Repository) -> str:
    return EMPTY_TREE[object_format(repo)]


def merge_base(repo: Repository, a: str, b: str) -> str | None:
    """The best common ancestor of two commits, None for unrelated histories."""
    status, out = run(repo, "merge-base", resolve(repo, a), resolve(repo, b), check=False)
    if status != 0:
        return None
    return out.decode().strip() or None


def commit_date(repo: Repository, sha: str) -> str:
    """The committer date of a commit, ISO-8601 with its original offset."""
    full = resolve(repo, sha)
    data = _read_object(repo, full, "commit")
    if data is None:
        raise GitError(i18n._("commit {sha} is missing from the object store", sha=full[:12]))
    for line in data.split(b"\n"):
        if line.startswith(b"committer "):
            stamp, offset = line.rsplit(b" ", 2)[-2:]
            sign = -1 if offset.startswith(b"-") else 1
            minutes = int(offset[1:3]) * 60 + int(offset[3:5])
            tz = timezone(sign * timedelta(minutes=minutes))
            return datetime.fromtimestamp(int(stamp), tz).isoformat()
        if not line:
            break
    raise GitError(i18n._("commit {sha} has no committer line", sha=full[:12]))


def config_value(repo: Repository, key: str) -> str | None:
    """`git config --get key`, None when unset."""
    status, out = run(repo, "config", "--get", key, check=False)
    if status != 0:
        return None
    value = _decode(out).strip()
    return value or None


# -- file lists ------------------------------------------------------------------------

#: where the object id sits in an entry of `ls_index` ("<mode> <sha> <stage>") and `ls_tree` ("<mode> <type> <sha>")
INDEX_SHA = slice(7, -2)
TREE_SHA = slice(12, None)


def _entries_by_path(text: str, interned: bool = False) -> dict[str, str]:
    """`<meta>\\t<path>\\0` records as path -> meta, in order.

    One C-level split when no path holds a tab (the listing then alternates
    meta and path): a large knowledge base lists 100k records on every hook.
    `interned`: paths and records are shared with other listings of the
    repository (a digest holds two trees of 100k files that mostly agree).
    """
    share = sys.intern if interned else str
    if text.count("\t") == text.count("\0"):
        parts = text.replace("\t", "\0").split("\0")
        if interned:
            return dict(zip(map(share, parts[1::2]), map(share, parts[0:-1:2])))
        return dict(zip(parts[1::2], parts[0:-1:2]))
    entries: dict[str, str] = {}
    for record in text.split("\0"):
        meta, _, path = record.partition("\t")
        if path:
            entries[share(path)] = share(meta)
    return entries


def ls_index(repo: Repository) -> dict[str, str]:
    """Path -> "<mode> <blob sha> 0" of the staging area, in git's order (`INDEX_SHA` slices the sha).

    A path in a merge conflict has no single staged version; it is given its
    stage-2 ("ours", the current branch's) version and skipped when it has
    none, so the path still exists for the checks while the conflict is open.
    """
    _, out = run(repo, "ls-files", "--stage", "-z")
    text = _decode(out)
    entries = _entries_by_path(text)
    if not _UNMERGED.search(text):
        return entries
    merged: dict[str, str] = {}
    for record in text.split("\0"):
        meta, _, path = record.partition("\t")
        if meta.endswith(" 0"):
            merged[path] = meta
        elif meta.endswith(" 2"):  # a path has stage 0 or stages 1-3, never both
            merged[path] = meta[:-1] + "0"
    return merged


def ls_tree(repo: Repository, rev: str) -> dict[str, str]:
    """Path -> "<mode> <type> <sha>" of every file (and submodule) of the tree at `rev` (`TREE_SHA` slices the sha)."""
    sha = resolve(repo, rev)
    _, out = run(repo, "ls-tree", "-r", "-z", "--full-tree", sha)
    return _entries_by_path(_decode(out), interned=True)


def ls_worktree(repo: Repository, *, untracked: bool = False, under: Iterable[str] = ()) -> list[str]:
    """Tracked files (also those deleted on disk), sorted; with `untracked`, also untracked files not ignored.

    `under` limits the listing to these repo-relative paths (files or folders).
    """
    args = ["ls-files", "-z", "--cached"]
    if untracked:
        args += ["--others", "--exclude-standard"]
    pathspecs = [f":(literal){p}" for p in under]
    if pathspecs:
        args += ["--", *pathspecs]
    _, out = run(repo, *args)
    return sorted(set(_zsplit(out)))


def ignore_rules_digest(repo: Repository) -> str:
    """A digest of everything that decides what git ignores: every `.gitignore` on the disk
    (tracked or not), the repository's `info/exclude`, the user's excludes file, `core.ignoreCase`.

    A listing of the tracked files names what they hold; what git ignores (`IgnoreChecker`)
    also depends on these, which no such listing shows.
    """
    _, out = run(repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
                 ":(glob)**/.gitignore")
    excludes = config_value(repo, "core.excludesFile")
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    user = Path(os.path.expanduser(excludes)) if excludes else Path(home) / "git" / "ignore"
    files = [*(repo.root / path for path in sorted(set(_zsplit(out)))), repo.common_dir / "info" / "exclude", user]
    digest = hashlib.sha1((config_value(repo, "core.ignoreCase") or "").encode())
    for file in files:
        for part in (os.fsencode(file), regular_bytes(file) or b""):
            digest.update(b"%d:" % len(part))
            digest.update(part)
    return digest.hexdigest()


def skip_worktree_entries(repo: Repository) -> dict[str, str]:
    """Path -> "<mode> <blob sha>" of tracked files git keeps out of the work tree on purpose.

    A sparse checkout (or `update-index --skip-worktree`) leaves such files
    off the disk while the repository still holds them: they exist, with the
    content the index records. Empty when no entry carries the bit.
    """
    _, out = run(repo, "ls-files", "-z", "-t", "--stage")
    entries: dict[str, str] = {}
    for record in _zsplit(out):
        if record.startswith("S "):
            meta, _, path = record[2:].partition("\t")
            mode, sha, _stage = meta.split(" ")
            entries[sys.intern(path)] = f"{mode} {sha}"
    return entries


def _content_may_be_converted(repo: Repository) -> bool:
    """True when git could store a file differently from its work-tree bytes (filters, eol, encodings)."""
    _, out = run(repo, "config", "-z", "--get-regexp", r"^(filter\.|core\.(autocrlf|attributesfile)$)", check=False)
    if out.strip(b"\0"):
        return True
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    if os.path.isfile(os.path.join(xdg, "git", "attributes")) or (repo.common_dir / "info" / "attributes").is_file():
        return True
    _, out = run(repo, "ls-files", "-z", "--", ":(glob)**/.gitattributes")
    return bool(out.strip(b"\0"))


def worktree_blob_ids(repo: Repository) -> dict[str, str]:
    """Blob ids of tracked regular files whose work-tree content is what the index holds.

    git's own stat check (`git diff-files`, racy entries compared by content)
    says which files are unchanged since they were staged, so their blob ids
    need no reading and hashing. Empty when attributes or config could make
    the stored blob differ from the file's bytes: then every file is hashed.
    """
    if _content_may_be_converted(repo):
        return {}
    _, out = run(repo, "ls-files", "--stage", "-z")
    ids: dict[str, str] = {}
    for record in _zsplit(out):
        meta, _, path = record.partition("\t")
        path = sys.intern(path)
        mode, sha, stage = meta.split(" ")
        if stage == "0" and mode in REGULAR_MODES:
            ids[path] = sha
    _, out = run(repo, "diff-files", "-z", "--name-only")
    for path in _zsplit(out):
        ids.pop(path, None)
    return ids


# -- blobs -----------------------------------------------------------------------------

def _read_object(repo: Repository, sha: str, kind: str) -> bytes | None:
    """One object through the persistent `cat-file --batch`; None when missing or not `kind`.

    GitPython's persistent reader parses only 40-hex object ids: in a SHA-256
    repository each object is read by a `git cat-file <kind>` of its own.
    """
    if object_format(repo) != "sha1":
        status, out = run(repo, "cat-file", kind, sha, check=False)
        return out if status == 0 else None
    try:
        _, typename, _, data = repo.handle.git.get_object_data(sha)
    except ValueError:  # "<sha> missing": partial clone, shallow history, pruned
        return None
    except OSError as exc:
        raise GitError(i18n._("git {command} failed: {reason}", command="cat-file", reason=str(exc))) from None
    name = typename.decode() if isinstance(typename, bytes) else str(typename)
    return data if name == kind else None


#: `cat-file` processes of a parent process, held by a forked child so that they are never closed from it
_INHERITED_READERS: list[object] = []


def detach_readers(repo: Repository) -> None:
    """In a forked child: let go of the parent's persistent `cat-file` processes (the next read
    starts the child's own). They are kept referenced, never collected: GitPython would kill them."""
    cmd = repo.handle.git
    for name in ("cat_file_all", "cat_file_header"):
        reader = getattr(cmd, name, None)
        if reader is not None:
            _INHERITED_READERS.append(reader)
            setattr(cmd, name, None)


def read_blobs(repo: Repository, shas: Iterable[str]) -> dict[str, bytes]:
    """Blob contents by sha, all through one `git cat-file --batch` process.

    A sha whose object is not in the store (a partial clone, a shallow clone,
    a pruned object) is absent from the result rather than an error. Many
    blobs are asked for all at once (a pipelined batch); a few one by one.
    """
    wanted = list(dict.fromkeys(sha for sha in shas if _HEX_ID.fullmatch(sha)))
    if len(wanted) >= _PIPELINE_MIN or (wanted and object_format(repo) != "sha1"):
        return _read_pipelined(repo, wanted)
    blobs: dict[str, bytes] = {}
    for sha in wanted:
        data = _read_object(repo, sha, "blob")
        if data is not None:
            blobs[sha] = data
    return blobs


#: from this many blobs on, one request each way costs more than a batch process of their own
_PIPELINE_MIN = 16


def _read_pipelined(repo: Repository, shas: list[str]) -> dict[str, bytes]:
    """Every request written at once (by a thread, so neither pipe fills and blocks), answers read in order."""
    import subprocess
    import threading

    import git

    try:
        process = repo.handle.git.cat_file("--batch", as_process=True, istream=subprocess.PIPE)
    except (git.GitError, OSError) as exc:
        raise GitError(i18n._("git {command} failed: {reason}", command="cat-file", reason=_first_line(str(exc)))) from None
    requests = "".join(f"{sha}\n" for sha in shas).encode("ascii")

    def feed() -> None:
        try:
            process.stdin.write(requests)
            process.stdin.close()
        except OSError:  # cat-file ended early: the reading side reports it
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    blobs: dict[str, bytes] = {}
    out = process.stdout
    try:
        for sha in shas:
            header = out.readline().split()
            if len(header) != 3:  # "<sha> missing", or the process ended
                if not header:
                    break
                continue
            data = out.read(int(header[2]))
            out.read(1)  # the newline after the content
            if header[1] == b"blob":
                blobs[sha] = data
    finally:
        writer.join()
        out.close()
        try:
            process.wait()
        except (git.GitError, OSError):  # what it could not give is missing from the result
            pass
    return blobs


class IgnoreChecker:
    """Which paths git ignores, asked of one persistent `git check-ignore --stdin` per process.

    A run asks for a few paths at a time, thousands of times: a process per
    question costs more than the answers. One batch is answered as one
    `git check-ignore` call would answer it: a path git refuses (outside the
    repository, beyond a symbolic link) ends the process, and then nothing of
    that batch is ignored; the next batch starts a new process. A forked child
    starts its own and leaves the parent's alone.
    """

    def __init__(self, repo: Repository) -> None:
        self._repo = repo
        self._process: Any = None
        self._pid = 0
        self._buffer = b""

    def ignored(self, paths: list[str]) -> dict[str, str]:
        """path -> the pattern that ignores it, for those of `paths` git ignores."""
        if not paths:
            return {}
        found: dict[str, str] = {}
        try:
            process = self._started()
            for path in paths:
                process.stdin.write(path.encode("utf-8", "surrogateescape") + b"\0")
                process.stdin.flush()
                _source, _line, pattern, _path = self._fields(process, 4)
                if pattern and not pattern.startswith(b"!"):
                    found[path] = _decode(pattern)
        except (OSError, EOFError, GitError):
            self._stop()
            return {}
        return found

    def _started(self) -> Any:
        import subprocess

        import git

        if self._process is not None and self._pid == os.getpid():
            return self._process
        if self._process is not None:  # the parent's, in a forked child: kept, never closed from here
            _INHERITED_READERS.append(self._process)
        try:
            self._process = self._repo.handle.git.check_ignore("-v", "-n", "-z", "--stdin", as_process=True,
                                                                istream=subprocess.PIPE)
        except (git.GitError, OSError) as exc:
            self._process = None
            raise GitError(_first_line(str(exc))) from None
        self._pid, self._buffer = os.getpid(), b""
        return self._process

    def _fields(self, process: Any, count: int) -> list[bytes]:
        while self._buffer.count(b"\0") < count:
            chunk = process.stdout.read1(65536)
            if not chunk:
                raise EOFError
            self._buffer += chunk
        fields = self._buffer.split(b"\0", count)
        self._buffer = fields.pop()
        return fields

    def _stop(self) -> None:
        process, self._process, self._buffer = self._process, None, b""
        if process is None or self._pid != os.getpid():
            return
        with contextlib.suppress(Exception):
            process.stdin.close()
            process.wait()

    def close(self) -> None:
        """End this process's `check-ignore`."""
        self._stop()


# -- changes ---------------------------------------------------------------------------

def _parse_name_status(tokens: list[str], start: int = 0, stop: set[str] | None = None) -> tuple[list[Change], int]:
    """Parse `--name-status -z` tokens from `start` until the end or a token in `stop`."""
    changes: list[Change] = []
    i = start
    while i < len(tokens):
        status = tokens[i]
        if stop is not None and status in stop:
            break
        letter = status[:1]
        if letter in ("R", "C"):
            old, new = tokens[i + 1], tokens[i + 2]
            i += 3
            # a copy leaves its source in place: the new path is an addition
            changes.append(Change("R", new, old) if letter == "R" else Change("A", new, None))
        else:
            path = tokens[i + 1]
            i += 2
            kind = {"A": "A", "D": "D"}.get(letter, "M")  # M, T (type change) and anything else
            changes.append(Change(kind, path, None))
    return changes, i


def staged_diff(repo: Repository) -> tuple[list[Change], dict[str, set[int]]]:
    """The staged changes and the lines they add, from one `git diff-index` (git reads a
    large index once, not twice): the raw records come first, then the patch."""
    base = head_sha(repo) or empty_tree(repo)
    _, out = run(repo, "diff-index", _ALL_SUBMODULES, "--cached", "-r", "-z", "-M", "--raw", "-p", "-U0",
                 "--irreversible-delete", *_PATCH_OPTIONS, "--diff-filter=ACDMRT", base)
    tokens: list[str] = []
    position = 0
    while out.startswith(b":", position):  # ":<modes> <shas> <status>\0<path>\0[<new path>\0]"
        end = out.index(b"\0", position)
        status = _decode(out[position:end].rsplit(b" ", 1)[-1])
        count = 2 if status[:1] in ("R", "C") else 1
        tokens.append(status)
        for _ in range(count):
            start, end = end + 1, out.index(b"\0", end + 1)
            tokens.append(_decode(out[start:end]))
        position = end + 1
    changes, _ = _parse_name_status(tokens)
    return changes, parse_added_lines(out[position:])


def staged_changes(repo: Repository) -> list[Change]:
    """What a commit now would record: the index against HEAD (or the empty tree before the first commit)."""
    base = head_sha(repo) or empty_tree(repo)
    _, out = run(repo, "diff-index", _ALL_SUBMODULES, "--cached", "-r", "-z", "-M", "--name-status",
                 "--diff-filter=ACDMRT", base)
    changes, _ = _parse_name_status(_zsplit(out))
    return changes


def diff_paths(repo: Repository, base: str, head: str) -> list[Change]:
    """Changed paths between two commits, renames detected (`-M`)."""
    _, out = run(repo, "diff-tree", _ALL_SUBMODULES, "-r", "-z", "-M", "--name-status", "--diff-filter=ACDMRT",
                 resolve(repo, base), resolve(repo, head))
    changes, _ = _parse_name_status(_zsplit(out))
    return changes


def changed_paths(repo: Repository, old: str, new: str | None = None) -> set[str]:
    """Every path whose content differs between commit `old` and commit `new` (None: the index),
    renames not paired, so both sides of a move are listed."""
    if new is None:
        _, out = run(repo, "diff-index", _ALL_SUBMODULES, "--cached", "-r", "-z", "--no-renames", "--name-only", old)
    else:
        _, out = run(repo, "diff-tree", _ALL_SUBMODULES, "-r", "-z", "--no-renames", "--name-only", old, new)
    return set(_zsplit(out))


def differing_from_all(changes: list[Change], others: list[set[str]]) -> list[Change]:
    """The part of `changes` (against one parent) that also differs from every other parent.

    `others` holds, per other parent, the paths that differ from it. A rename
    keeps only its sides that differ everywhere: its new side alone is an
    addition, its old side alone a deletion.
    """
    if not others:
        return changes
    everywhere = set.intersection(*others)
    kept: list[Change] = []
    for change in changes:
        if change.status == "R" and change.old_path is not None:
            new, old = change.path in everywhere, change.old_path in everywhere
            if new and old:
                kept.append(change)
            elif new:
                kept.append(Change("A", change.path))
            elif old:
                kept.append(Change("D", change.old_path))
        elif change.path in everywhere:
            kept.append(change)
    return kept


def merge_heads(repo: Repository) -> list[str]:
    """The commits being merged into HEAD while a merge is in progress (`MERGE_HEAD`), else none."""
    try:
        text = (repo.git_dir / "MERGE_HEAD").read_text(encoding="ascii", errors="replace")
    except OSError:
        return []
    return [line.strip() for line in text.splitlines() if _HEX_ID.fullmatch(line.strip())]


def staged_merge_only(repo: Repository, changes: list[Change]) -> list[Change]:
    """While a merge is in progress, the staged changes that differ from every commit merged too:
    what the merge resolves or adds, not what it brings in."""
    heads = merge_heads(repo)
    return differing_from_all(changes, [changed_paths(repo, head) for head in heads]) if heads else changes


def _merge_changes(repo: Repository, sha: str, parents: list[str]) -> list[Change]:
    first = diff_paths(repo, parents[0], sha)
    return differing_from_all(first, [changed_paths(repo, parent, sha) for parent in parents[1:]])


def range_commits(repo: Repository, rev: str) -> list[CommitChanges]:
    """The commits of `rev..HEAD`, oldest first, each with its author and changed paths.

    A merge commit's paths are those that differ from every parent (see
    `CommitChanges`), and a merge with none is left out; the commits it
    brings in are judged by their own authors.
    """
    base = resolve(repo, rev)
    head = _head_to_compare(repo)
    _, out = run(repo, "log", "-z", "--reverse", "--no-show-signature", "--no-color",
                 "--format=%H%x00%P%x00%an%x00%ae", f"{base}..{head}", "--")
    fields = _decode(out).split("\0")
    if len(fields) % 4 == 1 and fields[-1] == "":  # the record terminator after the last commit
        fields.pop()
    metas = [(fields[i].strip(), fields[i + 1].split(), fields[i + 2], fields[i + 3])
             for i in range(0, len(fields) - 3, 4)]
    if not metas:
        return []
    by_commit: dict[str, list[Change]] = {sha: [] for sha, _, _, _ in metas}
    plain = [sha for sha, parents, _, _ in metas if len(parents) < 2]
    if plain:
        _, out = run(repo, "diff-tree", _ALL_SUBMODULES, "--stdin", "--root", "-r", "-z", "-M", "--name-status",
                     "--diff-filter=ACDMRT", stdin="".join(f"{sha}\n" for sha in plain).encode())
        tokens = _zsplit(out)
        pending = set(plain)
        i = 0
        while i < len(tokens):
            sha = tokens[i]
            if sha not in pending:
                raise GitError(i18n._("git diff-tree gave unexpected output near {sha}", sha=repr(sha)))
            pending.discard(sha)
            changes, i = _parse_name_status(tokens, i + 1, stop=pending)
            by_commit[sha] = changes
    merges = {sha: _merge_changes(repo, sha, parents) for sha, parents, _, _ in metas if len(parents) >= 2}
    by_commit.update(merges)
    # a merge that only brings commits in has nothing of its own to judge
    return [CommitChanges(sha, name, email, by_commit[sha]) for sha, _, name, email in metas
            if sha not in merges or merges[sha]]


def _head_to_compare(repo: Repository) -> str:
    """HEAD's commit, the end of a comparison; a repository with no commits has nothing to compare."""
    head = head_sha(repo)
    if head is None:
        raise GitError(i18n._("HEAD has no commits yet; nothing to compare with"))
    return head


def net_changes(repo: Repository, base: str) -> list[Change]:
    """What `base...HEAD` changes: from the merge base to HEAD, as a pull request shows it."""
    fork, head = fork_point(repo, base)
    return diff_paths(repo, fork, head)


def fork_point(repo: Repository, base: str) -> tuple[str, str]:
    """(merge base, HEAD) of `base...HEAD`: where a pull request's change starts and ends."""
    start = resolve(repo, base)
    head = _head_to_compare(repo)
    fork = merge_base(repo, start, head)
    if fork is None:
        if is_shallow(repo):
            raise GitError(i18n._("'{base}' and HEAD have no common ancestor: {hint}", base=base, hint=_SHALLOW_HINT))
        raise GitError(i18n._("'{base}' and HEAD have no common ancestor", base=base))
    return fork, head


# -- added lines -----------------------------------------------------------------------

def _unquote(raw: bytes) -> bytes:
    """Undo git's C-style quoting of a path in a patch header (`"b/na\\303\\257ve"`)."""
    if not (raw.startswith(b'"') and raw.endswith(b'"')):
        return raw
    body, out, i = raw[1:-1], bytearray(), 0
    escapes = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92, ord("a"): 7,
               ord("b"): 8, ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while i < len(body):
        c = body[i]
        if c == 0x5C and i + 1 < len(body):
            nxt = body[i + 1]
            if 0x30 <= nxt <= 0x37:
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def parse_added_lines(patch: bytes) -> dict[str, set[int]]:
    """New-side line numbers added or modified per file, from a `-U0` patch."""
    added: dict[str, set[int]] = {}
    current: str | None = None
    for line in patch.split(b"\n"):
        if line.startswith(b"+++ "):
            target = _unquote(line[4:].rstrip(b"\t"))
            current = _decode(target[2:]) if target.startswith(b"b/") else None
            continue
        if line.startswith(b"diff --git "):
            current = None
            continue
        match = _HUNK.match(line)
        if match and current is not None:
            start = int(match.group(1))
            count = int(match.group(2)) if match.group(2) is not None else 1
            if count:
                added.setdefault(current, set()).update(range(start, start + count))
    return added


def added_lines(repo: Repository, *, staged: bool = False, base: str | None = None) -> dict[str, set[int]]:
    """1-based lines the change added or modified, in the new version of each file.

    `staged`: the index against HEAD; `base`: `base...HEAD` (from the merge
    base, as a pull request shows it); neither: the working tree against HEAD.
    """
    common = ["-p", "-U0", "-M", *_PATCH_OPTIONS, "--diff-filter=ACMRT"]
    if base is not None:
        fork, head = fork_point(repo, base)
        _, out = run(repo, "diff-tree", _ALL_SUBMODULES, "-r", *common, fork, head)
    else:
        tree = head_sha(repo) or empty_tree(repo)
        extra = ["--cached"] if staged else []
        _, out = run(repo, "diff-index", _ALL_SUBMODULES, *extra, *common, tree)
    return parse_added_lines(out)
