"""Hand-made Mahjong Soul games (tenhou.net/6 JSON, as tensoul writes them) for the
length tests (``test_majsoul_length.py``): the fixtures named in ``FIXTURE_GAMES``
(``fixtures/majsoul_*length*``, ``majsoul_*sudden_death*``, ``majsoul_*own_target*``)
are those games written out, and the tests build changed games the same way.

Every hand is one ron on the first go-around, from one of two worked-out shapes
(no wall seed: the walls are not checked):

* ``SMALL``: the winner holds 1-2-3m 6-7m 4-5-6p 2-2p 7-8-9s and rons 8m: pinfu,
  30 fu 1 han, 1000 (the dealer: 1500);
* ``MANGAN``: the winner holds 2-3-4m 6-7-8m 5p and a red 5p 6-7-8p 3-4s with the
  4p indicator and rons 2s: pinfu, tanyao, dora 2, a red five: mangan, 8000 (the
  dealer: 12000).

Three-player games (no 2-8m) use ``SMALL_3P`` (1-2-3p 6-7p 4-5-6s 2-2s 7-8-9s,
ron 8p: pinfu, 1000/1500) and ``MANGAN_3P`` (2-3-4p 6-7-8p 5p and a red 5p 6-7-8s
3-4s, the 4p indicator, ron 2s: pinfu, tanyao, dora 2, a red five: 8000/12000);
a ron pays the same as with four.

The discarder holds the winning tile among four-of-a-kind honors; the other
seats hold tiles that win nothing.  From the dealer each seat draws in turn and
discards what it drew, until the discarder's first turn after the winner's own
first draw, where it lets the winning tile go.  Honba add 300 (not worked out for
three players: ``build`` refuses a three-player dealer win); the deal passes
unless the dealer won.  ``build`` checks that no tile kind is used more than four
times in a hand, nor a 2-8m with three players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Shape:
    """One winning hand and the tiles around it."""

    win: tuple[int, ...]
    ron: int
    dora: int
    loser: tuple[int, ...]
    """The discarder's twelve tiles besides the winning one."""
    junk: tuple[tuple[int, ...], tuple[int, ...]]
    draws: tuple[int, ...]
    points: tuple[int, int]
    """Non-dealer, dealer."""
    text: tuple[str, str]
    yaku: tuple[str, ...]


HONORS = (41, 41, 41, 41, 42, 42, 42, 42, 43, 43, 43, 43)

SMALL = Shape(
    win=(11, 12, 13, 16, 17, 24, 25, 26, 32, 32, 37, 38, 39),
    ron=18,
    dora=44,
    loser=HONORS,
    junk=(
        (19, 19, 44, 44, 44, 46, 46, 46, 46, 47, 47, 47, 47),
        (19, 19, 29, 29, 29, 29, 31, 31, 31, 31, 39, 39, 39),
    ),
    draws=(11, 21, 11, 21, 11, 21, 21, 22),
    points=(1000, 1500),
    text=("30符1飜1000点", "30符1飜1500点"),
    yaku=("平和(1飜)",),
)
MANGAN = Shape(
    win=(12, 13, 14, 16, 17, 18, 25, 52, 26, 27, 28, 33, 34),
    ron=32,
    dora=24,
    loser=HONORS,
    junk=(
        (19, 44, 44, 44, 44, 46, 46, 46, 46, 47, 47, 47, 47),
        (19, 19, 19, 29, 29, 29, 29, 31, 31, 31, 31, 39, 39),
    ),
    draws=(11, 21, 11, 21, 11, 21, 11, 21),
    points=(8000, 12000),
    text=("満貫8000点", "満貫12000点"),
    yaku=("平和(1飜)", "断幺九(1飜)", "ドラ(2飜)", "赤ドラ(1飜)"),
)

SMALL_3P = replace(
    SMALL, win=(21, 22, 23, 26, 27, 34, 35, 36, 32, 32, 37, 38, 39), ron=28, loser=HONORS
)
MANGAN_3P = replace(
    MANGAN, win=(22, 23, 24, 26, 27, 28, 25, 52, 36, 37, 38, 33, 34), ron=32, dora=24, loser=HONORS
)
"""The two shapes with three players: the same value, draws and junk, with no 2-8m in
the winner's hand and the discarder's tiles all honours (``HONORS``)."""

Win = tuple[int, int, Shape]
"""One hand: the winner, the discarder and the shape."""


