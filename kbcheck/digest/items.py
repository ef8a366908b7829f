"""What changed: the digest's items, from the diff or from a manifest.

An item is a changed card, guide, brief, manifest or living document. For a
modification the frontmatter is compared field by field, so a refresh that
only moved citation counts or stars (the `volatile-fields`) is told apart
from a substantive edit.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kbcheck.digest.gist import (
    BYLINE,
    TEMPLATE,
    added_lines,
    header_fields,
    is_placeholder,
    is_stub,
    keep_finding,
    key_text,
    note_shape,
    one_line,
    prose,
    summary_line,
)
from kbcheck.digest.housekeeping import is_housekeeping
from kbcheck.digest.model import ADDED, DELETED, MODIFIED, RENAMED, CitedId, Item
from kbcheck.errors import UsageError
from kbcheck.i18n import _
from kbcheck.model.cards import PAPER, REPO, read_frontmatter, split_frontmatter
from kbcheck.model.document import MARKDOWN_SUFFIXES, file_title
from kbcheck.model.facts import CARD_KINDS
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KNOWLEDGE, MANIFEST, OTHER, KnowledgeBase
from kbcheck.regex import lazy
from kbcheck.sources import Change, normalise_path

if TYPE_CHECKING:
    from kbcheck.suggest.background import Background

#: changes under this folder are kbcheck's own (the baseline): never items
OWN_FOLDER = ".kbcheck/"
ITEM_KINDS = frozenset({KNOWLEDGE, PAPER, REPO, GUIDE, BRIEF, MANIFEST})
_KEY_POINTS_LIMIT = 400
#: lines of a modification's additions its key points show
_ADDED_SHOWN = 4
#: the list keys a manifest object may hold its entries under, tried in order
MANIFEST_KEYS = ("items", "paths", "files")
#: a date or a number (thousands separators allowed): what a refresh may rewrite in a card's prose
_VALUES = lazy(r"(\d{4}-\d{2}-\d{2}|\d[\d,]*(?:\.\d+)?)")
#: the cache namespace of what the digest reads from one changed file's text alone
ITEM_FACTS = "item"
#: the key of a note's `is_stub` in ITEM_FACTS
_STUB_KEY = "stub"
#: cache keys of those facts
_FIELDS_KEY, _DESCRIBED_KEY = "fields", "described"


def is_own(path: str | None) -> bool:
    return path is not None and (path + "/").startswith(OWN_FOLDER)


# -- frontmatter comparison -------------------------------------------------------------

def split_fields(text: str) -> tuple[dict[str, Any] | None, str]:
    """(frontmatter fields, body); fields None when the frontmatter is not a readable YAML mapping
    (read as a card's is: `read_frontmatter`, dates as ISO strings, so old and new compare alike)."""
    front = read_frontmatter(text)
    if front.text is None or (front.data is None and front.problem is None):
        return {}, front.body
    return front.fields, front.body


def cached_split(kb: KnowledgeBase, path: str, text: str) -> tuple[dict[str, Any] | None, str]:
    """`split_fields` of the file's text (read from `kb`), its fields cached by blob id: reading
    the YAML is most of what comparing hundreds of refreshed cards costs."""
    body = split_frontmatter(text)[2]
    cached = kb.facts.fact(ITEM_FACTS, path, _FIELDS_KEY, lambda read: (split_fields(read)[0],))
    if isinstance(cached, tuple) and len(cached) == 1 and (cached[0] is None or isinstance(cached[0], dict)):
        return cached[0], body
    return split_fields(text)


def front_fields(kb: KnowledgeBase, path: str) -> dict[str, Any] | None:
    """The file's frontmatter fields (cached by blob id), None when it has none or cannot be read:
    a file without frontmatter costs no YAML read."""
    text = kb.text(path)
    if text is None or split_frontmatter(text)[0] is None:
        return None
    return cached_split(kb, path, text)[0]


def _value_text(raw: object) -> str | None:
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, float) and raw == int(raw):
        raw = int(raw)
    return str(raw).replace(",", "").strip() or None


