"""The digest brief (`docs/output.md`): what changed since the baseline, and what it is worth.

`make_digest` builds it as data and `render_digest` writes it as markdown or
JSON; the `kbcheck digest` command (`kbcheck.commands.digest`) calls both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
                manifest: str | None = None, lang: str | None = None, cache: bool = True) -> Digest:
    """The digest as data (what `run_digest` renders)."""
    from kbcheck import git
    from kbcheck.digest.build import build_digest
    from kbcheck.digest.items import load_manifest

    base = git.resolve(repo, base_revision(repo, config, since))
    head = git.resolve(repo, to or "HEAD")
    paths = load_manifest(manifest, repo.root) if manifest else None
    from kbcheck.digest.language import configured_lang

    # no language asked for and none configured: the knowledge base's own (`kbcheck.digest.language`)
    return build_digest(repo, config, base, head, lang=lang or configured_lang(config), manifest=manifest,
                        manifest_paths=paths, cache=cache)


def render_digest(digest: Digest, fmt: str, lang: str | None = None) -> str:
    """The digest as `fmt`, in `lang` (None: the language it was built in)."""
    lang = lang or digest.lang
    if fmt == "json":
        from kbcheck.digest.render_json import render as render_json

        return render_json(digest)
    if fmt == "markdown":
        from kbcheck.digest.render_markdown import render as render_markdown

        return render_markdown(digest, lang)
    raise UsageError(i18n._("unknown digest format '{format}'; valid formats are markdown, json", format=fmt))


__all__ = ["base_revision", "make_digest", "render_digest"]
