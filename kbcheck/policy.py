"""KB007's policy comes from the trusted side of a change (docs/trust-model.md).

Roles, authors, `allow-unknown-authors` and KB007's `ignore`,
`per-file-ignores` and `severity` decide whether a writer may make a change,
so they cannot be taken from that change: a writer would give himself the
maintainer role in the same pull request. They are read from the base
revision instead (HEAD for a staged change, the base of `--diff`), from the
same file the run's configuration comes from. Before the first commit there
is no trusted side; the configuration being committed then sets the policy.
A base without any configuration, under a run that has one, is the change
adopting kbcheck: its policy names no author, and KB007 says why.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kbcheck import git
from kbcheck.config import CONFIG_FILE, PYPROJECT, Config, config_from_bytes, read_config_file
from kbcheck.errors import ConfigError, PolicyError
from kbcheck.i18n import _
from kbcheck.snapshots import missing_blobs


def _file_at(repo: git.Repository, rev: str, path: str) -> bytes | None:
    """A regular file's bytes at commit `rev`, None when it has none there (or a partial clone lacks it).

    One `git ls-tree` (its mode and blob id), then the blob through the running `cat-file`.
    """
    _, out = git.run(repo, "ls-tree", "-z", f"{rev}^{{commit}}", "--", path)
    for record in out.split(b"\0"):
        meta, _, name = record.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and name.decode("utf-8", "surrogateescape") == path:
            blob = fields[2].decode()
            if fields[0].decode() not in git.REGULAR_MODES or blob in missing_blobs(repo, [rev]):
                return None
            return git.read_blobs(repo, [blob]).get(blob)
    return None


def config_at(repo: git.Repository, rev: str, config_file: str | None = None) -> Config:
    """The configuration as committed at `rev`; a bad one is a `ConfigError` that names `rev`."""
    try:
        return _config_at(repo, rev, config_file)
    except PolicyError:
        raise
    except ConfigError as error:
        raise PolicyError(_("{where}{message} (as committed at {rev}, the trusted side of this change)",
                            where=error.where, message=error.message, rev=rev)) from None


def _config_at(repo: git.Repository, rev: str, config_file: str | None) -> Config:
    """The configuration as committed at `rev`, found as `load_config` finds it in the working tree.

    `config_file`, when it names a file inside the repository, is read at
    `rev`; one outside the repository is the operator's own and read as is.
    The files an `extend` names are read where the file naming them was.
    """

    def at_rev(rel: str) -> bytes | None:
        if rel.startswith(("/", "../")) or rel == "..":
            return None  # a revision holds only the repository's own files
        return _file_at(repo, rev, rel)

    if config_file is not None:
        path = Path(config_file).resolve()
        try:
            rel = path.relative_to(repo.root).as_posix()
        except ValueError:
            from_disk = read_config_file(path, config_file)
            return config_from_bytes(from_disk, config_file, pyproject=path.name == PYPROJECT,
                                     read_extended=lambda name: read_config_file(Path(name), name))
        data = _file_at(repo, rev, rel)
        if data is None:
            raise PolicyError(_("config file {name} does not exist at {rev}, the trusted side of this change",
                                name=repr(rel), rev=rev))
        return config_from_bytes(data, rel, pyproject=path.name == PYPROJECT, read_extended=at_rev)
    data = _file_at(repo, rev, CONFIG_FILE)
    if data is not None:
        return config_from_bytes(data, CONFIG_FILE, read_extended=at_rev)
    data = _file_at(repo, rev, PYPROJECT)
    if data is not None:
        return config_from_bytes(data, PYPROJECT, pyproject=True, read_extended=at_rev)
    return Config()
def trusted_config(repo: git.Repository, current: Config, base: str | None, config_file: str | None) -> Config:
    """KB007's policy: the configuration at `base`, or `current` when there is no base (no change,
    or the first commit)."""
    if base is None:
        return current
    policy = config_at(repo, base, config_file)
    if policy.source is None and current.source is not None:
        return replace(policy, unconfigured_base=base)
    return policy
