"""`kbcheck digest` edge cases: renames, deletions, manifests, bad input, output, clones."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from kbtools import run_cli as run

LIVING = "organized/knowledge/inference.md"
SPEC = "organized/paper_cards/1748-2610-08815.md"
JEV = "organized/paper_cards/1695-2610-02076.md"
ROUTERS = "organized/paper_cards/1712-2610-05512.md"

LIVING_TEXT = """\
# 推理系统活文档

## §3 调度

### §3.1 路由

- Dynamic LLM Routers 的失败模式（arXiv:2610.05512）。

## §4 投机解码

- SpecBound（arXiv:2610.08815）：固定草稿预算的系统评测。

## §七 引用列表

- arXiv:2610.05512 — Routers
- arXiv:2610.08815 — SpecBound
"""


def card(arxiv: str, title: str, body: str = "正文：方法与结论。", **fields: object) -> str:
    extra = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f'---\narxiv: "{arxiv}"\ntitle: "{title}"\n{extra}---\n\n# {title}\n\n{body}\n'


BASE = {
    LIVING: LIVING_TEXT,
    SPEC: card("2610.08815", "SpecBound", s2_citations=10, s2_influential=1),
    ROUTERS: card("2610.05512", "Routers", s2_citations=12, s2_influential=2),
}


def digest(*argv: str) -> dict[str, Any]:
    code, out, err = run("digest", "--format", "json", "--lang", "en", *argv)
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def items(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["path"]: item for item in document["items"]}


@pytest.fixture
def kb(git_repo: GitRepo) -> tuple[GitRepo, str]:
    base = git_repo.commit_files(BASE, "base")
    return git_repo, base


def status(repo: GitRepo) -> str:
    return repo.git("status", "--porcelain", "--untracked-files=all")


# -- what changed ------------------------------------------------------------------------------

def test_pure_rename_is_a_review_item_with_old_path(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.move(SPEC, "organized/paper_cards/0001-2610-08815.md")
    repo.commit("renumber")
    [item] = digest("--since", base)["items"]
    assert item["path"] == "organized/paper_cards/0001-2610-08815.md"
    assert (item["change"], item["old_path"], item["class"]) == ("renamed", SPEC, "review")
    assert item["reason"] == f"renamed from {SPEC}, content unchanged"
    assert item["ids"] == ["2610.08815"] and item["changed_fields"] == {}


def test_rename_with_edits_is_a_modification(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.move(SPEC, "organized/paper_cards/0001-2610-08815.md")
    repo.write("organized/paper_cards/0001-2610-08815.md",
               BASE[SPEC].replace("正文：方法与结论。", "正文：方法与结论。新增 batch 64 的结果。"))
    repo.commit_all("renumber and extend")
    [item] = digest("--since", base)["items"]
    assert (item["change"], item["old_path"], item["class"]) == ("modified", SPEC, "increment")
    assert item["changed_fields"] == {"body": None}
    assert item["reason"] == "modified: body changed; re-check the entry in §4"


def test_deletion_is_a_review_item(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.delete(ROUTERS)
    repo.commit("drop")
    [item] = digest("--since", base)["items"]
    assert (item["change"], item["class"], item["reason"]) == ("deleted", "review", "deleted")
    assert item["ids"] == ["2610.05512"] and item["old_path"] is None


def test_substantive_card_change_already_discussed(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.commit_files({SPEC: BASE[SPEC].replace('title: "SpecBound"', 'title: "SpecBound v2"')
                       .replace("s2_citations: 10", "s2_citations: 11")}, "retitle")
    [item] = digest("--since", base)["items"]
    assert item["class"] == "increment"
    assert item["changed_fields"] == {"title": ["SpecBound", "SpecBound v2"], "s2_citations": [10, 11]}
    assert item["reason"] == "modified: title SpecBound → SpecBound v2, s2_citations 10 → 11; re-check the entry in §4"


def test_volatile_only_refresh_of_a_discussed_card(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.commit_files({SPEC: BASE[SPEC].replace("s2_citations: 10", "s2_citations: 14")}, "refresh")
    [item] = digest("--since", base)["items"]
    assert (item["class"], item["changed_fields"]) == ("review", {"s2_citations": [10, 14]})
    assert item["reason"] == "refresh, not a new finding: s2_citations 10 → 14; already in §4"


def test_refresh_that_restates_the_count_in_the_body(kb: tuple[GitRepo, str]) -> None:
    repo, _base = kb
    old = card("2610.08815", "SpecBound", body="S2 被引 1,010，OpenAlex 更新 2026-10-01。", s2_citations=1010,
               openalex_updated="2026-10-01")
    repo.commit_files({SPEC: old}, "counts in prose")
    middle = repo.head()
    refreshed = old.replace("1010", "1020").replace("1,010", "1,020").replace("2026-10-01", "2026-10-09")
    repo.commit_files({SPEC: refreshed}, "refresh")
    [item] = digest("--since", middle)["items"]
    assert item["changed_fields"] == {"s2_citations": [1010, 1020], "openalex_updated": ["2026-10-01", "2026-10-09"],
                                      "body": None}
    assert item["class"] == "review"
    assert item["reason"] == ("refresh, not a new finding: s2_citations 1010 → 1020, openalex_updated "
                              "2026-10-01 → 2026-10-09; already in §4")
    # any other word changed in the prose makes it substantive
    repo.commit_files({SPEC: refreshed.replace("1,020", "1,030").replace("1020", "1030")
                       .replace("OpenAlex 更新", "OpenAlex 最近更新")}, "edit")
    [item] = digest("--since", repo.git("rev-parse", "HEAD~1"))["items"]
    assert item["class"] == "increment" and item["reason"].startswith("modified: s2_citations 1020 → 1030, body changed")
    # a number in the prose that matches no changed field is not a refresh either
    repo.commit_files({SPEC: refreshed.replace("OpenAlex 更新 2026-10-09", "OpenAlex 更新 2026-10-09，batch 64")}, "more")
    [item] = digest("--since", repo.git("rev-parse", "HEAD~1"))["items"]
    assert item["class"] == "increment"


def test_volatile_fields_are_configurable(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.write(".kbcheck.toml", 'volatile-fields = ["stars"]\n')
    repo.commit_files({SPEC: BASE[SPEC].replace("s2_citations: 10", "s2_citations: 14")}, "refresh")
    item = items(digest("--since", base))[SPEC]
    assert item["class"] == "increment" and item["reason"].startswith("modified: s2_citations 10 → 14")


def test_brief_already_discussed_and_brief_without_ids(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.commit_files({
        "inbox/tom/2026-10-29-notes.md": "# 随手记\n\n今天读了两篇路由论文，还没有结论。\n",
        "inbox/tom/2026-10-29-routers.md": "# 路由\n\n- 失败模式综述（arXiv:2610.05512）。\n",
    }, "briefs")
    found = items(digest("--since", base))
    notes = found["inbox/tom/2026-10-29-notes.md"]
    assert (notes["class"], notes["ids"]) == ("increment", [])
    assert notes["reason"] == "new material: it cites no paper or repository"
    assert notes["living_doc"] == {"in_references": False, "entry_mentions": 0, "meta_mentions": 0,
                                   "sections": [], "per_id": {}}
    routers = found["inbox/tom/2026-10-29-routers.md"]
    assert (routers["class"], routers["reason"]) == ("review", "already digested, in §3.1")


def test_living_document_change(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    changed = LIVING_TEXT.replace("- SpecBound（arXiv:2610.08815）：固定草稿预算的系统评测。",
                                  "- SpecBound（arXiv:2610.08815）：固定草稿预算的系统评测，batch 越大收益越小。")
    changed = changed.replace("- arXiv:2610.05512 — Routers\n", "")
    changed += "- arXiv:2610.02076 — LLM-as-Jev\n"
    repo.commit_files({LIVING: changed, JEV: card("2610.02076", "LLM-as-Jev")}, "fold in")
    document = digest("--since", base)
    assert document["counts"] == {"increment": 1, "review": 0, "living-doc": 1}
    living = items(document)[LIVING]
    assert (living["kind"], living["class"]) == ("knowledge", "living-doc")
    assert living["reason"] == ("sections touched: §4, §七; references added: arXiv:2610.02076; "
                                "references removed: arXiv:2610.05512")
    # the living documents stand as they are at head: the new card's id is cited, no entry
    assert items(document)[JEV]["cited_no_entry"] is True
    assert document["items"][-1]["path"] == LIVING
    code, out, _ = run("digest", "--since", base, "--lang", "en")
    assert code == 0
    assert "1 increment (new material to write up) + 0 review items (not new) + 1 living-document change" in out
    assert f"## Living-document changes\n\n- `{LIVING}`: sections touched: §4, §七" in out
    code, out, _ = run("digest", "--since", base)
    assert "增量条数：1 条（正文可落地增量）＋ 0 条复查项（非新观点）＋ 1 条活文档变更" in out


def test_manifest_changed_without_manifest_mode_is_review(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.commit_files({"organized/indexes/work-guard/run.json": '{"items": []}\n'}, "manifest")
    [item] = digest("--since", base)["items"]
    assert (item["kind"], item["class"], item["reason"]) == ("manifest", "review", "manifest")


def test_other_files_and_kbcheck_folder_are_not_items(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.commit_files({"README.md": "# kb\n", ".kbcheck/notes.json": "{}\n", "tools/x.py": "print(1)\n"}, "misc")
    assert digest("--since", base)["items"] == []


def test_to_selects_the_head(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    middle = repo.commit_files({JEV: card("2610.02076", "LLM-as-Jev")}, "one")
    repo.commit_files({"inbox/tom/x.md": "# x\n\n没有引用。\n"}, "two")
    document = digest("--since", base, "--to", middle)
    assert document["head"] == middle and [i["path"] for i in document["items"]] == [JEV]


def test_card_cautions(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.commit_files({
        "organized/paper_cards/2001-2610-30001.md": card("2610.30001", "Odd counts", s2_citations=3, s2_influential=9),
        "organized/paper_cards/2002-2610-30002.md": card("2610.30002", "Popular, never influential",
                                                         s2_citations=400, s2_influential=0),
        "organized/paper_cards/2003-2610-30003.md": card("2610.30003", "Fine", s2_citations=40, s2_influential=4),
        "organized/paper_cards/2004-2610-30004.md": card("2610.30004", "Only a tldr", body="",
                                                         tldr='"Short summary."', s2_citations=40, s2_influential=4),
    }, "cards")
    found = items(digest("--since", base))
    warnings = {path.split("-", 2)[-1]: item["warnings"] for path, item in found.items()}
    assert warnings["30001.md"] == ["few citations: 3 (below 5); an early paper whose conclusions may change",
                                    "citation counts disagree: influential citations 9 exceed total citations 3"]
    assert warnings["30002.md"] == ["citation counts do not match: 400 citations but 0 influential"]
    assert warnings["30003.md"] == []
    assert warnings["30004.md"] == ["abstract only: the card has no text beyond its tldr, "
                                    "so no numbers or conclusions to quote"]


# -- the base --------------------------------------------------------------------------------------

def test_no_baseline_and_no_since(kb: tuple[GitRepo, str]) -> None:
    code, out, err = run("digest")
    assert code == 2 and out == ""
    assert err == ("kbcheck: error: no baseline at .kbcheck/baseline.json and no --since: "
                   "give --since REV or record one with kbcheck baseline update\n")


def test_unknown_since_and_to(kb: tuple[GitRepo, str]) -> None:
    code, out, err = run("digest", "--since", "nope")
    assert (code, out, err) == (2, "", "kbcheck: error: unknown revision 'nope'\n")
    code, out, err = run("digest", "--since", "HEAD", "--to", "v9")
    assert (code, out, err) == (2, "", "kbcheck: error: unknown revision 'v9'\n")


def test_base_defaults_to_the_baseline_commit(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    assert run("baseline", "update")[0] == 0
    repo.commit_all("baseline")
    repo.commit_files({JEV: card("2610.02076", "LLM-as-Jev")}, "new card")
    document = digest()
    assert document["base"] == base and [i["path"] for i in document["items"]] == [JEV]


def test_shallow_clone_missing_the_base(kb: tuple[GitRepo, str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    repo, base = kb
    run("baseline", "update")
    repo.commit_all("baseline")
    repo.commit_files({JEV: card("2610.02076", "LLM-as-Jev")}, "new card")
    clone = tmp_path / "shallow"
    repo.git("clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone))
    monkeypatch.chdir(clone)
    code, out, err = run("digest")
    assert code == 2 and out == ""
    assert err.startswith(f"kbcheck: error: unknown revision '{base}': this clone is shallow")
    assert "fetch-depth: 0" in err and err.count("\n") == 1


def test_partial_clone_missing_blobs(kb: tuple[GitRepo, str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Old versions missing from a blobless clone whose remote is gone: a notice, never a crash."""
    repo, base = kb
    repo.commit_files({SPEC: BASE[SPEC].replace("s2_citations: 10", "s2_citations: 14")}, "refresh")
    clone = repo.partial_clone(tmp_path / "partial", "--filter=blob:none")
    monkeypatch.chdir(clone)
    code, out, err = run("digest", "--since", base, "--format", "json", "--lang", "en")
    assert code == 0, err
    [item] = json.loads(out)["items"]
    assert (item["path"], item["class"], item["changed_fields"]) == (SPEC, "increment", {})
    assert item["reason"] == ("modified: content not read: previous version: content missing from this clone "
                              "(partial clone?); judged by its path only; re-check the entry in §4")
    assert item["warnings"][0].startswith("content not read: previous version: content missing")
    assert f"kbcheck: {SPEC}: previous version: content missing from this clone" in err


