"""From one hand to the next: round, honba, sticks, dealer, scores, game end.

The replayer checks every INIT against what the previous hand implies, and
the auditor checks that a game ends exactly where the rules end it.  Both ask
this module, which is a pure state machine over ``HandState`` values:

* after a win the honba goes up by one if the dealer won (alone or in a
  double ron) and to 0 otherwise, the dealer rotating; sticks go to 0;
* after a draw the honba goes up by one and the sticks stay; the dealer stays
  iff tenpai (an abortive draw always keeps the dealer);
* three-player games have no fourth hand per wind: the round index skips
  3, 7 and 11 (E1-E3, S1-S3, W1-W3);
* the game ends on a bust (a score below zero), or after the all-last hand
  (South 4, South 3 with three players, East 4 in tonpuu) once someone has
  reached the target (``rules.points_to_end``: the return points on Tenhou); a
  dealer who keeps the deal there (win or tenpai; not an abortive draw) ends it only when on top (Tenhou's automatic
  agari-yame / tenpai-yame), otherwise play goes on;
* if nobody has reached the target the game goes into the next wind
  (West, or South for tonpuu) under the same rules, ending after the first
  hand that passes the deal with someone at or above it (sudden death), at
  the latest when that wind's last hand passes the deal (``rules.extension_winds``
  winds of it at most).

Checked on every game of the corpus (see ``tests/test_flow.py``).

>>> from replay_audit.model.rules.presets import PRESETS
>>> start_state(PRESETS["tenhou-3p"])
HandState(round_index=0, honba=0, sticks=0, dealer=0, scores=(35000, 35000, 35000, 0))
>>> s = HandState(2, 0, 0, 2, (35000, 35000, 35000, 0))
>>> nxt = next_hand(s, HandOutcome(winners=(0,), deltas=(1000, 0, -1000, 0)),
...                 PRESETS["tenhou-3p"], game_length="hanchan")
>>> nxt.round_index, nxt.dealer, nxt.honba
(4, 0, 0)

Must not: read recorded results; it computes what the rules imply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from replay_audit.model.events import ABORTIVE_KINDS
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.native import _core

GameLength = Literal["tonpuu", "hanchan"]
EndReason = Literal["bust", "dealer_top", "all_last", "sudden_death", "extension_end"]
SEATS = 4


@dataclass(frozen=True, slots=True)
class HandState:
    """What an INIT tag says: where the game is before a hand is played."""

    round_index: int
    """0-3 East 1-4, 4-7 South, 8-11 West (3-player: 3, 7, 11 never occur)."""
    honba: int
    sticks: int
    """Riichi sticks on the table at the start of the hand."""
    dealer: int
    scores: tuple[int, ...]
    """Four entries; the 3-player placeholder seat is 0."""


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a hand ended, as far as the game flow cares.

    ``winners`` lists the winning seats in settlement order (empty for a
    draw); ``draw_kind`` is ``"exhaustive"``, ``"nm"`` or an abortive type for
    a draw, ``None`` for a win.  ``riichi_seats`` are the seats whose riichi
    stick was placed this hand (each pays ``rules.riichi_cost`` to the table);
    ``deltas`` are the summed settlement deltas of the hand's results (the
    ``sc`` deltas), sticks collected included.
    """

    winners: tuple[int, ...] = ()
    dealer_won: bool = False
    draw_kind: str | None = None
    dealer_tenpai: bool = False
    riichi_seats: tuple[int, ...] = ()
    deltas: tuple[int, ...] = (0, 0, 0, 0)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def is_abortive(self) -> bool:
        return self.draw_kind in ABORTIVE_KINDS


def _py_state(cls: type[HandState], /, *fields: object) -> HandState:
    """The reference for ``_core.make_value``: the class's own ``__init__``."""
    return cls(*fields)  # type: ignore[arg-type]  # the caller gives every field


MAKE_STATE: Callable[..., HandState] = (
    getattr(_core, "make_value", None) if _core is not None else None
) or _py_state
"""``HandState(*fields)`` for ``next_hand_from``, which builds one at every hand: the
core's ``make_value`` sets the slots as the frozen dataclass's ``__init__`` would, at
a ninth of its cost (one ``object.__setattr__`` per field); a test sets it to
``_py_state`` to compare (``tests/test_flow_make.py``)."""

_NO_DELTAS = HandOutcome().deltas
"""The default ``deltas`` (all zero): the auditor's outcomes carry it."""


def start_state(rules: RuleSet) -> HandState:
    """East 1, no honba, no sticks, seat 0 deals, everyone at the start points."""
    scores = tuple(rules.start_points if s < rules.players else 0 for s in range(SEATS))
    return HandState(0, 0, 0, 0, scores)


def next_round_index(round_index: int, players: int) -> int:
    """The round after ``round_index`` when the deal passes (3-player skips x4).

    >>> next_round_index(2, 3), next_round_index(2, 4), next_round_index(7, 4)
    (4, 3, 8)
    """
    nxt = round_index + 1
    if players == 3 and nxt % 4 == 3:
        nxt += 1
    return nxt


def all_last_index(players: int, game_length: GameLength) -> int:
    """Round index of the all-last hand: East 4 / South 4 (East 3 / South 3 in 3-player).

    >>> all_last_index(4, "hanchan"), all_last_index(3, "hanchan"), all_last_index(4, "tonpuu")
    (7, 6, 3)
    """
    winds = 2 if game_length == "hanchan" else 1
    return 4 * (winds - 1) + (players - 1)


