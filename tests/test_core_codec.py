"""The compiled core's row codec work (``_core.row_columns``, ``plain_kind``,
``column_buffers``) gives what the Python reference in ``report.codec`` gives: on
every chunk of rows the runner writes for the shared corpus, and on generated rows
(mixed types, missing keys, keys in another order, ``bool`` next to ``int``, ``str``
and ``int`` subclasses, ints beyond 64 bits, NaN, lone surrogates); the tables
written with the core and without it are equal and read back as the rows; and the
comparison fails on a planted difference.
"""

from __future__ import annotations

import enum
import math
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.native import _core as core
from replay_audit.report import codec, part_rows, store
from replay_audit.run import chunk
from replay_audit.run.local import audit_files
from tests.conftest import CORPUS, need

pytestmark = pytest.mark.skipif(core is None, reason="no compiled core")


class Seat(enum.IntEnum):
    EAST = 0


class Name(str):
    pass


def _cell(v: Any) -> tuple[type, str]:
    """A value as its exact type and repr (NaN equal to NaN, 1 unequal to True)."""
    return type(v), repr(v)


def assert_same_columns(
    got: tuple[list[str], list[Sequence[Any]], list[list[str] | None]],
    want: tuple[list[str], list[Sequence[Any]], list[list[str] | None]],
) -> None:
    """The core's ``(names, columns, lacks)`` is the reference's: the same names, the
    same value objects, equal lacks lists shared by the same rows."""
    names, columns, lacks = got
    ref_names, ref_columns, ref_lacks = want
    assert type(names) is list and names == ref_names
    assert [type(n) for n in names] == [type(n) for n in ref_names]
    assert len(columns) == len(ref_columns)
    for name, col, ref in zip(names, columns, ref_columns, strict=True):
        assert len(col) == len(ref), name
        for i, (v, r) in enumerate(zip(col, ref, strict=True)):
            assert v is r or _cell(v) == _cell(r), (name, i, v, r)
    assert lacks == ref_lacks
    first: dict[int, int] = {}
    ref_first: dict[int, int] = {}
    for i, (lack, ref_lack) in enumerate(zip(lacks, ref_lacks, strict=True)):
        if lack is not None:  # the same rows share one list
            assert first.setdefault(id(lack), i) == ref_first.setdefault(id(ref_lack), i), i


def assert_same_array(values: Sequence[Any], kind: int, buffers: Any = None) -> None:
    """``column_buffers`` (or ``buffers``) makes the array ``pa.array`` makes (or declines)."""
    assert core is not None
    got = (buffers or core.column_buffers)(values, kind)
    arrow = codec._ARROW_OF_KIND[kind]
    try:
        want = pa.array(values, type=arrow)
    except (pa.ArrowInvalid, OverflowError, UnicodeEncodeError):  # Python's path decides
        assert got is None
        return
    if got is None:
        return  # declined: Python builds it
    validity, nulls, data, offsets = got
    bufs = [None if validity is None else pa.py_buffer(validity)]
    bufs += [] if offsets is None else [pa.py_buffer(offsets)]
    array = pa.Array.from_buffers(arrow, len(values), [*bufs, pa.py_buffer(data)], null_count=nulls)
    array.validate(full=True)
    assert array.type == want.type and array.null_count == want.null_count
    assert list(map(_cell, array.to_pylist())) == list(map(_cell, want.to_pylist()))


def check_rows(rows: list[dict[str, Any]], sources: Sequence[str] | None = None) -> None:
    """Every core function on ``rows`` against the reference, and the table."""
    assert core is not None
    got = core.row_columns(rows)
    want = codec._py_columns(rows)
    if got is not None:
        assert_same_columns(got, want)
    names, columns, _ = want
    for col in [*columns, *([] if sources is None else [sources])]:
        values = list(col)
        kind = core.plain_kind(values)
        assert kind == codec._py_plain_kind(values)
        if kind > 0:
            assert_same_array(values, kind)
    try:
        table = codec.rows_to_table(rows, sources)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            _python_table(rows, sources)
        return
    ref = _python_table(rows, sources)
    assert table.schema == ref.schema and table.schema.metadata == ref.schema.metadata
    assert list(map(_typed_row, codec.table_to_rows(table))) == list(
        map(_typed_row, codec.table_to_rows(ref))
    )
    back = codec.table_to_rows(table)
    if sources is not None:
        back = [{k: v for k, v in r.items() if k != codec.SOURCE_COLUMN} for r in back]
    assert [list(r) for r in back] == [list(r) for r in _key_order(rows, names)]
    assert list(map(_typed_row, back)) == list(map(_typed_row, rows))


