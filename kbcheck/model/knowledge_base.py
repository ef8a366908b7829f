"""The knowledge base at one point in time: its files by kind, documents, cards, ids.

Everything is read lazily from a snapshot (working tree, index or commit) and
parsed once per git blob id; a `--staged` run that touches two files reads
little more than those two files and the cards they cite.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kbcheck.globs import globset
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
        self._documents: dict[str, Document | None] = {}
        self._cards: dict[str, Card | None] = {}
        self._resolved: dict[str, Resolved] = {}
        #: per-document results shared by several rules (mentions, claim verdicts)
        self.memo: dict[tuple[str, str], Any] = {}
        self._paper_index: dict[str, str] | None = None
        self._repo_index: dict[str, str] | None = None
        self.patterns = HeadingPatterns(config.reference_heading, config.trend_heading, config.open_question_heading)
        kind_globs = (config.knowledge, config.paper_cards, config.repo_cards, config.briefs, config.guides, config.manifests)
        self.roots = tuple(sorted({g.split("/", 1)[0] for globs in kind_globs for g in globs
                                   if "/" in g and not _WILDCARD.search(g.split("/", 1)[0])}))
        self._kind_order = (
            (KNOWLEDGE, config.knowledge), (PAPER, config.paper_cards), (REPO, config.repo_cards),
            (BRIEF, config.briefs), (GUIDE, config.guides), (MANIFEST, config.manifests),
        )
        self._doc_key = "\0".join((config.fingerprint(), *self.roots))

    # -- files --------------------------------------------------------------
    def kind_of(self, path: str) -> str:
        """The first of living document, paper card, repo card, brief, guide, manifest that matches."""
        kind = self._kinds.get(path)
        if kind is None:
            kind = OTHER
            if not globset(self.config.exclude).match(path):
                for name, globs in self._kind_order:
                    if globset(globs).match(path):
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
        data = self.snapshot.read(path)
        text: str | None = None
        if data is None:
            pass
        elif len(data) > self.config.max_file_size:
            self.notices.append(f"{path}: skipped: {len(data)} bytes is over max-file-size ({self.config.max_file_size})")
        elif b"\0" in data:
            self.notices.append(f"{path}: skipped: binary file (contains NUL bytes)")
        else:
            try:
                text = decode_markdown(data)
            except UnicodeDecodeError as exc:
                self.notices.append(f"{path}: skipped: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})")
        self._texts[path] = text
        return text

    def _cache(self, namespace: str) -> BlobCache | None:
        if self._cache_factory is None:
            return None
        if namespace not in self._caches:
            self._caches[namespace] = self._cache_factory(namespace)
        return self._caches[namespace]

    def _cached(self, namespace: str, path: str, key: str, build: Callable[[str], Any]) -> Any:
        blob = self.snapshot.blob_id(path)
        cache = self._cache(namespace)
        if cache is not None and blob is not None:
            hit = cache.get(blob, key)
            if hit is not None:
                return hit
        text = self.text(path)
        if text is None:
            return None
        value = build(text)
        if cache is not None and blob is not None:
            cache.put(blob, value, key)
        return value

    def flush(self) -> None:
        """Write new cache entries (the only writing a check does, under the git dir)."""
        for cache in self._caches.values():
            cache.flush()

    # -- documents and cards -------------------------------------------------
    def document(self, path: str) -> Document | None:
        """The parsed markdown of any file; for a card, its body with real line numbers."""
        if path not in self._documents:
            kind = self.kind_of(path)
            offset = 0
            if kind in (PAPER, REPO):
                card = self.card(path)
                offset = (card.body_line - 1) if card is not None else 0

            def build(text: str) -> Document:
                body = "\n".join(text.split("\n")[offset:]) if offset else text
                return parse_document(body, self.patterns, roots=self.roots,
                                      uncertainty_markers=self.config.uncertainty_markers, line_offset=offset)

            self._documents[path] = self._cached("doc", path, f"{self._doc_key}\0{offset}", build)
        return self._documents[path]

    def card(self, path: str) -> Card | None:
        """The parsed card at a path (None when unreadable)."""
        if path not in self._cards:
            kind = self.kind_of(path)
            roots = self.roots
            self._cards[path] = self._cached(
                "card", path, f"{kind}\0{','.join(roots)}",
                lambda text: parse_card(path, kind, text, roots),
            )
        return self._cards[path]

    def cards(self, kinds: Iterable[str] = (PAPER, REPO)) -> list[Card]:
        return [c for c in (self.card(p) for p in self.paths_of_kind(*kinds)) if c is not None]

    # -- ids -------------------------------------------------------------------
    def paper_index(self) -> dict[str, str]:
        """arXiv id -> paper card path, from file names (no card is opened)."""
        if self._paper_index is None:
            index: dict[str, str] = {}
            for path in self.paths_of_kind(PAPER):
                stem = file_id(path, PAPER)
                arxiv_id = paper_id_from_stem(stem) if stem else None
                if arxiv_id is not None:
                    index.setdefault(arxiv_id, path)
                    if _SUBJECT_CLASS.match(arxiv_id):
                        index.setdefault(_SUBJECT_CLASS.sub(r"\1.\2/", arxiv_id), path)
            self._paper_index = index
        return self._paper_index

    def repo_index(self) -> dict[str, str]:
        """`owner-repo` file stem -> repo card path."""
        if self._repo_index is None:
            index: dict[str, str] = {}
            for path in self.paths_of_kind(REPO):
                stem = file_id(path, REPO)
                if stem is not None:
                    index.setdefault(stem, path)
            self._repo_index = index
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
        """Turn a document's refs into citations and broken paths."""
        if path in self._resolved:
            return self._resolved[path]
        doc = self.document(path)
        resolved = Resolved([], [])
        if doc is None:
            self._resolved[path] = resolved
            return resolved
        base = posixpath.dirname(path)
        for block in doc.blocks:
            citations: list[Citation] = []
            for ref in block.refs:
                if ref.kind == "arxiv":
                    citations.append(Citation("arxiv", ref.value, ref.line, ref.column, self.paper_card_path(ref.value)))
                elif ref.kind == "doi":
                    citations.append(Citation("doi", ref.value, ref.line, ref.column))
                elif ref.kind in ("repo", "repo_name"):
                    card_path = self.repo_card_path(ref.value)
                    if ref.kind == "repo" or card_path is not None:
                        citations.append(Citation("repo", ref.value, ref.line, ref.column, card_path))
                elif ref.kind == "path":
                    target = self.resolve_path(base, ref.value, ref.form)
                    if ref.form == "link" and ref.value.split("/", 1)[0] in self.roots and (
                        target is None or not self.snapshot.exists(target)
                    ):
                        # a linked knowledge-base path (`organized/...`) cites like a bare one (SPEC 1)
                        target = self.resolve_path("", ref.value, "text")
                    if target is None or not self.snapshot.exists(target):
                        resolved.broken_paths.append(BrokenPath(ref.line, ref.column, ref.value, target))
                        continue
                    card_id = self.card_id_of_path(target)
                    if card_id is not None:
                        citations.append(Citation(card_id[0], card_id[1], ref.line, ref.column, target, via_path=True))
            resolved.block_citations.append(citations)
        self._resolved[path] = resolved
        return resolved

    @staticmethod
    def resolve_path(base: str, written: str, form: str) -> str | None:
        """A repo-relative path for a link (from the linking file) or a bare path (from the root).

        None when it leaves the repository: such a path is reported, never read.
        """
        if written.startswith("/"):
            joined = written.lstrip("/")
        elif form == "link":
            joined = posixpath.join(base, written)
        else:
            joined = written
        normal = posixpath.normpath(joined)
        if normal == "." :
            return ""
        if normal == ".." or normal.startswith("../") or posixpath.isabs(normal):
            return None
        return normal
