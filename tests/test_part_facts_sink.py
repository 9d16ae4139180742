"""The runner's per-player facts written by the core straight into a part's tables
(``report.part_rows.FactsSink``, ``_core.file_facts(..., sink)``) make the tables
the dict rows make (``audit_file`` without a sink, its ``FileAudit`` rows through
``PartRows.add``): over the fixtures here, and over the whole shared corpus in
``tests/test_part_hands_sink.py`` (both sinks on, as the runner has them: one pass of
the corpus checks both), table for table (schema, types, nulls, column order,
``__source__``), and the comparison fails on a planted difference.  Where the sink's writing stops part-way (a table that declines a row,
an error in the facts pass, a file that fails after its facts were written), the
tables roll back to the file's start and the dict rows take over: forced here.  A
table's rollback itself (``_core.PartRows.rollback``, every column state) is held to
the reference on generated rows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.auditing import auditor
from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit
from replay_audit.model.events import Game
from replay_audit.native import _core as core
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.report import part_rows
from replay_audit.report.part_rows import FACTS_TABLES, PartRows
from replay_audit.report.store import ROW_TABLES
from replay_audit.stats import file_facts
from tests.conftest import FIXTURES
from tests.test_core_codec_part_rows import _FILE, File, assert_tables_of
from tests.test_core_codec_part_rows import TABLES as GENERATED

pytestmark = pytest.mark.skipif(
    core is None or file_facts.CORE_FACTS is None, reason="no compiled core"
)

TABLES = ("files", *ROW_TABLES)
"""A part's tables, as the runner's (``run.chunk._PART_TABLES``)."""


def _add(part: PartRows, fa: FileAudit) -> None:
    """``fa``'s rows into ``part``, as the runner adds them."""
    part.add([[fa.file_row()], *[getattr(fa, t) for t in ROW_TABLES]], fa.path)


def _parts(paths: Iterable[Path | str]) -> tuple[PartRows, PartRows, int]:
    """The part of ``paths`` made both ways: the dict rows (no sink), then the cells
    (a sink per file, as ``run.chunk``); every other row of the two audits equal.
    With the number of files whose facts the sink took (none left in the audit)."""
    by_dicts, by_cells = PartRows(TABLES), PartRows(TABLES)
    taken = 0
    for path in paths:
        want = audit_file(path)
        _add(by_dicts, want)
        sink = by_cells.facts_sink()
        assert sink is not None
        got = audit_file(path, facts_sink=sink)
        for name in ("status", "error", "games", "hands", "findings", "game_facts"):
            assert getattr(got, name) == getattr(want, name), (path, name)
        assert got.file_row() == want.file_row()
        taken += bool(want.hand_facts) and not got.hand_facts and not got.score_history
        _add(by_cells, got)
    return by_dicts, by_cells, taken


def assert_same_parts(got: PartRows, want: PartRows) -> None:
    """Every table equal: the same Arrow table (schema with its metadata, values,
    nulls, the ``__source__`` column), and the same counts."""
    assert got.counts == want.counts
    for name in got.tables:
        a, b = got.table(name), want.table(name)
        assert a.schema.equals(b.schema, check_metadata=True), name
        assert a.equals(b), name


def test_the_fixtures_both_ways() -> None:
    """The project's own fixtures (XML and tenhou.net/6 JSON, whose hands the core
    leaves to Python's rows): the same tables both ways, without the corpus."""
    paths = sorted(FIXTURES.glob("*.xml")) + sorted(FIXTURES.glob("*.json"))
    assert len(paths) > 20
    by_dicts, by_cells, taken = _parts(paths)
    assert taken > 20
    assert_same_parts(by_cells, by_dicts)


