"""Errors in the knowledge base's language (`docs/configuration.md`, "Language").

An error raised after the configuration is read follows its `lang`; one in the
configuration itself is met before `lang` is known, so it follows `--lang`
only. Each case checks the exact Chinese line and that the same run without
the language gives the English line, word for word as before. The last test
keeps every new error going through the catalog.
"""

from __future__ import annotations

import ast
import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from kbtools import run_cli

from kbcheck.i18n import Text, _, say

ROOT = Path(__file__).resolve().parent.parent
NOTE = "organized/knowledge/推理.md"


@pytest.fixture
def kb(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files({NOTE: "# 推理\n\n## §4.1 投机解码\n\n- 正文。\n"}, "notes")
    return git_repo


def _zh_and_en(repo: GitRepo, *argv: str) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """The run under `lang = "zh"` in the configuration, then the same run with the key removed."""
    repo.write(".kbcheck.toml", 'lang = "zh"\n')
    zh = run_cli(*argv)
    repo.write(".kbcheck.toml", "")
    return zh, run_cli(*argv)


# -- the configuration: read before its `lang` is known, so `--lang` decides --------------------
@pytest.mark.parametrize(("toml", "zh", "en"), [
    ("knowlege = []\n",
     ".kbcheck.toml 中有未知的键 'knowlege'；是不是想写 'knowledge'？",
     "unknown key 'knowlege' in .kbcheck.toml; did you mean 'knowledge'?"),
    ("lang = 5\n",
     ".kbcheck.toml 中的 'lang' 必须是 'zh' 或 'en'，实际为整数（5）",
     "'lang' in .kbcheck.toml must be 'zh' or 'en', got an integer (5)"),
    ('ignore = ["KB05"]\n',
     ".kbcheck.toml 中 'ignore' 的规则 'KB05' 未知；是不是想写 'KB005'？",
     "unknown rule 'KB05' in 'ignore' in .kbcheck.toml; did you mean 'KB005'?"),
    ('[authors.tom]\nemails = ["tom@example.org"]\nrole = "boss"\n',
     ".kbcheck.toml 中 [authors.tom] 的 'role' 是字符串 'boss'，[roles] 中没有定义它；已定义的角色：writer, maintainer",
     "'role' of [authors.tom] in .kbcheck.toml is the string 'boss', which [roles] does not define; "
     "defined roles: writer, maintainer"),
    ('[authors.tom]\nemail = ["tom@example.org"]\n',
     ".kbcheck.toml 的 [authors.tom] 中有未知的键 'email'；是不是想写 'emails'？",
     "unknown key 'email' in [authors.tom] of .kbcheck.toml; did you mean 'emails'?"),
    ("lang = \"zh\"\nknowledge = [\"" + "x" * 70 + "/../a.md\"]\n",
     ".kbcheck.toml 中 'knowledge' 的 glob '" + "x" * 60 + "'…（共 78 个字符） 指向仓库之外（glob 中不允许 '..'）",
     "glob '" + "x" * 60 + "'… (78 characters) in 'knowledge' in .kbcheck.toml leaves the repository "
     "('..' is not allowed in globs)"),
])
def test_a_bad_configuration_is_said_in_chinese_under_lang_zh(kb: GitRepo, toml: str, zh: str, en: str) -> None:
    kb.write(".kbcheck.toml", toml)
    assert run_cli("check", "--all", "--lang", "zh") == (2, "", f"kbcheck：错误：{zh}\n")
    assert run_cli("check", "--all") == (2, "", f"kbcheck: error: {en}\n")


def test_a_bad_configuration_stays_english_without_lang_even_when_it_sets_lang_zh(kb: GitRepo) -> None:
    """The file is broken, so its `lang` is never known: the error is English (documented)."""
    kb.write(".kbcheck.toml", 'lang = "zh"\nbaseline = "../outside.json"\n')
    assert run_cli("check", "--all") == (
        2, "", "kbcheck: error: 'baseline' in .kbcheck.toml must be a path inside the repository, got '../outside.json'\n")
    assert run_cli("check", "--all", "--lang", "zh") == (
        2, "", "kbcheck：错误：.kbcheck.toml 中的 'baseline' 必须是仓库内的路径，实际为 '../outside.json'\n")


def test_a_config_error_on_several_lines_stays_one_line_and_stays_translatable() -> None:
    from kbcheck.config import _fail
    from kbcheck.errors import ConfigError

    with pytest.raises(ConfigError) as raised:
        _fail(_("invalid TOML in {name}: {reason}", name="a.toml", reason="bad\nvalue"))
    message = raised.value.message
    assert isinstance(message, Text)
    assert (message, say(message, "zh")) == ("invalid TOML in a.toml: bad value", "a.toml 中的 TOML 无效：bad value")


# -- after the configuration: `lang = "zh"` in the file decides ---------------------------------
def test_an_unknown_revision(kb: GitRepo) -> None:
    zh, en = _zh_and_en(kb, "check", "--diff", "nosuch-rev")
    assert zh == (2, "", "kbcheck：错误：未知的修订 'nosuch-rev'\n")
    assert en == (2, "", "kbcheck: error: unknown revision 'nosuch-rev'\n")


def test_unrelated_histories(kb: GitRepo) -> None:
    main = kb.git("rev-parse", "--abbrev-ref", "HEAD")
    kb.run("checkout", "-q", "--orphan", "other")
    kb.commit_files({"organized/knowledge/别处.md": "# 别处\n"}, "unrelated")
    kb.run("checkout", "-q", main)
    zh, en = _zh_and_en(kb, "check", "--diff", "other", "--actor", "tom-gh")
    assert zh == (2, "", "kbcheck：错误：'other' 与 HEAD 没有共同祖先\n")
    assert en == (2, "", "kbcheck: error: 'other' and HEAD have no common ancestor\n")


def test_a_bad_policy_at_the_trusted_side(kb: GitRepo) -> None:
    """KB007's policy is read from HEAD: its error names that side, in the language of the staged file."""
    kb.commit_files({".kbcheck.toml": "lang = 5\n"}, "bad policy")
    said = []
    for toml in ('lang = "zh"\n', ""):
        kb.write(".kbcheck.toml", toml)
        kb.stage(".kbcheck.toml")
        said.append(run_cli("check", "--staged"))
    assert said == [
        (2, "", "kbcheck：错误：.kbcheck.toml 中的 'lang' 必须是 'zh' 或 'en'，实际为整数（5）"
                "（HEAD 中提交的版本，即这次改动的可信一侧）\n"),
        (2, "", "kbcheck: error: 'lang' in .kbcheck.toml must be 'zh' or 'en', got an integer (5) "
                "(as committed at HEAD, the trusted side of this change)\n")]


@pytest.mark.parametrize(("manifest", "zh", "en"), [
    ('{"entries": []}',
     '清单 m.json 必须是路径列表，或在 "items", "paths", "files" 之一下含有列表的对象',
     'manifest m.json must be a list of paths, or an object with a list under "items", "paths", "files"'),
    ('["../outside.md"]',
     "清单 m.json 列出了仓库之外的路径：../outside.md",
     "manifest m.json names a path outside the repository: ../outside.md"),
    ('[{"file": "a.md"}]',
     '清单 m.json：第 1 项必须是路径字符串，或带有 "path" 字符串的对象',
     'manifest m.json: entry 1 must be a path string or an object with a "path" string'),
    (b"[\"\xff\"]",
     "清单 m.json 不是 UTF-8 文本",
     "manifest m.json is not UTF-8 text"),
])
def test_a_bad_manifest(kb: GitRepo, manifest: str | bytes, zh: str, en: str) -> None:
    kb.write("m.json", manifest)
    said = _zh_and_en(kb, "digest", "--since", "HEAD", "--manifest", "m.json")
    assert said == ((2, "", f"kbcheck：错误：{zh}\n"), (2, "", f"kbcheck: error: {en}\n"))


def test_a_manifest_that_is_a_folder(kb: GitRepo) -> None:
    (kb.path / "m.json").mkdir()
    said = _zh_and_en(kb, "digest", "--since", "HEAD", "--manifest", "m.json")
    assert said == ((2, "", "kbcheck：错误：清单 m.json 不是普通文件\n"),
                    (2, "", "kbcheck: error: manifest m.json is not a regular file\n"))


def test_a_symlinked_output(kb: GitRepo, tmp_path: Path) -> None:
    (kb.path / "brief.md").symlink_to(tmp_path / "elsewhere.md")
    said = _zh_and_en(kb, "digest", "--since", "HEAD", "--output", "brief.md")
    assert said == ((2, "", "kbcheck：错误：--output brief.md 是符号链接；kbcheck 在这里只读写普通文件\n"),
                    (2, "", "kbcheck: error: --output brief.md is a symlink; kbcheck reads and writes only a regular file there\n"))
    assert not (tmp_path / "elsewhere.md").exists()


def test_an_output_through_a_symlinked_folder(kb: GitRepo, tmp_path: Path) -> None:
    (tmp_path / "away").mkdir()
    (kb.path / "out").symlink_to(tmp_path / "away", target_is_directory=True)
    said = _zh_and_en(kb, "digest", "--since", "HEAD", "--output", "out/brief.md")
    assert said == ((2, "", "kbcheck：错误：--output out/brief.md 经过符号链接 out；kbcheck 只读写工作区中真实的文件夹\n"),
                    (2, "", "kbcheck: error: --output out/brief.md goes through the symlink out; "
                            "kbcheck reads and writes only real folders of the working tree\n"))
    assert list((tmp_path / "away").iterdir()) == []


@pytest.mark.parametrize(("content", "zh", "en"), [
    ("{not json",
     "kbcheck：错误：基线 .kbcheck/baseline.json 不是合法的 JSON（第 1 行：Expecting property name enclosed "
     "in double quotes）；请修正，或用 kbcheck baseline update 重写\n",
     "kbcheck: error: baseline .kbcheck/baseline.json is not valid JSON (line 1: Expecting property name "
     "enclosed in double quotes); fix it or rewrite it with kbcheck baseline update\n"),
    ('{"commit": "abc"}',
     "kbcheck：错误：基线 .kbcheck/baseline.json 必须是含有 commit, date, fingerprints 的对象；"
     "请用 kbcheck baseline update 重写\n",
     "kbcheck: error: baseline .kbcheck/baseline.json must be an object with commit, date, fingerprints; "
     "rewrite it with kbcheck baseline update\n"),
], ids=["not-json", "lacks-its-keys"])
def test_a_broken_baseline(kb: GitRepo, content: str, zh: str, en: str) -> None:
    kb.write(".kbcheck/baseline.json", content)
    assert _zh_and_en(kb, "check", "--all") == ((2, "", zh), (2, "", en))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_rule_crashing_in_a_worker_process_is_said_in_chinese(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker sends the error's message as it was built, so the parent can still say it in Chinese."""
    from kbcheck import engine, parallel
    from kbcheck.rules import all_rules

    cards = {f"organized/paper_cards/{1000 + i}-2610-{10000 + i:05d}.md":
             f'---\narxiv: "2610.{10000 + i:05d}"\ntitle: "P{i}"\n---\n\n正文 {i}。\n' for i in range(6)}
    git_repo.commit_files(cards, "cards")
    by_id = all_rules()
    real = by_id["KB008"].check_file
    assert real is not None

    def broken(file: Any, kb: Any, config: Any) -> Any:
        if file.path.endswith("1003-2610-10003.md"):
            raise ValueError("boom")
        return real(file, kb, config)

    monkeypatch.setitem(by_id, "KB008", dataclasses.replace(by_id["KB008"], check_file=broken))
    monkeypatch.setattr(engine, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(engine, "PARENT_SHARE_MAX_FILES", 0)  # every file in a worker
    monkeypatch.setenv(parallel.JOBS_ENV, "2")
    path = "organized/paper_cards/1003-2610-10003.md"
    assert run_cli("check", "--all", "--lang", "zh") == (
        2, "", f"kbcheck：错误：规则 KB008 在 {path} 上出错：ValueError：boom\n")
    assert run_cli("check", "--all") == (2, "", f"kbcheck: error: rule KB008 failed on {path}: ValueError: boom\n")


# -- the command line: `--lang zh` decides ------------------------------------------------------
@pytest.mark.parametrize(("argv", "zh", "en"), [
    (["check", "--diff", "HEAD", "--all"], "--diff REV 不能与 --all 同时使用", "--diff REV is not allowed with --all"),
    (["check", "--statistics", "--format", "sarif", "--all"],
     "--statistics 只在 text 和 json 格式下统计问题；其他格式会给出每一条问题",
     "--statistics counts findings in the text and json formats; the others carry every finding"),
    (["check", "--diff", "HEAD", "--actor", " "], "--actor 为空：请给出拉取请求作者的登录名",
     "--actor is empty: give the login of the pull request's author"),
])
def test_a_usage_error(kb: GitRepo, argv: list[str], zh: str, en: str) -> None:
    assert run_cli(*argv, "--lang", "zh") == (2, "", f"kbcheck：错误：{zh}\n")
    assert run_cli(*argv) == (2, "", f"kbcheck: error: {en}\n")


# -- the commands' own lines ---------------------------------------------------------------------
def test_baseline_update_and_show_speak_the_configured_lang(kb: GitRepo) -> None:
    sha = kb.head()
    zh, en = _zh_and_en(kb, "baseline", "update")
    assert zh == (0, f"基线：{sha[:7]}，接受 0 条问题 -> .kbcheck/baseline.json\n", "")
    assert en == (0, f"baseline: {sha[:7]} with 0 accepted findings -> .kbcheck/baseline.json\n", "")
    zh, en = _zh_and_en(kb, "baseline", "show")
    date = en[1].splitlines()[2].removeprefix("date: ")
    assert zh == (0, f"基线：.kbcheck/baseline.json\n提交：{sha}（在本地历史中）\n日期：{date}\n已接受的问题：0\n", "")
    assert en == (0, f"baseline: .kbcheck/baseline.json\ncommit: {sha} (in local history)\ndate: {date}\n"
                     "accepted findings: 0\n", "")


def test_rules_table_speaks_the_configured_lang_and_keeps_its_columns(kb: GitRepo) -> None:
    zh, en = _zh_and_en(kb, "rules")
    assert zh[1].splitlines()[:1] + zh[1].splitlines()[5:6] == [
        "编号   名称                 级别                         启用  说明",
        "KB004  unknown-paper        warning（brief 中为 error）  是    引用了一个在知识库中没有论文卡片的 arXiv 号。"]
    assert en[1].splitlines()[:1] + en[1].splitlines()[5:6] == [
        "id     name                 severity                   enabled  summary",
        "KB004  unknown-paper        warning (error in briefs)  yes      An arXiv id is cited that has no paper card in the "
        "knowledge base."]


# -- no new error without its translation -------------------------------------------------------
#: raises whose message is a plain string on purpose: (file, exception, start of the message) and why
UNTRANSLATED = {
    ("kbcheck/cache.py", "ValueError", "only plain data can be cached"): "a programming error, caught by the cache",
    ("kbcheck/cache.py", "ValueError", "cache namespace must be"): "a programming error (namespaces are constants)",
    ("kbcheck/config.py", "TypeError", "no TOML form for"): "a programming error in the defaults `kbcheck init` writes",
    ("kbcheck/model/plain.py", "TypeError", "only `X | None` unions"): "a programming error in a cached type",
    ("kbcheck/model/plain.py", "TypeError", ""): "a programming error in a cached type",
    ("kbcheck/model/plain.py", "ValueError", "not a cached tuple of"): "a stale cache entry, read as a cache miss",
    ("kbcheck/model/plain.py", "ValueError", "not a cached "): "a stale cache entry, read as a cache miss",
    ("kbcheck/parallel.py", "ValueError", "at most "): "a programming error (the engine batches its tasks)",
    ("kbcheck/rules/__init__.py", "RuntimeError", "two rule modules claim"): "a broken installation, met at import",
    ("kbcheck/rules/__init__.py", "RuntimeError", "rule module "): "a broken installation, met at import",
}


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _plain_text(node: ast.expr) -> str | None:
    """The leading literal text of a message built without the catalog; None for `_()`, `ngettext()` or a value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _plain_text(node.left)
    if isinstance(node, ast.Call) and _name(node.func) == "format":
        return _plain_text(node.func.value) if isinstance(node.func, ast.Attribute) else None
    return None


def _untranslated_raises() -> list[tuple[str, str, str, int]]:
    found = []
    for path in sorted((ROOT / "kbcheck").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = None
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                call = node.exc
            elif isinstance(node, ast.Call) and _name(node.func) == "_fail":
                call = node
            if call is None or not call.args:
                continue
            text = _plain_text(call.args[0])
            if text is not None:
                found.append((rel, _name(call.func), text, call.lineno))
    return found


def test_every_error_message_goes_through_the_catalog() -> None:
    """A `raise …(…)` or `_fail(…)` with a plain or f-string message is said in English only: build it
    with `i18n._` (docs/architecture.md, adding a rule, step 4) or list it above with the reason."""
    unexplained = [(rel, name, text, line) for rel, name, text, line in _untranslated_raises()
                   if not any(rel == r and name == n and text.startswith(start) for r, n, start in UNTRANSLATED)]
    assert unexplained == []


def test_the_scan_finds_a_plain_message_and_every_listed_exception_still_exists() -> None:
    tree = ast.parse('raise UsageError(f"no {x}")\nraise UsageError(_("no {x}", x=x))\n_fail("bad")\n')
    plain = [_plain_text(node.exc.args[0]) for node in tree.body if isinstance(node, ast.Raise)
             and isinstance(node.exc, ast.Call)]
    assert plain == ["no ", None]
    found = _untranslated_raises()
    assert [key for key in UNTRANSLATED
            if not any(rel == key[0] and name == key[1] and text.startswith(key[2]) for rel, name, text, _ in found)] == []
