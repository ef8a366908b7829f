"""Properties over arbitrary input: the model never raises, positions stay in the text, ids are fixed points."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kbtools import MemorySnapshot

from kbcheck.config import Config
from kbcheck.model.cards import PAPER, REPO, parse_card
from kbcheck.model.citations import scan_prose
from kbcheck.model.claims import find_claims
from kbcheck.model.document import HeadingPatterns, parse_document
from kbcheck.model.ids import normalize_arxiv, normalize_doi, normalize_repo
from kbcheck.model.knowledge_base import KnowledgeBase

ROOTS = ("inbox", "organized")
CONFIG = Config()
PATTERNS = HeadingPatterns(CONFIG.reference_heading, CONFIG.trend_heading, CONFIG.open_question_heading)
MANY = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: pieces a knowledge base is made of, so that generated text reaches the interesting paths
FRAGMENTS = [
    "# ", "## §6.2 趋势", "### §七 引用列表", "#### 6.1 开放问题", "六、", "- ", "  - ", "    - ", "1. ", "> ",
    "| a | b |", "|---|---|", "```", "~~~", "    ", "`", "**", "*", "_", "[", "](", ")", "![", "<", ">",
    "<!-- kbcheck: disable=KB005 -->", "<!-- kbcheck: disable-file=KB002,KB003 -->", "<!--", "-->",
    "arXiv:", "arxiv: ", "2610.02076", "v2", "0703.12345", "hep-th/9901001", "math.GT/0309136",
    "https://arxiv.org/abs/", "https://arxiv.org/pdf/2610.02076.pdf", "https://papers.cool/arxiv/",
    "https://github.com/", "recursive-oss/rec", ".git", "/tree/main", "10.1145/3600006.3613165", "doi:",
    "organized/paper_cards/1695-2610-02076.md", "inbox/tom/", "../", "./", "*.json", "#x",
    "243⭐", "1,771", "周增 +", "被引", "影响力被引", "%", "x", "×", "倍", "ms", "GB", "tokens/s", "k", "万",
    "S2", "V2.6", "H200", "§", "第", "条", "2026-10-29", " 22:20", "3.11.2", "“", "”", "「", "」", '"', "'",
    "待核", "[?]", "---", "\n", "\n\n", "\r\n", "\t", " ", "：", "，", "。", "（", "）", "-", "+", "−", "0", "1", "9", ".",
]
markdownish = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=60).map("".join)
any_text = st.one_of(st.text(), markdownish)


def _line_count(text: str) -> int:
    """Lines as markdown counts them: `\r\n`, `\r` and `\n` each end one."""
    return len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))


@MANY
@given(any_text)
def test_parse_document_never_raises_and_positions_stay_inside(text: str) -> None:
    doc = parse_document(text, PATTERNS, uncertainty_markers=CONFIG.uncertainty_markers)
    lines = _line_count(text)
    assert doc.line_count == lines
    assert doc.sections
    for section in doc.sections:
        assert 1 <= section.line <= section.end_line <= max(lines, 1)
    for block in doc.blocks:
        assert 1 <= block.line <= block.end_line <= lines, (block.kind, block.line, block.end_line)
        assert 0 <= block.section < len(doc.sections)
        assert block.parent is None or block.parent < block.index
        for ref in block.refs:
            assert 1 <= ref.line <= lines and ref.column >= 1
        for claim in block.claims:
            assert 1 <= claim.line <= lines and claim.column >= 1


@MANY
@given(any_text, st.integers(min_value=0, max_value=50))
def test_line_offset_shifts_but_never_leaves_the_file(text: str, offset: int) -> None:
    doc = parse_document(text, PATTERNS, line_offset=offset)
    for block in doc.blocks:
        assert offset + 1 <= block.line <= block.end_line <= offset + _line_count(text)


@MANY
@given(any_text)
def test_scan_prose_keeps_offsets_and_finds_normal_forms(text: str) -> None:
    found, masked = scan_prose(text, ROOTS)
    assert len(masked) == len(text)
    offsets = [offset for offset, *_ in found]
    assert offsets == sorted(offsets)
    for offset, kind, value, _form in found:
        assert 0 <= offset < max(len(text), 1)
        if kind == "arxiv":
            assert normalize_arxiv(value) == value
        elif kind == "doi":
            assert normalize_doi(value) == value
        elif kind in ("repo", "repo_name"):
            assert normalize_repo(value) == value


@MANY
@given(any_text)
def test_find_claims_never_raises_and_spans_are_inside(text: str) -> None:
    masked = scan_prose(text, ROOTS)[1]
    for start, end, written, value, _field in find_claims(masked):
        assert 0 <= start < end <= len(masked)
        assert written == masked[start:end]
        assert value == value  # never NaN


@MANY
@given(any_text, st.sampled_from([PAPER, REPO]))
def test_parse_card_never_raises(text: str, kind: str) -> None:
    path = "organized/paper_cards/1695-2610-02076.md" if kind == PAPER else "organized/repo_cards/4572-recursive-oss-rec.md"
    card = parse_card(path, kind, text)
    lines = _line_count(text)
    for problem in card.problems:
        assert 1 <= problem.line <= lines + 1, problem
    assert 1 <= card.body_line <= lines + 1


frontmatter_values = st.one_of(
    st.text(max_size=20), st.integers(), st.floats(allow_nan=True), st.booleans(), st.none(),
    st.sampled_from(["2610.02076", "2610.02070", "hep-th/9901001", "recursive-oss/rec", "!!python/object:os.system",
                     "&a [*a]", "[", "{", "'", '"', ": :", "2026-10-09", "- a\n- b"]),
)


@MANY
@given(st.dictionaries(st.sampled_from(["arxiv", "title", "repo", "stars", "s2_citations", "x"]), frontmatter_values,
                       max_size=6), st.text(max_size=40))
def test_parse_card_never_raises_on_frontmatter_shaped_text(fields: dict[str, object], body: str) -> None:
    text = "---\n" + "".join(f"{k}: {v}\n" for k, v in fields.items()) + "---\n" + body
    for kind, path in ((PAPER, "organized/paper_cards/1695-2610-02076.md"), (REPO, "organized/repo_cards/4572-recursive-oss-rec.md")):
        card = parse_card(path, kind, text)
        assert all(1 <= p.line for p in card.problems)


arxiv_ids = st.one_of(
    st.builds(lambda yymm, num, v: f"{yymm}.{num}{v}",
              st.from_regex(r"\A\d{4}\Z"), st.from_regex(r"\A\d{4,5}\Z"), st.sampled_from(["", "v1", "v12", "V3"])),
    st.builds(lambda archive, num, v: f"{archive}/{num}{v}",
              st.sampled_from(["hep-th", "HEP-TH", "math.GT", "cond-mat", "gr-qc", "cs.AI"]),
              st.from_regex(r"\A\d{7}\Z"), st.sampled_from(["", "v2"])),
)
written_arxiv = st.builds(lambda prefix, space, ident: f"{space}{prefix}{ident}{space}",
                          st.sampled_from(["", "arXiv:", "arxiv: ", "ARXIV:"]), st.sampled_from(["", " "]), arxiv_ids)
written_doi = st.builds(lambda prefix, reg, suffix, tail: f"{prefix}10.{reg}/{suffix}{tail}",
                        st.sampled_from(["", "doi:", "DOI: "]), st.from_regex(r"\A\d{4,9}\Z"),
                        st.from_regex(r"\A[A-Za-z0-9._/-]{1,20}\Z"), st.sampled_from(["", ".", ")", "'"]))
written_repo = st.builds(lambda owner, name, tail: f"{owner}/{name}{tail}",
                         st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9-]{0,10}\Z"), st.from_regex(r"\A[A-Za-z0-9_.-]{1,12}\Z"),
                         st.sampled_from(["", ".git", ".git.git", "/"]))


@MANY
@given(written_arxiv)
def test_normalising_an_arxiv_id_twice_equals_once(written: str) -> None:
    once = normalize_arxiv(written)
    assert normalize_arxiv(once) == once


@MANY
@given(written_doi)
def test_normalising_a_doi_twice_equals_once(written: str) -> None:
    once = normalize_doi(written)
    assert normalize_doi(once) == once


@MANY
@given(st.one_of(written_repo, st.text(max_size=30)))
def test_normalising_a_repo_twice_equals_once(written: str) -> None:
    once = normalize_repo(written)
    assert normalize_repo(once) == once


@MANY
@given(st.one_of(st.binary(max_size=200), markdownish.map(lambda s: s.encode("utf-8", "surrogatepass"))),
       st.sampled_from(["organized/knowledge/k.md", "organized/paper_cards/1695-2610-02076.md",
                        "organized/repo_cards/4572-recursive-oss-rec.md", "inbox/tom/b.md", "notes.bin"]))
def test_arbitrary_bytes_never_raise(data: bytes, path: str) -> None:
    kb = KnowledgeBase(MemorySnapshot({path: data}), Config(max_file_size=150))  # type: ignore[arg-type]
    text = kb.text(path)
    if text is None:
        assert len(kb.notices) == 1 and kb.notices[0].startswith(f"{path}: skipped: ")
    else:
        assert "\r" not in text and not text.startswith("\ufeff")
        document = kb.document(path)
        assert document is not None
        kb.resolve(path)
        if "_cards/" in path:
            assert kb.card(path) is not None
