"""The knowledge base at one point in time: its files by kind, documents, cards, ids.

Everything is read lazily from a snapshot (working tree, index or commit) and
parsed once per git blob id; a `--staged` run that touches two files reads
little more than those two files and the cards they cite.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import marshal
import pickle
import posixpath
import re
import sys
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kbcheck.globs import GlobSet, globset
from kbcheck.model.cards import PAPER, REPO, Card, file_id, paper_id_from_stem, parse_card
from kbcheck.model.document import Document, HeadingPatterns, parse_document

if TYPE_CHECKING:
    from kbcheck.cache import BlobCache
    from kbcheck.config import Config
    from kbcheck.sources import Snapshot

KNOWLEDGE, BRIEF, GUIDE, MANIFEST, OTHER = "knowledge", "brief", "guide", "manifest", "other"
MARKDOWN_KINDS = frozenset({KNOWLEDGE, PAPER, REPO, BRIEF, GUIDE})
_WILDCARD = re.compile(r"[*?\[]")
#: an old-style card name keeps `math.GT/0309136` as `math-gt-0309136`: the `-gt` may be a subject class
_SUBJECT_CLASS = re.compile(r"^([a-z][a-z-]*)-([a-z]{2})/")
#: a `citations.Ref` as a plain tuple: (kind, value, line, column, form)
RefTuple = tuple[str, str, int, int, str]


@dataclass(frozen=True, slots=True)
class Citation:
    """A resolved citation: what it cites, where, and the card behind it if any."""

    kind: str  # arxiv | doi | repo
    id: str
    line: int
    column: int
    card_path: str | None = None
    #: true when the citation is a path or link to the card file itself
    via_path: bool = False
    #: the note linked in its place, when a link to a note stands for the one id the note is about
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """A source without a card: a web page (`url`) or a document of the knowledge base (`document`)."""

    kind: str
    target: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class BrokenPath:
    """A relative link or knowledge-base path to nothing in the checked tree (KB009)."""

    line: int
    column: int
    written: str
    target: str | None  # None: it points outside the repository


@dataclass(frozen=True, slots=True)
class KbFile:
    """A selected file and its kind."""

    path: str
    kind: str


@dataclass
class Resolved:
    """A document's refs resolved against the knowledge base."""

    #: citations per block, aligned with `Document.blocks`
    block_citations: list[list[Citation]]
    broken_paths: list[BrokenPath]
    #: web links and links to documents of the knowledge base, per block
    block_links: list[list[Link]] = dataclasses.field(default_factory=list)
    #: the frontmatter's citations and links: sources of the whole file
    own_citations: list[Citation] = dataclasses.field(default_factory=list)
    own_links: list[Link] = dataclasses.field(default_factory=list)


_CARD_FIELDS = tuple(f.name for f in dataclasses.fields(Card))
#: the cache namespaces of the small per-blob values: a card's fields and numbers (looked up
#: for every card cited), and a file's refs (read once, for the file itself)
CARDS, REFS = "card", "refs"
#: name indexes kept per kind: a digest compares two revisions, a hook follows a third
_NAME_INDEXES_KEPT = 3
#: cached values are marshalled without back-references (version 2): from version 3 on,
#: marshal writes one for every object something else also holds, so a name index built
#: from shared path strings loaded in twice the time (100k names: 53 ms, not 25 ms)
_MARSHAL = 2
#: `uncached` looks at this many files before deciding the cache is warm
_SAMPLE = 64


def _pack_card(card: Card) -> bytes:
    """A card as compact bytes for the cache: its values without field names, zlib-compressed,
    and without the text its numbers are read from (`KnowledgeBase.card_numbers` keeps those)."""
    values = tuple(b"" if name == "number_text" else getattr(card, name) for name in _CARD_FIELDS)
    return zlib.compress(pickle.dumps(values, pickle.HIGHEST_PROTOCOL), 1)


def _unpack_card(packed: bytes) -> Card | None:
    try:
        values = pickle.loads(zlib.decompress(packed))
        if not isinstance(values, tuple) or len(values) != len(_CARD_FIELDS):
            return None
        return Card(*values)
    except Exception:
        return None


