"""An increment's placement (suggested sections, related material, name clashes) is kept per head commit.

It depends on the whole knowledge base at the head, so an unchanged card is
placed again at a commit whose living document changed.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from gitrepo import GitRepo

import kbcheck.suggest
from kbcheck.cli import main
from kbcheck.digest.placed import NAMESPACE

LIVING = "organized/knowledge/inference.md"
CARD = "organized/paper_cards/1748-2610-08815.md"
GUIDE = "organized/guides/speculative-decoding.md"


def living(heading: str) -> str:
    return (f"# 推理系统活文档\n\n## {heading}\n\n- 草稿模型的接受率决定提速（arXiv:2610.05512）。\n"
            "- Speculative decoding with a fixed draft budget.\n\n"
            "## §5 路由\n\n- 路由器的失败模式。\n\n## §七 引用列表\n\n- arXiv:2610.05512\n")


CARD_TEXT = ('---\narxiv: "2610.08815"\ntitle: "SpecBound: speculative decoding under a fixed draft budget"\n'
             'tldr: "固定草稿预算下的投机解码"\n---\n\n# SpecBound\n\n草稿模型的接受率与固定草稿预算下的投机解码提速。\n')
OTHER = '---\narxiv: "2610.05512"\ntitle: "Draft acceptance"\n---\n\n# Draft acceptance\n\n草稿模型的接受率。\n'
GUIDE_TEXT = "# 投机解码指南\n\n见 SpecBound（arXiv:2610.08815）与草稿预算。\n"


def digest(since: str, to: str, lang: str = "en", fmt: str = "json") -> str:
    out, err = io.StringIO(), io.StringIO()
    assert main(["digest", "--since", since, "--to", to, "--format", fmt, "--lang", lang], out=out, err=err) == 0, \
        err.getvalue()
    return out.getvalue()


def increment(text: str) -> dict[str, Any]:
    [item] = [i for i in json.loads(text)["items"] if i["path"] == CARD]
    assert item["class"] == "increment"
    return item


@pytest.fixture
def history(git_repo: GitRepo) -> tuple[str, str, str]:
    """The living document; then a new card and a guide about it; then the section renamed."""
    base = git_repo.commit_files({LIVING: living("§4 投机解码"), "organized/paper_cards/1712-2610-05512.md": OTHER},
                                 "knowledge base")
    head = git_repo.commit_files({CARD: CARD_TEXT, GUIDE: GUIDE_TEXT}, "a new card")
    renamed = git_repo.commit_files({LIVING: living("§4 Speculative decoding")}, "section renamed")
    return base, head, renamed


@pytest.fixture
def suggests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the section ranking is asked about from now on."""
    asked: list[str] = []
    suggest = kbcheck.suggest.Suggester.suggest

    def counting(self: kbcheck.suggest.Suggester, path: str, top: int = kbcheck.suggest.DEFAULT_TOP) -> Any:
        asked.append(path)
        return suggest(self, path, top)

    monkeypatch.setattr(kbcheck.suggest.Suggester, "suggest", counting)
    return asked


def test_a_digest_asked_again_places_nothing_again(git_repo: GitRepo, history: tuple[str, str, str],
                                                   suggests: list[str]) -> None:
    base, head, _ = history
    first = digest(base, head)
    item = increment(first)
    assert item["suggested_sections"][0]["section"] == "§4 投机解码"
    assert CARD in suggests
    suggests.clear()
    assert digest(base, head) == first
    assert suggests == []
    assert any((git_repo.path / ".git" / "kbcheck" / "cache" / NAMESPACE).glob("*.shard"))


def test_the_other_language_is_placed_on_its_own(git_repo: GitRepo, history: tuple[str, str, str],
                                                 suggests: list[str]) -> None:
    base, head, _ = history
    english = digest(base, head, "en", "markdown")
    suggests.clear()
    chinese = digest(base, head, "zh", "markdown")
    assert CARD in suggests
    assert chinese != english
    suggests.clear()
    assert digest(base, head, "zh", "markdown") == chinese
    assert suggests == []


def test_an_unchanged_card_is_placed_again_at_another_head(git_repo: GitRepo, history: tuple[str, str, str],
                                                           suggests: list[str]) -> None:
    base, head, renamed = history
    assert increment(digest(base, head))["suggested_sections"][0]["section"] == "§4 投机解码"
    suggests.clear()
    # the card's blob is the same; the section it belongs to has a new heading
    assert git_repo.git("rev-parse", f"{head}:{CARD}") == git_repo.git("rev-parse", f"{renamed}:{CARD}")
    assert increment(digest(base, renamed))["suggested_sections"][0]["section"] == "§4 Speculative decoding"
    assert CARD in suggests


def test_notes_parsed_in_workers_place_alike(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a cold cache the guides and briefs are parsed by one process per core first: the brief
    is the same as when one process does it all."""
    import kbcheck.digest.placed as placed

    notes = {f"organized/guides/guide-{n}.md": f"# 指南 {n}\n\n见 SpecBound（arXiv:2610.08815）与草稿预算 {n}。\n"
             for n in range(6)}
    notes.update({f"inbox/tom/2026-10-2{n}-brief.md": f"# Brief {n}\n\nDraft budgets, take {n} (arXiv:2610.05512).\n"
                  for n in range(4)})
    base = git_repo.commit_files({LIVING: living("§4 投机解码"), "organized/paper_cards/1712-2610-05512.md": OTHER,
                                  **notes}, "knowledge base")
    head = git_repo.commit_files({CARD: CARD_TEXT, GUIDE: GUIDE_TEXT}, "a new card")
    monkeypatch.setattr(placed, "PARALLEL_MIN_NOTES", 1)
    forked: list[int] = []
    run_tasks = placed.run_tasks

    def counting(tasks: Any, *args: Any, **kwargs: Any) -> Any:
        forked.append(len(tasks))
        return run_tasks(tasks, *args, **kwargs)

    monkeypatch.setattr(placed, "run_tasks", counting)
    monkeypatch.setenv("KBCHECK_JOBS", "1")
    alone = digest(base, head)
    assert forked == []
    main(["cache", "clear"], out=io.StringIO(), err=io.StringIO())
    monkeypatch.setenv("KBCHECK_JOBS", "2")
    assert digest(base, head) == alone
    assert forked and forked[0] >= 2
    assert increment(alone)["related"]
