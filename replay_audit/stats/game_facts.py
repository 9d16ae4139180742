"""Per-(game, seat) facts and the score history of a game.

Owns ``game_facts`` (places, final scores and points, rate changes, dealer
streaks), ``placements``, ``dealer_streaks`` and ``score_history`` (each seat's
score after every hand, for the charts).

Must not: aggregate over games (``stats.aggregate``) or render anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from replay_audit.model.events import (
    Game,
    HandLog,
)
from replay_audit.native import _core
from replay_audit.stats.identity import game_rules, game_type, lobby, platform, player_key, seats
from replay_audit.stats.tenhou_rank import rate_change

# --------------------------------------------------------------------- game facts


def placements(scores: Iterable[int]) -> tuple[int, ...]:
    """Places 1..N by final score; equal scores go to the earlier seat (seat order
    from the first dealer, as ranked Tenhou lobbies do).

    >>> placements([25000, 30000, 25000, 20000])
    (2, 1, 3, 4)
    """
    scores = list(scores)
    # reverse=True keeps a stable sort stable: equal scores stay in seat order
    order = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)
    places = [0] * len(scores)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return tuple(places)


def game_facts(game: Game) -> list[dict[str, Any]]:
    """One row per (game, seat): ``file, log_id, date, game_type, platform, rules,
    players, hanchan, hands, complete, seat, name, final_score, final_points,
    place, bust, lobby, dealer_streak, rate, rate_change``.

    ``dealer_streak``: the most times the seat *repeated* as dealer in a row
    in this game (renchan count: a dealership with no repeat is 0, with two
    repeats 2), whatever kept the seat (a win, tenpai at a draw, an abortive
    draw); None if the seat was never dealer.  ``rate``: the seat's R from the
    player list; ``rate_change``: Tenhou's R change of the game with the
    400-games factor (``tenhou_rank.rate_change``), None unless the game is
    finished and every seat has a rate.

    Final values come from ``Game.owari`` (Tenhou's own last line, which also
    moves leftover riichi sticks to the top); a game without it is
    ``complete=False`` with empty final columns, so per-game statistics skip it.
    """
    rules = game_rules(game)
    gtype = game_type(game, rules)
    meta = game.meta
    n = meta.players
    owari = game.owari
    complete = owari is not None and len(owari.scores) >= n
    places = placements(owari.scores[:n]) if complete and owari else ()
    streaks = dealer_streaks(game)
    rates = [p.rate for p in game.players[:n]]
    known_rates = [r for r in rates if r is not None]
    rated = complete and len(known_rates) == n  # every seat has a rate
    # per game, not per seat: the platform and lobby read the rules again
    game_platform = platform(game, rules)
    lobby_name = lobby(game, rules)
    hands = len(game.hands)
    date = meta.date  # a property that parses the log id: once per game
    rows = []
    for seat in seats(game):
        rows.append(
            {
                "file": meta.source,
                "log_id": meta.log_id,
                "date": date,
                "game_type": gtype,
                "platform": game_platform,
                "rules": rules.name,
                "players": n,
                "hanchan": meta.hanchan,
                "hands": hands,
                "complete": complete,
                "seat": seat,
                "name": player_key(game, seat),
                "final_score": owari.scores[seat] if complete and owari else None,
                "final_points": float(owari.points[seat]) if complete and owari else None,
                "place": places[seat] if complete else None,
                "bust": (owari.scores[seat] < 0) if complete and owari else None,
                "lobby": lobby_name,
                "dealer_streak": streaks.get(seat),
                "rate": rates[seat] if seat < len(rates) else None,
                "rate_change": (
                    rate_change(places[seat], known_rates[seat], known_rates, n) if rated else None
                ),
            }
        )
    return rows


def dealer_streaks(game: Game) -> dict[int, int]:
    """Per seat, the longest run of *repeats* as dealer (renchan count).

    Consecutive hands with the same ``round_index`` are one dealership; its
    repeats are its hands minus one.  Seats that were never dealer are absent.

    >>> from replay_audit.model.events import GameMeta, HandLog, Player
    >>> def h(i, r):
    ...     return HandLog(i, i, r, 0, 0, r % 4, (), (), 0)
    >>> g = Game(GameMeta("x", None, "tenhou-xml", 4), (), tuple(
    ...     h(i, r) for i, r in enumerate([0, 0, 0, 1, 2, 2, 3])))
    >>> dealer_streaks(g)
    {0: 2, 1: 0, 2: 1, 3: 0}
    """
    best: dict[int, int] = {}
    run_round: int | None = None
    repeats = 0  # of the current dealership so far
    for hand in game.hands:
        if hand.round_index == run_round:
            repeats += 1
        else:
            repeats = 0
            run_round = hand.round_index
        # a plain comparison, not max(): this runs once a hand
        if repeats > best.get(hand.dealer, -1):
            best[hand.dealer] = repeats
    return best


# ------------------------------------------------------------------ score history

_SCORE_KEYS = ("file", "log_id", "hand_index", "label", "seat", "name", "score")
"""The score history's columns, in order (the core's ``score_rows`` writes them)."""

CORE_SCORES: Callable[..., list[dict[str, Any]] | None] | None = (
    getattr(_core, "score_rows", None) if _core is not None else None
)
"""The core's ``score_rows`` (``src/core/score_rows.cpp``): the per-hand rows of
``score_history`` as ``py_score_rows`` writes them (None: a stale build, no core, or
switched off by a test); ``tests/test_core_facts.py`` holds the two equal over the
shared corpus."""


def score_history(game: Game) -> list[dict[str, Any]]:
    """One row per (hand, seat) with the score at the start of the hand, plus a
    ``final`` row per seat (``hand_index = len(hands)``): the ``owari`` score, or
    when the game has none, the last result's recorded scores plus its deltas.

    This is the data of the score-over-time chart (amae-koromo#5)."""
    meta = game.meta
    n = meta.players
    file, log_id = meta.source, meta.log_id
    names = tuple(player_key(game, seat) for seat in range(n))  # once per game, not per row
    core = CORE_SCORES
    got = core(game.hands, file, log_id, names, _SCORE_KEYS) if core is not None else None
    rows = got if got is not None else py_score_rows(game.hands, file, log_id, names)
    final = final_scores(game)
    if final:
        rows += _score_rows(len(game.hands), "final", final, file, log_id, names)
    return rows


def final_scores(game: Game) -> tuple[int, ...]:
    """The scores of the score history's ``final`` rows: the ``owari`` scores, or
    when the game has none, the last result's recorded scores plus its deltas;
    empty when neither is known (then there are no ``final`` rows)."""
    if game.owari is not None:
        return game.owari.scores
    if game.hands and game.hands[-1].results:
        last = game.hands[-1].results[-1]
        if last.scores_before and last.deltas:
            return tuple(b + d for b, d in zip(last.scores_before, last.deltas, strict=False))
    return ()


def py_score_rows(
    hands: tuple[HandLog, ...], file: str, log_id: str | None, names: tuple[str, ...]
) -> list[dict[str, Any]]:
    """The rows of ``hands`` in the score history (the reference of the core's
    ``score_rows``): one per hand and seat that has both a score and a name."""
    rows: list[dict[str, Any]] = []
    for hand in hands:
        rows += _score_rows(hand.index, hand.label, hand.scores, file, log_id, names)
    return rows


def _score_rows(
    index: int,
    label: str,
    scores: tuple[int, ...],
    file: str,
    log_id: str | None,
    names: tuple[str, ...],
) -> list[dict[str, Any]]:
    return [
        {
            "file": file,
            "log_id": log_id,
            "hand_index": index,
            "label": label,
            "seat": seat,
            "name": name,
            "score": score,
        }
        for seat, (name, score) in enumerate(zip(names, scores, strict=False))
    ]
