"""A stored table's CSV written from its columns, the bytes pandas would write.

``AuditReport`` writes CSV through pandas: ``report.tables.table_frame`` types the
rows (``Int64`` for the integer columns, ``float64`` where an integer column of
another kind has a gap, text as text), sorts them, and ``DataFrame.to_csv`` hands
each row to the ``csv`` module.  For the columns a report really holds (text,
integers, floats, booleans and gaps, one kind a column) the result depends on
little: how each column renders a cell, and the row order.  ``write_table_csv``
finds that in a first pass over the stored columns (``report.column_plan``, shared
with the JSON writer: the Python types each column holds, its gaps, its integer
range) and writes the rows through
the same ``csv`` writer in a second, without building a DataFrame, so a CSV-only
report never imports pandas.  A column of any other mix (``12`` next to ``"x"``, a
string in an integer column, an integer past 64 bits) makes it answer ``False``
before it writes anything: that table then goes through pandas as before.

With the compiled core, the second pass hands each chunk's columns, their
renderings and the rows' order to ``_core.csv_rows``, which formats the whole chunk
into one buffer (written in one call) the way the ``csv`` writer would: the writer
here stays the reference (``write_rows_python``), held equal to it by the tests.

Must not: decide a table's columns or order (``report.tables``), read a store
(``report.store``), or write any format but CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from replay_audit.native import _core
from replay_audit.report.codec import Columns
from replay_audit.report.column_plan import (
    FLOAT,
    NULL,
    PLAIN,
    ColumnPlan,
    HeldChunks,
    chunk_columns,
    row_order,
)


def _quotes_cr() -> bool:
    """Whether this Python's ``csv`` writer quotes a field holding ``\\r`` when the line
    ends in ``\\n`` (3.11's does not): the core quotes as the running ``csv`` does."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(["a\rb", "c"])
    return out.getvalue().startswith('"')


_QUOTE_CR = _quotes_cr()

HELD_CELLS = 2_000_000
"""The cells (over all chunks) of a table whose chunks the first pass keeps for the
second, instead of reading its parts again (reading them was the larger part of the
writer's time; the corpus's hands table of 2,770 files holds 0.82 million); a larger
table is read twice, so the memory held stays bounded whatever the run's size."""
_KIND_NUMBER = {NULL: 0, PLAIN: 1, FLOAT: 2}
"""The renderings as ``_core.csv_rows`` numbers them."""


def _float_cell(v: Any) -> Any:
    if v is None:
        return None
    f = float(v)
    return None if f != f else f


def _rendered(values: list[Any], kind: str) -> Iterable[Any]:
    """A column's cells as the ``csv`` writer takes them (``None`` writes empty)."""
    if kind == NULL:
        return [None] * len(values)
    if kind == FLOAT:
        return map(_float_cell, values)
    return values


def write_rows_python(
    out: Any, name: str, columns: list[str], kinds: dict[str, str], chunks: Iterable[Columns]
) -> None:
    """The chunks' rows (header first) written to the text file ``out`` through the
    ``csv`` module: the reference ``_core.csv_rows`` is held to."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for chunk in chunks:
        if chunk.n == 0:
            continue
        values = chunk_columns(name, chunk, columns)
        order = row_order(name, dict(zip(columns, values, strict=True)), chunk.n)
        rendered = [_rendered(v, kinds[c]) for c, v in zip(columns, values, strict=True)]
        rows: Iterable[tuple[Any, ...]] = zip(*rendered, strict=True)
        if order is not None:
            table = list(rows)
            rows = (table[i] for i in order)
        writer.writerows(rows)


def write_rows_core(
    out: Any, name: str, columns: list[str], kinds: dict[str, str], chunks: Iterable[Columns]
) -> None:
    """As ``write_rows_python``, to the binary file ``out``: each chunk formatted by
    ``_core.csv_rows`` into one buffer, written in one call."""
    assert _core is not None
    numbers = [_KIND_NUMBER[kinds[c]] for c in columns]
    out.write(_core.csv_rows([[c] for c in columns], [1] * len(columns), None, _QUOTE_CR, "strict"))
    for chunk in chunks:
        if chunk.n == 0:
            continue
        values = chunk_columns(name, chunk, columns)
        order = row_order(name, dict(zip(columns, values, strict=True)), chunk.n)
        out.write(_core.csv_rows(values, numbers, order, _QUOTE_CR, "strict"))


def write_table_csv(path: Path, name: str, read: Callable[[], Iterator[Columns]]) -> bool:
    """Write table ``name`` to ``path`` from its chunks (``read()`` gives them, in
    order, each time it is called) as ``AuditReport`` writes it through pandas.

    Returns ``False``, having written nothing, when a column holds a mix only
    pandas can render; the caller then writes the table through pandas.
    """
    plan = ColumnPlan(name)
    held: HeldChunks[Columns] = HeldChunks(HELD_CELLS)
    for chunk in read():
        plan.add(chunk)
        held.add(chunk, chunk.n * len(chunk.names))
    kinds = plan.kinds(name)
    if kinds is None:
        return False
    columns = plan.columns()
    chunks = held.again(read)
    if _core is not None:
        with open(path, "wb") as b:
            write_rows_core(b, name, columns, kinds, chunks)
    else:
        with open(path, "w", encoding="utf-8", newline="") as f:
            write_rows_python(f, name, columns, kinds, chunks)
    return True
