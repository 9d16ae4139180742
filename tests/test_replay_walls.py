"""The replay's walls (``replay.walls``): the hot path reads the core's wall records
without a ``Wall`` per hand, and compares each seat's deal as dealt before it
compares sets.  Both shortcuts must give what ``replay_audit.wall`` gives: the same
tiles for every hand, and the same match or mismatch for a deal listed in another
order or with a tile moved to another seat.
"""

from __future__ import annotations

import dataclasses
import gzip
from itertools import islice

import pytest

from replay_audit import native, wall
from replay_audit.model.events import Game, HandLog
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.replay import walls as replay_walls
from replay_audit.replay.table import replay_game
from replay_audit.replay.walls import _hand_wall, _WallSource
from tests.conftest import CORPUS, need


def _phoenix(count: int) -> list[Game]:
    paths = sorted(need(CORPUS / "tenhou-xml" / "phoenix-2024").glob("*.xml.gz"))[:count]
    return [parse_tenhou_xml(gzip.decompress(p.read_bytes()), str(p)) for p in paths]


def _expected(
    w: wall.Wall, hand: HandLog, dice: bool = True
) -> tuple[tuple[int, ...] | None, ...] | None:
    """What the replay should get of ``w`` for ``hand``, from ``replay_audit.wall`` alone
    (``dice``: given the wall's dice after its tiles, as a record has them)."""
    if w.dora_indicator(0) != hand.dora_indicator:
        return None
    dealt = w.haipai(hand.dealer)
    if any(set(a) != set(b) for a, b in zip(dealt, hand.haipai, strict=False)):
        return None
    return (
        tuple(w.dora_indicator(k) for k in range(5)),
        tuple(w.ura_indicator(k) for k in range(5)),
        tuple(w.live_tile(i) for i in range(w.live_count(0))),
        tuple(w.rinshan_tile(i) for i in range(w.replacement_count)),
        w.dice if dice else None,
    )


def _got(hand_wall: object) -> tuple[tuple[int, ...] | None, ...] | None:
    if hand_wall is None:
        return None
    return tuple(getattr(hand_wall, f.name) for f in dataclasses.fields(hand_wall))  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [4, 3])
def test_wall_tiles_are_the_walls_tiles(players: int) -> None:
    """``native.iter_wall_tiles`` gives each wall's tiles in draw order (a core record
    may carry the dice after them), as ``replay_audit.wall.iter_walls``."""
    seed = wall._EXAMPLE_SEED
    flipped, size, it = native.iter_wall_tiles(seed, players)
    want = list(islice(wall.iter_walls(seed, players), 3))
    assert size == len(want[0].tiles) and flipped == want[0].flipped
    for got, w in zip(islice(it, 3), want, strict=True):
        assert tuple(got[:size]) == w.tiles


def test_damaged_seeds_still_raise_value_error() -> None:
    with pytest.raises(ValueError):
        native.iter_wall_tiles("mt19937ar-sha512-n288-base64,@@@", 4)
    with pytest.raises(ValueError):
        native.iter_wall_tiles("mt19937ar-sha512-n288-base64," + "A" * 3328, 5)


def test_each_hand_gets_what_the_wall_module_gives() -> None:
    for game in _phoenix(20):
        source = _WallSource(game)
        walls = wall.iter_walls(game.meta.seed or "", game.meta.players)
        for hand in game.hands:
            want = _expected(next(walls), hand)
            assert want is not None
            assert _got(source.for_hand(hand)) == want


def test_a_deal_listed_in_another_order_still_matches() -> None:
    """Logs list a seat's tiles in the order dealt; another order is the same deal."""
    game = _phoenix(1)[0]
    hand = game.hands[0]
    reordered = dataclasses.replace(hand, haipai=tuple(tuple(reversed(h)) for h in hand.haipai))
    assert reordered.haipai != hand.haipai
    w = next(wall.iter_walls(game.meta.seed or "", game.meta.players))
    assert _hand_wall(w.tiles, len(w.tiles), w.flipped, reordered) is not None
    got_wall = _hand_wall(w.tiles, len(w.tiles), w.flipped, reordered)
    assert _got(got_wall) == _expected(w, hand, dice=False)
    rules = rules_for_go_type(game.meta.go_type)
    got = replay_game(dataclasses.replace(game, hands=(reordered,)), rules)
    assert not [f for f in got.findings if f.field == "wall"]


