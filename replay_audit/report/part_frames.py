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

Must not: read a store (``report.store``) or decide a table's order
(``report.tables``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa

from replay_audit.report.codec import ABSENT_COLUMN, JSON_COLUMNS_KEY, SOURCE_COLUMN
from replay_audit.report.parquet_columns import PartChunk, Unmapped, arrow_order, chunk_rows
from replay_audit.report.tables import SORT_KEYS, TABLE_COLUMNS

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
        return data.take(arrow_order(name, data, sources)).to_pandas()
    except Unmapped:
        return None


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
