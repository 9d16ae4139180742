"""Which reading of an era's rules a log follows, hand by hand, and the notes
that say so (``eras`` holds the rules and their dates).

The auditor asks here at each place an old rule can decide something:

* ``read_flow``: where the game goes after a hand (or whether it ends);
* ``read_win``: what a win is worth (the 2006 red fives);
* ``unobserved_2006``: what a log from the days of the 2006 rules does that no
  2006 log shows.

Each answer is the value to compare the log with and the notes to write.  A
note is never a finding: where a dated change leaves two readings, the log is
compared with the one it follows; where no source settles a flow rule, the
log's own course is accepted.  With no alternative and no open rule (every
modern log) the answer is today's rule and no note, so a disagreement stays
a finding.

Must not: compute a value (``scoring`` does) or hold the eras' dates (``model.rules.eras``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from replay_audit.model.events import (
    ABORTIVE_KINDS,
    Call,
    Game,
    HandLog,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    hand_label,
)
from replay_audit.model.meld import MeldKind
from replay_audit.model.rules.eras import DatedRule, Era, OpenRule
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.context import WinContext, WinValue
from replay_audit.scoring.flow import HandState, all_last_index

Expect = Callable[[RuleSet], HandState | None]
"""The state the hand leads to under a rule set (``None``: the game is over)."""

_NEVER = 10**9
"""Return points no score reaches: with them (and no bust or dealer stop) the
flow never ends a game, and gives the state it would go on to."""


@dataclass(frozen=True, slots=True)
class Note:
    field: str
    message: str


@dataclass(frozen=True, slots=True)
class FlowRead:
    """The state to compare the log's next hand with (``None``: the game ends
    here), and the notes that explain the choice."""

    expected: HandState | None
    notes: tuple[Note, ...] = ()


def read_flow(
    era: Era,
    rules: RuleSet,
    expect: Expect,
    prev: HandLog,
    logged: HandLog | None,
    *,
    hanchan: bool,
) -> FlowRead:
    """Where ``prev`` leads (``logged``: the log's next hand, ``None`` where the
    log ends) under the readings ``era`` leaves open.

    A dated change the log's window straddles (tenpai-yame in June 2010) is
    read both ways; where the readings differ the log's is taken and a note
    names both.  Where today's rule then still disagrees with the log and an
    open rule could explain it (the game going on past an all-last end before
    2010-06, a game ending at exactly 0 before 2024 ...), the log is followed
    and a note says which rule is open.
    """
    expected = expect(rules)
    if not era.alternatives and not era.open_rules:  # every modern log
        return FlowRead(expected)
    notes: list[Note] = []
    for alt in era.alternatives:
        if alt.rule.scoring:
            continue
        other = expect(alt.rules)
        if _same(other, expected):
            continue
        follows_old = _fits(other, logged) and not _fits(expected, logged)
        notes.append(Note("flow_reading", _dated_text(era, alt.rule, other, expected, logged)))
        if follows_old:
            expected = other
    if (expected is None) != (logged is None):
        found = _open_rule(era, rules, expect, expected, prev, hanchan=hanchan)
        if found is not None:
            rule, going_on = found
            notes.append(Note("flow_rule_open", _open_text(era, rule, logged is not None)))
            expected = going_on if logged is not None else None
    return FlowRead(expected, tuple(notes))


def _open_rule(
    era: Era,
    rules: RuleSet,
    expect: Expect,
    expected: HandState | None,
    prev: HandLog,
    *,
    hanchan: bool,
) -> tuple[OpenRule, HandState | None] | None:
    """The open rule that could explain the log's disagreement with ``expected``
    and the state the game goes on to if it goes on; ``None`` if no open rule does."""
    by_aspect = {r.aspect: r for r in reversed(era.open_rules)}
    if not by_aspect:
        return None
    last = all_last_index(rules.players, "hanchan" if hanchan else "tonpuu")
    if expected is None:  # today's rule ends the game; the log plays on
        if expect(dataclasses.replace(rules, bust=False)) is not None:
            return None  # a bust below 0: settled in every era
        no_stop = dataclasses.replace(
            rules, dealer_stops_all_last=False, dealer_stops_on_tenpai=False
        )
        going_on = expect(no_stop)
        if going_on is not None:
            rule = by_aspect.get("dealer_stop")
            return (rule, going_on) if rule is not None else None
        rule = by_aspect.get("extension")
        going_on = expect(dataclasses.replace(no_stop, bust=False, return_points=_NEVER))
        return (rule, going_on) if rule is not None and going_on is not None else None
    # today's rule goes on; the log ends
    players = range(rules.players)
    if "bust_at_zero" in by_aspect and any(expected.scores[s] == 0 for s in players):
        return by_aspect["bust_at_zero"], None
    if prev.round_index < last:
        return None
    rule = by_aspect.get("dealer_stop" if expected.dealer == prev.dealer else "extension")
    return (rule, None) if rule is not None else None


def read_win(
    era: Era,
    rules: RuleSet,
    ctx: WinContext,
    recorded: RecordedWin,
    score: Callable[[WinContext, RuleSet], WinValue],
) -> tuple[WinValue, tuple[Note, ...]]:
    """The win scored under ``rules`` and under each open reading of a scoring
    rule (the red fives); where they differ, the value the recorded win follows
    (fewest of han and points off; today's on a tie) and a note naming both."""
    value = score(ctx, rules)
    if not era.alternatives:  # every log after 2006
        return value, ()
    notes: list[Note] = []
    for alt in era.alternatives:
        if not alt.rule.scoring:
            continue
        other = score(ctx, alt.rules)
        if (other.han, other.points, other.yaku) == (value.han, value.points, value.yaku):
            continue
        pick_old = _misses(other, recorded) < _misses(value, recorded)
        fits = (
            "follows the old one"
            if pick_old
            else "follows today's"
            if not _misses(value, recorded)
            else "fits neither and is compared with today's"
        )
        notes.append(
            Note(
                "red_fives_reading",
                f"the log's date is {era.window.describe()}, and {alt.rule.what} changed "
                f"{alt.rule.when} ({alt.rule.source}): with {alt.rule.old_text} this win is "
                f"{_value_text(other)}, with {alt.rule.new_text} {_value_text(value)}; "
                f"the recorded win {fits}",
            )
        )
        if pick_old:
            value = other
    return value, tuple(notes)


def unobserved_2006(game: Game, era: Era) -> tuple[tuple[HandLog, int | None, str], ...]:
    """``(hand, seq, what)`` for each thing a log of the 2006 days does that none
    of the four public 2006 logs does (their 17 wins and one draw show riichi,
    calls, ankan and daiminkan, kan dora, tsumo and ron, a noten payment, a bust
    and the end after East 4): audited under today's rule, with a note."""
    if not era.before_2009:
        return ()
    out: list[tuple[HandLog, int | None, str]] = []
    for hand in game.hands:
        wins = [e for e in hand.events if isinstance(e, RecordedWin)]
        if len(wins) > 1:
            out.append((hand, wins[1].seq, "a double ron"))
        for ev in hand.events:
            if isinstance(ev, Call) and ev.meld.kind is MeldKind.KAKAN:
                out.append((hand, ev.seq, "a kakan (its meld code is read as today's)"))
            elif isinstance(ev, RecordedWin) and ev.pao_seat not in (None, ev.seat):
                out.append((hand, ev.seq, "a liable (pao) payment"))
            elif isinstance(ev, RecordedDraw) and ev.kind in ABORTIVE_KINDS:
                out.append((hand, ev.seq, f"an abortive draw ({ev.kind})"))
            elif isinstance(ev, RecordedDraw) and ev.kind == "nm":
                out.append((hand, ev.seq, "nagashi mangan"))
    if game.hands and game.owari is not None:
        last = game.hands[-1]
        if not any(isinstance(e, RecordedWin) for e in last.events):
            left = last.sticks + sum(isinstance(e, RiichiAccept) for e in last.events)
            if left:
                out.append((last, None, "riichi sticks left on the table at the end"))
        raw = game.owari.scores[: game.meta.players]
        if len(set(raw)) < len(raw):
            out.append((last, None, "tied final scores"))
    return tuple(out)


def _fits(state: HandState | None, logged: HandLog | None) -> bool:
    if state is None or logged is None:
        return state is None and logged is None
    return (state.round_index, state.dealer, state.honba, state.sticks) == (
        logged.round_index,
        logged.dealer,
        logged.honba,
        logged.sticks,
    )


def _same(a: HandState | None, b: HandState | None) -> bool:
    return a == b


def _state_text(state: HandState | None) -> str:
    if state is None:
        return "the game ends here"
    return f"the game goes on to {hand_label(state.round_index, state.honba)}"


def _dated_text(
    era: Era,
    rule: DatedRule,
    old: HandState | None,
    new: HandState | None,
    logged: HandLog | None,
) -> str:
    follows = (
        "follows the rule before the change"
        if _fits(old, logged) and not _fits(new, logged)
        else "follows the rule after it"
        if _fits(new, logged)
        else "fits neither and is compared with the rule after it"
    )
    return (
        f"the log's date is {era.window.describe()}, and {rule.what} came {rule.when} "
        f"({rule.source}): under the rule before ({rule.old_text}) {_state_text(old)}, "
        f"under the rule after ({rule.new_text}) {_state_text(new)}; the log {follows}"
    )


def _open_text(era: Era, rule: OpenRule, plays_on: bool) -> str:
    course = (
        "plays on where today's rule ends the game"
        if plays_on
        else "ends where today's rule plays on"
    )
    return (
        f"the log {course}: {rule.what} is not settled for a log dated "
        f"{era.window.describe()} ({rule.evidence}), so the log is followed"
    )


def _misses(value: WinValue, recorded: RecordedWin) -> int:
    return (recorded.han is not None and recorded.han != value.han) + (
        recorded.points is not None and recorded.points != value.points
    )


def _value_text(value: WinValue) -> str:
    return f"{value.han} han {value.points}" if value.ok else f"not a win ({value.error})"
