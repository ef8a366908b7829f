"""Authors' forge logins (for `--actor`) and how e-mails and logins compare (docs/trust-model.md)."""

from __future__ import annotations

import re
import tomllib

import pytest

from kbcheck.authors import author_for_email, author_for_login
from kbcheck.config import CONFIG_FILE, Author, config_from_bytes, config_from_mapping, identity_key, init_text
from kbcheck.errors import ConfigError


def load(text: str):  # type: ignore[no-untyped-def]
    return config_from_bytes(text.encode("utf-8"), CONFIG_FILE)


def test_logins_are_read_and_kept_as_compared() -> None:
    config = load('[authors.tom]\nemails = ["Tom@Example.org"]\nlogins = [" Tom-GH ", "tom-gh", "汤姆"]\n')
    assert config.authors["tom"] == Author(slug="tom", emails=("tom@example.org",), role="writer",
                                           logins=("tom-gh", "汤姆"))
    assert author_for_login(config, "TOM-gh") == "tom"
    assert author_for_login(config, "汤姆") == "tom"
    assert author_for_login(config, "jay") is None
    assert author_for_login(config, "") is None


def test_logins_default_to_none() -> None:
    assert load('[authors.tom]\nemails = ["tom@example.org"]\n').authors["tom"].logins == ()


@pytest.mark.parametrize("text, message", [
    ('[authors.tom]\nlogins = ["tom-gh"]\n[authors.ann]\nlogins = ["TOM-GH"]\n',
     "login 'tom-gh' is listed for both [authors.tom] and [authors.ann] in .kbcheck.toml"),
    ('[authors.tom]\nlogins = ["tom gh"]\n',
     "login 'tom gh' of [authors.tom] in .kbcheck.toml must be a forge user name, without spaces"),
    ('[authors.tom]\nlogins = ["  "]\n',
     "login '' of [authors.tom] in .kbcheck.toml must be a forge user name, without spaces"),
    ('[authors.tom]\nlogins = "tom-gh"\n',
     "'authors.tom.logins' in .kbcheck.toml must be a list of strings, got the string 'tom-gh'"),
    ('[authors.tom]\nlogin = ["tom-gh"]\n',
     "unknown key 'login' in [authors.tom] of .kbcheck.toml; did you mean 'logins'?"),
])
def test_bad_logins_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(text)
    assert str(caught.value) == message


@pytest.mark.parametrize("known, given", [
    ("sam@example.org", "SAM@EXAMPLE.ORG"),
    ("zoë@example.org", "zoe\u0308@example.org"),   # decomposed ë is the same address after NFC
    ("李雷@例子.中国", " 李雷@例子.中国 "),
])
def test_emails_that_match(known: str, given: str) -> None:
    config = load(f'[authors.a]\nemails = ["{known}"]\n')
    assert author_for_email(config, given) == "a"


@pytest.mark.parametrize("known, given", [
    ("sam@example.org", "\u017fam@example.org"),    # long s: folds to s under full case folding
    ("sam@example.org", "s\u0430m@example.org"),    # Cyrillic a: a look-alike, another letter
    ("zoë@example.org", "ZOË@example.org"),         # no case folding beyond ASCII
    ("straße@example.org", "strasse@example.org"),
])
def test_emails_that_must_not_match(known: str, given: str) -> None:
    config = load(f'[authors.a]\nemails = ["{known}"]\n')
    assert author_for_email(config, given) is None


def test_identity_key() -> None:
    assert identity_key(" Tom@Example.ORG ") == "tom@example.org"
    assert identity_key("ZOË") == "zoË"
    assert identity_key("zoe\u0308") == "zoë"


def test_a_config_error_names_a_look_alike_duplicate_only_when_it_is_one() -> None:
    """`SAM@` and `sam@` are one address (an error); `ſam@` and `sam@` are two (fine)."""
    with pytest.raises(ConfigError, match="listed for both"):
        load('[authors.a]\nemails = ["SAM@example.org"]\n[authors.b]\nemails = ["sam@example.org"]\n')
    config = load('[authors.a]\nemails = ["\u017fam@example.org"]\n[authors.b]\nemails = ["sam@example.org"]\n')
    assert set(config.authors) == {"a", "b"}


def test_init_text_shows_logins_and_where_the_policy_comes_from() -> None:
    text = init_text()
    assert '# logins = ["tom-gh"]' in text
    assert "read from the base revision" in text
    uncommented = re.sub(r"^# (\[authors\.tom\]|emails = |logins = |role = )", r"\1", text, flags=re.MULTILINE)
    config = config_from_mapping(tomllib.loads(uncommented), CONFIG_FILE)
    assert config.authors == {"tom": Author(slug="tom", emails=("tom@example.org",), role="writer",
                                            logins=("tom-gh",))}
