"""The auditor's calls to the core (``_core.win_row``, ``_core.events_except``)
against their Python reference.

``auditing.wins._Wins._audit_win`` fills a win's ``hands`` row in one call to the
core where every cell agrees with the value the core computes (and no pao seat or
other reading of the rules weighs in); the Python code of the same method audits
every other win, and is the reference.  Held together here: the whole shared
corpus audited with the one-call path and without it gives the same rows,
findings and games; a row the core filled differently (a planted difference) is
seen; and a win that disagrees with its value (a recorded fu off by ten, a
payment off by 100) is left to Python, the row untouched.

``auditing.hands._Hands._audit_hand`` walks a hand's events but the draws,
discards and other moves it passes over, picked out by ``_core.events_except``;
its loop over every event (without the core) is the reference: both give the same
events on every hand of the corpus, a lost event is seen, and the audit is the
same either way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from replay_audit.auditing import engine as engine_module
from replay_audit.auditing import game, wins
from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit
from replay_audit.native import _core
from tests.conftest import CORPUS, core_built, need

needs_core = core_built("win_row")


def _paths(step: int = 1) -> list[Path]:
    need(CORPUS)
    paths = sorted(CORPUS.rglob("*.xml.gz")) + sorted(CORPUS.rglob("*.json"))
    return paths[::step]


def _audits(paths: list[Path], win_row: Callable[..., Any] | None) -> list[FileAudit]:
    """``audit_file`` of every path with ``engine().win_row`` set to ``win_row``, each
    win audited by ``_audit_win`` (not in the game's one call, ``_core.audit_hands``:
    ``tests/test_core_hand_audit.py`` holds that one to the Python code)."""
    eng = dataclasses.replace(engine_module.engine(), win_row=win_row, audit_hands=None)
    saved = wins.engine, game.engine
    wins.engine = game.engine = lambda: eng  # type: ignore[assignment]
    try:
        return [audit_file(p) for p in paths]
    finally:
        wins.engine, game.engine = saved  # type: ignore[assignment]


def _differences(a: list[FileAudit], b: list[FileAudit]) -> list[str]:
    out: list[str] = []
    for x, y in zip(a, b, strict=True):
        if (x.hands, x.findings, x.games, x.status) != (y.hands, y.findings, y.games, y.status):
            out.append(x.path)
    return out


@needs_core
@pytest.mark.corpus
def test_the_corpus_audit_is_the_same_with_and_without_the_one_call_win() -> None:
    paths = _paths()
    assert len(paths) > 2700
    counted: list[int] = []

    def counting(*args: Any) -> Any:
        got = _core.win_row(*args)
        counted.append(got is not None)
        return got

    with_it = _audits(paths, counting)
    python = _audits(paths, None)
    assert not _differences(with_it, python)
    # nearly every win goes through the core; the rest (findings, pao, yakuman,
    # 2006 logs' readings) through Python
    assert len(counted) > 24_000 and sum(counted) > 0.95 * len(counted)


@needs_core
@pytest.mark.corpus
def test_a_planted_difference_in_the_row_is_seen() -> None:
    """The comparison above fails where the core's row differs in one cell."""

    def off_by_a_fu(row: dict[str, Any], *args: Any) -> Any:
        got = _core.win_row(row, *args)
        if got is not None:
            row["comp_fu"] = (row["comp_fu"] or 0) + 10
        return got

    paths = _paths(step=50)
    assert _differences(_audits(paths, off_by_a_fu), _audits(paths, None))


