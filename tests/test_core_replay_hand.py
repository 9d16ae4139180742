"""The compiled core's event loop of a hand (``_core.run_hand``) and its walls of a game
(``_core.hand_walls``) give exactly the replay that ``_Table.run``'s own Python loop and
``_WallSource.for_hand`` give, with every other share of the core (moves, win checks,
values, the tiles met at the deal) the same in both: the same ``HandReplay`` values on
every game of the shared corpus, on the fixtures, and on corpus games whose moves,
riichi, calls and wins were damaged at random (so the loop meets every event it hands
back to the Python rooms, and every win it must leave to ``_win``).  The comparison is
shown to fail for a loop that skips an event kind and for walls given to the wrong hand.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Game, NewDora, RecordedWin
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.replay import results, table, walls
from replay_audit.replay.table import replay_game
from replay_audit.replay.values import GameReplay
from tests import test_core_replay as core_replay
from tests.replay_games import first_phoenix_game, fixture_xml_games
from tests.test_core_replay import _damage, _damage_riichi

pytestmark = pytest.mark.skipif(
    table.CORE_RUN is None or walls.CORE_HAND_WALLS is None, reason="no compiled core"
)


_LOOP_AND_WALLS = ((table, "CORE_RUN", None), (walls, "CORE_HAND_WALLS", None))
"""The shares held here: the core's loop and walls, against ``_Table.run``'s Python loop
and ``for_hand``'s walls (the core's moves and win checks stay on)."""


def _both(game: Game, monkeypatch: pytest.MonkeyPatch) -> tuple[GameReplay, GameReplay]:
    return core_replay._both(game, monkeypatch, _LOOP_AND_WALLS)


def _same(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    core_replay._same(game, monkeypatch, _LOOP_AND_WALLS)


def test_the_core_loop_replays_as_the_python_loop_on_the_whole_corpus(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(corpus_games) > 2000
    made = 0
    for game in corpus_games.values():
        _same(game, monkeypatch)
        got = walls._WallSource(game).for_hands(game.hands)
        want = [walls._WallSource(game).for_hand(h) for h in game.hands]
        assert got == want, game.meta.source
        made += sum(w is not None for w in got)
    assert made > 20000  # the walls were rebuilt, not all left out alike


def test_the_core_loop_replays_as_the_python_loop_on_the_fixtures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for game in fixture_xml_games():
        _same(game, monkeypatch)


def _damage_wins(game: Game, rng: random.Random) -> Game:
    """The game with some of its wins damaged: the winner or the seat it won from
    changed, or the win moved before the move it followed (so the loop meets tsumo out
    of turn, ron with no discard, ron on itself, and shown hands that differ)."""
    hands = []
    for hand in game.hands:
        events = list(hand.events)
        for i in [i for i, ev in enumerate(events) if type(ev) is RecordedWin]:
            ev: Any = events[i]
            how = rng.randrange(4)
            if how == 0:
                events[i] = dataclasses.replace(ev, seat=(ev.seat + 1) % 4)
            elif how == 1:
                events[i] = dataclasses.replace(ev, from_seat=(ev.from_seat + 1) % 4)
            elif how == 2 and i > 0:
                events[i - 1], events[i] = events[i], events[i - 1]
        hands.append(dataclasses.replace(hand, events=tuple(events)))
    return dataclasses.replace(game, hands=tuple(hands))


def test_the_core_loop_replays_damaged_games_as_the_python_loop(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(21)
    games = list(corpus_games.values())[5::7]
    findings = 0
    for game in games:
        for damage in (_damage, _damage_riichi, _damage_wins):
            damaged = damage(game, rng)
            got, want = _both(damaged, monkeypatch)
            assert got.findings == want.findings, game.meta.source
            assert got.hands == want.hands, game.meta.source
            findings += len(want.findings)
    assert findings > len(games) * 2  # the damage did reach the checks


def test_most_wins_are_made_by_the_core_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core is really used: on a clean game, ``_win`` (the Python) makes no win."""
    game = first_phoenix_game()
    made: list[int] = []
    python_win = table._Table._win

    def counting(self: Any, r: RecordedWin, unclean: bool = False) -> Any:
        made.append(r.seq)
        return python_win(self, r, unclean)

    monkeypatch.setattr(table._Table, "_win", counting)
    done = replay_game(game, rules_for_go_type(game.meta.go_type))
    wins = sum(r.win is not None for h in done.hands for r in h.results)
    assert wins > 3
    assert made == []


def test_a_win_the_checks_find_fault_with_is_checked_by_the_python_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the core's win checks say a win is not clean, ``_win`` runs the Python
    checks without asking the core again, and the replay is the reference's."""
    game = first_phoenix_game()
    asked: list[int] = []

    def faulting(table_: Any, *args: Any) -> bool:
        asked.append(args[4].seq)
        return False

    got, want = _both(game, monkeypatch)
    monkeypatch.setattr(results, "CORE_WIN_CHECKS", faulting)
    faulted = replay_game(game, rules_for_go_type(game.meta.go_type))
    assert faulted.hands == want.hands == got.hands
    assert len(asked) == len(set(asked)) > 3


def test_the_comparison_fails_for_a_core_loop_that_skips_new_dora(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The equality tests above can fail: a loop that does not know NewDora (so it
    skips every kan dora) is caught on the first Phoenix game that has one."""
    game = first_phoenix_game()
    assert any(type(ev) is NewDora for h in game.hands for ev in h.events)
    assert table._RUN_CLASSES.new_dora is NewDora
    classes = dataclasses.replace(table._RUN_CLASSES, new_dora=type("NotNewDora", (), {}))
    monkeypatch.setattr(table, "_RUN_CLASSES", classes)
    with pytest.raises(AssertionError):
        _same(game, monkeypatch)


def test_a_table_the_core_loop_cannot_read_is_an_error_not_a_crash() -> None:
    run = table.CORE_RUN
    assert run is not None
    with pytest.raises(TypeError):
        run(object(), (), table.RunArgs(None, None, None, table._RUN_CLASSES, 1000, True))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        run(object(), (), table.RunArgs(None, None, None, (), 1000, True))  # type: ignore[arg-type]


def test_the_comparison_fails_for_walls_given_to_the_wrong_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A core that gives each hand the next hand's wall (its deal then differs, so no
    wall is checked, and the draws are not) is caught on the first Phoenix game."""
    game = first_phoenix_game()
    hand_walls = walls.CORE_HAND_WALLS
    assert hand_walls is not None

    def shifted(*args: Any) -> Any:
        got = hand_walls(*args)
        return [*got[1:], None]

    monkeypatch.setattr(walls, "CORE_HAND_WALLS", shifted)
    with pytest.raises(AssertionError):
        _same(game, monkeypatch)
