"""Messages in the knowledge base's language: `lang = "zh"` or `--lang zh` (`docs/configuration.md`).

Findings keep their English message as data (fingerprints, baselines and
JSON do not move with the language); the text and GitHub formats, notices,
errors and `explain` say them in the run's language.
"""

from __future__ import annotations

import importlib.util
import io
import json
import pickle
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from kbcheck.cli import main
from kbcheck.i18n import Text, _, ngettext, say

ROOT = Path(__file__).resolve().parent.parent
DOC = "organized/knowledge/推理.md"
CARD = "organized/paper_cards/1802-2610-04418.md"
FILES = {
    CARD: '---\narxiv: "2610.04418"\ntitle: "EAGLE at long context"\n---\n\n# EAGLE at long context\n\n长上下文下提速 2.7x。\n',
    DOC: """# 推理

## §4.1 投机解码

- EAGLE 类方法在长上下文下提速 3.1x（arXiv:2610.04418）

<!-- kbcheck: disable=KB05 -->
- 显存降低 45%

## §七 参考文献

- arXiv:2610.04418
- arXiv:2610.04419
""",
}

ZH_LINES = [
    f"{DOC}:5:21: KB005 所引用的卡片 {CARD} 中找不到 3.1x",
    f"{DOC}:7:1: KB010 [*] 禁用注释中的规则 'KB05' 未知；是不是想写 KB005？",
    f"{DOC}:8:8: KB005 所引用的卡片 {CARD} 中找不到 45%",
    f"{DOC}:13:3: KB002 2610.04419 在引用列表中，但正文从未提及（引用挂账、无条目）；请补写条目或删去这条引用",
    f"{DOC}:13:3: KB004 arXiv:2610.04419 在知识库中没有论文卡片；是不是想写 2610.04418（{CARD}）？",
    "2 个文件中有 0 个错误、5 个警告",
    "[*] 1 处可用 `kbcheck check --fix` 自动修复",
]
EN_LINES = [
    f"{DOC}:5:21: KB005 3.1x is not found in the cited card {CARD}",
    f"{DOC}:7:1: KB010 [*] disable comment names unknown rule 'KB05'; did you mean KB005?",
    f"{DOC}:8:8: KB005 45% is not found in the cited card {CARD}",
    f"{DOC}:13:3: KB002 2610.04419 is in the reference list but never mentioned in the body; write its entry or drop the reference",
    f"{DOC}:13:3: KB004 arXiv:2610.04419 has no paper card in the knowledge base; did you mean 2610.04418 ({CARD})?",
    "0 errors, 5 warnings in 2 files",
    "[*] 1 fixable with `kbcheck check --fix`",
]
#: a misspelt disable comment is a KB010 finding, no notice
ZH_NOTICE = EN_NOTICE = ""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files(FILES, "notes")
    return git_repo


# -- check ------------------------------------------------------------------------------------
def test_check_says_findings_notices_and_summary_in_chinese_with_lang_zh(kb: GitRepo) -> None:
    assert run("check", "--all", "--lang", "zh") == (0, "\n".join(ZH_LINES) + "\n", ZH_NOTICE)


def test_check_stays_english_by_default(kb: GitRepo) -> None:
    """The digest's default language is zh, but messages are English until `lang` is set."""
    assert run("check", "--all") == (0, "\n".join(EN_LINES) + "\n", EN_NOTICE)


def test_lang_in_the_config_file_is_the_language_of_messages_and_lang_en_overrides_it(kb: GitRepo) -> None:
    kb.write(".kbcheck.toml", 'lang = "zh"\n')
    assert run("check", "--all") == (0, "\n".join(ZH_LINES) + "\n", ZH_NOTICE)
    assert run("check", "--all", "--lang", "en") == (0, "\n".join(EN_LINES) + "\n", EN_NOTICE)


def test_github_annotations_in_chinese(kb: GitRepo) -> None:
    code, out, _err = run("check", "--all", "--format", "github", "--lang", "zh")
    assert code == 0
    assert out.splitlines()[0] == (f"::warning file={DOC},line=5,col=21,endLine=5,title=KB005 unverified-number::"
                                   f"所引用的卡片 {CARD} 中找不到 3.1x")


