"""The configuration loader, its validation messages, and `kbcheck init`."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbcheck.config import (
    CONFIG_FILE,
    DEFAULTS,
    Author,
    Config,
    config_from_bytes,
    config_from_mapping,
    effective_severity,
    init_text,
    is_rule_ignored_for,
    load_config,
    write_init,
)
from kbcheck.errors import ConfigError, KbcheckError
from kbcheck.patterns import LinearPattern

GIT_ENV = {
    **os.environ,
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.org",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.org",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A fresh git repository (the loader only reads files at its root)."""
    root = tmp_path / "kb"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=GIT_ENV)
    return root


def write(root: Path, name: str, text: str | bytes) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def error_of(repo: Path, text: str | bytes, name: str = CONFIG_FILE) -> str:
    write(repo, name, text)
    with pytest.raises(ConfigError) as caught:
        load_config(repo)
    message = str(caught.value)
    assert "\n" not in message
    return message


def defaults_equal(config: Config) -> bool:
    return dataclasses.replace(config, source=None) == Config()


# --- finding the file ------------------------------------------------------------------------


def test_no_file_gives_the_defaults(repo: Path) -> None:
    config = load_config(repo)
    assert config == Config()
    assert config.source is None
    assert config.knowledge == ("organized/knowledge/**/*.md",)
    assert config.roles == {"writer": ("inbox/{author}/**",), "maintainer": ("**",)}


def test_the_defaults_table_validates_to_the_default_config() -> None:
    assert defaults_equal(config_from_mapping(DEFAULTS, "defaults"))


def test_kbcheck_toml_wins_over_pyproject(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'lang = "en"\n')
    write(repo, "pyproject.toml", '[tool.kbcheck]\nlang = "zh"\nlow-citation-threshold = 9\n')
    config = load_config(repo)
    assert config.lang == "en"
    assert config.low_citation_threshold == 5
    assert config.source == ".kbcheck.toml"


def test_pyproject_tool_kbcheck_is_read(repo: Path) -> None:
    write(repo, "pyproject.toml", '[project]\nname = "kb"\n\n[tool.kbcheck]\nknowledge = ["docs/**/*.md"]\nlang = "en"\n')
    config = load_config(repo)
    assert config.knowledge == ("docs/**/*.md",)
    assert config.lang == "en"
    assert config.paper_cards == ("organized/paper_cards/*.md",)
    assert config.source == "pyproject.toml"


def test_pyproject_without_the_section_gives_defaults(repo: Path) -> None:
    write(repo, "pyproject.toml", '[project]\nname = "kb"\n\n[tool.ruff]\nline-length = 100\n')
    config = load_config(repo)
    assert config == Config()
    assert config.source is None


def test_pyproject_errors_name_the_table(repo: Path) -> None:
    message = error_of(repo, '[tool.kbcheck]\nlang = "fr"\n', name="pyproject.toml")
    assert message == "'lang' in pyproject.toml [tool.kbcheck] must be 'zh' or 'en', got the string 'fr'"
    message = error_of(repo, "[tool]\nkbcheck = 3\n", name="pyproject.toml")
    assert message == "[tool.kbcheck] in pyproject.toml must be a table, got an integer (3)"


def test_explicit_config_file_inside_the_repository(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'lang = "zh"\n')
    custom = write(repo, "ci/strict.toml", 'lang = "en"\nseverity = {KB002 = "error"}\n')
    config = load_config(repo, custom)
    assert config.lang == "en"
    assert config.severity == {"KB002": "error"}
    assert config.source == "ci/strict.toml"
    assert load_config(repo, str(custom)).source == "ci/strict.toml"


def test_explicit_config_file_outside_the_repository(repo: Path, tmp_path: Path) -> None:
    outside = write(tmp_path, "elsewhere.toml", "low-citation-threshold = 2\n")
    config = load_config(repo, outside)
    assert config.low_citation_threshold == 2
    assert config.source == str(outside)