def test_a_planted_difference_fails() -> None:
    """The comparison sees one cell changed, and one file's source changed."""
    paths = sorted(FIXTURES.glob("*.xml"))[:3]
    by_dicts, by_cells, _ = _parts(paths)
    assert_same_parts(by_cells, by_dicts)
    changed = PartRows(TABLES)
    for path in paths:
        fa = audit_file(path)
        fa.hand_facts[-1]["delta"] = (fa.hand_facts[-1]["delta"] or 0) + 100
        _add(changed, fa)
    with pytest.raises(AssertionError):
        assert_same_parts(by_cells, changed)
    elsewhere = PartRows(TABLES)
    for path in paths:
        sink = elsewhere.facts_sink()
        assert sink is not None
        fa = audit_file(path, facts_sink=_Renamed(sink))
        _add(elsewhere, fa)
    with pytest.raises(AssertionError):
        assert_same_parts(elsewhere, by_dicts)


@dataclasses.dataclass
class _Renamed:
    """A sink that names another file as the rows' source."""

    sink: part_rows.FactsSink

    def take(self, game: Game, source: str) -> list[dict[str, Any]] | None:
        return self.sink.take(game, source + ".other")

    def drop(self) -> None:
        self.sink.drop()


# ------------------------------------------------------------ forced roll-backs


def _game(path: Path) -> Game:
    return parse_tenhou_xml(path.read_bytes(), str(path), engine="python")


def _with_declined_hand(game: Game, at: int) -> Game:
    """``game`` with hand ``at``'s events in a list: the core leaves that hand to
    Python's rows (``_facts_for_hand``), after writing the hands before it."""
    hands = list(game.hands)
    hands[at] = dataclasses.replace(hands[at], events=list(hands[at].events))  # type: ignore[arg-type]
    return dataclasses.replace(game, hands=tuple(hands))


def _xml_fixtures() -> list[Path]:
    return [p for p in sorted(FIXTURES.glob("*.xml")) if len(_game(p).hands) >= 3]


def _dict_route(part: PartRows, game: Game, source: str) -> None:
    """``game``'s facts as dicts into ``part`` (the runner's way without a sink)."""
    hands, games, scores = file_facts.file_facts(game)
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    rows |= {"hand_facts": hands, "game_facts": games, "score_history": scores}
    part.add([rows[t] for t in TABLES], source)


def _marks(part: PartRows) -> list[Any]:
    assert part._core is not None
    return [part._core.mark(TABLES.index(t)) for t in FACTS_TABLES]


@pytest.mark.parametrize("failure", ["raises", "declined"])
def test_a_facts_pass_stopped_part_way_rolls_back(
    failure: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core stops in the middle of a game, after writing the rows of its first
    hands: Python's rows for a hand raise, or come as a tuple (the table declines
    them).  The tables are as before the game, ``take`` gives None, and the game's
    dict rows then make the part the dict rows alone make."""
    paths = _xml_fixtures()[:3]
    games = [_game(p) for p in paths]
    odd = _with_declined_hand(games[1], 2)
    want, got = PartRows(TABLES), PartRows(TABLES)
    _dict_route(want, games[0], str(paths[0]))
    _dict_route(want, odd, str(paths[1]))
    _dict_route(want, games[2], str(paths[2]))

    sink = got.facts_sink()
    assert sink is not None
    taken = sink.take(games[0], str(paths[0]))
    assert taken is not None
    _add_games(got, taken, str(paths[0]))
    before, counts = _marks(got), list(got.counts)

    reference = file_facts._facts_for_hand
    seen: list[Any] = []

    def stopped(*args: Any) -> Any:
        seen.append(_marks(got))  # the rows written so far in this game
        if failure == "raises":
            raise RuntimeError("the facts pass stops here")
        return tuple(reference(*args))

    with monkeypatch.context() as m:
        m.setattr(file_facts, "_facts_for_hand", stopped)
        sink = got.facts_sink()
        assert sink is not None
        assert sink.take(odd, str(paths[1])) is None
    assert seen and all(s[0][0] > before[0][0] for s in seen)  # rows were written
    assert _marks(got) == before and got.counts == counts  # and taken back
    _dict_route(got, odd, str(paths[1]))
    sink = got.facts_sink()
    assert sink is not None
    taken = sink.take(games[2], str(paths[2]))
    assert taken is not None
    _add_games(got, taken, str(paths[2]))
    assert_same_parts(got, want)


def _add_games(part: PartRows, games: list[dict[str, Any]], source: str) -> None:
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    rows["game_facts"] = games
    part.add([rows[t] for t in TABLES], source)


def test_a_file_failing_after_its_facts_takes_them_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that fails after the sink took its facts (here: an error right after
    the facts step) is reported as it was without a sink, and its facts leave the
    part: the same part both ways."""
    paths = _xml_fixtures()[:3]
    failing = str(paths[1])
    real = auditor._add_facts

    def then_fails(fa: FileAudit, game: Game, sink: Any) -> None:
        real(fa, game, sink)
        if fa.path == failing:
            raise RuntimeError("after the facts")

    monkeypatch.setattr(auditor, "_add_facts", then_fails)
    by_dicts, by_cells, _ = _parts(paths)
    assert_same_parts(by_cells, by_dicts)
    failed = audit_file(failing)
    assert failed.status == "error" and not failed.hand_facts
    assert by_cells.counts[TABLES.index("hand_facts")] > 0


