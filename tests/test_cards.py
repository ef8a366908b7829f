"""Paper and repo cards: frontmatter read safely, checked and summarised (KB008 in `docs/rules.md`)."""

from __future__ import annotations

import pytest
from kbtools import paper_card, repo_card

from kbcheck.model.cards import (
    PAPER,
    REPO,
    file_id,
    paper_id_from_stem,
    parse_card,
    split_frontmatter,
)

PAPER_PATH = "organized/paper_cards/1695-2610-02076.md"
REPO_PATH = "organized/repo_cards/4572-recursive-oss-rec.md"


def problems(path: str, kind: str, text: str) -> list[tuple[int, str]]:
    return [(p.line, p.message) for p in parse_card(path, kind, text).problems]


def test_valid_paper_card_summary() -> None:
    text = (
        '---\narxiv: "2610.02076"\ntitle: "LLM-as-Jev: ..."\ncategory: engineering\nsecondary: [llm-infra]\n'
        "s2_citations: 19\ns2_influential: 2\nopenalex_updated: 2026-10-09\ncollected: 2026-10-29\n"
        'tldr: "从 next-token 概率读出决策，提速 1.8x"\nsomething_new: {nested: [7, "eight"]}\n---\n'
        "正文：相比基线 45% 的胜率。见 arXiv:2610.11959。\n"
    )
    card = parse_card(PAPER_PATH, PAPER, text)
    assert card.problems == ()
    assert card.id == "2610.02076"
    assert card.kind == PAPER
    assert card.title == "LLM-as-Jev: ..."
    assert card.fields["openalex_updated"] == "2026-10-09"  # dates become ISO strings
    assert card.fields["something_new"] == {"nested": [7, "eight"]}
    assert card.number_field("s2_citations") == 19.0
    assert card.number_field("title") is None
    assert card.number_field("missing") is None
    # every number stated, not the digits of dates, ids or the card's own arxiv field
    assert card.numbers == frozenset({19.0, 2.0, 1.8, 7.0, 45.0})
    assert card.body_line == 13
    assert card.has_body


def test_valid_repo_card() -> None:
    card = parse_card(REPO_PATH, REPO, repo_card("recursive-oss/rec", stars=245, weekly_growth=14,
                                                license="Apache-2.0", last_commit="2026-10-27"))
    assert card.problems == ()
    assert card.id == "recursive-oss/rec"
    assert card.title == "recursive-oss/rec"
    assert card.number_field("stars") == 245.0
    assert card.numbers == frozenset({245.0, 14.0, 2.0})  # `Apache-2.0` states a 2.0


def test_repo_field_is_normalised() -> None:
    card = parse_card(REPO_PATH, REPO, "---\nrepo: Recursive-OSS/Rec.git\n---\n")
    assert (card.id, card.problems) == ("recursive-oss/rec", ())


@pytest.mark.parametrize(
    ("value", "number"),
    [("1,771", 1771.0), (" 245 ", 245.0), ("n/a", None), (True, None), (3.5, 3.5), (None, None)],
)
def test_number_field_reads_numbers_and_numeric_strings(value: object, number: float | None) -> None:
    card = parse_card(REPO_PATH, REPO, "---\nrepo: recursive-oss/rec\n---\n")
    card.fields["stars"] = value
    assert card.number_field("stars") == number


def test_missing_frontmatter() -> None:
    assert problems(PAPER_PATH, PAPER, "# LLM-as-Jev\n\n没有 frontmatter\n") == [
        (1, "card has no YAML frontmatter (a `---` block at the top)")
    ]
    assert problems(PAPER_PATH, PAPER, '---\narxiv: "2610.02076"\ntitle: t\n') == [
        (1, "card has no YAML frontmatter (a `---` block at the top)")
    ]


def test_empty_frontmatter() -> None:
    assert problems(PAPER_PATH, PAPER, "---\n---\n") == [(1, "card frontmatter is empty")]


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ('---\narxiv: "2610.02076"\ntitle: LLM-as-Jev: a: b\n---\n', 3, "mapping values are not allowed"),
        ('---\narxiv: "2610.02076"\ntitle: "t"\ns2: [1,\n---\n', 5, "did not find expected node content"),
        ('---\narxiv: "2610.02076"\ntitle: "unterminated\n---\n', 4, "found unexpected end of stream"),
        ("---\narxiv: \"2610.02076\"\n\ttitle: tab\n---\n", 3, "found character that cannot start any token"),
    ],
)
def test_invalid_yaml_reports_the_file_line(text: str, line: int, reason: str) -> None:
    [(got_line, message)] = problems(PAPER_PATH, PAPER, text)
    assert got_line == line
    assert message.startswith("frontmatter is not valid YAML: ")
    assert reason in message


