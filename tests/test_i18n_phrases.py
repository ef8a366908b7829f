"""The digest's phrases come from the message catalogs, one context per phrase (`kbcheck.digest.phrases`)."""

from __future__ import annotations

import re
import string

from kbcheck.digest.phrases import phrases, say


def _values(english: str) -> dict[str, str]:
    """Each placeholder of `english` filled with its own name (`{sections}` → `sections`)."""
    return {name: name for _text, name, _spec, _conv in string.Formatter().parse(english) if name}


def test_every_phrase_is_said_in_chinese_from_the_catalog() -> None:
    for key, english in phrases().items():
        values = _values(english)
        chinese = say("zh", key, **values)
        assert chinese != english.format(**values), key
        assert re.search(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]", chinese), (key, chinese)  # CJK or full-width
        assert say("en", key, **values) == english.format(**values)


def test_the_same_english_is_said_as_each_place_needs() -> None:
    assert phrases()["deleted"] == phrases()["change.deleted"] == "deleted"
    assert (say("zh", "deleted"), say("zh", "change.deleted")) == ("已删除", "删除")
    assert (say("zh", "manifest"), say("zh", "kind.manifest")) == ("清单（manifest）", "清单")
