"""The digest brief (`docs/output.md`): what changed since the baseline, and what it is worth.

`run_digest` is what `kbcheck digest` calls. Every check of the command line
(revisions, baseline, manifest, output folder) happens before anything is
written, so bad input leaves one line on stderr and no file behind.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from kbcheck import i18n
from kbcheck.errors import UsageError

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.digest.model import Digest
    from kbcheck.git import Repository


def base_revision(repo: Repository, config: Config, since: str | None) -> str:
    """`--since`, else the baseline's commit; a one-line UsageError when there is neither."""
    if since:
        return since
    from kbcheck.baseline import baseline_path, read_baseline

    path = baseline_path(repo, config)
    if not (path.exists() or path.is_symlink()):
        raise UsageError(i18n._("no baseline at {path} and no --since: give --since REV "
                                "or record one with kbcheck baseline update", path=config.baseline))
    baseline = read_baseline(repo, config, required=True)
    assert baseline is not None
    return baseline.commit


def make_digest(repo: Repository, config: Config, *, since: str | None = None, to: str | None = None,
                manifest: str | None = None, lang: str | None = None) -> Digest:
    """The digest as data (what `run_digest` renders)."""
    from kbcheck import git
    from kbcheck.digest.build import build_digest
    from kbcheck.digest.items import load_manifest

    base = git.resolve(repo, base_revision(repo, config, since))
    head = git.resolve(repo, to or "HEAD")
    paths = load_manifest(manifest, repo.root) if manifest else None
    return build_digest(repo, config, base, head, lang=lang or config.lang, manifest=manifest, manifest_paths=paths)


def render_digest(digest: Digest, fmt: str, lang: str) -> str:
    if fmt == "json":
        from kbcheck.digest.render_json import render as render_json

        return render_json(digest)
    if fmt == "markdown":
        from kbcheck.digest.render_markdown import render as render_markdown

        return render_markdown(digest, lang)
    raise UsageError(f"unknown digest format '{fmt}'; valid formats are markdown, json")


def run_digest(repo: Repository, config: Config, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """`kbcheck digest`: write the brief to `--output` (atomically) or to `out`."""
    from kbcheck.files import atomic_file

    lang = args.lang or config.lang
    output = _output_path(repo, args.output) if args.output else None
    if output is None:
        out.write(_digest_text(repo, config, args, lang, err))
        return 0
    # opened first: an interrupted run (SIGINT, SIGTERM) removes its temporary file
    with atomic_file(output) as target:
        target.write(_digest_text(repo, config, args, lang, err).encode("utf-8"))
    return 0


def _digest_text(repo: Repository, config: Config, args: argparse.Namespace, lang: str, err: TextIO) -> str:
    from kbcheck.cli import one_line

    digest = make_digest(repo, config, since=args.since, to=args.to, manifest=args.manifest, lang=lang)
    text = render_digest(digest, args.format, lang)
    from kbcheck.i18n import say

    for notice in digest.notices:  # on stderr in the language of messages, as `check` writes them
        print(f"kbcheck: {one_line(say(notice, args.lang or config.message_lang))}", file=err)
    return text


def _output_path(repo: Repository, name: str) -> Path:
    """`--output`: a path in the working tree goes through no symlink and stays out of `.git`; a path
    outside the working tree (a CI runner's summary file) is the caller's own choice."""
    import os

    from kbcheck.files import is_in_git_dir, work_tree_file

    output = Path(os.path.abspath(name))
    if not output.parent.is_dir():
        raise UsageError(f"cannot write {name}: folder {output.parent} does not exist")
    if output.is_dir():
        raise UsageError(f"cannot write {name}: it is a folder")
    if is_in_git_dir(repo, output):
        raise UsageError(f"cannot write {name}: it is inside the git directory")
    root = Path(repo.root)
    if output == root or root in output.parents:
        return work_tree_file(repo, output.relative_to(root).as_posix(), f"--output {name}")
    return output


__all__ = ["base_revision", "make_digest", "render_digest", "run_digest"]