@needs_core
@pytest.mark.corpus
def test_a_win_that_disagrees_with_its_value_is_left_to_python() -> None:
    """A recorded fu or payment off: ``win_row`` declines and leaves the row as it
    was, and the Python code reports the difference."""
    from replay_audit.auditing.game import _detected
    from replay_audit.io import read_log
    from replay_audit.model.events import RecordedWin
    from replay_audit.replay import replay_game
    from replay_audit.scoring.core import core_rules as score_rules_of

    game = read_log(_paths()[0])
    rules, _ = _detected(game)
    replay = replay_game(game, rules)
    hr = next(h for h in replay.hands if h.results and h.results[0].win is not None)
    rr = hr.results[0]
    ev = rr.result
    assert isinstance(ev, RecordedWin)
    hand = hr.hand
    core_rules = score_rules_of(rules)
    sticks = hand.sticks + len(hr.riichi_accepted)
    args = (core_rules, hand.dealer, game.meta.players, hand.honba, sticks, True)
    row: dict[str, Any] = {"seq": ev.seq}
    assert _core.win_row(row, ev, rr.win, *args) is not None
    assert row["rec_fu"] == row["comp_fu"] and len(row) == 18
    bad_deltas = (ev.deltas[0] + 100, *ev.deltas[1:])
    for bad in (
        dataclasses.replace(ev, fu=(ev.fu or 0) + 10),
        dataclasses.replace(ev, deltas=bad_deltas),
    ):
        row = {"seq": ev.seq}
        assert _core.win_row(row, bad, rr.win, *args) is None
        assert row == {"seq": ev.seq}


# ------------------------------------------------------------------ events_except

needs_pick = core_built("events_except")


def _unpicked(hands: list[Any], pick: Callable[..., Any]) -> list[str]:
    """The hands where ``pick(events, _PASSED_OVER)`` is not the Python reference's
    list (every event whose type is not one of those passed over, in order)."""
    from replay_audit.auditing.hands import _PASSED_OVER

    out: list[str] = []
    for hand in hands:
        want = [ev for ev in hand.events if type(ev) not in _PASSED_OVER]
        got = pick(hand.events, _PASSED_OVER)
        if got != want or any(a is not b for a, b in zip(got, want, strict=True)):
            out.append(hand.label)
    return out


@needs_pick
@pytest.mark.corpus
def test_events_except_picks_what_the_python_loop_looks_at(
    corpus_games: dict[Path, Any],
) -> None:
    hands = [h for g in corpus_games.values() for h in g.hands]
    assert len(hands) > 27_000
    assert not _unpicked(hands, _core.events_except)
    # what it leaves out: only the exact types, not a subclass; no tuple, no answer
    from replay_audit.model.events import Draw

    class Odd(Draw):
        pass

    odd = Odd(0, 0, 0)
    assert _core.events_except((odd, Draw(1, 0, 0)), (Draw,)) == [odd]
    assert _core.events_except([1, 2], (int,)) is None


@needs_pick
@pytest.mark.corpus
def test_a_planted_difference_in_the_picked_events_is_seen(
    corpus_games: dict[Path, Any],
) -> None:
    """The comparison above fails where one event in a hand is lost."""
    from replay_audit.model.events import RiichiAccept

    def loses_the_sticks(events: Any, skip: Any) -> Any:
        return [ev for ev in _core.events_except(events, skip) if type(ev) is not RiichiAccept]

    hands = [h for g in list(corpus_games.values())[:200] for h in g.hands]
    assert _unpicked(hands, loses_the_sticks)


@needs_pick
@pytest.mark.corpus
def test_the_audit_is_the_same_with_the_python_loop_over_every_event() -> None:
    paths = _paths(step=7)
    eng = engine_module.engine()
    from replay_audit.auditing import hands as hands_module

    # every hand through ``_audit_hand`` (not the game's one call, ``_core.audit_hands``)
    saved = hands_module.engine, game.engine
    game.engine = lambda: dataclasses.replace(eng, audit_hands=None)  # type: ignore[assignment]
    try:
        picked = [audit_file(p) for p in paths]
        hands_module.engine = lambda: dataclasses.replace(eng, events_except=None)  # type: ignore[assignment]
        looped = [audit_file(p) for p in paths]
    finally:
        hands_module.engine, game.engine = saved  # type: ignore[assignment]
    assert not _differences(picked, looped)
