"""The baseline: a recorded commit plus the fingerprints of the findings accepted there.

(Placeholder until the CI side lands: no baseline means nothing is accepted.)
"""

from __future__ import annotations

from typing import Any


def accepted_fingerprints(repo: Any, config: Any, use: bool | None) -> frozenset[str]:
    return frozenset()
