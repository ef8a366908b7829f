"""A relative link or knowledge-base path points to a file that does not exist.

**What it catches.** In any markdown file: a relative markdown link
(`[卡片](../paper_cards/1695-2610-02076.md)`), a bare or backticked
knowledge-base path (`organized/…`, `inbox/…`, resolved from the repository
root) naming nothing in the checked tree, or a wikilink (`[[kimi-k3]]`,
`[[concepts/Semantic Segmentation|text]]`) when no file of the knowledge
base has that name. A path that climbs out of the repository
(`../../etc/passwd`) is reported and never read, and a link whose target is
itself a markdown link (`[x]([https://…](https://…))`) is said with the
address alone. Where a file near the one named exists (a case-only
difference, `point_pillars.md` for `pointpillars.md`, `paper_note/` for
`paper_notes/`, or the very name in another folder) the finding says
"did you mean" and offers it as a fix; a name that differs in a digit is
another paper, never offered. A wikilink to no file that names a heading of
its own note (a table of contents written `[[Goal]]` over `## 1. Goal`) is
offered the link to that heading, `[[#1. Goal]]`.

**How links resolve.** As the knowledge base's renderer resolves them
(`link-renderer`, found from `.obsidian/`, `mkdocs.yml` or `book.toml`, or
GitHub's way): a markdown link from the linking file whatever the mapping,
`/x` from the site's root (MkDocs' `docs_dir`, mdbook's `src`, or
`site-root`), a note linked without `.md`, a site page by its `.html` or its
folder's `index.md`/`README.md`, URL-encoding decoded. A wikilink finds its
file by name anywhere (`#heading` and `|alias` left off, `.md` optional,
spaces and any letters included; Obsidian's shortest-path links), and in an
Obsidian vault a markdown link may too. A file exists when the repository
tracks it: a file only on this disk is missing for everyone else, a tracked
file kept off the disk by a sparse checkout is there.

**What it leaves alone.** A target the repository keeps out of git on
purpose (ignored by `.gitignore`, such as a `raw/` folder of PDFs, or listed
in `local-paths`) is local by design: one notice per run, no finding. Glob
patterns (`inbox/tom/_candidates/*.json`), placeholders
(`organized/<topic>/x.md`, `inbox/{author}/`, `link_to_paper`,
`path/to/file.md`), links in page templates (a `template/`, `templates/`,
`_templates/` or `.templates/` folder, a `template.md` or `_template.md`) and web
links are not paths. Nor is a stand-in name that
docs and tool instructions use for "some note": `xxx` or `foo` as a word of
the path (`[[xxx]]`, `wiki/sources/foo.md`, `lint-xxx`), or `example`,
`placeholder` or `slug` as a whole name (`[[slug]]`, `主slug`, not
`onnx-example-model`), or a glob whose `*` markdown took for emphasis
(`"notes/*.md" … "cards/*.md"` reads as `notes/.md`: the line as written
holds no such path). `[[pdf]]()` (an empty link whose text is in brackets),
`[[[Notes](x.md)]]` and `[see [[x]]](y.md)` are markdown links, not wikilinks.

**A missing folder is one finding.** Links into a folder the tree does not
hold at all (`docs/2024/…` with no `docs/2024/`: a folder renamed or deleted,
a part of the collection kept in another repository, paths to the writer's
own disk) have one cause. Two or more of them are one finding for the folder,
at its first link, saying how many links in how many files point into it
(`data.places` lists them); a link that has a near file to offer is still
its own finding, with its fix. The baseline accepts the folder as a whole.

**Why it matters.** Paths are how briefs and living documents point at their
evidence; a renamed or mistyped card path breaks the chain silently.

**What it reads.** The file's relative links, wikilinks and knowledge-base
paths, resolved against the tracked tree.

**Given:** the card `organized/paper_cards/1695-2610-02076.md`:

    ---
    arxiv: "2610.02076"
    title: "LLM-as-Jev"
    ---
    用 token 概率直接读出决策。

**Fires:**

    见 organized/paper_cards/1695-2610-02067.md

**Passes:**

    见 organized/paper_cards/1695-2610-02076.md

**How to fix.** Correct the path (`--fix` writes the near file it names),
or restore the file it pointed to.

**How to suppress.** `<!-- kbcheck: disable=KB009 -->` before the block, or
`ignore = ["KB009"]`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from kbcheck.findings import Edit, Facts, Finding, Problem, fingerprint, sort_key
from kbcheck.i18n import _, ngettext
from kbcheck.links.local import LocalPaths
from kbcheck.model.document import inline_text, unlabelled
from kbcheck.page_templates import is_template_path
from kbcheck.printable import printable_message
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import BrokenPath, KbFile, KnowledgeBase

ID = "KB009"
NAME = "broken-path"
SEVERITY = "warning"
KINDS = ("knowledge", "paper_card", "repo_card", "guide", "brief", "markdown")

#: names docs use for "some note": a path with one of them as a word is an example, not a link
_STAND_IN = frozenset({"foo", "xxx"})
#: words that are a stand-in only as the whole name (`[[slug]]`, `主slug`), not inside one (`onnx-example-model`)
_STAND_IN_NAME = frozenset({"example", "placeholder", "slug"})
#: the Latin words of a path part
_WORD = lazy(r"[a-z0-9]+")
#: a template's placeholder for a link to fill in: `link_to_paper`, `paper-link`, `url`, `path/to/file.md`
_PLACEHOLDER = lazy(r"^(?:(?:\w+[_-])?(?:link|url)(?:[_-]to[_-]\w+)?|path(?:/to(?:/.*)?)?)$", re.IGNORECASE)
#: a link target that is itself a markdown link, `[https://x](https://x)`: the link written twice
_LINK_AS_TARGET = lazy(r"^\[([^\[\]]*)\]\(([^()\s]*)\)$")


def check(file: KbFile, kb: KnowledgeBase, config: Config) -> Iterator[Problem]:
    if is_template_path(file.path):
        return
    lines: list[str] | None = None
    candidates: list[BrokenPath] = []
    for broken in kb.resolve(file.path).broken_paths:
        if _stand_in(broken.written) or _PLACEHOLDER.match(broken.written):
            continue
        if not broken.written.startswith("[[") and "/" in broken.written:
            if lines is None:
                lines = (kb.text(file.path) or "").split("\n")
            if _glob_read_as_emphasis(broken.written, lines, broken.line, broken.column):
                continue
        candidates.append(broken)
    if not candidates:
        return
    local = kb.derived(_local_paths, "").why(b.target for b in candidates if b.target and b.target[:2] != "[[")
    base = posixpath.dirname(file.path)
    for broken in candidates:
        why = local.get(broken.target or "")
        if why is not None:
            kb.say(_("links into {pattern} are not checked: the repository keeps it out of git on purpose "
                     "(local by design)", pattern=why))
            continue
        if lines is None:
            lines = (kb.text(file.path) or "").split("\n")
        yield _problem(file.path, base, broken, kb, lines)


def _problem(path: str, base: str, broken: BrokenPath, kb: KnowledgeBase, lines: list[str]) -> Problem:
    written, target = broken.written, broken.target
    source = lines[broken.line - 1] if 0 < broken.line <= len(lines) else ""
    doubled = _LINK_AS_TARGET.match(written)
    if doubled is not None:
        address = doubled.group(2) or doubled.group(1)
        return Problem(path=path, line=broken.line, column=broken.column, facts=MissingTarget(written, target, address=address),
                       subject=address, fix=_edit(broken, source, written, address))
    meant: str | None = None
    fix: Edit | None = None
    if target is not None and written.startswith("[["):
        name = written[2:-2]
        found = kb.near_file(name, by_name=True)
        meant = posixpath.splitext(found)[0] if found else None
        if meant is not None and "/" not in name:
            meant = posixpath.basename(meant)
        if meant is not None and meant.casefold() != name.casefold():
            fix = _edit(broken, source, "[[" + name, "[[" + meant, at=broken.column)
        else:
            meant = None
        if meant is None and (heading := _own_heading(name, kb, path)) is not None:
            meant = "#" + heading
            fix = _edit(broken, source, "[[" + name, "[[" + meant, at=broken.column)
    elif target is not None:
        found = kb.near_file(target, by_name=False)
        if found is not None:
            meant = _as_written(found, base, written, broken.form, kb)
            fix = _edit(broken, source, written, meant)
    return Problem(path=path, line=broken.line, column=broken.column, facts=MissingTarget(written, target, meant=meant),
                   subject=target if target is not None else written, fix=fix)


#: characters Obsidian does not take in a link to a heading
_NOT_IN_HEADING_LINK = frozenset("#|[]^")


def _own_heading(name: str, kb: KnowledgeBase, path: str) -> str | None:
    """The one heading of the linking note that a wikilink to no file names (its number label and
    emphasis aside): a table of contents written `[[Goal]]` for `[[#1. Goal]]`."""
    wanted = _as_listed(name)
    found = kb.derived(_headings_as_listed, path).get(wanted, set()) if wanted else set()
    if len(found) != 1:
        return None
    heading = next(iter(found))
    return None if _NOT_IN_HEADING_LINK & set(heading) else heading


def _headings_as_listed(kb: KnowledgeBase, path: str) -> dict[str, set[str]]:
    """The note's headings as written, by how a table of contents names them (`_as_listed`): worked
    out once per file, however many of its wikilinks ask."""
    document = kb.document(path)
    listed: dict[str, set[str]] = {}
    for section in document.sections if document is not None else ():
        if section.heading:
            listed.setdefault(_as_listed(section.heading), set()).add(section.heading)
    return listed


def _as_listed(heading: str) -> str:
    """A heading as a table of contents names it: as a reader sees it, number label left out, case folded."""
    return " ".join(unlabelled(inline_text(heading)).split()).casefold()


def _as_written(found: str, base: str, written: str, form: str, kb: KnowledgeBase) -> str:
    """The existing path as the link would write it: from the linking file, or from the site's
    root when the link was written from there (`/x`), or from the repository root for a bare path."""
    if written.startswith("/"):
        root = kb.site.root
        return "/" + (posixpath.relpath(found, root) if root else found)
    if form in ("link", "image"):
        return posixpath.relpath(found, base or ".")
    return found


def _edit(broken: BrokenPath, source: str, original: str, replacement: str, at: int | None = None) -> Edit | None:
    """The edit that writes `replacement` where the line holds `original` (as written or URL-encoded)."""
    column = at if at is not None else broken.column
    here = source[column - 1:]
    for form, new in ((original, replacement), (quote(original, safe="/#?&=:@!$'()*+,;~%"), quote(replacement, safe="/#?&=:@!$'()*+,;~%"))):
        if here.startswith(form):
            if " " in new and not original.startswith("[[") and not source[column - 2:column - 1] == "<":
                new = new.replace(" ", "%20")
            return Edit(broken.line, column, form, new, _("link {target}", target=replacement))
    return None


def _local_paths(kb: KnowledgeBase, _path: str) -> LocalPaths:
    return LocalPaths(kb.snapshot, kb.config.local_paths)



@dataclass(frozen=True, slots=True)
class MissingTarget(Facts):
    """The link or path as `written` resolves to `target` (None: outside the repository), which is
    not there; `meant` is a near file that is (did you mean), `address` the address alone when the
    link's target is itself a markdown link."""

    written: str
    target: str | None
    meant: str | None = None
    address: str | None = None

    def message(self) -> str:
        if self.address is not None:
            return _("the link's target is a markdown link itself; write its address alone: {address}",
                     address=self.address)
        if self.target is None:
            return _("{path} points outside the repository", path=self.written)
        if self.written.startswith("[["):
            if self.meant is not None:
                return _("{path} names no file in the knowledge base; did you mean [[{meant}]]?",
                         path=self.written, meant=self.meant)
            return _("{path} names no file in the knowledge base", path=self.written)
        shown = self.target != self.written
        if self.meant is not None and shown:
            return _("{path} does not exist in the checked tree (resolved to {target}); did you mean {meant}?",
                     path=self.written, target=self.target, meant=self.meant)
        if self.meant is not None:
            return _("{path} does not exist in the checked tree; did you mean {meant}?",
                     path=self.written, meant=self.meant)
        if shown:
            return _("{path} does not exist in the checked tree (resolved to {target})",
                     path=self.written, target=self.target)
        return _("{path} does not exist in the checked tree", path=self.written)


