"""Find, load, validate and default the configuration (SPEC section 6).

Defaults, then `.kbcheck.toml` (or `[tool.kbcheck]` in `pyproject.toml`),
then command-line options, merged as plain dicts; the result is one frozen
`Config`. Every failure is a `ConfigError` naming the file and the key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

DEFAULT_REFERENCE_HEADING = r"(?i)§\s*七|^\s*七\s*[、.．]|参考|引用|\breferences?\b|\bbibliography\b"
DEFAULT_TREND_HEADING = r"(?i)§\s*6\.2(?![\d.])|^\s*6\.2(?![\d.])|趋势|\btrends?\b"
DEFAULT_OPEN_QUESTION_HEADING = r"(?i)§\s*6\.1(?![\d.])|^\s*6\.1(?![\d.])|开放问题|\bopen questions?\b"

#: every key, its default, in the order `kbcheck init` writes them
DEFAULTS: dict[str, Any] = {
    "knowledge": ["organized/knowledge/**/*.md"],
    "paper-cards": ["organized/paper_cards/*.md"],
    "repo-cards": ["organized/repo_cards/*.md"],
    "guides": ["organized/guides/**/*.md"],
    "briefs": ["inbox/*/**/*.md"],
    "manifests": ["organized/indexes/**/*.json"],
    "exclude": [],
    "reference-heading": DEFAULT_REFERENCE_HEADING,
    "trend-heading": DEFAULT_TREND_HEADING,
    "open-question-heading": DEFAULT_OPEN_QUESTION_HEADING,
    "uncertainty-markers": ["待核", "待核实", "unverified", "[?]"],
    "volatile-fields": [
        "s2_citations", "s2_influential", "openalex_updated", "stars",
        "weekly_growth", "last_commit", "collected",
    ],
    "low-citation-threshold": 5,
    "scope-categories": [],
    "lang": "zh",
    "baseline": ".kbcheck/baseline.json",
    "ignore": [],
    "severity": {},
    "per-file-ignores": {},
    "allow-unknown-authors": False,
    "reference-kinds": ["arxiv", "doi"],
    "max-file-size": 4 * 1024 * 1024,
    "roles": {"writer": ["inbox/{author}/**"], "maintainer": ["**"]},
    "authors": {},
}


@dataclass(frozen=True)
class Author:
    """A configured writer: its slug, the emails it commits with, its role."""

    slug: str
    emails: tuple[str, ...]
    role: str


@dataclass(frozen=True)
class Config:
    """The validated configuration. Field names are the TOML keys with `_`."""

    knowledge: tuple[str, ...] = tuple(DEFAULTS["knowledge"])
    paper_cards: tuple[str, ...] = tuple(DEFAULTS["paper-cards"])
    repo_cards: tuple[str, ...] = tuple(DEFAULTS["repo-cards"])
    guides: tuple[str, ...] = tuple(DEFAULTS["guides"])
    briefs: tuple[str, ...] = tuple(DEFAULTS["briefs"])
    manifests: tuple[str, ...] = tuple(DEFAULTS["manifests"])
    exclude: tuple[str, ...] = ()
    reference_heading: re.Pattern[str] = re.compile(DEFAULT_REFERENCE_HEADING)
    trend_heading: re.Pattern[str] = re.compile(DEFAULT_TREND_HEADING)
    open_question_heading: re.Pattern[str] = re.compile(DEFAULT_OPEN_QUESTION_HEADING)
    uncertainty_markers: tuple[str, ...] = tuple(DEFAULTS["uncertainty-markers"])
    volatile_fields: tuple[str, ...] = tuple(DEFAULTS["volatile-fields"])
    low_citation_threshold: int = 5
    scope_categories: tuple[str, ...] = ()
    lang: str = "zh"
    baseline: str = ".kbcheck/baseline.json"
    ignore: frozenset[str] = frozenset()
    severity: dict[str, str] = field(default_factory=dict)
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    allow_unknown_authors: bool = False
    reference_kinds: tuple[str, ...] = ("arxiv", "doi")
    max_file_size: int = 4 * 1024 * 1024
    roles: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: {"writer": ("inbox/{author}/**",), "maintainer": ("**",)}
    )
    authors: dict[str, Author] = field(default_factory=dict)
    #: where the configuration came from (for messages), None for defaults
    source: str | None = None

    def fingerprint(self) -> str:
        """What a cached parse of a document depends on (the heading patterns, markers)."""
        return "\0".join(
            (
                self.reference_heading.pattern,
                self.trend_heading.pattern,
                self.open_question_heading.pattern,
                *self.uncertainty_markers,
            )
        )
