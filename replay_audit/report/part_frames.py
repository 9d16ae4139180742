"""A stored part's rows as the frame ``tables.table_frame`` makes of them, from Arrow.

``StoredAuditReport.fact_chunks`` gave ``stats.players`` each part's fact tables
by reading the part's rows back into dicts (``store.read_rows``) and building a
frame of them (``tables.table_frame``: ``pd.DataFrame.from_records``, then the
rows sorted).  Over the shared corpus that was about 2.5 s of the 6 s the HTML
page costs, for 112,000 hand-fact rows of 47 columns: a dict per row, then
pandas taking the dicts apart again.

For a table without fixed columns (``hand_facts``, ``game_facts``: no
``Int64`` typing, no derived columns), what ``from_records`` makes of a column
is what ``pyarrow``'s ``to_pandas`` makes of the part's column (``int64``;
``float64`` for integers with a gap; ``bool``; ``object`` for booleans with a
gap; ``str`` for text), except a typed column with nothing but gaps, which
``from_records`` leaves ``object`` (``None``) and is cast to ``null`` here
first.  ``part_frame`` builds the frame that way, rows picked and sorted as
``report.parquet_columns`` picks and sorts them for the Parquet file.

Where a part holds what this does not map (a column of mixed values, kept as
JSON in the part; rows lacking keys; a column of another type; integers past
2**53 with a gap; a sort key that is not text or integers) or the chunk has no
rows, ``part_frame`` returns ``None`` and the caller builds the frame from the
rows, as before: that path stays the reference the tests hold this one equal
to (``tests/test_part_frames.py``).

``cell_chunks`` does the same for the page's games table: its cells as
``typed_chunks``' frames give them to ``to_numpy(dtype=object)``, from the parts'
columns (``column_plan``'s first pass, each column's dtype read off a frame of a few
sample rows), without a frame per part; ``None`` where ``column_plan`` leaves the
table to pandas, and the page reads the frames, which stay the reference
(``tests/test_page_cells.py``).

Must not: read a store (``report.store``) or decide a table's order
(``report.tables``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from replay_audit.report.codec import ABSENT_COLUMN, JSON_COLUMNS_KEY, SOURCE_COLUMN, Columns
from replay_audit.report.column_plan import ColumnPlan, HeldChunks, chunk_columns, row_order
from replay_audit.report.csv_columns import HELD_CELLS
from replay_audit.report.parquet_columns import PartChunk, Unmapped, arrow_order, chunk_rows
from replay_audit.report.tables import SORT_KEYS, TABLE_COLUMNS, _frame

if TYPE_CHECKING:
    import pandas as pd

_EXACT_FLOAT = 2**53
"""Integers up to this size survive the float64 pandas makes of a column with a gap."""


def part_frame(name: str, chunk: PartChunk) -> pd.DataFrame | None:
    """``tables.table_frame(name, rows)`` of the chunk's rows (those of its paths,
    grouped by path as ``store.read_rows`` gives them), built from the part's Arrow
    columns; ``None`` where this module does not map the part (see above)."""
    if name in TABLE_COLUMNS or name not in SORT_KEYS:
        return None  # fixed columns are typed and derived by ``tables._frame``
    try:
        data = chunk_rows(name, chunk)
        if data is None or not _mapped(data):
            return None
        sources = data.column(SOURCE_COLUMN)
        data = data.drop_columns(
            [c for c in (SOURCE_COLUMN, ABSENT_COLUMN) if c in data.schema.names]
        )
        data = _gaps_as_null(data)
        _check_keys(name, data)
        order = arrow_order(name, data, sources)
        return (data if _in_order(order) else data.take(order)).to_pandas()
    except Unmapped:
        return None


def _in_order(order: pa.Array) -> bool:
    """Whether ``order`` leaves every row where it is: a run writes each part's facts
    in the table's order, and taking them all again cost 0.05 s over the corpus."""
    import numpy as np

    return bool((order.to_numpy() == np.arange(len(order))).all())


def _mapped(data: pa.Table) -> bool:
    """Whether every column of the part is one ``to_pandas`` types as ``from_records``
    does: no JSON column, no row lacking a key, only plain types, and integers with
    a gap small enough for a float64."""
    if (data.schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]") != b"[]":
        return False
    if ABSENT_COLUMN in data.schema.names and data.column(ABSENT_COLUMN).null_count != len(data):
        return False
    for field in data.schema:
        if field.name in (SOURCE_COLUMN, ABSENT_COLUMN):
            continue
        if not _plain(field.type):
            return False
        column = data.column(field.name)
        gaps = 0 < column.null_count < len(column)
        if field.type == pa.int64() and gaps and not _exact(column):
            return False
    return True


def _plain(kind: pa.DataType) -> bool:
    return (
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_null(kind)
        or kind in (pa.int64(), pa.float64(), pa.bool_())
    )


def _exact(column: pa.ChunkedArray) -> bool:
    """Whether every integer of ``column`` survives a float64."""
    import pyarrow.compute as pc

    low, high = (v.as_py() for v in pc.min_max(column).values())
    return low is None or (low >= -_EXACT_FLOAT and high <= _EXACT_FLOAT)


