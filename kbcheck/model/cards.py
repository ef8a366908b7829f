"""Paper and repo cards: YAML frontmatter read safely, checked, summarised.

A `Card` keeps what rules and the digest need (id, fields, the numbers it
contains, its problems for KB008) and nothing else, so it stays small in
the blob cache. Malformed YAML is a problem on the card, never an exception.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from kbcheck.i18n import Text, _
from kbcheck.model.citations import scan_prose
from kbcheck.model.claims import numeric_values
from kbcheck.model.ids import arxiv_to_file_stem, is_arxiv_id, normalize_arxiv, normalize_repo
from kbcheck.regex import lazy

PAPER, REPO = "paper_card", "repo_card"
REQUIRED = {PAPER: ("arxiv", "title"), REPO: ("repo",)}
_ID_FIELDS = ("arxiv", "repo")
_FM_BOUNDARY = lazy(r"^-{3,}\s*$", re.MULTILINE)
_SEQ_PREFIX = lazy(r"^\d+-(?P<rest>.+)\.md$", re.IGNORECASE)
#: frontmatter values read at most, aliases expanded (a YAML alias bomb expands to billions);
#: far above any real card, whose frontmatter holds tens of fields (documented under KB008)
_MAX_NODES = 100_000
_MAX_DEPTH = 20


@dataclass(frozen=True)
class CardProblem:
    """A reason the card is malformed (KB008), with its 1-based line."""

    line: int
    message: str
    #: how the message was said (`Text.plain`), so an output can say it in another language
    said: tuple[str, ...] = ()

    @classmethod
    def of(cls, line: int, message: Text) -> CardProblem:
        return cls(line, str(message), message.plain())


@dataclass(frozen=True)
class Card:
    """One card's frontmatter summary."""

    path: str
    kind: str
    #: the normalised id: from the frontmatter when valid, else from the file name
    id: str | None
    fields: dict[str, Any]
    problems: tuple[CardProblem, ...] = ()
    #: first line of the body after the frontmatter (1-based), for parsing the body
    body_line: int = 1
    has_body: bool = False
    #: numeric field values, and the text (string fields and body) whose numbers `numbers` adds;
    #: kept as it is: compressing every card's small text cost more than a tenth of a cold full
    #: check, and a run holds only the cards it is checking or that are cited
    number_fields: frozenset[float] = frozenset()
    number_text: str = field(default="", repr=False, compare=False)
    roots: tuple[str, ...] = field(default=("organized", "inbox"), repr=False, compare=False)

    @cached_property
    def numbers(self) -> frozenset[float]:
        """Every numeric value in frontmatter and body (dates and ids excluded).

        Read on first use: only the cards cited as evidence for a claim are
        asked, and scanning every card's text up front was a quarter of a
        cold full check.
        """
        return self.number_fields | frozenset(numeric_values(scan_prose(self.number_text, self.roots)[1]))

    @property
    def numbers_known(self) -> bool:
        """True once `numbers` has been read."""
        return "numbers" in self.__dict__

    @property
    def title(self) -> str:
        return str(self.fields.get("title") or self.fields.get("repo") or self.id or self.path)

    def number_field(self, name: str) -> float | None:
        """A numeric frontmatter field, or None when absent or not a number."""
        value = self.fields.get(name)
        if isinstance(value, bool):
            return None
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value.replace(",", "").strip())
            except ValueError:
                return None
        return None


def file_id(path: str, kind: str) -> str | None:
    """The id a card's file name carries: `1695-2610-02076.md` -> `2610-02076` stem."""
    name = path.rsplit("/", 1)[-1]
    m = _SEQ_PREFIX.match(name)
    if not m:
        return None
    return m.group("rest").lower()


def paper_id_from_stem(stem: str) -> str | None:
    """`2610-02076` -> `2610.02076`; old style `hep-th-9901001` -> `hep-th/9901001`."""
    m = re.match(r"^(\d{4})-(\d{4,5})$", stem)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    m = re.match(r"^([a-z][a-z.-]*)-(\d{7})$", stem)
    if m:
        return f"{m.group(1)}/{m.group(2)}"
    return None


