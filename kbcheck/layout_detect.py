"""What `kbcheck init` proposes for a repository that already has notes: kinds from its folders,
the language from its text, templates left out, each choice said in a comment.

The shapes it knows (docs/adopting.md):

- an index (a `README.md`, `index.md` or `SUMMARY.md`) that links at least
  `INDEX_MIN_LINKS` notes of the repository is a living document, unless it
  is a list: less than `LIST_MAX_PROSE` of its text is in paragraphs outside
  lists, definition lists and tables (a table of contents, a reading list, a
  generated catalogue), which is left unmapped for the link rules alone, and
  out of the guide folder it sits in (a negation in `guides`);
- a folder holding at least `FOLDER_MIN_NOTES` notes is a folder of
  one-note-per-source files: guides. A sub-folder with fewer notes and its
  own readme (a folder per paper, its note the folder's readme; a folder per
  topic with a note or two and a readme) counts toward its parent, whose
  glob then takes in its whole tree; a folder that holds enough notes of its
  own keeps its own glob (`folder/*.md`) beside those of its sub-folders that
  do too. A top-level folder too small to count is taken in when most
  top-level folders are guides (one collection, one way of filing a note);
- a page template (`_template.md`, `template.md`, anything in a `template/` or
  `templates/` folder) is excluded, a template folder as one glob;
- a file at the root is written anchored (`/README.md`): a bare name matches
  at any depth;
- the language is told from a sample of notes by `kbcheck.language`'s rule,
  the rule the digest uses when `lang` is not set.

A repository in kbcheck's default layout (`organized/`, `inbox/`) keeps the defaults.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kbcheck.i18n import _, ngettext
from kbcheck.language import lang_of, words
from kbcheck.page_templates import TEMPLATE_FOLDERS, is_template_path

INDEX_NAMES = ("readme.md", "index.md", "summary.md", "_index.md")
INDEX_MIN_LINKS = 5
LIST_MAX_PROSE = 0.2
FOLDER_MIN_NOTES = 3
#: how much text the language is judged on
_SAMPLE_FILES, _SAMPLE_CHARS = 200, 4000
_DEFAULT_LAYOUT = ("organized/", "inbox/")
#: lists inside guide folders beyond which one glob by their shared name leaves them out
_LISTS_BY_PATH = 5


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


def prose_share(text: str) -> float:
    """The share of a note's text that is in paragraphs outside lists and tables (headings and
    frontmatter left out; a definition list, `[title](note.md)` then `:   summary`, is a list):
    low for a table of contents, a reading list or a catalogue, high for an overview in prose."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    nesting = {f"{block}_{side}": 1 if side == "open" else -1 for block in ("bullet_list", "ordered_list", "table",
                                                                            "heading", "dl") for side in ("open", "close")}
    depth = prose = total = 0
    md = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(deflist_plugin)
    for token in md.parse(text):
        depth += nesting.get(token.type, 0)
        if token.type == "inline":
            chars = sum(len(child.content) for child in token.children or () if child.type == "text")
            total += chars
            prose += chars if depth == 0 else 0
    return prose / total if total else 0.0


def is_link_list(text: str) -> bool:
    """A list of links to notes, as init tells an index that is a list: at least `INDEX_MIN_LINKS`
    relative links to markdown files and less than `LIST_MAX_PROSE` of its text in prose (the
    digest's test for an index page moved among the notes, whose links may no longer resolve)."""
    notes = [href for href in _links(text) if "://" not in href
             and href.split("#", 1)[0].split("?", 1)[0].lower().endswith(".md")]
    return len(notes) >= INDEX_MIN_LINKS and prose_share(text) < LIST_MAX_PROSE


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