def test_explicit_pyproject_reads_its_table_and_requires_it(repo: Path, tmp_path: Path) -> None:
    with_table = write(tmp_path, "a/pyproject.toml", "[tool.kbcheck]\nignore = ['kb009']\n")
    assert load_config(repo, with_table).ignore == frozenset({"KB009"})
    without = write(tmp_path, "b/pyproject.toml", "[tool.other]\nx = 1\n")
    with pytest.raises(ConfigError, match=r"pyproject.toml has no \[tool.kbcheck\] table"):
        load_config(repo, without)


def test_explicit_config_file_missing_or_a_directory(repo: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(repo, repo / "nope.toml")
    assert str(caught.value) == "config file 'nope.toml' not found"
    (repo / "confdir").mkdir()
    with pytest.raises(ConfigError) as caught:
        load_config(repo, repo / "confdir")
    assert str(caught.value) == "config file 'confdir' is a directory, not a file"


def test_broken_symlink_config_is_an_error_not_the_defaults(repo: Path) -> None:
    (repo / CONFIG_FILE).symlink_to(repo / "missing.toml")
    with pytest.raises(ConfigError, match=r"config file '.kbcheck.toml' is a symlink"):
        load_config(repo)


# --- values ----------------------------------------------------------------------------------


def test_values_are_converted(repo: Path) -> None:
    write(repo, CONFIG_FILE, r"""
knowledge = ["kb/**/*.md", "notes/*.md"]
exclude = ["**/drafts/**"]
trend-heading = '(?i)^trends$'
uncertainty-markers = ["TBD"]
scope-categories = ["engineering", "theory"]
low-citation-threshold = 0
max-file-size = 1024
allow-unknown-authors = true
reference-kinds = ["arxiv", "doi", "repo", "doi"]
baseline = "meta/baseline.json"
""")
    config = load_config(repo)
    assert config.knowledge == ("kb/**/*.md", "notes/*.md")
    assert config.exclude == ("**/drafts/**",)
    assert isinstance(config.trend_heading, LinearPattern)  # a configured pattern runs on RE2 (linear time)
    assert config.trend_heading.pattern == "(?i)^trends$"
    assert config.trend_heading.search("TRENDS")
    assert config.reference_heading == Config().reference_heading
    assert config.uncertainty_markers == ("TBD",)
    assert config.scope_categories == ("engineering", "theory")
    assert config.low_citation_threshold == 0
    assert config.max_file_size == 1024
    assert config.allow_unknown_authors is True
    assert config.reference_kinds == ("arxiv", "doi", "repo")
    assert config.baseline == "meta/baseline.json"


def test_severity_and_ignores_are_parsed(repo: Path) -> None:
    write(repo, CONFIG_FILE, """
ignore = ["kb009", "KB001"]
severity = {kb002 = "error", KB004 = "Warning"}

[per-file-ignores]
"inbox/**" = ["KB003", "kb005"]
"organized/guides/*.md" = []
""")
    config = load_config(repo)
    assert config.ignore == frozenset({"KB009", "KB001"})
    assert config.severity == {"KB002": "error", "KB004": "warning"}
    assert config.per_file_ignores == {"inbox/**": ("KB003", "KB005"), "organized/guides/*.md": ()}


def test_rule_ignored_for_a_path(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'ignore = ["KB009"]\nper-file-ignores = {"inbox/**" = ["KB003"]}\n')
    config = load_config(repo)
    assert is_rule_ignored_for(config, "KB009", "organized/knowledge/a.md")
    assert is_rule_ignored_for(config, "kb009", "anything.md")
    assert is_rule_ignored_for(config, "KB003", "inbox/tom/2026-10-29.md")
    assert not is_rule_ignored_for(config, "KB003", "organized/knowledge/a.md")
    assert not is_rule_ignored_for(config, "KB005", "inbox/tom/2026-10-29.md")
    assert not is_rule_ignored_for(Config(), "KB009", "organized/knowledge/a.md")


def test_effective_severity(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'severity = {KB002 = "error"}\n')
    config = load_config(repo)
    assert effective_severity(config, "KB002", "warning") == "error"
    assert effective_severity(config, "kb002", "warning") == "error"
    assert effective_severity(config, "KB003", "warning") == "warning"
    assert effective_severity(Config(), "KB002", "warning") == "warning"


def test_roles_merge_over_the_defaults(repo: Path) -> None:
    write(repo, CONFIG_FILE, """
[roles]
writer = ["inbox/{author}/**", "drafts/{author}/**"]
curator = ["organized/paper_cards/**", "organized/repo_cards/**"]
""")
    config = load_config(repo)
    assert config.roles == {
        "writer": ("inbox/{author}/**", "drafts/{author}/**"),
        "maintainer": ("**",),
        "curator": ("organized/paper_cards/**", "organized/repo_cards/**"),
    }


def test_authors_are_parsed(repo: Path) -> None:
    write(repo, CONFIG_FILE, """
[roles]
curator = ["organized/**"]

[authors.tom]
emails = ["Tom@Example.org", " tom@work.example "]

[authors.mei]
emails = ["mei@example.org"]
role = "maintainer"

[authors.bot-7]
emails = ["BOT@ci.example"]
role = "curator"
""")
    config = load_config(repo)
    assert config.authors == {
        "tom": Author(slug="tom", emails=("tom@example.org", "tom@work.example"), role="writer"),
        "mei": Author(slug="mei", emails=("mei@example.org",), role="maintainer"),
        "bot-7": Author(slug="bot-7", emails=("bot@ci.example",), role="curator"),
    }


def test_a_bom_is_accepted(repo: Path) -> None:
    write(repo, CONFIG_FILE, '\ufefflang = "en"\n'.encode())
    assert load_config(repo).lang == "en"


def test_crlf_line_endings_are_accepted(repo: Path) -> None:
    write(repo, CONFIG_FILE, b'lang = "en"\r\nignore = ["KB009"]\r\n')
    config = load_config(repo)
    assert (config.lang, config.ignore) == ("en", frozenset({"KB009"}))


def test_config_from_bytes_reads_a_blob() -> None:
    config = config_from_bytes(b'lang = "en"\n', ".kbcheck.toml")
    assert (config.lang, config.source) == ("en", ".kbcheck.toml")
    assert config_from_bytes(b"[tool.black]\n", "pyproject.toml", pyproject=True) == Config()


# --- validation messages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('knowlege = ["a/*.md"]\n',
         "unknown key 'knowlege' in .kbcheck.toml; did you mean 'knowledge'?"),
        ('paper_cards = ["a/*.md"]\n',
         "unknown key 'paper_cards' in .kbcheck.toml; did you mean 'paper-cards'?"),
        ("[authors.tom]\nemial = ['tom@example.org']\n",
         "unknown key 'emial' in [authors.tom] of .kbcheck.toml; did you mean 'emails'?"),
        ('ignore = ["KB011"]\n',
         "unknown rule 'KB011' in 'ignore' in .kbcheck.toml; did you mean 'KB010'?"),
        ('severity = {KB12 = "error"}\n',
         "unknown rule 'KB12' in 'severity' in .kbcheck.toml; did you mean 'KB010'?"),
        ('per-file-ignores = {"inbox/**" = ["E501"]}\n',
         "unknown rule 'E501' in 'per-file-ignores.inbox/**' in .kbcheck.toml; "
         "valid rules are: KB000, KB001, KB002, KB003, KB004, KB005, KB006, KB007, KB008, KB009, KB010"),
        ("knowledge = 3\n",
         "'knowledge' in .kbcheck.toml must be a list of strings, got an integer (3)"),
        ('briefs = "inbox/*/**/*.md"\n',
         "'briefs' in .kbcheck.toml must be a list of strings, got the string 'inbox/*/**/*.md'"),
        ('uncertainty-markers = ["TBD", 3]\n',
         "item 2 of 'uncertainty-markers' in .kbcheck.toml must be a non-empty string, got an integer (3)"),
        ('uncertainty-markers = [""]\n',
         "item 1 of 'uncertainty-markers' in .kbcheck.toml must be a non-empty string, got an empty string"),
        ('allow-unknown-authors = "yes"\n',
         "'allow-unknown-authors' in .kbcheck.toml must be true or false, got the string 'yes'"),
        ("low-citation-threshold = -1\n",
         "'low-citation-threshold' in .kbcheck.toml must be an integer >= 0, got an integer (-1)"),
        ("low-citation-threshold = true\n",
         "'low-citation-threshold' in .kbcheck.toml must be an integer >= 0, got a boolean (true)"),
        ("low-citation-threshold = 2.5\n",
         "'low-citation-threshold' in .kbcheck.toml must be an integer >= 0, got a float (2.5)"),
        ("max-file-size = 0\n",
         "'max-file-size' in .kbcheck.toml must be an integer >= 1, got an integer (0)"),
        ('severity = {KB002 = "off"}\n',
         "'severity' of KB002 in .kbcheck.toml must be 'error' or 'warning', got the string 'off' "
         "(to turn a rule off, add it to 'ignore')"),
        ('severity = ["KB002"]\n',
         "'severity' in .kbcheck.toml must be a table, got a list"),
        ("trend-heading = '(unclosed'\n",
         "'trend-heading' in .kbcheck.toml is not a valid regular expression: "
         "missing ), unterminated subpattern at position 0"),
        ("reference-heading = 7\n",
         "'reference-heading' in .kbcheck.toml must be a regular expression string, got an integer (7)"),
        ('lang = "fr"\n',
         "'lang' in .kbcheck.toml must be 'zh' or 'en', got the string 'fr'"),
        ("[authors.tom]\nemails = ['tom@example.org']\nrole = 'editor'\n",
         "'role' of [authors.tom] in .kbcheck.toml is the string 'editor', which [roles] does not define; "
         "defined roles: writer, maintainer"),
        ('reference-kinds = ["arxiv", "isbn"]\n',
         "unknown kind 'isbn' in 'reference-kinds' in .kbcheck.toml; valid kinds are: arxiv, doi, repo"),
        ('reference-kinds = ["repos"]\n',
         "unknown kind 'repos' in 'reference-kinds' in .kbcheck.toml; did you mean 'repo'?"),
        ('per-file-ignores = {"inbox/**" = "KB003"}\n',
         "'per-file-ignores.inbox/**' in .kbcheck.toml must be a list of rule ids, got the string 'KB003'"),
        ('exclude = ["!"]\n',
         "invalid glob '!' in 'exclude' in .kbcheck.toml: Invalid git pattern: '!'"),
        ('roles = {writer = ["inbox/{user}/**"]}\n',
         "unknown placeholder '{user}' in 'roles.writer' in .kbcheck.toml; "
         "only {author} is replaced (by the author's slug)"),
        ("roles = 1\n",
         "'roles' in .kbcheck.toml must be a table, got an integer (1)"),
        ("[authors.tom]\nemails = 'tom@example.org'\n",
         "'authors.tom.emails' in .kbcheck.toml must be a list of strings, got the string 'tom@example.org'"),
        ("[authors]\ntom = 'tom@example.org'\n",
         "[authors.tom] in .kbcheck.toml must be a table with 'emails' and 'role', "
         "got the string 'tom@example.org'"),
        ('[authors."tom/x"]\nemails = ["t@example.org"]\n',
         "author slug 'tom/x' in .kbcheck.toml must be a plain folder name (no spaces, '/', or glob characters)"),
        ("[authors.tom]\nemails = ['same@example.org']\n[authors.ann]\nemails = ['SAME@example.org']\n",
         "email 'same@example.org' is listed for both [authors.tom] and [authors.ann] in .kbcheck.toml"),
        ('baseline = "../elsewhere.json"\n',
         "'baseline' in .kbcheck.toml must be a path inside the repository, got '../elsewhere.json'"),
        ('baseline = ""\n',
         "'baseline' in .kbcheck.toml must be a file path, got an empty string"),
    ],
)
def test_validation_messages(repo: Path, text: str, message: str) -> None:
    assert error_of(repo, text) == message


