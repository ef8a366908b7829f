"""What the commit caches keep of a message: how it was said, so a digest asked again still says
its findings in Chinese (`docs/architecture.md`, messages; `kbcheck.i18n.kept`)."""

from __future__ import annotations

import marshal

import pytest
from gitrepo import GitRepo
from kbtools import run_cli

from kbcheck import engine
from kbcheck.i18n import Text, _, kept, ngettext, restored, say

DOC = "organized/knowledge/推理.md"
CARD = "organized/paper_cards/1802-2610-04418.md"
FILES = {
    CARD: '---\narxiv: "2610.04418"\ntitle: "EAGLE at long context"\n---\n\n# EAGLE at long context\n\n长上下文下提速 2.7x。\n',
    DOC: "# 推理\n\n## §4.1 投机解码\n\n- EAGLE 类方法在长上下文下提速 3.1x（arXiv:2610.04418）\n",
}


def test_a_message_survives_plain_data_and_marshal() -> None:
    said = _("path does not exist: {path}", path=CARD)
    counted = ngettext("{count} file", "{count} files", 2, count=2)
    value = ([("KB005", said)], {"notes": [counted, "plain"]}, 3, None)
    back = restored(marshal.loads(marshal.dumps(kept(value))))
    assert back == value
    assert isinstance(back[0][0][1], Text) and isinstance(back[1]["notes"][0], Text)
    assert say(back[0][0][1], "zh") == say(said, "zh") == f"路径不存在：{CARD}"
    assert say(back[1]["notes"][0], "zh") == say(counted, "zh") != "2 files"
    assert type(back[1]["notes"][1]) is str


def test_a_digest_asked_again_says_its_cached_findings_in_chinese(git_repo: GitRepo,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    base = git_repo.commit_files({CARD: FILES[CARD], DOC: "# 推理\n\n## §4.1 投机解码\n\n- 正文。\n"}, "base")
    git_repo.commit_files(FILES, "notes")
    first = run_cli("digest", "--since", base, "--lang", "zh")
    assert first[0] == 0 and "所引用的卡片" in first[1]

    def no_rule_runs(*args: object) -> None:
        raise AssertionError("the findings at this commit are kept: no rule should run")

    monkeypatch.setattr(engine, "_run_rule", no_rule_runs)
    assert run_cli("digest", "--since", base, "--lang", "zh") == first
    english = run_cli("digest", "--since", base, "--lang", "en")[1]
    assert "3.1x is not found in the cited card" in english and "所引用的卡片" not in english
