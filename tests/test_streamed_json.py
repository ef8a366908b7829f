"""The JSON reports are written a finding at a time, byte for byte what one `json.dumps` wrote."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kbcheck.findings import Finding, Report
from kbcheck.reporters import render
from kbcheck.reporters.streamed import Items, dumps, write_json

#: JSON-like data as the reports hold it: strings with CJK, escapes and controls, numbers, nesting
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
                    st.sampled_from(["", "日报 2026", "a\nb", '"\\', "\t\x00\x1f", "\u2028", "⭐"]))
keys = st.one_of(st.text(max_size=6), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none())
data = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                                                      st.dictionaries(keys, inner, max_size=4)), max_leaves=20)


def _streamed(value: object) -> str:
    out = io.StringIO()
    write_json(value, out)
    return out.getvalue()


def _lazy(value: object) -> object:
    """Every list in `value` made an `Items` (a generator, read once as it is written)."""
    if isinstance(value, list):
        return Items(_lazy(item) for item in value)
    if isinstance(value, dict):
        return {key: _lazy(item) for key, item in value.items()}
    return value


@settings(max_examples=500, deadline=None)
@given(data)
def test_a_value_is_written_as_json_dumps_writes_it(value: object) -> None:
    expected = json.dumps(value, ensure_ascii=False, indent=2)
    assert dumps(value) == expected
    assert _streamed(value) == expected + "\n"


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.text(max_size=4), st.lists(data, max_size=4), max_size=3).map(lambda d: [d, [1, d]]))
def test_lists_made_as_they_are_written_read_as_the_whole_document(value: object) -> None:
    assert _streamed(_lazy(value)) == json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def test_an_empty_stream_is_an_empty_list() -> None:
    assert _streamed({"findings": Items(iter(())), "n": 0}) == '{\n  "findings": [],\n  "n": 0\n}\n'
    assert _streamed(Items([])) == "[]\n"


def test_a_value_json_cannot_write_is_refused_as_json_refuses_it() -> None:
    for value in ({"x": object()}, {(1, 2): 1}):
        try:
            json.dumps(value, indent=2)
        except TypeError:
            pass
        else:  # pragma: no cover
            raise AssertionError(value)
        try:
            dumps(value)
        except TypeError:
            continue
        raise AssertionError(value)


def test_the_findings_are_made_as_they_are_written() -> None:
    """No finding's JSON is made before the one before it is written: the report is never held whole."""
    made: list[int] = []
    out = io.StringIO()

    class Watched(Finding):
        __slots__ = ()

        def to_json(self) -> dict[str, object]:
            made.append(out.tell())
            return Finding.to_json(self)

    findings = tuple(Watched("KB005", "unverified-number", "warning", "a.md", line, 1, line, "m", "1%", f"{line:032x}")
                     for line in range(1, 4))
    render("json", Report(findings, 1), {}, out)
    assert made[0] < made[1] < made[2]
    assert len(json.loads(out.getvalue())["findings"]) == 3