def test_a_tile_dealt_to_another_seat_does_not_match() -> None:
    game = _phoenix(1)[0]
    hand = game.hands[0]
    h0, h1, *rest = hand.haipai
    swapped = dataclasses.replace(hand, haipai=((h1[0], *h0[1:]), (h0[0], *h1[1:]), *rest))
    w = next(wall.iter_walls(game.meta.seed or "", game.meta.players))
    assert _expected(w, swapped) is None
    assert _hand_wall(w.tiles, len(w.tiles), w.flipped, swapped) is None
    source = _WallSource(dataclasses.replace(game, hands=(swapped,)))
    assert source.for_hand(swapped) is None


def test_layouts_follow_the_wall_module() -> None:
    """Three-player and 2009 (flipped) walls too: positions come from ``Wall``."""
    seed = wall._EXAMPLE_SEED
    for players in (3, 4):
        for w in islice(wall.iter_walls(seed, players), 4):
            for flip in (False, True):
                ww = dataclasses.replace(w, flipped=flip)
                for dealer in range(players):
                    hand = HandLog(
                        index=0,
                        seq=0,
                        round_index=0,
                        honba=0,
                        sticks=0,
                        dealer=dealer,
                        scores=(25000,) * players,
                        haipai=ww.haipai(dealer),
                        dora_indicator=ww.dora_indicator(0),
                    )
                    got = _got(_hand_wall(ww.tiles, len(ww.tiles), flip, hand))
                    assert got == _expected(ww, hand, dice=False)
                    with_dice = _hand_wall(ww.tiles + ww.dice, len(ww.tiles), flip, hand)
                    assert _got(with_dice) == _expected(ww, hand)


def _variants(ww: wall.Wall, dealer: int, players: int) -> list[HandLog]:
    """A hand dealt from ``ww`` as dealt, listed in another order, with a tile moved
    to another seat, and with another dora indicator."""
    deal = ww.haipai(dealer)
    hand = HandLog(
        index=0,
        seq=0,
        round_index=0,
        honba=0,
        sticks=0,
        dealer=dealer,
        scores=(25000,) * players,
        haipai=deal,
        dora_indicator=ww.dora_indicator(0),
    )
    h0, h1, *rest = deal
    return [
        hand,
        dataclasses.replace(hand, haipai=tuple(tuple(reversed(h)) for h in deal)),
        dataclasses.replace(hand, haipai=((h1[0], *h0[1:]), (h0[0], *h1[1:]), *rest)),
        dataclasses.replace(hand, dora_indicator=(ww.dora_indicator(0) + 1) % len(ww.tiles)),
    ]


@pytest.mark.skipif(replay_walls.CORE_HAND_WALL is None, reason="no compiled core")
def test_the_core_reads_a_record_as_the_python_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_core.hand_wall`` (a core record, the deal as dealt) against ``_hand_wall``'s
    own lines and ``replay_audit.wall``, for both sizes, flips and every dealer."""
    core = replay_walls.CORE_HAND_WALL
    assert core is not None
    answered = 0
    for players in (3, 4):
        for w in islice(wall.iter_walls(wall._EXAMPLE_SEED, players), 4):
            for flip in (False, True):
                ww = dataclasses.replace(w, flipped=flip)
                record = bytes(ww.tiles) + bytes(ww.dice)
                size = len(ww.tiles)
                for dealer in range(players):
                    for hand in _variants(ww, dealer, players):
                        got = _got(_hand_wall(record, size, flip, hand))
                        with monkeypatch.context() as m:
                            m.setattr(replay_walls, "CORE_HAND_WALL", None)
                            want = _got(_hand_wall(record, size, flip, hand))
                        assert got == want == _expected(ww, hand)
                    plan = replay_walls._LAYOUTS[size, flip, dealer].plan  # type: ignore[union-attr]
                    hand = _variants(ww, dealer, players)[0]
                    found = core(record, plan, hand.dora_indicator, hand.haipai)
                    answered += found is not NotImplemented and found is not None
    assert answered == 4 * 2 * 3 + 4 * 2 * 4  # every deal as dealt: the core's


def test_the_comparison_fails_for_a_core_that_swaps_dora_and_ura(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _phoenix(1)[0]
    core = replay_walls.CORE_HAND_WALL
    if core is None:
        pytest.skip("no compiled core")

    def swapped(*args: object) -> object:
        found = core(*args)
        if isinstance(found, tuple):
            return (found[1], found[0], *found[2:])
        return found

    monkeypatch.setattr(replay_walls, "CORE_HAND_WALL", swapped)
    source = _WallSource(game)
    want = _expected(next(wall.iter_walls(game.meta.seed or "", game.meta.players)), game.hands[0])
    assert _got(source.for_hand(game.hands[0])) != want
