"""A stored table's JSON records written from its parts' columns: the text pandas gives.

A stored report wrote ``report.json`` and the ``.jsonl`` tables through pandas
(``stored_tables.typed_chunks``): each part read back as dicts twice, a frame built
per part with the whole table's dtypes (``stream.typed_frame``), then
``json.loads(df.to_json(orient="records"))`` laid out by ``stream.indented_records``.
Over the shared corpus that took 5 s of CPU where the CSV of the same rows, written
from the parts' columns (``report.csv_columns``), takes 0.5 s.

The text a cell gets there depends on its column's dtype over the whole table,
which is what ``column_plan.ColumnPlan`` already learns in a first pass (the value types,
gaps and integer range of each column; the columns' order; whether pandas alone
can type it), and on the cell itself:

* text, integers (``int64`` or ``Int64``) and booleans come back from ``to_json``
  and ``json.loads`` as they were: ``json.dumps``' text of the value, a gap
  ``null`` (``column_plan.PLAIN``);
* a ``float64`` column (floats, or integers with a gap outside ``INT_COLUMNS``:
  ``column_plan.FLOAT``) is written by pandas' encoder with ``double_precision=10``,
  read back by ``json.loads`` and written by ``float.__repr__``.  ``float_text``
  does the encoder's fixed-point rounding (the whole part, then ten decimals
  rounded from ``(value - whole) * 1e10`` in double arithmetic, trailing zeros
  dropped) and ``repr`` of what ``json.loads`` reads; NaN and the infinities are
  ``null``.  Where the encoder switches to ``printf``'s ``%.10g`` (magnitudes past
  ``1e16`` or below ``1e-15``) this module does not reproduce it and declines;
* the hand columns derived from others and the rows' order are
  ``column_plan``'s (``tables.add_derived_columns``, ``tables.sort_table``'s order).

Where pandas alone can say (``ColumnPlan.kinds`` is ``None``: a mix of kinds, text in an
integer column, integers past 64 bits or, with a gap, past ``2**53``; or a float in
the exponential range), ``table_records`` returns ``None`` before anything is
written and the caller writes that table through pandas, which stays the reference
the tests hold this path to (``tests/test_json_columns.py``), as does an empty table
(its records are ``[]`` either way).

Must not: decide a table's columns or order (``report.tables``), read a store
(``report.store``), or lay out anything but a table's records (``report.stream``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from replay_audit.report.codec import Columns
from replay_audit.report.column_plan import (
    FLOAT,
    NULL,
    ColumnPlan,
    HeldChunks,
    chunk_columns,
    row_order,
)
from replay_audit.report.csv_columns import HELD_CELLS
from replay_audit.report.stream import _column_texts, record_template

DOUBLE_PRECISION = 10
"""``DataFrame.to_json``'s default ``double_precision``: the decimals a float keeps."""
_FIXED_MAX = 1e16 - 1  # (as a double: 1e16)
_FIXED_MIN = 1e-15
"""The magnitudes between which pandas' encoder writes a float in fixed point (past
them it calls ``printf("%.10g")``, which ``float_text`` declines)."""
_POW10 = 10.0**DOUBLE_PRECISION


def encoder_text(value: float) -> str | None:
    """The text pandas' JSON encoder writes for a finite float, or ``None`` where it
    would write it in exponent form (not reproduced here).

    The fixed-point branch of its ``double_precision`` formatting: the integer part,
    then the decimals as the integer nearest ``(value - whole) * 10**10`` computed in
    doubles (above one half up; exactly one half up when the digit is odd or zero),
    rolled over into the whole part at ``10**10``, trailing zeros dropped, ``.0``
    when none are left; a minus sign for a negative value (so ``-1e-12`` is ``-0.0``
    and ``-0.0`` is ``0.0``).

    >>> encoder_text(0.1 + 0.2), encoder_text(2 / 3), encoder_text(12.0), encoder_text(1e17)
    ('0.3', '0.6666666667', '12.0', None)
    """
    if not math.isfinite(value) or not _fixed(value):
        return None
    neg = value < 0
    magnitude = -value if neg else value
    whole = int(magnitude)
    scaled = (magnitude - whole) * _POW10
    frac = int(scaled)
    diff = scaled - frac
    if diff > 0.5 or (diff == 0.5 and (frac == 0 or frac & 1)):
        frac += 1
    if frac >= _POW10:
        frac = 0
        whole += 1
    decimals = f"{frac:0{DOUBLE_PRECISION}d}".rstrip("0") if frac else "0"
    return f"{'-' if neg else ''}{whole}.{decimals}"


