"""Links a deletion left dangling: the files at head that still link a note the range deleted.

A hand-written brief that reports "deleted: the ILP note" also says "the Dragon Book note still
links it": the check (KB009) reports that link only when the linking file is checked, and a digest
checks the files the range changed, so a link in a note the range did not touch goes unsaid. The
deleted item's caution names the files still linking it: a markdown link or path to it (read as
`KnowledgeBase.link_target` reads one: a note without its `.md`, a site page by its index), or a
wikilink by its name (`[[ilp-notes]]`, as a wiki links by name anywhere).
A rename is no deletion (its links are the rename's to fix, and the check reports them).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from typing import TYPE_CHECKING

from kbcheck.digest.new_page import page_name
from kbcheck.links.site import page_variants
from kbcheck.model.cards import PAPER, REPO
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KNOWLEDGE

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the kinds of file whose links are read: every markdown file the knowledge base knows
_LINKING_KINDS = (KNOWLEDGE, GUIDE, BRIEF, PAPER, REPO)


def _stem(path: str) -> str:
    name = posixpath.basename(path)
    return (name[:-3] if name.endswith(".md") else name).casefold()


def still_linking(kb: KnowledgeBase, deleted: Iterable[str]) -> dict[str, list[str]]:
    """Each deleted path -> the files at head with a broken link to it, in the knowledge base's order."""
    paths = set(deleted)
    if not paths:
        return {}
    by_name: dict[str, str] = {}
    for path in sorted(paths):
        by_name.setdefault(_stem(path), path)
    site = kb.site
    out: dict[str, list[str]] = {}
    for linking in kb.paths_of_kind(*_LINKING_KINDS):
        for broken in kb.resolve(linking).broken_paths:
            name = page_name(broken.written)
            if name is not None:
                hit = by_name.get(_stem(name))
            elif broken.target is None:
                hit = None
            else:
                # as the renderer reads the link: the note without its `.md`, a site page by its index
                hit = next((p for p in (broken.target, *page_variants(broken.target, site)) if p in paths), None)
            if hit is not None and linking not in out.get(hit, ()):
                out.setdefault(hit, []).append(linking)
    return out


__all__ = ["still_linking"]
