"""A guide whose reference list holds exactly one work draws its numbers from it (`head.listed_work`):
by the work's id, or by one entry that links its pages (the original, a translation). Two works
there, a "see also" link to another note, or a living document or brief listing one input still
need a source beside each number."""

from __future__ import annotations

from kbcheck.config import Config
from tests.kbtools import found, md, run

GUIDE = "organized/guides/chip-lecture.md"
LIVING = "organized/knowledge/chips.md"
BRIEF = "inbox/alice/2026-03-01-chips.md"


def _note(references: str) -> str:
    return md("""
        # 芯片的黄金时代（讲座笔记）

        讲座回顾了体系结构的历史。

        ## 摩尔定律

        单核性能每年只提升 3%，专用芯片能效高出 40 倍。

        ## 参考文献

        """) + references + "\n"


ONE_ENTRY = ("1. A Golden Age for Chip Design, 2018, a lecture, [英文版](https://lectures.example.org/golden-age), "
             "[中文版](https://translations.example.cn/golden-age)")
TWO_ENTRIES = ONE_ENTRY + "\n2. The Decline of General Purpose Chips, [pdf](https://papers.example.org/decline.pdf)"


def kb005(path: str, text: str) -> list[tuple[str, str, int, str]]:
    files: dict[str, str | bytes] = {path: text}
    return found(run(files, select={"KB005"}, config=Config()))


def test_one_entry_linking_one_work_and_its_translation_is_the_guide_source() -> None:
    assert kb005(GUIDE, _note(ONE_ENTRY)) == []


def test_one_bare_web_page_is_the_guide_source() -> None:
    assert kb005(GUIDE, _note("- <https://lectures.example.org/golden-age>")) == []


def test_two_works_in_the_reference_list_leave_the_numbers_unsourced() -> None:
    assert [(line, subject) for _r, _p, line, subject in kb005(GUIDE, _note(TWO_ENTRIES))] == [
        (7, "3%"), (7, "40 倍")]


def test_a_see_also_link_to_another_note_is_no_source() -> None:
    files: dict[str, str | bytes] = {
        GUIDE: _note("- [另一篇笔记](other.md)"),
        "organized/guides/other.md": md("""
            # Other

            Text.
            """),
    }
    assert [subject for _r, _p, _l, subject in found(run(files, select={"KB005"}, config=Config()))] == [
        "3%", "40 倍"]


def test_a_living_document_or_brief_listing_one_work_still_needs_sources() -> None:
    assert [subject for _r, _p, _l, subject in kb005(LIVING, _note(ONE_ENTRY))] == ["3%", "40 倍"]
    assert [subject for _r, _p, _l, subject in kb005(BRIEF, _note(ONE_ENTRY))] == ["3%", "40 倍"]
