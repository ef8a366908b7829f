"""Findings carry their facts: the digest, the exit status and JSON read fields, never a message's words."""

from __future__ import annotations

import io
import json

import pytest
from gitrepo import GitRepo

from kbcheck.cli import main
from kbcheck.digest.classify import FindingIndex, stale_numbers
from kbcheck.digest.model import Item
from kbcheck.errors import ConfigError, PolicyError
from kbcheck.findings import Finding, Problem
from kbcheck.i18n import say
from kbcheck.model.plain import from_plain, to_plain
from kbcheck.policy import config_at
from kbcheck.rules.kb002_cited_but_absent import ReferenceNeverMentioned
from kbcheck.rules.kb005_unverified_number import UnverifiedNumber
from kbcheck.rules.kb006_stale_number import StaleNumber
from kbcheck.suppressions import count_unused

REC = "organized/repo_cards/4572-recursive-oss-rec.md"
DOC = "organized/knowledge/inference.md"
CARD_A = "organized/paper_cards/1802-2610-04418.md"
CARD_B = "organized/paper_cards/1803-2610-04419.md"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def stale_finding(card: str, message: str) -> Finding:
    return Finding("KB006", "stale-number", "warning", DOC, 14, 3, 14, message, "243⭐", "0" * 32,
                   facts=StaleNumber("243⭐", card, "stars", 245))


def item(path: str) -> Item:
    return Item(path=path, kind="repo_card", change="modified")


def test_the_digest_reads_the_card_value_from_the_facts_whatever_the_message_says() -> None:
    reworded = stale_finding(REC, "a message in other words, without the English phrase")
    assert stale_numbers(item(REC), [reworded], "en") == [
        f"243⭐ at {DOC}:14 (card now says stars: 245)"]


def test_a_stale_number_of_another_card_is_not_the_items() -> None:
    # the item's path stands in the message, but the facts name another card
    other = stale_finding("organized/repo_cards/1-other.md", f"243⭐ is stale: {REC} now says stars: 245")
    assert stale_numbers(item(REC), [other], "en") == []
    assert FindingIndex([other]).concerning(item(REC)) == []


def test_a_reference_finding_concerns_the_item_that_has_its_id() -> None:
    finding = Finding("KB002", "cited-but-absent", "warning", DOC, 30, 3, 30, "…", "other", "0" * 32,
                      facts=ReferenceNeverMentioned("2610.04418"))
    paper = Item(path=CARD_A, kind="paper_card", change="added")
    from kbcheck.digest.model import CitedId

    paper.ids = [CitedId("arxiv", "2610.04418")]
    assert FindingIndex([finding]).concerning(paper) == [finding]
    paper.ids = [CitedId("arxiv", "2610.04419")]
    assert FindingIndex([finding]).concerning(paper) == []


def test_a_problem_with_facts_is_said_from_them_and_read_back_from_plain_data_anew() -> None:
    problem = Problem(DOC, 5, 2, subject="3.1x", facts=UnverifiedNumber("3.1x", "not_in_cards", (CARD_A, CARD_B)))
    assert problem.message == f"3.1x is not found in the cited cards {CARD_A}, {CARD_B}"
    back = from_plain(to_plain(problem, Problem), Problem)
    assert back == problem
    # the list of cards is said in Chinese from the facts, not from a kept English string
    assert say(back.message, "zh") == f"所引用的卡片 {CARD_A}、{CARD_B} 中找不到 3.1x"


def test_a_cached_problem_of_an_unknown_kind_is_a_miss() -> None:
    plain = to_plain(Problem(DOC, 1, 1, subject="x", facts=ReferenceNeverMentioned("x")), Problem)
    renamed = (*plain[:-1], ("NoSuchFacts", "x"))
    with pytest.raises(ValueError):
        from_plain(renamed, Problem)


def test_unused_disables_are_counted_by_their_facts_not_their_words() -> None:
    from kbcheck.rules.kb010_unused_disable import UNKNOWN, UNUSED, UselessDisable

    def finding(rule: str, facts: UselessDisable | None, message: str = "") -> Finding:
        said = facts.message() if facts is not None else message
        return Finding(rule, "x", "warning", DOC, 3, 1, 3, said, "s", "f", facts=facts)

    unused = finding("KB010", UselessDisable(UNUSED, "KB005"))
    assert count_unused([unused]) == 1
    # an unknown rule, or the same words from another rule (or said in another language), is not unused
    assert count_unused([finding("KB010", UselessDisable(UNKNOWN, "KB05")),
                         finding("KB005", None, unused.message), finding("KB010", None, say(unused.message, "zh"))]) == 0


def test_json_findings_carry_their_data(git_repo: GitRepo) -> None:
    git_repo.commit_files({
        REC: "---\nrepo: recursive-oss/rec\nstars: 245\n---\n递归推理。\n",
        DOC: f"# 推理\n\n## §1 调度\n\n- recursive-oss/rec（[卡片]({REC.replace('organized/', '../')})）：243⭐\n",
    }, "kb")
    code, out, _err = run("check", "--all", "--format", "json")
    assert code == 0
    findings = json.loads(out)["findings"]
    assert [(f["rule"], f.get("data")) for f in findings] == [
        ("KB006", {"written": "243⭐", "card": REC, "field": "stars", "card_value": 245})]


def test_the_trusted_sides_error_is_a_policy_error_said_once(git_repo: GitRepo) -> None:
    git_repo.commit_files({".kbcheck.toml": "lang = 5\n"}, "bad policy")
    from kbcheck import git

    with pytest.raises(PolicyError) as raised:
        config_at(git.open_repository(git_repo.path), "HEAD")
    assert isinstance(raised.value, ConfigError)
    assert str(raised.value).count("the trusted side of this change") == 1