def test_github_closing_notice_in_chinese() -> None:
    from kbcheck.reporters.github import left_out_notice

    assert left_out_notice(3, 1, "zh") == ("::notice::kbcheck：另有 3 个错误、另有 1 个警告未标注；"
                                           "完整报告见 kbcheck check --format text")
    assert left_out_notice(1, 0, "en") == ("::notice::kbcheck: 1 more error not annotated; "
                                           "see the full report (kbcheck check --format text)")


def test_machine_formats_stay_english_under_a_configured_lang_and_follow_an_explicit_one(kb: GitRepo) -> None:
    kb.write(".kbcheck.toml", 'lang = "zh"\n')
    configured = json.loads(run("check", "--all", "--format", "json")[1])
    explicit = json.loads(run("check", "--all", "--format", "json", "--lang", "zh")[1])
    assert configured["findings"][0]["message"] == f"3.1x is not found in the cited card {CARD}"
    assert explicit["findings"][0]["message"] == f"所引用的卡片 {CARD} 中找不到 3.1x"
    sarif = json.loads(run("check", "--all", "--format", "sarif")[1])
    assert sarif["runs"][0]["results"][0]["message"]["text"] == f"3.1x is not found in the cited card {CARD}"


def test_the_fingerprint_is_the_same_in_both_languages(kb: GitRepo) -> None:
    en = json.loads(run("check", "--all", "--format", "json", "--lang", "en")[1])["findings"]
    zh = json.loads(run("check", "--all", "--format", "json", "--lang", "zh")[1])["findings"]
    assert [f["message"] for f in en] != [f["message"] for f in zh]
    assert [(f["fingerprint"], f["subject"], f["line"]) for f in en] == [(f["fingerprint"], f["subject"], f["line"]) for f in zh]


def test_malformed_card_in_chinese_from_a_warm_cache_too(git_repo: GitRepo) -> None:
    """KB008's message is cached with the card as plain data and is still said in Chinese."""
    git_repo.commit_files({"organized/paper_cards/0001-2610-00001.md": '---\ntitle: "无编号"\nstars: [1\n---\n正文\n'})
    expected = ("organized/paper_cards/0001-2610-00001.md:4:1: KB008 frontmatter 不是合法的 YAML："
                "did not find expected ',' or ']'")
    for _run in range(2):  # cold, then warm
        code, out, _err = run("check", "--all", "--lang", "zh")
        assert code == 1
        assert out.splitlines()[0] == expected


def test_fix_reports_what_it_changed_in_chinese(git_repo: GitRepo) -> None:
    from kbtools import repo_card

    card = "organized/repo_cards/4572-recursive-oss-rec.md"
    doc = "organized/knowledge/引擎.md"
    git_repo.commit_files({card: repo_card("recursive-oss/rec", stars=245, weekly_growth=17),
                           doc: "# 引擎\n\n## §1.6 部署\n\n- recursive-oss/rec：本轮复采 243⭐ / 周增 +14\n"})
    code, out, err = run("check", "--all", "--fix", "--lang", "zh")
    assert (code, out, err) == (0, "2 个文件中没有发现问题。\n", f"kbcheck：已修复 {doc}：2 处问题（KB006 ×2）\n")
    assert (git_repo.path / doc).read_text(encoding="utf-8").endswith("本轮复采 245⭐ / 周增 +17\n")


EVERY_RULE = {
    CARD: FILES[CARD],
    "organized/paper_cards/0001-2610-00001.md": '---\narxiv: "2610.00001"\n---\n正文\n',
    "organized/guides/gbk.md": "# 指南\n".encode("gbk"),
    "organized/repo_cards/4572-recursive-oss-rec.md": '---\nrepo: recursive-oss/rec\nstars: 245\n---\n正文\n',
    "organized/knowledge/全部.md": """# 全部

## §4.1 投机解码

- EAGLE 类方法在长上下文下提速 3.1x（arXiv:2610.04418）
- 另见 arXiv:2610.05555 的讨论
- 详见 [笔记](../notes/missing.md)
- organized/repo_cards/4572-recursive-oss-rec.md：243⭐

## §6.2 趋势

- 推理成本持续下降

<!-- kbcheck-disable-next-line KB05 -->
- 没有数字

## §七 参考文献

- arXiv:2610.04418
- arXiv:2610.04419
""",
}


