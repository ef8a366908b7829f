"""Where facts come from: read from a snapshot once, computed by `kbcheck.model.facts`, cached.

The `FactStore` is the only part of a run that reads file content, talks to
the blob cache and decides what stays in memory. Every cached fact is plain
data (`kbcheck.model.plain`) stored under a key naming all it depends on
(`kbcheck.model.facts.fact_key`) with the size of the content it came from:
the size limit is configuration, so a cached fact of a file over the limit is
never served, and the file is skipped as it would be without a cache.

Memory: a full check of 100k files holds one file's parse at a time
(`release`), cards while they are cited (`release_cards`), the cached parses of
one shard of files (`let_go_parses`), and refs as small tuples; a loaded cache
shard holds encoded bytes until an entry is asked.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from kbcheck.i18n import _, kept, restored
from kbcheck.model.cards import Card, parse_card
from kbcheck.model.document import Document
from kbcheck.model.facts import (
    CARD_KINDS,
    BlockRefs,
    ParseSettings,
    block_refs,
    card_facts,
    document_facts,
    fact_key,
    read_text,
)
from kbcheck.model.heads import head_refs
from kbcheck.model.plain import from_plain, to_plain
from kbcheck.model.reads import Reads
from kbcheck.model.recent import Recent

T = TypeVar("T")
M = TypeVar("M")

if TYPE_CHECKING:
    from kbcheck.cache import BlobCache
    from kbcheck.model.citations import Ref
    from kbcheck.sources import Snapshot

#: the cache namespaces: a card's fields (looked up for every card cited) and numbers, a file's
#: refs (read once, for the file itself), parses of documents and of card bodies apart (a run
#: that needs a few briefs then loads no card parses), and the name indexes
CARDS, REFS, DOCS, CARD_DOCS, INDEXES = "card", "refs", "doc", "doc-card", "index"
#: name indexes kept per kind: a digest compares two revisions, a hook follows a third
NAME_INDEXES_KEPT = 3
#: the kind of living documents (`kbcheck.model.knowledge_base.KNOWLEDGE`)
LIVING = "knowledge"
#: with a cache, the texts and parses of this many files (living documents aside) are held at most
TEXTS_HELD, DOCUMENTS_HELD = 2048, 512
#: a namespace's new entries are written once they hold this many bytes (`FactStore.let_go_parses`)
UNWRITTEN_MAX = 4 << 20
#: `uncached` looks at this many files before deciding the cache is warm
_SAMPLE = 64


def _model(cls: type[M]) -> Callable[[object], M | None]:
    """A cached model value (`Card`, `Document`) back as the model; None for another shape."""
    def decode(hit: object) -> M | None:
        try:
            return from_plain(hit, cls)
        except (TypeError, ValueError):
            return None

    return decode


def _of_type(kind: type[T]) -> Callable[[object], T | None]:
    return lambda hit: hit if isinstance(hit, kind) else None


def _as_is(hit: object) -> Any:
    return hit


def _parse_class(kind: str) -> str:
    """What a parse depends on of the kind: a card's body or a whole document."""
    return "card" if kind in CARD_KINDS else "doc"


def _key_blob(key: str) -> str:
    """Where a value kept for no file in particular is placed: the digest of its key, shaped as a blob id."""
    return hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest()


def unread_notice(path: str, reason: str) -> str:
    """The notice that says why `path` has no text (KB000's finding says it too: one is shown)."""
    return _("{path}: {reason}", path=path, reason=reason)


