"""Fixing twice equals fixing once: after `--fix`, nothing fixable is left, whatever the file's shape."""

from __future__ import annotations

import io

from gitrepo import GitRepo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kbtools import paper_card, repo_card

from kbcheck.cli import main
from kbcheck.findings import Edit, Finding
from kbcheck.fix.apply import apply_fixes

DOC = "organized/knowledge/serving.md"
CARDS: dict[str, str | bytes] = {
    "organized/repo_cards/4572-recursive-oss-rec.md": repo_card("recursive-oss/rec", stars=1245, weekly_growth=-3),
    "organized/repo_cards/4721-amitshekhariitbhu-llm-internals.md": repo_card(
        "amitshekhariitbhu/llm-internals", stars=18020, weekly_growth=26),
    "organized/paper_cards/1700-2610-11959.md": paper_card("2610.11959", "MiMo-V2.6", s2_citations=40),
    "organized/paper_cards/1702-2610-20417.md": paper_card("2610.20417", "Speculative Decoding at Scale"),
}
REPOS = ("recursive-oss/rec", "amitshekhariitbhu/llm-internals")
IDS = ("2610.11959", "2610.20417", "2610.02076", "2611.00042")


def _count(value: int) -> str:
    return f"{value:,}" if value >= 1000 and value % 2 else str(value)


claim_lines = st.builds(
    lambda repo, stars, growth, words: f"{repo}：{words[0]} {_count(stars)}⭐ / 周增 {growth:+d}{words[1]}",
    st.sampled_from(REPOS), st.integers(0, 30000), st.integers(-50, 50),
    st.sampled_from([("本轮复采", ""), ("stars", " this week"), ("复采", "（待核）")]),
)
mention_lines = st.builds(lambda ident, words: f"{words}（arXiv:{ident}）", st.sampled_from(IDS),
                          st.sampled_from(["投机解码", "MiMo 的统一轨迹表示", "A new judge"]))
markers = st.sampled_from(["-", "*", "+", "1.", "3)"])


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    body = draw(st.lists(st.one_of(claim_lines, mention_lines), min_size=1, max_size=6))
    marker = draw(markers)
    indent = " " * draw(st.integers(0, 3))
    references = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=3, unique=True))
    loose = draw(st.booleans())
    entries = []
    for n, ident in enumerate(references):
        head = marker if not marker[0].isdigit() else f"{int(marker[:-1]) + n}{marker[-1]}"
        entries.append(f"{indent}{head} arXiv:{ident}")
    lines = ["# 推理服务", "", "## §1.6 引擎与部署", "", *(f"- {line}" for line in body), "",
             "## §七 引用列表", "", *(("\n" if loose else "").join(f"{e}\n" for e in entries).rstrip("\n").split("\n"))]
    tail = draw(st.sampled_from(["", "\n", "\n\n## 开放问题\n\n- 无"]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines) + tail.replace("\n", end)
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode()


def fix(repo: GitRepo) -> bytes:
    main(["check", "--all", "--fix", "--select", "KB003,KB006"], out=io.StringIO(), err=io.StringIO())
    return (repo.path / DOC).read_bytes()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents())
def test_fixing_twice_equals_fixing_once(git_repo: GitRepo, document: bytes) -> None:
    if not (git_repo.path / DOC).exists():
        git_repo.commit_files(CARDS, "cards")
    git_repo.write(DOC, document)
    git_repo.stage(DOC)
    once = fix(git_repo)
    assert fix(git_repo) == once
    assert once.startswith(b"\xef\xbb\xbf") == document.startswith(b"\xef\xbb\xbf")
    assert (b"\r\n" in once) == (b"\r\n" in document)


def _finding(line: int, column: int, original: str, replacement: str) -> Finding:
    return Finding("KB006", "stale-number", "warning", DOC, line, column, line, "m", original, "f",
                   fix=Edit(line, column, original, replacement))


@given(st.text(alphabet="ab⭐\r\n", max_size=30), st.integers(1, 4), st.integers(1, 6),
       st.text(alphabet="ab⭐", min_size=0, max_size=2), st.text(alphabet="xy\n", max_size=3))
def test_an_edit_applies_only_where_its_original_still_stands(text: str, line: int, column: int,
                                                             original: str, replacement: str) -> None:
    data = text.encode()
    applied = apply_fixes(data, [_finding(line, column, original, replacement)])
    if not applied.fixed:
        assert applied.data == data  # nothing half-applied
        return
    result = applied.data.decode()
    # exactly one place held `original`, and only it changed (inserted line ends take the file's own)
    assert any(
        text[start:start + len(original)] == original
        and result == text[:start] + replacement.replace("\n", end) + text[start + len(original):]
        for start in range(len(text) + 1) for end in ("\n", "\r\n", "\r")
    )
