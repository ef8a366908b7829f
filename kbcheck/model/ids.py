"""Normal forms of the ids a knowledge base cites: arXiv, DOI, GitHub repo.

Normalising twice equals normalising once: `2610.02076v2` -> `2610.02076`,
`arXiv:hep-th/9901001v3` -> `hep-th/9901001`, DOIs and repos lower-cased.
"""

from __future__ import annotations

import re

from kbcheck.regex import lazy

#: a new-style arXiv id (YYMM.NNNN or YYMM.NNNNN) with an optional version
ARXIV_NEW = r"(?P<yymm>\d{4})\.(?P<num>\d{4,5})(?:v\d+)?"
#: an old-style arXiv id: archive(.SUBJ)/YYMMNNN
ARXIV_OLD = r"(?P<archive>[a-z][a-z-]*(?:\.[A-Z]{2})?)/(?P<oldnum>\d{7})(?:v\d+)?"

_VERSION = lazy(r"v\d+$", re.IGNORECASE)
_NEW_ID = lazy(r"^\d{4}\.\d{4,5}$")
_OLD_ID = lazy(r"^[a-z][a-z-]*(?:\.[a-z]{2})?/\d{7}$")


def real_month(yymm: str) -> bool:
    """True for a YYMM that arXiv could have used: a real month from 0704 on."""
    if len(yymm) != 4 or not yymm.isdigit():
        return False
    return 1 <= int(yymm[2:]) <= 12 and int(yymm) >= 704


def normalize_arxiv(raw: str) -> str:
    """`arXiv:2610.02076v2` -> `2610.02076`; old-style ids keep their archive, lower-cased."""
    text = raw.strip()
    if text[:6].lower() == "arxiv:":
        text = text[6:].strip()
    text = _VERSION.sub("", text)
    if "/" in text:
        text = text.lower()
    return text


def is_arxiv_id(text: str) -> bool:
    """True for a normalised arXiv id of either style."""
    if _NEW_ID.match(text):
        return real_month(text[:4])
    return bool(_OLD_ID.match(text))


def normalize_doi(raw: str) -> str:
    """DOIs compare case-insensitively: lower-case, no `doi:` prefix, no trailing punctuation."""
    text = raw.strip()
    if text[:4].lower() == "doi:":
        text = text[4:].strip()
    return text.rstrip(".,;:)]}>'\"").lower()


#: arXiv's own DOIs (`10.48550/arXiv.2412.08905`) name the arXiv paper
_ARXIV_DOI = lazy(r"^10\.48550/arxiv\.(\d{4}\.\d{4,5})(?:v\d+)?$", re.IGNORECASE)


def same_work(kind: str, value: str) -> tuple[str, str]:
    """One (kind, id) for the ids that name the same work: arXiv's DOI for a paper is its arXiv id."""
    if kind == "doi":
        m = _ARXIV_DOI.match(value)
        if m and real_month(m.group(1)[:4]):
            return "arxiv", m.group(1)
    return kind, value


def normalize_repo(raw: str) -> str:
    """`Owner/Repo.git` -> `owner/repo`."""
    text = raw.lower()
    previous = None
    while text != previous:  # one pass must be enough to be idempotent: `/ x.git/` -> `x`
        previous = text
        text = text.strip().strip("/")
        if text.endswith(".git"):
            text = text[:-4]
    return text


def arxiv_to_file_stem(arxiv_id: str) -> str:
    """The part of a paper card's file name that carries its id: `.` and `/` as `-`."""
    return arxiv_id.replace(".", "-").replace("/", "-").lower()
