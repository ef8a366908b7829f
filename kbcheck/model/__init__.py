"""The knowledge base as data: documents, cards, citations, claim numbers, ids."""

from __future__ import annotations
