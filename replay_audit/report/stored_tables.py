"""Reading a stored report's tables: whole, in chunks, typed, and summed.

Owns ``_StoredTables``: the run's paths and totals, the rows of a table read from
the parts its index points at, the chunks the writers stream, the Parquet
written part by part, and ``summary()`` from the index alone.

Must not: audit or run anything, or render the page (``report.stored``).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replay_audit._version import __version__
from replay_audit.auditing.rows import SCHEMA_VERSION
from replay_audit.report.audit_report import AuditReport, parquet_table, write_csv_table
from replay_audit.report.codec import Columns, rows_columns
from replay_audit.report.store import (
    ABSENT_COLUMN,
    SOURCE_COLUMN,
    Store,
    Tally,
    _union_schema,
)
from replay_audit.report.tables import CSV_TABLES, TABLE_COLUMNS, table_frame

if TYPE_CHECKING:
    import pandas as pd

    from replay_audit.report.parquet_columns import PartChunk
    from replay_audit.report.stream import ColumnKinds


class _StoredTables(AuditReport):
    """A report's tables read back from its store (``report.store``), whole or in chunks."""

    def __init__(
        self,
        out: str | Path,
        paths: Iterable[str],
        rules: str = "auto",
        run_stats: dict[str, Any] | None = None,
        tally: Tally | None = None,
        parts: dict[str, str | None] | None = None,
    ) -> None:
        """``tally`` and ``parts`` (each path's part), when the caller has them (the
        run that just indexed these paths), spare reading the index for them."""
        self.store = Store(Path(out))
        self.paths = sorted(set(paths))
        self.rules = rules
        self.run_stats = dict(run_stats or {})
        self.rule_overrides: dict[str, str] = {}
        self._tally = tally
        self._tables: dict[str, pd.DataFrame] = {}
        self._parts: dict[str, str | None] | None = None
        if parts is not None:
            self._parts = {p: parts[p] for p in self.paths if p in parts}
        self._kinds: dict[str, ColumnKinds] = {}
        """``ColumnKinds`` of each table over the whole run, once (CSV and JSON share it)."""
        self._history_sources: dict[str, str] = {}
        """Source path of each file ``page_history_files`` picked (its rows' part)."""

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
        if fmt == "csv":
            return self._write_csv_columns(folder)
        if fmt in ("json", "jsonl"):
            return gc_held(self._write_json_columns, fmt, folder)
        # html: bounded, through the page_* methods below
        return super()._write_format(fmt, folder)

    def table_chunks(self, name: str) -> Iterator[pd.DataFrame]:
        return self.typed_chunks(name)

    def _write_csv_columns(self, folder: Path) -> list[Path]:
        """Each CSV table from the parts' columns (``report.csv_columns``: the bytes
        pandas writes, without pandas), or through pandas when a column holds a mix
        only pandas renders.

        The cyclic garbage collector is held meanwhile, as ``run.chunk.audit_chunk``
        holds it: a table's chunks are lists of plain values (up to
        ``csv_columns.HELD_CELLS`` of them kept for the second pass) with no cycles,
        and the collector walked them again and again to free nothing (0.03 s of
        the 0.2 s this takes over the Phoenix corpus).  Any cycle made meanwhile is
        freed when it resumes; if the caller has it off, it stays off.
        """
        return gc_held(self._write_csv_tables, folder)

    def _write_json_columns(self, fmt: str, folder: Path, from_parts: bool = True) -> list[Path]:
        """``report.json`` (``fmt`` ``"json"``) or the ``.jsonl`` tables (``write_json_tables``);
        ``from_parts=False``: every table through pandas, the tests' reference."""
        return write_json_tables(self, fmt, folder, from_parts)

    def _write_csv_tables(self, folder: Path) -> list[Path]:
        from replay_audit.report.csv_columns import write_table_csv

        groups = self._groups()
        written = []
        for name in CSV_TABLES:
            path = folder / f"{name}.csv"
            if not write_table_csv(
                path, name, functools.partial(self._column_chunks, name, groups)
            ):
                write_csv_table(self, name, path)
            written.append(path)
        return written

    def _column_chunks(self, name: str, groups: list[dict[str, str | None]]) -> Iterator[Columns]:
        """The rows of ``typed_chunks``' chunks, as columns (neither typed nor sorted)."""
        for group in groups:
            part = next(iter(group.values()), None)
            if name == "files":  # a file whose part went missing still has its row
                yield rows_columns(self._rows(name, group))
            elif part is not None:
                yield self.store.read_columns(name, part, group)

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
            schema = self.store.part_schema(name, part) if part is not None else None
            for c in schema.names if schema is not None else ():
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
        (``report.stream.ColumnKinds``), the second builds each chunk with them, so
        writing the chunks one after the other gives what the whole table gives
        (``12.0``, not ``12``, in a column another part made float).
        """
        from replay_audit.report.stream import ColumnKinds, typed_frame

        whole_run = groups is None
        groups = self._groups() if groups is None else groups
        kinds = self._kinds.get(name) if whole_run else None
        if kinds is None:
            kinds = ColumnKinds(name)
            for group in groups:
                kinds.add(self._rows(name, group))
            if whole_run:
                self._kinds[name] = kinds
        empty = True
        for group in groups:
            rows = self._rows(name, group)
            if rows:
                empty = False
                yield typed_frame(name, rows, kinds)
        if empty:
            yield typed_frame(name, [], kinds)

    def _write_parquet_streamed(self, folder: Path, from_parts: bool = True) -> list[Path]:
        """One Parquet file per table, written part by part.

        Each table from the parts' Arrow columns (``report.parquet_columns``: the
        file the pandas path writes, without a frame per part), or through pandas
        (``_write_parquet_frames``) when a part holds what that module does not map
        (a column of mixed values, text or floats in an integer column, a file
        whose row is missing) or the table has no rows; ``from_parts=False``
        writes every table through pandas (the reference the tests compare with).
        """
        from replay_audit.report.parquet_columns import write_table_parquet

        written = []
        groups = self._groups()
        for name in CSV_TABLES:
            target = folder / f"{name}.parquet"
            columns = self._columns(name, groups)
            chunks = functools.partial(self._part_chunks, name, groups)
            if not (from_parts and write_table_parquet(target, name, columns, chunks, self.rules)):
                self._write_parquet_frames(name, groups, target)
            written.append(target)
        return written

    def _part_chunks(self, name: str, groups: list[dict[str, str | None]]) -> Iterator[PartChunk]:
        """Each group's part of table ``name`` as stored (None where the group has no
        part) with the paths it is read for, as ``report.parquet_columns`` takes them:
        ``_column_chunks``' counterpart for the Parquet path."""
        from replay_audit.report.parquet_columns import PartChunk

        for group in groups:
            part = next(iter(group.values()), None)
            data = None if part is None else self.store.read_part(name, part)
            yield PartChunk(data, sorted(group))

    def _write_parquet_frames(
        self, name: str, groups: list[dict[str, str | None]], target: Path
    ) -> None:
        """Table ``name`` through pandas, one part at a time.

        Arrow needs one schema for the file, and a column can be all-null in one
        part and typed in another, so a first pass collects every chunk's schema
        and a second writes each chunk cast to their union (a column typed
        differently in two parts, numbers here and text there, becomes text, as it
        does in memory).
        """
        import pyarrow.parquet as pq

        schemas = [parquet_table(df, self.rules).schema for df in self._chunks(name, groups)]
        schema = _union_schema(schemas)
        with pq.ParquetWriter(target, schema) as writer:
            for df in self._chunks(name, groups):
                writer.write_table(parquet_table(df, self.rules).cast(schema))

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
        from replay_audit.model.findings import CATEGORIES, INFO

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


