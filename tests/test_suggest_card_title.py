"""A card is placed by its frontmatter `title`, not only by the short name its body's heading gives
(`docs/suggest.md`; a file's title is its frontmatter `title`, else its first heading)."""

from __future__ import annotations

import json

from gitrepo import GitRepo
from kbtools import run_cli

LIVING = "organized/knowledge/inference.md"
CARD = "organized/paper_cards/1748-2610-08815.md"
CARD_TEXT = ('---\narxiv: "2610.08815"\ntitle: "SpecBound: speculative decoding under a fixed draft budget"\n'
             'tldr: "固定草稿预算下的投机解码"\n---\n\n# SpecBound\n\n草稿模型的接受率与提速。\n')


def living(heading: str, line: str) -> str:
    return (f"# Inference\n\n## {heading}\n\n- {line} (arXiv:2610.05512).\n\n"
            "## §5 Routing\n\n- Router failure modes and load balancing.\n\n## §七 引用列表\n\n- arXiv:2610.05512\n")


def suggested(git_repo: GitRepo, living_text: str) -> list[str]:
    git_repo.commit_files({LIVING: living_text, CARD: CARD_TEXT}, "kb")
    code, out, err = run_cli("suggest", CARD, "--format", "json")
    assert code == 0, err
    return [s["section"] for s in json.loads(out)["items"][0]["suggestions"]]


def test_the_title_s_words_place_the_card(git_repo: GitRepo) -> None:
    text = living("§4 Speculative decoding", "Speculative decoding with a fixed draft budget")
    assert suggested(git_repo, text) == ["§4 Speculative decoding"]


def test_a_section_sharing_nothing_with_the_title_is_not_suggested(git_repo: GitRepo) -> None:
    assert suggested(git_repo, living("§4 Vision transformers", "Patch embeddings at high resolution")) == []
