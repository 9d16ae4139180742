"""Run the per-file audit over many files: in parallel, streamed to disk, resumable.

Three concerns shape this module:

* **Parallel.** Files are grouped into chunks ("parts") and each chunk is one task
  on a ``ProcessPoolExecutor``. Tasks are submitted through a bounded window and
  collected as they finish (like ``imap_unordered``), so a slow file never holds
  finished ones back and pending results never pile up in the parent.
* **Flat memory.** With ``out`` given, the worker that audits a chunk also writes
  its rows as one Parquet file per table (``out/parts/<table>/part-<run>-<n>.parquet``)
  and sends back only a few index lines. The parent appends those lines to
  ``out/parts/index.jsonl`` and keeps running totals only; nothing else accumulates,
  whatever the input size. The returned ``StoredAuditReport`` holds the run's paths
  and totals: it loads a table from the parts only when asked, and writes CSV part
  by part without loading any.
* **Resumable.** The index line of a file is written after its parts, so an
  interrupted run leaves either a complete, indexed part or an ignored orphan. A
  rerun skips every file whose path, content hash (SHA-256 of the bytes on disk),
  rules (name and fingerprint) and auditor code (a hash of this package's sources)
  match its latest index line, so upgrading the tool re-audits everything.

The worker is ``audit.audit_file`` (or any picklable function with its signature,
which the tests use to simulate failures); ``dask_engine`` reuses the chunk task and
the store from here.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import shutil
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from replay_audit import __version__
from replay_audit.audit import SCHEMA_VERSION, FileAudit, audit_file
from replay_audit.report import (
    CSV_TABLES,
    TABLE_COLUMNS,
    TABLES,
    AuditReport,
    parquet_table,
    table_frame,
)
from replay_audit.rules import RuleSet

if TYPE_CHECKING:
    from replay_audit.archive import ArchiveListing

_T = TypeVar("_T")

Worker = Callable[..., FileAudit]
"""``worker(path, rules, strict=...) -> FileAudit``; top-level so it pickles."""

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


def rows_to_table(rows: Sequence[dict[str, Any]]) -> pa.Table:
    """Plain rows to an Arrow table that ``table_to_rows`` turns back into equal rows.

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
    absent: list[list[str] | None] = [None] * len(rows)
    arrays: list[pa.Array] = []
    json_columns: list[str] = []
    every_key = all(len(row) == len(columns) for row in rows)  # the usual case: fast path
    for name in columns:
        values: list[Any]
        if every_key:
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


# ------------------------------------------------------------------ the store


def rules_key(rules: RuleSet | None) -> tuple[str, str]:
    """(name, fingerprint) of the rules a file is audited under.

    The fingerprint catches two rule sets with one name but different fields (a
    preset with ``--rule`` overrides); ``None`` means "detect per game" (``auto``).
    """
    if rules is None:
        return "auto", "auto"
    return rules.name, hashlib.sha256(repr(rules).encode()).hexdigest()[:16]


def sources_fingerprint(root: Path) -> str:
    """A hash of every ``.py`` and ``.toml`` file under ``root``: names and bytes."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml") and p.is_file()):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


@functools.cache
def code_fingerprint() -> str:
    """The auditor's own code: ``sources_fingerprint`` of this package.

    A result is only as good as the code that computed it, so a resumed run must not
    reuse rows written by another version (a fixed scoring bug would otherwise stay
    in the report); ``SCHEMA_VERSION`` alone only changes when the tables do. The
    hash costs a few milliseconds, once per process.
    """
    return sources_fingerprint(Path(__file__).resolve().parent)


def work_key(worker: Worker) -> str:
    """The code half of the resume key: the package's sources and, for any worker
    but ``audit_file``, the worker's name, so rows of a parse-and-replay check
    (``validate_file``) are never taken for a full audit's, nor the reverse."""
    if worker is audit_file:
        return code_fingerprint()
    # the bare name: a module's name depends on how it was imported (a test module
    # is ``tests.test_x`` under pytest and ``test_x`` in a script)
    name = getattr(worker, "__qualname__", None) or type(worker).__qualname__
    return f"{code_fingerprint()}+{name}"


