"""The digest as data: items, where the living documents stand, the whole brief.

Renderers (markdown, JSON) only read these; nothing here knows about git.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kbcheck.findings import Finding

if TYPE_CHECKING:
    from kbcheck.digest.new_page import NewPage
    from kbcheck.suggest.rank import Suggestion

INCREMENT, REVIEW, LIVING_DOC = "increment", "review", "living-doc"
CLASSES = (INCREMENT, REVIEW, LIVING_DOC)
ADDED, MODIFIED, DELETED, RENAMED = "added", "modified", "deleted", "renamed"
PAPER_KINDS = ("arxiv", "doi")


@dataclass(frozen=True, slots=True)
class CitedId:
    """One id an item stands for, in normal form."""

    kind: str  # arxiv | doi | repo
    id: str

    @property
    def display(self) -> str:
        """How a brief writes it: `arXiv:2610.02076`, `doi:10.1/x`, `owner/repo`."""
        if self.kind == "arxiv":
            return f"arXiv:{self.id}"
        if self.kind == "doi":
            return f"doi:{self.id}"
        return self.id


@dataclass
class IdStatus:
    """Where the living documents (summed over all of them) stand on one id."""

    in_references: bool = False
    entry_mentions: int = 0
    meta_mentions: int = 0
    #: body sections that mention it, in document order
    sections: list[str] = field(default_factory=list)
    #: reference sections that list it (for the markdown: "in §七")
    reference_sections: list[str] = field(default_factory=list)
    #: ordinary body sections that mention it (for "re-check the entry in §…")
    entry_sections: list[str] = field(default_factory=list)

    @property
    def cited_no_entry(self) -> bool:
        return self.in_references and self.entry_mentions == 0

    @property
    def meta_only(self) -> bool:
        return self.meta_mentions > 0 and self.entry_mentions == 0

    def add(self, other: IdStatus) -> None:
        self.in_references = self.in_references or other.in_references
        self.entry_mentions += other.entry_mentions
        self.meta_mentions += other.meta_mentions
        for name in other.sections:
            if name not in self.sections:
                self.sections.append(name)
        for mine, theirs in ((self.reference_sections, other.reference_sections),
                             (self.entry_sections, other.entry_sections)):
            for name in theirs:
                if name not in mine:
                    mine.append(name)

    def to_json(self) -> dict[str, Any]:
        return {
            "in_references": self.in_references,
            "entry_mentions": self.entry_mentions,
            "meta_mentions": self.meta_mentions,
            "sections": list(self.sections),
        }


@dataclass
class ItemStatus:
    """An item's standing: the sum over its ids, and each id's own."""

    total: IdStatus
    per_id: dict[str, IdStatus]

    @property
    def cited_no_entry(self) -> bool:
        return any(s.cited_no_entry for s in self.per_id.values())

    @property
    def meta_only(self) -> bool:
        return any(s.meta_only for s in self.per_id.values())

    def to_json(self) -> dict[str, Any]:
        data = self.total.to_json()
        data["per_id"] = {ident: status.to_json() for ident, status in self.per_id.items()}
        return data


@dataclass
class Item:
    """One changed (or listed) file of the knowledge base, as the digest judges it."""

    path: str
    kind: str
    change: str
    old_path: str | None = None
    ids: list[CitedId] = field(default_factory=list)
    #: frontmatter field -> [old, new]; "body" -> None when the text below it changed
    changed_fields: dict[str, Any] = field(default_factory=dict)
    #: a modification in which nothing but volatile fields changed
    volatile_only: bool = False
    #: unchanged between base and head (only a manifest lists such a path)
    unchanged: bool = False
    title: str = ""
    key_points: str = ""
    category: str | None = None
    #: content read (false: missing blob in a partial clone, binary, not UTF-8)
    consumed: bool = True
    #: for a modification: both versions were read and compared
    compared: bool = True
    note: str | None = None
    # -- decided by classify --------------------------------------------------
    cls: str = REVIEW
    reason: str = ""
    status: ItemStatus | None = None
    #: card cautions (abstract only, few citations, mismatched counts, refresh not new)
    cautions: list[str] = field(default_factory=list)
    #: the cautions, then the rule findings that concern the item
    warnings: list[str] = field(default_factory=list)
    #: for an increment: the living documents' sections it most likely belongs to
    suggested_sections: list[Suggestion] = field(default_factory=list)
    #: guides, cards and briefs about the same thing
    related: list[Related] = field(default_factory=list)
    #: a new paper card of a years-old paper: the collector back-filling, not news
    backfilled: bool = False
    #: bookkeeping the note is (`changelog`, `todo`, `template`; `kbcheck.digest.gist`), else None
    shape: str | None = None
    #: a modification of state only: dates, status markers, open questions (`kbcheck.digest.housekeeping`)
    housekeeping: bool = False
    #: a note with no prose of its own yet: a title, links, code or the abstract only (`kbcheck.digest.gist.is_stub`)
    stub: bool = False
    #: a review item because the knowledge base has no living document to fold it into: a note to read
    unfolded: bool = False
    #: an added note's own date, when it is years before the commit that added it (restored material)
    restored: str | None = None
    #: an added or moved note that is a list of links to notes (an index page), not a note
    index_page: bool = False
    #: the note an added note nearly copies (`kbcheck.digest.near_copy`), else None
    copy_of: str | None = None
    #: a review item because the living documents already discuss it
    digested: bool = False
    #: for an increment: living documents it links that do not exist yet (`kbcheck.digest.new_page`)
    new_pages: list[NewPage] = field(default_factory=list)
    #: files at head with a broken link to the item's old place: a deleted note's path, a moved one's
    #: `old_path` (`kbcheck.digest.dangling`)
    still_linked: list[str] = field(default_factory=list)
    #: for a moved folder page: files at head with a broken link into its old folder
    linked_into_folder: list[str] = field(default_factory=list)

    @property
    def cited_no_entry(self) -> bool:
        return self.status is not None and self.status.cited_no_entry

    @property
    def meta_only(self) -> bool:
        return self.status is not None and self.status.meta_only


@dataclass(frozen=True)
class Related:
    """A file of the knowledge base about the same thing as an item, and why."""

    path: str
    why: str


@dataclass(frozen=True)
class MergeAction:
    """One thing a maintainer does to fold the digest into a living document."""

    priority: int
    action: str
    path: str
    section: str


@dataclass(frozen=True)
class BoundaryEntry:
    """One path the digest was asked to consume, and whether it did."""

    path: str
    consumed: bool
    note: str | None = None


@dataclass
class Digest:
    """Everything a renderer needs."""

    base: str
    head: str
    base_date: str
    head_date: str
    items: list[Item]
    findings_new: list[Finding]
    findings_resolved: list[Finding]
    boundary: list[BoundaryEntry]
    living_documents: list[str]
    manifest: str | None = None
    notices: list[str] = field(default_factory=list)
    #: paper id -> title, for the citable-ids list
    titles: dict[str, str] = field(default_factory=dict)
    #: arXiv ids that have a paper card at head: only those are citable (KB004 flags the rest)
    carded: set[str] = field(default_factory=set)
    #: the knowledge base keeps paper cards (false: KB004 is not evaluated, every arXiv id is citable)
    has_paper_cards: bool = True
    #: the language its reasons and cautions are written in
    lang: str = "zh"
    #: in priority order: cited-no-entry, untraced trend lines, new entries, number updates
    merge_actions: list[MergeAction] = field(default_factory=list)

    def of_class(self, cls: str) -> list[Item]:
        return [item for item in self.items if item.cls == cls]

    @property
    def counts(self) -> dict[str, int]:
        return {cls: len(self.of_class(cls)) for cls in CLASSES}

    @property
    def citable_ids(self) -> list[CitedId]:
        seen: dict[str, CitedId] = {}
        for item in self.of_class(INCREMENT):
            for cited in item.ids:
                if cited.kind in PAPER_KINDS and (
                        cited.kind != "arxiv" or not self.has_paper_cards or cited.id in self.carded):
                    seen.setdefault(cited.id, cited)
        return list(seen.values())