def restates_volatile(old_body: str, new_body: str, changed: dict[str, Any], volatile: set[str]) -> bool:
    """True when the bodies differ only where they restate a changed volatile field.

    Cards often repeat their counts in prose ("S2 被引 5"); a refresh then
    rewrites that number too. Every number or date that differs must go from
    a changed volatile field's old value to its new value; all other text
    must be identical.
    """
    pairs: set[tuple[str, str]] = set()
    for name, pair in changed.items():
        if name in volatile and isinstance(pair, list):
            before, after = _value_text(pair[0]), _value_text(pair[1])
            if before is not None and after is not None:
                pairs.add((before, after))
    if not pairs:
        return False
    old_parts, new_parts = _VALUES.split(old_body), _VALUES.split(new_body)
    if len(old_parts) != len(new_parts):
        return False
    for index, (before, after) in enumerate(zip(old_parts, new_parts)):
        if before == after:
            continue
        if index % 2 == 0 or (before.replace(",", ""), after.replace(",", "")) not in pairs:
            return False
    return True


def compare_split(old: tuple[dict[str, Any] | None, str], new: tuple[dict[str, Any] | None, str],
                  volatile: Iterable[str]) -> tuple[dict[str, Any], bool]:
    """(changed_fields, volatile_only) of a modification, its two texts split by `split_fields`.

    `changed_fields` maps every frontmatter field whose value changed to
    [old, new] (None for an absent side), plus `"body": None` when the text
    below the frontmatter changed. A body that changed only where it restates
    a changed volatile field (`S2 被引 5` -> `12`) keeps the change volatile-only.
    Unparseable frontmatter is never volatile-only.
    """
    old_fields, old_body = old
    new_fields, new_body = new
    changed: dict[str, Any] = {}
    comparable = old_fields is not None and new_fields is not None
    if old_fields is not None and new_fields is not None:
        for name in list(old_fields) + [k for k in new_fields if k not in old_fields]:
            before, after = old_fields.get(name), new_fields.get(name)
            if before != after or (name in old_fields) != (name in new_fields):
                changed[name] = [before, after]
    allowed = set(volatile)
    fields_volatile = all(name in allowed for name in changed)
    body_changed = old_body != new_body
    if body_changed:
        changed["body"] = None
    volatile_only = comparable and fields_volatile and (
        not body_changed or restates_volatile(old_body, new_body, changed, allowed))
    return changed, volatile_only


# -- what an item is about ----------------------------------------------------------------

def item_ids(kb: KnowledgeBase, path: str, kind: str) -> list[CitedId]:
    """A card's own id; a note about one source, that source (docs/output.md: a wiki's source note
    stands for its paper, and the papers it cites in passing are its related work); for any other
    markdown file every id it cites, in order, except those it reaches only through a link to
    another note (that note's own id is not inherited)."""
    if kind in CARD_KINDS:
        found = kb.card_id_of_path(path)
        return [CitedId(found[0], found[1])] if found else []
    if kind in (KNOWLEDGE, MANIFEST) or not path.lower().endswith(MARKDOWN_SUFFIXES):
        return []
    own = kb.note_id(path)
    if own is not None:
        return [CitedId(own[0], own[1])]
    seen: dict[str, CitedId] = {}
    for citations in kb.resolve(path).block_citations:
        for citation in citations:
            # a link to a sibling note is a link, not this note's source: a blog note linking a model
            # report's note is not about the report's paper
            if citation.note is None:
                seen.setdefault(citation.id, CitedId(citation.kind, citation.id))
    return list(seen.values())


def drop_repeated_ids(kb: KnowledgeBase, items: Iterable[Item], background: Background) -> None:
    """Leave out of each note's ids those a header every note repeats carries (the owner's index
    repository): a note citing only those cites nothing, and is judged as such. A card's id, and
    the source a note stands for, are its own and stay."""
    for item in items:
        if item.kind in CARD_KINDS or (item.change != DELETED and kb.note_id(item.path) is not None):
            continue
        item.ids = [cited for cited in item.ids if not background.is_repeated(cited.kind, cited.id)]


def _prose(kb: KnowledgeBase, path: str) -> list[str]:
    """The text of a document's paragraphs, items and rows, as written: frontmatter is metadata,
    never text; a link reads as its text, inline code as its content."""
    return prose(kb.document(path), kb.text(path) or "")