#: from this many links on, the links into one missing folder are one finding
FOLD_MIN_LINKS = 2


def fold_missing_folders(findings: list[Finding], tracked: Callable[[str], bool],
                         accepted: frozenset[str]) -> tuple[list[Finding], int]:
    """The findings with the links into each missing folder folded into one finding for the folder,
    and how many links the baseline accepted that way (`accepted` holds the folder's fingerprint)."""
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        facts = finding.facts
        if (finding.rule == ID and isinstance(facts, MissingTarget) and finding.fix is None
                and facts.target is not None and facts.meant is None and facts.address is None
                and not facts.written.startswith("[[")
                and (folder := missing_folder(facts.target, tracked)) is not None):
            groups.setdefault(folder, []).append(finding)
    groups = {folder: members for folder, members in groups.items() if len(members) >= FOLD_MIN_LINKS}
    if not groups:
        return findings, 0
    folded = {id(member) for members in groups.values() for member in members}
    kept = [finding for finding in findings if id(finding) not in folded]
    suppressed = 0
    for folder, members in groups.items():
        members.sort(key=sort_key)
        first = members[0]
        assert isinstance(first.facts, MissingTarget) and first.facts.target is not None
        facts = MissingFolder(folder, first.facts.written, first.facts.target, len({m.path for m in members}),
                              tuple(f"{m.path}:{m.line}" for m in members))
        identity = fingerprint(ID, folder + "/", folder + "/", 0)
        if identity in accepted:
            suppressed += len(members)
            continue
        kept.append(Finding(
            rule=first.rule, name=first.name, severity=first.severity, path=first.path, line=first.line,
            column=first.column, end_line=first.line, message=printable_message(facts.message()),
            subject=folder + "/", fingerprint=identity, facts=facts,
        ))
    return kept, suppressed


