"""The explicit registry of rules; unknown ids are refused, not ignored."""

from __future__ import annotations

import importlib
from functools import lru_cache

from kbcheck.errors import UsageError
from kbcheck.rules.base import Rule

_MODULES = (
    "kb001_uncited_trend_line",
    "kb002_cited_but_absent",
    "kb003_missing_reference",
    "kb004_unknown_paper",
    "kb005_unverified_number",
    "kb006_stale_number",
    "kb007_write_outside_inbox",
    "kb008_malformed_card",
    "kb009_broken_path",
)
RULE_IDS = tuple(f"KB00{i}" for i in range(1, 10))


@lru_cache(maxsize=1)
def all_rules() -> dict[str, Rule]:
    """Every rule by id, in id order."""
    rules = [Rule.from_module(importlib.import_module(f"kbcheck.rules.{name}")) for name in _MODULES]
    return {rule.id: rule for rule in rules}


def get_rule(rule_id: str) -> Rule:
    """The rule with this id (case-insensitive); a UsageError naming the valid ids otherwise."""
    rules = all_rules()
    rule = rules.get(rule_id.strip().upper())
    if rule is None:
        raise UsageError(f"unknown rule '{rule_id}'; valid rules are {', '.join(rules)}")
    return rule
