"""A stored table's CSV written from its columns, the bytes pandas would write.

``AuditReport`` writes CSV through pandas: ``report.tables.table_frame`` types the
rows (``Int64`` for the integer columns, ``float64`` where an integer column of
another kind has a gap, text as text), sorts them, and ``DataFrame.to_csv`` hands
each row to the ``csv`` module.  For the columns a report really holds (text,
integers, floats, booleans and gaps, one kind a column) the result depends on
little: how each column renders a cell, and the row order.  ``write_table_csv``
finds that in a first pass over the stored columns (``ColumnClass``: the Python
types each column holds, its gaps, its integer range) and writes the rows through
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
from typing import Any, Generic, TypeVar

from replay_audit.native import _core
from replay_audit.report.codec import Columns
from replay_audit.report.tables import (
    DERIVED_HAND_COLUMNS,
    INT_COLUMNS,
    SORT_KEYS,
    TABLE_COLUMNS,
    add_derived_columns,
)

_INT64 = (-(2**63), 2**63 - 1)
_EXACT_FLOAT = 2**53
"""Integers up to this size survive a float64: pandas makes an integer column with a
gap float64 first (an ``Int64`` one too, converted back after), so past this size the
number it writes is not the one stored."""
_NONE = type(None)


def _quotes_cr() -> bool:
    """Whether this Python's ``csv`` writer quotes a field holding ``\\r`` when the line
    ends in ``\\n`` (3.11's does not): the core quotes as the running ``csv`` does."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(["a\rb", "c"])
    return out.getvalue().startswith('"')


_QUOTE_CR = _quotes_cr()

# how a column renders a cell (what pandas' dtype for it writes)
NULL = "null"  # nothing but gaps: every cell empty
PLAIN = "plain"  # str, bool, Int64 or int64: the value itself, a gap empty
FLOAT = "float"  # float64: repr of the float (integers too, ``12.0``), NaN and gaps empty
HELD_CELLS = 2_000_000
"""The cells (over all chunks) of a table whose chunks the first pass keeps for the
second, instead of reading its parts again (reading them was the larger part of the
writer's time; the corpus's hands table of 2,770 files holds 0.82 million); a larger
table is read twice, so the memory held stays bounded whatever the run's size."""
_KIND_NUMBER = {NULL: 0, PLAIN: 1, FLOAT: 2}
"""The renderings as ``_core.csv_rows`` numbers them."""


_Chunk = TypeVar("_Chunk")


class HeldChunks(Generic[_Chunk]):
    """A table's chunks as a first pass meets them, kept for the second pass while
    they hold at most ``limit`` cells in all (``HELD_CELLS``, passed by each writer
    from its own module so a test can lower it there); past that none are kept and
    the second pass makes them again: the memory held stays bounded whatever the
    run's size.  The stored CSV, JSON and Parquet writers share it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.chunks: list[_Chunk] | None = []
        self.cells = 0

    def add(self, chunk: _Chunk, cells: int) -> None:
        """Keep ``chunk`` (of ``cells`` cells) if the table still fits."""
        if self.chunks is None:
            return
        self.cells += cells
        if self.cells <= self.limit:
            self.chunks.append(chunk)
        else:
            self.chunks = None

    def again(self, make: Callable[[], Iterable[_Chunk]]) -> Iterable[_Chunk]:
        """The chunks for the second pass: those kept, else ``make()``'s."""
        return make() if self.chunks is None else self.chunks


_TYPE_BITS = ((1, _NONE), (2, bool), (4, int), (8, float), (16, str))
"""The value types as ``_core.column_class`` numbers them."""


def column_class_python(values: list[Any]) -> tuple[set[type], int, int]:
    """The value types of a list and its ints' least and greatest (0, 0 without an
    int): the reference ``_core.column_class`` is held to."""
    types = set(map(type, values))
    if int not in types:
        return types, 0, 0
    ints = [v for v in values if type(v) is int] if len(types) > 1 else values
    return types, min(ints), max(ints)


class ColumnClass:
    """What one column holds over a whole table: its value types, gaps, integer range."""

    __slots__ = ("high", "low", "missing", "types")

    def __init__(self) -> None:
        self.types: set[type] = set()
        self.missing = False
        """Some row lacks the key (pandas fills a gap; for rendering, as ``None``)."""
        self.low = 0
        self.high = 0

    def add(self, values: list[Any]) -> None:
        if _core is not None and (got := _core.column_class(values)) is not None:
            bits, low, high = got  # the same, learnt in one call (``column_class_python``)
            types = {t for b, t in _TYPE_BITS if bits & b}
        else:
            types, low, high = column_class_python(values)
        if int in types:
            if int not in self.types:
                self.low, self.high = low, high
            else:
                self.low, self.high = min(self.low, low), max(self.high, high)
        self.types |= types

    def kind(self, int_column: bool) -> str | None:
        """How the column renders (``NULL``, ``PLAIN``, ``FLOAT``), or ``None`` when
        only pandas can say (a mix of kinds this writer does not render)."""
        types = self.types - {_NONE}
        gaps = self.missing or _NONE in self.types
        has_int = int in types
        if has_int and not (_INT64[0] <= self.low and self.high <= _INT64[1]):
            return None
        if not types:
            return NULL
        if types == {str} or types == {bool}:
            return None if int_column else PLAIN
        if types == {int}:
            if not gaps:
                return PLAIN
            if not self._exact():  # pandas passes a gappy column through float64
                return None
            return PLAIN if int_column else FLOAT
        if types <= {int, float}:
            return None if int_column or not self._exact() else FLOAT
        return None

    def _exact(self) -> bool:
        return int not in self.types or (self.low >= -_EXACT_FLOAT and self.high <= _EXACT_FLOAT)


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


class _Plan:
    """The first pass over a table: its columns, in order, and how each renders."""

    def __init__(self, name: str) -> None:
        self.fixed = list(TABLE_COLUMNS[name])
        self.fixed_set = set(self.fixed)
        self.classes: dict[str, ColumnClass] = {c: ColumnClass() for c in self.fixed}
        self.extra: list[str] = []
        self.chunk_names: list[set[str]] = []

    def add(self, cols: Columns) -> None:
        if cols.n == 0:
            return
        names = set(cols.names)
        self.chunk_names.append(names)
        classes = self.classes
        for c in cols.names:
            klass = classes.get(c)
            if klass is None:
                klass = classes[c] = ColumnClass()
            klass.add(cols.values[c])
        extras = [c for c in cols.names if c not in self.fixed_set]
        absent = cols.absent
        if absent is not None:
            for skip in absent:
                if skip:
                    for c in skip:
                        classes[c].missing = True
        if extras:
            seen = set(self.extra)
            if absent is None:
                self.extra.extend(c for c in extras if c not in seen)
            else:  # first appearance row by row, as the rows read back give them
                for skip in absent:
                    for c in extras:
                        if c not in seen and (not skip or c not in skip):
                            seen.add(c)
                            self.extra.append(c)

    def columns(self) -> list[str]:
        return [*self.fixed, *self.extra]

    def kinds(self, name: str) -> dict[str, str] | None:
        """Each column's rendering, or ``None`` when pandas must write the table."""
        every = set(self.classes)
        for names in self.chunk_names:  # a chunk without a column: gaps there
            for c in every - names:
                self.classes[c].missing = True
        kinds: dict[str, str] = {}
        for c in self.columns():
            if name == "hands" and c in DERIVED_HAND_COLUMNS:
                kinds[c] = PLAIN  # derived from other columns, text or empty
                continue
            kind = self.classes[c].kind(c in self.fixed_set and c in INT_COLUMNS)
            if kind is None:
                return None
            kinds[c] = kind
        keys = [k for k in SORT_KEYS[name] if k in kinds]
        if name == "findings":
            keys.append("hand")
        if name == "hands":
            keys.extend(("rec_yaku", "comp_yaku", "rec_limit", "comp_limit"))
        for k in keys:  # sort keys and the sources of derived cells: text or integers
            types = self.classes[k].types - {_NONE}
            if not (types <= {str} or (types == {int} and k in INT_COLUMNS)):
                return None
        return kinds


def _sort_key(values: list[Any]) -> list[Any]:
    """pandas' ascending order with gaps first (``na_position="first"``).

    A column without a gap is its own key (the same order as tagging every value
    ``(True, v)``, without a tuple per cell: the sort keys of a stored table
    rarely have gaps, and the tuples were a tenth of the CSV writer's time)."""
    if None not in values:
        return values
    return [(False, 0) if v is None else (True, v) for v in values]


def _order(name: str, cols: dict[str, list[Any]], n: int) -> list[int] | None:
    """The rows' order under ``report.tables.sort_table`` (a stable sort)."""
    keys = [k for k in SORT_KEYS[name] if k in cols]
    if n == 0 or not keys:
        return None
    columns = [_sort_key(cols[k]) for k in keys]
    if name == "findings":
        hand, seq = cols["hand"], cols["seq"]
        unplaced = [(True, h is None and s is None) for h, s in zip(hand, seq, strict=True)]
        columns.insert(1, unplaced)
    rows = list(zip(*columns, strict=True))
    return sorted(range(n), key=rows.__getitem__)


def _chunk_columns(name: str, chunk: Columns, columns: list[str]) -> list[list[Any]]:
    """A chunk's cells, one list a CSV column (the hands' derived columns added)."""
    n = chunk.n
    cols = {c: chunk.values.get(c) or [None] * n for c in columns}
    if name == "hands":
        add_derived_columns(cols)
    return [v if type(v) is list else list(v) for v in (cols[c] for c in columns)]


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
        values = _chunk_columns(name, chunk, columns)
        order = _order(name, dict(zip(columns, values, strict=True)), chunk.n)
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
        values = _chunk_columns(name, chunk, columns)
        order = _order(name, dict(zip(columns, values, strict=True)), chunk.n)
        out.write(_core.csv_rows(values, numbers, order, _QUOTE_CR, "strict"))


def write_table_csv(path: Path, name: str, read: Callable[[], Iterator[Columns]]) -> bool:
    """Write table ``name`` to ``path`` from its chunks (``read()`` gives them, in
    order, each time it is called) as ``AuditReport`` writes it through pandas.

    Returns ``False``, having written nothing, when a column holds a mix only
    pandas can render; the caller then writes the table through pandas.
    """
    plan = _Plan(name)
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
