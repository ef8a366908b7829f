"""Find what a piece of prose cites, before knowing the knowledge base.

The document parser hands over prose (code spans and images already taken
out) and link targets; this module returns `Ref`s: arXiv ids, DOIs, GitHub
repos, knowledge-base paths and `owner/repo` names. Whether a path exists or
an `owner/repo` names a repo card is decided later, against the knowledge
base (`knowledge_base.KnowledgeBase.resolve`), so parsed documents can be
cached by content alone.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote

from kbcheck.model.ids import (
    ARXIV_NEW,
    ARXIV_OLD,
    normalize_arxiv,
    normalize_doi,
    normalize_repo,
    real_month,
)
from kbcheck.regex import lazy

MASK = "\0"


@dataclass(frozen=True, slots=True)
class Ref:
    """Something a document points at, as written.

    kind: `arxiv`, `doi`, `repo` (a GitHub URL), `repo_name` (`owner/repo`,
    a citation only if a repo card has that name), `path` (a knowledge-base
    path or a relative link), `wikilink` (`[[name]]`: a file found by name),
    `url` (any other web address).
    """

    kind: str
    value: str
    line: int
    column: int
    #: for paths: `link` resolves from the linking file, `text`/`code` from the root; `wiki` and
    #: `embed` (for `wikilink`s) find the file by name anywhere in the knowledge base
    form: str = "text"
    #: a link's text (`[text](href)`, `[[name|text]]`); empty for refs that are not links
    text: str = ""


#: a web address in prose ends at the first non-ASCII character (`：`, `》`, CJK text glued to it)
#: (case-insensitive only in the scheme: folding would let `i`, `k`, `s` match `İ`, `K`, `ſ`)
_URL = lazy(r"(?i:https?)://[^\s<>\"'()\[\]{}\u0080-\U0010ffff]+")
_ARXIV_URL = lazy(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/(" + ARXIV_NEW + "|" + ARXIV_OLD + r")(?:\.pdf)?/?$",
    re.IGNORECASE,
)
_PAPERS_COOL = lazy(r"^https?://(?:www\.)?papers\.cool/arxiv/(" + ARXIV_NEW + "|" + ARXIV_OLD + r")/?$", re.IGNORECASE)
_GITHUB = lazy(r"^https?://(?:www\.)?github\.com/([A-Za-z0-9][\w.-]*)/([\w.-]+)", re.IGNORECASE)
_GITHUB_NOT_OWNERS = frozenset({"orgs", "settings", "topics", "sponsors", "marketplace", "features", "about", "collections", "apps"})
_DOI_URL = lazy(r"^https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)$", re.IGNORECASE)
_ARXIV_PREFIXED = lazy(r"arxiv:\s?(" + ARXIV_NEW + "|" + ARXIV_OLD + ")", re.IGNORECASE)
_ARXIV_BARE = lazy(r"(?<![\w./\-])(\d{4})\.(\d{4,5})(?:v\d+)?(?![\d]|\.\d|[A-Za-z_])")
_DOI = lazy(r"(?<![\w./])(?:doi:\s?)?(10\.\d{4,9}/[!#-;=?-~]+)", re.IGNORECASE)  # a DOI is printable ASCII
_REPO_NAME = lazy(r"(?<![\w./\-@])([A-Za-z0-9][\w.-]{0,38})/([A-Za-z0-9_][\w.-]{0,99})(?![\w/-])")
_TRAILING = ".,;:!?'\""
#: a wikilink in frontmatter text (`related: "[[note]]"`); in markdown, the parser reads them
_WIKILINK = lazy(r"\[\[([^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|[^\[\]\n]*)?\]\]")
#: a path whose next character opens a placeholder (`organized/<topic>/x.md`, `inbox/{author}/`);
#: a path with a date pattern (`inbox/tom/YYYY-MM-DD.md`) is a placeholder too
_PLACEHOLDER_NEXT = "<{"


@lru_cache(maxsize=16)  # called for every block: building the pattern cost more than scanning with it
def path_pattern(roots: tuple[str, ...]) -> re.Pattern[str] | None:
    """A bare knowledge-base path: a configured root folder then ASCII path characters."""
    if not roots:
        return None
    alternatives = "|".join(re.escape(r) for r in sorted(roots, key=len, reverse=True))
    return re.compile(r"(?<![\w/.\-])(?:" + alternatives + r")/[A-Za-z0-9._~+@%/\-*?]*")


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each (start, end) span, in order and apart, masked: one copy for all of them
    (a copy per span is quadratic in a paragraph of 100k ids)."""
    if not spans:
        return text
    parts, done = [], 0
    for start, end in spans:
        parts += [text[done:start], MASK * (end - start)]
        done = end
    parts.append(text[done:])
    return "".join(parts)


def classify_url(url: str) -> tuple[str, str]:
    """(kind, value) of a web address: arXiv, DOI, GitHub repo, or plain `url`."""
    for pattern in (_ARXIV_URL, _PAPERS_COOL):
        m = pattern.match(url)
        if m:
            return "arxiv", normalize_arxiv(m.group(1))
    m = _DOI_URL.match(url)
    if m:
        return "doi", normalize_doi(unquote(m.group(1)))
    m = _GITHUB.match(url)
    if m and m.group(1).lower() not in _GITHUB_NOT_OWNERS:
        return "repo", normalize_repo(f"{m.group(1)}/{m.group(2)}")
    return "url", url


