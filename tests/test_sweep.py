"""A sweep over knowledge bases shaped like real public markdown: `check` and `digest` never crash.

The fixtures under `fixtures/sweep/` are an awesome-list style repository
(HTML banners, badge images, link tables, 4-space numbered lists, code
fences) and a Chinese research-notes repository (CRLF and bare-CR files, CJK
file names with spaces, author comment headers, tab-indented nested lists).
Each is laid out by its `layout.json`: the 300 KB living documents and the
5,000-character lines are made here, not committed. The sample-brief
knowledge base (`fixtures/sample_brief_kb`) is swept as a third.

Each run must end in 0 or 1 with parseable output whose every finding lies
inside its file, and a few findings whose place is known are checked
exactly, so that a sweep which silently checked nothing would fail.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from kbcheck.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SWEEP = FIXTURES / "sweep"
GROW_MARK = "<!-- GROW -->"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    assert "internal error" not in err and "Traceback" not in err, err
    return code, out.getvalue(), err.getvalue()


def grown_sections(target: int, start: int, zh: bool) -> str:
    """Numbered sections of ordinary prose, citing known papers, until about `target` characters."""
    parts: list[str] = []
    size, number = 0, start
    while size < target:
        if zh:
            section = (f"## {number}. 专题 {number}\n\n"
                       f"SpecBound（arXiv:2610.08815）在第 {number} 组实验里吞吐提升 2.7x，延迟下降 35%。\n\n"
                       f"- 要点 {number}：草稿预算与验证批次的权衡\n\t- 细节：见 `organized/paper_cards/1748-2610-08815.md`\n"
                       f"- 对照：recursive-oss/rec 243⭐\n\n")
        else:
            section = (f"## {number}. Topic {number}\n\n"
                       f"FlashAttention-2 (arXiv:2307.08691) reaches 73% of peak in setting {number}; about 2x over v1.\n\n"
                       f"- point {number}: tiling and recomputation\n    - detail: see "
                       f"[the card](../paper_cards/0001-2307-08691.md)\n"
                       f"- PagedAttention (arXiv:2309.06180) keeps fragmentation under 4%\n\n")
        parts.append(section)
        size += len(section.encode("utf-8"))
        number += 1
    return "".join(parts)


def long_line(zh: bool, width: int) -> str:
    unit = "这是一段很长的中文说明，没有数字也没有来源；" if zh else "[link](https://github.com/vllm-project/vllm) and more text, "
    line = (unit * (width // len(unit) + 1))[:width]
    return line + ("提速 3x" if zh else " claims 3x")


def lay_out(name: str) -> dict[str, str | bytes]:
    """The files of a sweep fixture at their real paths, with their real line endings and sizes."""
    folder = SWEEP / name
    layout = json.loads((folder / "layout.json").read_text(encoding="utf-8"))
    zh = name.startswith("zh")
    files: dict[str, str | bytes] = {".kbcheck.toml": (folder / layout["config"]).read_text(encoding="utf-8")}
    for source, spec in layout["files"].items():
        text = (folder / source).read_text(encoding="utf-8")
        if "long_line" in spec:
            text = text.replace("LONG_LINE", long_line(zh, spec["long_line"]))
        if "grow_to" in spec:
            text = text.replace(GROW_MARK, grown_sections(spec["grow_to"], 10, zh))
        eol = {"crlf": "\r\n", "cr": "\r"}.get(spec.get("eol", ""), "\n")
        files[spec["to"]] = text.replace("\n", eol).encode("utf-8") if eol != "\n" else text
    return files


def line_of(files: dict[str, str | bytes], path: str, needle: str) -> int:
    """1-based line of the first line containing `needle`, counting CRLF and CR as markdown does."""
    content = files[path]
    text = content.decode("utf-8") if isinstance(content, bytes) else content
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def assert_inside(report: dict[str, Any], root: Path) -> None:
    """Every finding of a JSON report lies inside its file (KB007 on deleted paths aside)."""
    for finding in report["findings"]:
        path = root / finding["path"]
        if finding["rule"] == "KB007" and not path.exists():
            continue
        data = path.read_bytes().decode("utf-8", "replace")
        count = len(data.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
        assert 1 <= finding["line"] <= finding["end_line"] <= count, finding
        assert finding["column"] >= 1


def sweep(repo: GitRepo, base: str) -> dict[str, Any]:
    """Every command a knowledge base meets, in every format; the JSON results by name."""
    results: dict[str, Any] = {}
    code, out, _ = run("check", "--all", "--format", "json")
    assert code in (0, 1)
    results["all"] = json.loads(out)
    assert_inside(results["all"], repo.path)
    code, out, _ = run("check", "--all")
    assert code in (0, 1)
    lines = out.splitlines()
    fixable = sum(finding["fix"] is not None for finding in results["all"]["findings"])
    # one line per finding, then the summary, then the fixable count when there is one
    assert len(lines) == len(results["all"]["findings"]) + 1 + (fixable > 0)
    assert sum("[*]" in line for line in lines) == fixable + (fixable > 0)
    for fmt in ("sarif", "gitlab", "json"):
        code, out, _ = run("check", "--diff", base, "--format", fmt)
        assert code in (0, 1)
        results[f"diff-{fmt}"] = json.loads(out)
    code, out, _ = run("check", "--diff", base, "--format", "github")
    assert code in (0, 1) and all(line.startswith("::") for line in out.splitlines())
    code, out, _ = run("digest", "--since", base, "--format", "json")
    assert code == 0
    results["digest"] = json.loads(out)
    for lang in ("zh", "en"):
        code, out, _ = run("digest", "--since", base, "--lang", lang)
        assert code == 0 and out.startswith("# ")
    assert run("baseline", "update")[0] == 0
    code, out, _ = run("check", "--all", "--format", "json")
    assert code == 0
    results["accepted"] = json.loads(out)
    return results


def spots(report: dict[str, Any]) -> set[tuple[str, str, int, str]]:
    return {(f["rule"], f["path"], f["line"], f["subject"]) for f in report["findings"]}


def test_awesome_list_shaped_knowledge_base(git_repo: GitRepo) -> None:
    files = lay_out("awesome_list")
    living = "organized/knowledge/serving.md"
    assert len(files[living]) >= 300_000 or len(str(files[living]).encode()) >= 300_000
    base = git_repo.commit_files(files, "knowledge base", author="mia")
    card = "organized/repo_cards/0100-vllm-project-vllm.md"
    git_repo.commit_files({
        card: str(files[card]).replace("stars: 30000", "stars: 31000"),
        "organized/paper_cards/0003-2401-03868.md": '---\narxiv: "2401.03868"\ntitle: "FlightLLM"\n---\n\nFPGA serving.\n',
        "inbox/ana/2026-10-29-serving-brief.md": str(files["inbox/ana/2026-10-29-serving-brief.md"]) + "- 7x faster decode.\n",
    }, "refresh and add", author="mia")

    results = sweep(git_repo, base)
    found = spots(results["all"])
    brief = "inbox/ana/2026-10-29-serving-brief.md"
    assert ("KB001", living, line_of(files, living, "Kernel fusion moves into compilers."),
            "Kernel fusion moves into compilers.") in found
    assert ("KB005", brief, 7, "5x") in found  # no card says 5x
    assert ("KB006", brief, 6, "31000 stars") not in found  # the card was refreshed to 31000
    assert ("KB002", living, line_of(files, living, "doi:10.1145/3600006.3613165"), "10.1145/3600006.3613165") in found
    # the 5,000-character line ends in a cut web link: a source without a card, so its 3x is not card-checked
    assert ("KB005", "organized/guides/vllm-project-vllm.md", 5, "3x") not in found
    assert not any(f["path"] == "README.md" and f["rule"] == "KB009" for f in results["all"]["findings"])
    assert results["diff-sarif"]["version"] == "2.1.0"
    items = {item["path"]: item for item in results["digest"]["items"]}
    assert items[card]["changed_fields"] == {"stars": [30000, 31000]} and items[card]["class"] == "review"
    assert items["organized/paper_cards/0003-2401-03868.md"]["class"] == "increment"
    assert results["accepted"]["findings"] == [] and results["accepted"]["summary"]["suppressed"] > 0

    code, out, _ = run("digest", "--since", base, "--manifest", "organized/indexes/run-1.json", "--format", "json")
    assert code == 0
    assert sorted(item["path"] for item in json.loads(out)["items"]) == [
        "organized/guides/vllm-project-vllm.md", "organized/paper_cards/0001-2307-08691.md"]


def test_chinese_notes_with_crlf_and_cjk_names(git_repo: GitRepo) -> None:
    files = lay_out("zh_notes")
    living = "organized/knowledge/推理 系统.md"
    morning = "inbox/小明/2026-10-29 晨报 草稿.md"
    evening = "inbox/小明/2026-10-29 晚报.md"
    assert isinstance(files[living], bytes) and b"\r\n" in files[living] and len(files[living]) >= 300_000
    base = git_repo.commit_files(files, "knowledge base", author="mia")
    card = "organized/repo_cards/4572-recursive-oss-rec.md"
    guide = "organized/guides/推理 框架/vLLM 笔记.md"
    git_repo.move(guide, "organized/guides/推理 框架/vLLM 使用 笔记.md")
    git_repo.commit_files({card: str(files[card]).replace("stars: 243", "stars: 250")}, "refresh, rename",
                          author="mia")

    results = sweep(git_repo, base)
    found = spots(results["all"])
    assert ("KB001", living, line_of(files, living, "训推一致性成为 rollout 框架标配"),
            "训推一致性成为 rollout 框架标配。") in found
    assert ("KB002", living, line_of(files, living, "arXiv:2610.02076 — LLM-as-Jev"), "2610.02076") in found
    assert ("KB005", morning, line_of(files, morning, "提速 9 倍"), "9 倍") in found
    assert ("KB005", morning, line_of(files, morning, "提速 3x"), "3x") in found  # the 5,000-character line
    assert ("KB009", morning, line_of(files, morning, "缺失的笔记"), "organized/guides/不存在 的 笔记.md") in found
    assert ("KB006", evening, 3, "250⭐") not in found  # refreshed card agrees
    assert not any("80%" in f["subject"] for f in results["all"]["findings"])  # quoted words are not claims
    # the living document's link to the renamed guide is broken now, and said so
    assert ("KB009", living, line_of(files, living, "[笔记]"), "organized/guides/推理 框架/vLLM 笔记.md") in found
    items = {item["path"]: item for item in results["digest"]["items"]}
    renamed = items["organized/guides/推理 框架/vLLM 使用 笔记.md"]
    assert (renamed["change"], renamed["old_path"]) == ("renamed", guide)
    assert items[card]["changed_fields"] == {"stars": [243, 250]}
    assert results["accepted"]["findings"] == []


def test_sample_brief_knowledge_base(git_repo: GitRepo) -> None:
    source = FIXTURES / "sample_brief_kb"
    if not source.is_dir():
        pytest.skip("the sample-brief fixture is absent")
    base = git_repo.commit_files({".kbcheck.toml": "allow-unknown-authors = true\n"}, "config", author="mia")
    shutil.copytree(source, git_repo.path, dirs_exist_ok=True)
    git_repo.commit_all("knowledge base", author="mia")
    results = sweep(git_repo, base)
    assert results["all"]["summary"]["files"] >= 15
    assert results["all"]["findings"]  # the sample brief's warnings are real findings
    assert {item["class"] for item in results["digest"]["items"]} >= {"increment", "living-doc"}
