"""A number the note and a living document state differently about the same work.

A line of a living document that cites the note's paper (or links the note) and writes a name of
its title (`PaLM`, `GPT-4`, `SetFit`: capitals inside or letters with digits) is about the same
subject; a line that cites the note for another model it mentions is not. When the note states
one value for a counted thing (`24 layers`, `7B parameters`, `8 experts`) and that line states one
other value for the same thing (`6 层`), one of them is wrong or out of date: the digest says so.
Either side stating several values for the thing (a 6-layer draft beside a 24-layer target) says
nothing certain, and nothing is said; values within 1 % of each other agree (`540.35B`, `540B`). The things
counted are a fixed table (layers, attention heads, experts, parameters, tokens, GPUs,
languages), in English and Chinese; a value's magnitude (`7B`, `70亿`) is read, so `7B` and
`70亿` agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kbcheck.digest.gist import prose
from kbcheck.digest.items import ITEM_FACTS
from kbcheck.digest.model import DELETED, Item
from kbcheck.digest.phrases import say
from kbcheck.model.knowledge_base import KNOWLEDGE
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the counted thing -> how it is written after its number
COUNTED = {
    "layers": r"layers?|层",
    "heads": r"(?:attention[ -])?heads?|个?(?:注意力)?头",
    "experts": r"experts?|个?专家",
    "parameters": r"parameters?|params?|(?:个)?参数",
    "tokens": r"tokens?",
    "GPUs": r"GPUs?|张(?:卡|GPU)|块(?:卡|GPU)",
    "languages": r"languages|种语言",
}
_MAGNITUDE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12, "万": 1e4, "亿": 1e8, "万亿": 1e12}
_QUANTITY = lazy(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<mag>万亿|[kKMBT万亿](?![A-Za-z]))?\s*-?\s*(?P<unit>"
    + "|".join(f"(?P<{name}>{pattern})" for name, pattern in COUNTED.items()) + r")(?![A-Za-z])")
_CAUTIONS_SHOWN = 2
#: the key of a note's own `quantities` in the digest's item facts
_QUANTITIES_KEY = "prose-quantities"
#: a name in a title: capitals inside (`PaLM`, `SetFit`, `BERT`) or letters with digits (`GPT-4`, `T5`)
_NAME = lazy(r"(?<![\w-])(?:[A-Za-z]*[a-z]?[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*|[A-Za-z]+-?\d[\w.-]*)(?![\w-])")
#: values this close agree (a rounding: `540.35B` and `540B`)
_ROUNDING = 0.01


def title_names(title: str) -> list[str]:
    """The names a title writes (`PaLM`, `GPT-4`), not its ordinary words."""
    return [name for name in _NAME.findall(title) if len(name) >= 2]


def _agree(a: float, b: float) -> bool:
    return abs(a - b) <= _ROUNDING * max(abs(a), abs(b))


def quantities(texts: Iterable[str]) -> dict[str, dict[float, str]]:
    """Counted thing -> value -> how it was written, over the texts."""
    out: dict[str, dict[float, str]] = {}
    for text in texts:
        for match in _QUANTITY.finditer(text):
            thing = next(name for name in COUNTED if match.group(name))
            value = float(match.group("num")) * _MAGNITUDE.get(match.group("mag") or "", 1.0)
            out.setdefault(thing, {}).setdefault(value, match.group(0).strip())
    return out


class Contradictions:
    """The living documents' lines by what they cite or link, read once when first asked."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self._lines: dict[str, list[tuple[str, int, str]]] | None = None

    @property
    def lines(self) -> dict[str, list[tuple[str, int, str]]]:
        """id or note path -> (living document, line, text) of each block citing or linking it."""
        if self._lines is None:
            self._lines = {}
            for path in self.kb.paths_of_kind(KNOWLEDGE):
                doc = self.kb.document(path)
                if doc is None:
                    continue
                resolved = self.kb.resolve(path)
                for block, citations, links in zip(doc.blocks, resolved.block_citations, resolved.block_links):
                    targets = {c.id for c in citations} | {link.target for link in links if link.kind == "document"}
                    for target in targets:
                        self._lines.setdefault(target, []).append((path, block.line, block.text))
        return self._lines

    def _own_quantities(self, path: str) -> dict[str, dict[float, str]]:
        """What the note's prose counts, cached by blob id: most notes count nothing, and then a warm
        digest reads neither their parse nor their prose."""
        kb = self.kb
        key = "\0".join((_QUANTITIES_KEY, kb.facts.settings.key, kb.kind_of(path)))
        cached = kb.facts.fact(ITEM_FACTS, path, key, lambda text: quantities(prose(kb.document(path), text)))
        return cached if isinstance(cached, dict) else quantities(prose(kb.document(path), kb.text(path) or ""))

    def of(self, item: Item, lang: str) -> list[str]:
        """A caution for each counted thing the item and a line about it state differently."""
        if item.change == DELETED or item.kind == KNOWLEDGE or not item.consumed:
            return []
        mine = self._own_quantities(item.path)
        if not any(len(values) == 1 for values in mine.values()):
            return []
        names = title_names(item.title)
        if not names:
            return []
        about = [line for key in dict.fromkeys([item.path, *(c.id for c in item.ids)]) for line in self.lines.get(key, ())
                 if any(name in line[2] for name in names)]
        out: list[str] = []
        seen: set[tuple[str, str, int]] = set()
        for doc, line, text in about:
            theirs = quantities([text])
            for thing, values in theirs.items():
                own = mine.get(thing, {})
                if len(own) != 1 or len(values) != 1 or (thing, doc, line) in seen:
                    continue
                if _agree(next(iter(own)), next(iter(values))):
                    continue
                seen.add((thing, doc, line))
                out.append(say(lang, "caution.contradiction", here=next(iter(own.values())),
                               there=next(iter(values.values())), path=doc, line=line))
                if len(out) >= _CAUTIONS_SHOWN:
                    return out
        return out


__all__ = ["COUNTED", "Contradictions", "quantities", "title_names"]
