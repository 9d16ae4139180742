"""Report tables written one chunk at a time, equal to the whole-table writers.

A stored run (``report.stored.StoredAuditReport``) holds its rows in Arrow parts and
must write ``report.json`` and the HTML page without loading a whole table, yet
produce the very bytes an in-memory report writes. Two things make that hold:

* **One layout.** ``write_json_texts`` is the only JSON document writer and
  ``record_template`` the only record layout: the in-memory report passes each
  table as one frame (``write_json``), a stored report part by part, its records
  made from the parts' columns where ``report.json_columns`` can, else from typed
  frames. The layout is ``json.dumps(doc, ensure_ascii=False, indent=1)``,
  assembled piece by piece (``.jsonl``: ``json.dumps(record)`` a line).
* **One dtype per column.** pandas infers a column's dtype from the values it
  sees, and ``DataFrame.to_json`` writes ``12`` for an ``int64`` column but
  ``12.0`` for a ``float64`` one; a part where a column is all integers would
  otherwise be written differently from the whole table, where another part's
  ``None`` made it float. ``ColumnKinds`` collects, in a first pass, one sample
  value per kind of value each column holds (about a dozen values a column at
  most); ``typed_frame`` builds a chunk from its rows plus those samples, so
  pandas infers the whole table's dtype, and drops the samples again.

Must not: decide a table's columns or order (``report.tables``) or read a store.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from json.encoder import encode_basestring  # (``ensure_ascii=False``'s string encoder, in C)
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replay_audit.report.tables import INT_COLUMNS, TABLE_COLUMNS, _frame, sort_table

if TYPE_CHECKING:
    import pandas as pd

_INT64 = (-(2**63), 2**63 - 1)
_MISSING = object()
"""Marks a sample "this key was absent from a row" (pandas fills those with NaN)."""


def _kind(value: Any, int_column: bool) -> tuple[Any, ...]:
    """What pandas' inference (and ``report._int_column``) can tell apart in a value.

    Type, plus the range of an integer (int64, uint64, larger, negative) and, in
    an integer column, whether the value converts to a 64-bit integer at all.
    """
    t = type(value)
    if t is int:
        if value < 0:
            klass = 1 if value >= _INT64[0] else 4
        else:
            klass = 0 if value <= _INT64[1] else (2 if value < 2**64 else 3)
        return (t, klass)
    if t is float:
        return (t, math.isnan(value), math.isinf(value))
    if int_column and t is str:
        try:
            return (t, _INT64[0] <= int(value) <= _INT64[1])
        except ValueError:
            return (t, False)
    return (t,)


class ColumnKinds:
    """Column order and one sample value per kind of value, over many chunks of rows.

    >>> kinds = ColumnKinds("games")
    >>> kinds.add([{"file": "a", "x": 1}])
    >>> kinds.add([{"file": "b", "x": None}])
    >>> typed_frame("games", [{"file": "a", "x": 1}], kinds)["x"].tolist()
    [1.0]
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.samples: dict[str, dict[tuple[Any, ...], Any]] = {
            c: {} for c in TABLE_COLUMNS.get(name, [])
        }
        self.rows = 0

    def add(self, rows: Iterable[dict[str, Any]]) -> None:
        """Note the kinds of the values of these rows (the next rows of the table).

        Column by column (``_add_kinds``): the rows are taken apart once
        (``codec.rows_columns``, by the compiled core where it can), each column's
        distinct values looked at once, not a Python call per cell (the first pass
        of ``report.json`` over the corpus's tables took about 1 s of CPU here a
        cell at a time).  ``add_row_by_row`` is the reference it is held to: the
        same columns in the same order, the same kinds, samples and gap marks,
        each in the order the rows show them.
        """
        from replay_audit.report.codec import rows_columns

        rows = rows if isinstance(rows, list) else list(rows)
        if not rows:
            return
        cols = rows_columns(rows)  # (names in the order the rows show them first)
        first_gap: dict[str, int] = {}
        for i, skip in enumerate(cols.absent or ()):
            for c in skip or ():
                first_gap.setdefault(c, i)
        before = self.rows
        self.rows += cols.n
        samples = self.samples
        for c in cols.names:
            kinds = samples.get(c)
            if kinds is None:
                kinds = samples[c] = {}
                if before:  # the rows before did not have this key
                    kinds[("missing",)] = _MISSING
            gap = first_gap.get(c)
            values = cols.values[c]
            if gap is None:
                _add_kinds(kinds, values, c in INT_COLUMNS)
                continue
            assert cols.absent is not None  # (a gap is a row that lacks the key)
            _add_kinds(kinds, values[:gap], c in INT_COLUMNS)
            kinds.setdefault(("missing",), _MISSING)
            rest = [
                v
                for v, skip in zip(values[gap:], cols.absent[gap:], strict=True)
                if not (skip and c in skip)
            ]
            _add_kinds(kinds, rest, c in INT_COLUMNS)
        names = set(cols.names)
        for c, kinds in samples.items():
            if c not in names:
                kinds.setdefault(("missing",), _MISSING)

    def add_row_by_row(self, rows: Iterable[dict[str, Any]]) -> None:
        """``add``, a cell at a time: the reference ``add`` is held to."""
        samples = self.samples
        for row in rows:
            self.rows += 1
            for key, value in row.items():
                kinds = samples.get(key)
                if kinds is None:
                    kinds = samples[key] = {}
                    if self.rows > 1:  # the rows before did not have this key
                        kinds[("missing",)] = _MISSING
                kind = _kind(value, key in INT_COLUMNS)
                if kind not in kinds:
                    kinds[kind] = value
            if len(row) < len(samples):
                for key, kinds in samples.items():
                    if key not in row and ("missing",) not in kinds:
                        kinds[("missing",)] = _MISSING

    @property
    def columns(self) -> list[str]:
        """Fixed columns first, then the others in order of first appearance (as in memory)."""
        return list(self.samples)

    def sample_rows(self) -> list[dict[str, Any]]:
        """Rows holding every sample of every column (and no kind that was not seen)."""
        values = {c: list(k.values()) for c, k in self.samples.items() if k}
        n = max((len(v) for v in values.values()), default=0)
        return [
            {c: v[i % len(v)] for c, v in values.items() if v[i % len(v)] is not _MISSING}
            for i in range(n)
        ]