# -- manifests ------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [
    lambda paths: paths,
    lambda paths: {"items": [{"path": p, "kind": "x"} for p in paths]},
    lambda paths: {"id": "run", "paths": paths},
    lambda paths: {"files": [{"path": p} for p in paths]},
])
def test_manifest_items_and_boundary(kb: tuple[GitRepo, str], shape: Any) -> None:
    repo, base = kb
    repo.commit_files({JEV: card("2610.02076", "LLM-as-Jev"),
                       "inbox/tom/x.md": "# x\n\n没有引用。\n"}, "two items")
    listed = [JEV, "./" + ROUTERS, "organized/paper_cards/9999-2610-99999.md"]
    repo.write("manifest.json", json.dumps(shape(listed)))
    document = digest("--since", base, "--manifest", "manifest.json")
    found = items(document)
    assert list(found) == [JEV, ROUTERS]  # the listed paths, not the diff (inbox/tom/x.md is left out)
    assert found[JEV]["class"] == "increment"
    assert (found[ROUTERS]["class"], found[ROUTERS]["reason"]) == (
        "review", "unchanged between base and head; listed again by the manifest")
    boundary = document["boundary"]
    assert boundary["manifest"] == "manifest.json" and boundary["consumed"] == 2
    assert boundary["paths"] == [
        {"path": JEV, "consumed": True, "note": None},
        {"path": ROUTERS, "consumed": True, "note": None},
        {"path": "organized/paper_cards/9999-2610-99999.md", "consumed": False, "note": "not in the tree at head"},
    ]
    code, out, _ = run("digest", "--since", base, "--manifest", "manifest.json", "--lang", "en")
    assert code == 0
    assert "- Manifest: `manifest.json`" in out and "- Items consumed: 2 (of 3)" in out
    assert "  - `organized/paper_cards/9999-2610-99999.md` — not consumed (not in the tree at head)" in out


