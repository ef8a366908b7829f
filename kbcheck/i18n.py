"""Messages in the knowledge base's language, through gettext catalogs shipped in the package.

English is the source language: a message is built as English text that
remembers its msgid and values (`Text`), so a finding stays data (its
fingerprint, its JSON and the digest's reading of it do not depend on the
language) and is said in another language only when it is written out
(`say`). The catalogs are `locale/<lang>/LC_MESSAGES/kbcheck.mo`, compiled
from the `.po` files beside them; `gettext` and a catalog are loaded only
when a language other than English is asked for, so a hook's start-up does
not pay for them (`docs/configuration.md`, key `lang`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import gettext as _gettext

#: the languages kbcheck speaks; the first is the source language of every msgid
LANGS = ("en", "zh")
DOMAIN = "kbcheck"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


class Text(str):
    """English text that remembers how it was said, so that an output can say it in another language.

    It is a `str` (the English text) everywhere else: comparisons, hashing,
    pickling between worker processes and string tests keep working.
    Placeholders are named (`{id}`), so a translation may reorder them.
    """

    msgid: str
    plural: str | None
    number: int | None
    values: dict[str, Any]

    def __new__(cls, msgid: str, values: dict[str, Any], plural: str | None = None, number: int | None = None) -> Text:
        chosen = msgid if plural is None or number == 1 else plural
        self = super().__new__(cls, chosen.format(**values))
        self.msgid, self.plural, self.number, self.values = msgid, plural, number, values
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.msgid, self.values, self.plural, self.number))

    def plain(self) -> tuple[str, ...]:
        """The text as plain strings (for the parse cache): msgid, plural, number, then names and values."""
        pairs = [part for name, value in self.values.items() for part in (name, str(value))]
        return (self.msgid, self.plural or "", "" if self.number is None else str(self.number), *pairs)

    @classmethod
    def from_plain(cls, data: tuple[str, ...]) -> Text:
        """What `plain` wrote (values come back as strings, as they are shown)."""
        msgid, plural, number, *pairs = data
        values = dict(zip(pairs[0::2], pairs[1::2]))
        return cls(msgid, values, plural or None, int(number) if number else None)


#: how a cache of plain data keeps a `Text`: this marker, then `Text.plain()`
_KEPT = "\0kbcheck.i18n.Text"


def kept(value: Any) -> Any:
    """Plain data (lists, tuples, dicts of atoms) with each `Text` in it as a tagged tuple, so a
    cache that stores plain data only keeps how a message was said (`restored` undoes it)."""
    if isinstance(value, Text):
        return (_KEPT, *value.plain())
    if isinstance(value, list):
        return [kept(item) for item in value]
    if isinstance(value, tuple):
        return tuple(kept(item) for item in value)
    if isinstance(value, dict):
        return {key: kept(item) for key, item in value.items()}
    return value


def restored(value: Any) -> Any:
    """What `kept` was given."""
    if isinstance(value, tuple):
        if value and isinstance(value[0], str) and value[0] == _KEPT:
            return Text.from_plain(value[1:])
        return tuple(restored(item) for item in value)
    if isinstance(value, list):
        return [restored(item) for item in value]
    if isinstance(value, dict):
        return {key: restored(item) for key, item in value.items()}
    return value


def _(msgid: str, /, **values: Any) -> Text:
    """A message: the English `msgid` (the catalogs' key) with its named values."""
    return Text(msgid, values)


def ngettext(singular: str, plural: str, number: int, /, **values: Any) -> Text:
    """A message with a count in it: the catalog chooses the form for `number` (Chinese has one)."""
    return Text(singular, values, plural, number)


def listing(items: Iterable[str]) -> str:
    """Items in running text: `a, b, c` in English, `a、b、c` in Chinese."""
    return _joined(items, lambda item, rest: _("{item}, {items}", item=item, items=rest))


def clauses(items: Iterable[str]) -> str:
    """Clauses of one reason: `a; b` in English, `a；b` in Chinese."""
    return _joined(items, lambda item, rest: _("{item}; {items}", item=item, items=rest))


def _joined(items: Iterable[str], pair: Callable[[str, str], str]) -> str:
    """The items joined pair by pair from the end, so each join is a message the catalog says."""
    parts = list(items)
    joined = parts[-1] if parts else ""
    for part in reversed(parts[:-1]):
        joined = pair(part, joined)
    return joined


#: the language of the running command's messages: English until the command knows its
#: configuration (`--lang`, else `lang` when the configuration sets it); errors raised later are
#: said in it (`kbcheck.commands.run_command`)
MESSAGE_LANG: ContextVar[str] = ContextVar("message_lang", default=LANGS[0])


@cache
def catalog(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of `lang` (loaded once); English, and a missing catalog, say the msgids."""
    import gettext

    if lang == LANGS[0]:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang], fallback=True)


def say(text: str, lang: str) -> str:
    """`text` in `lang`: a `Text` translated (its values too), any other string as it is."""
    if lang == LANGS[0] or not isinstance(text, Text):
        return str(text)
    translations = catalog(lang)
    if text.plural is None:
        template = translations.gettext(text.msgid)
    else:
        template = translations.ngettext(text.msgid, text.plural, text.number if text.number is not None else 1)
    return template.format(**{name: say(value, lang) if isinstance(value, str) else value
                              for name, value in text.values.items()})
