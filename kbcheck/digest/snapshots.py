"""Commit snapshots that never ask git for a blob the clone does not have.

In a partial clone (`--filter=blob:none`), asking `git cat-file --batch` for a
missing blob makes git try to fetch it from the promisor remote; when that
fails the batch process dies and every later read fails with it. So the
missing blobs are listed first with `git rev-list --missing=print`, which
never fetches, and such files read as absent: the digest then judges those
items by their path, with a notice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kbcheck.sources import TreeSnapshot

if TYPE_CHECKING:
    from kbcheck.git import Repository


def is_partial_clone(repo: Repository) -> bool:
    """True when some remote is a promisor (objects may be missing on purpose)."""
    from kbcheck import git

    status, out = git.run(repo, "config", "--get-regexp", r"^(remote\..*\.promisor|extensions\.partialclone)$",
                          check=False)
    return status == 0 and bool(out.strip())


def missing_blobs(repo: Repository, commits: Iterable[str]) -> frozenset[str]:
    """Objects of these commits' trees that are not in the local store (partial clones only)."""
    from kbcheck import git

    if not is_partial_clone(repo):
        return frozenset()
    status, out = git.run(repo, "rev-list", "--objects", "--missing=print",
                          *(f"{sha}^{{tree}}" for sha in commits), "--", check=False)
    if status != 0:
        return frozenset()
    return frozenset(line[1:].strip() for line in out.decode("ascii", "replace").splitlines() if line.startswith("?"))


class PresentTreeSnapshot(TreeSnapshot):
    """The tree of a commit whose missing blobs read as absent instead of being fetched."""

    def __init__(self, repo: Repository, rev: str, exclude: Iterable[str] = (),
                 missing: frozenset[str] = frozenset()) -> None:
        super().__init__(repo, rev, exclude)
        self.missing = missing

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        return super().read_many(p for p in paths if self.blob_id(p) not in self.missing)


def tree_snapshot(repo: Repository, rev: str, exclude: Iterable[str] = (),
                  missing: frozenset[str] | None = None) -> TreeSnapshot:
    """A snapshot of commit `rev`, safe in partial clones."""
    if missing is None:
        from kbcheck import git

        missing = missing_blobs(repo, [git.resolve(repo, rev)])
    return PresentTreeSnapshot(repo, rev, exclude, missing) if missing else TreeSnapshot(repo, rev, exclude)
