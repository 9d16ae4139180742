"""``report.part_rows.PartRows`` (the core's ``_core.PartRows``, a part's rows taken
file by file) gives the table ``codec.rows_to_table`` gives of the same rows and
sources without the core: on generated files of rows (mixed types, missing keys, keys
in another order, ``bool`` next to ``int``, subclasses, ints beyond 64 bits, NaN, lone
surrogates, rows the core declines half-way through a part), with and without the
core; and the comparison fails on a planted difference.  The whole shared corpus is
held equal in ``tests/test_core_codec.py::test_corpus_rows``.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.native import _core as core
from replay_audit.report import codec, part_rows
from tests.test_core_codec import _VALUES, Name, _python_table

pytestmark = pytest.mark.skipif(core is None, reason="no compiled core")

TABLES = ("one", "two")
File = tuple[str, list[list[dict[Any, Any]]]]
"""A file: its path and its rows of each table."""


def assert_same_table(got: pa.Table, want: pa.Table) -> None:
    """The same schema (types, metadata: the JSON columns) and the same values, each
    of the same type (NaN equal to NaN, 1 unequal to True), read back as rows."""
    assert got.schema.equals(want.schema, check_metadata=True), (got.schema, want.schema)
    assert got.num_rows == want.num_rows
    typed = [{k: (type(v), repr(v)) for k, v in r.items()} for r in codec.table_to_rows(got)]
    assert typed == [
        {k: (type(v), repr(v)) for k, v in r.items()} for r in codec.table_to_rows(want)
    ]


def check_files(files: list[File]) -> None:
    """``PartRows`` over ``files`` against ``rows_to_table`` of each table's rows."""
    rows = PartRowsRef(TABLES)
    for path, per_table in files:
        rows.add(per_table, path)
    assert_tables_of(rows, TABLES, files)


def assert_tables_of(rows: part_rows.PartRows, names: tuple[str, ...], files: list[File]) -> None:
    """Each table of ``rows`` is ``rows_to_table`` of ``files``' rows of it (or fails
    with the error that gives), and holds as many rows as they."""
    for t, name in enumerate(names):
        all_rows = [r for _, per_table in files for r in per_table[t]]
        sources = [path for path, per_table in files for _ in per_table[t]]
        assert rows.counts[t] == len(all_rows)
        try:
            want = _python_table(all_rows, sources)
        except (TypeError, ValueError, UnicodeEncodeError) as exc:
            with pytest.raises(type(exc)):
                rows.table(name)
            continue
        assert_same_table(rows.table(name), want)


PartRowsRef = part_rows.PartRows

_KEYS = st.sampled_from(["a", "b", "c", "d", "hand"])
_ROW = st.dictionaries(_KEYS, _VALUES, max_size=5)
_FILE = st.tuples(
    st.sampled_from(["f1.xml", "f2.xml", "東.xml"]),
    st.lists(st.lists(_ROW, max_size=6), min_size=2, max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_FILE, max_size=6))
def test_generated_files(files: list[File]) -> None:
    check_files(files)


@settings(max_examples=100, deadline=None)
@given(st.lists(_FILE, max_size=4), st.lists(_FILE, max_size=4))
def test_declined_half_way(before: list[File], after: list[File]) -> None:
    """Rows the core declines (a key not a str, a row not a dict) in the middle of a
    part: the rows taken before come back, and the table is still the reference's."""
    odd: File = ("odd.xml", [[{1: 2, "a": 1}], [{Name("a"): 3}]])
    check_files([*before, odd, *after])
    many: File = ("many.xml", [[{f"k{i}": i} for i in range(70)], []])
    check_files([*before, many, *after])
    listed: File = ("list.xml", [[{"a": 1}], [{"a": 2}]])
    check_files([*before, (listed[0], [[{"a": 1}], [[("a", 2)]]]), *after])  # type: ignore[list-item]


def test_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    files: list[File] = [("a", [[{"a": 1, "b": "x"}], [{"c": 2.5}]]), ("b", [[{"b": 3}], []])]
    monkeypatch.setattr(part_rows, "_core", None)
    check_files(files)
    rows = part_rows.PartRows(TABLES)
    rows.add(files[0][1], "a")
    assert rows._core is None


def test_mixed_and_odd_columns() -> None:
    check_files(
        [
            ("a", [[{"a": 1, "b": True}, {"a": 2**70, "b": 1}], [{"x": None}, {"x": None}]]),
            ("b", [[{"b": "\ud800"}, {"a": -(2**63)}], [{"x": float("nan")}, {}]]),
            ("c", [[{"c": (1, "a")}, {"c": [2, None]}, {"a": 2**63}], [{"y": "東"}]]),
        ]
    )
    check_files([("a", [[], []]), ("b", [[{}], [{}, {}]])])
    check_files([])


def test_comparison_fails_on_a_planted_difference() -> None:
    rows = part_rows.PartRows(TABLES)
    rows.add([[{"a": 1, "b": "x"}, {"a": 2}], [{"c": True}]], "f")
    got = rows.table("one")
    assert_same_table(got, _python_table([{"a": 1, "b": "x"}, {"a": 2}], ["f", "f"]))
    with pytest.raises(AssertionError):  # another value
        assert_same_table(got, _python_table([{"a": 1, "b": "x"}, {"a": 3}], ["f", "f"]))
    with pytest.raises(AssertionError):  # True for 1: another type
        assert_same_table(got, _python_table([{"a": True, "b": "x"}, {"a": 2}], ["f", "f"]))
    with pytest.raises(AssertionError):  # another source
        assert_same_table(got, _python_table([{"a": 1, "b": "x"}, {"a": 2}], ["f", "g"]))
    with pytest.raises(AssertionError):  # a missing key taken for None
        assert_same_table(got, _python_table([{"a": 1, "b": "x"}, {"a": 2, "b": None}], ["f", "f"]))


def test_rows_come_back_from_the_buffers() -> None:
    """The core keeps no value objects: a table's rows rebuilt after a decline
    (``rows``) come from its columns' Arrow buffers, and a column that gives up
    part-way takes its earlier rows back from them; equal values of the same types."""
    given = [
        {"b": True, "i": -(2**63), "f": -0.0, "s": "東", "g": 1, "n": None},
        {"b": False, "i": 2**63 - 1, "f": float("nan"), "s": "", "g": "x"},
        {"i": 0, "f": 1e300, "s": "a\x00b", "g": 2**70, "b": None},
        {"s": None, "g": 2.5, "b": True, "f": float("inf")},
    ]
    rows = core.PartRows(1)
    assert rows.add([given[:2]], "f1") == 0
    assert rows.add([given[2:]], "f2") == 0
    assert rows.add([[{1: 2}]], "f3") == 1  # declined: the rows taken so far come back
    back, sources = rows.rows(0)
    typed = [{k: (type(v), repr(v)) for k, v in r.items()} for r in back]
    assert typed == [{k: (type(v), repr(v)) for k, v in r.items()} for r in given]
    assert [list(r) for r in back] == [list(r) for r in given]
    assert sources == ["f1", "f1", "f2", "f2"]
