"""`kbcheck digest --format json`: the shape of `docs/output.md` (`docs/schemas/digest.schema.json`)."""

from __future__ import annotations

import json
from typing import Any

from kbcheck.digest.model import Digest, Item
from kbcheck.suggest import suggestion_json

#: the version of the JSON shape, not of kbcheck
JSON_VERSION = 1


def item_json(item: Item) -> dict[str, Any]:
    return {
        "path": item.path,
        "kind": item.kind,
        "change": item.change,
        "old_path": item.old_path,
        "class": item.cls,
        "reason": item.reason,
        "ids": [cited.id for cited in item.ids],
        "changed_fields": dict(item.changed_fields),
        "living_doc": item.status.to_json() if item.status is not None else None,
        "cited_no_entry": item.cited_no_entry,
        "meta_only": item.meta_only,
        "warnings": list(item.warnings),
        "suggested_sections": [suggestion_json(s) for s in item.suggested_sections],
        "related": [{"path": r.path, "why": r.why} for r in item.related],
    }


def digest_json(digest: Digest) -> dict[str, Any]:
    """The digest as plain data.

    `boundary` is the markdown's evidence boundary: the range with dates,
    the manifest if any, and for every path asked for whether it was consumed.
    """
    consumed = [entry for entry in digest.boundary if entry.consumed]
    return {
        "version": JSON_VERSION,
        "base": digest.base,
        "head": digest.head,
        "items": [item_json(item) for item in digest.items],
        "findings_new": [f.to_json() for f in digest.findings_new],
        "findings_resolved": [f.to_json() for f in digest.findings_resolved],
        "citable_ids": [cited.id for cited in digest.citable_ids],
        "counts": digest.counts,
        "merge_actions": [{"priority": a.priority, "action": a.action, "path": a.path, "section": a.section}
                          for a in digest.merge_actions],
        "boundary": {
            "base_date": digest.base_date,
            "head_date": digest.head_date,
            "manifest": digest.manifest,
            "consumed": len(consumed),
            "paths": [{"path": e.path, "consumed": e.consumed, "note": e.note} for e in digest.boundary],
        },
    }


def render(digest: Digest) -> str:
    """Indented UTF-8 JSON with a trailing newline."""
    from kbcheck.printable import printable_data

    return json.dumps(printable_data(digest_json(digest)), ensure_ascii=False, indent=2) + "\n"
