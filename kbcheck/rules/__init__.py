"""The registry of rules: each module `kbNNN_<name>.py` of this package is one rule.

It is the only list of rule ids. An id is read from its module's file name
without importing the module, so validating a configuration stays cheap;
`kbcheck rules`, `kbcheck explain`, the engine and `docs/rules.md` all read the
same registry. Adding a rule is adding its module (see `docs/architecture.md`).
Unknown ids are refused, not ignored.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import TYPE_CHECKING

from kbcheck.errors import UsageError
from kbcheck.i18n import _
from kbcheck.regex import lazy
from kbcheck.rules.base import Rule

if TYPE_CHECKING:
    from kbcheck.config import Config

#: `kb005_unverified_number` is the module of rule KB005
_RULE_MODULE = lazy(r"kb(\d{3})_[a-z0-9_]+")


@lru_cache(maxsize=1)
def _rule_modules() -> tuple[tuple[str, str], ...]:
    """(rule id, module name) of every rule module in the package, in id order."""
    found: dict[str, str] = {}
    for module in pkgutil.iter_modules(__path__):
        named = _RULE_MODULE.fullmatch(module.name)
        if named is None:
            continue
        rule_id = f"KB{named.group(1)}"
        if rule_id in found:
            raise RuntimeError(f"two rule modules claim {rule_id}: {found[rule_id]} and {module.name}")
        found[rule_id] = module.name
    return tuple(sorted(found.items()))


def rule_ids() -> tuple[str, ...]:
    """Every rule id, in id order, without importing any rule."""
    return tuple(rule_id for rule_id, _ in _rule_modules())


@lru_cache(maxsize=1)
def all_rules() -> dict[str, Rule]:
    """Every rule by id, in id order."""
    rules: dict[str, Rule] = {}
    for rule_id, name in _rule_modules():
        rule = Rule.from_module(importlib.import_module(f"{__name__}.{name}"))
        if rule.id != rule_id:  # else config and engine would disagree about what exists
            raise RuntimeError(f"rule module {name} declares ID {rule.id!r}; its file name says {rule_id}")
        rules[rule_id] = rule
    return rules


def get_rule(rule_id: str) -> Rule:
    """The rule with this id (case-insensitive); a UsageError naming the valid ids otherwise."""
    rules = all_rules()
    rule = rules.get(rule_id.strip().upper())
    if rule is None:
        raise UsageError(_("unknown rule '{rule}'; valid rules are {rules}", rule=rule_id, rules=", ".join(rules)))
    return rule


def find_rule(key: str) -> Rule:
    """The rule with this id (`KB005`) or name (`unverified-number`), case-insensitive, as a user
    names it (`kbcheck explain`, `--select`); a UsageError with the closest spelling otherwise."""
    import difflib

    rules = all_rules()
    wanted = key.strip()
    for rule in rules.values():
        if wanted.upper() == rule.id or wanted.lower() == rule.name:
            return rule
    spellings = [*rules, *(rule.name for rule in rules.values())]
    close = difflib.get_close_matches(wanted.upper() if wanted[:2].lower() == "kb" else wanted.lower(), spellings, n=1)
    if close:
        raise UsageError(_("unknown rule '{rule}'; did you mean {close}? (valid rules: {rules}, or their names; see `kbcheck rules`)",
                           rule=key, close=close[0], rules=", ".join(rules)))
    raise UsageError(_("unknown rule '{rule}' (valid rules: {rules}, or their names; see `kbcheck rules`)",
                       rule=key, rules=", ".join(rules)))


def forget_discovered() -> None:
    """Look for rule modules again on next use (after one was added at run time)."""
    _rule_modules.cache_clear()
    all_rules.cache_clear()


def rule_option(config: Config, rule_id: str, name: str) -> tuple[str, ...]:
    """A rule's option as configured (`[rules.KB005] exempt = [...]`), else the rule's default."""
    configured = config.rules.get(rule_id, {})
    if name in configured:
        return configured[name]
    return dict(get_rule(rule_id).options)[name].default
