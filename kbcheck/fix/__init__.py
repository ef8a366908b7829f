"""Fixes: the edits findings carry, and how `kbcheck check --fix` applies them.

`edits` builds an `Edit` from what a rule already knows, only when the
change is provably safe; `apply` applies edits to a file's bytes; `worktree`
reads and atomically replaces files; `run` ties them to a check's report.
Rules import `edits` alone: checking never depends on writing.
"""