def test_a_table_python_keeps_is_not_written() -> None:
    """Once a facts table declined rows (Python keeps them), the sink writes none
    and the dicts go on; and the core refuses to roll such a table back."""
    part = PartRows(TABLES)
    odd: dict[Any, Any] = {1: "not a str key"}
    rows: dict[str, list[dict[Any, Any]]] = {t: [] for t in TABLES}
    rows["hand_facts"] = [odd]
    part.add([rows[t] for t in TABLES], "odd.xml")
    path = _xml_fixtures()[0]
    sink = part.facts_sink()
    assert sink is not None
    assert sink.take(_game(path), str(path)) is None
    assert part._core is not None
    t = TABLES.index("hand_facts")
    with pytest.raises(ValueError):
        part._core.rollback(t, (0, 0, 0))


def test_no_sink_without_the_core_or_its_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the core, without its facts, or without the facts tables, no sink:
    the runner's files go as dicts, as before."""
    assert PartRows(("files", "games")).facts_sink() is None
    monkeypatch.setattr(part_rows, "CORE_FACTS", None)
    assert PartRows(TABLES).facts_sink() is None
    monkeypatch.undo()
    monkeypatch.setattr(part_rows, "_core", None)
    assert PartRows(TABLES).facts_sink() is None


def test_a_game_the_core_leaves_to_python_goes_as_dicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table size the core's facts do not take (``py_file_facts``): ``take`` gives
    None and writes nothing, and ``audit_file`` then fills its ``FileAudit`` as
    without a sink."""
    path = _xml_fixtures()[0]
    monkeypatch.setattr(file_facts, "RATE_PLACE_SCORES", {})
    part = PartRows(TABLES)
    sink = part.facts_sink()
    assert sink is not None
    fa = audit_file(path, facts_sink=sink)
    assert fa.hand_facts and fa.score_history
    assert fa.hand_facts == audit_file(path).hand_facts
    assert part.counts == [0] * len(TABLES)


# ------------------------------------------------------------ the rollback itself

_ROLLED = st.lists(_FILE, max_size=3)


@settings(max_examples=200, deadline=None)
@given(_ROLLED, _ROLLED, _ROLLED)
def test_rolled_back_rows_leave_no_trace(
    before: list[File], dropped: list[File], after: list[File]
) -> None:
    """Rows added, then more (new keys, a column that turns to Python's path, text,
    nulls), rolled back, then others: the tables of the rows kept alone."""
    rows = PartRows(GENERATED)
    core_rows = rows._core
    assert core_rows is not None
    for path, per_table in before:
        rows.add(per_table, path)
    if rows._python:  # a table declined: Python keeps it, nothing to roll back
        return
    marks = [core_rows.mark(t) for t in range(len(GENERATED))]
    for path, per_table in dropped:
        declined = core_rows.add(per_table, path)
        if declined:
            return
    for t, mark in enumerate(marks):
        core_rows.rollback(t, mark)
    assert [core_rows.mark(t) for t in range(len(GENERATED))] == marks
    for path, per_table in after:
        rows.add(per_table, path)
    assert_tables_of(rows, GENERATED, [*before, *after])