def _stub(kb: KnowledgeBase, path: str, text: str) -> bool:
    """`is_stub`, cached by blob id: it reads the note's whole prose, which a warm digest need not parse."""
    key = "\0".join((_STUB_KEY, kb.facts.settings.key, kb.kind_of(path)))
    cached = kb.facts.fact(ITEM_FACTS, path, key, lambda read: is_stub(kb.document(path), read, front_fields(kb, path)))
    return cached if isinstance(cached, bool) else is_stub(kb.document(path), text, front_fields(kb, path))


def described(kb: KnowledgeBase, item: Item, path: str) -> None:
    """`describe`, cached by blob id: title, key points and category come from the file's text
    (and its path and kind) alone."""
    key = "\0".join((_DESCRIBED_KEY, kb.facts.settings.key, item.kind, path))

    def build(_text: str) -> tuple[str, str, str | None]:
        fresh = Item(path=path, kind=item.kind, change=item.change)
        describe(kb, fresh, path)
        return fresh.title, fresh.key_points, fresh.category

    cached = kb.facts.fact(ITEM_FACTS, path, key, build)
    if isinstance(cached, tuple) and len(cached) == 3:
        item.title, item.key_points, item.category = cached
    else:
        describe(kb, item, path)


def describe(kb: KnowledgeBase, item: Item, path: str) -> None:
    """Fill the item's title, key points and category from its file in `kb`."""
    name = path.rsplit("/", 1)[-1]
    item.title = name
    if not path.lower().endswith(MARKDOWN_SUFFIXES):
        return
    if item.kind in CARD_KINDS:
        card = kb.card(path)
        if card is not None:
            item.title = card.title
            category = card.fields.get("category")
            item.category = str(category).strip() if category not in (None, "") else None
            tldr = card.fields.get("tldr")
            if isinstance(tldr, str) and tldr.strip():
                item.key_points = keep_finding(tldr, _KEY_POINTS_LIMIT)
                return
            description = card.fields.get("description")
            if isinstance(description, str) and description.strip():
                item.key_points = keep_finding(description, _KEY_POINTS_LIMIT)
                return
        paragraphs = _prose(kb, path)  # parsed only for a card without a tldr or description
        if paragraphs:
            item.key_points = one_line(paragraphs[0], _KEY_POINTS_LIMIT)
        return
    text = kb.text(path)
    has_fields = text is not None and split_frontmatter(text)[0] is not None
    # without frontmatter, a metadata header (`Title: …`, `Summary: …` lines on top) is the note's fields
    header = header_fields(text) if text is not None and not has_fields else {}
    header_title = header.get("title", "").strip()
    item.title = one_line(header_title or file_title(kb.document(path), path), 80)
    summary = summary_line(cached_split(kb, path, text)[0] if text is not None and has_fields else header,
                           _KEY_POINTS_LIMIT)
    if summary is not None:  # a note's own summary field, as a card's tldr
        item.key_points = summary
        return
    # a summary section, else the first substantive paragraphs, and the method a lead does not reach
    item.key_points = key_text(kb.document(path), text or "", _KEY_POINTS_LIMIT)


def read_text(kb: KnowledgeBase, path: str) -> tuple[str | None, str | None]:
    """(text, why not) of a file in a snapshot: a missing blob (partial clone) is a note, not a crash."""
    text = kb.text(path)
    if text is not None:
        return text, None
    reason = kb.why_unread(path)
    if reason is not None:
        return None, reason
    if kb.snapshot.blob_id(path) is not None:
        return None, "content missing from this clone (partial clone?); judged by its path only"
    return None, "not in the tree"


