"""Page templates: the files a knowledge base copies new notes from (Obsidian's and Templater's
`Templates/`, a `_template.md`).

Their fields and links are there to be filled in, so each reader of the tree treats them alike:
KB009 checks none of their links, `kbcheck init` leaves them out of the notes it counts and
proposes excluding them, and the digest calls a changed one bookkeeping. A file is a template by
its folder or its whole name, never by a word inside a name: `chapter-4-template.md` is a note
about C++ templates and `thought-template.md` a concept page (`docs/output.md`, "Bookkeeping
notes"; `docs/rules.md`, KB009).
"""

from __future__ import annotations

import posixpath

#: folders of page templates, case ignored
TEMPLATE_FOLDERS = frozenset({"template", "templates", "_template", "_templates", ".templates"})
#: file names (without `.md`, case ignored) of a page template kept beside the notes
TEMPLATE_STEMS = frozenset({"template", "templates", "_template", "_templates"})


def is_template_path(path: str) -> bool:
    """Whether the file is a page template: in a template folder, or named as one."""
    folders = path.casefold().split("/")
    stem = posixpath.splitext(folders.pop())[0]
    return stem in TEMPLATE_STEMS or any(folder in TEMPLATE_FOLDERS for folder in folders)


__all__ = ["TEMPLATE_FOLDERS", "TEMPLATE_STEMS", "is_template_path"]