def test_unknown_key_lists_the_valid_keys_when_nothing_is_near(repo: Path) -> None:
    message = error_of(repo, "zzz = 1\n")
    assert message == "unknown key 'zzz' in .kbcheck.toml; valid keys are: " + ", ".join(DEFAULTS)


def test_toml_syntax_error_gives_the_line(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'lang = "en"\nignore = [\n"KB001"\nseverity = 3\n')
    with pytest.raises(ConfigError) as caught:
        load_config(repo)
    assert str(caught.value) == "invalid TOML in .kbcheck.toml: Unclosed array (at line 4, column 1)"
    assert (caught.value.path, caught.value.line) == (".kbcheck.toml", 4)


def test_non_utf8_config_is_an_error_with_its_line(repo: Path) -> None:
    write(repo, CONFIG_FILE, b'lang = "en"\nbaseline = "b\xe9.json"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(repo)
    assert str(caught.value) == ".kbcheck.toml is not UTF-8 text: invalid byte 0xe9 on line 2"
    assert caught.value.line == 2


def test_deeply_nested_values_are_an_error_not_a_crash(repo: Path) -> None:
    message = error_of(repo, "exclude = " + "[" * 5000 + "]" * 5000 + "\n")
    assert message == "invalid TOML in .kbcheck.toml: values are nested too deeply"


def test_config_error_is_a_kbcheck_error_with_exit_code_2(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'lang = "fr"\n')
    with pytest.raises(KbcheckError) as caught:
        load_config(repo)
    assert isinstance(caught.value, ConfigError)
    assert caught.value.exit_code == 2
    assert caught.value.path == ".kbcheck.toml"


# --- kbcheck init ----------------------------------------------------------------------------


def test_init_text_round_trips_to_the_defaults() -> None:
    text = init_text()
    config = config_from_mapping(tomllib.loads(text), CONFIG_FILE)
    assert defaults_equal(config)
    assert config.source == CONFIG_FILE


def test_init_text_shows_every_key_with_a_comment() -> None:
    lines = init_text().splitlines()
    for key in DEFAULTS:
        if key in ("roles", "authors", "rules"):
            continue
        (index,) = [i for i, line in enumerate(lines) if line.startswith(f"{key} = ")]
        assert lines[index - 1].startswith("# "), key
    assert "[roles]" in lines
    assert "# [authors.tom]" in lines
    assert "# [rules.KB005]" in lines
    # the regexes are TOML literal strings, so their backslashes are written once
    assert f"reference-heading = '{DEFAULTS['reference-heading']}'" in lines


def test_init_text_author_example_parses_when_uncommented() -> None:
    text = re.sub(r"^# (\[authors\.tom\]|emails = |role = )", r"\1", init_text(), flags=re.MULTILINE)
    config = config_from_mapping(tomllib.loads(text), CONFIG_FILE)
    assert config.authors == {"tom": Author(slug="tom", emails=("tom@example.org",), role="writer")}


def test_write_init_writes_the_commented_defaults(repo: Path) -> None:
    path = write_init(repo)
    assert path == repo / CONFIG_FILE
    assert path.read_text(encoding="utf-8") == init_text()
    assert path.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in repo.iterdir()) == [".git", CONFIG_FILE]
    config = load_config(repo)
    assert defaults_equal(config)
    assert config.source == CONFIG_FILE


