"""The row codec of the stored parts: plain rows to Arrow and back, exactly.

Owns ``rows_to_table`` / ``table_to_rows`` (rows read back equal to the rows
written: same keys, values and types) and ``table_columns`` (the same rows as
columns, for the writers that never need a dict per row).  ``report.store``
writes and reads the parts through it.

Must not: know the layout of a report folder (``report.store``), a table's
columns (``report.tables``), or audit anything.
"""

from __future__ import annotations

import array
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import pyarrow as pa

from replay_audit.auditing.rows import SCHEMA_VERSION
from replay_audit.native import _core

SOURCE_COLUMN = "__source__"
"""Extra column of every part: the input path the row came from (dropped on load)."""
ABSENT_COLUMN = "__absent__"
"""Extra column: per row, the keys its dict did not have (so rows round-trip exactly)."""
JSON_COLUMNS_KEY = b"replay_audit.json_columns"
_NATIVE_TYPES: dict[type, pa.DataType] = {
    bool: pa.bool_(),
    int: pa.int64(),
    float: pa.float64(),
    str: pa.string(),
}
_KINDS: tuple[type, ...] = (type(None), bool, int, float, str)
"""The plain kinds by number, as ``_core.plain_kind`` numbers them (0: all None)."""
_KIND_OF: dict[type, int] = {t: k for k, t in enumerate(_KINDS) if k}
_ARROW_OF_KIND: tuple[pa.DataType, ...] = tuple(_NATIVE_TYPES.get(t, pa.null()) for t in _KINDS)


def _columns(
    rows: Sequence[dict[str, Any]],
) -> tuple[list[str], list[Sequence[Any]], list[list[str] | None]]:
    """``_py_columns``, by the core when it takes the rows (exact dicts with str keys)."""
    if _core is not None and (got := _core.row_columns(rows)) is not None:
        return got
    return _py_columns(rows)


def _py_columns(
    rows: Sequence[dict[str, Any]],
) -> tuple[list[str], list[Sequence[Any]], list[list[str] | None]]:
    """The column names of ``rows`` (in the order keys first appear); per column
    the value of every row (``None`` where a row lacks the key); per row the keys
    it lacks in column order (``None`` when it has them all; rows with the same
    keys share one list).

    ``map`` with ``itemgetter`` or ``dict.get`` does the work in C: the worker
    stores about a million cells per 500 files, and a Python loop per cell was
    most of a part's cost.  Rows that all have the first row's keys (every table
    but ``hands``) take their names from that row: the sizes are compared first,
    and a row with as many keys but other ones makes the ``itemgetter`` fail,
    which sends the rows the general way.  There, rows come in a few key
    sequences only (three in a chunk of Phoenix ``hands``), so the names and
    what each row lacks are found once per sequence, not once per row.
    """
    if rows:
        names = list(rows[0])
        n = len(names)
        if n > 1 and min(map(len, rows)) == n == max(map(len, rows)):
            try:
                got = list(map(itemgetter(*names), rows))
            except KeyError:
                pass  # as many keys, not the same ones
            else:
                return names, list(zip(*got, strict=True)), [None] * len(rows)
    keys = list(map(tuple, rows))
    sequences = dict.fromkeys(keys)
    names = list(dict.fromkeys(itertools.chain.from_iterable(sequences)))
    n = len(names)
    lacks: dict[tuple[str, ...], list[str] | None] = {
        seq: None if len(seq) == n else _lacking(names, seq) for seq in sequences
    }
    get = dict.get
    columns: list[Sequence[Any]] = [list(map(get, rows, itertools.repeat(c))) for c in names]
    return names, columns, list(map(lacks.__getitem__, keys))


def _lacking(names: list[str], keys: tuple[str, ...]) -> list[str]:
    """The names not among ``keys``, in order."""
    have = set(keys)
    return [c for c in names if c not in have]


def _plain_kind(values: Sequence[Any]) -> int:
    """``_py_plain_kind``, by the core when ``values`` is a list or tuple."""
    if _core is not None and (kind := _core.plain_kind(values)) is not None:
        return kind
    return _py_plain_kind(values)


def _py_plain_kind(values: Sequence[Any]) -> int:
    """The one plain type of ``values`` bar ``None``, as its number in ``_KINDS``:
    0 when every value is ``None``, -1 when they mix types or their type is not
    exactly ``bool``, ``int``, ``float`` or ``str`` (a ``bool`` is not an ``int``
    here, nor an ``IntEnum``: read back, it would not be the value written)."""
    types = set(map(type, values))
    types.discard(type(None))
    if not types:
        return 0
    if len(types) == 1:
        return _KIND_OF.get(next(iter(types)), -1)
    return -1


def _native(values: Sequence[Any], kind: int) -> pa.Array | None:
    """The core's Arrow array of a column of plain ``kind`` (1-4), or ``None`` where
    it declines (or is absent).  Why not ``pa.array``: converting a Python list, it
    checks and converts each value again, at several times the cost of the core's
    loop, and its first call imports pandas (about 0.3 s of CPU per process)."""
    if _core is None or (got := _core.column_buffers(values, kind)) is None:
        return None
    validity, nulls, data, offsets = got
    buffers = [None if validity is None else pa.py_buffer(validity)]
    if offsets is not None:
        buffers.append(pa.py_buffer(offsets))
    buffers.append(pa.py_buffer(data))
    return pa.Array.from_buffers(_ARROW_OF_KIND[kind], len(values), buffers, null_count=nulls)


