"""The knowledge base at one point in time, as a view over its files' facts.

Rules and the digest read files by kind, documents, cards, ids and resolved
citations here. Where the facts come from (a snapshot read once, a cache
keyed by blob id, worker processes) is `kbcheck.model.store.FactStore`'s business:
a `--staged` run that touches two files reads little more than those two
files and the cards they cite.
"""

from __future__ import annotations

import bisect
import difflib
import hashlib
import posixpath
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import unquote

from kbcheck.globs import GlobSet, globset
from kbcheck.links.near import NearNames
from kbcheck.links.site import OBSIDIAN, Site, page_variants, site_of
from kbcheck.model.cards import PAPER, REPO, Card, file_id, paper_id_from_stem
from kbcheck.model.citations import scan_prose
from kbcheck.model.document import Document, HeadingPatterns
from kbcheck.model.facts import BlockRefs, ParseSettings, RefTuple, decode_markdown
from kbcheck.model.ids import same_work
from kbcheck.model.reads import QUESTION, question
from kbcheck.model.store import REFS, FactStore
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.cache import BlobCache
    from kbcheck.config import Config
    from kbcheck.sources import Snapshot

T = TypeVar("T")
KNOWLEDGE, BRIEF, GUIDE, MANIFEST, OTHER = "knowledge", "brief", "guide", "manifest", "other"
MARKDOWN_KINDS = frozenset({KNOWLEDGE, PAPER, REPO, BRIEF, GUIDE})
_WILDCARD = lazy(r"[*?\[]")
#: an old-style card name keeps `math.GT/0309136` as `math-gt-0309136`: the `-gt` may be a subject class
_SUBJECT_CLASS = lazy(r"^([a-z][a-z-]*)-([a-z]{2})/")
#: the cache key of `names_kbcheck` (it depends on the text alone)
DIRECTIVE_WORD_KEY = "may-hold-disables"
#: the cache key of `note_id`, before what else it depends on
NOTE_ID_KEY = "note-id"


def _names_kbcheck(text: str) -> bool:
    from kbcheck.model.disables import MAY_HOLD

    return MAY_HOLD.search(text) is not None
__all__ = ["BlockRefs", "RefTuple", "decode_markdown"]


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
    #: how it was written: `link`/`image` (from the file), `text`/`code` (from the root), `wiki`
    form: str = "link"


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
    block_links: list[list[Link]] = field(default_factory=list)
    #: the frontmatter's citations and links: sources of the whole file
    own_citations: list[Citation] = field(default_factory=list)
    own_links: list[Link] = field(default_factory=list)


def static_prefix(glob: str) -> str:
    """The folder part of a glob before its first wildcard: `organized/paper_cards/` (a leading
    `/`, which anchors a glob to the root as in .gitignore, names no folder)."""
    parts = glob.lstrip("/").split("/")
    prefix: list[str] = []
    for part in parts[:-1]:
        if _WILDCARD.search(part):
            break
        prefix.append(part)
    return "/".join(prefix) + "/" if prefix else ""



#: how many ids on each side of an unknown id, in order, `nearest_paper_ids` compares it with
#: (a month of up to twice as many is compared whole)
_NEXT_IN_ORDER = 32


def _one_edit_away(text: str) -> Iterator[str]:
    """Every string one digit changed, inserted or dropped, or two neighbours swapped, from `text`."""
    for i in range(len(text) + 1):
        for digit in "0123456789":
            yield text[:i] + digit + text[i:]
            if i < len(text):
                yield text[:i] + digit + text[i + 1:]
        if i < len(text):
            yield text[:i] + text[i + 1:]
        if i + 1 < len(text):
            yield text[:i] + text[i + 1] + text[i] + text[i + 2:]


