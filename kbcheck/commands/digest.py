"""`kbcheck digest`: write the digest brief (`docs/output.md`) to `--output` or to `out`.

Every check of the options (revisions, baseline, manifest, output folder)
happens before anything is written, so bad input leaves one line on stderr and
no file behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from kbcheck.commands import checked_lang, configuration, message_lang, notify, repository

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.git import Repository


@dataclass(frozen=True)
class DigestOptions:
    """What `kbcheck digest` was asked; the defaults are the command line's."""

    since: str | None = None
    to: str | None = None
    manifest: str | None = None
    format: str = "markdown"
    #: the language of the markdown; None: the configuration's `lang`
    lang: str | None = None
    output: str | None = None
    config: str | None = None
    no_cache: bool = False


def run_digest(options: DigestOptions, out: TextIO, err: TextIO) -> int:
    """Write the brief of what changed since the baseline (or `--since`); 0 once it is written."""
    from kbcheck.progress import progress_for, showing

    if options.lang:
        message_lang(options.lang, None)  # an error from here on is said in `--lang`
    repo = repository()
    config = configuration(repo, options.config)
    with showing(progress_for(err, "digest")):
        return write_digest(repo, config, options, out, err)


def write_digest(repo: Repository, config: Config, options: DigestOptions, out: TextIO, err: TextIO) -> int:
    """The brief to `--output` (atomically) or to `out`; the digest's notices to `err`."""
    from kbcheck.digest.language import configured_lang
    from kbcheck.files import atomic_file, output_file

    # the brief's language is `--lang`, else the configured `lang`; kbcheck's own messages follow `lang` only when
    # the configuration sets it, as `check`'s do (`docs/configuration.md`)
    # (unset, the knowledge base's own: `kbcheck.digest.language`)
    lang = checked_lang(options.lang, "--lang") if options.lang else configured_lang(config)
    said_in = message_lang(options.lang, config)
    output = output_file(repo, options.output) if options.output else None
    if output is None:
        out.write(_digest_text(repo, config, options, lang, said_in, err))
        return 0
    # opened first: an interrupted run (SIGINT, SIGTERM) removes its temporary file
    with atomic_file(output) as target:
        target.write(_digest_text(repo, config, options, lang, said_in, err).encode("utf-8"))
    return 0


def _digest_text(repo: Repository, config: Config, options: DigestOptions, lang: str | None, said_in: str,
                 err: TextIO) -> str:
    from kbcheck.digest import make_digest, render_digest

    digest = make_digest(repo, config, since=options.since, to=options.to, manifest=options.manifest, lang=lang,
                         cache=not options.no_cache)
    text = render_digest(digest, options.format, digest.lang)
    notify(digest.notices, err, said_in)
    return text


__all__ = ["DigestOptions", "run_digest", "write_digest"]
