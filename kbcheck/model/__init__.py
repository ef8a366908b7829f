"""The knowledge base as data: documents, cards, citations, claim numbers, ids."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def layout_version() -> str:
    """A digest of the model's source and of the fact store's: cached facts of another layout
    are never reused."""
    digest = hashlib.sha1()
    here = Path(__file__).parent
    for source in [*sorted(here.glob("*.py")), here.parent / "store.py"]:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]