def float_text(value: float | int) -> str | None:
    """``float.__repr__`` of what ``json.loads`` reads from ``encoder_text`` of a
    ``float64`` cell: the text ``report.json`` holds for it (``null`` for NaN and the
    infinities, which pandas writes as ``null``); ``None`` where ``encoder_text``
    declines.

    >>> float_text(0.1 + 0.2), float_text(1e16), float_text(-1e-12), float_text(math.inf)
    ('0.3', '1e+16', '-0.0', 'null')
    """
    value = float(value)
    if not math.isfinite(value):
        return "null"
    text = encoder_text(value)
    return None if text is None else float.__repr__(float(text))


def _fixed(value: float) -> bool:
    """Whether pandas' encoder writes this float in fixed point (or, non-finite, as
    ``null``): where ``encoder_text`` answers."""
    magnitude = abs(value)
    return magnitude == 0.0 or _FIXED_MIN <= magnitude <= _FIXED_MAX or not math.isfinite(value)


def _in_fixed_range(values: list[Any]) -> bool:
    """Whether every float of ``values`` is written in fixed point (or as ``null``)."""
    return all(_fixed(v) for v in values if type(v) is float)


def _float_texts(values: list[Any]) -> list[str]:
    """``float_text`` of each cell of a ``float64`` column (``null`` for a gap), once
    per distinct value."""
    texts: dict[Any, str] = {}
    for v in dict.fromkeys(values):  # (the same NaN object finds itself again)
        text = "null" if v is None else float_text(v)
        assert text is not None  # (``_in_fixed_range`` held the table to it)
        texts[v] = text
    return list(map(texts.__getitem__, values))


def column_texts(values: list[Any], kind: str) -> list[str]:
    """The JSON text of each cell of a column rendered ``kind`` (``csv_columns``'
    renderings): ``null``s, ``float_text``s, or ``json.dumps``' text of each value."""
    if kind == NULL:
        return ["null"] * len(values)
    if kind == FLOAT:
        return _float_texts(values)
    return _column_texts(tuple(values), 0)  # (scalars only: the level is unused)


@dataclass(frozen=True, slots=True)
class _Table:
    """A table planned for writing: its columns, how each renders, its chunks."""

    name: str
    columns: list[str]
    kinds: dict[str, str]
    chunks: Iterable[Columns]


def plan_table(name: str, read: Callable[[], Iterator[Columns]]) -> _Table | None:
    """The first pass over table ``name``'s chunks (``read()`` gives them, in order,
    each time it is called): ``column_plan.ColumnPlan``, and every float checked to be in
    the fixed-point range.  The chunks are kept for the second pass up to
    ``HELD_CELLS`` cells, else read again.  ``None`` where pandas must write the
    table, or where it has no rows."""
    plan = ColumnPlan(name)
    held: HeldChunks[Columns] = HeldChunks(HELD_CELLS)
    rows = 0
    for chunk in read():
        if chunk.n == 0:  # (``ColumnPlan.add`` skips it too)
            continue
        plan.add(chunk)
        rows += chunk.n
        for c in chunk.names:  # (a column with a float so far: only those are looked at)
            if float in plan.classes[c].types and not _in_fixed_range(chunk.values[c]):
                return None
        held.add(chunk, chunk.n * len(chunk.names))
    kinds = plan.kinds(name)
    if kinds is None or rows == 0:
        return None
    return _Table(name, plan.columns(), kinds, held.again(read))


def record_texts(table: _Table, level: int | None) -> Iterator[list[str]]:
    """Each chunk's records, in the table's order, as ``json.dumps`` lays them out:
    ``level`` deep in an indented document (``stream.indented_records``), or on one
    line (``level`` ``None``: ``json.dumps(record)``)."""
    template = record_template(table.columns, level)
    for chunk in table.chunks:
        if chunk.n == 0:
            continue
        values = chunk_columns(table.name, chunk, table.columns)
        order = row_order(table.name, dict(zip(table.columns, values, strict=True)), chunk.n)
        texts = [
            column_texts(v, table.kinds[c]) for c, v in zip(table.columns, values, strict=True)
        ]
        rows = list(zip(*texts, strict=True))
        if order is not None:
            rows = list(map(rows.__getitem__, order))
        yield list(map(template.__mod__, rows))


def table_records(
    name: str, read: Callable[[], Iterator[Columns]], level: int | None
) -> Iterator[list[str]] | None:
    """Table ``name``'s records from its chunks (``record_texts``), or ``None``,
    having read only the first pass, where pandas must write the table
    (``plan_table``)."""
    table = plan_table(name, read)
    return None if table is None else record_texts(table, level)