def split_frontmatter(text: str) -> tuple[str | None, int, str]:
    """(frontmatter text or None, 1-based line where the body starts, body)."""
    if not text.startswith("---"):
        return None, 1, text
    bounds = list(_FM_BOUNDARY.finditer(text))
    if len(bounds) < 2 or bounds[0].start() != 0:
        return None, 1, text
    fm = text[bounds[0].end() : bounds[1].start()]
    body_start = bounds[1].end()
    if body_start < len(text) and text[body_start] == "\n":
        body_start += 1
    return fm, text.count("\n", 0, body_start) + 1, text[body_start:]


def _loader() -> Any:
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(fm: str) -> tuple[Any, CardProblem | None]:
    """Parse frontmatter via python-frontmatter's YAML handler with the C safe loader."""
    import yaml
    from frontmatter.default_handlers import YAMLHandler

    try:
        return YAMLHandler().load(fm, Loader=_loader()), None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1) if mark is not None else 1
        reason = (exc.problem or exc.context or "invalid YAML").strip()
        return None, CardProblem.of(line, _("frontmatter is not valid YAML: {reason}", reason=reason))
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return None, CardProblem.of(1, _("frontmatter is not valid YAML: {reason}", reason=reason))


@dataclass(frozen=True)
class Frontmatter:
    """A file's frontmatter, read once the one way: python-frontmatter's YAML handler with the C
    safe loader, then bounded plain data (at most `_MAX_NODES` values, aliases expanded, and
    `_MAX_DEPTH` levels), so an alias bomb costs the same little in a card, a note and the digest."""

    #: the YAML text between the `---` lines; None when the file has no frontmatter
    text: str | None
    #: the value: a mapping as plain data (dates as ISO strings), any other value as YAML read it,
    #: None when empty or unreadable
    data: Any
    #: why it could not be read (invalid YAML, too many values, too deep), None when it was
    problem: CardProblem | None
    #: the 1-based line where the body starts, and the body
    body_line: int
    body: str

    @property
    def fields(self) -> dict[str, Any] | None:
        """The fields when the frontmatter is a readable mapping, else None."""
        return self.data if isinstance(self.data, dict) else None


def read_frontmatter(text: str) -> Frontmatter:
    """The frontmatter of a file's text (`Frontmatter`)."""
    fm, body_line, body = split_frontmatter(text)
    if fm is None:
        return Frontmatter(None, None, None, body_line, body)
    return Frontmatter(fm, *_bounded_yaml(fm), body_line, body)


def _bounded_yaml(fm: str) -> tuple[Any, CardProblem | None]:
    data, problem = _load_yaml(fm)
    if problem is None and isinstance(data, dict):
        try:
            data = _plain(data, [_MAX_NODES])
        except ValueError as exc:
            reason = exc.args[0] if exc.args else exc
            return None, CardProblem.of(2, reason) if isinstance(reason, Text) else CardProblem(2, str(exc))
    return data, problem


def load_frontmatter(fm: str) -> Any:
    """Frontmatter text (between the `---` lines) as data, read as `read_frontmatter` reads it;
    None when it is not readable YAML."""
    return _bounded_yaml(fm)[0]


def frontmatter_fields(text: str) -> tuple[dict[str, Any], int]:
    """(a file's frontmatter fields, 1-based line where its body starts): `{}` without a readable mapping."""
    front = read_frontmatter(text)
    return front.fields or {}, front.body_line


def _plain(value: Any, budget: list[int], depth: int = 0) -> Any:
    """YAML values as JSON-safe data (dates as ISO strings), bounded against alias bombs."""
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueError(_("frontmatter holds more than {count} values (YAML aliases expanded); kbcheck reads no more",
                           count=_MAX_NODES))
    if depth > _MAX_DEPTH:
        raise ValueError(_("frontmatter is nested more than {depth} levels deep; kbcheck reads no deeper", depth=_MAX_DEPTH))
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v, budget, depth + 1) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


#: joins a card's strings for one scan; no id, URL, path or number pattern reads across it
_APART = "\n\0\n"