def _add_kinds(kinds: dict[tuple[Any, ...], Any], values: list[Any], int_column: bool) -> None:
    """The kinds of ``values`` not yet in ``kinds``, each with its first value, in the
    order the values show them: ``_kind`` of each distinct value (type and value:
    ``1``, ``1.0`` and ``True`` are three) in the order it first appears, which is
    the order a cell-by-cell pass meets the kinds, and their first values."""
    try:
        distinct: Iterable[tuple[type, Any]] = dict.fromkeys(
            zip(map(type, values), values, strict=True)
        )
    except TypeError:  # an unhashable value (a list): every value
        distinct = zip(map(type, values), values, strict=True)
    for _, value in distinct:
        kind = _kind(value, int_column)
        if kind not in kinds:
            kinds[kind] = value


def typed_frame(name: str, rows: list[dict[str, Any]], kinds: ColumnKinds) -> pd.DataFrame:
    """Table ``name`` of these rows, each column of the dtype the whole table has.

    The samples go through pandas with the rows and are cut off before sorting,
    so every conversion (``None`` to ``NaN``, ints to floats, ``Int64``) is
    pandas' own, as in ``report.table_frame`` over every row of the run.
    """
    n = len(rows)
    df = _frame([*rows, *kinds.sample_rows()], TABLE_COLUMNS.get(name))
    df = df.iloc[:n].reindex(columns=kinds.columns).reset_index(drop=True)
    return sort_table(name, df)


# ------------------------------------------------------------------------- JSON


