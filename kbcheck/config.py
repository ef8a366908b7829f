"""Find, load, validate and default the configuration (`docs/configuration.md`).

Defaults, then `.kbcheck.toml` (or `[tool.kbcheck]` in `pyproject.toml`),
merged as plain dicts, then validated in one place into one frozen `Config`
(command-line options are applied by the caller on top). Every failure is a
`ConfigError` whose one-line message names the file and the key.
"""

from __future__ import annotations

import difflib
import json
import os
import posixpath
import re
import stat
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from kbcheck.authors import identity_key
from kbcheck.errors import ConfigError
from kbcheck.findings import SEVERITIES
from kbcheck.globs import matches
from kbcheck.i18n import LANGS, Text, _
from kbcheck.links.site import AUTO as AUTO_RENDERER
from kbcheck.links.site import RENDERERS
from kbcheck.patterns import HeadingRegex
from kbcheck.rules import rule_ids

# The special sections are found by their keyword anywhere in the heading
# (`未来 6 到 18 个月趋势预测`), or by the seed's own labels (`§6.2`, `§七`,
# `§6.1`); a bare number (`6.2 代表性研究工作`) names no role, and `参考` alone
# is a verb as often as a noun (`参考LLM建模方式`), so it counts only as the
# whole heading. Each pattern is a plain
# alternation with no quantifier nested in another, so it runs in linear time
# on any heading (see docs/configuration.md).
DEFAULT_REFERENCE_HEADING = (
    r"(?i)§\s*七(?![\d一二三四五六七八九十])|参考(?:文献|资料|链接)|引用(?:列表|文献)"
    r"|\breferences\b|^[\W\d一二三四五六七八九十]*(?:参考|引用|reference)\W*$|\bbibliography\b|\bfurther reading\b|\bworks cited\b"
)
DEFAULT_TREND_HEADING = r"(?i)§\s*6\.2(?![\d.])|趋势|\btrends?\b"
DEFAULT_OPEN_QUESTION_HEADING = r"(?i)§\s*6\.1(?![\d.])|开放问题|\bopen questions?\b"
#: sections that point elsewhere or ask, never homes for new material (the digest's placement)
DEFAULT_NO_HOME_HEADING = (r"(?i)\bsee also\b|\brelated (?:concepts|pages|links|notes|topics|entities|articles)\b"
                           r"|相关(?:页面|链接|笔记|概念|条目|阅读)|另见|参见|延伸阅读|扩展阅读|待追问|待确认|待解决"
                           r"|\b(?:evolution|change|revision|update|edit)\s*log\b|更新(?:日志|记录)|变更记录|修订记录")

#: every key, its default, in the order `kbcheck init` writes them
DEFAULTS: dict[str, Any] = {
    "knowledge": ["organized/knowledge/**/*.md"],
    "paper-cards": ["organized/paper_cards/*.md"],
    "repo-cards": ["organized/repo_cards/*.md"],
    "guides": ["organized/guides/**/*.md"],
    "briefs": ["inbox/*/**/*.md"],
    "manifests": ["organized/indexes/**/*.json"],
    "exclude": [],
    "link-renderer": "auto",
    "site-root": "",
    "local-paths": [],
    "one-work-notes": [],
    "reference-heading": DEFAULT_REFERENCE_HEADING,
    "trend-heading": DEFAULT_TREND_HEADING,
    "open-question-heading": DEFAULT_OPEN_QUESTION_HEADING,
    "no-home-heading": DEFAULT_NO_HOME_HEADING,
    "uncertainty-markers": ["待核", "待核实", "unverified", "[?]"],
    "volatile-fields": [
        "s2_citations", "s2_influential", "openalex_updated", "stars",
        "weekly_growth", "last_commit", "collected",
    ],
    "low-citation-threshold": 5,
    "backfill-age-years": 3,
    "restored-age-years": 1,
    "scope-categories": [],
    "lang": "zh",
    "baseline": ".kbcheck/baseline.json",
    "ignore": [],
    "severity": {},
    "per-file-ignores": {},
    "allow-unknown-authors": False,
    "reference-kinds": ["arxiv", "doi"],
    "max-file-size": 4 * 1024 * 1024,
    "roles": {"writer": ["inbox/{author}/**"], "maintainer": ["**"]},
    "authors": {},
    "rules": {},
}


@dataclass(frozen=True)
class Author:
    """A configured writer: its slug, the e-mails it commits with, its role, its forge logins.

    E-mails and logins are kept as `identity_key` gives them.
    """

    slug: str
    emails: tuple[str, ...]
    role: str
    logins: tuple[str, ...] = ()


