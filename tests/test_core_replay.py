"""The compiled core's share of the replay (``_core.play_moves``: runs of plain draws
and discards) gives exactly the replay the reference (``replay.moves._moves``) gives:
the same ``HandReplay`` values (results, findings, riichi, dora, sticks, scores) on
every game of the shared corpus, on the fixtures, and on corpus games whose moves
were damaged at random (so the core meets every case it must decline: draws out of
turn, tiles not held or seen twice, wall mismatches, riichi, kan dora, rinshan).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Call, Discard, Draw, Game, RiichiAccept, RiichiDeclare
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.parsers.tenhou_json import parse_tenhou_json
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.replay import moves, results, state, table, values, walls
from replay_audit.replay.table import replay_game
from replay_audit.replay.values import GameReplay
from tests.conftest import FIXTURES
from tests.replay_games import first_phoenix_game, fixture_xml_games

pytestmark = pytest.mark.skipif(
    moves.CORE_MOVES is None or results.CORE_WIN_CHECKS is None, reason="no compiled core"
)


_ALL_SHARES: tuple[tuple[Any, str, Any], ...] = (
    (moves, "CORE_MOVES", None),
    (results, "CORE_WIN_CHECKS", None),
    (values, "MAKE", values._py_make),
    (state, "DEALT_SEEN", None),
    (table, "CORE_RUN", None),
    (walls, "CORE_HAND_WALLS", None),
    (state, "CORE_TABLE", None),
    (table, "CORE_GAME", None),
)
"""The core's shares of the replay (moves, win checks, values made without
``__init__``, the tiles met at the deal, the hand's event loop, a game's walls, the
tables it builds, a game's hands in one call), each with what stands in for it without
the core."""


def _both(
    game: Game,
    monkeypatch: pytest.MonkeyPatch,
    shares: tuple[tuple[Any, str, Any], ...] = _ALL_SHARES,
) -> tuple[GameReplay, GameReplay]:
    """The replay with the core's shares, and with ``shares`` switched off (by default
    all of them: the Python reference alone)."""
    rules = rules_for_go_type(game.meta.go_type)
    with_core = replay_game(game, rules)
    with monkeypatch.context() as m:
        for module, name, value in shares:
            m.setattr(module, name, value)
        reference = replay_game(game, rules)
    return with_core, reference


def _same(
    game: Game,
    monkeypatch: pytest.MonkeyPatch,
    shares: tuple[tuple[Any, str, Any], ...] = _ALL_SHARES,
) -> None:
    got, want = _both(game, monkeypatch, shares)
    assert got.findings == want.findings, game.meta.source
    assert got.hands == want.hands, game.meta.source


def test_the_core_plays_moves_as_the_reference_on_the_whole_corpus(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(corpus_games) > 2000
    for game in corpus_games.values():
        _same(game, monkeypatch)


def test_the_core_plays_moves_as_the_reference_on_the_fixtures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for game in fixture_xml_games():
        _same(game, monkeypatch)
    for p in sorted(FIXTURES.glob("json_*.json")):
        _same(parse_tenhou_json(p.read_bytes(), str(p)), monkeypatch)


def _damage(game: Game, rng: random.Random) -> Game:
    """The game with a few of its moves damaged: a draw or discard dropped, repeated,
    moved to another seat or given another tile (a copy of the same kind, or any)."""
    hands = []
    for hand in game.hands:
        events = list(hand.events)
        for _ in range(rng.randrange(4)):
            plain = [i for i, ev in enumerate(events) if type(ev) in (Draw, Discard)]
            if not plain:
                break
            i = rng.choice(plain)
            ev: Any = events[i]
            how = rng.randrange(5)
            if how == 0:
                del events[i]
            elif how == 1:
                events.insert(i, ev)
            elif how == 2:
                events[i] = dataclasses.replace(ev, seat=(ev.seat + 1) % 4)
            elif how == 3:
                tile = ev.tile ^ rng.randrange(1, 4)
                events[i] = dataclasses.replace(ev, tile=tile)
            else:
                events[i] = dataclasses.replace(ev, tile=rng.randrange(136))
        hands.append(dataclasses.replace(hand, events=tuple(events)))
    return dataclasses.replace(game, hands=tuple(hands))


def test_the_core_plays_damaged_moves_as_the_reference(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(19)
    games = list(corpus_games.values())[::7]
    findings = 0
    for game in games:
        damaged = _damage(game, rng)
        got, want = _both(damaged, monkeypatch)
        assert got.findings == want.findings, game.meta.source
        assert got.hands == want.hands, game.meta.source
        findings += len(want.findings)
    assert findings > len(games)  # the damage did reach the checks


def _damage_riichi(game: Game, rng: random.Random) -> Game:
    """The game with some of its riichi and calls damaged: a REACH step or call dropped,
    repeated, moved to another seat or before the move it followed, or the riichi
    points short (so the core meets every riichi and call it must decline: out of
    turn, twice, without a declaration, not tenpai, short of points, of no discard,
    of tiles not held)."""
    hands = []
    for hand in game.hands:
        events = list(hand.events)
        steps = [
            i for i, ev in enumerate(events) if type(ev) in (RiichiDeclare, RiichiAccept, Call)
        ]
        for i in sorted(rng.sample(steps, min(len(steps), rng.randrange(3))), reverse=True):
            ev: Any = events[i]
            how = rng.randrange(5)
            if how == 0:
                del events[i]
            elif how == 1:
                events.insert(i, ev)
            elif how == 2:
                events[i] = dataclasses.replace(ev, seat=(ev.seat + 1) % 4)
            elif how == 3 and i > 0:
                events[i - 1], events[i] = events[i], events[i - 1]
            else:
                hand = dataclasses.replace(hand, scores=tuple(500 for _ in hand.scores))
        hands.append(dataclasses.replace(hand, events=tuple(events)))
    return dataclasses.replace(game, hands=tuple(hands))


def test_the_core_plays_damaged_riichi_and_calls_as_the_reference(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(20)
    games = list(corpus_games.values())[3::7]
    findings = 0
    for game in games:
        damaged = _damage_riichi(game, rng)
        got, want = _both(damaged, monkeypatch)
        assert got.findings == want.findings, game.meta.source
        assert got.hands == want.hands, game.meta.source
        findings += sum(f.field.startswith(("riichi", "call", "chi")) for f in want.findings)
    assert findings > len(games) // 2  # the damage did reach the riichi and call checks


def _assert_caught(game: Game, broken: Any) -> None:
    """``_same`` fails on ``game`` when ``broken`` stands in for the core's ``play_moves``."""
    monkeypatch = pytest.MonkeyPatch()
    try:
        monkeypatch.setattr(moves, "CORE_MOVES", broken)
        with pytest.raises(AssertionError):
            _same(game, monkeypatch)
    finally:
        monkeypatch.undo()