def file_sha256(path: str | Path) -> str:
    """SHA-256 of the bytes on disk (compressed or not): the content half of the key.

    For an archive member (``"<db>::<log_id>"``, see ``archive``) it is the row's
    stored content, so changing one row re-audits that log alone.
    """
    from replay_audit.archive import split_member, stored_bytes
    from replay_audit.errors import LogFormatError

    member = split_member(path)
    if member is not None:
        try:
            return hashlib.sha256(stored_bytes(*member)).hexdigest()
        except LogFormatError as exc:  # missing row, no content: unreadable, like a file
            raise OSError(str(exc)) from exc
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


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

    def write_part(self, table: str, part: str, rows: Sequence[dict[str, Any]]) -> None:
        """Write one part atomically (temporary name, then rename)."""
        path = self.part_path(table, part)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        pq.write_table(rows_to_table(rows), tmp)
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
            for row in table_to_rows(pq.read_table(path)):
                source = row.pop(SOURCE_COLUMN)
                if wanted.get(source) == part:
                    by_path[source].append(row)
        return by_path


# ------------------------------------------------------------------ the chunk task


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """One unit of work: audit these files, write their rows as part ``part``."""

    paths: tuple[str, ...]
    rules: RuleSet | None
    strict: bool
    out: str | None
    part: str
    worker: Worker = audit_file


def _categories(fa: FileAudit) -> dict[str, int]:
    """Findings per category, kept in the index so a summary needs no table."""
    out: dict[str, int] = {}
    for f in fa.findings:
        out[f["category"]] = out.get(f["category"], 0) + 1
    return out


@dataclass(slots=True)
class ChunkResult:
    entries: list[dict[str, Any]]
    """One index entry per file (its ``file_row`` included)."""
    audits: list[FileAudit] = field(default_factory=list)
    """The audits themselves, only when there is no ``out`` to write to."""

    @property
    def hands(self) -> int:
        return sum(int(e["file_row"].get("hands") or 0) for e in self.entries)


def audit_chunk(task: ChunkTask) -> ChunkResult:
    """Audit the files of one chunk; with ``out``, write their parts and return the
    index entries only (that is what keeps the parent's memory flat)."""
    name, fingerprint = rules_key(task.rules)
    audits: list[FileAudit] = []
    entries: list[dict[str, Any]] = []
    for path in task.paths:
        try:
            digest: str | None = file_sha256(path)
        except OSError:
            digest = None  # the worker reports the unreadable file itself
        fa = task.worker(path, task.rules, strict=task.strict)
        audits.append(fa)
        entries.append(
            {
                "path": path,
                "sha256": digest,
                "rules": name,
                "rules_fingerprint": fingerprint,
                "schema": SCHEMA_VERSION,
                "code": work_key(task.worker),
                "part": task.part if task.out is not None else None,
                "file_row": fa.file_row(),
                "categories": _categories(fa),
            }
        )
    if task.out is None:
        return ChunkResult(entries, audits)
    store = Store(Path(task.out))
    store.write_part(
        "files", task.part, [{SOURCE_COLUMN: fa.path, **fa.file_row()} for fa in audits]
    )
    for table in ROW_TABLES:
        rows = [{SOURCE_COLUMN: fa.path, **row} for fa in audits for row in getattr(fa, table)]
        if rows:
            store.write_part(table, task.part, rows)
    return ChunkResult(entries)


# ------------------------------------------------------------------ the report