def _array(values: Sequence[Any], name: str, json_columns: list[str]) -> pa.Array:
    """One column: natively typed when its values share one plain type, else JSON."""
    kind = _plain_kind(values)
    if kind == 0:
        return pa.nulls(len(values))
    if kind > 0:
        if (native := _native(values, kind)) is not None:
            return native
        try:
            return pa.array(values, type=_ARROW_OF_KIND[kind])
        except (pa.ArrowInvalid, OverflowError):  # an int beyond 64 bits
            pass
    json_columns.append(name)
    texts = [None if v is None else _to_json(v, name) for v in values]
    native = _native(texts, _KIND_OF[str])
    return pa.array(texts, type=pa.string()) if native is None else native


_ABSENT_TYPE = pa.list_(pa.string())


def _absent_array(absent: list[list[str] | None]) -> pa.Array:
    """The ``__absent__`` column: per row the list of keys it lacks, or null.

    Built from the core's buffers of the flattened names (``_native``) rather than
    ``pa.array``, for the reason given there.
    """
    names = list(itertools.chain.from_iterable(a for a in absent if a is not None))
    child = _native(names, _KIND_OF[str])
    flags = _native([None if a is None else True for a in absent], _KIND_OF[bool])
    if child is None or flags is None:
        return pa.array(absent, type=_ABSENT_TYPE)
    lengths = (0 if a is None else len(a) for a in absent)
    offsets = pa.py_buffer(array.array("i", itertools.accumulate(lengths, initial=0)))
    validity = flags.buffers()[0]
    return pa.Array.from_buffers(
        _ABSENT_TYPE, len(absent), [validity, offsets], flags.null_count, children=[child]
    )


def rows_to_table(rows: Sequence[dict[str, Any]], sources: Sequence[str] | None = None) -> pa.Table:
    """Plain rows to an Arrow table that ``table_to_rows`` turns back into equal rows.

    ``sources``, one per row, is stored as a first column ``__source__``: the table
    is the one of rows that each began with that key, without copying every row.

    Why not ``pa.Table.from_pylist``: it silently turns ``1`` into ``1.0`` next to a
    float, fails on columns mixing ``int`` and ``str``, and cannot tell a missing key
    from ``None``. Any of those would make the report read back from disk differ from
    the one built in memory. Here a column whose values share one plain type is stored
    natively; a mixed column is stored as JSON text (listed in the schema metadata);
    missing keys are listed per row in ``__absent__``.

    >>> rows = [{"a": 1, "b": "x"}, {"a": 2.5}, {"b": 3, "a": None}]
    >>> table_to_rows(rows_to_table(rows)) == rows
    True
    """
    names, columns, absent = _columns(rows)
    return _assemble(
        names,
        absent,
        sources,
        lambda json_columns: [
            _array(v, name, json_columns) for name, v in zip(names, columns, strict=True)
        ],
    )


def built_table(
    names: list[str],
    columns: list[Any],
    absent: list[list[str] | None],
    sources: Sequence[str] | None = None,
) -> pa.Table:
    """``rows_to_table`` of rows the core took apart (``_core.PartRows.finish``): per
    column 0 for a column of ``None``, the buffers ``_native`` would wrap for a plain
    one (its kind first), or the values themselves where ``_array`` decides."""
    n = len(absent)

    def arrays(json_columns: list[str]) -> list[pa.Array]:
        out: list[pa.Array] = []
        for name, column in zip(names, columns, strict=True):
            if type(column) is list:
                out.append(_array(column, name, json_columns))
            elif column == 0:
                out.append(pa.nulls(n))
            else:
                kind, validity, nulls, data, offsets = column
                buffers = [None if validity is None else pa.py_buffer(validity)]
                if offsets is not None:
                    buffers.append(pa.py_buffer(offsets))
                buffers.append(pa.py_buffer(data))
                out.append(
                    pa.Array.from_buffers(_ARROW_OF_KIND[kind], n, buffers, null_count=nulls)
                )
        return out

    return _assemble(names, absent, sources, arrays)


