"""The digest's language when the configuration does not set `lang`: the knowledge base's own.

A knowledge base written in Chinese gets a Chinese digest, one written in English an
English one (`docs/configuration.md`, `lang`), told by `kbcheck.language.text_lang` from a
sample of its notes and living documents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.language import text_lang
from kbcheck.model.cards import PAPER, REPO, split_frontmatter
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KNOWLEDGE

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KnowledgeBase

#: files read to tell, spread evenly over the knowledge base's markdown
SAMPLE = 40


def configured_lang(config: Config) -> str | None:
    """`lang` when the configuration sets it, else None. (`message_lang` is `lang` only when the
    file sets it: see `Config.message_lang`.)"""
    return config.lang if config.message_lang == config.lang else None


def knowledge_base_lang(kb: KnowledgeBase, default: str) -> str:
    """The language most of the knowledge base is written in; `default` when it holds no text."""
    paths = kb.paths_of_kind(KNOWLEDGE, GUIDE, BRIEF, PAPER, REPO)
    if not paths:
        return default
    step = max(1, len(paths) // SAMPLE)
    chosen = sorted(paths)[::step][:SAMPLE]
    kb.preload(chosen)
    body = "\n".join(split_frontmatter(text)[2] for path in chosen if (text := kb.text(path)) is not None)
    return text_lang(body) or default


__all__ = ["configured_lang", "knowledge_base_lang"]