def test_write_init_refuses_to_overwrite(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'lang = "en"\n')
    with pytest.raises(ConfigError) as caught:
        write_init(repo)
    assert str(caught.value) == ".kbcheck.toml already exists; not overwriting it (use --force to replace it)"
    assert (repo / CONFIG_FILE).read_text(encoding="utf-8") == 'lang = "en"\n'
    assert sorted(p.name for p in repo.iterdir()) == [".git", CONFIG_FILE]


def test_write_init_force_replaces_atomically(repo: Path) -> None:
    write(repo, CONFIG_FILE, 'lang = "en"\n')
    write_init(repo, force=True)
    assert (repo / CONFIG_FILE).read_text(encoding="utf-8") == init_text()
    assert sorted(p.name for p in repo.iterdir()) == [".git", CONFIG_FILE]


def test_write_init_into_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is not a directory"):
        write_init(tmp_path / "absent")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user")
def test_write_init_into_a_read_only_directory(repo: Path) -> None:
    repo.chmod(0o555)
    try:
        with pytest.raises(ConfigError, match=r"^cannot write .kbcheck.toml: "):
            write_init(repo)
    finally:
        repo.chmod(0o755)
    assert sorted(p.name for p in repo.iterdir()) == [".git"]


# --- never a traceback -----------------------------------------------------------------------