#: the kinds each of `scan_prose`'s scans finds, in the order they run
_SCANS: tuple[frozenset[str], ...] = (
    frozenset({"arxiv", "doi", "repo", "url"}),  # web addresses
    frozenset({"arxiv"}),  # `arXiv:2301.12345`
    frozenset({"arxiv"}),  # a bare `2301.12345`
    frozenset({"doi"}),
    frozenset({"path"}),
    frozenset({"repo_name"}),
)


def scan_prose(text: str, roots: tuple[str, ...],
               kinds: Collection[str] | None = None) -> tuple[list[tuple[int, str, str, str]], str]:
    """Find refs in prose; returns (offset, kind, value, form) tuples and the text with them masked.

    The masked text keeps every offset, so the claim-number scanner does not
    read digits inside ids, URLs or paths. With `kinds`, the scans after the
    last that can find one of them are not run (a scan's masks change only
    the scans after it), so the refs of those kinds are all found, and fewer
    of the others: asking whether a note names an arXiv id does not scan it
    for paths and `owner/repo` names.
    """
    found: list[tuple[int, str, str, str]] = []
    masked = text
    last = len(_SCANS) - 1 if kinds is None else max(
        (stage for stage, finds in enumerate(_SCANS) if not finds.isdisjoint(kinds)), default=-1)
    # each pattern needs a literal character most prose lacks: skipping the scans that cannot
    # match (the `/` ones scan every word) is most of a cold full check's saving here
    slash, colon = "/" in text, ":" in text
    if (not slash and not colon and "." not in text) or last < 0:
        return found, masked
    spans: list[tuple[int, int]] = []
    for m in (_URL.finditer(text) if colon else ()):
        url = m.group(0).rstrip(_TRAILING)
        kind, value = classify_url(url)
        found.append((m.start(), kind, value, "text"))
        spans.append((m.start(), m.start() + len(url)))
    masked, spans = _mask(masked, spans), []
    for m in (_ARXIV_PREFIXED.finditer(masked) if colon and last >= 1 else ()):
        found.append((m.start(), "arxiv", normalize_arxiv(m.group(1)), "text"))
        spans.append((m.start(), m.end()))
    masked, spans = _mask(masked, spans), []
    for m in (_ARXIV_BARE.finditer(masked) if last >= 2 else ()):
        if real_month(m.group(1)):
            found.append((m.start(), "arxiv", f"{m.group(1)}.{m.group(2)}", "text"))
            spans.append((m.start(), m.end()))
    masked, spans = _mask(masked, spans), []
    for m in (_DOI.finditer(masked) if slash and last >= 3 else ()):
        doi = m.group(1).rstrip(_TRAILING)
        found.append((m.start(), "doi", normalize_doi(doi), "text"))
        spans.append((m.start(), m.start(1) + len(doi)))
    masked, spans = _mask(masked, spans), []
    pattern = path_pattern(tuple(roots)) if slash and last >= 4 else None
    if pattern is not None:
        for m in pattern.finditer(masked):
            path = m.group(0).rstrip(_TRAILING + "-")
            after = masked[m.end() : m.end() + 1]
            placeholder = after in tuple(_PLACEHOLDER_NEXT) or "YYYY" in path
            if "*" not in path and "?" not in path and not placeholder and not _runs_on(path, after):
                found.append((m.start(), "path", path, "text"))
            spans.append((m.start(), m.start() + len(path)))
        masked = _mask(masked, spans)
    for m in (_REPO_NAME.finditer(masked) if slash and last >= 5 else ()):
        found.append((m.start(), "repo_name", normalize_repo(m.group(0)), "text"))
    found.sort(key=lambda item: item[0])
    return found, masked


def _runs_on(path: str, after: str) -> bool:
    """A bare path whose last name runs on into letters the pattern does not read
    (`concepts/Transformer架构`): where it ends is not known, so it is not read as a path.
    A folder (`organized/topic/里面`) or a name with its extension (`x.md中`) ends where it stops."""
    if not after or after.isascii() or not after.isalnum():
        return False
    name = path.rsplit("/", 1)[-1]
    return bool(name) and "." not in name


def scan_code_span(code: str, roots: tuple[str, ...]) -> str | None:
    """A backticked knowledge-base path cites like a bare one; other code is not prose."""
    code = code.strip()
    if any(code.startswith(root + "/") for root in roots) and "`" not in code and "\n" not in code:
        if any(c in code for c in "*?<{") or "YYYY" in code:  # a pattern or a placeholder
            return None
        return code
    return None


def scan_wikilinks(text: str) -> list[tuple[int, str]]:
    """(offset, name) of each `[[name]]`, `[[name|text]]`, `[[name#heading]]` in plain text."""
    return [(m.start(), m.group(1).strip()) for m in _WIKILINK.finditer(text) if m.group(1).strip()]


def scan_href(href: str) -> tuple[str, str, str] | None:
    """(kind, value, form) for a link target; None for anchors, mail and other schemes."""
    href = href.strip()
    if not href or href.startswith("#"):
        return None
    if re.match(r"^https?://", href, re.IGNORECASE):
        kind, value = classify_url(href)
        return kind, value, "link"
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href):
        return None
    target = unquote(href.split("#", 1)[0].split("?", 1)[0])
    if not target:
        return None
    return "path", target, "link"
