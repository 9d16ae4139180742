"""The on-disk store of a report: Arrow parts per table and the append-only index.

Owns the layout under a report folder (``parts/<table>/part-<run>-<n>.arrow`` and
``parts/index.jsonl``), writing and reading parts through the row codec
(``report.codec``), one file's index line (``IndexEntry``) and
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

# the row codec lives in ``report.codec``; its names are kept here, where the
# runner and the readers have always found them
from replay_audit.report.codec import ABSENT_COLUMN as ABSENT_COLUMN
from replay_audit.report.codec import SOURCE_COLUMN as SOURCE_COLUMN
from replay_audit.report.codec import Columns, table_columns
from replay_audit.report.codec import rows_to_table as rows_to_table
from replay_audit.report.codec import table_to_rows as table_to_rows
from replay_audit.report.tables import TABLES

_T = TypeVar("_T")

ROW_TABLES = TABLES[1:]
"""The row tables of a ``FileAudit`` that go to the parts; each part also has a
``files`` table of one ``file_row()`` per file (the index keeps totals only)."""

PART_SUFFIX = ".arrow"
"""A part is an Arrow IPC file (the "Feather V2" format): the table as Arrow holds
it in memory, each buffer LZ4-compressed.  Parts are internal storage, written once
and read back once or twice by this package (every reader gets the table that was
written: columns, types, values and metadata), so the format is the cheapest one
to write and to read, not the most compact: over the 2,770 Phoenix files the 132
parts took 0.35 s of CPU to write as Parquet (already tuned: no statistics, no
dictionary pages, LZ4) and 0.14 s as LZ4 IPC, and 0.25 s to read back against
0.09 s, for 18.6 MB on disk rather than 10.2 MB (best of 5, CPU time)."""
LEGACY_PART_SUFFIX = ".parquet"
"""The parts of a report folder written before ``PART_SUFFIX`` (Parquet): still read,
so ``StoredAuditReport.open`` reads such a folder; never written, never reused by a
resumed run (its code fingerprint differs)."""
PART_COMPRESSION: str | None = "lz4" if pa.Codec.is_available("lz4") else None
"""The IPC body compression (LZ4 frames; none where this pyarrow lacks LZ4): the
corpus's parts take 18.6 MB rather than 101 MB uncompressed, for 0.15 s of the
writer's CPU rather than 0.085 s (zstd: 10.7 MB, 0.23 s, read back twice as slowly)."""
_PART_OPTIONS = pa.ipc.IpcWriteOptions(compression=PART_COMPRESSION)

PARTS_DIR = "parts"
INDEX_NAME = "index.jsonl"
_INDEX_JSON = json.JSONEncoder(ensure_ascii=False)
"""The index lines' encoder, made once: ``json.dumps(e, ensure_ascii=False)`` makes
one per call (a non-default option), a seventh of the line's cost; the same text."""


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
        """Where part ``part`` of ``table`` is written."""
        return self.parts / table / f"part-{part}{PART_SUFFIX}"

    def stored_part(self, table: str, part: str) -> Path | None:
        """The file of part ``part`` of ``table`` on disk (an Arrow part, else a
        Parquet one of an older run), or ``None`` when the chunk had no such rows."""
        path = self.part_path(table, part)
        if path.exists():
            return path
        legacy = path.with_suffix(LEGACY_PART_SUFFIX)
        return legacy if legacy.exists() else None

    def read_part(
        self, table: str, part: str, columns: Sequence[str] | None = None
    ) -> pa.Table | None:
        """Part ``part`` of ``table`` as written (only ``columns``, when given and
        all present), or ``None`` when there is no such part."""
        path = self.stored_part(table, part)
        if path is None:
            return None
        if path.suffix == LEGACY_PART_SUFFIX:
            import pyarrow.parquet as pq

            with pq.ParquetFile(path) as part_file:  # (``pq.read_table`` costs 2-3x)
                data = part_file.read()
        else:
            with pa.OSFile(str(path)) as f:
                data = pa.ipc.open_file(f).read_all()
        return data.select(list(columns)) if columns is not None else data

    def part_schema(self, table: str, part: str) -> pa.Schema | None:
        """The schema of part ``part`` of ``table`` (metadata included), or ``None``."""
        path = self.stored_part(table, part)
        if path is None:
            return None
        if path.suffix == LEGACY_PART_SUFFIX:
            import pyarrow.parquet as pq

            return pq.read_schema(path)
        with pa.OSFile(str(path)) as f:
            return pa.ipc.open_file(f).schema

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
        text = "".join(_INDEX_JSON.encode(e) + "\n" for e in entries)
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
        self.write_table(table, part, rows_to_table(rows, sources))

    def write_table(self, table: str, part: str, data: pa.Table) -> None:
        """Write one part's Arrow table (``rows_to_table``'s, or ``PartRows``') atomically."""
        path = self.part_path(table, part)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with (
            pa.OSFile(str(tmp), "wb") as sink,
            pa.ipc.new_file(sink, data.schema, options=_PART_OPTIONS) as writer,
        ):
            writer.write_table(data)
        os.replace(tmp, path)

    def read_columns(self, table: str, part: str, paths: Iterable[str]) -> Columns:
        """The rows of ``paths`` in one part, as ``read_rows`` gives them (path by
        path, in sorted order) but as columns without ``__source__``: one Arrow
        conversion per column, no dict per row (``report.csv_columns`` writes them)."""
        data = self.read_part(table, part)
        if data is None:
            return Columns([], {}, None, 0)
        cols = table_columns(data)
        if cols.n == 0:
            return _drop_source(cols) if SOURCE_COLUMN in cols.values else cols
        keep = set(paths)
        sources = cols.values[SOURCE_COLUMN]
        order = [i for i, s in enumerate(sources) if s in keep]
        order.sort(key=sources.__getitem__)  # stable: each path's rows as stored
        if len(order) == cols.n and order == list(range(cols.n)):
            return _drop_source(cols)
        return _drop_source(cols.take(order))

    def read_rows(
        self, table: str, wanted: dict[str, str | None]
    ) -> dict[str, list[dict[str, Any]]]:
        """Rows of ``table`` per input path, from the part ``wanted`` names for it.

        Rows of a part that an entry no longer points at (a file audited again
        later, or an orphan of a killed run) are left out.
        """
        by_path: dict[str, list[dict[str, Any]]] = {p: [] for p in wanted}
        for part in sorted({p for p in wanted.values() if p is not None}):
            table_data = self.read_part(table, part)
            if table_data is None:
                continue  # no rows of this table in that chunk
            for row in table_to_rows(table_data):
                source = row.pop(SOURCE_COLUMN)
                if wanted.get(source) == part:
                    by_path[source].append(row)
        return by_path


def _drop_source(cols: Columns) -> Columns:
    values = dict(cols.values)
    del values[SOURCE_COLUMN]
    names = [c for c in cols.names if c != SOURCE_COLUMN]
    return Columns(names, values, cols.absent, cols.n)


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
