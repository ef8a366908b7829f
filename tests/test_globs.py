"""Globs match as pathspec's gitignore patterns do (`kbcheck/globs.py`): the literal start of an
anchored glob only rules paths out, it never changes an answer."""

from __future__ import annotations

import pathspec
from hypothesis import given, settings
from hypothesis import strategies as st

from kbcheck.globs import GlobSet, glob_error

SEGMENTS = ["docs", "ACL2025", "a.b", "a b", "文档", "*", "**", "?", "x?", "[ab]c", "*.md", "README.md", "ai_safety"]
PATHS = ["docs/ACL2025/ai_safety/x/y.md", "README.md", "docs/a.b/README.md", "docsXa.b/x", "a b/c.md",
         "文档/笔记/一.md", "x/ac/q.md", "docs/ACL2025/README.md", "ai_safety/x.md", "/docs/x.md", "./README.md",
         "docs", "docs/ACL2025", "bc/README.md", "xy/docs/ACL2025/a.md"]


def _glob(parts: list[str], anchored: bool, trailing: bool, negated: bool) -> str:
    glob = ("/" if anchored else "") + "/".join(parts) + ("/" if trailing else "")
    return ("!" if negated else "") + glob


globs = st.builds(_glob, st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=4), st.booleans(), st.booleans(),
                  st.booleans())


@settings(max_examples=300, deadline=None)
@given(st.lists(globs, min_size=1, max_size=5))
def test_a_glob_set_matches_as_pathspec_does(patterns: list[str]) -> None:
    spec = pathspec.PathSpec.from_lines("gitignore", patterns)
    ours = GlobSet(patterns)
    assert [ours.match(path) for path in PATHS] == [bool(spec.match_file(path)) for path in PATHS]


def test_many_folder_globs_match_only_their_folders() -> None:
    """What `kbcheck init` writes for a large collection: one glob per topic folder."""
    folders = [f"docs/V{venue}/topic_{topic}" for venue in range(4) for topic in range(50)]
    ours = GlobSet([f"{folder}/**/*.md" for folder in folders])
    assert ours.match("docs/V3/topic_49/a/note.md")
    assert ours.match("docs/V0/topic_0/note.md")
    assert not ours.match("docs/V3/topic_49.md")
    assert not ours.match("docs/V4/topic_0/note.md")
    assert not ours.match("docs/V3/topic_4/note.txt")


def test_a_glob_pathspec_refuses_has_its_reason() -> None:
    assert glob_error("docs/[z-a]/*.md") == "bad character range z-a at position 7"
    assert glob_error("a\\") == "Invalid git pattern: 'a\\\\'"
    assert glob_error("docs/[ab]/*.md") is None
    assert glob_error("docs/**/*.md") is None