class StoredAuditReport(AuditReport):
    """An ``AuditReport`` whose tables stay on disk until first read.

    The report holds the run's paths and running totals only; the index and the
    parts are read when a table is asked for. Each table is built by
    ``report.table_frame`` from the stored rows, as in memory, so it equals the
    table of an in-memory run. ``summary()``, CSV, Parquet and JSON writing (the
    same bytes as in memory), the HTML page (through the ``page_*`` methods: counts,
    first rows, the games it lists) and ``stats.players`` (through ``fact_chunks``)
    never load a whole table, which is what keeps a million-file run in flat memory.
    """

    def __init__(
        self,
        out: str | Path,
        paths: Iterable[str],
        rules: str = "auto",
        run_stats: dict[str, Any] | None = None,
        tally: Tally | None = None,
    ) -> None:
        self.store = Store(Path(out))
        self.paths = sorted(set(paths))
        self.rules = rules
        self.run_stats = dict(run_stats or {})
        self.rule_overrides: dict[str, str] = {}
        self._tally = tally
        self._tables: dict[str, pd.DataFrame] = {}
        self._parts: dict[str, str | None] | None = None
        self._history_sources: dict[str, str] = {}
        """Source path of each file ``page_history_files`` picked (its rows' part)."""

    @classmethod
    def open(cls, out: str | Path) -> StoredAuditReport:
        """The report an earlier run stored under ``out`` (every file its index
        holds, latest entries), to read tables or statistics without re-auditing."""
        store = Store(Path(out))
        if not store.index_path.is_file():
            raise FileNotFoundError(f"no stored audit under {out} (no {store.index_path})")
        return cls(out, store.read_parts())

    def _wanted(self) -> dict[str, str | None]:
        """The latest part of each path of this run, read from the index once (a
        report writing CSV and HTML asks for it several times; a later run into the
        same folder does not change what this report holds)."""
        if self._parts is None:
            index = self.store.read_parts()
            self._parts = {p: index[p] for p in self.paths if p in index}
        return self._parts

    def _rows(self, name: str, wanted: dict[str, str | None]) -> list[dict[str, Any]]:
        """Rows of table ``name`` of the given paths, read from their parts, by path."""
        by_path = self.store.read_rows(name, wanted)
        if name == "files":  # a file row whose part went missing still lists the file
            return [got[0] if (got := by_path[p]) else {"file": p} for p in sorted(by_path)]
        return [row for p in sorted(by_path) for row in by_path[p]]

    def _frame(self, name: str, wanted: dict[str, str | None]) -> pd.DataFrame:
        """Table ``name`` of the given paths, read from their parts."""
        return table_frame(name, self._rows(name, wanted))

    def _table(self, name: str) -> pd.DataFrame:
        if name not in self._tables:
            self._tables[name] = self._frame(name, self._wanted())
        return self._tables[name]

    files = property(lambda self: self._table("files"))
    games = property(lambda self: self._table("games"))
    hands = property(lambda self: self._table("hands"))
    findings = property(lambda self: self._table("findings"))
    hand_facts = property(lambda self: self._table("hand_facts"))
    game_facts = property(lambda self: self._table("game_facts"))
    score_history = property(lambda self: self._table("score_history"))

    def _write_format(self, fmt: str, folder: Path) -> list[Path]:
        if fmt == "parquet":
            return self._write_parquet_streamed(folder)
        # csv, json and jsonl: through table_chunks, one part at a time; html:
        # bounded, through the page_* methods below
        return super()._write_format(fmt, folder)

    def table_chunks(self, name: str) -> Iterator[pd.DataFrame]:
        return self.typed_chunks(name)

    def _groups(self) -> list[dict[str, str | None]]:
        """The run's paths grouped by part, parts in the order of their first path."""
        groups: dict[str | None, dict[str, str | None]] = {}
        for path, part in sorted(self._wanted().items()):
            groups.setdefault(part, {})[path] = part
        return list(groups.values())

    def _columns(self, name: str, groups: list[dict[str, str | None]]) -> list[str]:
        """The fixed columns of ``name``, then every other column the parts have."""
        columns = list(TABLE_COLUMNS[name])
        for part in dict.fromkeys(part for g in groups for part in g.values()):
            f = self.store.part_path(name, part) if part is not None else None
            if f is not None and f.exists():
                for c in pq.read_schema(f).names:
                    if c not in columns and c not in (SOURCE_COLUMN, ABSENT_COLUMN):
                        columns.append(c)
        return columns

    def _chunks(self, name: str, groups: list[dict[str, str | None]]) -> Iterator[pd.DataFrame]:
        """Table ``name`` one part at a time, every chunk with the same columns.

        Each chunk is sorted as the whole table is, and parts come in the order of
        their first path, so a fresh run yields the in-memory table's rows in its
        order (a resumed run may interleave parts of several runs: its rows are then
        grouped by part).
        """
        columns = self._columns(name, groups)
        empty = True
        for group in groups:
            df = self._frame(name, group)
            if not df.empty:
                empty = False
                yield df.reindex(columns=columns)
        if empty:
            yield table_frame(name, []).reindex(columns=columns)

    def typed_chunks(
        self, name: str, groups: list[dict[str, str | None]] | None = None
    ) -> Iterator[pd.DataFrame]:
        """Table ``name`` one part at a time, each column of the whole table's dtype.

        Two passes over the parts: the first notes the kinds of values of each column
        (``report_stream.ColumnKinds``), the second builds each chunk with them, so
        writing the chunks one after the other gives what the whole table gives
        (``12.0``, not ``12``, in a column another part made float).
        """
        from replay_audit.report_stream import ColumnKinds, typed_frame

        groups = self._groups() if groups is None else groups
        kinds = ColumnKinds(name)
        for group in groups:
            kinds.add(self._rows(name, group))
        empty = True
        for group in groups:
            rows = self._rows(name, group)
            if rows:
                empty = False
                yield typed_frame(name, rows, kinds)
        if empty:
            yield typed_frame(name, [], kinds)

    # -- what the HTML page reads (``html.render_page``), never a whole table

    def _page_tables(self) -> StoredAuditReport:
        return self

    def page_findings(self, limit: int) -> tuple[pd.Series, int, pd.DataFrame]:
        """Category counts, number of findings and the first ``limit`` findings."""
        from replay_audit.html import combine_counts

        counts: list[pd.Series] = []
        head: list[pd.DataFrame] = []
        total = kept = 0
        for df in self.typed_chunks("findings"):
            total += len(df)
            if "category" in df:
                counts.append(df["category"].value_counts(sort=False))
            if kept < limit and len(df):
                head.append(df.head(limit - kept))
                kept += len(head[-1])
        return (
            combine_counts(counts),
            total,
            pd.concat(head, ignore_index=True) if head else df.head(0),
        )

    def page_game_count(self) -> int:
        return int(self.summary()["games"])

    def page_game_chunks(self) -> Iterator[pd.DataFrame]:
        return self.typed_chunks("games")

    def page_history_files(self, first: int, also: set[str]) -> tuple[list[str], list[str], int]:
        """Files with a score history in table order: those among the first ``first``
        or in ``also``, the first ``first``, and how many there are. Reads only the
        parts' ``file`` column."""
        seen: set[str] = set()
        ordered: list[str] = []
        firsts: list[str] = []
        self._history_sources = {}
        for group in self._groups():
            files: dict[str, str] = {}
            for source, file in self._column_values("score_history", "file", group):
                if file is not None and file == file:
                    files.setdefault(str(file), source)
            for file in sorted(files):
                if file in seen:
                    continue
                seen.add(file)
                is_first = len(firsts) < first
                if is_first:
                    firsts.append(file)
                if is_first or file in also:
                    ordered.append(file)
                    self._history_sources[file] = files[file]
        return ordered, firsts, len(seen)

    def _column_values(
        self, name: str, column: str, wanted: dict[str, str | None]
    ) -> Iterator[tuple[str, Any]]:
        """``(source path, value)`` of one column of the parts' current rows."""
        for part in sorted({p for p in wanted.values() if p is not None}):
            path = self.store.part_path(name, part)
            if not path.exists():
                continue
            schema = pq.read_schema(path)
            if column not in schema.names:
                continue
            one = pq.read_table(path, columns=[SOURCE_COLUMN, column])
            meta = json.loads((schema.metadata or {}).get(_JSON_COLUMNS_KEY, b"[]"))
            values = one.column(column).to_pylist()
            if column in meta:
                values = [None if v is None else _from_json(v) for v in values]
            for source, value in zip(one.column(SOURCE_COLUMN).to_pylist(), values, strict=True):
                if wanted.get(source) == part:
                    yield source, value

    def page_history(self, files: list[str]) -> pd.DataFrame:
        """Score history of these files only (found by ``page_history_files``)."""
        wanted = self._wanted()
        paths = {self._history_sources.get(f, f) for f in files}
        rows = self._rows("score_history", {p: wanted[p] for p in paths if p in wanted})
        keep = set(files)
        return table_frame("score_history", [r for r in rows if str(r.get("file")) in keep])

    def fact_chunks(self) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
        """``(hand_facts, game_facts)`` of one part at a time, both for the same
        files: ``stats.players`` sums counters chunk by chunk in flat memory."""
        for group in self._groups():
            yield self._frame("hand_facts", group), self._frame("game_facts", group)

    def _write_parquet_streamed(self, folder: Path) -> list[Path]:
        """One Parquet file per table, written part by part.

        Arrow needs one schema for the file, and a column can be all-null in one
        part and typed in another, so a first pass collects every chunk's schema
        and a second writes each chunk cast to their union (a column typed
        differently in two parts, numbers here and text there, becomes text, as it
        does in memory).
        """
        written = []
        groups = self._groups()
        for name in CSV_TABLES:
            schemas = [parquet_table(df, self.rules).schema for df in self._chunks(name, groups)]
            schema = _union_schema(schemas)
            target = folder / f"{name}.parquet"
            with pq.ParquetWriter(target, schema) as writer:
                for df in self._chunks(name, groups):
                    writer.write_table(parquet_table(df, self.rules).cast(schema))
            written.append(target)
        return written

    def load(self) -> AuditReport:
        """A plain in-memory ``AuditReport`` with every table loaded."""
        return AuditReport(
            files=self.files,
            games=self.games,
            hands=self.hands,
            findings=self.findings,
            hand_facts=self.hand_facts,
            game_facts=self.game_facts,
            score_history=self.score_history,
            rules=self.rules,
            rule_overrides=self.rule_overrides,
        )

    def summary(self) -> dict[str, Any]:
        """``AuditReport.summary()`` from the run's totals: no table is loaded."""
        from replay_audit.findings import CATEGORIES, INFO

        if self._tally is None:
            self._tally = Tally()
            index = self.store.read_index()
            for p in self.paths:
                if p in index:
                    self._tally.add(index[p])
        t = self._tally
        games, hands, results, findings = t.counts
        return {
            "schema_version": SCHEMA_VERSION,
            "tool_version": __version__,
            "rules": self.rules,
            "files": t.files,
            "files_ok": t.status.get("ok", 0),
            "files_mismatch": t.status.get("mismatch", 0),
            "files_error": t.status.get("error", 0),
            "games": games,
            "hands": hands,
            "results": results,
            "findings": findings,
            "findings_by_category": {
                c: t.categories[c] for c in CATEGORIES if t.categories.get(c) and c != INFO
            },
            "notes": t.categories.get(INFO, 0),
            **self._overrides(),
        }

    def __repr__(self) -> str:
        return f"StoredAuditReport({str(self.store.root)!r}, files={len(self.paths)}, rules={self.rules!r})"


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