def _typed_row(row: dict[str, Any]) -> dict[str, tuple[type, str]]:
    return {k: _cell(v) for k, v in row.items()}


def _key_order(rows: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    return [{c: r[c] for c in names if c in r} for r in rows]


def _python_table(rows: list[dict[str, Any]], sources: Sequence[str] | None) -> pa.Table:
    setattr(codec, "_core", None)  # noqa: B010 (the Python path, as without the core)
    try:
        return codec.rows_to_table(rows, sources)
    finally:
        setattr(codec, "_core", core)  # noqa: B010


def test_corpus_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every chunk the runner writes for the whole shared corpus: its ``files`` rows
    through ``rows_to_table``, its row tables through ``report.part_rows``."""
    need(CORPUS)
    seen: list[int] = []
    write = store.rows_to_table

    def checked(rows: list[dict[str, Any]], sources: Sequence[str] | None = None) -> pa.Table:
        assert core is not None
        core_columns = core.row_columns(rows)
        assert core_columns is not None  # no decline here
        py_columns = codec._py_columns(rows)  # each side's columns worked out once
        assert_same_columns(core_columns, py_columns)
        for col in py_columns[1]:
            values = list(col)
            kind = core.plain_kind(values)
            assert kind == codec._py_plain_kind(values)
            if kind > 0:
                assert_same_array(values, kind)
        table = write(rows, sources)
        assert table.equals(_python_table(rows, sources))
        seen.append(len(rows))
        return table

    class Checked(part_rows.PartRows):
        """The row tables, taken file by file by the core (``report.part_rows``): the
        same checks on each part's rows, and the table ``rows_to_table`` makes of them."""

        def __init__(self, tables: Sequence[str]) -> None:
            super().__init__(tables)
            self.kept: dict[str, tuple[list[dict[str, Any]], list[str]]] = {
                t: ([], []) for t in tables
            }

        def add(self, rows: Sequence[Sequence[dict[str, Any]]], source: str) -> None:
            super().add(rows, source)
            for t, got in zip(self.tables, rows, strict=True):
                self.kept[t][0].extend(got)
                self.kept[t][1].extend([source] * len(got))

        def facts_sink(self) -> None:
            """The facts as dicts, through ``add`` (their cells straight from the facts
            pass are held equal to these in tests/test_part_facts_sink.py)."""
            return None

        def table(self, name: str) -> pa.Table:
            assert not self._python  # the core declined no table
            got = super().table(name)
            want = checked(*self.kept[name])
            assert got.schema.equals(want.schema, check_metadata=True) and got.equals(want)
            return got

    monkeypatch.setattr(store, "rows_to_table", checked)
    monkeypatch.setattr(chunk, "PartRows", Checked)
    paths = sorted(p for p in CORPUS.rglob("*") if p.suffix in {".gz", ".json"})
    audit_files(paths, jobs=1, out=tmp_path / "out")
    assert len(seen) > 20 and sum(seen) > 100_000


_KEYS = st.sampled_from(["a", "b", "c", "d", "hand"])
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from([Seat.EAST, Name("x"), "\ud800", "東", 2**63, -(2**63), (1, "a"), [2, None]]),
)
_ROW = st.dictionaries(_KEYS, _VALUES, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ROW, max_size=12))
def test_generated_rows(rows: list[dict[str, Any]]) -> None:
    check_rows(rows)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(_KEYS, st.integers(-3, 3) | st.none() | st.booleans()), max_size=8))
