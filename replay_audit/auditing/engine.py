"""The functions of the scorer, the payments, the game flow and the era readings
that the audit calls at every hand, imported once: ``engine()``.

An ``import`` statement inside a function runs again at every call (about a
microsecond, even with the module loaded), and a hand's audit ran six of them
(some 30 ms of the auditor's 0.23 s over 500 Phoenix files).  The modules
still load at the first audit, not when ``replay_audit.auditing`` is imported.

Must not: compute, compare or record anything; it only hands out functions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # annotations only: the modules load in ``engine()``
    from replay_audit import _core
    from replay_audit.auditing.era_readings import Expect, FlowRead, Note
    from replay_audit.model.dating import LogWindow
    from replay_audit.model.events import Event, Game, HandLog, RecordedWin
    from replay_audit.model.rules.eras import Era
    from replay_audit.model.rules.ruleset import RuleSet
    from replay_audit.replay.values import HandReplay
    from replay_audit.scoring.context import WinContext, WinValue
    from replay_audit.scoring.final import Era as FinalEra
    from replay_audit.scoring.flow import GameLength, HandOutcome, HandState

ScoreWin = Callable[["WinContext", "RuleSet"], "WinValue"]
"""``scoring.core.score_win``."""


class WinDeltas(Protocol):
    """``scoring.core.win_deltas``."""

    def __call__(
        self,
        value: WinValue,
        *,
        winner: int,
        from_seat: int,
        dealer: int,
        players: int,
        honba: int,
        sticks: int,
        first_winner: bool,
        pao_seat: int | None,
        rules: RuleSet,
    ) -> tuple[int, ...]: ...


class NextHand(Protocol):
    """``scoring.flow.next_hand``."""

    def __call__(
        self, state: HandState, outcome: HandOutcome, rules: RuleSet, *, game_length: GameLength
    ) -> HandState | None: ...


NextHandFrom = Callable[
    [int, int, int, int, tuple[int, ...], "HandOutcome", "RuleSet", "GameLength"],
    "HandState | None",
]
"""``scoring.flow.next_hand_from``."""


WinRow = Callable[
    [
        "dict[str, object]",
        "RecordedWin",
        "WinContext",
        "_core.ScoreRules",
        int,
        int,
        int,
        int,
        bool,
    ],
    "tuple[WinValue, tuple[int, ...]] | None",
]
"""``_core.win_row``: ``row, ev, ctx, rules, dealer, players, honba, sticks,
first_winner``."""


EventsExcept = Callable[["tuple[Event, ...]", "tuple[type, ...]"], "list[Event] | None"]
"""``_core.events_except``: ``events, skip``."""


class AuditHands(Protocol):
    """``_core.audit_hands``: ``played, start, chain, ctx, file, log_id, owari`` (``ctx``
    an ``auditing.game.HandsContext``, read by field name); how the game ended comes
    back as a dict keyed as ``_Outcome``, then whether its end is settled (nothing for
    ``_check_game_end`` to report).  With ``target`` (a part's ``_core.PartRows``, its
    hands table's index, the file: ``report.part_rows.HandsSink.target``) the rows go
    into that table and their number comes back in their place."""

    def __call__(
        self,
        played: list[tuple[HandLog, HandReplay]],
        start: HandState | HandLog,
        chain: tuple[int, ...],
        ctx: object,
        file: str,
        log_id: str | None,
        owari: Any,
        /,
        *target: Any,
    ) -> (
        tuple[list[dict[str, Any]] | int, dict[int, WinValue], tuple[int, ...], Any, bool] | None
    ): ...


class FinalPoints(Protocol):
    """``scoring.final.final_points``."""

    def __call__(
        self, scores: Sequence[int], sticks_left: int, rules: RuleSet, *, era: FinalEra
    ) -> tuple[tuple[int, ...], tuple[float, ...]]: ...


class ReadFlow(Protocol):
    """``auditing.era_readings.read_flow``."""

    def __call__(
        self,
        era: Era,
        rules: RuleSet,
        expect: Expect,
        prev: HandLog,
        logged: HandLog | None,
        *,
        hanchan: bool,
    ) -> FlowRead: ...


@dataclass(frozen=True, slots=True)
class Engine:
    """What a hand's audit calls, by name (each the module function itself)."""

    score_win: ScoreWin
    win_deltas: WinDeltas
    exhaustive_draw_deltas: Callable[[Sequence[bool], int, RuleSet], tuple[int, ...]]
    nagashi_deltas: Callable[[Sequence[bool], int, int, RuleSet], tuple[int, ...]]
    read_win: Callable[
        [Era, RuleSet, WinContext, RecordedWin, ScoreWin], tuple[WinValue, tuple[Note, ...]]
    ]
    read_flow: ReadFlow
    next_hand: NextHand
    next_hand_from: NextHandFrom
    hand_state: type[HandState]
    hand_outcome: type[HandOutcome]
    core_rules: Callable[[RuleSet], _core.ScoreRules | None]
    """``scoring.core.core_rules``: the core's form of a rule set, None where the
    core leaves the rules (or everything, without the core) to Python."""
    win_row: WinRow | None
    """``_core.win_row`` (the row of a win that agrees with its value, in one
    call), None without the core or in a build older than it."""
    events_except: EventsExcept | None
    """``_core.events_except`` (a hand's events but those of some types, picked
    out in C), None without the core or in a build older than it."""
    audit_hands: AuditHands | None
    """``_core.audit_hands`` (a game's hands in one call where nothing is to be
    reported), None without the core or in a build older than it."""
    start_state: Callable[[RuleSet], HandState]
    final_points: FinalPoints
    log_window: Callable[[Game], LogWindow]


@functools.cache
def engine() -> Engine:
    """The functions, imported at the first call (the compiled scorer, Python's values)."""
    from replay_audit.auditing.era_readings import read_flow, read_win
    from replay_audit.model.dating import log_window
    from replay_audit.native import _core
    from replay_audit.scoring.core import core_rules, score_win, win_deltas
    from replay_audit.scoring.final import final_points
    from replay_audit.scoring.flow import (
        HandOutcome,
        HandState,
        next_hand,
        next_hand_from,
        start_state,
    )
    from replay_audit.scoring.payments import exhaustive_draw_deltas, nagashi_deltas

    return Engine(
        score_win=score_win,
        win_deltas=win_deltas,
        exhaustive_draw_deltas=exhaustive_draw_deltas,
        nagashi_deltas=nagashi_deltas,
        read_win=read_win,
        read_flow=read_flow,
        next_hand=next_hand,
        next_hand_from=next_hand_from,
        hand_state=HandState,
        hand_outcome=HandOutcome,
        core_rules=core_rules,
        win_row=getattr(_core, "win_row", None),
        events_except=getattr(_core, "events_except", None),
        audit_hands=getattr(_core, "audit_hands", None),
        start_state=start_state,
        final_points=final_points,
        log_window=log_window,
    )