# ------------------------------------------------------------------ planning


@dataclass(slots=True)
class Plan:
    """What a run must do: files to audit, and the files an earlier run already did."""

    todo: list[str]
    reused: list[str]
    run: str
    store: Store | None
    tally: Tally = field(default_factory=Tally)
    """Totals of the reused files (each new chunk adds its own as it is indexed)."""

    def index(self, entries: Sequence[dict[str, Any]]) -> None:
        """Record finished files: append their lines to the index, add to the totals."""
        if self.store is not None:
            self.store.append_index(entries)
        for e in entries:
            self.tally.add(IndexEntry.of(e))

    def report(self, rules: str, stats: dict[str, Any]) -> StoredAuditReport:
        assert self.store is not None
        return StoredAuditReport(
            self.store.root, [*self.reused, *self.todo], rules, stats, self.tally
        )


def plan_run(
    files: Sequence[str],
    rules: RuleSet | None,
    out: str | Path | None,
    resume: bool,
    worker: Worker = audit_file,
) -> Plan:
    """Decide which files need auditing; with ``resume`` the rest come from the index."""
    unique = list(dict.fromkeys(str(f) for f in files))
    run = time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:6]
    if out is None:
        return Plan(unique, [], run, None)
    store = Store(Path(out))
    if not resume:
        store.clear()
        return Plan(unique, [], run, store)
    name, fingerprint = rules_key(rules)
    code = work_key(worker)
    index = store.read_index()
    plan = Plan([], [], run, store)
    for path in unique:
        entry = index.get(path)
        if (
            entry is not None
            and entry.key[1:] == (name, fingerprint, SCHEMA_VERSION, code)
            and entry.key[0] is not None
            and _same_content(path, entry.key[0])
        ):
            plan.reused.append(path)
            plan.tally.add(entry)
        else:
            plan.todo.append(path)
    return plan


