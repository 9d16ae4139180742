"""A stored table's Parquet written from its parts' Arrow columns: the file pandas writes.

A stored report wrote Parquet through pandas (``stored_tables._write_parquet_frames``):
each part's rows read back into dicts, a typed frame built per part
(``report.tables.table_frame``: the integer columns ``Int64``, the derived hand
columns, the rows sorted), that frame converted back to Arrow
(``audit_report.parquet_table``: mixed object columns as text, the schema version
and rules in the metadata) and every chunk cast to the union of their schemas.  Over
the shared corpus that took 6 s of CPU where the CSV, written from the parts'
columns (``report.csv_columns``), takes 0.5 s.

What pandas makes of a part's column depends on little, all of it in the part: the
column's Arrow type, its gaps (a ``None`` cell, or a row that lacks the key:
``__absent__``) and, for an integer column with gaps, whether its numbers survive a
float64.  ``typed_column`` maps those to the Arrow column pandas' frame converts to
(an integer column with a gap is ``float64`` unless it is one of
``tables.INT_COLUMNS``; a boolean one with a gap is text, ``"True"``; an empty one
is ``null``, or ``float64`` when a row lacked the key), with ``pyarrow.compute``:
the hand columns derived from others (``tables.add_derived_columns``) are computed
once per distinct value with the same functions, and the rows sorted as
``tables.sort_table`` sorts them.  The first chunk's pandas metadata (which the
written file carries) is that of a one-row frame of the same dtypes, made by
``audit_report.parquet_table`` itself.

Where a part holds what this module does not map (a column of mixed values, kept as
JSON in the part; text or floats in an integer column; a file row missing from its
part; no rows at all; a pandas before 3, whose frames this mapping was not worked out
on), ``write_table_parquet`` returns ``False`` before it writes
anything and the caller writes that table through pandas, as before: that path stays
the reference the tests hold this one equal to (``tests/test_parquet_columns.py``).

Must not: decide a table's columns or order (``report.tables``), read a store
(``report.store``), or write any format but Parquet.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from replay_audit.report.codec import ABSENT_COLUMN, JSON_COLUMNS_KEY, SOURCE_COLUMN
from replay_audit.report.column_plan import HeldChunks
from replay_audit.report.csv_columns import HELD_CELLS
from replay_audit.report.store import _union_schema
from replay_audit.report.tables import (
    DERIVED_HAND_COLUMNS,
    INT_COLUMNS,
    SORT_KEYS,
    TABLE_COLUMNS,
    YAKUMAN_FU_NOTE,
    is_yakuman_list,
    limit_name,
    yaku_names,
)

TEXT = pa.large_string()
"""The Arrow type pyarrow gives pandas' ``str`` dtype: a text column's."""
PANDAS_MAJOR = 3
"""The pandas whose frames this module's mapping was worked out on and is tested
against (3.1): from pandas 3 text is its own ``str`` dtype (before, ``object``, and
Arrow ``string``); with an older pandas every table goes through pandas."""
_NULLS_PER_KEY = int(pa.__version__.split(".")[0]) >= 25
"""pyarrow 25 takes the null placement per sort key (the option for all keys is
deprecated there); older ones only that option."""
_EXACT_FLOAT = 2**53
"""Integers up to this size survive the float64 pandas makes of an integer column
with a gap (``Int64`` columns pass through it too, in ``tables._int_column``)."""

# the pandas dtypes a column takes in a chunk's frame, as ``str(dtype)`` names them
STR, OBJECT, NULLABLE_INT, INT, FLOAT, BOOL = "str", "object", "Int64", "int64", "float64", "bool"


class Unmapped(Exception):
    """A part holds a column this module does not map; pandas writes the table."""


@dataclass(frozen=True, slots=True)
class PartChunk:
    """One chunk of a table as read from the store: a part's Arrow table (as written,
    ``__source__`` and ``__absent__`` included; ``None`` when the part has no rows of
    the table) and the input paths whose rows the chunk holds (the part's other rows
    belong to files audited again later)."""

    data: pa.Table | None
    paths: Sequence[str]


@dataclass(frozen=True, slots=True)
class _Column:
    """One column of a chunk as the part holds it (``values`` ``None``: no row has
    the key) and how many of its rows lack the key."""

    values: pa.ChunkedArray | None
    absent: int
    n: int


def typed_column(column: _Column, int_column: bool, fixed: bool) -> tuple[pa.ChunkedArray, str]:
    """The Arrow column pandas' frame of this chunk converts to, and its dtype.

    ``pd.DataFrame.from_records`` makes ``int64`` of integers, ``float64`` of
    integers with a gap (``None``, or ``NaN`` where a row lacks the key), ``bool``
    of booleans, ``object`` of booleans with a gap (``parquet_table`` writes them
    as ``"True"``), ``str`` of text, ``object`` of nothing but ``None`` and
    ``float64`` of ``None`` mixed with a lacking key; a fixed column no row has is
    added as ``None``, an extra one by ``reindex`` as ``NaN``; an ``INT_COLUMNS``
    one becomes ``Int64`` whatever it was.  Raises ``Unmapped`` for the rest.
    """
    n, values = column.n, column.values
    present = 0 if values is None else n - column.absent
    nulls = n if values is None else values.null_count
    if present == 0 or nulls == n:
        if int_column:
            return pa.chunked_array([pa.nulls(n, pa.int64())]), NULLABLE_INT
        if (present == 0 and fixed) or (present and not column.absent):
            return pa.chunked_array([pa.nulls(n)]), OBJECT
        return pa.chunked_array([pa.nulls(n, pa.float64())]), FLOAT
    assert values is not None
    kind = values.type
    if int_column:
        if kind != pa.int64() or (nulls and not _exact(values)):
            raise Unmapped(f"an integer column holding {kind}")
        return values, NULLABLE_INT
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return values.cast(TEXT), STR
    if kind == pa.int64():
        if not nulls:
            return values, INT
        if not _exact(values):
            raise Unmapped("integers past 2**53 with a gap")
        return values.cast(pa.float64()), FLOAT
    if kind == pa.float64():
        return pc.if_else(pc.is_nan(values), pa.scalar(None, pa.float64()), values), FLOAT
    if kind == pa.bool_():
        if not nulls:
            return values, BOOL
        return pc.if_else(values, "True", "False").cast(TEXT), STR
    raise Unmapped(f"a column of {kind}")


def _exact(values: pa.ChunkedArray) -> bool:
    """Whether every integer of ``values`` survives a float64."""
    low, high = pc.min_max(values).values()
    return bool(
        low.as_py() is None or (low.as_py() >= -_EXACT_FLOAT and high.as_py() <= _EXACT_FLOAT)
    )


def _derived(
    derive: Callable[[Any], Any], values: pa.ChunkedArray, text: bool, kind: pa.DataType
) -> pa.ChunkedArray:
    """``[derive(v) for v in values]`` as an Arrow column of ``kind``, ``derive``
    called once per distinct value.  ``text``: the values are those pandas hands
    ``add_derived_columns`` (text, or ``Int64`` codes); otherwise (a column of
    booleans, or of gaps only) every cell derives as a gap does, as it does there
    (``yaku_names``, ``is_yakuman_list`` and ``limit_name`` read only text and
    integers)."""
    if not text:
        return pa.chunked_array([pa.array([derive(None)] * len(values), kind)])
    distinct = pc.unique(values)
    derived = pa.array([derive(v) for v in distinct.to_pylist()], kind)
    return pc.take(derived, pc.index_in(values, value_set=distinct))


def _text_column(cells: pa.ChunkedArray) -> tuple[pa.ChunkedArray, str]:
    """A derived column as pandas types it: ``str``, or ``object`` when every cell
    is ``None`` (``null``)."""
    if cells.null_count == len(cells):
        return pa.chunked_array([pa.nulls(len(cells))]), OBJECT
    return cells, STR


def add_derived_columns(typed: dict[str, tuple[pa.ChunkedArray, str]], text: set[str]) -> None:
    """``tables.add_derived_columns`` over a chunk's typed Arrow columns; ``text``
    names the columns that held text or integers in the part (a boolean column with
    a gap is text by now, but pandas derived from its booleans)."""
    yakuman = []
    for side in ("rec", "comp"):
        yaku = typed[f"{side}_yaku"][0]
        is_text = f"{side}_yaku" in text
        typed[f"{side}_yaku_names"] = _text_column(_derived(yaku_names, yaku, is_text, TEXT))
        limit = typed[f"{side}_limit"][0]
        names = _derived(limit_name, limit, f"{side}_limit" in text, TEXT)
        typed[f"{side}_limit_name"] = _text_column(names)
        yakuman.append(_derived(is_yakuman_list, yaku, is_text, pa.bool_()))
    note = pc.if_else(pc.or_(*yakuman), pa.scalar(YAKUMAN_FU_NOTE, TEXT), pa.scalar(None, TEXT))
    typed["note"] = _text_column(note)


def arrow_order(name: str, table: pa.Table, sources: pa.ChunkedArray) -> pa.Array:
    """The rows' order: the stored rows grouped by source path (``Store.read_rows``),
    then ``tables.sort_table``'s stable sort, nulls first."""
    keys = [k for k in SORT_KEYS[name] if k in table.column_names]
    columns: dict[str, Any] = {k: table.column(k) for k in keys}
    if name == "findings":
        unplaced = pc.and_(pc.is_null(table.column("hand")), pc.is_null(table.column("seq")))
        columns = {keys[0]: columns[keys[0]], "_unplaced": unplaced, **columns}
    columns = {k: v for k, v in columns.items() if not pa.types.is_null(v.type)}
    columns["_source"] = sources
    columns["_row"] = pa.chunked_array([pa.array(range(table.num_rows), type=pa.int64())])
    for key, column in columns.items():
        if not _sortable(column.type):
            raise Unmapped(f"a sort key {key!r} of {column.type}")
    if _NULLS_PER_KEY:
        return pc.sort_indices(
            pa.table(columns), sort_keys=[(k, "ascending", "at_start") for k in columns]
        )
    return pc.sort_indices(
        pa.table(columns), sort_keys=[(k, "ascending") for k in columns], null_placement="at_start"
    )