def _what_changed(base_kb: KnowledgeBase, head_kb: KnowledgeBase, item: Item, path: str, text: str) -> None:
    """For a modification: whether it only kept the note (housekeeping), and as key points what it added."""
    old_path = item.old_path or path
    old_text = base_kb.text(old_path)
    if old_text is None:
        return
    item.housekeeping = is_housekeeping(base_kb.document(old_path), old_text, head_kb.document(path), text,
                                        item.changed_fields, head_kb.config.open_question_heading,
                                        card=item.kind in CARD_KINDS)
    if "body" in item.changed_fields and not item.housekeeping:
        added = [line for line in added_lines(split_frontmatter(old_text)[2], split_frontmatter(text)[2])
                 if not BYLINE.match(line) and not is_placeholder(line)]
        if added:
            item.key_points = one_line(" ".join(added[:_ADDED_SHOWN]), _KEY_POINTS_LIMIT)


# -- items from the diff -------------------------------------------------------------------

def _kind(base_kb: KnowledgeBase, head_kb: KnowledgeBase, change: Change) -> str:
    if change.status == "D":
        return base_kb.kind_of(change.path)
    kind = head_kb.kind_of(change.path)
    if kind == OTHER and change.old_path is not None:
        kind = base_kb.kind_of(change.old_path)
    return kind


def _build(base_kb: KnowledgeBase, head_kb: KnowledgeBase, change: Change | None, path: str, kind: str,
           volatile: tuple[str, ...]) -> Item:
    """One item from its change (None: unchanged between base and head)."""
    if change is None:
        item = Item(path=path, kind=kind, change=MODIFIED, unchanged=True)
    elif change.status == "A":
        item = Item(path=path, kind=kind, change=ADDED)
    elif change.status == "D":
        item = Item(path=path, kind=kind, change=DELETED)
    else:
        old = change.old_path or path
        renamed = change.status == "R"
        blob = head_kb.snapshot.blob_id(path)
        pure = renamed and blob is not None and base_kb.snapshot.blob_id(old) == blob
        item = Item(path=path, kind=kind, change=RENAMED if pure else MODIFIED, old_path=old if renamed else None)
    side = base_kb if item.change == DELETED else head_kb  # a deleted file is read as it was
    text, note = read_text(side, path)
    if text is None:
        item.consumed, item.note = False, note
    if item.change == MODIFIED and not item.unchanged:
        old_text, old_note = read_text(base_kb, item.old_path or path)
        if text is not None and old_text is not None:
            item.changed_fields, item.volatile_only = compare_split(
                cached_split(base_kb, item.old_path or path, old_text), cached_split(side, path, text), volatile)
        else:
            item.compared = False
            if item.consumed:
                item.note = f"previous version: {old_note}"
    if text is not None:
        item.ids = item_ids(side, path, kind)
        described(side, item, path)
        if kind not in (KNOWLEDGE, MANIFEST) and path.lower().endswith((".md", ".markdown")):
            body = split_frontmatter(text)[2]
            item.shape = TEMPLATE if kind in CARD_KINDS and note_shape(path, "") == TEMPLATE else (
                None if kind in CARD_KINDS else note_shape(path, body))
            if kind not in CARD_KINDS and item.shape is None:
                item.stub = _stub(side, path, text)
            if item.change == MODIFIED and item.compared and not item.unchanged and not item.volatile_only:
                _what_changed(base_kb, side, item, path, text)
    else:
        item.title = path.rsplit("/", 1)[-1]
        if kind in CARD_KINDS:  # the file name still says which card it is
            found = side.card_id_of_path(path) if kind == PAPER else None
            item.ids = [CitedId(found[0], found[1])] if found else []
    return item


def diff_items(base_kb: KnowledgeBase, head_kb: KnowledgeBase, changes: list[Change],
               volatile: tuple[str, ...]) -> list[Item]:
    """Every changed card, guide, brief, manifest and living document, `.kbcheck/` left out."""
    from kbcheck.engine import rule_kind

    # one batch from git, not a request each; a file nothing reads (an image matching no glob) is
    # not read at all, so it gives no "binary file" notice
    head_kb.preload(c.path for c in changes if c.status != "D" and rule_kind(head_kb, c.path) is not None)
    base_kb.preload(p for c in changes if c.status != "A" and rule_kind(base_kb, p := c.old_path or c.path) is not None)
    items: list[Item] = []
    for change in changes:
        if is_own(change.path) or is_own(change.old_path):
            continue
        kind = _kind(base_kb, head_kb, change)
        if kind not in ITEM_KINDS:
            continue
        items.append(_build(base_kb, head_kb, change, change.path, kind, volatile))
    return items


