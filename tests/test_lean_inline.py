"""Inline text without markup is not run through the inline parser, nor prose without a digit
through the claim patterns, and nothing read from a file changes: the token stream and every
cached fact equal those of the full parse, file by file,
over the test fixtures, a synthetic knowledge base of the bench and, when they are there, the
real note collections of the development set."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kbcheck.config import Config
from kbcheck.model import claims, document
from kbcheck.model.document import Document, HeadingPatterns
from kbcheck.model.facts import ParseSettings, block_refs, document_facts
from kbcheck.model.plain import to_plain

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
CORPORA = ROOT.parent / "shared" / "corpora"
#: the development collections small enough to read whole in a test
DEVELOPMENT = ("Zhang-Bocheng-paper-reading", "dair-ai-ML-Papers-of-the-Week", "km1994-nlp_paper_study",
               "JackonYang-paper-reading")
#: files read from each collection, spread over it
PER_CORPUS = 250

sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

_CONFIG = Config()
SETTINGS = ParseSettings(HeadingPatterns(_CONFIG.reference_heading, _CONFIG.trend_heading,
                                         _CONFIG.open_question_heading), ("inbox", "organized"), ())


def _full_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on every inline goes through markdown-it's inline parser and all prose through
    the claim patterns, as before the lean path."""
    monkeypatch.setattr(document, "_needs_parse", lambda content: True)
    monkeypatch.setattr(claims, "_A_DIGIT", re.compile(""))


def _facts(text: str, kind: str) -> object:
    parsed = document_facts(kind, text, SETTINGS)
    return to_plain(parsed, Document), block_refs(parsed)


def _tokens(text: str) -> list[object]:
    return [token.as_dict() for token in document._markdown().parse(text)]


def _same_as_full_parse(files: dict[str, tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    lean = {path: _facts(text, kind) for path, (text, kind) in files.items()}
    with monkeypatch.context() as patch:
        _full_parse(patch)
        full = {path: _facts(text, kind) for path, (text, kind) in files.items()}
    differing = [path for path in files if lean[path] != full[path]]
    assert not differing, differing[:5]


def _markdown_files(root: Path) -> Iterator[Path]:
    yield from sorted(p for p in root.rglob("*.md") if ".git" not in p.parts)


@pytest.mark.parametrize("content", [
    "", "one line", "two\nlines", "soft \nbreak", "hard  \nbreak", "spaces   \n   before and after",
    "tab\n\tindented\n  last  ", "中文，100 个 token 的区间提速 4 倍\n第二行 ", "a\n \nb", "tab\t\nend",
    "exclaim! no image", "# % + - : = > @ ^ { } ~ ] are text here",
])
def test_text_without_markup_gets_the_tokens_of_the_inline_parser(content: str) -> None:
    md = document._markdown()
    full: list[object] = []
    md.inline.parse(content, md, {}, full)
    lean: list[object] = []
    document._plain_inline(content, lean)
    assert not document._needs_parse(content)
    assert lean == full


def test_prose_without_a_digit_holds_no_claim_and_a_digit_is_read() -> None:
    assert claims.tagged_claims("提速很多，延迟也低") == []
    assert [c[2] for c in claims.tagged_claims("提速 3 倍，延迟也低")] == ["3 倍"]


@pytest.mark.parametrize("content", ["**bold**", "a `code` span", "[link](x.md)", "[[wiki]]", "<b>x</b>",
                                     "&amp;", "$x$", "\\*escaped", "snake_case", "![image](a.png)"])
def test_text_with_markup_is_parsed(content: str) -> None:
    assert document._needs_parse(content)


@pytest.mark.parametrize("content", ["", "  one  line ", "中文\u3000全角空格\u00a0不断行", "nul\0inside", "cr\rline",
                                     "# % + - : = > @ ^ { } ~ ] are text here", "exclaim! no image"])
def test_a_line_without_markup_reads_as_its_parse_without_the_parser(content: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    lean = document.inline_text(content)
    with monkeypatch.context() as patch:
        _full_parse(patch)
        assert lean == document.inline_text(content)
    assert document.inline_text("a **bold** [link](x.md)") == "a bold link"  # markup still goes through the parser


def test_most_prose_of_the_bench_needs_no_inline_parse(tmp_path: Path) -> None:
    kb = generate.generate(tmp_path / "kb", generate.Shape(paper_cards=30, repo_cards=6, references=20,
                                                          doc_lines=80, history=1, digest_items=(2, 4), seed=3))
    assert kb.files > 0
    inlines = [token for path in _markdown_files(tmp_path / "kb")
               for token in document._markdown().parse(path.read_text(encoding="utf-8")) if token.type == "inline"]
    plain = [token for token in inlines if not document._needs_parse(token.content)]
    assert 0 < len(plain) < len(inlines)


def test_fixtures_give_the_tokens_and_facts_of_the_full_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    files = {str(p): (p.read_text(encoding="utf-8"), "knowledge") for p in _markdown_files(FIXTURES)}
    files |= {str(p): (p.read_text(encoding="utf-8"), "knowledge") for p in _markdown_files(ROOT / "examples")}
    assert len(files) > 20
    lean = {path: _tokens(text) for path, (text, _kind) in files.items()}
    with monkeypatch.context() as patch:
        _full_parse(patch)
        assert all(_tokens(text) == lean[path] for path, (text, _kind) in files.items())
    _same_as_full_parse(files, monkeypatch)


def test_the_bench_knowledge_base_gives_the_facts_of_the_full_parse(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "kb"
    generate.generate(root, generate.Shape(paper_cards=200, repo_cards=40, references=120, doc_lines=400,
                                           history=1, digest_items=(2, 4), seed=11))
    files: dict[str, tuple[str, str]] = {}
    for path in _markdown_files(root):
        relative = path.relative_to(root).as_posix()
        kind = "paper" if "/paper_cards/" in relative else "repo" if "/repo_cards/" in relative else "knowledge"
        files[relative] = (path.read_text(encoding="utf-8"), kind)
    assert len(files) > 200
    _same_as_full_parse(files, monkeypatch)


@pytest.mark.parametrize("name", DEVELOPMENT)
def test_real_notes_give_the_facts_of_the_full_parse(name: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = CORPORA / f"{name}.bundle"
    if not bundle.is_file():
        pytest.skip(f"{bundle.name} is not here")
    clone = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(bundle), str(clone)], check=True, capture_output=True)
    paths = list(_markdown_files(clone))
    step = max(1, len(paths) // PER_CORPUS)
    files: dict[str, tuple[str, str]] = {}
    for path in paths[::step]:
        try:
            files[str(path)] = (path.read_text(encoding="utf-8"), "knowledge")
        except (UnicodeDecodeError, OSError):
            continue
    assert files
    _same_as_full_parse(files, monkeypatch)