FRAGMENTS = [
    *DEFAULTS, "emails", "role", "writer", "maintainer", "tool", "kbcheck", "authors", "tom",
    " = ", "=", "\n", "\r\n", "[", "]", "[[", "]]", "{", "}", ",", ".", '"', "'", '"""', "'''", "#",
    "[roles]", "[authors.tom]", "[tool.kbcheck]", '"KB002"', "KB010", '"error"', '"off"', "true",
    "1", "-1", "0", "4.5", "1979-05-27", "07:32:00", '"(?i)x"', "'(unclosed'", '"inbox/**"', '"zh"',
    '"fr"', '"\\u00e9"', "\\", "\ufeff", "\x00", "待核",
]


def _load_or_config_error(root: Path, data: bytes, name: str = CONFIG_FILE) -> None:
    (root / name).write_bytes(data)
    try:
        config = load_config(root)
    except ConfigError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(config, Config)


def test_arbitrary_toml_ish_text_never_raises_anything_but_config_error(tmp_path_factory: Any) -> None:
    root = tmp_path_factory.mktemp("fuzz-text")

    @settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=40))
    def check(parts: list[str]) -> None:
        _load_or_config_error(root, "".join(parts).encode("utf-8", "surrogatepass"))

    check()


def test_arbitrary_bytes_never_raise_anything_but_config_error(tmp_path_factory: Any) -> None:
    root = tmp_path_factory.mktemp("fuzz-bytes")

    @settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.binary(max_size=300), st.sampled_from([CONFIG_FILE, "pyproject.toml"]))
    def check(data: bytes, name: str) -> None:
        (root / CONFIG_FILE).unlink(missing_ok=True)
        _load_or_config_error(root, data, name)

    check()


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"