@pytest.mark.parametrize("content, message", [
    ("{not json", "manifest m.json is not valid JSON (line 1: "),
    ('{"entries": []}', 'manifest m.json must be a list of paths, or an object with a list under "items", "paths", "files"'),
    ('{"items": "a.md"}', "manifest m.json: the items must be a JSON list"),
    ('[{"name": "a.md"}]', 'manifest m.json: entry 1 must be a path string or an object with a "path" string'),
    ('["../outside.md"]', "manifest m.json names a path outside the repository: ../outside.md"),
    ('["/etc/passwd"]', "manifest m.json names a path outside the repository: /etc/passwd"),
])
def test_bad_manifest(kb: tuple[GitRepo, str], content: str, message: str) -> None:
    repo, base = kb
    repo.write("m.json", content)
    code, out, err = run("digest", "--since", base, "--manifest", "m.json", "--output", "brief.md")
    assert code == 2 and out == ""
    assert err.startswith(f"kbcheck: error: {message}") and err.count("\n") == 1, err
    assert not (repo.path / "brief.md").exists()


def test_missing_manifest(kb: tuple[GitRepo, str]) -> None:
    _repo, base = kb
    code, out, err = run("digest", "--since", base, "--manifest", "nowhere.json")
    assert (code, out, err) == (2, "", "kbcheck: error: manifest nowhere.json not found\n")