def _sortable(kind: pa.DataType) -> bool:
    return (
        pa.types.is_large_string(kind)
        or pa.types.is_string(kind)
        or kind in (pa.int64(), pa.float64(), pa.bool_())
    )


def _columns_of(data: pa.Table) -> tuple[dict[str, pa.ChunkedArray], dict[str, int]]:
    """A part's columns bar ``__source__``/``__absent__``, and how many rows lack each."""
    json_columns = json.loads((data.schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]"))
    if json_columns:
        raise Unmapped(f"columns of mixed values {json_columns}")
    lacking: dict[str, int] = {}
    if ABSENT_COLUMN in data.column_names:
        counts = pc.value_counts(pc.list_flatten(data.column(ABSENT_COLUMN)))
        lacking = dict(
            zip(counts.field("values").to_pylist(), counts.field("counts").to_pylist(), strict=True)
        )
    values = {
        c: data.column(c) for c in data.column_names if c not in (SOURCE_COLUMN, ABSENT_COLUMN)
    }
    return values, lacking


def chunk_rows(name: str, chunk: PartChunk) -> pa.Table | None:
    """The part's rows of the chunk's paths, in stored order (``None``: none).
    Raises ``Unmapped`` where a path has no row in ``files`` (pandas lists the file
    anyway) or more than one (pandas keeps the first)."""
    data = chunk.data
    if data is None or data.num_rows == 0:
        if name == "files" and chunk.paths:
            raise Unmapped("a file without its row")
        return None
    if SOURCE_COLUMN not in data.column_names:
        raise Unmapped("a part without sources")
    keep = pc.is_in(data.column(SOURCE_COLUMN), value_set=pa.array(list(chunk.paths), pa.string()))
    if not pc.all(keep).as_py():
        data = data.filter(keep)
    if name == "files" and not _one_row_each(data, chunk.paths):
        raise Unmapped("a file without its one row")
    return data if data.num_rows else None


def _one_row_each(data: pa.Table, paths: Sequence[str]) -> bool:
    """Whether each of ``paths`` has exactly one row in ``data`` (a ``files`` part)."""
    if SOURCE_COLUMN not in data.column_names:
        return False
    counts = pc.value_counts(data.column(SOURCE_COLUMN))
    got = dict(
        zip(counts.field("values").to_pylist(), counts.field("counts").to_pylist(), strict=True)
    )
    return all(got.get(p) == 1 for p in paths)


def chunk_table(
    name: str, chunk: PartChunk, columns: list[str]
) -> tuple[pa.Table, dict[str, str]] | None:
    """The chunk's table as ``parquet_table`` makes it of ``table_frame``'s frame
    reindexed to ``columns`` (metadata aside), and each column's pandas dtype; ``None``
    when the chunk has no rows (pandas skips it too).  Raises ``Unmapped``."""
    data = chunk_rows(name, chunk)
    if data is None:
        return None
    values, lacking = _columns_of(data)
    n = data.num_rows
    fixed = set(TABLE_COLUMNS[name])
    typed: dict[str, tuple[pa.ChunkedArray, str]] = {}
    for c in columns:
        if name == "hands" and c in DERIVED_HAND_COLUMNS:
            continue
        column = _Column(values.get(c), lacking.get(c, 0), n)
        typed[c] = typed_column(column, c in fixed and c in INT_COLUMNS, c in fixed)
    if name == "hands":
        text = {
            c
            for c, (_, dtype) in typed.items()
            if dtype == NULLABLE_INT or (dtype == STR and not pa.types.is_boolean(values[c].type))
        }
        add_derived_columns(typed, text)
    table = pa.table({c: typed[c][0] for c in columns})
    table = table.take(arrow_order(name, table, data.column(SOURCE_COLUMN)))
    return table, {c: typed[c][1] for c in columns}


def pandas_metadata(columns: list[str], dtypes: dict[str, str], rules: str) -> dict[bytes, bytes]:
    """The schema metadata ``parquet_table`` gives a frame of these columns and
    dtypes (pyarrow's ``pandas`` entry, then the schema version, tool version and
    rules), made by ``parquet_table`` itself from a one-row frame of them."""
    import pandas as pd

    from replay_audit.report.audit_report import parquet_table

    one = {
        STR: lambda: pd.Series(["x"], dtype="str"),
        OBJECT: lambda: pd.Series([None], dtype=object),
        NULLABLE_INT: lambda: pd.Series([0], dtype="Int64"),
        INT: lambda: pd.Series([0], dtype="int64"),
        FLOAT: lambda: pd.Series([0.0], dtype="float64"),
        BOOL: lambda: pd.Series([True], dtype="bool"),
    }
    frame = pd.DataFrame({c: one[dtypes[c]]() for c in columns})
    metadata = parquet_table(frame, rules).schema.metadata
    assert metadata is not None
    return dict(metadata)


def _chunks(
    name: str, read: Callable[[], Iterable[PartChunk]], columns: list[str]
) -> Iterator[tuple[pa.Table, dict[str, str]]]:
    for chunk in read():
        got = chunk_table(name, chunk, columns)
        if got is not None:
            yield got


def write_table_parquet(
    path: Path,
    name: str,
    columns: list[str],
    read: Callable[[], Iterable[PartChunk]],
    rules: str,
) -> bool:
    """Write table ``name`` (its ``columns``, fixed ones first) to ``path`` from its
    chunks (``read()`` gives them in order, each time it is called) as the pandas
    path writes it: one schema, the union of the chunks' (``store._union_schema``),
    with the first chunk's metadata, each chunk cast to it.

    Two passes, as there: the first makes every chunk's table (kept for the second
    up to ``HELD_CELLS`` cells, else made again), the second writes them.  Returns
    ``False``, having written nothing, where a chunk is ``Unmapped``, the table has
    no rows or pandas is older than ``PANDAS_MAJOR``; the caller then writes it
    through pandas.
    """
    import pandas as pd  # (its version decides; the metadata is made by it below)
    import pyarrow.parquet as pq

    if int(pd.__version__.split(".")[0]) < PANDAS_MAJOR:
        return False
    schemas: list[pa.Schema] = []
    held: HeldChunks[pa.Table] = HeldChunks(HELD_CELLS)
    first: dict[str, str] | None = None
    try:
        for table, dtypes in _chunks(name, read, columns):
            schemas.append(table.schema)
            first = dtypes if first is None else first
            held.add(table, table.num_rows * table.num_columns)
    except Unmapped:
        return False
    if first is None:
        return False
    schemas[0] = schemas[0].with_metadata(pandas_metadata(columns, first, rules))
    schema = _union_schema(schemas)
    tables = held.again(lambda: (t for t, _ in _chunks(name, read, columns)))
    with pq.ParquetWriter(path, schema) as writer:
        for table in tables:
            writer.write_table(table.cast(schema))
    return True
