"""Keep kbcheck's message catalogs in step with the code (needs Babel: `pip install -e '.[test]'`).

    python tools/catalogs.py          # extract the messages, update each .po, compile each .mo
    python tools/catalogs.py --check  # exit 1 and say what is stale or untranslated

The messages are what Babel extracts from `_(...)` and `ngettext(...)` calls
in `kbcheck/`, each prose paragraph of the rules' docs (what `kbcheck
explain` prints), and the digest's phrases (their key is their context). A new message enters `kbcheck/locale/<lang>/LC_MESSAGES/kbcheck.po`
untranslated: write its translation there and run this again, which
compiles the `.mo` that ships in the package. `tests/test_i18n.py` runs the check.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kbcheck"
LOCALE = PACKAGE / "locale"
DOMAIN = "kbcheck"
TRANSLATED = ("zh",)
KEYWORDS = {"_": None, "ngettext": (1, 2)}
HEADER = "# Messages of kbcheck. English is the source language; see tools/catalogs.py.\n#"
#: the catalog's own header fields, the same whoever runs this
ABOUT = {"project": "kbcheck", "version": "", "msgid_bugs_address": "https://github.com/kbcheck/kbcheck/issues",
         "last_translator": "kbcheck maintainers", "language_team": "kbcheck maintainers"}

sys.path.insert(0, str(ROOT))


def template() -> Catalog:
    """Every message kbcheck says: extracted from the code, the rules' doc paragraphs, the digest's phrases."""
    from kbcheck.digest.phrases import phrases
    from kbcheck.explain_render import doc_paragraphs
    from kbcheck.rules import all_rules

    catalog = Catalog(domain=DOMAIN, header_comment=HEADER, fuzzy=False, **ABOUT)
    for filename, lineno, message, comments, context in extract_from_dir(PACKAGE, keywords=KEYWORDS):
        catalog.add(message, locations=[(f"kbcheck/{filename}", lineno)], auto_comments=comments, context=context)
    for rule in all_rules().values():
        for paragraph in doc_paragraphs(rule.doc):
            catalog.add(paragraph, locations=[(f"kbcheck explain {rule.id}", 0)])
    for key, english in phrases().items():
        catalog.add(english, locations=[("kbcheck/digest/phrases.py", 0)], context=key)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def updated(lang: str, messages: Catalog) -> Catalog:
    """The language's catalog with every current message (old translations kept, obsolete ones dropped)."""
    path = po_path(lang)
    if path.exists():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=DOMAIN)
    else:
        catalog = Catalog(locale=lang, domain=DOMAIN, header_comment=HEADER, fuzzy=False, **ABOUT)
    for name, value in ABOUT.items():
        setattr(catalog, name, value)
    catalog.update(messages, no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    catalog.revision_date = catalog.creation_date  # no churn: the file changes only with its messages
    return catalog


def po_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, include_lineno=False, ignore_obsolete=True)
    # the file depends on its messages only, not on the Babel that wrote it
    return re.sub(rb'"Generated-By: [^"]*"\n', b"", buffer.getvalue())


def mo_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def untranslated(catalog: Catalog) -> list[str]:
    """The msgids with no translation (every plural form counts)."""
    missing: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def problems() -> list[str]:
    """What `--check` reports: a stale .po or .mo, or a message without its translation."""
    messages = template()
    found: list[str] = []
    for lang in TRANSLATED:
        catalog = updated(lang, messages)
        po, mo = po_path(lang), po_path(lang).with_suffix(".mo")
        if not po.exists() or po.read_bytes() != po_bytes(catalog):
            found.append(f"{po.relative_to(ROOT)} is stale: run python tools/catalogs.py")
        if not mo.exists() or mo.read_bytes() != mo_bytes(catalog):
            found.append(f"{mo.relative_to(ROOT)} is not compiled from its .po: run python tools/catalogs.py")
        found.extend(f"{po.relative_to(ROOT)}: no translation of {msgid!r}" for msgid in untranslated(catalog))
    return found


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    messages = template()
    for lang in TRANSLATED:
        catalog = updated(lang, messages)
        po = po_path(lang)
        po.parent.mkdir(parents=True, exist_ok=True)
        po.write_bytes(po_bytes(catalog))
        po.with_suffix(".mo").write_bytes(mo_bytes(catalog))
        missing = untranslated(catalog)
        print(f"{po.relative_to(ROOT)}: {len(catalog)} messages, {len(missing)} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