# -- output ---------------------------------------------------------------------------------------

def test_output_is_written_atomically_and_nothing_else_changes(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    repo.commit_files({JEV: card("2610.02076", "LLM-as-Jev")}, "new card")
    before = status(repo)
    _, stdout, _ = run("digest", "--since", base)
    (repo.path / "out").mkdir()
    code, out, err = run("digest", "--since", base, "--output", "out/brief.md")
    assert (code, out) == (0, ""), err
    assert (repo.path / "out/brief.md").read_text(encoding="utf-8") == stdout
    assert os.listdir(repo.path / "out") == ["brief.md"]  # no temp file left behind
    assert status(repo) == before + ("\n" if before else "") + "?? out/brief.md"
    # an existing file is replaced whole
    code, _, _ = run("digest", "--since", base, "--output", "out/brief.md", "--format", "json")
    assert code == 0 and json.loads((repo.path / "out/brief.md").read_text(encoding="utf-8"))["version"] == 1


def test_output_into_a_missing_folder_makes_it_as_check_does(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    for command in (("digest", "--since", base), ("check", "--all")):
        code, out, err = run(*command, "--output", f"no/such/{command[0]}.out")
        assert code in (0, 1) and out == "", err
        assert (repo.path / "no/such" / f"{command[0]}.out").read_text(encoding="utf-8")


def test_output_under_a_file_is_refused_before_the_run_naming_the_file(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    (repo.path / "notes.txt").write_text("kept\n", encoding="utf-8")
    for command in (("digest", "--since", base), ("check", "--all")):
        code, out, err = run(*command, "--output", "notes.txt/sub/out.md")
        assert (code, out) == (2, "")
        assert err == f"kbcheck: error: cannot write notes.txt/sub/out.md: {repo.path / 'notes.txt'} is a file, not a folder\n"
    assert (repo.path / "notes.txt").read_text(encoding="utf-8") == "kept\n"


def test_markdown_stays_under_the_limit(kb: tuple[GitRepo, str]) -> None:
    from kbcheck.config import load_config
    from kbcheck.digest import make_digest
    from kbcheck.digest.render_markdown import render
    from kbcheck.git import open_repository

    repo, base = kb
    repo.commit_files({f"inbox/tom/note-{i:03d}.md": f"# 笔记 {i}\n\n{'很长的一段话。' * 40}\n" for i in range(60)}, "many")
    with open_repository(repo.path) as handle:
        result = make_digest(handle, load_config(handle.root), since=base, lang="en")
    full = render(result, "en")
    assert "more" not in full.split("## Review items")[0][-200:]
    small = render(result, "en", limit=40_000)
    assert len(small.encode("utf-8")) <= 40_000 < len(full.encode("utf-8"))
    assert "… " in small and " more" in small
    assert small.startswith("# Knowledge-base digest") and "## Evidence boundary" in small


def test_citable_ids_leave_out_arxiv_ids_without_a_card(kb: tuple[GitRepo, str]) -> None:
    """An id KB004 flags (no paper card: a typo or a fabrication) is not offered as citable."""
    repo, base = kb
    repo.commit_files({"organized/guides/new-guide.md": "# 新攻略\n\n- 见 arXiv:2610.99999 与 arXiv:2610.08815。\n"}, "guide")
    document = digest("--since", base)
    guide = items(document)["organized/guides/new-guide.md"]
    assert guide["class"] == "increment"
    assert "2610.99999" in guide["ids"]
    assert "2610.99999" not in document["citable_ids"]
    assert any(f["rule"] == "KB004" and f["subject"] == "2610.99999" for f in document["findings_new"])


def test_check_output_into_the_git_directory_is_refused_as_the_digest_is(kb: tuple[GitRepo, str]) -> None:
    repo, base = kb
    for command in (("digest", "--since", base), ("check", "--all")):
        code, out, err = run(*command, "--output", ".git/out.md")
        assert (code, out, err) == (2, "", "kbcheck: error: cannot write .git/out.md: it is inside the git directory\n")
    assert not (repo.path / ".git/out.md").exists()
