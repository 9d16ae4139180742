"""The on-disk store of a report: Parquet parts per table and the append-only index.

Owns the layout under a report folder (``parts/<table>/part-<run>-<n>.parquet`` and
``parts/index.jsonl``), the row codec that makes rows read back exactly as written
(``rows_to_table`` / ``table_to_rows``), one file's index line (``IndexEntry``) and
the running totals (``Tally``).  The runner writes through it and
``StoredAuditReport`` reads through it.

Must not: audit, plan a run, or decide what is reused (``run.plan`` does).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq

from replay_audit.auditing.rows import SCHEMA_VERSION
from replay_audit.report.tables import TABLES

_T = TypeVar("_T")

ROW_TABLES = TABLES[1:]
"""The row tables of a ``FileAudit`` that go to Parquet parts; each part also has a
``files`` table of one ``file_row()`` per file (the index keeps totals only)."""

PARTS_DIR = "parts"
INDEX_NAME = "index.jsonl"
SOURCE_COLUMN = "__source__"
"""Extra column of every part: the input path the row came from (dropped on load)."""
ABSENT_COLUMN = "__absent__"
"""Extra column: per row, the keys its dict did not have (so rows round-trip exactly)."""
_JSON_COLUMNS_KEY = b"replay_audit.json_columns"
_NATIVE_TYPES: dict[type, pa.DataType] = {
    bool: pa.bool_(),
    int: pa.int64(),
    float: pa.float64(),
    str: pa.string(),
}


# --------------------------------------------------------------------- row codec


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
    columns: dict[str, None] = {}
    for row in rows:
        for key in row:
            columns.setdefault(key)
    if ABSENT_COLUMN in columns:
        raise ValueError(f"rows may not use the reserved column name {ABSENT_COLUMN!r}")
    if sources is not None and len(sources) == len(rows) == 0:
        sources = None  # no rows: no column, as when no row had the key
    if sources is not None:
        if SOURCE_COLUMN in columns:
            raise ValueError(f"rows with sources may not use the column name {SOURCE_COLUMN!r}")
        if len(sources) != len(rows):
            raise ValueError("one source per row")
        columns = {SOURCE_COLUMN: None, **columns}
    absent: list[list[str] | None] = [None] * len(rows)
    arrays: list[pa.Array] = []
    json_columns: list[str] = []
    n_keys = len(columns) - (sources is not None)
    every_key = all(len(row) == n_keys for row in rows)  # the usual case: fast path
    for name in columns:
        values: list[Any]
        if sources is not None and name == SOURCE_COLUMN:
            values = list(sources)
        elif every_key:
            values = [row[name] for row in rows]
        else:
            values = []
            for i, row in enumerate(rows):
                if name in row:
                    values.append(row[name])
                else:
                    values.append(None)
                    missing = absent[i]
                    if missing is None:
                        absent[i] = [name]
                    else:
                        missing.append(name)
        types = set(map(type, values))
        types.discard(type(None))
        array: pa.Array | None = None
        if not types:
            array = pa.nulls(len(values))
        elif len(types) == 1 and (kind := next(iter(types))) in _NATIVE_TYPES:
            try:
                array = pa.array(values, type=_NATIVE_TYPES[kind])
            except (pa.ArrowInvalid, OverflowError):  # an int beyond 64 bits
                array = None
        if array is None:
            json_columns.append(name)
            array = pa.array(
                [None if v is None else _to_json(v, name) for v in values], type=pa.string()
            )
        arrays.append(array)
    names = list(columns)
    if any(a is not None for a in absent) or (rows and not names):
        # (also when rows have no keys at all: the column then carries the row count)
        arrays.append(pa.array(absent, type=pa.list_(pa.string())))
        names.append(ABSENT_COLUMN)
    table = pa.Table.from_arrays(arrays, names=names) if names else pa.table({})
    return table.replace_schema_metadata(
        {
            _JSON_COLUMNS_KEY: json.dumps(json_columns).encode(),
            b"replay_audit.schema_version": str(SCHEMA_VERSION).encode(),
        }
    )


def table_to_rows(table: pa.Table) -> list[dict[str, Any]]:
    """The rows ``rows_to_table`` stored, with the same keys, values and types."""
    meta = table.schema.metadata or {}
    json_columns = set(json.loads(meta.get(_JSON_COLUMNS_KEY, b"[]")))
    cols: dict[str, list[Any]] = {}
    for name in table.column_names:
        values = table.column(name).to_pylist()
        if name in json_columns:
            values = [None if v is None else _from_json(v) for v in values]
        cols[name] = values
    absent = cols.pop(ABSENT_COLUMN, None)
    names = list(cols)
    rows: list[dict[str, Any]] = []
    for i in range(table.num_rows):
        skip = absent[i] if absent is not None else None
        if skip:
            rows.append({n: cols[n][i] for n in names if n not in skip})
        else:
            rows.append({n: cols[n][i] for n in names})
    return rows


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


def _from_json(text: str) -> Any:
    def dec(v: Any) -> Any:
        if type(v) is list:
            return [dec(x) for x in v]
        if type(v) is dict:
            if set(v) == {"__tuple__"}:
                return tuple(dec(x) for x in v["__tuple__"])
            return {k: dec(x) for k, x in v.items()}
        return v

    return dec(json.loads(text))


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One file's index line, reduced to what a run needs after the file is done."""

    key: tuple[str | None, str, str, int, str | None]
    """(content sha256, rules name, rules fingerprint, schema, code): equal = reusable."""
    part: str | None
    status: str
    counts: tuple[int, int, int, int]
    """games, hands, results, findings."""
    categories: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, entry: dict[str, Any]) -> IndexEntry:
        row = entry.get("file_row") or {}
        i = sys.intern
        return cls(
            key=(
                entry.get("sha256"),
                i(str(entry.get("rules"))),
                i(str(entry.get("rules_fingerprint"))),
                int(entry.get("schema") or 0),
                i(entry["code"]) if isinstance(entry.get("code"), str) else None,
            ),
            part=i(entry["part"]) if isinstance(entry.get("part"), str) else None,
            status=i(str(row.get("status"))),
            counts=tuple(int(row.get(k) or 0) for k in ("games", "hands", "results", "findings")),  # type: ignore[arg-type]
            categories=tuple(sorted((entry.get("categories") or {}).items())),
        )