def _assemble(
    names: list[str],
    absent: list[list[str] | None],
    sources: Sequence[str] | None,
    arrays: Callable[[list[str]], list[pa.Array]],
) -> pa.Table:
    """The table of ``rows_to_table`` from the rows' names, what each row lacks, the
    sources and the columns' arrays (``arrays`` notes the JSON columns it makes)."""
    n = len(absent)
    if ABSENT_COLUMN in names:
        raise ValueError(f"rows may not use the reserved column name {ABSENT_COLUMN!r}")
    if sources is not None and len(sources) == n == 0:
        sources = None  # no rows: no column, as when no row had the key
    if sources is not None:
        if SOURCE_COLUMN in names:
            raise ValueError(f"rows with sources may not use the column name {SOURCE_COLUMN!r}")
        if len(sources) != n:
            raise ValueError("one source per row")
    json_columns: list[str] = []
    columns: list[pa.Array] = []
    if sources is not None:
        columns.append(_array(sources, SOURCE_COLUMN, json_columns))
    columns.extend(arrays(json_columns))
    names = [SOURCE_COLUMN, *names] if sources is not None else list(names)
    if any(absent) or (n and not names):
        # (also when rows have no keys at all: the column then carries the row count)
        columns.append(_absent_array(absent))
        names.append(ABSENT_COLUMN)
    table = pa.Table.from_arrays(columns, names=names) if names else pa.table({})
    return table.replace_schema_metadata(
        {
            JSON_COLUMNS_KEY: json.dumps(json_columns).encode(),
            b"replay_audit.schema_version": str(SCHEMA_VERSION).encode(),
        }
    )


@dataclass(frozen=True, slots=True)
class Columns:
    """Rows held as columns: what ``table_to_rows`` would give, without the dicts.

    ``values[name][i]`` is row ``i``'s value (``None`` where the row lacks the key);
    ``absent[i]`` lists the keys row ``i`` lacks (``None``: it has them all, and
    ``absent`` itself is ``None`` when every row does; rows may share a list, so it
    is read, never changed).  ``names`` is the key order
    of a row read back by ``table_to_rows``.
    """

    names: list[str]
    values: dict[str, list[Any]]
    absent: list[list[str] | None] | None
    n: int

    def take(self, order: Sequence[int]) -> Columns:
        """These rows in the order (and selection) of ``order``."""
        pick = itemgetter(*order) if len(order) > 1 else None

        def sel(col: list[Any]) -> list[Any]:
            if pick is None:
                return [col[i] for i in order]
            return list(pick(col))

        absent = self.absent
        return Columns(
            self.names,
            {c: sel(v) for c, v in self.values.items()},
            None if absent is None else sel(absent),
            len(order),
        )

    def rows(self) -> list[dict[str, Any]]:
        """The rows themselves, keys in ``names`` order (as ``table_to_rows``)."""
        names, cols, absent = self.names, self.values, self.absent
        rows: list[dict[str, Any]] = []
        for i in range(self.n):
            skip = absent[i] if absent is not None else None
            if skip:
                rows.append({c: cols[c][i] for c in names if c not in skip})
            else:
                rows.append({c: cols[c][i] for c in names})
        return rows


def rows_columns(rows: Sequence[dict[str, Any]]) -> Columns:
    """Rows as ``Columns`` (the rows ``Columns.rows`` gives back, key order aside)."""
    names, columns, absent = _columns(rows)
    values = {c: list(v) for c, v in zip(names, columns, strict=True)}
    return Columns(names, values, absent if any(absent) else None, len(rows))


def table_columns(table: pa.Table) -> Columns:
    """The columns of a table ``rows_to_table`` wrote, values decoded as stored."""
    meta = table.schema.metadata or {}
    json_columns = set(json.loads(meta.get(JSON_COLUMNS_KEY, b"[]")))
    cols: dict[str, list[Any]] = {}
    for name in table.column_names:
        column = table.column(name)
        if column.type == pa.null():  # (pyarrow's to_pylist makes a scalar per row)
            values: list[Any] = [None] * table.num_rows
        else:
            values = column.to_pylist()
        if name in json_columns:
            values = [None if v is None else from_json(v) for v in values]
        cols[name] = values
    absent = cols.pop(ABSENT_COLUMN, None)
    if absent is not None and not any(absent):
        absent = None
    return Columns(list(cols), cols, absent, table.num_rows)


def table_to_rows(table: pa.Table) -> list[dict[str, Any]]:
    """The rows ``rows_to_table`` stored, with the same keys, values and types."""
    return table_columns(table).rows()


def _to_json(value: Any, column: str) -> str:
    """Exact JSON for plain values; tuples are tagged so they come back as tuples."""

    def enc(v: Any) -> Any:
        t = type(v)
        if v is None or t in (bool, int, float, str):
            return v
        if t is list:
            return [enc(x) for x in v]
        if t is tuple:
            return {"__tuple__": [enc(x) for x in v]}
        if t is dict and all(type(k) is str for k in v):
            if "__tuple__" in v:
                raise TypeError("a dict key named __tuple__ is reserved")
            return {k: enc(x) for k, x in v.items()}
        raise TypeError(
            f"column {column!r}: cannot store a {t.__name__} value exactly; rows must hold "
            "None, bool, int, float, str, or lists/tuples/dicts of them"
        )

    return json.dumps(enc(value), ensure_ascii=False, allow_nan=True)


def from_json(text: str) -> Any:
    """A value of a JSON column, as ``rows_to_table`` was given it."""

    def dec(v: Any) -> Any:
        if type(v) is list:
            return [dec(x) for x in v]
        if type(v) is dict:
            if set(v) == {"__tuple__"}:
                return tuple(dec(x) for x in v["__tuple__"])
            return {k: dec(x) for k, x in v.items()}
        return v

    return dec(json.loads(text))
