"""Normal forms of arXiv ids, DOIs and repos (`docs/output.md`)."""

from __future__ import annotations

import pytest

from kbcheck.model.ids import (
    arxiv_to_file_stem,
    is_arxiv_id,
    normalize_arxiv,
    normalize_doi,
    normalize_repo,
    real_month,
)


@pytest.mark.parametrize(
    ("written", "normal"),
    [
        ("arXiv:2610.02076v2", "2610.02076"),
        ("arXiv:2610.02076", "2610.02076"),
        ("ARXIV: 2610.02076", "2610.02076"),
        ("arxiv:2610.02076V12", "2610.02076"),
        ("2610.02076v2", "2610.02076"),
        ("  2610.02076  ", "2610.02076"),
        ("0704.0001", "0704.0001"),
        ("arXiv:hep-th/9901001v3", "hep-th/9901001"),
        ("arXiv:HEP-TH/9901001", "hep-th/9901001"),
        ("math.GT/0309136v1", "math.gt/0309136"),
    ],
)
def test_normalize_arxiv(written: str, normal: str) -> None:
    assert normalize_arxiv(written) == normal


@pytest.mark.parametrize(
    ("written", "normal"),
    [
        ("10.1145/3600006.3613165", "10.1145/3600006.3613165"),
        ("10.1145/ABC.Def", "10.1145/abc.def"),
        ("DOI:10.1145/ABC.", "10.1145/abc"),
        ("doi: 10.1000/XYZ)", "10.1000/xyz"),
    ],
)
def test_normalize_doi_lowercases_and_drops_prefix_and_trailing_punctuation(written: str, normal: str) -> None:
    assert normalize_doi(written) == normal


@pytest.mark.parametrize(
    ("written", "normal"),
    [
        ("Owner/Repo.git", "owner/repo"),
        ("recursive-oss/rec", "recursive-oss/rec"),
        ("/amitshekhariitbhu/LLM-Internals/", "amitshekhariitbhu/llm-internals"),
        ("a/b.git.git", "a/b"),
        ("a/b.github.io", "a/b.github.io"),
    ],
)
def test_normalize_repo(written: str, normal: str) -> None:
    assert normalize_repo(written) == normal


@pytest.mark.parametrize(
    "written",
    ["arXiv:2610.02076v2", "arXiv:hep-th/9901001v3", "math.GT/0309136", "ARXIV: 0704.0001V1"],
)
def test_normalize_arxiv_is_idempotent(written: str) -> None:
    once = normalize_arxiv(written)
    assert normalize_arxiv(once) == once


@pytest.mark.parametrize("written", ["Owner/Repo.git", "a/b.git.git", " x/y/ "])
def test_normalize_repo_is_idempotent(written: str) -> None:
    once = normalize_repo(written)
    assert normalize_repo(once) == once


@pytest.mark.parametrize("written", ["DOI:10.1145/ABC.", "10.1000/xyz)", "doi: 10.1/A"])
def test_normalize_doi_is_idempotent(written: str) -> None:
    once = normalize_doi(written)
    assert normalize_doi(once) == once


@pytest.mark.parametrize(
    ("yymm", "real"),
    [
        ("0704", True),  # the first month of new-style ids
        ("0703", False),
        ("0712", True),
        ("0801", True),
        ("2610", True),
        ("9912", True),
        ("2613", False),
        ("2600", False),
        ("0700", False),
        ("070", False),
        ("07040", False),
        ("abcd", False),
    ],
)
def test_real_month(yymm: str, real: bool) -> None:
    assert real_month(yymm) is real


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("2610.02076", True),
        ("0704.0001", True),
        ("2610.1234", True),
        ("0703.12345", False),
        ("1999.12345", False),
        ("2610.123", False),
        ("2610.123456", False),
        ("hep-th/9901001", True),
        ("math.gt/0309136", True),
        ("hep-th/990100", False),
        ("3.14159", False),
    ],
)
def test_is_arxiv_id(text: str, valid: bool) -> None:
    assert is_arxiv_id(text) is valid


@pytest.mark.parametrize(
    ("arxiv_id", "stem"),
    [("2610.02076", "2610-02076"), ("hep-th/9901001", "hep-th-9901001"), ("math.GT/0309136", "math-gt-0309136")],
)
def test_file_stem_of_an_id(arxiv_id: str, stem: str) -> None:
    assert arxiv_to_file_stem(arxiv_id) == stem
