"""Which renderer shows the knowledge base, and so how its markdown links resolve.

GitHub (the default) resolves a link from the linking file and `/x` from the
repository root. Obsidian finds a link's target as a path from the vault's
root, from the file, or by its name alone (its shortest-path links). MkDocs
serves `docs_dir` (`mkdocs.yml`, default `docs`) and mdbook serves `src`
(`book.toml`): `/x` is read from there, a page's `.html` is its `.md`, and
mdbook builds `X/README.md` as `X/index.html`. The renderer is the
configuration's `link-renderer`, or, when that is `auto`, the one whose
settings the tracked tree holds (`.obsidian/`, `mkdocs.yml`, `book.toml`);
`site-root` overrides where `/x` is read from.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.sources import Snapshot

GITHUB, OBSIDIAN, MKDOCS, MDBOOK = "github", "obsidian", "mkdocs", "mdbook"
RENDERERS = (GITHUB, OBSIDIAN, MKDOCS, MDBOOK)
AUTO = "auto"
#: `docs_dir: site` in mkdocs.yml (read as a line: the file may hold tags only MkDocs knows)
_DOCS_DIR = lazy(r"^docs_dir\s*:\s*['\"]?([^'\"#\s]+)", re.MULTILINE)


@dataclass(frozen=True)
class Site:
    """How links resolve: the renderer, and the folder `/x` is read from (`""`: the root)."""

    renderer: str = GITHUB
    root: str = ""

    @property
    def builds_pages(self) -> bool:
        """A site generator: a page is linked by its `.html`, a folder by its index page."""
        return self.renderer in (MKDOCS, MDBOOK)


def renderer_in_tree(snapshot: Snapshot) -> str:
    """The renderer whose settings the tree holds, else GitHub."""
    if snapshot.exists(".obsidian"):
        return OBSIDIAN
    if snapshot.exists("mkdocs.yml") or snapshot.exists("mkdocs.yaml"):
        return MKDOCS
    if snapshot.exists("book.toml"):
        return MDBOOK
    return GITHUB


def site_root_in_tree(snapshot: Snapshot, renderer: str) -> str:
    """The folder a site generator serves, from its settings (its default when they say none)."""
    if renderer == MKDOCS:
        data = snapshot.read("mkdocs.yml") or snapshot.read("mkdocs.yaml") or b""
        m = _DOCS_DIR.search(data.decode("utf-8", "replace"))
        return _folder(m.group(1) if m else "docs")
    if renderer == MDBOOK:
        import tomllib

        try:
            book = tomllib.loads((snapshot.read("book.toml") or b"").decode("utf-8", "replace"))
        except tomllib.TOMLDecodeError:
            book = {}
        section = book.get("book") if isinstance(book.get("book"), dict) else {}
        src = section.get("src") if isinstance(section, dict) else None
        return _folder(src if isinstance(src, str) else "src")
    return ""


def site_of(snapshot: Snapshot, config: Config) -> Site:
    """The site the configuration names, the rest read from the tree."""
    renderer = config.link_renderer if config.link_renderer != AUTO else renderer_in_tree(snapshot)
    root = config.site_root if config.site_root else site_root_in_tree(snapshot, renderer)
    return Site(renderer, _folder(root))


def _folder(path: str) -> str:
    """A repo-relative folder without `./` or slashes at its ends; "" for the root or one outside it."""
    normal = posixpath.normpath(path.strip().strip("/") or ".")
    return "" if normal == "." or normal.startswith("..") else normal


def page_variants(target: str, site: Site) -> list[str]:
    """Other paths a link to `target` reaches under the renderer, in the order it tries them:
    a note linked without `.md`; a site page by its `.html` or its folder's index page."""
    name = posixpath.basename(target)
    variants: list[str] = []
    if target and "." not in name:
        variants.append(target + ".md")  # `[note](2015-adam)`: wikis and site generators read the note
    if site.builds_pages:
        stem, ext = posixpath.splitext(target)
        if ext == ".html":
            variants.append(stem + ".md")
        folder, base = posixpath.split(stem if ext in (".html", ".md") else target)
        if base == "index" and ext in (".html", ".md", ""):
            variants += [posixpath.join(folder, "README.md"), posixpath.join(folder, "index.md")]
        if ext == "" and "." not in name:
            variants += [posixpath.join(target, "index.md"), posixpath.join(target, "README.md")]
    return [v for v in dict.fromkeys(variants) if v != target]
