"""Properties over arbitrary input: the model never raises, positions stay in the text, ids are fixed points."""

from __future__ import annotations

import pytest
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


# -- hardening: more parsers, the whole engine, paths that must stay inside the repository -----------

import json as _json  # noqa: E402
import re as _re  # noqa: E402
from typing import Any  # noqa: E402

from kbtools import run  # noqa: E402

from kbcheck.baseline import parse_baseline  # noqa: E402
from kbcheck.errors import KbcheckError  # noqa: E402
from kbcheck.git import parse_added_lines  # noqa: E402
from kbcheck.model.cards import split_frontmatter  # noqa: E402
from kbcheck.model.claims import quoted_spans  # noqa: E402
from kbcheck.model.document import section_label  # noqa: E402
from kbcheck.sources import normalise_path  # noqa: E402

#: the regex `quoted_spans` replaced (it was quadratic on unclosed quotes): the two must agree
_QUOTES_REFERENCE = _re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"\n]*\"|‘[^’]*’")
quotish = st.lists(st.sampled_from(['“', '”', '「', '」', '『', '』', '"', '‘', '’', "\n", "12%", "a", " "]),
                   max_size=40).map("".join)


@MANY
@given(st.one_of(quotish, any_text))
def test_quoted_spans_agree_with_the_regex_they_replace(text: str) -> None:
    assert quoted_spans(text) == [(m.start(), m.end()) for m in _QUOTES_REFERENCE.finditer(text)]


@MANY
@given(st.one_of(any_text, st.builds(lambda fm, body: f"---\n{fm}\n---\n{body}", any_text, any_text)))
def test_frontmatter_split_keeps_the_body_and_its_first_line(text: str) -> None:
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as `decode_markdown` hands it over
    fm, body_line, body = split_frontmatter(text)
    assert text.endswith(body)
    assert 1 <= body_line <= text.count("\n") + 1
    if fm is None:
        assert (body, body_line) == (text, 1)
    else:
        assert text[: len(text) - len(body)].count("\n") == body_line - 1
        assert fm in text


@MANY
@given(any_text)
def test_section_labels_are_fixed_points(heading: str) -> None:
    label = section_label(heading)
    if label is not None:
        assert label.startswith("§") and section_label(label) == label


path_text = st.lists(st.sampled_from(["..", ".", "/", "a", "b", "organized", "inbox", "笔记 一", "-x", "\n", "\\", "~"]),
                     max_size=12).map("".join)


@MANY
@given(st.one_of(path_text, st.text(max_size=30)))
def test_normalised_paths_never_leave_the_repository(path: str) -> None:
    normal = normalise_path(path)
    if normal is not None:
        assert normalise_path(normal) == normal
        assert normal != ".." and not normal.startswith(("../", "/"))


@MANY
@given(st.one_of(path_text, st.just("")), st.one_of(path_text, st.text(max_size=30)), st.sampled_from(["link", "text"]))
def test_resolved_links_never_leave_the_repository(base: str, written: str, form: str) -> None:
    base = normalise_path(base) or ""
    written = written.replace("\0", "")  # a file holding NUL is binary: never parsed, so never linked from
    target = KnowledgeBase.resolve_path(base, written, form)
    if target is not None:
        assert target == "" or normalise_path(target) == target
        assert target != ".." and not target.startswith(("../", "/"))


@MANY
@given(st.one_of(st.binary(max_size=300), st.lists(st.sampled_from([
    b"diff --git a/x b/x\n", b"--- a/x\n", b"+++ b/x\n", b'+++ "b/\\346\\226\\207 x.md"\n', b"+++ /dev/null\n",
    b"@@ -1 +1 @@\n", b"@@ -0,0 +1,3 @@\n", b"@@ -5,2 +7,0 @@\n", b"@@ -1 +99999999999 @@\n", b"+added\n", b"-gone\n",
]), max_size=12).map(b"".join)))
def test_patch_parser_never_raises_and_lines_are_positive(patch: bytes) -> None:
    for path, lines in parse_added_lines(patch).items():
        assert isinstance(path, str) and all(line >= 1 for line in lines)


baseline_bytes = st.one_of(
    st.binary(max_size=200),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
                 lambda inner: st.one_of(st.lists(inner, max_size=3),
                                         st.dictionaries(st.sampled_from(["commit", "date", "fingerprints", "x"]),
                                                         inner, max_size=4)),
                 max_leaves=10).map(lambda value: _json.dumps(value).encode()),
)


@MANY
@given(baseline_bytes)
def test_baseline_parser_raises_only_the_user_facing_error(data: bytes) -> None:
    try:
        baseline = parse_baseline(data, ".kbcheck/baseline.json")
    except KbcheckError as error:
        assert "\n" not in str(error)
    else:
        assert baseline.commit and all(isinstance(f, str) for f in baseline.fingerprints)


def test_manifest_loader_raises_only_the_user_facing_error(tmp_path_factory: Any) -> None:
    from kbcheck.digest.items import load_manifest

    root = tmp_path_factory.mktemp("manifest")

    @MANY
    @given(st.one_of(baseline_bytes, st.lists(st.one_of(path_text, st.text(max_size=10)), max_size=5).map(
        lambda paths: _json.dumps({"items": [{"path": p} for p in paths]}).encode())))
    def check(data: bytes) -> None:
        (root / "m.json").write_bytes(data)
        try:
            paths = load_manifest(str(root / "m.json"), root)
        except KbcheckError:
            pass  # the CLI prints it on one line (`kbcheck.commands.one_line`)
        else:
            assert all(normalise_path(p) == p for p in paths)

    check()


@pytest.mark.parametrize("path", ["/\u0000", "inbox/a\u0000.md"])
def test_a_manifest_path_with_a_nul_is_a_usage_error_naming_the_entry(tmp_path: Any, path: str) -> None:
    from kbcheck.digest.items import load_manifest

    (tmp_path / "m.json").write_text(_json.dumps({"items": [{"path": "inbox/ok.md"}, {"path": path}]}), "utf-8")
    with pytest.raises(KbcheckError, match=r"^manifest .*m\.json: entry 2 has a NUL character in its path$"):
        load_manifest(str(tmp_path / "m.json"), tmp_path)


kb_texts = st.fixed_dictionaries({
    "organized/knowledge/k.md": any_text,
    "inbox/tom/b.md": any_text,
    "organized/paper_cards/1695-2610-02076.md": st.one_of(any_text, st.builds(
        lambda body: f'---\narxiv: "2610.02076"\ntitle: "t"\nstars: 12\ns2_citations: 19\n---\n{body}', any_text)),
    "organized/guides/g.md": st.sampled_from(["", "# g\n\n[k](../knowledge/k.md) 2.7x\n"]),
})


@MANY
@given(kb_texts)
def test_every_finding_of_every_rule_lies_inside_its_file(files: dict[str, str]) -> None:
    report = run(files)  # type: ignore[arg-type]
    for finding in report.findings:
        lines = _line_count(files[finding.path])
        assert 1 <= finding.line <= finding.end_line <= lines, finding
        assert finding.column >= 1
