"""The runner's ``hands`` rows written by the core straight into a part's table
(``report.part_rows.HandsSink``, ``_core.audit_hands(..., part, table, file)``) make
the table the dict rows make (``audit_file`` without a sink, its ``FileAudit.hands``
through ``PartRows.add``): over the whole shared corpus, every table of the part
(schema, types, nulls, column order, row order, ``__source__``), with the facts sink
on as the runner has it, and the comparison fails on a planted difference.  Where the
writing stops part-way (the core declines a game after writing its first hands' rows),
a file fails after its rows were written, the table went to Python's path, or the
game's wins are not the core's own ``win_row``, the rows are taken back or never
written and the dicts take over: forced here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from replay_audit.auditing import auditor
from replay_audit.auditing import engine as engine_module
from replay_audit.auditing import game as game_module
from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit
from replay_audit.model.events import Game
from replay_audit.native import _core as core
from replay_audit.report import part_rows
from replay_audit.report.part_rows import FACTS_TABLES, HANDS_TABLE, PartRows
from replay_audit.report.store import ROW_TABLES
from tests.conftest import CORPUS, FIXTURES, need
from tests.test_part_facts_sink import assert_same_parts

pytestmark = pytest.mark.skipif(
    core is None or not hasattr(core, "audit_hands"), reason="no compiled core"
)

TABLES = ("files", *ROW_TABLES)
"""A part's tables, as the runner's (``run.chunk._PART_TABLES``)."""
HANDS = TABLES.index(HANDS_TABLE)


def _add(part: PartRows, fa: FileAudit) -> None:
    """``fa``'s rows into ``part``, as the runner adds them."""
    part.add([[fa.file_row()], *[getattr(fa, t) for t in ROW_TABLES]], fa.path)


def _by_cells(part: PartRows, path: Path | str) -> FileAudit:
    """``path`` audited as the runner audits it into ``part`` (both sinks), and added."""
    facts = part.facts_sink()
    hands = part.hands_sink(auditor.display_name(path))
    assert hands is not None
    fa = audit_file(path, facts_sink=facts, hands_sink=hands)
    _add(part, fa)
    return fa


def _parts(paths: Iterable[Path | str]) -> tuple[PartRows, PartRows, int, int]:
    """The part of ``paths`` made both ways: the dict rows (no sink), then as the
    runner makes it (a facts and a hands sink per file); every other value of the two
    audits equal.  With the number of files whose hands rows the sink took (none of
    them left in the audit's ``hands``), and of those whose facts the facts sink took
    (none left in the audit either)."""
    by_dicts, by_cells = PartRows(TABLES), PartRows(TABLES)
    taken = facts_taken = 0
    for path in paths:
        want = audit_file(path)
        _add(by_dicts, want)
        got = _by_cells(by_cells, path)
        for name in ("status", "error", "games", "findings", "game_facts"):
            assert getattr(got, name) == getattr(want, name), (path, name)
        assert got.file_row() == want.file_row()
        if got.hands_written:
            assert not got.hands and got.hands_written == len(want.hands) > 0, path
            taken += 1
        else:
            assert got.hands == want.hands, path
        facts_taken += bool(want.hand_facts) and not got.hand_facts and not got.score_history
    return by_dicts, by_cells, taken, facts_taken


def _corpus_paths() -> list[Path]:
    need(CORPUS)
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in {".gz", ".json"})


def _fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*.xml")) + sorted(FIXTURES.glob("*.json"))


@pytest.mark.corpus
def test_the_cells_make_the_dicts_tables_on_the_whole_corpus() -> None:
    """Both sinks on, as the runner has them: this is also the whole-corpus check of
    the facts sink (``tests/test_part_facts_sink.py`` forces its other paths)."""
    paths = _corpus_paths()
    assert len(paths) > 2000
    by_dicts, by_cells, taken, facts_taken = _parts(paths)
    assert_same_parts(by_cells, by_dicts)
    assert taken > 2000
    assert facts_taken > 2000
    assert by_cells.counts[HANDS] > 20_000
    facts = [TABLES.index(t) for t in FACTS_TABLES]
    assert min(by_cells.counts[t] for t in facts) > 100_000
    assert not by_cells._python  # no table went to Python's path


