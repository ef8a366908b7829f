"""Which of a run's findings the baseline accepts: counted per identity, new ones placed on added lines.

A finding's identity is its rule, file, subject and the text of its line
(as detect-secrets hashes a secret with its line): a new line repeating an
old finding's subject is a new identity. Where several findings share one
identity (the same line written twice), the baseline accepts as many as it
recorded and no more, and the ones beyond that count are the ones on lines
the change added: an old line never takes the place of a new one. A file
renamed since the baseline is looked up under its old path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kbcheck.findings import fingerprint

if TYPE_CHECKING:
    from kbcheck.engine import Stamped


@dataclass(frozen=True)
class Accepted:
    """The fingerprints a baseline accepts and how to look a finding up in them."""

    fingerprints: frozenset[str] = frozenset()
    #: fingerprints from a baseline written before line text was part of them (rule, path, subject, occurrence)
    legacy: bool = False
    #: a path of the checked tree -> its path in the baseline's commit (renamed since)
    renamed: Mapping[str, str] = field(default_factory=dict)

    def matched(self, stamped: Sequence[Stamped], added: Mapping[str, set[int]] | None) -> set[int]:
        """The indices of `stamped` the baseline accepts."""
        if not self.fingerprints:
            return set()
        groups: dict[tuple[str, str, str, str], list[int]] = {}
        for index, item in enumerate(stamped):
            context = "" if self.legacy else item.context
            groups.setdefault((item.rule, item.problem.path, item.problem.subject, context), []).append(index)
        accepted: set[int] = set()
        for (rule, path, subject, context), members in groups.items():
            members.sort(key=lambda i: (stamped[i].problem.line, stamped[i].problem.column))
            old_path = self.renamed.get(path, path)
            count = sum(1 for occurrence in range(len(members))
                        if fingerprint(rule, old_path, subject, occurrence, context) in self.fingerprints)
            if not count:
                continue
            lines = added.get(path, set()) if added is not None else set()
            # old lines first: what the change added is what the baseline cannot have accepted
            members.sort(key=lambda i: stamped[i].problem.line in lines)
            accepted.update(members[:count])
        return accepted


def as_accepted(value: Accepted | frozenset[str]) -> Accepted:
    return value if isinstance(value, Accepted) else Accepted(value)


__all__ = ["Accepted", "as_accepted"]