def gc_held(write: Callable[..., list[Path]], *args: Any) -> list[Path]:
    """``write(*args)`` with the cyclic garbage collector held (``_write_csv_columns``
    says why; the JSON writers hold chunks of plain values and texts alike)."""
    if not gc.isenabled():
        return write(*args)
    gc.collect(0)  # (what is already garbage goes first: the run's last chunk left
    # cycles that the next collection would have freed, 9 MB of the peak RSS)
    gc.disable()
    try:
        return write(*args)
    finally:
        gc.enable()


def write_json_tables(
    report: _StoredTables, fmt: str, folder: Path, from_parts: bool = True
) -> list[Path]:
    """``report.json`` (``fmt`` ``"json"``) or one ``.jsonl`` file per table, each
    table's records from the parts' columns (``report.json_columns``: the text the
    pandas path writes, without a frame per part), or through pandas
    (``typed_chunks``, as ``AuditReport`` writes them) where that module declines
    the table: a column of a mix of kinds, text or floats in an integer column,
    integers past 64 bits (past ``2**53`` with a gap), a float pandas writes in
    exponent form, or no rows.  ``from_parts=False`` writes every table through
    pandas (the reference the tests compare with)."""
    from replay_audit.report import stream

    groups = report._groups()
    level = 2 if fmt == "json" else None
    tables = ((name, _json_records(report, name, groups, level, from_parts)) for name in CSV_TABLES)
    if fmt == "json":
        return [stream.write_json_texts(folder / "report.json", report.summary(), tables)]
    return [stream.write_jsonl_texts(folder / f"{name}.jsonl", texts) for name, texts in tables]


def _json_records(
    report: _StoredTables,
    name: str,
    groups: list[dict[str, str | None]],
    level: int | None,
    from_parts: bool,
) -> Iterator[list[str]]:
    """Table ``name``'s records laid out ``level`` deep (``None``: on one line), chunk
    by chunk: from the parts' columns where ``report.json_columns`` takes the table,
    else from ``typed_chunks``' frames."""
    from replay_audit.report import stream
    from replay_audit.report.json_columns import table_records

    if from_parts:
        read = functools.partial(report._column_chunks, name, groups)
        got = table_records(name, read, level)
        if got is not None:
            return got
    chunks = report.typed_chunks(name)  # (the whole run's groups, as ``groups``)
    if level is None:
        return stream.frame_line_texts(chunks)
    return stream.frame_record_texts(chunks, level)