_words = st.sampled_from(["KB002", "kb009", "KB010", "error", "off", "writer", "maintainer", "emails",
                          "role", "inbox/**", "{author}", "(", "zh", "en", "arxiv", "repo", "", "tom"])
_scalars = st.one_of(st.booleans(), st.integers(-3, 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=8), _words)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(_words, st.text(min_size=1, max_size=5)), inner, max_size=4)),
    max_leaves=12,
)


def test_well_formed_toml_with_arbitrary_values_never_raises_anything_but_config_error(
        tmp_path_factory: Any) -> None:
    root = tmp_path_factory.mktemp("fuzz-values")
    keys = st.one_of(st.sampled_from(list(DEFAULTS)), st.text(min_size=1, max_size=6))

    @settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.dictionaries(keys, _values, max_size=6))
    def check(table: dict[str, Any]) -> None:
        text = "".join(f"{json.dumps(key)} = {_toml_value(value)}\n" for key, value in table.items())
        _load_or_config_error(root, text.encode("utf-8", "surrogatepass"))

    check()


def test_write_init_failure_leaves_no_temp_file(repo: Path) -> None:
    (repo / CONFIG_FILE).mkdir()  # os.replace cannot put a file over a directory
    with pytest.raises(ConfigError, match=r"^cannot write .kbcheck.toml: "):
        write_init(repo, force=True)
    assert sorted(p.name for p in repo.iterdir()) == [".git", CONFIG_FILE]
    assert (repo / CONFIG_FILE).is_dir()


def test_rule_ids_agree_with_the_registry() -> None:
    from kbcheck.rules import all_rules, rule_ids

    assert rule_ids() == tuple(all_rules()) == tuple(f"KB{i:03d}" for i in range(11))
