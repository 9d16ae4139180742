"""``StoredAuditReport``: a report whose tables stay on disk until first read.

Owns ``StoredAuditReport``: opening a report folder, and the extracts the HTML
page reads part by part (``page_*``); reading the tables themselves, writing them
and the summary are ``report.stored_tables``.

Must not: audit, plan or run anything; it only reads what a run stored
(``report.store``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replay_audit.report.codec import JSON_COLUMNS_KEY, SOURCE_COLUMN, from_json
from replay_audit.report.store import Store, Tally
from replay_audit.report.stored_tables import _StoredTables
from replay_audit.report.tables import table_frame

if TYPE_CHECKING:
    import pandas as pd

    from replay_audit.report.part_frames import CellChunks

# ------------------------------------------------------------------ the report


class StoredAuditReport(_StoredTables):
    """An ``AuditReport`` whose tables stay on disk until first read.

    The report holds the run's paths and running totals only; the index and the
    parts are read when a table is asked for. Each table is built by
    ``report.table_frame`` from the stored rows, as in memory, so it equals the
    table of an in-memory run. ``summary()``, CSV, Parquet and JSON writing (the
    same bytes as in memory), the HTML page (through the ``page_*`` methods: counts,
    first rows, the games it lists) and ``stats.players`` (through ``fact_chunks``)
    never load a whole table, which is what keeps a million-file run in flat memory.
    """

    @classmethod
    def open(cls, out: str | Path) -> StoredAuditReport:
        """The report an earlier run stored under ``out`` (every file its index
        holds, latest entries), to read tables or statistics without re-auditing."""
        store = Store(Path(out))
        if not store.index_path.is_file():
            raise FileNotFoundError(f"no stored audit under {out} (no {store.index_path})")
        index = store.read_index()  # (once: each path's part and the summary's totals;
        # reading it again for each was 0.15 s of the corpus page's write)
        tally = Tally()
        for path in sorted(index):
            tally.add(index[path])
        return cls(out, index, tally=tally, parts={p: e.part for p, e in index.items()})

    def _page_tables(self) -> StoredAuditReport:
        return self

    frames_from_parts = True
    """Whether ``fact_chunks`` builds its frames from the parts' Arrow columns
    (``report.part_frames``); ``False`` builds them from the rows, the reference
    the tests hold the other equal to."""

    def fact_chunks(self) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
        """``(hand_facts, game_facts)`` of one part at a time, both for the same
        files: ``stats.players`` sums counters chunk by chunk in flat memory."""
        for group in self._groups():
            yield self._fact_frame("hand_facts", group), self._fact_frame("game_facts", group)

    def _fact_frame(self, name: str, group: dict[str, str | None]) -> pd.DataFrame:
        """``_frame(name, group)``, from the part's Arrow columns where
        ``report.part_frames`` maps them (2.5 s less over the shared corpus than a
        dict per row), else from the rows."""
        if self.frames_from_parts:
            from replay_audit.report.parquet_columns import PartChunk
            from replay_audit.report.part_frames import part_frame

            part = next(iter(group.values()), None)
            data = None if part is None else self.store.read_part(name, part)
            got = part_frame(name, PartChunk(data, sorted(group)))
            if got is not None:
                return got
        return self._frame(name, group)

    def page_findings(self, limit: int) -> tuple[pd.Series, int, pd.DataFrame]:
        """Category counts, number of findings and the first ``limit`` findings."""
        import pandas as pd

        from replay_audit.report.html import combine_counts

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

    cells_from_parts = True
    """Whether ``page_game_cells`` answers (``False``: the page reads the games
    through ``page_game_chunks``' frames, the reference the tests hold it to)."""

    def page_game_cells(self) -> CellChunks | None:
        """The games table's cells from the parts' columns (``part_frames.cell_chunks``),
        or ``None`` where that declines and the page reads ``page_game_chunks``."""
        if not self.cells_from_parts:
            return None
        from replay_audit.report.part_frames import cell_chunks

        groups = self._groups()
        return cell_chunks("games", functools.partial(self._column_chunks, "games", groups))

    def page_history_files(self, first: int, also: set[str]) -> tuple[list[str], list[str], int]:
        """Files with a score history in table order: those among the first ``first``
        or in ``also``, the first ``first``, and how many there are. Reads only the
        parts' ``file`` column."""
        seen: set[str] = set()
        ordered: list[str] = []
        firsts: list[str] = []
        self._history_sources = {}
        for group in self._groups():
            files = self._history_sources_of(group)
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

    history_by_rows = False
    """Whether ``page_history_files`` reads each file's first source a row at a time
    (``_history_sources_by_rows``, the reference the tests hold the other to)."""

    def _history_sources_of(self, group: dict[str, str | None]) -> dict[str, str]:
        """Each file of the group's score history and the source path of its first
        row, as ``_history_sources_by_rows`` finds them, from fewer rows: where a
        part's ``file`` column is text, the rows of other sources and those without a
        file are dropped, then every row repeating the ``(source, file)`` of the row
        before it (a game's rows follow each other: 124,000 rows, 2,828 pairs over the
        corpus), by Arrow, before the pairs are read into Python (0.08 s there)."""
        if self.history_by_rows:
            return self._history_sources_by_rows(group)
        import pyarrow as pa
        import pyarrow.compute as pc  # (here: a CSV-only run never loads it)

        files: dict[str, str] = {}
        for part in sorted({p for p in group.values() if p is not None}):
            schema = self.store.part_schema("score_history", part)
            if schema is None or "file" not in schema.names:
                continue
            kind = schema.field("file").type
            text = pa.types.is_string(kind) or pa.types.is_large_string(kind)
            if not text or "file" in json.loads(
                (schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]")
            ):
                return self._history_sources_by_rows(group)
            one = self.store.read_part("score_history", part, [SOURCE_COLUMN, "file"])
            assert one is not None  # (its schema was just read)
            wanted = pa.array([p for p, got in group.items() if got == part], pa.string())
            keep = pc.and_(
                pc.is_in(one.column(SOURCE_COLUMN).cast(pa.string()), value_set=wanted),
                pc.is_valid(one.column("file")),
            )
            sources, names = (one.filter(keep).column(c) for c in (SOURCE_COLUMN, "file"))
            if len(names) > 1:
                new = pc.or_(
                    pc.not_equal(sources[1:], sources[:-1]), pc.not_equal(names[1:], names[:-1])
                )
                first = pa.concat_arrays([pa.array([True]), new.combine_chunks()])
                sources, names = sources.filter(first), names.filter(first)
            for source, file in zip(sources.to_pylist(), names.to_pylist(), strict=True):
                files.setdefault(file, source)
        return files

    def _history_sources_by_rows(self, group: dict[str, str | None]) -> dict[str, str]:
        """``_history_sources_of`` a row at a time: each row's ``(source, file)``."""
        files: dict[str, str] = {}
        for source, file in self._column_values("score_history", "file", group):
            if file is not None and file == file:
                files.setdefault(str(file), source)
        return files

    def _column_values(
        self, name: str, column: str, wanted: dict[str, str | None]
    ) -> Iterator[tuple[str, Any]]:
        """``(source path, value)`` of one column of the parts' current rows."""
        for part in sorted({p for p in wanted.values() if p is not None}):
            schema = self.store.part_schema(name, part)
            if schema is None or column not in schema.names:
                continue
            one = self.store.read_part(name, part, [SOURCE_COLUMN, column])
            assert one is not None  # (its schema was just read)
            meta = json.loads((schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]"))
            values = one.column(column).to_pylist()
            if column in meta:
                values = [None if v is None else from_json(v) for v in values]
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

    def __repr__(self) -> str:
        return f"StoredAuditReport({str(self.store.root)!r}, files={len(self.paths)}, rules={self.rules!r})"
