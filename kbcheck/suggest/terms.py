"""Words of Chinese and English text alike, for matching a note with the sections it belongs to.

Latin text splits at non-letters (lower-cased, a trailing plural `s` folded,
common words dropped); CJK text has no spaces, so each run of CJK characters
gives its character bigrams (a lone character stands for itself). A term
that is in every other section says nothing; the ranking weighs terms by how
few sections hold them, so the stop lists here stay short.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from itertools import pairwise

from kbcheck.regex import lazy

_WORD = lazy(r"[a-z0-9][a-z0-9+#]*(?:[-.][a-z0-9+#]+)*|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
#: a CJK character (a term starting with one is a character or a bigram)
CJK = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_NUMBER = lazy(r"^[\d.\-]+$")
STOPWORDS = frozenset("""
a an and are as at be been but by can could did do does for from had has have how if in into is it its
may more most not of on or our over so such than that the their them then there these they this those
to too under up use used uses using via was we were what when where which while who will with would
you your also all any both each few many much other same some very vs new one two first based paper
approach method methods result results show shows shown propose proposed work however across between
arxiv doi http https www com org github md
""".split())
#: web addresses are sources, compared as ids; their letters are not words of the text
_URL = lazy(r"(?i:https?)://\S+")
#: particles that glue CJK words together: a bigram holding one says nothing
_CJK_STOP = frozenset("的了是在和与及或而也都就将把被对从以为其该这那此个种等")


def _fold(word: str) -> str:
    """`models` -> `model`, `policies` -> `policy`, `compresses` -> `compress`; short words and
    `-ss`, `-us`, `-is` stay (Porter's first step, so a term shown is a word as written)."""
    if word.endswith("sses"):
        return word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def terms(text: str) -> list[str]:
    """The terms of a text, in order, repeats kept."""
    out: list[str] = []
    normal = _URL.sub(" ", unicodedata.normalize("NFKC", text).lower())
    for match in _WORD.finditer(normal):
        word = match.group(0)
        if CJK.match(word):
            if len(word) == 1:
                if word not in _CJK_STOP:
                    out.append(word)
                continue
            out.extend(a + b for a, b in pairwise(word) if a not in _CJK_STOP and b not in _CJK_STOP)
            continue
        word = word.strip("-.")
        if len(word) < 2 or word in STOPWORDS or _NUMBER.match(word):
            continue
        out.append(_fold(word))
        if "-" in word:  # `fine-tuning` also matches `fine tuning`
            out.extend(_fold(part) for part in word.split("-") if len(part) > 1 and part not in STOPWORDS)
    return out


def term_counts(text: str) -> dict[str, int]:
    return dict(Counter(terms(text)))