@pytest.mark.parametrize(
    "text",
    [
        '---\narxiv: "2610.02076"\ntitle: !!python/object/apply:os.system ["echo pwned"]\n---\n',
        "---\n!!python/object:os.system\n---\n",
        '---\narxiv: "2610.02076"\ntitle: !!python/name:os.system\n---\n',
    ],
)
def test_python_tags_are_refused_not_run(text: str) -> None:
    [(line, message)] = problems(PAPER_PATH, PAPER, text)
    assert "could not determine a constructor for the tag" in message
    assert "python/" in message
    assert line in (2, 3)


def test_alias_bomb_is_a_problem_not_a_hang() -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for name, prev in zip("bcdefghi", "abcdefgh"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    text = "---\n" + "\n".join(lines) + '\narxiv: "2610.02076"\ntitle: t\n---\n'
    card = parse_card(PAPER_PATH, PAPER, text)
    assert [(p.line, p.message) for p in card.problems] == [(2, "frontmatter holds more than 100000 values (YAML aliases expanded); kbcheck reads no more")]
    assert card.fields == {}


@pytest.mark.parametrize(
    ("text", "type_name"),
    [("---\n- a\n- b\n---\n", "list"), ("---\njust a string\n---\n", "str"), ("---\n42\n---\n", "int")],
)
def test_frontmatter_must_be_a_mapping(text: str, type_name: str) -> None:
    assert problems(PAPER_PATH, PAPER, text) == [(2, f"card frontmatter must be a mapping of fields, not a {type_name}")]


def test_missing_required_fields() -> None:
    assert problems(PAPER_PATH, PAPER, "---\ncategory: x\n---\n") == [
        (2, "required field 'arxiv' is missing"),
        (2, "required field 'title' is missing"),
    ]
    assert problems(PAPER_PATH, PAPER, '---\narxiv: "2610.02076"\ntitle: ""\n---\n') == [
        (2, "required field 'title' is missing")
    ]
    assert problems(REPO_PATH, REPO, "---\nstars: 245\n---\n") == [(2, "required field 'repo' is missing")]


def test_paper_card_without_arxiv_still_has_the_id_of_its_file_name() -> None:
    assert parse_card(PAPER_PATH, PAPER, "---\ntitle: t\n---\n").id == "2610.02076"


def test_paper_id_disagreeing_with_the_file_name() -> None:
    card = parse_card(PAPER_PATH, PAPER, paper_card("2610.02077"))
    assert card.id == "2610.02077"
    assert [(p.line, p.message) for p in card.problems] == [
        (2, "arxiv 2610.02077 disagrees with the file name '1695-2610-02076.md' (expected …-2610-02077.md)")
    ]


def test_repo_id_disagreeing_with_the_file_name() -> None:
    assert problems(REPO_PATH, REPO, repo_card("other/rec")) == [
        (2, "repo other/rec disagrees with the file name '4572-recursive-oss-rec.md' (expected …-other-rec.md)")
    ]


def test_file_names_that_break_the_convention() -> None:
    assert problems("organized/paper_cards/2610-02076.md", PAPER, paper_card("2610.02076")) == [
        (1, "file name '2610-02076.md' does not follow NNNN-YYMM-NNNNN.md")
    ]
    assert problems("organized/paper_cards/llm-as-jev.md", PAPER, paper_card("2610.02076")) == [
        (1, "file name 'llm-as-jev.md' does not follow NNNN-YYMM-NNNNN.md")
    ]
    assert problems("organized/repo_cards/rec.md", REPO, repo_card("recursive-oss/rec")) == [
        (1, "file name 'rec.md' does not follow NNNN-owner-repo.md")
    ]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ('"not an id"', "field 'arxiv' is not an arXiv id: 'not an id'"),
        ('"1999.12345"', "field 'arxiv' is not an arXiv id: '1999.12345'"),
    ],
)
def test_arxiv_field_that_is_no_id(raw: str, message: str) -> None:
    assert problems(PAPER_PATH, PAPER, f"---\narxiv: {raw}\ntitle: t\n---\n") == [(2, message)]


def test_repo_field_must_be_owner_slash_repo() -> None:
    assert problems(REPO_PATH, REPO, "---\nrepo: rec\n---\n") == [(2, "field 'repo' must be owner/repo, got 'rec'")]


def test_arxiv_field_with_prefix_and_version_is_normalised() -> None:
    card = parse_card(PAPER_PATH, PAPER, '---\narxiv: "arXiv:2610.02076v3"\ntitle: t\n---\n')
    assert (card.id, card.problems) == ("2610.02076", ())


@pytest.mark.parametrize("written", ["2610.02076", "2610.10000", "2610.02070", "0704.0010"])
def test_unquoted_arxiv_number_matching_the_file_name_is_accepted(written: str) -> None:
    """YAML reads `arxiv: 2610.10000` as the float 2610.1; the file name keeps the digits."""
    path = f"organized/paper_cards/0001-{written.replace('.', '-')}.md"
    card = parse_card(path, PAPER, f"---\narxiv: {written}\ntitle: t\n---\n")
    assert (card.id, card.problems) == (written, ())
    assert card.numbers == frozenset()


