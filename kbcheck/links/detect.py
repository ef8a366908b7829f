"""What `kbcheck init` can tell about a knowledge base's links by looking at it.

An Obsidian vault (its `.obsidian/` settings folder, or notes that link
mostly with `[[wikilinks]]`), an MkDocs or mdbook site (`mkdocs.yml`,
`book.toml`, and the folder each serves), and folders the repository ignores
on purpose that notes link into (`raw/` in `.gitignore`, holding the papers'
PDFs). Each is a setting with the reason it was chosen, which init writes as
a comment above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.i18n import _, listing
from kbcheck.links.site import MDBOOK, MKDOCS, OBSIDIAN, site_root_in_tree
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck import git
    from kbcheck.sources import Snapshot

#: how much of each note is read to count its links, and how many notes at most
_HEAD_BYTES = 32 * 1024
_MAX_NOTES = 2000
_WIKILINK = lazy(r"(?<!!)\[\[[^\[\]\n|#]+")
_MARKDOWN_LINK = lazy(r"\]\((?!https?:|mailto:|#)[^)\s]+\)")
#: a relative target in a link or frontmatter value: its first folder is what is asked about
_TARGET = lazy(r"(?:\]\(|:\s*['\"]?)(?:\./|\.\./)*([\w.-]+)/")


@dataclass(frozen=True)
class Found:
    """A setting `kbcheck init` writes, and why."""

    key: str
    value: object
    why: str


def detect_links(snapshot: Snapshot, repo: git.Repository | None) -> list[Found]:
    """The link settings the repository shows, each with the reason."""
    found: list[Found] = []
    renderer, why = _renderer(snapshot)
    if renderer:
        found.append(Found("link-renderer", renderer, why))
        root = site_root_in_tree(snapshot, renderer)
        if root:
            found.append(Found("site-root", root, _("the folder {renderer} serves: `/x` links are read from {root}/",
                                                    renderer=renderer, root=root)))
    local = _local_folders(snapshot, repo)
    if local:
        listed = listing(_("{folder}/ ({count} links)", folder=folder, count=count) for folder, count in local)
        found.append(Found("local-paths", [f"{folder}/**" for folder, _count in local],
                           _("ignored by .gitignore and linked from the notes: {listed}", listed=listed)))
    return found


def _notes(snapshot: Snapshot) -> dict[str, str]:
    """The head of each markdown file (a sample of them in a very large knowledge base)."""
    paths = [p for p in snapshot.paths() if p.endswith(".md")]
    step = max(1, len(paths) // _MAX_NOTES)
    chosen = paths[::step]
    return {p: data[:_HEAD_BYTES].decode("utf-8", "replace") for p, data in snapshot.read_many(chosen).items()}


def _renderer(snapshot: Snapshot) -> tuple[str, str]:
    if snapshot.exists(".obsidian") or (snapshot.root / ".obsidian").is_dir():
        return OBSIDIAN, _("an Obsidian vault (.obsidian/): links resolve from the vault's root or by name")
    if snapshot.exists("mkdocs.yml") or snapshot.exists("mkdocs.yaml"):
        return MKDOCS, _("an MkDocs site (mkdocs.yml)")
    if snapshot.exists("book.toml"):
        return MDBOOK, _("an mdbook (book.toml)")
    notes = _notes(snapshot)
    wiki = sum(1 for text in notes.values() if _WIKILINK.search(text))
    plain = sum(1 for text in notes.values() if _MARKDOWN_LINK.search(text))
    if wiki >= 5 and wiki > 2 * plain:
        return OBSIDIAN, _("{wiki} of {notes} notes link with [[wikilinks]] ({plain} with relative markdown "
                           "links): links resolve by name, as in Obsidian", wiki=wiki, notes=len(notes), plain=plain)
    return "", ""


def _local_folders(snapshot: Snapshot, repo: git.Repository | None) -> list[tuple[str, int]]:
    """Top folders the repository ignores that notes link into, with how many links."""
    if repo is None:
        return []
    from kbcheck import git as git_module
    from kbcheck.errors import GitError

    try:
        status, out = git_module.run(repo, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
                                     "--directory", check=False)
    except GitError:
        return []
    if status != 0:
        return []
    ignored = {entry.strip("/").split("/", 1)[0] for entry in out.decode("utf-8", "replace").split("\0")
               if entry.strip("/") and not entry.startswith(".")}
    if not ignored:
        return []
    counts = dict.fromkeys(sorted(ignored), 0)
    for text in _notes(snapshot).values():
        for m in _TARGET.finditer(text):
            if m.group(1) in counts:
                counts[m.group(1)] += 1
    return [(folder, count) for folder, count in counts.items() if count]
