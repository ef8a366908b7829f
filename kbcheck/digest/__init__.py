"""The digest brief (`docs/output.md`): what changed since the baseline, and what it is worth.

`run_digest` is what `kbcheck digest` calls. Every check of the command line
(revisions, baseline, manifest, output folder) happens before anything is
written, so bad input leaves one line on stderr and no file behind.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

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

    if not baseline_path(repo, config).is_file():
        raise UsageError(f"no baseline at {config.baseline} and no --since: give --since REV "
                         "or record one with kbcheck baseline update")
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
    from kbcheck.baseline import write_atomically

    lang = args.lang or config.lang
    output = Path(args.output) if args.output else None
    if output is not None and not output.parent.is_dir():
        raise UsageError(f"cannot write {args.output}: folder {output.parent} does not exist")
    if output is not None and output.is_dir():
        raise UsageError(f"cannot write {args.output}: it is a folder")
    digest = make_digest(repo, config, since=args.since, to=args.to, manifest=args.manifest, lang=lang)
    text = render_digest(digest, args.format, lang)
    from kbcheck.cli import one_line

    for notice in digest.notices:
        print(f"kbcheck: {one_line(notice)}", file=err)
    if output is not None:
        write_atomically(output, text.encode("utf-8"))
    else:
        out.write(text)
    return 0


__all__ = ["base_revision", "make_digest", "render_digest", "run_digest"]