def test_unquoted_arxiv_number_not_matching_the_file_name_asks_for_quotes() -> None:
    assert problems(PAPER_PATH, PAPER, "---\narxiv: 2610.02070\ntitle: t\n---\n") == [
        (2, "field 'arxiv' must be a quoted string: YAML reads it as the number 2610.0207")
    ]


def test_old_style_cards() -> None:
    """Convention: `hep-th/9901001` is `NNNN-hep-th-9901001.md`, `math.GT/0309136` is `NNNN-math-gt-0309136.md`."""
    card = parse_card("organized/paper_cards/0001-hep-th-9901001.md", PAPER, paper_card("hep-th/9901001v3"))
    assert (card.id, card.problems, card.numbers) == ("hep-th/9901001", (), frozenset())
    card = parse_card("organized/paper_cards/0002-math-gt-0309136.md", PAPER, paper_card("math.GT/0309136"))
    assert (card.id, card.problems) == ("math.gt/0309136", ())
    assert problems("organized/paper_cards/0001-hep-th-9901001.md", PAPER, paper_card("hep-ph/9901001")) == [
        (2, "arxiv hep-ph/9901001 disagrees with the file name '0001-hep-th-9901001.md' (expected …-hep-ph-9901001.md)")
    ]


@pytest.mark.parametrize(
    ("stem", "arxiv_id"),
    [
        ("2610-02076", "2610.02076"),
        ("0704-0001", "0704.0001"),
        ("hep-th-9901001", "hep-th/9901001"),
        ("math-gt-0309136", "math-gt/0309136"),
        ("02076", None),
        ("llm-as-jev", None),
    ],
)
def test_paper_id_from_stem(stem: str, arxiv_id: str | None) -> None:
    assert paper_id_from_stem(stem) == arxiv_id


def test_file_id() -> None:
    assert file_id(PAPER_PATH, PAPER) == "2610-02076"
    assert file_id("organized/repo_cards/4572-Recursive-OSS-Rec.md", REPO) == "recursive-oss-rec"
    assert file_id("organized/repo_cards/rec.md", REPO) is None


def test_split_frontmatter() -> None:
    assert split_frontmatter("---\na: 1\n---\nbody\n") == ("\na: 1\n", 4, "body\n")
    assert split_frontmatter("---\na: 1\n---") == ("\na: 1\n", 3, "")
    assert split_frontmatter("no\n---\na: 1\n---\n") == (None, 1, "no\n---\na: 1\n---\n")
    assert split_frontmatter("----\na: 1\n-----\nx") == ("\na: 1\n", 4, "x")


def test_non_finite_and_odd_values_do_not_break_the_summary() -> None:
    card = parse_card(PAPER_PATH, PAPER, '---\narxiv: "2610.02076"\ntitle: t\nn: .nan\ni: -.inf\nb: true\nz: null\n---\n')
    assert card.problems == ()
    assert card.number_field("b") is None
    assert card.number_field("z") is None


def test_every_reader_of_frontmatter_refuses_an_alias_bomb_at_once() -> None:
    """A card whose YAML expands to 10^7 values: the digest and the suggester read frontmatter as
    a card is read (`read_frontmatter`), so none of them walks the ten million values."""
    import time

    from kbcheck.digest.items import split_fields
    from kbcheck.model.cards import frontmatter_fields, read_frontmatter

    lines = ["a: &a [" + ",".join(['"x"'] * 10) + "]"]
    for name, prev in zip("bcdefg", "abcdef"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
    text = "---\n" + "\n".join(lines) + '\narxiv: "2610.02076"\ntitle: t\n---\nbody\n'
    started = time.monotonic()
    refused = "frontmatter holds more than 100000 values (YAML aliases expanded); kbcheck reads no more"
    assert [(p.line, p.message) for p in parse_card(PAPER_PATH, PAPER, text).problems] == [(2, refused)]
    front = read_frontmatter(text)
    assert (front.fields, front.problem is not None and front.problem.message, front.body) == (None, refused, "body\n")
    assert split_fields(text) == (None, "body\n")
    assert frontmatter_fields(text) == ({}, 12)
    assert time.monotonic() - started < 3  # walking the values took the digest 10 s


def test_the_digest_reads_fields_as_a_card_does() -> None:
    from kbcheck.digest.items import split_fields

    text = '---\narxiv: "2610.02076"\ncollected: 2026-10-29\ntags: [a, b]\n---\nbody\n'
    assert split_fields(text) == ({"arxiv": "2610.02076", "collected": "2026-10-29", "tags": ["a", "b"]}, "body\n")
    assert split_fields("no frontmatter\n") == ({}, "no frontmatter\n")
    assert split_fields("---\n---\nbody\n") == ({}, "body\n")
    assert split_fields("---\n- a list\n---\nbody\n") == (None, "body\n")
    assert split_fields("---\na: [\n---\nbody\n") == (None, "body\n")