def test_the_fixtures_both_ways() -> None:
    """The project's own fixtures (some with findings and notes, whose hands Python
    audits; tenhou.net/6 JSON): the same tables both ways, without the corpus."""
    by_dicts, by_cells, taken, _ = _parts(_fixtures())
    assert taken > 10
    assert_same_parts(by_cells, by_dicts)


def test_a_planted_difference_fails() -> None:
    """The comparison sees one cell changed, and one file's source changed."""
    paths = sorted(FIXTURES.glob("*.xml"))[:4]
    by_dicts, by_cells, taken, _ = _parts(paths)
    assert taken
    assert_same_parts(by_cells, by_dicts)
    changed = PartRows(TABLES)
    for path in paths:
        fa = audit_file(path)
        if fa.hands:
            fa.hands[-1]["comp_deltas"] = str(fa.hands[-1]["comp_deltas"]) + "0"
        _add(changed, fa)
    with pytest.raises(AssertionError):
        assert_same_parts(by_cells, changed)
    elsewhere = PartRows(TABLES)
    for path in paths:
        sink = elsewhere.hands_sink(auditor.display_name(path) + ".other")
        fa = audit_file(path, facts_sink=elsewhere.facts_sink(), hands_sink=sink)
        _add(elsewhere, fa)
    with pytest.raises(AssertionError):
        assert_same_parts(elsewhere, by_dicts)


# ------------------------------------------------------------ forced roll-backs


def _engine_with(monkeypatch: pytest.MonkeyPatch, **changes: Any) -> None:
    """``engine()`` as ``auditing.game`` asks it, with ``changes``, for the test."""
    eng = dataclasses.replace(engine_module.engine(), **changes)
    monkeypatch.setattr(game_module, "engine", lambda: eng)


class _Spy:
    """A hand's replay whose ``results`` the core reads as it starts the hand: the
    table's size then is noted, and a list (not a tuple) makes the core decline."""

    def __init__(self, replay: Any, part: PartRows, seen: list[Any]) -> None:
        self._replay = replay
        self._part = part
        self._seen = seen

    @property
    def results(self) -> list[Any]:
        assert self._part._core is not None
        self._seen.append(self._part._core.mark(HANDS))
        return list(self._replay.results)


def _multi_hand_fixtures() -> list[Path]:
    """XML fixtures the core takes in one call, of three hands at least."""
    out = []
    for path in sorted(FIXTURES.glob("*.xml")):
        part = PartRows(TABLES)
        fa = _by_cells(part, path)
        if fa.hands_written and sum(g["hands"] for g in fa.games) >= 3:
            out.append(path)
    return out