def _same_content(path: str, digest: str) -> bool:
    try:
        return file_sha256(path) == digest
    except OSError:
        return False


def chunk_tasks(
    plan: Plan,
    rules: RuleSet | None,
    *,
    strict: bool,
    jobs: int,
    files_per_part: int | None = None,
    worker: Worker = audit_file,
) -> list[ChunkTask]:
    """Split the files to audit into tasks of a moderate size.

    About four tasks per worker balance the load; at most 32 files a part keep
    a worker's rows small and the parts frequent (the resume granularity).
    """
    todo = plan.todo
    size = files_per_part or max(1, min(32, math.ceil(len(todo) / (max(jobs, 1) * 4))))
    out = str(plan.store.root) if plan.store is not None else None
    return [
        ChunkTask(
            paths=tuple(todo[i : i + size]),
            rules=rules,
            strict=strict,
            out=out,
            part=f"{plan.run}-{i // size:05d}",
            worker=worker,
        )
        for i in range(0, len(todo), size)
    ]


# ------------------------------------------------------------------ executing


def _run_local(tasks: Sequence[ChunkTask], jobs: int) -> Iterator[ChunkResult]:
    """Results as tasks finish, with at most ``2 * jobs`` tasks in flight.

    A failed task is raised after every task finished before it has been yielded,
    so the caller indexes all completed work before the error propagates.
    """
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield audit_chunk(task)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)))
    pending: set[Future[ChunkResult]] = set()
    try:
        queue = iter(tasks)
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < 2 * jobs:
                following = next(queue, None)
                if following is None:
                    exhausted = True
                else:
                    pending.add(pool.submit(audit_chunk, following))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            error: BaseException | None = None
            for fut in done:
                exc = fut.exception()
                if exc is not None:
                    error = error or exc
                else:
                    yield fut.result()
            if error is not None:
                raise error
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _progress(results: Iterator[ChunkResult], total: int, enabled: bool) -> Iterator[ChunkResult]:
    """A tqdm bar on stderr: files done, files/s, hands done and hands/s."""
    if not enabled:
        yield from results
        return
    import sys

    from tqdm import tqdm

    hands = 0
    start = time.perf_counter()
    with tqdm(total=total, unit="file", dynamic_ncols=True, file=sys.stderr) as bar:
        for res in results:
            hands += res.hands
            rate = hands / max(time.perf_counter() - start, 1e-9)
            bar.set_postfix(hands=hands, hands_s=f"{rate:.0f}", refresh=False)
            bar.update(len(res.entries))
            yield res