class FactStore:
    """The facts of one snapshot's files, each computed once per content."""

    def __init__(self, snapshot: Snapshot, settings: ParseSettings, max_file_size: int,
                 cache: Callable[[str], BlobCache] | None = None) -> None:
        self.snapshot = snapshot
        self.settings = settings
        self.max_file_size = max_file_size
        #: one line per file that has no text (too big, binary, not UTF-8), and what rules say once a run
        self.notices: list[str] = []
        #: which files' facts the open frames asked for (`kbcheck.model.reads`)
        self.reads = Reads()
        self._cache_factory = cache
        self._caches: dict[str, BlobCache] = {}
        # with a cache, a parse let go is decoded again when asked: a run that reads every note
        # (a digest) holds the last few thousand texts and parses, not all of them
        bounded = cache is not None
        self._texts: Recent[str | None] = Recent(TEXTS_HELD if bounded else None)
        self._sizes: dict[str, int] = {}
        self._unread: dict[str, str] = {}
        self._documents: Recent[Document | None] = Recent(DOCUMENTS_HELD if bounded else None)
        #: living documents' parses, all kept: they are few, large, and asked again and again
        self._living: dict[str, Document | None] = {}
        self._cards: dict[str, Card | None] = {}
        self._refs: dict[str, BlockRefs | None] = {}
        #: the numbers of cards cited as evidence
        self._numbers: dict[str, frozenset[float]] = {}
        #: cache the parse of a card's body when its refs are read, as for any other file: for a
        #: run that reads the same cards' text again (the digest), not for a full check of 100k
        self.keep_card_parses = False

    @property
    def cached(self) -> bool:
        return self._cache_factory is not None

    def _cache(self, namespace: str) -> BlobCache | None:
        if self._cache_factory is None:
            return None
        if namespace not in self._caches:
            self._caches[namespace] = self._cache_factory(namespace)
        return self._caches[namespace]

    # -- text ----------------------------------------------------------------
    def say(self, notice: str) -> None:
        """Add a notice to the run's, once; the open frame records it however often it is said."""
        if notice not in self.notices:
            self.notices.append(notice)
        self.reads.said(notice)

    def _read(self, path: str) -> None:
        """The facts of `path` are asked: the open frame depends on the file, and on its notice when it has no text."""
        self.reads.note(path)
        reason = self._unread.get(path)
        if reason is not None:
            self.say(unread_notice(path, reason))

    def text(self, path: str) -> str | None:
        """A file's text, or None with a one-line notice when it is binary, too big or not UTF-8."""
        self._read(path)
        if path in self._texts:
            return self._texts[path]
        return self._decode(path, self.snapshot.read(path))

    def preload(self, paths: Iterable[tuple[str, str]]) -> None:
        """Read these (path, kind) files' texts in one go (from git, one batch instead of a
        request each); only what a later `text()` would read: cards whose fields and
        numbers are cached are skipped. No more are read than are held (`TEXTS_HELD`): the
        rest would be let go before they are asked, and are read when they are."""
        cache = self._cache(CARDS)
        wanted: list[str] = []
        for path, kind in dict.fromkeys(paths):
            if path in self._texts or path in self._cards:
                continue
            blob = self.snapshot.blob_id(path)
            if cache is not None and blob is not None and kind in CARD_KINDS and (
                cache.has(blob, self._key("card", kind, path)) and cache.has(blob, self._key("numbers", kind, path))
            ):
                continue
            wanted.append(path)
        if self._texts.limit is not None:
            del wanted[self._texts.limit:]
        if len(wanted) > 1:
            found = self.snapshot.read_many(wanted)
            for path in wanted:
                if path in found:
                    self._decode(path, found[path])

    def _decode(self, path: str, data: bytes | None) -> str | None:
        """The one place that decides a file's text (and the notice when it has none)."""
        self.reads.note(path)
        text: str | None = None
        reason: str | None = None
        if data is not None:
            self._sizes[path] = len(data)
            reason = self._over_limit(len(data))
            if reason is None:
                text, reason = read_text(data)
        if reason is not None:
            self._skip(path, reason)
        self._texts[path] = text
        return text

    def text_of(self, data: bytes) -> str | None:
        """The text these bytes are, as `text` decides it (None for none), without a notice."""
        return read_text(data)[0] if self._over_limit(len(data)) is None else None

    def _over_limit(self, size: int) -> str | None:
        if size > self.max_file_size:
            return _("skipped: {size} bytes is over max-file-size ({limit})", size=size, limit=self.max_file_size)
        return None

    def _skip(self, path: str, reason: str) -> None:
        self._unread[path] = reason
        self.say(unread_notice(path, reason))
        self._texts[path] = None

    def _served(self, path: str, hit: object) -> object | None:
        """The value of a cache hit `(size, value)`, or None when it is not one; a file over
        the size limit is skipped here, as reading it would have."""
        if not isinstance(hit, tuple) or len(hit) != 2 or not isinstance(hit[0], int):
            return None
        reason = self._over_limit(hit[0])
        if reason is not None:
            if path not in self._texts:
                self._skip(path, reason)
            return None
        value: object = hit[1]
        return value

    def _through_cache(self, path: str, namespace: str, key: str, decode: Callable[[object], T | None],
                       compute: Callable[[], T | None], encode: Callable[[T], object] | None = None, *,
                       take: bool = False, store: bool = True) -> T | None:
        """The one shape of every cached fact: the cache's entry for the file's blob and `key`,
        decoded; else `compute()` (None when the file has no text), then cached as `encode`
        makes it (plain data) unless `store` is false. `take` lets the loaded shard forget the
        entry (a value a run reads once). An entry of another shape (an older layout) is a miss."""
        cache = self._cache(namespace)
        blob = self.snapshot.blob_id(path)
        if cache is not None and blob is not None:
            hit = self._served(path, cache.take(blob, key) if take else cache.get(blob, key))
            value = decode(hit) if hit is not None else None
            if value is not None:
                return value
        if self._texts.get(path, "") is None:
            return None  # known to have no text
        value = compute()
        if value is not None and store and cache is not None and blob is not None:
            entry = self._entry(path, encode(value) if encode is not None else value)
            if entry is not None:
                cache.put(blob, entry, key)
        return value

    def _with_text(self, path: str, make: Callable[[str], T]) -> T | None:
        text = self.text(path)
        return make(text) if text is not None else None

    def _entry(self, path: str, value: object) -> tuple[int, object] | None:
        """What to cache for a fact just computed from the file's text."""
        size = self._sizes.get(path)
        return (size, value) if size is not None else None

    def why_unread(self, path: str) -> str | None:
        """Why a file read has no text (too big, binary, not UTF-8); None when that is not the reason."""
        self._read(path)
        return self._unread.get(path)


    def _key(self, fact: str, kind: str, path: str | None = None) -> str:
        return fact_key(self.settings, fact, kind, path)

    # -- cards -----------------------------------------------------------------
    def card(self, path: str, kind: str) -> Card | None:
        """The card at a path (None when unreadable); its id and problems depend on the path."""
        self._read(path)
        if path in self._cards:
            return self._cards[path]
        card = self._through_cache(
            path, CARDS, self._key("card", kind, path), _model(Card),
            lambda: self._with_text(path, lambda text: card_facts(path, kind, text, self.settings)),
            # without the text its numbers are read from: `numbers` caches those apart
            lambda card: to_plain(dataclasses.replace(card, number_text=""), Card))
        self._cards[path] = card
        return card

    def numbers(self, card: Card) -> frozenset[float]:
        """Every number the card states (`Card.numbers`), cached apart from the card.

        Only cards cited as evidence for a claim are asked, so the text these
        are read from is not kept with every card: a card loaded from the
        cache without it is read again, once, and the numbers cached.
        """
        self._read(card.path)
        known = self._numbers.get(card.path)
        if known is not None:
            return known
        blob = self.snapshot.blob_id(card.path)
        cache = self._cache(CARDS)
        key = self._key("numbers", card.kind, card.path)
        numbers: frozenset[float] | None = None
        if card.numbers_known or card.number_text:
            numbers = card.numbers
        elif cache is not None and blob is not None:
            hit = self._served(card.path, cache.get(blob, key))
            numbers = hit if isinstance(hit, frozenset) else None
        if numbers is None:
            held = card.path in self._texts
            text = self.text(card.path)
            numbers = parse_card(card.path, card.kind, text, self.settings.roots).numbers if text is not None else frozenset()
            if not held and text is not None:
                del self._texts[card.path]  # read for this only: thousands of evidence cards are not kept
        if cache is not None and blob is not None and not cache.has(blob, key):
            entry = self._entry(card.path, numbers)
            if entry is not None:
                cache.put(blob, entry, key)
        self._numbers[card.path] = numbers
        return numbers

    # -- documents -------------------------------------------------------------
    def document(self, path: str, kind: str, *, store: bool = True) -> Document | None:
        """The parse of any file; for a card, its body with real line numbers.

        `store=False` parses without writing the result to the cache (it is still read from it).
        """
        self._read(path)
        held = self._living if kind == LIVING else self._documents
        if path in held:
            return held[path]
        body_line: int | None = None
        if kind in CARD_KINDS:
            card = self.card(path, kind)
            body_line = card.body_line if card is not None else None
        # cards apart: a run that needs the documents of a few briefs then loads no card parses
        document = self._through_cache(
            path, CARD_DOCS if kind in CARD_KINDS else DOCS, self._key("document", _parse_class(kind)),
            _model(Document),
            lambda: self._with_text(path, lambda text: document_facts(kind, text, self.settings, body_line)),
            lambda document: to_plain(document, Document), store=store)
        held[path] = document
        return document

    def source_refs(self, path: str, kind: str) -> list[Ref] | None:
        """A file's own sources (`Document.source_refs`): from its parse when that is at hand (in
        memory or in the cache), else from its head alone (`kbcheck.model.heads`), without
        parsing the body. None when the file has no text."""
        self._read(path)
        if path not in self._documents and path not in self._living:
            cache = self._cache(CARD_DOCS if kind in CARD_KINDS else DOCS)
            blob = self.snapshot.blob_id(path)
            if cache is None or blob is None or not cache.has(blob, self._key("document", _parse_class(kind))):
                text = self.text(path)
                return head_refs(text, self.settings.patterns, self.settings.roots) if text is not None else None
        document = self.document(path, kind)
        return document.source_refs() if document is not None else None

    def refs(self, path: str, kind: str) -> BlockRefs | None:
        """Each block's refs, aligned with `document(path).blocks`.

        Cached on their own: resolving citations needs nothing else, so a warm
        full check loads these small entries instead of every card's parse.
        """
        self._read(path)
        if path in self._refs:
            return self._refs[path]

        def compute() -> BlockRefs | None:
            # a full check needs only the refs of a card: its whole parse is not worth a cache entry
            keep = kind not in CARD_KINDS or self.keep_card_parses
            document = self.document(path, kind, store=keep)
            if not keep:
                self._documents.pop(path, None)  # parsed for its refs only: do not hold 100k parses
            return block_refs(document) if document is not None else None

        # taken, not kept, from the loaded shard: a file's refs are asked once per run
        value: BlockRefs | None = self._through_cache(path, REFS, self._key("refs", _parse_class(kind)),
                                                      _of_type(tuple), compute, take=True)
        self._refs[path] = value
        return value

    def uncached(self, files: Iterable[tuple[str, str]], *, exact: bool = False) -> list[str]:
        """The paths among these (path, kind) files whose refs are not in the cache: what a
        run would have to parse. Unless `exact`, none when most of the first ones are cached
        (a warm run, which need not look up every file to know it), or when there is no cache."""
        cache = self._cache(REFS)
        if cache is None:
            return [path for path, _kind in files if path not in self._refs] if exact else []
        missing: list[str] = []
        for index, (path, kind) in enumerate(files):
            blob = self.snapshot.blob_id(path)
            if blob is not None and path not in self._refs and not cache.has(blob, self._key("refs", _parse_class(kind))):
                missing.append(path)
            if not exact and index == _SAMPLE - 1 and len(missing) * 2 < _SAMPLE:
                return []  # mostly cached: the run is warm, and need not load every shard up front
        return missing

    # -- facts other parts of kbcheck build -------------------------------------
    def has_fact(self, namespace: str, path: str, key: str) -> bool:
        """True when `fact` would come from the cache (nothing to read for it)."""
        self.reads.note(path)
        cache = self._cache(namespace)
        blob = self.snapshot.blob_id(path)
        return cache is not None and blob is not None and cache.has(blob, key)

    def fact(self, namespace: str, path: str, key: str, build: Callable[[str], T]) -> T | None:
        """A value `build` makes of a file's text (plain data), cached by blob id under `key`,
        which must name everything besides the content that the value depends on. None when
        the file has no text (too big, binary, not UTF-8)."""
        self._read(path)
        return self._through_cache(path, namespace, key, _as_is, lambda: self._with_text(path, build))

    def recorded(self, namespace: str, path: str, key: str) -> object | None:
        """A value `record` kept for the file's blob under `key` (which names everything else it
        depends on, the size limit included), or None."""
        cache = self._cache(namespace)
        blob = self.snapshot.blob_id(path)
        return restored(cache.get(blob, key)) if cache is not None and blob is not None else None

    def record(self, namespace: str, path: str, key: str, value: object) -> None:
        """Keep `value` (plain data) for the file's blob under `key`, for `recorded`."""
        cache = self._cache(namespace)
        blob = self.snapshot.blob_id(path)
        if cache is not None and blob is not None:
            cache.put(blob, kept(value), key)  # messages keep how they were said (`kbcheck.i18n.Text`)

    def recorded_whole(self, namespace: str, key: str) -> object | None:
        """A value `record_whole` kept for the whole snapshot under `key`, or None."""
        cache = self._cache(namespace)
        return restored(cache.get(_key_blob(key), key)) if cache is not None else None

    def record_whole(self, namespace: str, key: str, value: object) -> None:
        """Keep `value` (plain data) for the whole snapshot under `key` (no file's blob: the key's
        own digest places it), replacing what was kept under `key` before."""
        cache = self._cache(namespace)
        if cache is not None:
            cache.put(_key_blob(key), kept(value), key)

    # -- name indexes ------------------------------------------------------------
    def name_index(self, layout: str, names: list[str], build: Callable[[], dict[str, str]]) -> dict[str, str]:
        """An index built from a list of file names, cached for the same list and the same
        `layout` (a digest of everything that decides which of the names count: the kind
        globs, `exclude`). The indexes of the last `NAME_INDEXES_KEPT` lists are kept per
        layout (a digest asks for two revisions); older ones are dropped."""
        digest = hashlib.sha1("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()
        recent_slot = hashlib.sha1(layout.encode("utf-8", "surrogateescape")).hexdigest()
        slot = hashlib.sha1(f"{layout}\0{digest}".encode("utf-8", "surrogateescape")).hexdigest()
        cache = self._cache(INDEXES)
        # taken, not kept, from the loaded shard: 100k names are megabytes, and read once per run
        hit = cache.take(slot) if cache is not None else None
        if isinstance(hit, dict):
            return self._shared(hit)
        index = self._shared(build())
        if cache is not None:
            cache.put(slot, index)
            recent = cache.get(recent_slot)
            kept = [s for s in recent if s != slot] if isinstance(recent, list) else []
            kept.insert(0, slot)
            for old in kept[NAME_INDEXES_KEPT:]:
                cache.drop(old)
            cache.put(recent_slot, kept[:NAME_INDEXES_KEPT])
        return index

    def _shared(self, index: dict[str, str]) -> dict[str, str]:
        """The index with its ids and paths shared with the snapshot's and the other revision's
        (a digest holds two indexes of 100k cards that mostly agree)."""
        if not self.snapshot.interned:
            return index
        return {sys.intern(key): sys.intern(value) for key, value in index.items()}

    # -- memory and processes ------------------------------------------------------
    def release(self, path: str, kind: str) -> None:
        """Forget what was read and parsed for one file (a full check is done with it).

        Cards stay: other files cite them. Anything asked again is read again.
        """
        self._refs.pop(path, None)
        self._sizes.pop(path, None)
        if self._texts.get(path) is not None:
            del self._texts[path]
        self._documents.pop(path, None)  # living documents are few and asked again (mentions, relations)
        if kind in CARD_KINDS:
            self._cards.pop(path, None)

    def release_cards(self) -> None:
        """Forget every card, and every card's text, read so far: a living document of a large
        knowledge base cites thousands as evidence. Each is read again, from the cache, if asked
        again; without a cache they are kept (parsing them again would cost more)."""
        if self._cache_factory is None:
            return
        for path in self._cards:
            if self._texts.get(path) is not None:
                del self._texts[path]
        self._cards.clear()

    def let_go_parses(self) -> None:
        """Let the caches of parses let go of the shards they have loaded (`BlobCache.let_go`): a
        full check that goes shard by shard holds one shard's parses at a time, not every file's.
        What a cold run has learned is written once it is `UNWRITTEN_MAX` bytes, so that a worker
        does not hold the parses and facts of its whole share until it is done. The caches other
        files' facts are looked up in (cards, refs, names) stay loaded."""
        for namespace, cache in self._caches.items():
            if cache.unwritten > UNWRITTEN_MAX:
                cache.flush()
            if namespace in (DOCS, CARD_DOCS):
                cache.let_go()

    def prepare(self) -> None:
        """Build the snapshot's lookups before work is shared out to forked workers."""
        self.snapshot.prepare()

    def after_fork(self) -> None:
        """In a forked worker: stop sharing the parent's reading pipes."""
        self.snapshot.after_fork()

    def forget_loaded(self, prefixes: Collection[str]) -> None:
        """Let the caches re-read these shards from disk (another process has just written them)."""
        for cache in self._caches.values():
            cache.forget(prefixes)

    def flush(self) -> None:
        """Write new cache entries (the only writing a check does, under the git dir)."""
        for cache in self._caches.values():
            cache.flush()