def missing_folder(target: str, tracked: Callable[[str], bool]) -> str | None:
    """The outermost folder on the way to `target` that the tree does not hold (None: it holds them all)."""
    parts = target.split("/")
    for end in range(1, len(parts)):
        folder = "/".join(parts[:end])
        if not tracked(folder):
            return folder
    return None


@dataclass(frozen=True, slots=True)
class MissingFolder(Facts):
    """`folder` is not in the checked tree, and the links at `places` ("path:line", the first one
    `written` as it is there and resolved to `target`) in `files` files point into it."""

    folder: str
    written: str
    target: str
    files: int
    places: tuple[str, ...]

    def related(self, path: str) -> tuple[tuple[str, int], ...]:
        return tuple((where, int(line)) for where, _, line in (place.rpartition(":") for place in self.places[1:]))

    def message(self) -> str:
        links = len(self.places)
        return ngettext("{folder}/ is not in the checked tree: {links} links in {files} file point into it, "
                        "{written} here; restore the folder, correct the links, or list it in local-paths "
                        "when it is kept elsewhere on purpose",
                        "{folder}/ is not in the checked tree: {links} links in {files} files point into it, "
                        "{written} here; restore the folder, correct the links, or list it in local-paths "
                        "when it is kept elsewhere on purpose",
                        self.files, folder=self.folder, links=links, files=self.files, written=self.written)


def _stand_in(written: str) -> bool:
    """`[[xxx]]`, `wiki/sources/foo.md`, `outputs/lint-xxx`, `[[slug]]`, `[[wiki/concepts/主slug]]`."""
    name = written.removeprefix("[[").removesuffix("]]").casefold()
    for part in re.sub(r"\.md$", "", name).split("/"):
        words = ["xxx" if len(word) >= 3 and set(word) == {"x"} else word for word in _WORD.findall(part)]
        if any(word in _STAND_IN for word in words) or (words and all(w in _STAND_IN_NAME for w in words)):
            return True
    return False


def _glob_read_as_emphasis(written: str, lines: list[str], line: int, column: int = 1) -> bool:
    """The source line does not hold the path and holds a `*`: markdown read a glob's stars
    (`"wiki/a/*.md" … "wiki/b/*.md"`) as emphasis, and what is left was never written.
    Both are looked for near the path's column (a whole-line search per path is quadratic
    in a line of 100k links)."""
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    start, stop = max(0, column - 1 - _NEAR), column - 1 + len(written) + _NEAR
    return source.find(written, start, stop) < 0 and source.find("*", start, stop) >= 0


#: how far from a path's column its source text and a star are looked for
_NEAR = 1024