def _number_parts(value: Any) -> tuple[set[float], list[str]]:
    """The numeric values in frontmatter data, and its strings (whose numbers are read later)."""
    found: set[float] = set()
    texts: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, (int, float)):
            found.add(abs(float(item)))
        elif isinstance(item, str):
            texts.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found, texts


def parse_card(path: str, kind: str, text: str, roots: tuple[str, ...] = ("organized", "inbox")) -> Card:
    """Read a card's frontmatter, check it (KB008) and summarise it."""
    problems: list[CardProblem] = []
    front = read_frontmatter(text)
    fm, body_line, body = front.text, front.body_line, front.body
    fields: dict[str, Any] = front.fields or {}
    if fm is None:
        problems.append(CardProblem.of(1, _("card has no YAML frontmatter (a `---` block at the top)")))
    elif front.problem is not None:
        problems.append(front.problem)
    elif front.data is None:
        problems.append(CardProblem.of(1, _("card frontmatter is empty")))
    elif front.fields is None:
        problems.append(CardProblem.of(2, _("card frontmatter must be a mapping of fields, not a {type}",
                                            type=type(front.data).__name__)))
    missing = [name for name in REQUIRED.get(kind, ()) if fm is not None and not problems and fields.get(name) in (None, "")]
    for name in missing:
        problems.append(CardProblem.of(2, _("required field '{field}' is missing", field=name)))
    card_id, id_problem = _card_id(path, kind, fields)
    if id_problem is not None and not missing and not problems:
        problems.append(id_problem)
    # the card's own id is not a number it states (`hep-th/9901001`, an unquoted `1605.08803`)
    stated = {name: value for name, value in fields.items() if name not in _ID_FIELDS}
    number_fields, texts = _number_parts(stated)
    return Card(
        path=path, kind=kind, id=card_id, fields=fields,
        problems=tuple(problems), body_line=body_line, has_body=bool(body.strip()),
        # one scan of all the strings instead of one per field: the same numbers, far fewer regex passes
        number_fields=frozenset(number_fields), roots=tuple(roots),
        number_text=_APART.join([*texts, body]),
    )


def _card_id(path: str, kind: str, fields: dict[str, Any]) -> tuple[str | None, CardProblem | None]:
    stem = file_id(path, kind)
    name = path.rsplit("/", 1)[-1]
    if kind == PAPER:
        from_name = paper_id_from_stem(stem) if stem else None
        raw = fields.get("arxiv")
        if raw in (None, ""):
            return from_name, None
        if isinstance(raw, float) and not isinstance(raw, bool):
            # unquoted, YAML reads a number and drops trailing zeros (2610.02070 -> 2610.0207)
            if from_name is not None and "/" not in from_name and float(from_name) == raw:
                return from_name, None
            return from_name, CardProblem.of(2, _("field 'arxiv' must be a quoted string: YAML reads it as the number {value}",
                                                  value=repr(raw)))
        declared = normalize_arxiv(str(raw))
        if not is_arxiv_id(declared):
            return from_name, CardProblem.of(2, _("field 'arxiv' is not an arXiv id: {value}", value=repr(raw)))
        if from_name is None:
            return declared, CardProblem.of(1, _("file name {name} does not follow NNNN-YYMM-NNNNN.md", name=repr(name)))
        if arxiv_to_file_stem(declared) != stem:
            return declared, CardProblem.of(2, _("arxiv {id} disagrees with the file name {name} (expected …-{stem}.md)",
                                                 id=declared, name=repr(name), stem=arxiv_to_file_stem(declared)))
        return declared, None
    raw = fields.get("repo")
    if raw in (None, ""):
        return None, None
    declared = normalize_repo(str(raw))
    if declared.count("/") != 1:
        return None, CardProblem.of(2, _("field 'repo' must be owner/repo, got {value}", value=repr(raw)))
    if stem is None:
        return declared, CardProblem.of(1, _("file name {name} does not follow NNNN-owner-repo.md", name=repr(name)))
    if declared.replace("/", "-") != stem:
        return declared, CardProblem.of(2, _("repo {id} disagrees with the file name {name} (expected …-{stem}.md)",
                                             id=declared, name=repr(name), stem=declared.replace("/", "-")))
    return declared, None