def _guide_folders(notes: list[str], found: list[str]) -> list[str]:
    """The guide globs for `notes` (the notes that are no living document, list or template),
    each folder's said in `found`."""
    own: Counter[str] = Counter()  # folder -> notes directly in it
    readmes: Counter[str] = Counter()  # folder -> its readme or index, a note only when alone (a folder per paper)
    for path in notes:
        folder = posixpath.dirname(path)
        if folder:
            (readmes if posixpath.basename(path).lower() in INDEX_NAMES else own)[folder] += 1
    for folder, count in readmes.items():
        if not own[folder]:
            own[folder] = count
    folders = sorted({f for path in notes for f in _ancestors(posixpath.dirname(path))},
                     key=lambda f: (-f.count("/"), f))  # deepest first, so a sub-folder is settled before its parent
    carried: Counter[str] = Counter()  # folder -> notes of its sub-folders too small to count alone
    chosen: dict[str, tuple[str, int]] = {}  # folder -> (glob, notes)
    for folder in folders:
        total = own[folder] + carried[folder]
        if total < FOLDER_MIN_NOTES:
            # a folder per source has its page, the readme; one file of another name per folder
            # (`<paper>/paper.md`, the paper's own text) is no such note
            if "/" in folder and (readmes[folder] or carried[folder]):
                carried[posixpath.dirname(folder)] += total
            continue
        # a folder whose sub-folders are chosen on their own keeps its glob to its own notes
        below = any(c.startswith(folder + "/") for c in chosen)
        only_own = below and not carried[folder]
        chosen[folder] = (f"{folder}/*.md" if only_own else f"{folder}/**/*.md", total)
    top = [f for f in folders if "/" not in f]
    chosen_top = [f for f in top if f in chosen]
    small_top = [f for f in top if f not in chosen and not any(c.startswith(f + "/") for c in chosen)]
    # a folder inside one whose glob takes in its whole tree is covered by that `**`
    covering = {f: next((g for g in sorted(chosen) if f.startswith(g + "/") and chosen[g][0].endswith("/**/*.md")),
                        None) for f in chosen}
    counts = Counter({f: chosen[f][1] for f in chosen if covering[f] is None})
    for f, g in covering.items():
        if g is not None:
            counts[g] += chosen[f][1]
    chosen = {f: (chosen[f][0], counts[f]) for f in chosen if covering[f] is None}
    for folder in sorted(chosen):
        if carried[folder]:
            found.append(_("{folder}/ holds {notes} notes ({carried} of them in sub-folders too small to count "
                           "alone), one per source: guides", folder=folder, notes=chosen[folder][1],
                           carried=carried[folder]))
        else:
            found.append(_("{folder}/ holds {notes} notes, one per source: guides", folder=folder,
                           notes=chosen[folder][1]))
    if small_top and len(chosen_top) > len(top) / 2:
        for folder in small_top:
            chosen[folder] = (f"{folder}/**/*.md", own[folder] + carried[folder])
        # more than half of at least two top-level folders are guides: `{guides}` is never one
        found.append(ngettext("{count} smaller top-level folder beside {guides} folders of guides ({folders}): "
                              "guides too, filed the same way",
                              "{count} smaller top-level folders beside {guides} folders of guides ({folders}): "
                              "guides too, filed the same way", len(small_top), count=len(small_top),
                              guides=len(chosen_top),
                              folders=", ".join(f + "/" for f in small_top[:3]) + (" …" if len(small_top) > 3 else "")))
    return [chosen[folder][0] for folder in sorted(chosen)]


def _lists_left_out(lists: list[str], notes: list[str], guide_globs: list[str], found: list[str]) -> list[str]:
    """Negations that keep the lists found inside guide folders out of the guides: each by its
    path, or by their shared name when more than `_LISTS_BY_PATH` share it and they are most of
    the `notes` of that name there (a generated `index.md` per folder)."""
    from kbcheck.globs import matches

    inside = [path for path in lists if matches(guide_globs, path)]
    if not inside:
        return []
    names = Counter(posixpath.basename(path) for path in inside)
    all_names = Counter(posixpath.basename(path) for path in notes if matches(guide_globs, path))
    by_name = {name for name, count in names.items() if count > _LISTS_BY_PATH and count > all_names[name] / 2}
    negations = [f"!**/{name}" for name in sorted(by_name)]
    negations += [f"!{_anchored(path)}" for path in inside if posixpath.basename(path) not in by_name]
    found.append(ngettext("{count} list inside the guide folders is left out of them: {globs}",
                          "{count} lists inside the guide folders are left out of them: {globs}", len(inside),
                          count=len(inside), globs=", ".join(negations[:3]) + (" …" if len(negations) > 3 else "")))
    return negations