@dataclass(frozen=True)
class Config:
    """The validated configuration. Field names are the TOML keys with `_`."""

    knowledge: tuple[str, ...] = tuple(DEFAULTS["knowledge"])
    paper_cards: tuple[str, ...] = tuple(DEFAULTS["paper-cards"])
    repo_cards: tuple[str, ...] = tuple(DEFAULTS["repo-cards"])
    guides: tuple[str, ...] = tuple(DEFAULTS["guides"])
    briefs: tuple[str, ...] = tuple(DEFAULTS["briefs"])
    manifests: tuple[str, ...] = tuple(DEFAULTS["manifests"])
    exclude: tuple[str, ...] = ()
    link_renderer: str = "auto"
    site_root: str = ""
    local_paths: tuple[str, ...] = ()
    one_work_notes: tuple[str, ...] = ()
    reference_heading: HeadingRegex = re.compile(DEFAULT_REFERENCE_HEADING)
    trend_heading: HeadingRegex = re.compile(DEFAULT_TREND_HEADING)
    open_question_heading: HeadingRegex = re.compile(DEFAULT_OPEN_QUESTION_HEADING)
    no_home_heading: HeadingRegex = re.compile(DEFAULT_NO_HOME_HEADING)
    uncertainty_markers: tuple[str, ...] = tuple(DEFAULTS["uncertainty-markers"])
    volatile_fields: tuple[str, ...] = tuple(DEFAULTS["volatile-fields"])
    low_citation_threshold: int = 5
    backfill_age_years: int = 3
    restored_age_years: int = 1
    scope_categories: tuple[str, ...] = ()
    lang: str = "zh"
    baseline: str = ".kbcheck/baseline.json"
    ignore: frozenset[str] = frozenset()
    severity: dict[str, str] = field(default_factory=dict)
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    allow_unknown_authors: bool = False
    reference_kinds: tuple[str, ...] = ("arxiv", "doi")
    max_file_size: int = 4 * 1024 * 1024
    roles: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: {"writer": ("inbox/{author}/**",), "maintainer": ("**",)}
    )
    authors: dict[str, Author] = field(default_factory=dict)
    #: per-rule options (`[rules.KB005] exempt = [...]`) as set in the file; a rule's own defaults
    #: stand for the rest (`kbcheck.rules.rule_option`)
    rules: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    #: where the configuration came from (for messages), None for defaults
    source: str | None = None
    #: KB007's policy only: the trusted revision that has no configuration file, while the
    #: run has one (the change adopting kbcheck); KB007 then says so (docs/adopting.md)
    unconfigured_base: str | None = None
    #: the language of kbcheck's messages: `lang` when the file sets it, else English (the digest
    #: alone follows `lang`'s default; see docs/configuration.md). How findings are said, not which
    #: there are: two configurations that check alike are equal
    message_lang: str = field(default="en", compare=False)

    def fingerprint(self) -> str:
        """What a cached parse of a document depends on (the heading patterns, markers)."""
        return "\0".join(
            (
                self.reference_heading.pattern,
                self.trend_heading.pattern,
                self.open_question_heading.pattern,
                *self.uncertainty_markers,
            )
        )


CONFIG_FILE = ".kbcheck.toml"
PYPROJECT = "pyproject.toml"
LINK_RENDERERS = (AUTO_RENDERER, *RENDERERS)
REFERENCE_KINDS = ("arxiv", "doi", "repo")
AUTHOR_KEYS = ("emails", "logins", "role")
#: keys that are tables of tables: `kbcheck init` writes them last, and commented where they are empty
TABLES = ("roles", "authors", "rules")

_GLOB_LISTS = ("knowledge", "paper-cards", "repo-cards", "guides", "briefs", "manifests", "exclude", "local-paths",
               "one-work-notes")
_STRING_LISTS = ("uncertainty-markers", "volatile-fields", "scope-categories")
_REGEXES = ("reference-heading", "trend-heading", "open-question-heading", "no-home-heading")
#: integer keys and their smallest allowed value (a zero size limit would skip every file)
_COUNTS = {"low-citation-threshold": 0, "backfill-age-years": 0, "restored-age-years": 1, "max-file-size": 1}
#: a slug becomes a folder name in role globs: no separators, no glob syntax
_SLUG = re.compile(r"[^\s/\\*?\[\]!{}]+")
#: a configuration is a short hand-written file: larger sizes are refused before any work
#: (a 50 MB glob took minutes to compile and was echoed whole in the error)
MAX_CONFIG_BYTES = 1024 * 1024
MAX_VALUE_CHARS = 4096
MAX_ITEMS = 10_000
#: how much of a value an error message quotes
_QUOTE_CHARS = 60
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


#: how many files an `extend` chain may hold
MAX_EXTENDS = 8
#: reads a file an `extend` names, by its path relative to the repository (or as written, outside it)
ReadExtended = Callable[[str], "bytes | None"]


def load_config(root: Path, config_file: str | Path | None = None, overrides: Sequence[str] = ()) -> Config:
    """The configuration of the repository at `root`.

    `config_file` (relative to the current directory) wins; else `.kbcheck.toml`
    at the root; else `[tool.kbcheck]` in the root's `pyproject.toml`; else the
    defaults. A pyproject without that table means defaults, unless it was named
    explicitly. An `extend` key names a file whose keys this one's override;
    `overrides` (`--config 'key = value'`, TOML) override both.
    """
    root = Path(root)
    options = _options_of(overrides)

    def read_from_disk(rel: str) -> bytes | None:
        path = root / rel if not Path(rel).is_absolute() else Path(rel)
        return read_config_file(path, rel) if path.exists() else None

    if config_file is not None:
        path = Path(config_file)
        name = _display_name(root, path)
        if not path.exists():
            raise ConfigError(_("config file {name} not found", name=repr(name)))
        return _parse(read_config_file(path, name), name, pyproject=path.name == PYPROJECT, required=True,
                      read_extended=read_from_disk, overrides=options)
    own = root / CONFIG_FILE
    if own.exists() or own.is_symlink():
        return _parse(read_config_file(own, CONFIG_FILE, follow=False), CONFIG_FILE, pyproject=False, required=True,
                      read_extended=read_from_disk, overrides=options)
    pyproject = root / PYPROJECT
    if pyproject.exists() or pyproject.is_symlink():
        return _parse(read_config_file(pyproject, PYPROJECT, follow=False), PYPROJECT, pyproject=True, required=False,
                      read_extended=read_from_disk, overrides=options)
    return _validate(options, where="--config", source="--config") if options else Config()


