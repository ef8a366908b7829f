"""Which language a text is written in, by one rule for every caller (`kbcheck init`'s proposal
and the digest's language when `lang` is not set; docs/configuration.md, `lang`).

A CJK character counts as a word, as five latin letters do, and Chinese wins when it has at
least half the words of English: Chinese notes are full of English names, titles and code.
"""

from __future__ import annotations

from kbcheck.regex import lazy

_CJK = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = lazy(r"[A-Za-z]")
_LETTERS_PER_WORD = 5


def words(text: str) -> tuple[int, int]:
    """The CJK and the latin words of `text`, counted as `text_lang` weighs them."""
    return len(_CJK.findall(text)), len(_LATIN.findall(text)) // _LETTERS_PER_WORD


def lang_of(cjk: int, latin_words: int) -> str | None:
    """`zh` or `en` for a text of these `words`; None when it holds neither."""
    if not cjk and not latin_words:
        return None
    return "zh" if cjk * 2 >= latin_words else "en"


def text_lang(text: str) -> str | None:
    """`zh` or `en` by the words of `text`; None when it holds neither."""
    return lang_of(*words(text))


__all__ = ["lang_of", "text_lang", "words"]