class KnowledgeBase:
    """The knowledge base as data: files by kind, their facts, ids and resolved citations."""

    def __init__(self, snapshot: Snapshot, config: Config,
                 cache: Callable[[str], BlobCache] | None = None, *, facts: FactStore | None = None) -> None:
        self.snapshot = snapshot
        self.config = config
        self._file_names: dict[str, list[str]] | None = None
        self._site: Site | None = None
        self._note_ids: dict[str, tuple[str, str] | None] = {}
        self.patterns = HeadingPatterns(config.reference_heading, config.trend_heading, config.open_question_heading)
        kind_globs = (config.knowledge, config.paper_cards, config.repo_cards, config.briefs, config.guides, config.manifests)
        self.roots = tuple(sorted({g.split("/", 1)[0] for globs in kind_globs for g in globs
                                   if "/" in g and not _WILDCARD.search(g.split("/", 1)[0])}))
        settings = ParseSettings(self.patterns, self.roots, tuple(config.uncertainty_markers))
        #: where every fact of every file comes from
        self.facts = facts if facts is not None else FactStore(snapshot, settings, config.max_file_size, cache)
        self._kinds: dict[str, str] = {}
        #: path -> its resolution and the files it read
        self._resolved: dict[str, tuple[Resolved, frozenset[str]]] = {}
        #: path -> what was derived from it, by the function that derived it
        self._derived: dict[str, dict[Callable[[KnowledgeBase, str], Any], tuple[Any, frozenset[str]]]] = {}
        self._paper_index: dict[str, str] | None = None
        self._repo_index: dict[str, str] | None = None
        #: sorted paper ids by month (their first four characters); "" holds them all
        self._paper_months: dict[str, list[str]] | None = None
        self._kind_order = (
            (KNOWLEDGE, config.knowledge), (PAPER, config.paper_cards), (REPO, config.repo_cards),
            (BRIEF, config.briefs), (GUIDE, config.guides), (MANIFEST, config.manifests),
        )
        #: what decides a path's kind: a name index is valid for these and its list of names only
        self._layout = hashlib.sha1(repr((self._kind_order, tuple(config.exclude), settings.key)).encode(
            "utf-8", "surrogateescape")).hexdigest()
        self._kind_sets: tuple[tuple[str, GlobSet], ...] | None = None
        self._exclude_set = globset(())
        self._of_kinds: dict[tuple[str, ...], list[str]] = {}
        self._listing_digest: str | None = None
        self._near: NearNames | None = None

    @property
    def notices(self) -> list[str]:
        """One line per file read that has no text (too big, binary, not UTF-8)."""
        return self.facts.notices

    def say(self, notice: str) -> None:
        """A notice for the run, said once however many files say it (`FactStore.say`)."""
        self.facts.say(notice)

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
        """Every snapshot path of these kinds (prefix-filtered before glob matching), in snapshot order;
        remembered, as a digest asks for the same kinds from several places."""
        self.facts.reads.note(question("every"))
        known = self._of_kinds.get(kinds)
        if known is None:
            globs_by_kind = dict(self._kind_order)
            prefixes = tuple({static_prefix(g) for k in kinds for g in globs_by_kind.get(k, ())})
            known = [p for p in self.snapshot.paths() if p.startswith(prefixes) and self.kind_of(p) in kinds]
            self._of_kinds[kinds] = known
        return list(known)

    def tracked(self, path: str) -> bool:
        """Whether the repository holds the file (or a folder with files under it): `Snapshot.tracked`,
        noted as a read of the path."""
        self.facts.reads.note(path)
        return self.snapshot.tracked(path)

    def near_file(self, written: str, *, by_name: bool) -> str | None:
        """The one file a broken link most likely meant (`kbcheck.links.near.NearNames`): by a
        wikilink's name, or by the path it leads to; noted as a question, not as the whole listing."""
        self.facts.reads.note(question("near", "name" if by_name else "path", written))
        if self._near is None:
            self._near = NearNames(self.snapshot.every_path(), self.snapshot.tracked)
        return self._near.named(written) if by_name else self._near.meant(written)

    def answer(self, read: str) -> str:
        """What a noted read finds now (`kbcheck.model.reads`): a path's blob id and whether the
        repository holds it, or a question's answer. Equal answers, equal facts."""
        if not read.startswith(QUESTION):
            return f"{self.snapshot.blob_id(read) or ''}{'' if self.snapshot.tracked(read) else '?'}"
        kind, *args = read[1:].split("\0")
        if kind == "paper":
            return self.paper_card_path(args[0]) or ""
        if kind == "repo":
            return self.repo_card_path(args[0]) or ""
        if kind == "papers":
            return "1" if self.has_paper_cards() else ""
        if kind == "nearest":
            return "\n".join(self.nearest_paper_ids(args[0], int(args[1])))
        if kind == "named":
            return self.file_named(args[0], args[1]) or ""
        if kind == "near":
            return self.near_file(args[1], by_name=args[0] == "name") or ""
        # "every": the whole listing
        if self._listing_digest is None:
            self._listing_digest = hashlib.sha1("\n".join(self.snapshot.every_path()).encode(
                "utf-8", "surrogateescape")).hexdigest()
        return self._listing_digest

    def has_kind(self, kind: str) -> bool:
        """True when some snapshot path is of this kind: stops at the first (a hook asks it of 10k files)."""
        self.facts.reads.note(question("every"))
        prefixes = tuple({static_prefix(g) for g in dict(self._kind_order).get(kind, ())})
        return any(p.startswith(prefixes) and self.kind_of(p) == kind for p in self.snapshot.paths())

    def text(self, path: str) -> str | None:
        """A file's text, or None with a one-line notice when it is binary, too big or not UTF-8."""
        return self.facts.text(path)

    def preload(self, paths: Iterable[str]) -> None:
        """Read these files in one go (one batch from git, not a request each) where their facts are not cached."""
        self.facts.preload((path, self.kind_of(path)) for path in paths)

    def why_unread(self, path: str) -> str | None:
        """Why a file read has no text (too big, binary, not UTF-8); None when that is not the reason."""
        return self.facts.why_unread(path)

    def names_kbcheck(self, path: str) -> bool:
        """Whether the file's text may hold a disable comment (kbcheck's, or another linter's it says
        it does not read): without `<!-- kbcheck`, `<!-- markdownlint` or `<!-- vale` it holds none.
        Cached by blob id, so a warm run knows without reading the file."""
        return bool(self.facts.fact(REFS, path, DIRECTIVE_WORD_KEY, _names_kbcheck))

    def derived(self, compute: Callable[[KnowledgeBase, str], T], path: str) -> T:
        """`compute(self, path)`, once per run: a result several rules read (claim verdicts, mentions).
        Served again, it counts as reading the files it was worked out from (`kbcheck.model.reads`)."""
        of_path = self._derived.setdefault(path, {})
        if compute not in of_path:
            of_path[compute] = self._with_reads(lambda: compute(self, path))
        value, paths = of_path[compute]
        self.facts.reads.note_all(paths)
        return value  # type: ignore[no-any-return]

    def _with_reads(self, work: Callable[[], T]) -> tuple[T, frozenset[str]]:
        """`work()` and the files it read."""
        reads = self.facts.reads
        frame = reads.open()
        try:
            value = work()
        finally:
            reads.close(frame)
        return value, frozenset(frame.paths)

    def forget(self, path: str) -> None:
        """Forget what was derived from one file (a full check is done with it): a file of 100k
        claim numbers is not held on through the files after it."""
        self._resolved.pop(path, None)
        self._derived.pop(path, None)

    # -- documents and cards -------------------------------------------------
    def document(self, path: str, *, store: bool = True) -> Document | None:
        """The parsed markdown of any file; for a card, its body with real line numbers.

        `store=False` parses without writing the result to the cache (it is still read from it).
        """
        return self.facts.document(path, self.kind_of(path), store=store)

    def block_refs(self, path: str) -> BlockRefs | None:
        """Each block's refs as (kind, value, line, column, form), aligned with `document(path).blocks`."""
        return self.facts.refs(path, self.kind_of(path))

    def card(self, path: str) -> Card | None:
        """The parsed card at a path (None when unreadable)."""
        return self.facts.card(path, self.kind_of(path))

    def card_numbers(self, card: Card) -> frozenset[float]:
        """Every number the card states (`Card.numbers`)."""
        return self.facts.numbers(card)

    # -- ids -------------------------------------------------------------------
    def _name_index(self, kind: str, build: Callable[[list[str]], dict[str, str]]) -> dict[str, str]:
        """An index built from the names of one kind's files.

        The names are only the paths under the kind's folders (no glob
        matching, no card opened), so a staged run in a large knowledge base
        reads the cached index instead of matching and parsing 100k file names.
        """
        prefixes = tuple({static_prefix(g) for g in dict(self._kind_order).get(kind, ())})
        names = self.snapshot.paths_under(prefixes)
        return self.facts.name_index(f"{self._layout}\0{kind}", names,
                                     lambda: build([p for p in names if self.kind_of(p) == kind]))

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

    def has_paper_cards(self) -> bool:
        self.facts.reads.note(question("papers"))
        return bool(self.paper_index())

    def paper_card_path(self, arxiv_id: str) -> str | None:
        self.facts.reads.note(question("paper", arxiv_id))
        return self.paper_index().get(arxiv_id) or self.paper_index().get(arxiv_id.lower())

    def repo_card_path(self, repo: str) -> str | None:
        """The repo card for `owner/repo`, confirmed by its frontmatter when it has one."""
        self.facts.reads.note(question("repo", repo))
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

    def nearest_paper_ids(self, arxiv_id: str, n: int = 1) -> list[str]:
        """Card ids closest to an unknown id (a typo or a fabricated id), in its month.

        Compared only with a bounded set of candidates: the card ids one edit away and the
        64 ids next to it in order, so a month of up to 64 cards is compared whole (difflib against every card of a month was 5 million
        comparisons for 1,000 made-up ids among 5,000 cards).
        """
        self.facts.reads.note(question("nearest", arxiv_id, str(n)))
        if self._paper_months is None:
            months: dict[str, list[str]] = {"": sorted(self.paper_index())}
            for known in months[""]:
                months.setdefault(known[:4], []).append(known)
            self._paper_months = months
        month = arxiv_id[:4] if arxiv_id[:4] in self._paper_months else ""
        ids = self._paper_months[month]
        at = bisect.bisect_left(ids, arxiv_id)
        start = max(0, min(at - _NEXT_IN_ORDER, len(ids) - 2 * _NEXT_IN_ORDER))  # a small month: all of it
        candidates = set(ids[start:start + 2 * _NEXT_IN_ORDER])
        known_ids = self.paper_index()
        candidates.update(i for i in _one_edit_away(arxiv_id) if i in known_ids and i.startswith(month))
        return difflib.get_close_matches(arxiv_id, sorted(candidates), n=n, cutoff=0.7)

    # -- resolution ------------------------------------------------------------
    def resolve(self, path: str) -> Resolved:
        """Turn a document's refs into citations, links and broken paths."""
        if path not in self._resolved:
            self._resolved[path] = self._with_reads(lambda: self._resolve(path))
        resolved, paths = self._resolved[path]
        self.facts.reads.note_all(paths)
        return resolved

    def _resolve(self, path: str) -> Resolved:
        block_refs = self.block_refs(path)
        resolved = Resolved([], [])
        if block_refs is None:
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
        return resolved

    def resolve_refs(self, path: str, refs: Iterable[tuple[str, str, str]]) -> tuple[list[Citation], list[Link]]:
        """Refs as (kind, value, form), written in `path`, resolved as its blocks' are (broken ones
        dropped), without the ids linked notes stand for: those need every linked note read."""
        base = posixpath.dirname(path)
        citations: list[Citation] = []
        links: list[Link] = []
        for kind, value, form in refs:
            self._resolve_ref(base, kind, value, 0, 0, form, citations, links, [], note_ids=False)
        return citations, links

    def _resolve_ref(self, base: str, kind: str, value: str, line: int, column: int, form: str,
                     citations: list[Citation], links: list[Link], broken: list[BrokenPath],
                     *, note_ids: bool = True) -> None:
        """One ref: a citation, a link without a card, a broken path, or nothing."""
        kind, value = same_work(kind, value)  # every consumer sees one id per work
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
                         if t and self.tracked(t)]
                if not found:
                    return
                target = found[0]
            elif kind == "wikilink":
                target = self.file_named(value, base)
                if target is None and "%" in value:
                    target = self.file_named(unquote(value), base)  # `[[Semantic%20Segmentation]]`
                if target is None and value.isdigit():
                    return  # `[[12]]`: a numbered reference in brackets (converted papers), not a note
                if target is None:
                    broken.append(BrokenPath(line, column, f"[[{value}]]", f"[[{value}]]", "wiki"))
                    return
            elif form in ("link", "image"):
                target = self.link_target(base, value)
                if target is None or not self.tracked(target):
                    broken.append(BrokenPath(line, column, value, target, form))
                    meant = self.resolve_path("", value, "text") if value.split("/", 1)[0] in self.roots else None
                    if meant is None or not self.tracked(meant):
                        return
                    # `[卡](organized/...)` from elsewhere: broken as written, but it says which card it cites
                    target = meant
            else:
                target = self.resolve_path(base, value, form)
                if target is None or not self.tracked(target):
                    broken.append(BrokenPath(line, column, value, target, form))
                    return
            if form in ("image", "embed") or target is None:
                return
            card_id = self.card_id_of_path(target)
            if card_id is not None:
                citations.append(Citation(card_id[0], card_id[1], line, column, target, via_path=True))
                return
            links.append(Link("document", target, line, column))
            stands_for = self.note_id(target) if note_ids else None
            if stands_for is not None:
                card_path = self.paper_card_path(stands_for[1]) if stands_for[0] == "arxiv" else None
                citations.append(Citation(stands_for[0], stands_for[1], line, column, card_path, note=target))

    @property
    def site(self) -> Site:
        """How the knowledge base's renderer resolves links (`kbcheck.links.site`)."""
        if self._site is None:
            self._site = site_of(self.snapshot, self.config)
        return self._site

    def link_target(self, base: str, written: str) -> str | None:
        """Where a markdown link from folder `base` leads, as the renderer reads it: from the file
        (`/x` from the site's root), a note without its `.md`, a site page by its `.html` or index;
        in Obsidian also from the vault's root or by name. None when it leaves the repository."""
        site = self.site
        if written.startswith("/"):
            target = self.resolve_path(site.root, written.lstrip("/"), "link")
        else:
            target = self.resolve_path(base, written, "link")
        if target is None or self.tracked(target):
            return target
        for variant in page_variants(target, site):
            if self.tracked(variant):
                return variant
        if site.renderer == OBSIDIAN:
            from_root = self.resolve_path("", written, "text")
            if from_root is not None and self.tracked(from_root):
                return from_root
            named = self.file_named(unquote(written), base) if "/" not in written.strip("/") else None
            if named is not None:
                return named
        return target

    def file_named(self, name: str, base: str = "") -> str | None:
        """The file a wikilink names: `name` is a markdown file's name without `.md` (or a file's
        full name, or a path ending), found anywhere in the knowledge base; the nearest to `base`
        wins when several share the name."""
        self.facts.reads.note(question("named", name, base))
        if self._file_names is None:
            names: dict[str, list[str]] = {}
            for p in self.snapshot.every_path():  # an excluded file is still there to link to
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
            self.facts.reads.note(path)
            return self._note_ids[path]
        found: tuple[str, str] | None = None
        kind = self.kind_of(path)
        if path.endswith(".md") and kind not in (PAPER, REPO, MANIFEST):
            # it depends on the text, its kind, the parse settings and the compared kinds alone: cached
            # by blob id (a value of () is "none"), so a warm run neither reads nor scans the note
            key = "\0".join((NOTE_ID_KEY, self.facts.settings.key, kind, *self.config.reference_kinds))
            cached = self.facts.fact(REFS, path, key, lambda _text: self._own_id(path, kind))
            if isinstance(cached, tuple) and len(cached) == 2:
                found = (str(cached[0]), str(cached[1]))
        self._note_ids[path] = found
        return found

    def _own_id(self, path: str, kind: str) -> tuple[str, str] | tuple[()]:
        """`note_id` worked out from the note itself; () when it names no one id."""
        if not self._names_an_id(path):
            return ()
        kinds = set(self.config.reference_kinds)
        ids = {same_work(ref.kind, ref.value) for ref in self.facts.source_refs(path, kind) or () if ref.kind in kinds}
        arxiv = [found for found in ids if found[0] == "arxiv"]
        if len(ids) == 2 and len(arxiv) == 1 and any(found[0] == "doi" for found in ids):
            return arxiv[0]  # one arXiv id beside one publisher DOI: the preprint and its version of record
        return next(iter(ids)) if len(ids) == 1 else ()

    def _names_an_id(self, path: str) -> bool:
        """Whether the note's text holds an id of the compared kinds anywhere: one that holds none
        stands for none, and is not parsed for it. A wiki's pages link thousands of notes, most of
        them concept and entity pages without an id; parsing each in every worker that links it
        cost more than the check itself."""
        text = self.text(path)
        if text is None:
            return False
        kinds = self.config.reference_kinds
        found, _masked = scan_prose(text, self.roots, kinds)
        return any(kind in kinds for _offset, kind, _value, _form in found)

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