def _kind(tile: int) -> int:
    """A tile's kind: a red five (51-53) is its suit's 5 (15, 25, 35)."""
    return (tile - 50) * 10 + 5 if tile > 50 else tile


def _check_tiles(tiles: list[list[int]], draws: list[list[int]], dora: int, players: int) -> None:
    """No kind used more than four times (the dora indicator too), no 2-8m with
    three players: a shape that breaks either is no game."""
    used = Counter(_kind(t) for t in [dora, *(t for seat in tiles + draws for t in seat)])
    over = sorted(k for k, c in used.items() if c > 4)
    if over:
        raise ValueError(f"more than four of {over}")
    if players == 3 and any(12 <= k <= 18 for k in used):
        raise ValueError("2-8m with three players")


def _hand(
    state: tuple[int, int, int],
    scores: list[int],
    winner: int,
    loser: int,
    shape: Shape,
    players: int,
) -> tuple[list[Any], list[int], bool]:
    """The hand's JSON array, the scores after it and whether the dealer keeps the deal."""
    round_index, honba, _ = state
    dealer = round_index % 4
    tiles: list[list[int]] = [[] for _ in range(4)]
    tiles[winner] = list(shape.win)
    tiles[loser] = sorted([shape.ron, *shape.loser])
    others = [s for s in range(players) if s not in (winner, loser)]
    for seat, junk in zip(others, shape.junk, strict=False):
        tiles[seat] = list(junk)
    draws: list[list[int]] = [[] for _ in range(4)]
    discards: list[list[int]] = [[] for _ in range(4)]
    wall = list(shape.draws)
    winner_drew = False
    seat = dealer
    while True:
        draws[seat].append(wall.pop(0))
        if seat == loser and winner_drew:
            discards[seat].append(shape.ron)
            break
        discards[seat].append(60)  # the drawn tile, let go at once
        winner_drew = winner_drew or seat == winner
        seat = (seat + 1) % players
    _check_tiles(tiles, draws, shape.dora, players)
    keeps = winner == dealer
    if players == 3 and (keeps or honba):
        raise ValueError("a three-player dealer win or honba is not worked out here")
    paid = shape.points[keeps] + 300 * honba
    deltas = [0, 0, 0, 0]
    deltas[loser] -= paid
    deltas[winner] += paid
    out: list[Any] = [list(state), list(scores), [shape.dora], []]
    for s in range(4):
        out += [tiles[s], draws[s], discards[s]]
    out.append(["和了", deltas, [winner, loser, winner, shape.text[keeps], *shape.yaku]])
    return out, [a + d for a, d in zip(scores, deltas, strict=True)], keeps


def build(
    wins: Sequence[Win],
    *,
    disp: str,
    ref: str,
    start: int | None = None,
    uma: tuple[int, ...] | None = None,
    players: int = 4,
) -> dict[str, Any]:
    """A whole game of ``wins`` from East 1 on, settled against ``start`` with ``uma``
    (exact to 0.1, ties by seat order): Mahjong Soul's way.  By default a room's
    own: 25000 and +15/+5/-5/-15, with three players 35000 and +15/0/-15 (the
    fourth seat empty, as tensoul writes it)."""
    four = players == 4
    start = start if start is not None else (25000 if four else 35000)
    uma = uma if uma is not None else ((15, 5, -5, -15) if four else (15, 0, -15))
    scores = [start if s < players else 0 for s in range(4)]
    round_index = honba = 0
    log = []
    for winner, loser, shape in wins:
        state = (round_index, honba, 0)
        hand, scores, keeps = _hand(state, scores, winner, loser, shape, players)
        log.append(hand)
        honba = honba + 1 if keeps else 0
        round_index += 0 if keeps else 1
        round_index += 1 if not four and round_index % 4 == 3 else 0  # no x-4 with three
    order = sorted(range(players), key=lambda s: (-scores[s], s))
    sc: list[float] = []
    for seat in range(4):
        if seat >= players:
            sc += [0, 0]
            continue
        value = round((scores[seat] - start) / 1000 + uma[order.index(seat)], 1)
        sc += [scores[seat], int(value) if value == int(value) else value]
    return {
        "title": [disp, "Thu, 13 Jun 2024 10:00:00 GMT"],
        "name": ["Ika", "Jun", "Kai", "Leo" if four else ""],
        "rule": {"disp": disp, "aka53": 1, "aka52": 1, "aka51": int(four)},
        "ref": ref,
        "ver": "2.3",
        "log": log,
        "ratingc": "PF4" if four else "PF3",
        "lobby": 0,
        "dan": ["雀士★1", "雀傑★2", "雀士★3", "雀傑★1" if four else ""],
        "rate": [120, 540, 310, 75 if four else 0],
        "sx": ["C", "C", "C", "C"],
        "sc": sc,
    }