def _gaps_as_null(data: pa.Table) -> pa.Table:
    """Columns of nothing but gaps as Arrow ``null``: ``from_records`` makes them
    ``object`` columns of ``None`` whatever type the part gave them."""
    for i, field in enumerate(data.schema):
        column = data.column(i)
        if not pa.types.is_null(field.type) and column.null_count == len(column):
            data = data.set_column(i, pa.field(field.name, pa.null()), pa.nulls(len(column)))
    return data


def _check_keys(name: str, data: pa.Table) -> None:
    """Raise ``Unmapped`` for a sort key of floats or booleans: pandas puts ``NaN``
    first (``na_position``), where Arrow's sort keeps it apart from a null."""
    for key in SORT_KEYS[name]:
        if key in data.schema.names:
            kind = data.schema.field(key).type
            if not (
                pa.types.is_string(kind)
                or pa.types.is_large_string(kind)
                or pa.types.is_null(kind)
                or kind == pa.int64()
            ):
                raise Unmapped(f"a sort key {key!r} of {kind}")


# ------------------------------------------------------------- a table's cells


@dataclass(frozen=True, slots=True)
class CellChunks:
    """A table's cells as ``stored_tables.typed_chunks``' frames hold them: what
    ``df[columns].to_numpy(dtype=object)`` gives of each chunk, row by row."""

    columns: list[str]
    text: frozenset[str]
    """The columns of ``object`` dtype over the whole table (the page's text columns)."""
    chunks: Iterable[list[tuple[Any, ...]]]
    """Each chunk's rows in the table's order, a tuple of cells a row."""


def cell_chunks(name: str, read: Callable[[], Iterator[Columns]]) -> CellChunks | None:
    """Table ``name``'s cells from its parts' columns (``read()`` gives them, in order,
    each time it is called), without a frame per part: ``typed_chunks`` read every
    part's rows back as dicts twice and typed a frame of them, most of the page's
    games section (0.4 s of 0.6 s over the shared corpus).

    The first pass is ``column_plan.ColumnPlan``'s (the columns, their order, the value
    types each holds over the whole table); the dtype pandas gives each column is
    read off a frame of a few sample rows made from those types, typed by
    ``tables._frame`` as the chunks are; the second pass takes each chunk's columns
    in the table's order, a ``float64`` column's cells as floats (``NaN`` for a gap).
    A gap elsewhere stays ``None`` (pandas' ``NaN`` or ``NA`` there; the page writes
    every gap alike).  ``None`` where ``ColumnPlan`` leaves the table to pandas (a mix of
    kinds, integers past 64 bits ...), where a ``file`` cell has a gap (its anchor is
    made from its text), or where the table has no rows."""
    plan = ColumnPlan(name)
    held: HeldChunks[Columns] = HeldChunks(HELD_CELLS)
    rows = 0
    for chunk in read():
        if chunk.n:
            plan.add(chunk)
            held.add(chunk, chunk.n * len(chunk.names))
            rows += chunk.n
    kinds = plan.kinds(name)
    file = plan.classes.get("file")
    if kinds is None or rows == 0 or file is None or file.missing or _NONE in file.types:
        return None
    columns = plan.columns()
    dtypes = _dtypes(name, plan, columns)
    floats = [str(dtypes[c]) == "float64" for c in columns]
    text = frozenset(c for c in columns if str(dtypes[c]) == "object")
    return CellChunks(columns, text, _cells(name, columns, floats, held.again(read)))


def _dtypes(name: str, plan: ColumnPlan, columns: list[str]) -> dict[str, Any]:
    """Each column's dtype in ``typed_chunks``' frames: ``tables._frame`` of sample
    rows holding one value of each type the column holds, a ``None`` where it holds
    one and a row without the key where a row lacks it (pandas tells the two apart:
    a column of ``None`` is ``object``, with a missing key ``float64``), which is
    what pandas infers the whole table's dtype from (``stream.ColumnKinds``)."""
    samples: dict[str, list[Any]] = {}
    for c in columns:
        klass = plan.classes[c]
        values = [_SAMPLE[t] for t in _SAMPLE if t in klass.types]
        samples[c] = values + [_MISSING] * klass.missing
    n = max([1, *map(len, samples.values())])
    rows = [
        {c: v[i % len(v)] for c, v in samples.items() if v and v[i % len(v)] is not _MISSING}
        for i in range(n)
    ]
    frame = _frame(rows, TABLE_COLUMNS.get(name)).reindex(columns=columns)
    return dict(frame.dtypes.items())


_MISSING = object()
"""A sample row without the key."""
_NONE = type(None)
_SAMPLE: dict[type, Any] = {_NONE: None, str: "", bool: False, int: 0, float: 0.5}
"""A value of each type ``ColumnPlan`` lets through, as a sample of it."""


def _cells(
    name: str, columns: list[str], floats: list[bool], chunks: Iterable[Columns]
) -> Iterator[list[tuple[Any, ...]]]:
    """``cell_chunks``' second pass: each chunk's rows, sorted as ``sort_table`` sorts."""
    nan = float("nan")
    for chunk in chunks:
        if chunk.n == 0:
            continue
        values = chunk_columns(name, chunk, columns)
        order = row_order(name, dict(zip(columns, values, strict=True)), chunk.n)
        for j, is_float in enumerate(floats):
            if is_float:
                values[j] = [nan if v is None else float(v) for v in values[j]]
        rows = list(zip(*values, strict=True))
        yield rows if order is None else list(map(rows.__getitem__, order))