def manifest_items(base_kb: KnowledgeBase, head_kb: KnowledgeBase, changes: list[Change], paths: list[str],
                   volatile: tuple[str, ...]) -> tuple[list[Item], list[tuple[str, bool, str | None]]]:
    """The items a manifest lists, and for each listed path whether it was consumed (and why not)."""
    by_path = {c.path: c for c in changes if c.status != "D"}
    items: list[Item] = []
    boundary: list[tuple[str, bool, str | None]] = []
    for path in paths:
        if is_own(path):
            boundary.append((path, False, "kbcheck's own file"))
            continue
        if head_kb.snapshot.blob_id(path) is None:
            boundary.append((path, False, "not in the tree at head"))
            continue
        change = by_path.get(path)
        if change is None and base_kb.snapshot.blob_id(path) is None:
            change = Change("A", path)  # not a regular file at base (e.g. was a symlink): new material
        item = _build(base_kb, head_kb, change, path, head_kb.kind_of(path), volatile)
        items.append(item)
        boundary.append((path, item.consumed, item.note))
    return items, boundary


# -- the manifest file ------------------------------------------------------------------------

def _entry_path(entry: object, number: int, name: str) -> str:
    path = entry if isinstance(entry, str) else entry.get("path") if isinstance(entry, dict) else None
    if isinstance(path, str):
        if "\0" in path:  # no file name holds one, and the OS refuses it
            raise UsageError(_("manifest {name}: entry {number} has a NUL character in its path", name=name,
                               number=number))
        return path
    raise UsageError(_("manifest {name}: entry {number} must be a path string or an object with a \"path\" string",
                       name=name, number=number))


def load_manifest(file: str, root: Path) -> list[str]:
    """The repo-relative paths a manifest lists, in order, without duplicates.

    Accepted shapes: a JSON list of entries, or an object holding that list
    under `items`, `paths` or `files` (the first present); an entry is a path
    string or an object with a `path` string. Paths are repo-relative (an
    absolute path inside the repository is accepted); one outside is an error.
    """
    from kbcheck.errors import KbcheckError
    from kbcheck.files import read_regular

    try:
        found = read_regular(Path(file), _("manifest {file}", file=file), follow=True)  # never blocks on a FIFO
    except KbcheckError as exc:
        raise UsageError(exc.message, path=exc.path, line=exc.line) from None
    if found is None:
        raise UsageError(_("manifest {file} not found", file=file))
    data = found
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise UsageError(_("manifest {file} is not UTF-8 text", file=file)) from None
    except json.JSONDecodeError as exc:
        raise UsageError(_("manifest {file} is not valid JSON (line {line}: {reason})", file=file, line=exc.lineno,
                           reason=exc.msg)) from None
    except RecursionError:
        raise UsageError(_("manifest {file} is not valid JSON (nested too deeply)", file=file)) from None
    entries: object = document
    if isinstance(document, dict):
        key = next((k for k in MANIFEST_KEYS if k in document), None)
        if key is None:
            raise UsageError(_("manifest {file} must be a list of paths, or an object with a list under {keys}", file=file,
                               keys=", ".join(f'"{k}"' for k in MANIFEST_KEYS)))
        entries = document[key]
    if not isinstance(entries, list):
        raise UsageError(_("manifest {file}: the items must be a JSON list", file=file))
    real_root = os.path.realpath(root)
    paths: dict[str, None] = {}
    for number, entry in enumerate(entries, 1):
        raw = _entry_path(entry, number, file).strip()
        if os.path.isabs(raw):
            real = os.path.realpath(raw)
            if real != real_root and not real.startswith(real_root + os.sep):
                raise UsageError(_("manifest {file} names a path outside the repository: {path}", file=file, path=raw))
            raw = Path(os.path.relpath(real, real_root)).as_posix()
        normal = normalise_path(raw.replace("\\", "/"))
        if normal is None:
            raise UsageError(_("manifest {file} names a path outside the repository: {path}", file=file, path=raw))
        paths.setdefault(normal, None)
    return list(paths)
