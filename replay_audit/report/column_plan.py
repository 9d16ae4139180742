"""A stored table's columns planned over the whole table: the first pass that the
stored CSV and JSON writers share (``report.csv_columns``, ``report.json_columns``).

Each writer renders a column by what it holds over the whole table (pandas types a
column by all its values: an integer column with a gap becomes ``float64``, a column
of text and numbers is written as objects), so before writing anything it goes once
over the table's chunks: ``ColumnPlan`` learns the columns in order (the table's own,
then any extra key as the rows first show it) and each column's ``ColumnClass`` (its
value types, gaps and integer range); ``ColumnPlan.kinds`` then says how each column
renders (``NULL``, ``PLAIN``, ``FLOAT``), or that only pandas can say.  The rows'
order (``row_order``, ``report.tables.sort_table``'s) and a chunk's cells
(``chunk_columns``, the hands' derived columns added) are the same for both writers.
``HeldChunks`` keeps the first pass's chunks for the second where they fit.

Must not: render a cell in a format (each writer does), read a store (``report.store``)
or decide a table's columns (``report.tables``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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

# how a column renders a cell (what pandas' dtype for it writes)
NULL = "null"  # nothing but gaps: every cell empty
PLAIN = "plain"  # str, bool, Int64 or int64: the value itself, a gap empty
FLOAT = "float"  # float64: repr of the float (integers too, ``12.0``), NaN and gaps empty


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


class ColumnPlan:
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


def sort_key(values: list[Any]) -> list[Any]:
    """pandas' ascending order with gaps first (``na_position="first"``).

    A column without a gap is its own key (the same order as tagging every value
    ``(True, v)``, without a tuple per cell: the sort keys of a stored table
    rarely have gaps, and the tuples were a tenth of the CSV writer's time)."""
    if None not in values:
        return values
    return [(False, 0) if v is None else (True, v) for v in values]


def row_order(name: str, cols: dict[str, list[Any]], n: int) -> list[int] | None:
    """The rows' order under ``report.tables.sort_table`` (a stable sort)."""
    keys = [k for k in SORT_KEYS[name] if k in cols]
    if n == 0 or not keys:
        return None
    columns = [sort_key(cols[k]) for k in keys]
    if name == "findings":
        hand, seq = cols["hand"], cols["seq"]
        unplaced = [(True, h is None and s is None) for h, s in zip(hand, seq, strict=True)]
        columns.insert(1, unplaced)
    rows = list(zip(*columns, strict=True))
    return sorted(range(n), key=rows.__getitem__)


def chunk_columns(name: str, chunk: Columns, columns: list[str]) -> list[list[Any]]:
    """A chunk's cells, one list a CSV column (the hands' derived columns added)."""
    n = chunk.n
    cols = {c: chunk.values.get(c) or [None] * n for c in columns}
    if name == "hands":
        add_derived_columns(cols)
    return [v if type(v) is list else list(v) for v in (cols[c] for c in columns)]