def test_a_phoenix_game_replays_mostly_in_the_core() -> None:
    """The core is really used: most draws and discards of a clean game are its."""
    game = first_phoenix_game()
    hand = game.hands[0]
    calls: list[int] = []
    play = moves.CORE_MOVES
    assert play is not None

    def counting(*args: object) -> object:
        got: Any = play(*args)
        start: Any = args[2]
        calls.append(max(0, got - start))
        return got

    monkeypatch = pytest.MonkeyPatch()
    try:
        monkeypatch.setattr(moves, "CORE_MOVES", counting)
        replay_game(dataclasses.replace(game, hands=(hand,)), rules_for_go_type(game.meta.go_type))
    finally:
        monkeypatch.undo()
    plain = sum(type(ev) in (Draw, Discard) for ev in hand.events)
    assert sum(calls) > plain * 0.9


def test_the_comparison_fails_for_a_core_that_plays_differently() -> None:
    """The equality tests above can fail: a core that forgets the discard it ended
    on (so a chi or pon of it looks like a call of nothing) is caught on the first
    phoenix game."""
    game = first_phoenix_game()
    play = moves.CORE_MOVES
    assert play is not None

    def forgetful(*args: Any) -> Any:
        got = play(*args)
        if got >= 0:
            args[0].last_offer = None
        return got

    _assert_caught(game, forgetful)


