"""One work, many forms: every consumer of evidence sees the same id (`kbcheck/evidence/`).

An arXiv id, its DOI, its abs/pdf/html URL, a link to its card and a link to
a note that stands for it are one source for KB002, KB003, KB005, the
digest's status and `suggest`.
"""

from __future__ import annotations

import pytest

from kbcheck.config import Config
from kbcheck.digest.relation import living_status
from kbcheck.evidence.markers import entry_number, marked_numbers, marker_numbers
from kbcheck.model.document import parse_document
from kbcheck.model.ids import same_work
from kbcheck.model.knowledge_base import KnowledgeBase
from kbcheck.suggest.index import Resolver
from tests.kbtools import MemorySnapshot, found, md, paper_card, run

LIVING = "organized/knowledge/inference.md"
CARD = "organized/paper_cards/1800-2610-00001.md"
NOTE = "organized/guides/eagle.md"
ID = "2610.00001"

FORMS = {
    "arxiv-prefixed": "arXiv:2610.00001",
    "arxiv-bare": "2610.00001",
    "doi": "doi:10.48550/arXiv.2610.00001",
    "doi-url": "https://doi.org/10.48550/arXiv.2610.00001",
    "abs-url": "https://arxiv.org/abs/2610.00001",
    "pdf-url": "https://arxiv.org/pdf/2610.00001v2",
    "html-url": "https://arxiv.org/html/2610.00001v1",
    "card-link": "[card](../paper_cards/1800-2610-00001.md)",
    "note-link": "[EAGLE notes](../guides/eagle.md)",
}


def _files(written: str, number: str = "2.7x") -> dict[str, str | bytes]:
    return {
        LIVING: md(f"""
            # Inference

            ## §3 投机解码
            - EAGLE 在长上下文下提速 {number}（{written}）

            ## §七 引用列表
            - arXiv:2610.00001 — EAGLE
            """),
        CARD: paper_card(ID, "EAGLE at long context", "长上下文下提速 2.7x。"),
        NOTE: md("""
            ---
            title: EAGLE notes
            arxiv: "2610.00001"
            ---
            # EAGLE notes

            Reading notes.
            """),
    }


def _kb(files: dict[str, str | bytes]) -> KnowledgeBase:
    return KnowledgeBase(MemorySnapshot(files), Config())  # type: ignore[arg-type]


@pytest.mark.parametrize("form", list(FORMS))
def test_each_form_is_the_listed_entry_for_kb002_and_kb003(form: str) -> None:
    report = run(_files(FORMS[form]), select={"KB002", "KB003"})
    assert found(report) == []


@pytest.mark.parametrize("form", list(FORMS))
def test_each_form_reaches_the_card_for_kb005(form: str) -> None:
    assert found(run(_files(FORMS[form]), select={"KB005"})) == []
    absent = found(run(_files(FORMS[form], number="9.9x"), select={"KB005"}))
    # a linked note is a source of its own besides the card (it may hold what the card does not)
    assert absent == ([] if form == "note-link" else [("KB005", LIVING, 4, "9.9x")])


@pytest.mark.parametrize("form", list(FORMS))
def test_each_form_is_one_status_in_the_digest(form: str) -> None:
    status = living_status(_kb(_files(FORMS[form])))
    assert status[ID].in_references
    assert status[ID].entry_mentions == 1
    assert not any(key.startswith("10.48550/") for key in status)


@pytest.mark.parametrize("form", [f for f in FORMS if f != "note-link"])
def test_each_form_is_one_target_for_suggest(form: str) -> None:
    kb = _kb(_files(FORMS[form]))
    refs = [(kind, value, ref_form) for block in kb.block_refs(LIVING) or () for kind, value, _l, _c, ref_form in block]
    targets, _kinds = Resolver(kb).resolve(LIVING, refs)
    assert f"arxiv:{ID}" in targets
    assert not any(t.startswith("doi:") for t in targets)


def test_a_note_link_is_the_note_for_suggest() -> None:
    # suggest reads refs without opening every linked note: the note is its target
    kb = _kb(_files(FORMS["note-link"]))
    refs = [(kind, value, ref_form) for block in kb.block_refs(LIVING) or () for kind, value, _l, _c, ref_form in block]
    targets, _kinds = Resolver(kb).resolve(LIVING, refs)
    assert f"path:{NOTE}" in targets


def test_arxiv_doi_in_body_and_arxiv_id_in_list_is_one_reference() -> None:
    """The contradiction of a DOI in the body and the arXiv id in the list: no KB002, no KB003, no fix."""
    report = run(_files("doi:10.48550/arXiv.2610.00001"))
    assert [f for f in report.findings if f.rule in ("KB002", "KB003")] == []
    assert not any(f.fix is not None for f in report.findings)


def test_another_doi_is_still_its_own_reference() -> None:
    report = run(_files("doi:10.1145/3600006.3613165"), select={"KB003"})
    assert found(report) == [("KB003", LIVING, 4, "10.1145/3600006.3613165")]


def test_same_work() -> None:
    assert same_work("doi", "10.48550/arxiv.2610.00001v2") == ("arxiv", "2610.00001")
    assert same_work("doi", "10.48550/arxiv.2613.00001") == ("doi", "10.48550/arxiv.2613.00001")  # no such month
    assert same_work("doi", "10.1145/3600006") == ("doi", "10.1145/3600006")
    assert same_work("arxiv", "2610.00001") == ("arxiv", "2610.00001")


RANGED = md("""
    # Serving

    ## §3 Scheduling
    - Continuous batching raises throughput 2.3x [1-3]

    ## References
    1. arXiv:2610.00001 — Orca
    2. arXiv:2610.00002 — vLLM
    3. arXiv:2610.00003 — Sarathi
    4. arXiv:2610.00004 — Never cited
    """)


def test_a_range_marker_names_the_same_entries_for_kb002_and_kb005() -> None:
    files: dict[str, str | bytes] = {LIVING: RANGED}
    report = run(files, select={"KB002", "KB005"})
    # entries 1-3 are cited by the range; 4 is not, and the number has sources that are no cards
    assert found(report) == [("KB002", LIVING, 10, "2610.00004")]


def test_without_the_marker_kb002_reports_every_entry() -> None:
    files: dict[str, str | bytes] = {LIVING: RANGED.replace(" [1-3]", "")}
    subjects = [subject for _r, _p, _l, subject in found(run(files, select={"KB002"}))]
    assert subjects == ["2610.00001", "2610.00002", "2610.00003", "2610.00004"]


def test_markers() -> None:
    assert marker_numbers("1-3") == ["1", "2", "3"]
    assert marker_numbers("2, 4") == ["2", "4"]
    assert "300" not in marker_numbers("1-300")
    assert marked_numbers("见 [1-3], [5] and a[i]") == ["1", "2", "3", "5"]
    doc = parse_document("1. first\n\n[7] A written number\n", _kb({}).patterns)
    assert [entry_number(b) for b in doc.blocks] == ["1", "7"]