def collect(
    plan: Plan,
    results: Iterator[ChunkResult],
    rules_name: str,
    *,
    n_files: int,
    started: float,
) -> AuditReport:
    """Index every chunk as it arrives, then build the report (stored or in memory)."""
    audits: list[FileAudit] = []
    audited = 0
    for res in results:
        audited += len(res.entries)
        if plan.store is not None:
            plan.index(res.entries)
        else:
            audits.extend(res.audits)
    if plan.store is None:
        audits.sort(key=lambda fa: fa.path)
        return AuditReport.from_file_audits(audits, rules=rules_name)
    stats = {
        "files": n_files,
        "audited": audited,
        "skipped": len(plan.reused),
        "seconds": round(time.perf_counter() - started, 3),
        "run": plan.run,
    }
    return plan.report(rules_name, stats)


SMALL_RUN = 64
"""Fewer files than this are audited in this process unless ``jobs`` is given: a
log takes milliseconds, starting a pool of workers a good part of a second."""


def audit_files(
    files: Sequence[str | Path],
    rules: RuleSet | None = None,
    *,
    jobs: int | None = None,
    strict: bool = False,
    progress: bool = False,
    out: str | Path | None = None,
    resume: bool = True,
    worker: Worker = audit_file,
    files_per_part: int | None = None,
) -> AuditReport:
    """The local engine over an explicit list of files (``run_audit`` expands paths).

    ``strict`` runs in this process so the first error propagates unchanged.
    """
    started = time.perf_counter()
    plan = plan_run([str(f) for f in files], rules, out, resume, worker)
    n_jobs = 1 if strict else (jobs or os.cpu_count() or 1)
    if jobs is None and len(plan.todo) < SMALL_RUN:
        n_jobs = 1  # starting worker processes costs more than auditing a few logs
    tasks = chunk_tasks(
        plan, rules, strict=strict, jobs=n_jobs, files_per_part=files_per_part, worker=worker
    )
    results = _progress(_run_local(tasks, n_jobs), len(plan.todo), progress)
    return collect(
        plan,
        results,
        rules.name if rules else "auto",
        n_files=len(plan.todo) + len(plan.reused),
        started=started,
    )