def _nested(value: Any, level: int) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` lays it out ``level`` deep in a document.

    Raw newlines in ``json.dumps`` output are structural only (newlines inside
    strings are escaped), so indenting each line places it exactly.
    """
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * level)


def _value_text(value: Any, level: int) -> str:
    """``_nested(value, level)`` of one value of ``json.loads``' kinds: scalars as the
    encoder writes them (floats by ``repr``, non-finite ones as ``NaN`` and
    ``Infinity``), a list or dict through ``_nested``."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if value != value:
            return "NaN"
        if value in (math.inf, -math.inf):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    return _nested(value, level)


_NONE = type(None)


def _column_texts(values: tuple[Any, ...], level: int) -> list[str]:
    """``_value_text`` of each value of one column.  A column of text, integers or
    finite floats, with or without gaps (most columns of a report), is written by
    one C function a value; any other mix a value at a time."""
    kinds = set(map(type, values))
    gaps = _NONE in kinds
    kinds.discard(_NONE)
    if not kinds:
        return ["null"] * len(values)
    text = _PLAIN_TEXT.get(kinds.pop()) if len(kinds) == 1 else None
    if text is float.__repr__ and not all(
        map(math.isfinite, (v for v in values if v is not None) if gaps else values)
    ):
        text = None  # NaN and the infinities have their own words
    if text is None:
        return [_value_text(v, level) for v in values]
    if not gaps:
        return list(map(text, values))
    return ["null" if v is None else text(v) for v in values]


_PLAIN_TEXT: dict[type, Any] = {str: encode_basestring, int: int.__repr__, float: float.__repr__}
"""How ``json.dumps`` writes a value of these types (floats when finite)."""


def record_template(keys: Iterable[str], level: int | None) -> str:
    """A record of these keys as ``json.dumps(record, ensure_ascii=False, ...)`` lays it
    out, a ``%s`` for each value's text: ``indent=1`` ``level`` deep in a document, or
    on one line (``level`` ``None``, the default separators ``", "`` and ``": "``).

    >>> record_template(["a", "b"], None) % ("1", "null")
    '{"a": 1, "b": null}'
    >>> record_template(["a"], 0) % ("true",)
    '{\\n "a": true\\n}'
    """
    names = [encode_basestring(k).replace("%", "%%") + ": %s" for k in keys]
    if level is None:
        return "{" + ", ".join(names) + "}"
    if not names:
        return "{}"
    inner = "\n" + " " * (level + 1)
    return "{" + ",".join(inner + n for n in names) + "\n" + " " * level + "}"


def indented_records(records: list[dict[str, Any]], level: int) -> list[str]:
    """``[_nested(record, level) for record in records]``, the same text, made
    column by column.

    Why: ``json.dumps`` with an indent runs the encoder's pure-Python path, a few
    function calls per value; a table's records take most of ``report.json``'s
    writing time that way (about 2 s of CPU for the 33,600 records of the
    corpus's CSV tables).  The records of one ``DataFrame.to_json`` have the same
    keys in the same order, so each record is one ``%`` of a template holding
    the keys and the layout, filled with its values' texts, each column's texts
    made in one pass.  Records whose keys differ go through ``_nested``.
    """
    if not records:
        return []
    keys = tuple(records[0])
    if not keys or any(tuple(r) != keys for r in records):
        return [_nested(r, level) for r in records]
    template = record_template(keys, level)
    columns = zip(*map(dict.values, records), strict=True)
    texts = [_column_texts(column, level + 1) for column in columns]
    return list(map(template.__mod__, zip(*texts, strict=True)))


def json_records(chunks: Iterable[pd.DataFrame]) -> Iterator[dict[str, Any]]:
    """Rows as ``json.loads(df.to_json(orient="records"))`` gives them, chunk by chunk."""
    for df in chunks:
        yield from json.loads(df.to_json(orient="records", force_ascii=False))


def frame_record_texts(chunks: Iterable[pd.DataFrame], level: int) -> Iterator[list[str]]:
    """Each chunk's records as ``df.to_json(orient="records")`` gives them, laid out
    ``level`` deep (``indented_records``): the pandas path of ``write_json``."""
    for df in chunks:
        yield indented_records(json.loads(df.to_json(orient="records", force_ascii=False)), level)


def write_json(
    path: Path, summary: dict[str, Any], tables: Iterable[tuple[str, Iterable[pd.DataFrame]]]
) -> Path:
    """``{"summary": ..., <table>: [records], ...}`` written as it is produced.

    The bytes equal ``json.dumps(doc, ensure_ascii=False, indent=1)`` of the whole
    document, but only one chunk of one table is held at a time.
    """
    texts = ((name, frame_record_texts(chunks, 2)) for name, chunks in tables)
    return write_json_texts(path, summary, texts)


def write_json_texts(
    path: Path, summary: dict[str, Any], tables: Iterable[tuple[str, Iterable[list[str]]]]
) -> Path:
    """``write_json``'s document from each table's records already laid out two
    deep, chunk by chunk (``frame_record_texts``, or ``report.json_columns`` from a
    stored run's columns)."""
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write('{\n "summary": ' + _nested(summary, 1))
        for name, chunks in tables:
            out.write(",\n " + json.dumps(name, ensure_ascii=False) + ": [")
            first = True
            for texts in chunks:
                if not texts:
                    continue
                out.write(("\n  " if first else ",\n  ") + ",\n  ".join(texts))
                first = False
            out.write("]" if first else "\n ]")
        out.write("\n}")
    return path


def write_jsonl(path: Path, chunks: Iterable[pd.DataFrame]) -> Path:
    """One record per line, ``json.dumps(record, ensure_ascii=False)``: the records
    ``write_json`` puts in the document's table, one chunk held at a time."""
    return write_jsonl_texts(path, frame_line_texts(chunks))


def frame_line_texts(chunks: Iterable[pd.DataFrame]) -> Iterator[list[str]]:
    """Each chunk's records (``json_records``) as ``json.dumps(record)`` writes them
    on one line: the pandas path of ``write_jsonl``."""
    for df in chunks:
        yield [json.dumps(record, ensure_ascii=False) for record in json_records([df])]


def write_jsonl_texts(path: Path, chunks: Iterable[list[str]]) -> Path:
    """``write_jsonl``'s file from the records already laid out on one line, chunk
    by chunk (``report.json_columns``)."""
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for texts in chunks:
            if texts:
                out.write("\n".join(texts) + "\n")
    return path