def static_prefix(glob: str) -> str:
    """The folder part of a glob before its first wildcard: `organized/paper_cards/`."""
    parts = glob.split("/")
    prefix: list[str] = []
    for part in parts[:-1]:
        if _WILDCARD.search(part):
            break
        prefix.append(part)
    return "/".join(prefix) + "/" if prefix else ""


def decode_markdown(data: bytes) -> str:
    """Bytes to text with `\\n` line ends; a UTF-8 BOM is dropped. Raises UnicodeDecodeError."""
    text = data.decode("utf-8-sig")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class KnowledgeBase:
    """Lazy, cached access to the knowledge base as data."""

    def __init__(self, snapshot: Snapshot, config: Config,
                 cache: Callable[[str], BlobCache] | None = None) -> None:
        self.snapshot = snapshot
        self.config = config
        self.notices: list[str] = []
        self._cache_factory = cache
        self._caches: dict[str, BlobCache] = {}
        self._kinds: dict[str, str] = {}
        self._texts: dict[str, str | None] = {}
        self._unread: dict[str, str] = {}
        self._documents: dict[str, Document | None] = {}
        self._cards: dict[str, Card | None] = {}
        self._resolved: dict[str, Resolved] = {}
        self._block_refs: dict[str, tuple[tuple[RefTuple, ...], ...] | None] = {}
        #: the numbers of cards cited as evidence (`card_numbers`)
        self._numbers: dict[str, frozenset[float]] = {}
        #: per-document results shared by several rules (mentions, claim verdicts)
        self.memo: dict[tuple[str, str], Any] = {}
        self._paper_index: dict[str, str] | None = None
        self._repo_index: dict[str, str] | None = None
        self._file_names: dict[str, list[str]] | None = None
        self._note_ids: dict[str, tuple[str, str] | None] = {}
        self.patterns = HeadingPatterns(config.reference_heading, config.trend_heading, config.open_question_heading)
        kind_globs = (config.knowledge, config.paper_cards, config.repo_cards, config.briefs, config.guides, config.manifests)
        self.roots = tuple(sorted({g.split("/", 1)[0] for globs in kind_globs for g in globs
                                   if "/" in g and not _WILDCARD.search(g.split("/", 1)[0])}))
        self._kind_order = (
            (KNOWLEDGE, config.knowledge), (PAPER, config.paper_cards), (REPO, config.repo_cards),
            (BRIEF, config.briefs), (GUIDE, config.guides), (MANIFEST, config.manifests),
        )
        self._doc_key = "\0".join((config.fingerprint(), *self.roots))
        self._kind_sets: tuple[tuple[str, GlobSet], ...] | None = None
        self._exclude_set = globset(())

    # -- files --------------------------------------------------------------
    def kind_of(self, path: str) -> str:
        """The first of living document, paper card, repo card, brief, guide, manifest that matches."""
        kind = self._kinds.get(path)
        if kind is None:
            if self._kind_sets is None:  # compiled once: this runs for every file of the knowledge base
                self._kind_sets = tuple((name, globset(globs)) for name, globs in self._kind_order)
                self._exclude_set = globset(self.config.exclude)
            kind = OTHER
            if not self._exclude_set.match(path):
                for name, kind_set in self._kind_sets:
                    if kind_set.match(path):
                        kind = name
                        break
            self._kinds[path] = kind
        return kind

    def paths_of_kind(self, *kinds: str) -> list[str]:
        """Every snapshot path of these kinds (prefix-filtered before glob matching)."""
        globs_by_kind = dict(self._kind_order)
        prefixes = tuple({static_prefix(g) for k in kinds for g in globs_by_kind.get(k, ())})
        return [p for p in self.snapshot.paths() if p.startswith(prefixes) and self.kind_of(p) in kinds]

    def text(self, path: str) -> str | None:
        """A file's text, or None with a one-line notice when it is binary, too big or not UTF-8."""
        if path in self._texts:
            return self._texts[path]
        return self._decode(path, self.snapshot.read(path))

    def preload(self, paths: Iterable[str]) -> None:
        """Read these files' texts in one go (from git, one batch instead of a request each).

        Only what a later `text()` would read: files already read, and cards
        whose summary and numbers are cached, are skipped.
        """
        cache = self._cache(CARDS)
        wanted: list[str] = []
        for path in dict.fromkeys(paths):
            if path in self._texts or path in self._cards:
                continue
            blob = self.snapshot.blob_id(path)
            kind = self.kind_of(path)
            if cache is not None and blob is not None and kind in (PAPER, REPO) and (
                cache.get(blob, self._card_key(kind)) is not None and cache.get(blob, self._numbers_key(kind)) is not None
            ):
                continue
            wanted.append(path)
        if len(wanted) > 1:
            found = self.snapshot.read_many(wanted)
            for path in wanted:
                if path in found:
                    self._decode(path, found[path])

    def _decode(self, path: str, data: bytes | None) -> str | None:
        """The one place that decides a file's text (and the notice when it has none)."""
        text: str | None = None
        reason: str | None = None
        if data is None:
            pass
        elif len(data) > self.config.max_file_size:
            reason = f"skipped: {len(data)} bytes is over max-file-size ({self.config.max_file_size})"
        elif b"\0" in data:
            reason = "skipped: binary file (contains NUL bytes)"
        else:
            try:
                text = decode_markdown(data)
            except UnicodeDecodeError as exc:
                reason = f"skipped: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        if reason is not None:
            self._unread[path] = reason
            self.notices.append(f"{path}: {reason}")
        self._texts[path] = text
        return text

    def why_unread(self, path: str) -> str | None:
        """Why a file read has no text (too big, binary, not UTF-8); None when that is not the reason."""
        return self._unread.get(path)

    def _cache(self, namespace: str) -> BlobCache | None:
        if self._cache_factory is None:
            return None
        if namespace not in self._caches:
            self._caches[namespace] = self._cache_factory(namespace)
        return self._caches[namespace]

    def _cached(self, namespace: str, path: str, key: str, build: Callable[[str], Any], store: bool = True) -> Any:
        """The value `build` makes of a file's text, cached by blob id, each entry pickled on its own.

        A shard then holds compact bytes, and only the entries a run asks
        for become objects (a shard holds many files' parses).
        """
        blob = self.snapshot.blob_id(path)
        cache = self._cache(namespace)
        if cache is not None and blob is not None:
            hit = cache.get(blob, key)
            if isinstance(hit, bytes):
                try:
                    return pickle.loads(hit)
                except Exception:
                    pass
        text = self.text(path)
        if text is None:
            return None
        value = build(text)
        if store and cache is not None and blob is not None:
            cache.put(blob, pickle.dumps(value, pickle.HIGHEST_PROTOCOL), key)
        return value

    def flush(self) -> None:
        """Write new cache entries (the only writing a check does, under the git dir)."""
        for cache in self._caches.values():
            cache.flush()

    # -- documents and cards -------------------------------------------------
    def document(self, path: str, *, store: bool = True) -> Document | None:
        """The parsed markdown of any file; for a card, its body with real line numbers.

        `store=False` parses without writing the result to the cache (it is still read from it).
        """
        if path not in self._documents:
            kind = self.kind_of(path)
            offset = 0
            if kind in (PAPER, REPO):
                card = self.card(path)
                offset = (card.body_line - 1) if card is not None else 0

            is_card = kind in (PAPER, REPO)

            def build(text: str) -> Document:
                body = "\n".join(text.split("\n")[offset:]) if offset else text
                return parse_document(body, self.patterns, roots=self.roots,
                                      uncertainty_markers=self.config.uncertainty_markers, line_offset=offset,
                                      claims=not is_card)

            # cards apart: a run that needs the documents of a few briefs then loads no card parses
            namespace = "doc-card" if is_card else "doc"
            self._documents[path] = self._cached(namespace, path, f"{self._doc_key}\0{offset}", build, store)
        return self._documents[path]

    def block_refs(self, path: str) -> tuple[tuple[RefTuple, ...], ...] | None:
        """Each block's refs as (kind, value, line, column, form), aligned with `document(path).blocks`.

        Cached on their own, as one `marshal`led bytes value per file: `resolve`
        needs nothing else, so a warm full check loads these small entries
        instead of the full parse of every card, and holds them compactly.
        """
        if path not in self._block_refs:
            key = self._refs_key(path)
            blob = self.snapshot.blob_id(path)
            cache = self._cache(REFS)
            # taken, not kept, from the loaded shard: a file's refs are asked once per run
            packed = cache.take(blob, key) if cache is not None and blob is not None else None
            value: tuple[tuple[RefTuple, ...], ...] | None = None
            if isinstance(packed, bytes):
                try:
                    value = marshal.loads(packed)
                except (ValueError, EOFError, TypeError):
                    value = None
            if value is None:
                # a full check needs only the refs of a card: its whole parse is not worth a cache entry
                is_card = self.kind_of(path) in (PAPER, REPO)
                doc = self.document(path, store=not is_card)
                if is_card:
                    self._documents.pop(path, None)  # parsed for its refs only: do not hold 100k parses
                if doc is not None:
                    value = tuple(tuple((r.kind, r.value, r.line, r.column, r.form) for r in block.refs)
                                  for block in doc.blocks)
                    if cache is not None and blob is not None:
                        cache.put(blob, marshal.dumps(value, _MARSHAL), key)
            self._block_refs[path] = value
        return self._block_refs[path]

    def release(self, path: str) -> None:
        """Forget what was read and parsed for one file (a full check is done with it).

        Cards stay: other files cite them. Anything asked again is read again.
        """
        self._block_refs.pop(path, None)
        self._resolved.pop(path, None)
        if self._texts.get(path) is not None:
            del self._texts[path]
        kind = self.kind_of(path)
        if kind != KNOWLEDGE:  # living documents are few and asked again (mentions, relations)
            self._documents.pop(path, None)
        if kind in (PAPER, REPO):
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

    def _refs_key(self, path: str) -> str:
        return f"{self._doc_key}\0{'card' if self.kind_of(path) in (PAPER, REPO) else 'doc'}"

    def uncached(self, paths: Iterable[str]) -> list[str]:
        """The paths among these whose refs are not in the cache: what a run would have to parse."""
        cache = self._cache(REFS)
        if cache is None:
            return []
        missing: list[str] = []
        for index, path in enumerate(paths):
            blob = self.snapshot.blob_id(path)
            if blob is not None and path not in self._block_refs and cache.get(blob, self._refs_key(path)) is None:
                missing.append(path)
            if index == _SAMPLE - 1 and len(missing) * 2 < _SAMPLE:
                return []  # mostly cached: the run is warm, and need not load every shard up front
        return missing

    def prepare_for_workers(self) -> None:
        """Build the indexes every file's check needs before forking, so no worker builds its own."""
        self.paper_index()
        self.repo_index()
        self.snapshot.prepare()

    def forget_loaded(self, prefixes: Iterable[str]) -> None:
        """Let the caches re-read these shards from disk (another process has just written them)."""
        wanted = set(prefixes)
        for cache in self._caches.values():
            cache.forget(wanted)

    def _card_key(self, kind: str) -> str:
        return f"{kind}\0{','.join(self.roots)}"

    def _numbers_key(self, kind: str) -> str:
        return f"numbers\0{self._card_key(kind)}"

    def card(self, path: str) -> Card | None:
        """The parsed card at a path (None when unreadable)."""
        if path not in self._cards:
            kind = self.kind_of(path)
            key = self._card_key(kind)
            blob = self.snapshot.blob_id(path)
            cache = self._cache(CARDS)
            card: Card | None = None
            # cached pickled one by one: a full check of 100k cards then holds compact bytes, and
            # unpickles (and releases) each card as its turn comes
            packed = cache.get(blob, key) if cache is not None and blob is not None else None
            if isinstance(packed, bytes):
                card = _unpack_card(packed)
            if card is None:
                text = self.text(path)
                if text is not None:
                    card = parse_card(path, kind, text, self.roots)
                    if cache is not None and blob is not None:
                        cache.put(blob, _pack_card(card), key)
            self._cards[path] = card
        return self._cards[path]

    def card_numbers(self, card: Card) -> frozenset[float]:
        """Every number the card states (`Card.numbers`), cached apart from the card.

        Only cards cited as evidence for a claim are asked, so the text these
        are read from is not kept with every card: a card loaded from the
        cache without it is read again, once, and the numbers cached.
        """
        known = self._numbers.get(card.path)
        if known is not None:
            return known
        blob = self.snapshot.blob_id(card.path)
        cache = self._cache(CARDS)
        key = self._numbers_key(card.kind)
        numbers: frozenset[float] | None = None
        if card.numbers_known or card.number_text:
            numbers = card.numbers
        elif cache is not None and blob is not None:
            hit = cache.get(blob, key)
            numbers = hit if isinstance(hit, frozenset) else None
        if numbers is None:
            held = card.path in self._texts
            text = self.text(card.path)
            numbers = parse_card(card.path, card.kind, text, self.roots).numbers if text is not None else frozenset()
            if not held and text is not None:
                del self._texts[card.path]  # read for this only: thousands of evidence cards are not kept
        if cache is not None and blob is not None and cache.get(blob, key) is None:
            cache.put(blob, numbers, key)
        self._numbers[card.path] = numbers
        return numbers

    def cards(self, kinds: Iterable[str] = (PAPER, REPO)) -> list[Card]:
        return [c for c in (self.card(p) for p in self.paths_of_kind(*kinds)) if c is not None]

    # -- ids -------------------------------------------------------------------
    def _name_index(self, kind: str, build: Callable[[list[str]], dict[str, str]]) -> dict[str, str]:
        """An index built from the names of one kind's files, cached for the same list of names.

        The list is only the paths under the kind's folders (no glob matching,
        no card opened), so a staged run in a large knowledge base reads the
        index instead of matching and parsing 100k file names. The indexes of
        the last `_NAME_INDEXES_KEPT` lists are kept per kind (a digest asks
        for two revisions); older ones are dropped.
        """
        prefixes = tuple({static_prefix(g) for g in dict(self._kind_order).get(kind, ())})
        names = self.snapshot.paths_under(prefixes)
        digest = hashlib.sha1("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()
        recent_slot = hashlib.sha1(f"{self._doc_key}\0{kind}".encode("utf-8", "surrogateescape")).hexdigest()
        slot = hashlib.sha1(f"{self._doc_key}\0{kind}\0{digest}".encode("utf-8", "surrogateescape")).hexdigest()
        cache = self._cache("index")
        # taken, not kept, from the loaded shard: 100k names are megabytes, and read once per run
        hit = cache.take(slot) if cache is not None else None
        if isinstance(hit, bytes):
            try:
                stored = marshal.loads(hit)
                if isinstance(stored, dict):
                    return self._shared(stored)
            except (ValueError, EOFError, TypeError):
                pass
        index = self._shared(build([p for p in names if self.kind_of(p) == kind]))
        if cache is not None:
            cache.put(slot, marshal.dumps(index, _MARSHAL))
            recent = cache.get(recent_slot)
            kept = [s for s in recent if s != slot] if isinstance(recent, list) else []
            kept.insert(0, slot)
            for old in kept[_NAME_INDEXES_KEPT:]:
                cache.drop(old)
            cache.put(recent_slot, kept[:_NAME_INDEXES_KEPT])
        return index

    def _shared(self, index: dict[str, str]) -> dict[str, str]:
        """The index with its ids and paths shared with the snapshot's and the other revision's
        (a digest holds two indexes of 100k cards that mostly agree)."""
        if not self.snapshot.interned:
            return index
        return {sys.intern(key): sys.intern(value) for key, value in index.items()}

    def paper_index(self) -> dict[str, str]:
        """arXiv id -> paper card path, from file names (no card is opened)."""
        if self._paper_index is None:
            def build(paths: list[str]) -> dict[str, str]:
                index: dict[str, str] = {}
                for path in paths:
                    stem = file_id(path, PAPER)
                    arxiv_id = paper_id_from_stem(stem) if stem else None
                    if arxiv_id is not None:
                        index.setdefault(arxiv_id, path)
                        if _SUBJECT_CLASS.match(arxiv_id):
                            index.setdefault(_SUBJECT_CLASS.sub(r"\1.\2/", arxiv_id), path)
                return index

            self._paper_index = self._name_index(PAPER, build)
        return self._paper_index

    def repo_index(self) -> dict[str, str]:
        """`owner-repo` file stem -> repo card path."""
        if self._repo_index is None:
            def build(paths: list[str]) -> dict[str, str]:
                index: dict[str, str] = {}
                for path in paths:
                    stem = file_id(path, REPO)
                    if stem is not None:
                        index.setdefault(stem, path)
                return index

            self._repo_index = self._name_index(REPO, build)
        return self._repo_index

    def paper_card_path(self, arxiv_id: str) -> str | None:
        return self.paper_index().get(arxiv_id) or self.paper_index().get(arxiv_id.lower())

    def repo_card_path(self, repo: str) -> str | None:
        """The repo card for `owner/repo`, confirmed by its frontmatter when it has one."""
        path = self.repo_index().get(repo.replace("/", "-"))
        if path is None:
            return None
        card = self.card(path)
        if card is not None and card.id is not None and card.id != repo:
            return None
        return path

    def card_id_of_path(self, path: str) -> tuple[str, str] | None:
        """(kind, id) of the card at a path: paper ids from the file name, repo ids from frontmatter."""
        kind = self.kind_of(path)
        if kind == PAPER:
            stem = file_id(path, PAPER)
            arxiv_id = paper_id_from_stem(stem) if stem else None
            if arxiv_id is None:
                card = self.card(path)
                arxiv_id = card.id if card is not None else None
            elif _SUBJECT_CLASS.match(arxiv_id):  # `math-gt` or `hep-th`: the card says which
                card = self.card(path)
                if card is not None and card.id and not card.problems:
                    arxiv_id = card.id
            return ("arxiv", arxiv_id) if arxiv_id else None
        if kind == REPO:
            card = self.card(path)
            if card is not None and card.id:
                return "repo", card.id
            stem = file_id(path, REPO)
            return ("repo", stem) if stem else None
        return None

    def card_for(self, citation: Citation) -> Card | None:
        return self.card(citation.card_path) if citation.card_path else None

    def nearest_paper_ids(self, arxiv_id: str, n: int = 1) -> list[str]:
        """Card ids closest to an unknown id (a typo or a fabricated id)."""
        index = self.paper_index()
        same_month = [i for i in index if i[:4] == arxiv_id[:4]] or list(index)
        return difflib.get_close_matches(arxiv_id, same_month, n=n, cutoff=0.7)

    # -- resolution ------------------------------------------------------------
    def resolve(self, path: str) -> Resolved:
        """Turn a document's refs into citations, links and broken paths."""
        if path in self._resolved:
            return self._resolved[path]
        block_refs = self.block_refs(path)
        resolved = Resolved([], [])
        if block_refs is None:
            self._resolved[path] = resolved
            return resolved
        base = posixpath.dirname(path)
        for refs in block_refs:
            citations: list[Citation] = []
            links: list[Link] = []
            for kind, value, line, column, form in refs:
                self._resolve_ref(base, kind, value, line, column, form, citations, links, resolved.broken_paths)
            resolved.block_citations.append(citations)
            resolved.block_links.append(links)
        if self.kind_of(path) not in (PAPER, REPO, MANIFEST):  # a card's frontmatter is its fields
            doc = self.document(path)
            for ref in doc.own_refs if doc is not None else ():
                self._resolve_ref(base, ref.kind, ref.value, ref.line, ref.column, ref.form,
                                  resolved.own_citations, resolved.own_links, resolved.broken_paths)
        self._resolved[path] = resolved
        return resolved

    def _resolve_ref(self, base: str, kind: str, value: str, line: int, column: int, form: str,
                     citations: list[Citation], links: list[Link], broken: list[BrokenPath]) -> None:
        """One ref: a citation, a link without a card, a broken path, or nothing."""
        if kind == "arxiv":
            citations.append(Citation("arxiv", value, line, column, self.paper_card_path(value)))
        elif kind == "doi":
            citations.append(Citation("doi", value, line, column))
        elif kind in ("repo", "repo_name"):
            card_path = self.repo_card_path(value)
            if kind == "repo" or card_path is not None:
                citations.append(Citation("repo", value, line, column, card_path))
        elif kind == "url":
            if form in ("link", "text"):
                links.append(Link("url", value, line, column))
        elif kind in ("path", "wikilink"):
            target: str | None
            if form == "front":
                # a path in frontmatter is a source when it names a file here; else it is metadata
                found = [t for t in (self.resolve_path("", value, "text"), self.resolve_path(base, value, "link"))
                         if t and self.snapshot.exists(t)]
                if not found:
                    return
                target = found[0]
            elif kind == "wikilink":
                target = self.file_named(value, base)
                if target is None and value.isdigit():
                    return  # `[[12]]`: a numbered reference in brackets (converted papers), not a note
                if target is None:
                    broken.append(BrokenPath(line, column, f"[[{value}]]", f"[[{value}]]"))
                    return
            else:
                target = self.resolve_path(base, value, form)
                if form == "link" and value.split("/", 1)[0] in self.roots and (
                    target is None or not self.snapshot.exists(target)
                ):
                    # a linked knowledge-base path (`organized/...`) cites like a bare one
                    target = self.resolve_path("", value, "text")
                if form == "link" and target and "." not in posixpath.basename(target) and (
                    not self.snapshot.exists(target) and self.snapshot.exists(target + ".md")
                ):
                    target += ".md"  # `[note](2015-adam)` links the note, as wikis and site generators read it
                if target is None or not self.snapshot.exists(target):
                    broken.append(BrokenPath(line, column, value, target))
                    return
            if form in ("image", "embed") or target is None:
                return
            card_id = self.card_id_of_path(target)
            if card_id is not None:
                citations.append(Citation(card_id[0], card_id[1], line, column, target, via_path=True))
                return
            links.append(Link("document", target, line, column))
            stands_for = self.note_id(target)
            if stands_for is not None:
                card_path = self.paper_card_path(stands_for[1]) if stands_for[0] == "arxiv" else None
                citations.append(Citation(stands_for[0], stands_for[1], line, column, card_path, note=target))

    def file_named(self, name: str, base: str = "") -> str | None:
        """The file a wikilink names: `name` is a markdown file's name without `.md` (or a file's
        full name, or a path ending), found anywhere in the knowledge base; the nearest to `base`
        wins when several share the name."""
        if self._file_names is None:
            names: dict[str, list[str]] = {}
            for p in self.snapshot.paths():
                file_name = posixpath.basename(p)
                names.setdefault(file_name.casefold(), []).append(p)
                if file_name.endswith(".md"):
                    names.setdefault(file_name[:-3].casefold(), []).append(p)
            self._file_names = names
        name = name.strip().strip("/")
        key = posixpath.basename(name).casefold()
        candidates = self._file_names.get(key) or self._file_names.get(key + ".md") or []
        if "/" in name:
            tail = name.casefold()
            candidates = [p for p in candidates if p.casefold().removesuffix(".md").endswith(tail)
                          or p.casefold().endswith(tail)]
        if not candidates:
            return None
        return max(candidates, key=lambda p: (len(posixpath.commonpath([base, posixpath.dirname(p)]))
                                              if base else 0, -len(p)))

    def note_id(self, path: str) -> tuple[str, str] | None:
        """(kind, id) when the note at `path` is about one source: its frontmatter and title heading
        name exactly one id of the kinds reference lists compare. A link to it stands for that id."""
        if path in self._note_ids:
            return self._note_ids[path]
        found: tuple[str, str] | None = None
        if path.endswith(".md") and self.kind_of(path) not in (PAPER, REPO, MANIFEST):
            doc = self.document(path)
            kinds = set(self.config.reference_kinds)
            ids = {(ref.kind, ref.value) for ref in (doc.source_refs() if doc is not None else ())
                   if ref.kind in kinds}
            if len(ids) == 1:
                found = next(iter(ids))
        self._note_ids[path] = found
        return found

    @staticmethod
    def resolve_path(base: str, written: str, form: str) -> str | None:
        """A repo-relative path for a link (from the linking file) or a bare path (from the root).

        None when it leaves the repository: such a path is reported, never read.
        """
        if written.startswith("/"):
            joined = written.lstrip("/")
        elif form in ("link", "image"):
            joined = posixpath.join(base, written)
        else:
            joined = written
        normal = posixpath.normpath(joined)
        if normal == "." :
            return ""
        if normal == ".." or normal.startswith("../") or posixpath.isabs(normal):
            return None
        return normal