def run_audit(
    paths: Iterable[str | Path],
    rules: RuleSet | None = None,
    *,
    jobs: int | None = None,
    strict: bool = False,
    progress: bool = False,
    engine: str = "local",
    scheduler: str | None = None,
    out: Path | None = None,
    resume: bool = True,
    worker: Worker = audit_file,
    on_archive: Callable[[ArchiveListing], None] | None = None,
) -> AuditReport:
    """Audit every log under ``paths`` (files, folders, globs) and gather one report.

    ``engine`` is ``local`` (process pool of ``jobs`` workers, default all cores) or
    ``dask`` (``scheduler`` = a scheduler address, or None for a local cluster).
    With ``out``, rows stream to Parquet parts under ``out/parts`` and the report
    loads them lazily; with ``resume`` a rerun skips files already audited with the
    same content and rules.  ``worker`` audits one file (``audit.validate_file``
    for a parse-and-replay check; resume then needs its own ``out`` folder).
    ``on_archive`` gets the listing of each SQLite archive met (``io.iter_log_paths``).
    """
    from replay_audit.io import iter_log_paths

    files = [str(p) for p in iter_log_paths(paths, on_archive=on_archive)]
    if engine == "dask":
        from replay_audit.dask_engine import run_dask

        return run_dask(
            files,
            rules,
            scheduler=scheduler,
            jobs=jobs,
            strict=strict,
            progress=progress,
            out=out,
            resume=resume,
            worker=worker,
        )
    if engine != "local":
        raise ValueError(f"unknown engine {engine!r}; choose 'local' or 'dask'")
    return audit_files(
        files,
        rules,
        jobs=jobs,
        strict=strict,
        progress=progress,
        out=out,
        resume=resume,
        worker=worker,
    )