def test_generated_rows_sources(rows: list[dict[str, Any]]) -> None:
    check_rows(rows, [f"f{i}.xml" for i in range(len(rows))])


@settings(max_examples=300, deadline=None)
@given(st.lists(_VALUES, max_size=20))
def test_generated_columns(values: list[Any]) -> None:
    assert core is not None
    kind = core.plain_kind(values)
    assert kind == codec._py_plain_kind(values)
    assert core.plain_kind(tuple(values)) == kind
    for k in (1, 2, 3, 4):
        if k == kind:
            assert_same_array(values, k)
        elif any(v is not None for v in values):  # a value not of the kind: declined
            assert core.column_buffers(values, k) is None


def test_same_keys_other_order_and_shared_lacks() -> None:
    rows = [{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"a": 5}, {"c": 6}, {"a": 7}, {"b": 8, "a": 9}]
    check_rows(rows)
    names, _, lacks = core.row_columns(rows)  # type: ignore[union-attr,misc]
    assert names == ["a", "b", "c"]
    assert lacks[2] is lacks[4] and lacks[2] == ["b", "c"]
    check_rows([{"a": 1, "b": 2}, {"b": 3, "a": True}, {"a": 2.5, "b": "x"}])
    check_rows([])
    check_rows([{}, {}])
    check_rows([{"x": math.nan}, {"x": -0.0}, {"x": None}])


def test_declines() -> None:
    """What the core leaves to Python: odd containers, rows, keys and values."""
    assert core is not None
    assert core.row_columns(iter([{"a": 1}])) is None
    assert core.row_columns([{"a": 1}, [("a", 1)]]) is None
    assert core.row_columns([{Name("a"): 1}]) is None
    assert core.row_columns([{1: 1}]) is None
    assert core.row_columns([{f"k{i}": 1} for i in range(100)]) is None  # many key sequences
    assert codec._columns([{f"k{i}": 1} for i in range(100)])[0] == [f"k{i}" for i in range(100)]
    assert core.plain_kind(iter([1])) is None
    assert core.column_buffers([1, 2**64], 2) is None
    assert core.column_buffers(["\ud800"], 4) is None
    assert core.column_buffers([1, True], 2) is None
    assert core.column_buffers([1], 0) is None
    check_rows([{"a": 2**64}, {"a": 1}])
    check_rows([{"a": Seat.EAST}, {"a": 1}])
    check_rows([{"a": Name("n")}, {"a": "m"}])


def test_comparison_fails_on_a_planted_difference() -> None:
    """The checks above would see the core give another value, type or sharing."""
    assert core is not None
    rows = [{"a": 1, "b": "x"}, {"a": 2}, {"a": 3}, {"b": "y"}]
    want = codec._py_columns(rows)
    names, columns, lacks = core.row_columns(rows)  # type: ignore[misc]
    assert_same_columns((names, columns, lacks), want)
    with pytest.raises(AssertionError):  # True for 1: equal, not the same value
        assert_same_columns((names, [[True, 2, 3, None], columns[1]], lacks), want)
    with pytest.raises(AssertionError):  # rows 1 and 2 no longer share their list
        assert_same_columns((names, columns, [None, ["b"], ["b"], ["a"]]), want)
    with pytest.raises(AssertionError):
        assert_same_columns((["b", "a"], columns[::-1], lacks), want)
    real = core.column_buffers

    def planted(values: Sequence[Any], kind: int) -> Any:
        return real([*values[:-1], values[0]], kind)

    assert_same_array([1, 2, 3], 2, real)
    with pytest.raises(AssertionError):  # an array built from other values
        assert_same_array([1, 2, 3], 2, planted)


def test_no_pandas_import() -> None:
    """With the core, writing rows never calls ``pa.array`` on a list, whose first
    call imports pandas (about 0.3 s of CPU in each process that writes parts)."""
    code = (
        "import sys\n"
        "from replay_audit.report import codec\n"
        "rows = [{'a': 1, 'b': 'x', 'c': True, 'd': 1.5, 'e': None}, {'a': [2]}, {}]\n"
        "codec.rows_to_table(rows, ['s', 't', 'u'])\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