def test_a_game_declined_part_way_rolls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core declines a game at its last hand, after writing the rows of the
    hands before it: the table is as before the game, and Python's dicts of the
    game then make the part the dict rows alone make."""
    paths = _multi_hand_fixtures()[:3]
    assert len(paths) == 3
    by_dicts, by_cells = PartRows(TABLES), PartRows(TABLES)
    for path in paths:
        _add(by_dicts, audit_file(path))
    seen: list[Any] = []
    calls: list[Any] = []

    def declines_last(real: Any, played: list[Any], *args: Any) -> Any:
        hand, replay = played[-1]
        odd = [*played[:-1], (hand, _Spy(replay, by_cells, seen))]
        assert by_cells._core is not None
        before = by_cells._core.mark(HANDS)
        got = real(odd, *args)
        calls.append((before, by_cells._core.mark(HANDS), got, len(args)))
        return got

    real = engine_module.engine().audit_hands
    _by_cells(by_cells, paths[0])
    with monkeypatch.context() as m:
        _engine_with(m, audit_hands=lambda *args: declines_last(real, *args))
        middle = _by_cells(by_cells, paths[1])
    _by_cells(by_cells, paths[2])
    assert len(calls) == 1 and len(seen) == 1
    (before, after, got, nargs) = calls[0]
    assert nargs == 9 and got is None  # the sink's target was given, and it declined
    assert seen[0][0] > before[0]  # the earlier hands' rows were written
    assert after == before  # and taken back
    assert middle.hands and not middle.hands_written  # the dicts took over
    assert_same_parts(by_cells, by_dicts)


def test_a_file_failing_after_its_rows_takes_them_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that fails after the core wrote its rows (an error in the facts step)
    is reported as without a sink (status ``error``, no rows) and its rows leave the
    part: the same part both ways."""
    paths = _multi_hand_fixtures()[:3]
    failing = str(paths[1])
    real = auditor._add_facts

    def then_fails(fa: FileAudit, game: Game, sink: Any) -> None:
        if fa.path == failing:
            raise RuntimeError("after the hands")
        real(fa, game, sink)

    monkeypatch.setattr(auditor, "_add_facts", then_fails)
    by_dicts, by_cells, taken, _ = _parts(paths)
    assert taken == 2
    assert_same_parts(by_cells, by_dicts)
    failed = audit_file(failing)
    assert failed.status == "error" and not failed.hands and failed.file_row()["results"] == 0


def test_a_table_python_keeps_is_not_written() -> None:
    """Once the hands table declined rows (Python keeps them), the sink gives no
    target and the core's rows come as dicts."""
    part = PartRows(TABLES)
    rows: dict[str, list[dict[Any, Any]]] = {t: [] for t in TABLES}
    rows[HANDS_TABLE] = [{1: "not a str key"}]
    part.add([rows[t] for t in TABLES], "odd.xml")
    path = _multi_hand_fixtures()[0]
    sink = part.hands_sink(str(path))
    assert sink is not None and sink.target() is None
    fa = audit_file(path, hands_sink=sink)
    assert fa.hands == audit_file(path).hands and not fa.hands_written


def test_another_win_row_gives_dicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A context whose ``win_row`` is not the core's own (a stand-in wrapping it): the
    core makes the rows as dicts even with a target, and they are the audit's."""
    path = _multi_hand_fixtures()[0]
    real_win_row = engine_module.engine().win_row
    assert real_win_row is not None
    part = PartRows(TABLES)
    sink = part.hands_sink(str(path))
    assert sink is not None
    with monkeypatch.context() as m:
        _engine_with(m, win_row=lambda *args: real_win_row(*args))
        fa = audit_file(path, hands_sink=sink)
    assert fa.hands and fa.hands == audit_file(path).hands
    assert not fa.hands_written and part.counts[HANDS] == 0


def test_no_sink_without_the_core_or_its_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the core, or without a hands table, no sink: the rows go as dicts."""
    assert PartRows(("files", "games")).hands_sink("a.xml") is None
    monkeypatch.setattr(part_rows, "_core", None)
    assert PartRows(TABLES).hands_sink("a.xml") is None


def test_the_runner_writes_the_hands_it_took(tmp_path: Path) -> None:
    """``audit_files`` with parts: the stored hands table and the files' results are
    those of the dict rows (the runner's own path, end to end)."""
    from replay_audit.run.chunk import ChunkTask, audit_chunk

    paths = tuple(str(p) for p in _fixtures())
    got = audit_chunk(ChunkTask(paths, None, False, str(tmp_path), "p0"))
    want = [audit_file(p) for p in paths]
    assert [e["file_row"] for e in got.entries] == [fa.file_row() for fa in want]
    assert got.hands == sum(int(fa.file_row()["hands"] or 0) for fa in want)