def _template_globs(templates: list[str]) -> list[str]:
    """A template folder as one glob (`template/**`), a template file elsewhere by its path."""
    globs: list[str] = []
    for path in templates:
        parts = path.split("/")
        cut = next((i for i, part in enumerate(parts[:-1]) if part.lower() in TEMPLATE_FOLDERS), None)
        glob = "/".join(parts[:cut + 1]) + "/**" if cut is not None else _anchored(path)
        if glob not in globs:
            globs.append(glob)
    return globs


def _anchored(path: str) -> str:
    """A path as a glob for that one file: a root file's name alone would match at any depth
    (`README.md` is every readme, as in .gitignore), so it is anchored (`/README.md`)."""
    return path if "/" in path else f"/{path}"


def _ancestors(folder: str) -> list[str]:
    """`a/b/c` -> `a/b/c`, `a/b`, `a` (the root, "", left out)."""
    out: list[str] = []
    while folder:
        out.append(folder)
        folder = posixpath.dirname(folder)
    return out


def detect(root: Path, tracked: list[str]) -> Detected:
    """Proposals for the repository at `root` whose tracked files are `tracked`."""
    detected = Detected()
    notes = sorted(p for p in tracked if p.lower().endswith(".md"))
    if not notes:
        return detected
    sample = notes[:: max(1, len(notes) // _SAMPLE_FILES)][:_SAMPLE_FILES]
    text = "\n".join(_read(root, p)[:_SAMPLE_CHARS] for p in sample)
    cjk, latin = words(text)  # counted once: they are shown as well as judged
    lang = lang_of(cjk, latin) or "en"
    detected.settings["lang"] = lang
    detected.found.append(_("language: {lang} ({cjk} CJK characters against {latin} English words in {sampled} "
                            "sampled notes)", lang=lang, cjk=cjk, latin=latin, sampled=len(sample)))
    if any(p.startswith(_DEFAULT_LAYOUT) for p in notes):
        detected.found.append(_("organized/ or inbox/ is there: the default layout is kept"))
        return detected
    templates = [p for p in notes if is_template_path(p)]
    note_set = set(notes) - set(templates)
    lists: set[str] = set()
    indexes: list[str] = []
    for path in sorted(note_set):
        if posixpath.basename(path).lower() not in INDEX_NAMES:
            continue
        text = _read(root, path)
        linked = _linked_notes(path, text, note_set)
        if len(linked) < INDEX_MIN_LINKS:
            continue
        prose = prose_share(text)
        if prose < LIST_MAX_PROSE:
            detected.found.append(_("{path} links {count} notes, {prose:.0%} of its text in prose: a list, left "
                                    "unmapped (only the link rules read it)", path=path, count=len(linked), prose=prose))
            lists.add(path)
            continue
        indexes.append(path)
        detected.found.append(_("{path} links {count} notes: a living document", path=path, count=len(linked)))
    guide_globs = _guide_folders(sorted(note_set - set(indexes) - lists), detected.found)
    guide_globs += _lists_left_out(sorted(lists), sorted(note_set - set(indexes)), guide_globs, detected.found)
    detected.settings.update({
        "knowledge": [_anchored(path) for path in indexes],
        "guides": guide_globs,
        "paper-cards": [], "repo-cards": [], "briefs": [], "manifests": [],
    })
    if templates:
        detected.settings["exclude"] = _template_globs(templates)
        detected.found.append(_("page templates, excluded: {globs}", globs=", ".join(detected.settings["exclude"])))
    detected.found.append(_("no paper cards, repo cards, briefs or manifests in the default places: those kinds are []"))
    return detected


__all__ = ["Detected", "detect", "is_link_list", "prose_share"]
