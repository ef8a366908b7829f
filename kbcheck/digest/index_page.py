"""An index page among the notes: an added or moved note that is a list of links to notes.

An old root README moved into a drafts folder, a reading map: `kbcheck init` tells such a
list from an overview by its links and its share of prose (`layout_detect.is_link_list`),
and the digest asks the same test, cached by blob id. A note whose head names one work
(`evidence.head.one_work`) is a note even when its body is its reference list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.digest.items import ITEM_FACTS, front_fields
from kbcheck.evidence.head import one_work
from kbcheck.layout_detect import is_link_list

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the cache key of `is_link_list` in ITEM_FACTS
_KEY = "link-list"


def index_page(kb: KnowledgeBase, path: str) -> bool:
    """Whether the note is a list of links to notes that names no one work at its head."""
    if kb.facts.fact(ITEM_FACTS, path, _KEY, is_link_list) is not True:
        return False
    doc = kb.document(path)
    return doc is not None and not one_work(doc, kb.resolve(path), front_fields(kb, path), path).shapes


__all__ = ["index_page"]