def test_every_rule_says_its_findings_in_both_languages(git_repo: GitRepo) -> None:
    """Each rule's messages go through the catalog: the English and Chinese of every finding differ."""
    from kbcheck.rules import rule_ids

    git_repo.commit_files(EVERY_RULE, "notes")
    git_repo.write(".kbcheck.toml", '[authors.tom]\nemails = ["tom@example.org"]\nrole = "writer"\n')
    git_repo.commit_all("config")
    git_repo.write("organized/knowledge/新.md", "# 新\n")
    git_repo.stage("organized/knowledge/新.md")
    said = {}
    for lang in ("en", "zh"):
        found = []
        for mode in ("--all", "--staged"):
            code, out, err = run("check", mode, "--format", "json", "--lang", lang)
            assert code == 1, err
            found += json.loads(out)["findings"]
        said[lang] = found
    assert sorted({f["rule"] for f in said["en"]}) == list(rule_ids())
    pairs = [(en["rule"], en["message"], zh["message"]) for en, zh in zip(said["en"], said["zh"])]
    assert [pair for pair in pairs if pair[1] == pair[2]] == []
    assert [f["fingerprint"] for f in said["en"]] == [f["fingerprint"] for f in said["zh"]]


# -- errors -----------------------------------------------------------------------------------
def test_an_error_in_chinese(kb: GitRepo) -> None:
    assert run("check", "nosuch.md", "--lang", "zh") == (2, "", "kbcheck：错误：路径不存在：nosuch.md\n")
    assert run("check", "nosuch.md") == (2, "", "kbcheck: error: path does not exist: nosuch.md\n")


def test_an_error_after_the_config_is_read_follows_its_lang(kb: GitRepo) -> None:
    kb.write(".kbcheck.toml", 'lang = "zh"\n')
    assert run("check", "--diff", "nosuch-rev") == (2, "", "kbcheck：错误：未知的修订 'nosuch-rev'\n")


def test_a_digest_error_in_the_language_of_messages(kb: GitRepo) -> None:
    assert run("digest", "--lang", "zh") == (2, "", "kbcheck：错误：.kbcheck/baseline.json 处没有基线，也没有给出 --since："
                                                   "请用 --since REV 指定起点，或用 kbcheck baseline update 记录一条基线\n")
    code, _out, err = run("digest")  # the digest is Chinese by default, its errors follow `lang` in the file only
    assert (code, err.startswith("kbcheck: error: no baseline at .kbcheck/baseline.json and no --since")) == (2, True)


@pytest.mark.parametrize("command", [["check", "--all"], ["explain", "KB005"], ["digest"]])
def test_an_unknown_lang_is_one_line_naming_the_languages(kb: GitRepo, command: list[str]) -> None:
    assert run(*command, "--lang", "fr") == (2, "", "kbcheck: error: unknown language 'fr' for --lang; choose one of: en, zh\n")


# -- explain ----------------------------------------------------------------------------------
def test_explain_in_chinese(git_repo: GitRepo) -> None:
    code, out, _err = run("explain", "KB005", "--lang", "zh")
    assert code == 0
    assert out.startswith("KB005 unverified-number（默认级别：warning）\n\n")
    assert "**为什么重要。**" in out
    assert "What it catches" not in out and "Why it matters" not in out
    assert "    - EAGLE 类方法在长上下文下提速 2.7x（arXiv:2610.04418）" in out  # the examples stay as written


def test_explain_follows_the_config_lang_and_stays_english_without_it(git_repo: GitRepo) -> None:
    assert "**Why it matters.**" in run("explain", "KB001")[1]
    git_repo.write(".kbcheck.toml", 'lang = "zh"\n')
    assert "**为什么重要。**" in run("explain", "KB001")[1]


# -- digest -----------------------------------------------------------------------------------
def test_the_zh_digest_has_no_english_rule_message(git_repo: GitRepo) -> None:
    base = git_repo.commit_files({CARD: FILES[CARD], DOC: "# 推理\n\n## §4.1 投机解码\n\n- 正文。\n"}, "base")
    git_repo.commit_files(FILES, "notes")
    code, out, err = run("digest", "--since", base, "--lang", "zh")
    assert code == 0, err
    card = CARD.replace("_", "\\_")  # as the digest escapes markdown
    assert f"- ⚠ KB005 `{DOC}`:5：所引用的卡片 {card} 中找不到 3.1x" in out
    for english in ("is not found in the cited card", "is in the reference list", "has no paper card"):
        assert english not in out
    code, out, err = run("digest", "--since", base, "--lang", "en")
    assert f"- ⚠ KB005 `{DOC}`:5: 3.1x is not found in the cited card {card}" in out