def config_from_bytes(data: bytes, source: str, *, pyproject: bool = False,
                      read_extended: ReadExtended | None = None) -> Config:
    """Parse and validate a configuration file's bytes (e.g. a blob from the git index).

    `source` is the name messages use; with `pyproject`, `[tool.kbcheck]` is read
    and its absence means the defaults. `read_extended` reads the files an
    `extend` names, from the same place (without it, `extend` is an error).
    """
    return _parse(data, source, pyproject=pyproject, required=False, read_extended=read_extended)


def _options_of(overrides: Sequence[str]) -> dict[str, Any]:
    """`--config 'key = value'` overrides as one table, each parsed as a line of TOML (ruff's way)."""
    import tomllib

    options: dict[str, Any] = {}
    for override in overrides:
        try:
            parsed = tomllib.loads(override)
        except tomllib.TOMLDecodeError as exc:
            _fail(_("--config {value} is neither a file nor a TOML 'key = value': {reason}",
                    value=_quote(override), reason=str(exc)), "--config")
        options = _merged(options, parsed)
    if options:
        _validate(options, where="--config", source="--config")  # a bad override is named as one
    return options


def _merged(base: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """`own`'s keys over `base`'s; a table in both is merged key by key (`[rules.KB005]` beside
    `[rules.KB010]`)."""
    merged = dict(base)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merged(merged[key], value)
        else:
            merged[key] = value
    return merged


def _with_extended(table: dict[str, Any], name: str, read: ReadExtended | None, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The table over the files its `extend` chain names (a path relative to the file naming it)."""
    if "extend" not in table:
        return table
    own = dict(table)
    target = own.pop("extend")
    if not isinstance(target, str) or not target.strip():
        _fail(_("'extend' in {name} must be the path of a configuration file, got {kind}", name=name,
                kind=_kind(target)), name)
    rel = posixpath.normpath(posixpath.join(posixpath.dirname(name), target)) if not target.startswith("/") else target
    if read is None:
        _fail(_("'extend' in {name} cannot be read here", name=name), name)
    if rel in seen or rel == name or len(seen) >= MAX_EXTENDS:
        _fail(_("'extend' in {name} makes a loop or a chain over {count} files: {path}", name=name,
                count=MAX_EXTENDS, path=rel), name)
    data = read(rel)
    if data is None:
        _fail(_("'extend' in {name}: config file {path} not found", name=name, path=repr(rel)), name)
    base = _table_of(data, rel, pyproject=posixpath.basename(rel) == PYPROJECT, required=True) or {}
    return _merged(_with_extended(base, rel, read, (*seen, name)), own)


def config_from_mapping(options: Mapping[str, Any], source: str) -> Config:
    """Validate already-parsed TOML keys over the defaults; `source` names them in messages."""
    return _validate(options, where=source, source=source)


def is_rule_ignored_for(config: Config, rule_id: str, path: str) -> bool:
    """True when `ignore` or a `per-file-ignores` glob matching `path` turns the rule off."""
    rule_id = rule_id.upper()
    if rule_id in config.ignore:
        return True
    return any(rule_id in ids and matches((glob,), path) for glob, ids in config.per_file_ignores.items())


def effective_severity(config: Config, rule_id: str, default: str) -> str:
    """The configured `severity` of the rule, else the rule's own `default`."""
    return config.severity.get(rule_id.upper(), default)


# --- reading --------------------------------------------------------------------------------


def _display_name(root: Path, path: Path) -> str:
    """Repo-relative with `/` when the file is inside the repository, else as given."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        return str(path)


def read_config_file(path: Path, name: str, *, follow: bool = True) -> bytes:
    """The bytes of a regular file, at most `MAX_CONFIG_BYTES`; never a FIFO, a device or a folder.

    `follow=False` refuses a symlink: the configuration at the root of the
    working tree is read only from a file the repository itself holds.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
        if path.is_symlink():
            raise ConfigError(_("config file {name} is a symlink; kbcheck reads only a regular file there", name=repr(name)))
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise ConfigError(_("config file {name} is a directory, not a file", name=repr(name))) from None
    except OSError as exc:
        raise ConfigError(_("cannot read config file {name}: {reason}", name=repr(name), reason=exc.strerror or str(exc))) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ConfigError(_("config file {name} is a directory, not a file", name=repr(name)))
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(_("config file {name} is not a regular file", name=repr(name)))
        _check_size(info.st_size, name)
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            if sum(map(len, chunks)) > MAX_CONFIG_BYTES:  # grew while being read
                break
    except OSError as exc:
        raise ConfigError(_("cannot read config file {name}: {reason}", name=repr(name), reason=exc.strerror or str(exc))) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    _check_size(len(data), name)
    return data


def _check_size(size: int, name: str) -> None:
    if size > MAX_CONFIG_BYTES:
        raise ConfigError(_("config file {name} is {size} bytes, over the limit of {limit}", name=name, size=size,
                            limit=MAX_CONFIG_BYTES))


def _parse(data: bytes, name: str, *, pyproject: bool, required: bool, read_extended: ReadExtended | None = None,
           overrides: Mapping[str, Any] | None = None) -> Config:
    """Bytes to `Config`: decode, parse TOML, pick the table, follow `extend`, apply the overrides, validate."""
    table = _table_of(data, name, pyproject=pyproject, required=required)
    if table is None and not overrides:
        return Config()
    where = f"{name} [tool.kbcheck]" if pyproject else name
    merged = _merged(_with_extended(table or {}, name, read_extended), overrides or {})
    return _validate(merged, where=where, source=name)


def _table_of(data: bytes, name: str, *, pyproject: bool, required: bool) -> dict[str, Any] | None:
    """Bytes to the file's kbcheck table: decode, parse TOML, pick the table; None for a pyproject
    without `[tool.kbcheck]` that was not named explicitly."""
    import tomllib

    _check_size(len(data), name)
    try:
        text = data.decode("utf-8-sig")  # a BOM is harmless; tomllib alone would reject it
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        byte = f"0x{data[exc.start]:02x}"
        _fail(_("{name} is not UTF-8 text: invalid byte {byte} on line {line}", name=name, byte=byte, line=line), name, line)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        _fail(_("invalid TOML in {name}: {reason}", name=name, reason=str(exc)), name, int(found.group(1)) if found else None)
    except RecursionError:
        _fail(_("invalid TOML in {name}: values are nested too deeply", name=name), name)
    if not pyproject:
        return document
    tool = document.get("tool")
    section = tool.get("kbcheck") if isinstance(tool, dict) else None
    if section is None:
        if required:
            _fail(_("{name} has no [tool.kbcheck] table", name=name), name)
        return None
    if not isinstance(section, dict):
        _fail(_("[tool.kbcheck] in {name} must be a table, got {kind}", name=name, kind=_kind(section)), name)
    return section


# --- validation -----------------------------------------------------------------------------


def _fail(message: str, source: str | None = None, line: int | None = None) -> NoReturn:
    error = ConfigError(_one_line(message))  # one line, whatever a key holds
    error.path, error.line = source, line
    raise error


def _one_line(message: str) -> str:
    """`message` on one line; a `Text` stays one (its values joined), so it can still be translated."""
    joined = " ".join(message.splitlines())
    if joined == message or not isinstance(message, Text):
        return message if joined == message else joined
    values = {name: _one_line(value) if isinstance(value, str) else value for name, value in message.values.items()}
    again = Text(message.msgid, values, message.plural, message.number)
    return again if again == joined else joined


def _kind(value: object) -> str:
    """How a TOML value is named in messages."""
    if isinstance(value, bool):
        return _("a boolean ({value})", value=str(value).lower())
    if isinstance(value, int):
        return _("an integer ({value})", value=value)
    if isinstance(value, float):
        return _("a float ({value})", value=value)
    if isinstance(value, str):
        return _("the string {value}", value=_quote(value)) if value else _("an empty string")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("a table")
    return _("a date or time")


def _quote(text: str) -> str:
    """A value as messages quote it: never more than a line's worth of it."""
    if len(text) <= _QUOTE_CHARS:
        return repr(text)
    return _("{start}… ({count} characters)", start=repr(text[:_QUOTE_CHARS]), count=len(text))


def _check_length(text: str, what: str, where: str) -> None:
    if len(text) > MAX_VALUE_CHARS:
        _fail(_("{what} in {where} is {count} characters long, over the limit of {limit}", what=what, where=where,
                count=len(text), limit=MAX_VALUE_CHARS))


def _check_count(items: Mapping[str, Any] | list[Any], key: str, where: str) -> None:
    if len(items) > MAX_ITEMS:
        _fail(_("{key} in {where} has {count} items, over the limit of {limit}", key=repr(key), where=where,
                count=len(items), limit=MAX_ITEMS))


def _suggest(word: str, valid: tuple[str, ...] | list[str], what: str) -> str:
    near = difflib.get_close_matches(word, valid, n=1)
    if near:
        return _("did you mean {near}?", near=repr(near[0]))
    return _("valid {what} are: {valid}", what=what, valid=", ".join(valid))


def _check_keys(table: Mapping[str, Any], valid: tuple[str, ...] | list[str], where: str) -> None:
    for key in table:
        if key not in valid:
            if len(key) > _QUOTE_CHARS:
                _fail(_("unknown key {key} in {where}", key=_quote(key), where=where))
            near = difflib.get_close_matches(key, valid, n=1)
            if near:
                _fail(_("unknown key {key} in {where}; did you mean {near}?", key=repr(key), where=where, near=repr(near[0])))
            _fail(_("unknown key {key} in {where}; valid keys are: {valid}", key=repr(key), where=where, valid=", ".join(valid)))


def _table(value: object, key: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        _fail(_("{key} in {where} must be a table, got {kind}", key=repr(key), where=where, kind=_kind(value)))
    _check_count(value, key, where)
    for name in value:
        _check_length(name, _("a key of {key}", key=repr(key)), where)
    return value


def _strings(value: object, key: str, where: str) -> tuple[str, ...]:
    """A list of non-empty strings (an empty marker or glob would match everything or nothing)."""
    if not isinstance(value, list):
        _fail(_("{key} in {where} must be a list of strings, got {kind}", key=repr(key), where=where, kind=_kind(value)))
    _check_count(value, key, where)
    for number, item in enumerate(value, 1):
        if not isinstance(item, str) or not item:
            _fail(_("item {number} of {key} in {where} must be a non-empty string, got {kind}", number=number,
                    key=repr(key), where=where, kind=_kind(item)))
        _check_length(item, _("item {number} of {key}", number=number, key=repr(key)), where)
    return tuple(value)


def _check_glob(glob: str, key: str, where: str) -> None:
    from kbcheck.globs import glob_error

    _check_length(glob, _("a glob of {key}", key=repr(key)), where)
    if ".." in glob.replace("\\", "/").split("/"):
        _fail(_("glob {glob} in {key} in {where} leaves the repository ('..' is not allowed in globs)",
                glob=_quote(glob), key=repr(key), where=where))
    reason = glob_error(glob)
    if reason is not None:
        _fail(_("invalid glob {glob} in {key} in {where}: {reason}", glob=_quote(glob), key=repr(key), where=where,
                reason=reason))


def _globs(value: object, key: str, where: str) -> tuple[str, ...]:
    globs = _strings(value, key, where)
    for glob in globs:
        _check_glob(glob, key, where)
    return globs


def _regex(value: object, key: str, where: str) -> HeadingRegex:
    """kbcheck's own default on `re`; any other pattern on the linear-time engine (`kbcheck.patterns`)."""
    from kbcheck.patterns import LinearPattern, PatternError

    if not isinstance(value, str):
        _fail(_("{key} in {where} must be a regular expression string, got {kind}", key=repr(key), where=where,
                kind=_kind(value)))
    _check_length(value, repr(key), where)
    try:
        compiled = re.compile(value)  # Python's syntax is the documented one: its errors name the position
    except (re.error, RecursionError, OverflowError) as exc:
        _fail(_("{key} in {where} is not a valid regular expression: {reason}", key=repr(key), where=where,
                reason=str(exc)))
    if value == DEFAULTS[key]:
        return compiled
    try:
        return LinearPattern(value)
    except PatternError as exc:
        _fail(_("{key} in {where} uses a construct the linear-time engine for configured patterns "
                "does not run ({reason}); lookarounds and backreferences are not supported",
                key=repr(key), where=where, reason=str(exc)))


def _count(value: object, key: str, where: str) -> int:
    minimum = _COUNTS[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        _fail(_("{key} in {where} must be an integer >= {minimum}, got {kind}", key=repr(key), where=where,
                minimum=minimum, kind=_kind(value)))
    return value


def _choice(value: object, key: str, where: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        allowed = repr(choices[-1])
        for choice in reversed(choices[:-1]):
            allowed = _("{choice} or {choices}", choice=repr(choice), choices=allowed)
        _fail(_("{key} in {where} must be {allowed}, got {kind}", key=repr(key), where=where, allowed=allowed,
                kind=_kind(value)))
    return value


def _rule_id(value: object, key: str, where: str) -> str:
    if not isinstance(value, str):
        _fail(_("{key} in {where} must name rule ids such as 'KB005', got {kind}", key=repr(key), where=where,
                kind=_kind(value)))
    rule_id = value.strip().upper()
    known = rule_ids()
    if rule_id not in known:
        hint = _suggest(rule_id, known, _("rules"))
        _fail(_("unknown rule {rule} in {key} in {where}; {hint}", rule=_quote(value), key=repr(key), where=where, hint=hint))
    return rule_id


def _rule_ids(value: object, key: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        _fail(_("{key} in {where} must be a list of rule ids, got {kind}", key=repr(key), where=where, kind=_kind(value)))
    return tuple(dict.fromkeys(_rule_id(item, key, where) for item in value))


def _severity(value: object, where: str) -> dict[str, str]:
    levels: dict[str, str] = {}
    for rule, level in _table(value, "severity", where).items():
        rule_id = _rule_id(rule, "severity", where)
        if not isinstance(level, str) or level.lower() not in SEVERITIES:
            _fail(_("'severity' of {rule} in {where} must be 'error' or 'warning', got {kind}"
                    " (to turn a rule off, add it to 'ignore')", rule=rule_id, where=where, kind=_kind(level)))
        levels[rule_id] = level.lower()
    return levels


def _per_file_ignores(value: object, where: str) -> dict[str, tuple[str, ...]]:
    ignores: dict[str, tuple[str, ...]] = {}
    for glob, rules in _table(value, "per-file-ignores", where).items():
        if not glob:
            _fail(_("'per-file-ignores' in {where} has an empty glob", where=where))
        _check_glob(glob, "per-file-ignores", where)
        ignores[glob] = _rule_ids(rules, f"per-file-ignores.{glob}", where)
    return ignores


def _reference_kinds(value: object, where: str) -> tuple[str, ...]:
    kinds = _strings(value, "reference-kinds", where)
    for kind in kinds:
        if kind not in REFERENCE_KINDS:
            hint = _suggest(kind, REFERENCE_KINDS, _("kinds"))
            _fail(_("unknown kind {kind} in 'reference-kinds' in {where}; {hint}", kind=repr(kind), where=where, hint=hint))
    return tuple(dict.fromkeys(kinds))


def _site_root(value: object, where: str) -> str:
    """A repo-relative folder, or "" for the default."""
    if not isinstance(value, str):
        _fail(_("'site-root' in {where} must be a string, got {kind}", where=where, kind=_kind(value)))
    _check_length(value, "site-root", where)
    folder = value.strip().strip("/")
    if folder.startswith("..") or "\0" in folder:
        _fail(_("'site-root' in {where} must be a folder inside the repository, got {value}", where=where,
                value=_quote(value)))
    return folder


def _baseline(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        _fail(_("'baseline' in {where} must be a file path, got {kind}", where=where, kind=_kind(value)))
    _check_length(value, "'baseline'", where)
    parts = value.replace("\\", "/").split("/")
    if value.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", value) or ".." in parts:
        _fail(_("'baseline' in {where} must be a path inside the repository, got {value}", where=where,
                value=_quote(value)))
    if any(part.lower().rstrip(". ") == ".git" for part in parts):  # `.GIT` too: case-insensitive file systems
        _fail(_("'baseline' in {where} must be a path outside .git, got {value}", where=where, value=_quote(value)))
    return value


def _roles(value: object, where: str) -> dict[str, tuple[str, ...]]:
    roles: dict[str, tuple[str, ...]] = {}
    for role, globs in _table(value, "roles", where).items():
        patterns = _strings(globs, f"roles.{role}", where)
        for pattern in patterns:
            for placeholder in _PLACEHOLDER.findall(pattern):
                if placeholder != "{author}":
                    _fail(_("unknown placeholder {placeholder} in 'roles.{role}' in {where}; "
                            "only {{author}} is replaced (by the author's slug)", placeholder=_quote(placeholder),
                            role=role, where=where))
            _check_glob(pattern.replace("{author}", "author"), f"roles.{role}", where)
        roles[role] = patterns
    return roles


def _authors(value: object, roles: Mapping[str, tuple[str, ...]], where: str) -> dict[str, Author]:
    authors: dict[str, Author] = {}
    owner_of: dict[str, str] = {}  # one email or login, one author: otherwise who committed is ambiguous
    for slug, spec in _table(value, "authors", where).items():
        section = f"[authors.{slug}]"
        if not _SLUG.fullmatch(slug) or slug in (".", ".."):
            _fail(_("author slug {slug} in {where} must be a plain folder name "
                    "(no spaces, '/', or glob characters)", slug=_quote(slug), where=where))
        # on a case- or normalisation-insensitive checkout (macOS, Windows) twins share one inbox folder
        folder = "folder:" + unicodedata.normalize("NFC", unicodedata.normalize("NFC", slug).casefold())
        if folder in owner_of:
            _fail(_("author slugs {other} and {slug} in {where} differ only by case or Unicode normalisation: "
                    "on a case-insensitive checkout they are one inbox folder", other=_quote(owner_of[folder]),
                    slug=_quote(slug), where=where))
        owner_of[folder] = slug
        if not isinstance(spec, dict):
            _fail(_("{section} in {where} must be a table with 'emails' and 'role', got {kind}", section=section,
                    where=where, kind=_kind(spec)))
        _check_keys(spec, AUTHOR_KEYS, _("{section} of {where}", section=section, where=where))
        emails = tuple(dict.fromkeys(identity_key(e) for e in _strings(spec.get("emails", []),
                                                                        f"authors.{slug}.emails", where)))
        for email in emails:
            if email in owner_of:
                _fail(_("email {email} is listed for both [authors.{other}] and {section} in {where}", email=repr(email),
                        other=owner_of[email], section=section, where=where))
            owner_of[email] = slug
        logins = tuple(dict.fromkeys(identity_key(name) for name in _strings(spec.get("logins", []),
                                                                              f"authors.{slug}.logins", where)))
        for login in logins:
            if not login or any(ch.isspace() for ch in login):
                _fail(_("login {login} of {section} in {where} must be a forge user name, without spaces",
                        login=repr(login), section=section, where=where))
            if "login:" + login in owner_of:
                _fail(_("login {login} is listed for both [authors.{other}] and {section} in {where}",
                        login=repr(login), other=owner_of["login:" + login], section=section, where=where))
            owner_of["login:" + login] = slug
        role = spec.get("role", "writer")
        if not isinstance(role, str) or role not in roles:
            _fail(_("'role' of {section} in {where} is {kind}, which [roles] does not define; defined roles: {roles}",
                    section=section, where=where, kind=_kind(role), roles=", ".join(roles)))
        authors[slug] = Author(slug=slug, emails=emails, role=role, logins=logins)
    return authors


def _rule_options(value: object, where: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """`[rules.KBnnn]` tables: each key an option its rule declares, each value names from its choices."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for key, options in _table(value, "rules", where).items():
        rule_id = _rule_id(key, "rules", where)
        table = f"[rules.{rule_id}]"
        declared = _declared_options(rule_id)
        if not declared:
            _fail(_("{table} in {where}: rule {rule} has no options", table=table, where=where, rule=rule_id))
        _check_keys(_table(options, table, where), tuple(declared), f"{table} in {where}")
        out[rule_id] = {}
        for name, given in options.items():
            names = _strings(given, name, f"{table} in {where}")
            for item in names:
                if item not in declared[name].choices:
                    _fail(_("unknown name {item} in {key} of {table} in {where}; {hint}", item=repr(item), key=repr(name),
                            table=table, where=where, hint=_suggest(item, declared[name].choices, _("names"))))
            out[rule_id][name] = tuple(dict.fromkeys(names))
    return out


def _declared_options(rule_id: str) -> dict[str, Any]:
    """The options a rule's module declares (imported only when the file sets some)."""
    from kbcheck.rules import get_rule

    return dict(get_rule(rule_id).options)


def _validate(options: Mapping[str, Any], *, where: str, source: str) -> Config:
    """Defaults, then the file's keys, merged as plain dicts and validated into a `Config`."""
    try:
        return _convert(options, where=where, source=source)
    except ConfigError as error:
        error.path = error.path or source  # the message names the file; callers may want it apart
        raise


def _convert(options: Mapping[str, Any], *, where: str, source: str) -> Config:
    _check_keys(options, tuple(DEFAULTS), where)
    merged = {**DEFAULTS, **options}
    merged["roles"] = {**DEFAULTS["roles"], **_table(merged["roles"], "roles", where)}
    fields: dict[str, Any] = {}
    for key in _GLOB_LISTS:
        fields[key] = _globs(merged[key], key, where)
    for key in _STRING_LISTS:
        fields[key] = _strings(merged[key], key, where)
    for key in _REGEXES:
        fields[key] = _regex(merged[key], key, where)
    for key in _COUNTS:
        fields[key] = _count(merged[key], key, where)
    fields["lang"] = _choice(merged["lang"], "lang", where, LANGS[::-1])  # said as the docs list them: zh first
    fields["link-renderer"] = _choice(merged["link-renderer"], "link-renderer", where, LINK_RENDERERS)
    fields["site-root"] = _site_root(merged["site-root"], where)
    fields["baseline"] = _baseline(merged["baseline"], where)
    fields["ignore"] = frozenset(_rule_ids(merged["ignore"], "ignore", where))
    fields["severity"] = _severity(merged["severity"], where)
    fields["per-file-ignores"] = _per_file_ignores(merged["per-file-ignores"], where)
    if not isinstance(merged["allow-unknown-authors"], bool):
        _fail(_("'allow-unknown-authors' in {where} must be true or false, got {kind}", where=where,
                kind=_kind(merged["allow-unknown-authors"])))
    fields["allow-unknown-authors"] = merged["allow-unknown-authors"]
    fields["reference-kinds"] = _reference_kinds(merged["reference-kinds"], where)
    fields["roles"] = roles = _roles(merged["roles"], where)
    fields["authors"] = _authors(merged["authors"], roles, where)
    fields["rules"] = _rule_options(merged["rules"], where)
    return Config(**{key.replace("-", "_"): value for key, value in fields.items()}, source=source,
                  message_lang=fields["lang"] if "lang" in options else "en")


# --- kbcheck init ---------------------------------------------------------------------------

_COMMENTS = {
    "knowledge": "living documents: long markdown, numbered sections, a reference list at the end",
    "paper-cards": "paper cards: YAML frontmatter (arxiv, title) + text, named NNNN-YYMM-NNNNN.md",
    "repo-cards": "repo cards: frontmatter (repo) + text, named NNNN-owner-repo.md",
    "guides": "how-to notes about a repository or tool",
    "briefs": "each author's own output, under inbox/<author>/",
    "manifests": "machine lists (JSON) of items to consume",
    "exclude": "globs never read",
    "link-renderer": "how links resolve (KB009): \"auto\" (from .obsidian/, mkdocs.yml, book.toml), \"github\", \"obsidian\", \"mkdocs\", \"mdbook\"",
    "site-root": "folder that `/x` links are read from; empty: mkdocs' docs_dir, mdbook's src, else the root",
    "local-paths": "globs kept out of git on purpose (beside what .gitignore ignores): links into them are not checked",
    "one-work-notes": "guides that are each about one work: the title heading names it, the source of every number (KB005)",
    "reference-heading": "regex over heading text: the reference-list section",
    "trend-heading": "regex over heading text: the trend section (its items are trend lines, KB001)",
    "open-question-heading": "regex over heading text: the open-question section",
    "no-home-heading": ("regex over heading text: sections the digest never proposes for new material (see also, "
                        "待追问, a page's own change log: Evolution Log, 更新日志)"),
    "uncertainty-markers": "a block holding one of these is exempt from KB005 and KB006",
    "volatile-fields": "card fields whose change alone is a refresh, not new material (digest)",
    "low-citation-threshold": "the digest warns about papers with fewer citations than this",
    "backfill-age-years": ("a new paper card whose paper is older than this at its collection date is the collector back-filling "
                           "(a review item); a new note on such a paper gets a back-filled caution"),
    "restored-age-years": ("a new note dated more than this before the commit that added it is restored "
                           "material, not news (a review item)"),
    "scope-categories": "paper categories the digest treats as in scope; empty: every category",
    "lang": "the knowledge base's language, \"zh\" or \"en\": the digest's, and kbcheck's messages' when set here",
    "baseline": "committed file holding the baseline commit and the accepted findings",
    "ignore": "rule ids never reported, e.g. [\"KB009\"]",
    "severity": "rule id -> \"error\" or \"warning\", e.g. {KB002 = \"error\"}",
    "per-file-ignores": "glob -> rule ids not reported there, e.g. {\"inbox/**\" = [\"KB003\"]}",
    "allow-unknown-authors": "true: commits by an author missing from [authors] are not KB007 errors",
    "reference-kinds": "id kinds KB002/KB003 compare: \"arxiv\", \"doi\", \"repo\"",
    "max-file-size": "bytes (default 4 MiB); a larger note is not read, and is a KB000 finding",
}

_HEADER = """\
# kbcheck configuration, written by `kbcheck init`. Every key shows its default.
# Globs are gitignore-style (`**` crosses folders), matched on repo-relative paths with `/`.
"""

_FOOTER = """\
# one table per author. Who a change is judged as (docs/trust-model.md):
#   on the writer's machine (the hook) and per commit in CI, by the commit's e-mail;
#   in pull-request CI with `--actor LOGIN`, by the forge login of the pull request's author.
# This policy is read from the base revision (HEAD for a commit, the base of --diff),
# never from the change under review.
# [authors.tom]
# emails = ["tom@example.org"]
# logins = ["tom-gh"]   # forge (GitHub, GitLab) user names, for --actor
# role = "writer"       # a key of [roles]; "writer" when omitted
"""


def _toml(value: Any) -> str:
    """A default value as TOML; regexes as literal strings so backslashes stay readable."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "\\" in value and "'" not in value and value.isprintable():
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        items = [json.dumps(item, ensure_ascii=False) if isinstance(item, str) else _toml(item) for item in value]
        flat = f"[{', '.join(items)}]"
        return flat if len(flat) <= 80 else "[\n" + "".join(f"    {item},\n" for item in items) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML form for {value!r}")


def init_text(proposed: Mapping[str, Any] | None = None, found: Sequence[str] = (),
              reasons: Mapping[str, str] | None = None) -> str:
    """The commented `.kbcheck.toml` that `kbcheck init` writes: every key at its default, or at
    what was `proposed` for this repository, with what was `found` said at the top and the
    `reasons` for a key (key -> why) as a comment above it."""
    proposed, reasons = proposed or {}, reasons or {}
    lines = [_HEADER + "".join(f"# found: {line}\n" for line in found)]
    for key, value in DEFAULTS.items():
        if key in TABLES:
            continue  # tables, written last so that the top-level keys stay top-level
        shown = _toml(value)
        default = f" (default {shown})" if key in proposed and proposed[key] != value and "\n" not in shown else ""
        why = f"# found: {reasons[key]}\n" if key in reasons else ""
        lines.append(f"# {_COMMENTS[key]}{default}\n{why}{key} = {_toml(proposed.get(key, value))}\n")
    roles = "".join(f"{role} = {_toml(globs)}\n" for role, globs in DEFAULTS["roles"].items())
    lines.append("# who may write where (KB007): role -> globs; {author} stands for the author's slug\n"
                 f"[roles]\n{roles}")
    lines.append(_FOOTER)
    lines.append(_rule_options_text())
    return "\n".join(lines)


def _rule_options_text() -> str:
    """The commented `[rules.KBnnn]` tables: each rule's options at their defaults."""
    from kbcheck.rules import all_rules

    lines = ["# per-rule options (yamllint style): [rules.KBnnn], with the options each rule declares"]
    for rule in all_rules().values():
        for name, option in rule.options:
            lines += [f"# [rules.{rule.id}]", f"# {name}: {option.doc}"]
            lines += [f"# {line}" for line in f"{name} = {_toml(list(option.default))}".splitlines()]
    return "\n".join(lines) + "\n"


def write_init(root: Path, force: bool = False, author: str = "", proposed: Mapping[str, Any] | None = None,
               found: Sequence[str] = (), reasons: Mapping[str, str] | None = None) -> Path:
    """Write `.kbcheck.toml` at `root` atomically; an existing one is kept unless `force`.

    `author` is an `[authors.…]` table appended after the defaults (the first author)."""
    target = Path(root) / CONFIG_FILE
    if not Path(root).is_dir():
        raise ConfigError(_("cannot write {name}: {root} is not a directory", name=CONFIG_FILE, root=str(root)))
    if (target.exists() or target.is_symlink()) and not force:
        raise ConfigError(_("{name} already exists; not overwriting it (use --force to replace it)", name=CONFIG_FILE))
    from kbcheck.files import write_replacing

    try:
        write_replacing(target, (init_text(proposed, found, reasons) + author).encode("utf-8"))
    except OSError as exc:
        raise ConfigError(_("cannot write {name}: {reason}", name=CONFIG_FILE, reason=exc.strerror or str(exc))) from None
    return target
