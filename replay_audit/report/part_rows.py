"""The tables' rows of a stored part, gathered file by file as a chunk is audited.

Owns ``PartRows``: the runner adds each file's rows of every table as soon as
the file is audited and gets each table of the part at the end, the table
``codec.rows_to_table`` makes of all those rows and their sources.

Why not keep the rows and convert them at the end: a chunk's rows are a few
hundred thousand dicts, and holding them until the part is written cost the
runner more than building the parts (fresh memory for every file, then every
dict walked again, out of the cache, to be taken apart and to be freed: about
a fifth of the runner's time after ``audit_file``, measured over 500 Phoenix
files).  With the compiled core (``_core.PartRows``) each file's rows are taken
apart while they are still in the cache, and the dicts and their values are
freed with the file (the core keeps no value: each cell goes straight into its
column's Arrow buffers).  Without it, or where the core declines some rows, the rows are kept and
``codec.rows_to_table`` converts them: the same table.

Must not: know the layout of a report folder (``report.store``) or audit
anything.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from replay_audit.native import _core
from replay_audit.report.codec import built_table, rows_to_table

if TYPE_CHECKING:
    from replay_audit._core import PartRows as CorePartRows


class PartRows:
    """The rows of ``tables`` of one part, file by file (see the module)."""

    def __init__(self, tables: Sequence[str]) -> None:
        self.tables = tuple(tables)
        self._core: CorePartRows | None = (
            _core.PartRows(len(self.tables)) if _core is not None else None
        )
        self._python: dict[int, tuple[list[dict[str, Any]], list[str]]] = {}
        """Tables whose rows Python keeps: all of them without the core, else those
        the core declined."""
        self.counts = [0] * len(self.tables)
        """Rows added so far, per table."""

    def add(self, rows: Sequence[Sequence[dict[str, Any]]], source: str) -> None:
        """One file's rows of every table (in ``tables`` order), ``source`` being the
        file's path (``__source__``)."""
        for t, got in enumerate(rows):
            self.counts[t] += len(got)
        if self._core is not None:
            declined = self._core.add(rows, source)
            for t in range(len(self.tables)) if declined else ():
                if declined >> t & 1:  # the rows taken so far come back: Python goes on
                    self._python[t] = self._core.rows(t)
        else:
            for t in range(len(self.tables)):
                self._python.setdefault(t, ([], []))
        for t, (kept, sources) in self._python.items():
            kept.extend(rows[t])
            sources.extend([source] * len(rows[t]))

    def table(self, name: str) -> pa.Table:
        """The part's table ``name``: ``codec.rows_to_table(rows, sources)`` of its rows."""
        t = self.tables.index(name)
        if self._core is None or t in self._python:
            kept, sources = self._python.get(t, ([], []))
            return rows_to_table(kept, sources)
        names, columns, absent, runs = self._core.finish(t)
        return built_table(
            names,
            columns,
            absent,
            list(itertools.chain.from_iterable(itertools.repeat(s, k) for s, k in runs)),
        )