def extension_last_index(players: int, game_length: GameLength) -> int:
    """Round index of the last hand of the extension wind (West 4, or South 4 for tonpuu)."""
    return all_last_index(players, game_length) + 4


def dealer_keeps_deal(outcome: HandOutcome, rules: RuleSet | None = None) -> bool:
    """Renchan: the dealer won, was tenpai at an exhaustive draw, or the draw was
    abortive; a lobby may pass the deal after a dealer win or tenpai
    (``rules.renchan_on_win``, ``rules.renchan_on_tenpai``)."""
    if outcome.winners:
        return outcome.dealer_won and (rules is None or rules.renchan_on_win)
    tenpai = outcome.dealer_tenpai and (rules is None or rules.renchan_on_tenpai)
    return outcome.is_abortive or tenpai


def scores_after(state: HandState, outcome: HandOutcome, rules: RuleSet) -> tuple[int, ...]:
    """Scores at the next INIT: minus riichi deposits, plus the hand's deltas.

    Keeps the length of ``state.scores`` (4, or just the players' seats), so a
    caller that already holds the end-of-hand scores can pass them with no
    deltas and no riichi seats.
    """
    if not outcome.riichi_seats and not any(outcome.deltas):
        return tuple(state.scores)  # the auditor's case: scores already after the hand
    scores = list(state.scores)
    for seat, delta in enumerate(outcome.deltas[: len(scores)]):
        scores[seat] += delta
    for seat in outcome.riichi_seats:
        scores[seat] -= rules.riichi_cost
    return tuple(scores)


def ranks(scores: tuple[int, ...], players: int) -> tuple[int, ...]:
    """Place (0 = top) of each seat; ties go to the seat nearer the first dealer.

    >>> ranks((30000, 31000, 30000, 9000), 4)
    (1, 0, 2, 3)
    """
    order = sorted(range(players), key=lambda s: (-scores[s], s))
    place = [0] * players
    for i, seat in enumerate(order):
        place[seat] = i
    return tuple(place)


def end_reason(
    state: HandState, outcome: HandOutcome, rules: RuleSet, *, game_length: GameLength
) -> EndReason | None:
    """Why the game ends after this hand, or ``None`` if it goes on."""
    return _end_reason(
        state.round_index,
        state.dealer,
        outcome,
        rules,
        game_length,
        scores_after(state, outcome, rules),
        dealer_keeps_deal(outcome, rules),
    )


def _end_reason(
    round_index: int,
    dealer: int,
    outcome: HandOutcome,
    rules: RuleSet,
    game_length: GameLength,
    scores: tuple[int, ...],
    keep: bool,
) -> EndReason | None:
    """``end_reason`` of the hand at ``round_index`` dealt by ``dealer``, given the
    ``scores_after`` the hand and whether the dealer keeps the deal (``next_hand``
    needs both too, and works them out once)."""
    players = rules.players
    if rules.bust and min(scores[:players]) < 0:
        return "bust"
    last = (4 if game_length == "hanchan" else 0) + players - 1  # ``all_last_index``
    if round_index < last:
        return None
    reached = max(scores[:players]) >= rules.points_to_end
    can_end = reached or not rules.west_extension
    in_extension = round_index > last
    if keep:
        dealer_top = ranks(scores, players)[dealer] == 0
        stops = (
            rules.dealer_stops_all_last
            if outcome.winners
            else rules.dealer_stops_on_tenpai and not outcome.is_abortive
        )
        if stops and can_end and dealer_top:
            return "dealer_top"
        return None
    if not in_extension:
        return "all_last" if can_end else None
    if reached:
        return "sudden_death"
    if round_index >= extension_last_index(players, game_length) + 4 * (rules.extension_winds - 1):
        return "extension_end"
    return None


def next_hand(
    state: HandState, outcome: HandOutcome, rules: RuleSet, *, game_length: GameLength
) -> HandState | None:
    """The state at the next INIT, or ``None`` when the game is over."""
    return next_hand_from(
        state.round_index,
        state.honba,
        state.sticks,
        state.dealer,
        state.scores,
        outcome,
        rules,
        game_length,
    )


def next_hand_from(
    round_index: int,
    honba: int,
    sticks: int,
    dealer: int,
    scores: tuple[int, ...],
    outcome: HandOutcome,
    rules: RuleSet,
    game_length: GameLength,
) -> HandState | None:
    """``next_hand`` of ``HandState(round_index, honba, sticks, dealer, scores)``
    without building that state: the auditor asks at every hand, and only the
    next state is kept."""
    deltas = outcome.deltas
    if outcome.riichi_seats or (deltas is not _NO_DELTAS and any(deltas)):
        scores = scores_after(HandState(round_index, honba, sticks, dealer, scores), outcome, rules)
    else:
        scores = tuple(scores)  # as ``scores_after``: the scores already after the hand
    winners = outcome.winners
    if winners:  # ``dealer_keeps_deal``
        keep = outcome.dealer_won and rules.renchan_on_win
    else:
        keep = outcome.is_abortive or (outcome.dealer_tenpai and rules.renchan_on_tenpai)
    if _end_reason(round_index, dealer, outcome, rules, game_length, scores, keep) is not None:
        return None
    if winners:
        honba = honba + 1 if outcome.dealer_won else 0
        sticks = 0
    else:
        honba = honba + 1
        sticks = sticks + len(outcome.riichi_seats)
    if keep:
        return MAKE_STATE(HandState, round_index, honba, sticks, dealer, scores)
    nxt = next_round_index(round_index, rules.players)
    return MAKE_STATE(HandState, nxt, honba, sticks, (dealer + 1) % rules.players, scores)
