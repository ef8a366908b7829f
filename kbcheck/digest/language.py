"""The digest's language when the configuration does not set `lang`: the knowledge base's own.

A knowledge base written in Chinese gets a Chinese digest, one written in English an
English one (`docs/configuration.md`, `lang`). Read from a sample of its notes and living
documents: a CJK character counts as a word, as five latin letters do; Chinese wins when
it has at least half the words of English (Chinese notes are full of English names).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.model.cards import PAPER, REPO, split_frontmatter
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KNOWLEDGE
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KnowledgeBase

#: files read to tell, spread evenly over the knowledge base's markdown
SAMPLE = 40
_CJK = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = lazy(r"[A-Za-z]")
_LETTERS_PER_WORD = 5


def configured_lang(config: Config) -> str | None:
    """`lang` when the configuration sets it, else None. (`message_lang` is `lang` only when the
    file sets it: see `Config.message_lang`.)"""
    return config.lang if config.message_lang == config.lang else None


def text_lang(text: str) -> str | None:
    """`zh` or `en` by the words of `text`; None when it holds neither."""
    cjk = len(_CJK.findall(text))
    latin_words = len(_LATIN.findall(text)) / _LETTERS_PER_WORD
    if not cjk and not latin_words:
        return None
    return "zh" if cjk * 2 >= latin_words else "en"


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


__all__ = ["configured_lang", "knowledge_base_lang", "text_lang"]