# -- the README ------------------------------------------------------------------------------
def test_the_readme_shows_what_check_and_explain_say_in_chinese_on_the_example(git_repo: GitRepo) -> None:
    shutil.copytree(ROOT / "examples" / "knowledge-base", git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base", name="lead", email="lead@example.org")
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("### In the knowledge base's language", 1)[1]
    shown = section.split("```console\n", 1)[1].split("```", 1)[0]
    check_lines = shown.split("$ kbcheck check --all --fix --lang zh\n")[0].splitlines()[1:]
    code, out, _err = run("check", "--all", "--lang", "zh")
    assert code == 1
    assert [line for line in check_lines if line != "…"] == [line for line in out.splitlines() if line in check_lines]
    assert len(check_lines) == 6 and check_lines[-1] == out.splitlines()[-1]
    explain = run("explain", "KB005", "--lang", "zh")[1]
    assert explain.startswith(shown.split("$ kbcheck explain KB005 --lang zh\n", 1)[1].rsplit("…", 1)[0])
    fixed = run("check", "--all", "--fix", "--lang", "zh")[2]
    assert shown.split("$ kbcheck check --all --fix --lang zh\n", 1)[1].splitlines()[0] in fixed.splitlines()


# -- the message type -------------------------------------------------------------------------
def test_a_message_is_its_english_text_and_says_itself_in_chinese_with_nested_parts() -> None:
    actor = _("commit {sha}", sha="0123456789ab")
    message = _("{actor} adds {path}", actor=actor, path="organized/x.md")
    assert message == "commit 0123456789ab adds organized/x.md"
    assert say(message, "zh") == "提交 0123456789ab：新增 organized/x.md"
    assert say("plain text", "zh") == "plain text"
    assert pickle.loads(pickle.dumps(message)) == message
    assert say(pickle.loads(pickle.dumps(message)), "zh") == "提交 0123456789ab：新增 organized/x.md"


def test_plural_forms() -> None:
    one, many = (ngettext("{count} file", "{count} files", n, count=n) for n in (1, 3))
    assert (one, many) == ("1 file", "3 files")
    assert (say(one, "zh"), say(many, "zh")) == ("1 个文件", "3 个文件")


def test_a_listing_is_joined_as_each_language_writes_lists() -> None:
    from kbcheck.i18n import listing

    three = listing(["a.md", "b.md", "c.md"])
    assert (three, say(three, "zh")) == ("a.md, b.md, c.md", "a.md、b.md、c.md")
    assert (listing(["a.md"]), listing([])) == ("a.md", "")


def test_plain_form_round_trips() -> None:
    message = _("required field '{field}' is missing", field="title")
    again = Text.from_plain(message.plain())
    assert again == message and say(again, "zh") == "缺少必填字段 'title'"


# -- the catalogs -----------------------------------------------------------------------------
PO = ROOT / "kbcheck" / "locale" / "zh" / "LC_MESSAGES" / "kbcheck.po"
_PLACEHOLDER = re.compile(r"\{(\w+)(?:[:!][^}]*)?\}")


def _catalogs_tool() -> Any:
    pytest.importorskip("babel")
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_message_has_its_chinese_and_the_shipped_catalog_is_compiled_from_the_po() -> None:
    """What the code says (extracted by Babel) and each paragraph of the rules' docs are in the .po,
    each translated, and the .mo is the .po compiled (`python tools/catalogs.py` fixes both)."""
    assert _catalogs_tool().problems() == []


def test_a_translation_keeps_every_placeholder_of_its_message() -> None:
    pytest.importorskip("babel")
    from babel.messages.pofile import read_po

    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="zh")
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(_PLACEHOLDER.findall(ids[-1]))
        # the digest's English says its plurals with `{s}` endings, which Chinese has no use for
        needed = wanted - {"s", "s1", "s2"}
        wrong += [ids[0] for string in strings if not needed <= set(_PLACEHOLDER.findall(string)) <= wanted]
    assert wrong == []