S, M = SMALL, MANGAN
ROUND_OF_SMALL_WINS: tuple[Win, ...] = ((1, 0, S), (2, 1, S), (3, 2, S), (0, 3, S))
"""East 1-4: each dealer deals in 1000 to the next seat; all back at 25000."""

S3, M3 = SMALL_3P, MANGAN_3P
ROUND_OF_SMALL_WINS_3P: tuple[Win, ...] = ((1, 0, S3), (2, 1, S3), (0, 2, S3))
"""East 1-3 with three players: each dealer deals in 1000 to the next seat; all
back at 35000."""

REF = "240613-1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c0"
"""A Mahjong Soul game id (``YYMMDD-uuid``) but its last digit."""

FIXTURE_GAMES: dict[str, dict[str, Any]] = {
    # nobody has 30000 after East 4: sudden death; South 1 leaves the top at 26000
    # (on), South 2's mangan at 33000 (the end).  '友人场' names no room tensoul
    # knows: Mahjong Soul's by its ref
    "majsoul_east_only_sudden_death_ends_south2": build(
        (*ROUND_OF_SMALL_WINS, (1, 0, S), (2, 1, M)), disp="友人场", ref=REF + "1"
    ),
    # start 10000: seat 0 pays two mangans and goes below zero at South 1 (a bust ends
    # either length: the default stays)
    "majsoul_no_length_hanchan_bust_in_south": build(
        ((1, 0, M), (2, 1, S), (3, 2, S), (0, 3, S), (1, 0, M)),
        disp="",
        ref=REF + "2",
        start=10000,
    ),
    # all at 25000 after East 4 and after South 3; South 4's mangan ends it at 32000:
    # a hanchan's end (and an East-only game's last sudden-death hand: the default)
    "majsoul_no_length_hanchan_ends_south4": build(
        (*ROUND_OF_SMALL_WINS, *ROUND_OF_SMALL_WINS[:3], (0, 3, M)),
        disp="Friendly",
        ref=REF + "3",
    ),
    # East 4's mangan ends it at 32000, where a hanchan goes on: East-only
    "majsoul_no_length_east_only_ends_east4": build(
        (*ROUND_OF_SMALL_WINS[:3], (0, 3, M)), disp="友人戦", ref=REF + "4"
    ),
    # three players, no room named (Mahjong Soul's by its ref, three by the log):
    # all at 35000 after East 3, South 1 leaves the top at 36000 (on), South 2's
    # mangan at 43000 (the end, the default 40000 reached)
    "majsoul_3p_east_only_sudden_death_ends_south2": build(
        (*ROUND_OF_SMALL_WINS_3P, (1, 0, S3), (2, 1, M3)), disp="", ref=REF + "5", players=3
    ),
    # its counter-case: the same start, South 2 small too, South 3's mangan ends it
    # at 42000: the three-player South all-last, where a hanchan ends (the default)
    "majsoul_3p_no_length_hanchan_ends_south3": build(
        (*ROUND_OF_SMALL_WINS_3P, (1, 0, S3), (2, 1, S3), (0, 2, M3)),
        disp="三友人戦",
        ref=REF + "6",
        players=3,
    ),
    # a friendly room's own target: East 4's mangan leaves the top at 32000 and the
    # game goes on (so not the default 30000), South 1 too, South 2's mangan ends
    # it at 40000: a target between 32100 and 40000
    "majsoul_friendly_room_own_target_ends_south2": build(
        (*ROUND_OF_SMALL_WINS[:3], (0, 3, M), (1, 2, S), (0, 3, M)),
        disp="友人戦",
        ref=REF + "7",
    ),
    # a tournament room's: all at 25000 after East 4; South 1's dealer wins a
    # mangan, on top at 37000, and plays on (the dealer on top at the target ends
    # it: the target is above 37000); the next mangan ends it at 49300
    "majsoul_tournament_room_own_target_dealer_on_top_ends_south1": build(
        (*ROUND_OF_SMALL_WINS, (0, 1, M), (0, 2, M)), disp="大会戦", ref=REF + "8"
    ),
}