@dataclass(slots=True)
class Tally:
    """Running totals of a run's files: what ``summary()`` reports, without the rows."""

    files: int = 0
    status: dict[str, int] = field(default_factory=dict)
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    categories: dict[str, int] = field(default_factory=dict)

    def add(self, e: IndexEntry) -> None:
        self.files += 1
        self.status[e.status] = self.status.get(e.status, 0) + 1
        for k, n in enumerate(e.counts):
            self.counts[k] += n
        for cat, n in e.categories:
            self.categories[cat] = self.categories.get(cat, 0) + n


@dataclass(frozen=True, slots=True)
class Store:
    """The on-disk layout under ``out``: parts per table plus an append-only index."""

    root: Path

    @property
    def parts(self) -> Path:
        return self.root / PARTS_DIR

    @property
    def index_path(self) -> Path:
        return self.parts / INDEX_NAME

    def part_path(self, table: str, part: str) -> Path:
        return self.parts / table / f"part-{part}.parquet"

    def clear(self) -> None:
        """Forget earlier runs (``resume=False``): only our ``parts`` folder goes."""
        if self.parts.exists():
            shutil.rmtree(self.parts)

    def read_index(self) -> dict[str, IndexEntry]:
        """Latest entry per path, compact. A torn last line (a killed run) is ignored.

        Only what resuming and summing need is kept: about 500 bytes a file with its
        path, a fifth of the entry as parsed (a million indexed files take about
        500 MB while a resume is planned).
        """
        return self._scan_index(IndexEntry.of)

    def read_parts(self) -> dict[str, str | None]:
        """Latest part per path: all that reading rows needs (about 150 bytes a file)."""
        return self._scan_index(
            lambda e: sys.intern(e["part"]) if isinstance(e.get("part"), str) else None
        )

    def _scan_index(self, keep: Callable[[dict[str, Any]], _T]) -> dict[str, _T]:
        latest: dict[str, _T] = {}
        if not self.index_path.exists():
            return latest
        with open(self.index_path, encoding="utf-8") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(entry, dict) and "path" in entry:
                    latest[entry["path"]] = keep(entry)
        return latest

    def append_index(self, entries: Iterable[dict[str, Any]]) -> None:
        """Append and fsync, so an entry on disk always points at complete parts."""
        text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        if not text:
            return
        self.parts.mkdir(parents=True, exist_ok=True)
        with open(self.index_path, "a", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())

    def write_part(
        self,
        table: str,
        part: str,
        rows: Sequence[dict[str, Any]],
        sources: Sequence[str] | None = None,
    ) -> None:
        """Write one part atomically (temporary name, then rename); ``sources`` as
        in ``rows_to_table``."""
        path = self.part_path(table, part)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        pq.write_table(rows_to_table(rows, sources), tmp)
        os.replace(tmp, path)

    def read_rows(
        self, table: str, wanted: dict[str, str | None]
    ) -> dict[str, list[dict[str, Any]]]:
        """Rows of ``table`` per input path, from the part ``wanted`` names for it.

        Rows of a part that an entry no longer points at (a file audited again
        later, or an orphan of a killed run) are left out.
        """
        by_path: dict[str, list[dict[str, Any]]] = {p: [] for p in wanted}
        for part in sorted({p for p in wanted.values() if p is not None}):
            path = self.part_path(table, part)
            if not path.exists():
                continue  # no rows of this table in that chunk
            with pq.ParquetFile(path) as part_file:  # (``pq.read_table`` costs 2-3x)
                table_data = part_file.read()
            for row in table_to_rows(table_data):
                source = row.pop(SOURCE_COLUMN)
                if wanted.get(source) == part:
                    by_path[source].append(row)
        return by_path


def _union_schema(schemas: Sequence[pa.Schema]) -> pa.Schema:
    """One schema for chunks with the same columns: per column the common type
    (nulls ignored, integers widened to floats), else a string."""
    types: dict[str, list[pa.DataType]] = {f.name: [] for f in schemas[0]}
    for schema in schemas:
        for f in schema:
            if not pa.types.is_null(f.type):
                types[f.name].append(f.type)
    fields = []
    for name, seen in types.items():
        kind: pa.DataType = pa.null()
        if seen:
            try:
                one = [pa.schema([(name, t)]) for t in seen]
                kind = pa.unify_schemas(one, promote_options="permissive").field(name).type
            except (pa.ArrowTypeError, pa.ArrowInvalid):
                kind = pa.large_string()
        fields.append(pa.field(name, kind))
    return pa.schema(fields, metadata=schemas[0].metadata)
