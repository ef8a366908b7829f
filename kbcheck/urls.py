"""Where the project lives on the web: the home page, the docs, and each rule's doc.

One place for the addresses that `pyproject.toml`'s `[project.urls]`, SARIF's
`informationUri` and each rule's `helpUri` name (a test keeps them in step).
"""

from __future__ import annotations

HOMEPAGE = "https://github.com/kbcheck/kbcheck"
#: the docs folder as the home page shows it
DOCS = f"{HOMEPAGE}/blob/main/docs"


def rule_doc_url(rule_id: str, name: str) -> str:
    """The rule's section of `docs/rules.md`: its heading `## KB005 unverified-number` as an anchor."""
    return f"{DOCS}/rules.md#{rule_id.lower()}-{name.lower()}"