def test_the_comparison_fails_for_a_core_that_forgets_a_riichi_stick() -> None:
    """The riichi the core plays is held to the reference too: a core that leaves the
    sticks on the table as they were is caught on the first phoenix game."""
    game = first_phoenix_game()
    assert any(type(ev) is RiichiAccept for h in game.hands for ev in h.events)
    play = moves.CORE_MOVES
    assert play is not None

    def stickless(*args: Any) -> Any:
        before = args[0].sticks
        got = play(*args)
        args[0].sticks = before
        return got

    _assert_caught(game, stickless)


def test_the_comparison_fails_for_a_core_that_loses_a_meld() -> None:
    """The calls the core plays are held to the reference too: a core whose chi or pon
    leaves no meld on the table is caught on the first phoenix game."""
    game = first_phoenix_game()
    play = moves.CORE_MOVES
    assert play is not None

    def meldless(*args: Any) -> Any:
        before = [len(m) for m in args[0].melds]
        got = play(*args)
        for seat, melds in enumerate(args[0].melds):
            del melds[before[seat] :]
        return got

    _assert_caught(game, meldless)


def _table(game: Game) -> Any:
    from replay_audit.replay.table import _Table

    return _Table(game, game.hands[0], rules_for_go_type(game.meta.go_type), None)


def _rest(table: Any) -> tuple[Any, ...]:
    """``play_moves``' arguments after the index, as ``replay.moves`` gives them."""
    rules = table.rules
    return (
        Draw,
        Discard,
        0,
        RiichiDeclare,
        RiichiAccept,
        rules.riichi_cost,
        Call,
        moves._CHI,
        moves._PON,
        rules.chi,
    )


def test_a_declined_first_move_leaves_the_table_as_it_was() -> None:
    path = sorted(FIXTURES.glob("*.xml"))[0]
    game = parse_tenhou_xml(path.read_bytes(), str(path))
    table = _table(game)
    from replay_audit.replay.state import _TableState

    before = {name: repr(getattr(table, name, None)) for name in _TableState.__slots__}
    events = game.hands[0].events
    first = next(i for i, ev in enumerate(events) if type(ev) is Draw)
    out_of_turn = dataclasses.replace(events[first], seat=(events[first].seat + 1) % 4)  # type: ignore[attr-defined]
    assert moves.CORE_MOVES is not None
    got = moves.CORE_MOVES(table, (out_of_turn,), 0, *_rest(table))
    assert got == -1
    after = {name: repr(getattr(table, name, None)) for name in before}
    assert after == before


def test_a_table_the_core_cannot_read_is_an_error_not_a_crash() -> None:
    path = sorted(FIXTURES.glob("*.xml"))[0]
    game = parse_tenhou_xml(path.read_bytes(), str(path))
    play = moves.CORE_MOVES
    assert play is not None
    events = game.hands[0].events
    table = _table(game)
    table.core_lists = table.core_lists[:-1]
    with pytest.raises(ValueError):
        play(table, events, 0, *_rest(table))
    table = _table(game)
    table.to_draw = "east"
    with pytest.raises(TypeError):
        play(table, events, 0, *_rest(table))
    with pytest.raises(TypeError):
        play(_table(game), events, 0, Draw, Discard, 0)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        play(_table(game), events, 0, *_rest(table)[:-1])
    with pytest.raises(TypeError):
        play(_table(game), list(events), 0, *_rest(table))


def test_the_offer_the_core_writes_is_a_discard_offer() -> None:
    """The core ends a run on a discard with ``last_offer = (seat, tile, 0)``: 0 must
    stay ``_OFFER_DISCARD`` (and the counters it writes, slots of the table)."""
    from replay_audit.replay import state

    assert state._OFFER_DISCARD == 0
    for name in ("core_lists", "to_draw", "to_act", "after_call", "live", "last_offer"):
        assert name in state._TableState.__slots__
