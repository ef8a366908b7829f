"""What `kbcheck init` proposes for a repository that already has notes: kinds from its folders,
the language from its text, templates left out, each choice said in a comment.

The shapes it knows (docs/adopting.md):

- an index (a `README.md`, `index.md` or `SUMMARY.md`) that links at least
  `INDEX_MIN_LINKS` notes of the repository is a living document;
- a folder holding at least `FOLDER_MIN_NOTES` notes beside such indexes, or
  as many sub-folders each with its own `README.md` (a folder per paper), is a
  folder of one-note-per-source files: guides;
- a page template (`_template.md`, `template.md`, anything in a `template/` or
  `templates/` folder) is excluded;
- the language is `zh` when at least `ZH_MIN_SHARE` of the letters of a sample
  of notes are CJK, else `en`.

A repository in kbcheck's default layout (`organized/`, `inbox/`) keeps the defaults.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

INDEX_NAMES = ("readme.md", "index.md", "summary.md", "_index.md")
TEMPLATE_NAMES = ("_template.md", "template.md", "_templates.md")
TEMPLATE_FOLDERS = ("template", "templates", "_template", "_templates")
INDEX_MIN_LINKS = 5
FOLDER_MIN_NOTES = 3
ZH_MIN_SHARE = 0.2
#: how much text the language is judged on
_SAMPLE_FILES, _SAMPLE_CHARS = 200, 4000
_DEFAULT_LAYOUT = ("organized/", "inbox/")


@dataclass
class Detected:
    """Keys to write instead of their defaults, and one comment line per finding behind them."""

    settings: dict[str, Any] = field(default_factory=dict)
    found: list[str] = field(default_factory=list)


def _links(text: str) -> list[str]:
    """The targets of a markdown file's links and images (markdown-it's token stream)."""
    from markdown_it import MarkdownIt

    targets: list[str] = []
    for token in MarkdownIt("commonmark").parse(text):
        for child in token.children or ():
            if child.type == "link_open":
                href = child.attrGet("href")
                if isinstance(href, str):
                    targets.append(href)
    return targets


def _linked_notes(path: str, text: str, notes: set[str]) -> set[str]:
    folder = posixpath.dirname(path)
    linked: set[str] = set()
    for href in _links(text):
        target = href.split("#", 1)[0].split("?", 1)[0]
        if not target or "://" in target or target.startswith(("mailto:", "/")):
            continue
        from urllib.parse import unquote

        resolved = posixpath.normpath(posixpath.join(folder, unquote(target)))
        # a link to a folder is to its readme, as GitHub shows it
        for candidate in (resolved, f"{resolved}/README.md", f"{resolved}/readme.md"):
            if candidate in notes and candidate != path:
                linked.add(candidate)
                break
    return linked


def _read(root: Path, path: str) -> str:
    try:
        with open(root / path, "rb") as handle:
            return handle.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return ""


def _cjk_share(texts: list[str]) -> float:
    letters = cjk = 0
    for text in texts:
        for char in text[:_SAMPLE_CHARS]:
            if "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf":
                cjk += 1
                letters += 1
            elif char.isalpha():
                letters += 1
    return cjk / letters if letters else 0.0


def detect(root: Path, tracked: list[str]) -> Detected:
    """Proposals for the repository at `root` whose tracked files are `tracked`."""
    detected = Detected()
    notes = sorted(p for p in tracked if p.lower().endswith(".md"))
    if not notes:
        return detected
    share = _cjk_share([_read(root, p) for p in notes[:: max(1, len(notes) // _SAMPLE_FILES)][:_SAMPLE_FILES]])
    lang = "zh" if share >= ZH_MIN_SHARE else "en"
    detected.settings["lang"] = lang
    detected.found.append(f"language: {lang} ({share:.0%} of the letters of {min(len(notes), _SAMPLE_FILES)} "
                          "sampled notes are CJK)")
    if any(p.startswith(_DEFAULT_LAYOUT) for p in notes):
        detected.found.append("organized/ or inbox/ is there: the default layout is kept")
        return detected
    templates = [p for p in notes if posixpath.basename(p).lower() in TEMPLATE_NAMES
                 or any(part.lower() in TEMPLATE_FOLDERS for part in p.split("/")[:-1])]
    note_set = set(notes) - set(templates)
    indexes: list[str] = []
    for path in sorted(note_set):
        if posixpath.basename(path).lower() not in INDEX_NAMES:
            continue
        linked = _linked_notes(path, _read(root, path), note_set)
        if len(linked) >= INDEX_MIN_LINKS:
            indexes.append(path)
            detected.found.append(f"{path} links {len(linked)} notes: a living document")
    folders = Counter(posixpath.dirname(p) for p in note_set if p not in indexes
                      and posixpath.basename(p).lower() not in INDEX_NAMES)
    # a folder per source, its note the folder's readme: the parent holds the notes
    for path in note_set:
        if path not in indexes and posixpath.basename(path).lower() == "readme.md" and path.count("/") >= 2:
            folders[posixpath.dirname(posixpath.dirname(path))] += 1
    guide_folders = sorted(folder for folder, count in folders.items() if folder and count >= FOLDER_MIN_NOTES)
    # a folder inside another chosen one is covered by its `**`
    guide_folders = [f for f in guide_folders if not any(f.startswith(g + "/") for g in guide_folders if g != f)]
    for folder in guide_folders:
        detected.found.append(f"{folder}/ holds {folders[folder]} notes, one per source: guides")
    detected.settings.update({
        "knowledge": indexes,
        "guides": [f"{folder}/**/*.md" for folder in guide_folders],
        "paper-cards": [], "repo-cards": [], "briefs": [], "manifests": [],
    })
    if templates:
        detected.settings["exclude"] = templates
        detected.found.append(f"page templates, excluded: {', '.join(templates)}")
    detected.found.append("no paper cards, repo cards, briefs or manifests in the default places: those kinds are []")
    return detected


__all__ = ["Detected", "detect"]
