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

The per-player facts (``hand_facts``, ``score_history``: most of a part's cells)
need not even be dicts: ``facts_sink`` gives ``audit_file`` a ``FactsSink`` through
which the core's facts pass writes them cell by cell into their tables
(``stats.file_facts.file_facts_into``), the tables ``add`` would make of the dicts
(``tests/test_part_facts_sink.py`` holds the two ways equal over the shared corpus).
The ``hands`` rows likewise: ``hands_sink`` gives ``audit_file`` a ``HandsSink`` into
whose table the game's one call to the core (``_core.audit_hands``) writes each row's
cells (``tests/test_part_hands_sink.py``).

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
from replay_audit.stats.file_facts import CORE_FACTS, file_facts_into

if TYPE_CHECKING:
    from replay_audit._core import PartRows as CorePartRows
    from replay_audit.model.events import Game

FACTS_TABLES = ("hand_facts", "score_history")
"""The tables a ``FactsSink`` writes, as ``file_facts_into`` takes them."""
HANDS_TABLE = "hands"
"""The table a ``HandsSink`` writes."""


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
        self._facts: tuple[int, int] | None = None
        """The hand facts' and score history's tables, where the core can write them."""
        writable = self._core is not None and CORE_FACTS is not None
        if writable and all(t in self.tables for t in FACTS_TABLES):
            hands, scores = (self.tables.index(t) for t in FACTS_TABLES)
            self._facts = (hands, scores)
        self._hands: int | None = None
        """The hands table, where the core can write it."""
        if self._core is not None and HANDS_TABLE in self.tables:
            self._hands = self.tables.index(HANDS_TABLE)

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

    def facts_sink(self) -> FactsSink | None:
        """A ``FactsSink`` for one file's facts (``audit_file(..., facts_sink=)``); None
        where the core cannot write them (no core, or no such tables here)."""
        return FactsSink(self) if self._facts is not None else None

    def hands_sink(self, source: str) -> HandsSink | None:
        """A ``HandsSink`` for the ``hands`` rows of the file ``source`` (its path as
        ``audit_file`` reports it, ``FileAudit.path``: the rows' ``__source__``); None
        where the core cannot write them."""
        return HandsSink(self, source) if self._hands is not None else None

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


class FactsSink:
    """One file's hand facts and score history, written by the core straight into
    a ``PartRows``' tables (``auditing.auditor.FactsSink``).  Made per file: ``drop``
    takes back what this file's ``take`` wrote, and nothing of any other file."""

    __slots__ = ("_part", "_taken")

    def __init__(self, part: PartRows) -> None:
        self._part = part
        self._taken: tuple[tuple[Any, ...], tuple[int, ...]] | None = None
        """The tables' marks before ``take`` wrote, and the rows it wrote."""

    def take(self, game: Game, source: str) -> list[dict[str, Any]] | None:
        """The game facts' rows of ``game``, its other two tables written into the
        part; None, nothing written, where the dicts are to be made after all: the
        core does not take the game, a table declined (rows before, or one of these:
        the core then rolled its tables back), or an error (the same: the dict way
        then meets it again, and ``audit_file`` reports it as ever)."""
        part = self._part
        core, tables = part._core, part._facts
        assert core is not None and tables is not None and self._taken is None
        h, s = tables
        if h in part._python or s in part._python:
            return None
        marks = (core.mark(h), core.mark(s))
        try:
            got = file_facts_into(game, (core, h, s, source))
        except Exception:
            return None
        if got is None:
            return None
        hands, games, scores = got
        part.counts[h] += hands
        part.counts[s] += scores
        self._taken = (marks, (hands, scores))
        return games

    def drop(self) -> None:
        """Take back what ``take`` wrote (the file failed after it), if anything."""
        if self._taken is None:
            return
        part = self._part
        core, tables = part._core, part._facts
        assert core is not None and tables is not None
        marks, rows = self._taken
        for t, mark, count in zip(tables, marks, rows, strict=True):
            core.rollback(t, mark)
            part.counts[t] -= count
        self._taken = None


class HandsSink:
    """One file's ``hands`` rows, written by the game's one call to the core
    (``_core.audit_hands``) straight into a ``PartRows``' hands table
    (``auditing.game.HandsSink``).  Made per file: ``drop`` takes back what this
    file's games wrote, and nothing of any other file."""

    __slots__ = ("_mark", "_part", "_source", "rows")

    def __init__(self, part: PartRows, source: str) -> None:
        self._part = part
        self._source = source
        self._mark: tuple[int, int, int] | None = None
        """The table's mark before this file's first game wrote."""
        self.rows = 0
        """The rows written so far (not in the ``FileAudit``'s ``hands``)."""

    def target(self) -> tuple[CorePartRows, int, str] | None:
        """What ``_core.audit_hands`` takes to write a game's rows: the part's core
        tables, the hands table's index and the file; None where the rows are to be
        dicts (the table went to Python's path)."""
        part = self._part
        core, t = part._core, part._hands
        assert core is not None and t is not None
        if t in part._python:
            return None
        if self._mark is None:
            self._mark = core.mark(t)
        return core, t, self._source

    def took(self, rows: int) -> None:
        """``_core.audit_hands`` wrote ``rows`` rows of a game (a game it declined or
        failed on took its own back)."""
        self.rows += rows
        t = self._part._hands
        assert t is not None
        self._part.counts[t] += rows

    def drop(self) -> None:
        """Take back every row this file wrote (the file failed after them)."""
        part = self._part
        core, t = part._core, part._hands
        assert core is not None and t is not None
        if self._mark is not None:  # (the table goes to Python's path only in ``add``)
            core.rollback(t, self._mark)
        part.counts[t] -= self.rows
        self.rows = 0
        self._mark = None
