"""A Mahjong Soul game's length, read off the log where its room name does not say it.

tensoul writes the length into ``rule.disp`` (``東``/``南``, ``East``/``South``),
but a log converted from another build or language often names none (empty, a
Chinese room name, cut short): ``GameMeta.hanchan`` is then the default, a
hanchan.  What the log shows settles it in two cases, and only there:

* every hand was in the East and the game ended at its all-last (East 4, East 3
  with three players) with no score below zero: a hanchan never ends there;
* the game went on into the South and ended there *before* the South all-last,
  with no score below zero, and the East-only reading of the rules explains
  every step of it: an East-only game whose top is below the target after its
  all-last goes into the South as sudden death and ends after the first hand
  that leaves someone at or above it (the dealer who keeps the deal ends it
  only when on top; ``scoring.flow``).  So no hand from the East all-last on
  before the last may have ended it, and the last one must.  A hanchan does not
  end in the South before its all-last without a bust.

The target is the room's where the room is known (a ranked, casual or special
room: 30000 to end, 40000 with three players; ``model.rules.majsoul``).  A
friendly or tournament room's settings are its owner's and not in the log, nor
are those of a room the ``disp`` does not name: there the reading holds when
*some* target explains every hand from the East all-last on (more than the top
of every hand that could have ended the game and went on, at most the top after
the last one), and the note gives the range the log allows.  Where the default
is outside it, the game is audited with the top after the last hand
(``LengthReading.end_points``, as ``auditing.lobby`` reads a target off an end
it sees), so the game-end check holds the game to a target that explains it;
where no target does, the default length stays and the check reports the end.

Everything else keeps the default (a hanchan): a length named; a game that ended
by a bust (either length ends so); one that reached the South all-last (a hanchan
ends there, and an East-only game's sudden death does too, so both lengths fit and
the default stays); a South ending that the sudden-death rule does not explain
(the game-end check then reports it under the default); a log without its final
line.  Where both lengths fit (the bust, the end at the South all-last),
``both_fit`` says so, for a note: the game is counted as a hanchan by default, not
by what it showed.

Must not: compute a payment or change the rules it is given; it reads the
length (and, for a room whose settings are its owner's, the target) and says why.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay_audit.model.events import Game, HandLog, Owari, RecordedDraw, RecordedWin
from replay_audit.model.rules.majsoul import is_tonpuu, room_of
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.flow import HandOutcome, HandState, all_last_index, end_reason

if TYPE_CHECKING:
    from replay_audit.replay.values import GameReplay, HandReplay


@dataclass(frozen=True, slots=True)
class LengthReading:
    """An East-only game read off the log: why, and the hand that shows it."""

    message: str
    hand: HandLog
    end_points: int | None = None
    """The points the top needs to end the game, to audit it with, where the
    room's settings are its owner's and the rules' default does not explain the
    end (the top after the last hand); ``None``: the rules' stand."""


SCORE_STEP = 100
"""Every score and payment is a multiple of 100: a target "more than 26000" is at
least 26100 (the lower end of the range the note gives)."""


_REACHED_AND_NOT = (1, 10**9)
"""Targets every top reaches (scores sum to the start points times the players,
so the top is above 0) and none does: ``_bounds`` asks the game flow with each."""


@dataclass(frozen=True, slots=True)
class _Bounds:
    """What the hands from the East all-last on say of the target, read as an
    East-only game: more than ``above`` (the highest top after a hand that would
    have ended the game had the target been at or below that top, and went on;
    ``None``: no such hand), at most ``upto`` (the top after the last hand, which
    ended the game only so)."""

    above: tuple[int, HandLog] | None
    upto: int
    dealer_top: bool
    """The last hand ended the game by its dealer keeping the deal on top."""

    def allows(self, target: int) -> bool:
        """Whether the game ends as it did with ``target`` as the points to end."""
        return (self.above is None or target > self.above[0]) and target <= self.upto


def names_no_length(disp: str) -> bool:
    """Whether a ``rule.disp`` leaves the length unsaid (no ``東``/``东``/``East``
    without ``南``/``South``, no ``南``, no ``South``).

    >>> names_no_length(""), names_no_length("铜之间 四人东"), names_no_length("Gold Room South")
    (True, False, False)
    """
    return not (is_tonpuu(disp) or "南" in disp or "South" in disp.split())


def _unnamed(game: Game) -> tuple[str, Owari] | None:
    """``(disp, final line)`` of a game the length may be read off: its ``disp``
    names none, the log keeps the default (a hanchan), and it has hands and its
    final line; ``None`` otherwise."""
    meta = game.meta
    disp = meta.rule_disp or ""
    if not names_no_length(disp) or not meta.hanchan or not game.hands or game.owari is None:
        return None
    return disp, game.owari


def read_length(game: Game, replay: GameReplay, rules: RuleSet) -> LengthReading | None:
    """An East-only game (see the module docstring), or ``None``: the log's own
    length (a hanchan by default).  ``rules``: those the game is audited under,
    renchan read off the log already (the dealer's keeping the deal decides
    whether the game may end); their target is the room's where the room is
    known, else the default, which the reading may replace (``end_points``)."""
    unnamed = _unnamed(game)
    if unnamed is None:
        return None
    disp, owari = unnamed
    hands = game.hands
    n = game.meta.players
    if min(owari.scores[:n]) < 0:
        return None
    last = hands[-1]
    if max(h.round_index for h in hands) != last.round_index:
        return None
    east_last = all_last_index(n, "tonpuu")
    where = last.label.split("-")[0]
    if last.round_index == east_last:
        return LengthReading(
            f"an East-only game: the room's name ({disp!r}) does not say the length, and "
            f"the game ended at {where} with no score below zero, where a hanchan goes on "
            "(the default: a hanchan)",
            last,
        )
    if not east_last < last.round_index < all_last_index(n, "hanchan"):
        return None
    bounds = _bounds(game, replay, rules, east_last)
    if bounds is None:
        return None
    room = room_of(disp)
    target = rules.points_to_end
    end_points = None
    if room is not None and room.rules_known:  # the room's own target, known
        if not bounds.allows(target):
            return None
        why, own = _why_known(bounds, target, east_last, last), ""
    else:
        if bounds.above is not None and bounds.above[0] >= bounds.upto:
            return None  # no target explains the game: the default length stays
        end_points = None if bounds.allows(target) else bounds.upto
        why, own = _why_owners(bounds, target, east_last, last)
    return LengthReading(
        f"an East-only game that went into the South as sudden death: the room's name "
        f"({disp!r}) does not say the length, and the game ended at {where}, before the "
        f"South all-last, with no score below zero, where a hanchan goes on; {why} (the "
        f"default: a hanchan){own}",
        last,
        end_points,
    )


def both_fit(game: Game) -> LengthReading | None:
    """Where a Mahjong Soul game whose ``disp`` names no length ended as either
    length may end, so that the default (a hanchan) is an assumption: a bust before
    the West, or the end of the South all-last.  ``None`` for a length named, a game
    without its final line, or any other end (``read_length`` reads those, or the
    game reached the West: a hanchan)."""
    unnamed = _unnamed(game)
    if unnamed is None:
        return None
    disp, owari = unnamed
    n = game.meta.players
    last = game.hands[-1]
    south_last = all_last_index(n, "hanchan")
    if last.round_index > south_last:
        return None
    where = last.label.split("-")[0]
    if min(owari.scores[:n]) < 0:
        why = f"ended at {where} by a bust, which ends an East-only game and a hanchan alike"
    elif last.round_index == south_last:
        why = (
            f"ended at {where}, the South all-last, where a hanchan ends and an East-only "
            "game's sudden death ends at the latest"
        )
    else:
        return None
    return LengthReading(
        f"the room's name ({disp!r}) does not say the length, and the game {why}: it is "
        "counted as a hanchan (the default), which the log neither shows nor rules out",
        last,
    )


def _bounds(game: Game, replay: GameReplay, rules: RuleSet, east_last: int) -> _Bounds | None:
    """What an East-only game's sudden death asks of the target (``_Bounds``), or
    ``None`` where no target makes it end as it did: a hand from the East all-last
    on ended the game whatever the target (a bust), the last one ends it at no
    target or at every one, or a hand's outcome is unknown.  Each hand is asked
    of the game flow twice, with a target every top reaches and one none does
    (the flow compares the top with the target, nothing else): a hand that ends
    the game only in the first case bounds the target by its top; one that keeps
    the deal below the top ends it in neither (``scoring.flow``).
    The scores after a hand are the next hand's (as recorded: the game-end check
    holds them against the chain), after the last one its own plus its payments."""
    by_hand = {id(h.hand): h for h in replay.hands}
    n = rules.players
    hands = game.hands
    last = len(hands) - 1
    above: tuple[int, HandLog] | None = None
    probes = _probes(rules)
    for i, hand in enumerate(hands):
        if hand.round_index < east_last:
            continue
        hr = by_hand.get(id(hand))
        outcome = _outcome(hand, hr) if hr is not None else None
        scores = tuple(hands[i + 1].scores[:n]) if i < last else _end_scores(hr, n)
        if outcome is None or scores is None:
            return None
        state = HandState(hand.round_index, hand.honba, hand.sticks, hand.dealer, scores)
        top = max(scores)
        reached, short = (end_reason(state, outcome, r, game_length="tonpuu") for r in probes)
        if i == last:
            if short is not None or reached not in ("sudden_death", "dealer_top"):
                return None
            return _Bounds(above, top, reached == "dealer_top")
        if short is not None:
            return None  # the game would have ended here whatever the target
        if reached is not None and (above is None or top > above[0]):
            above = (top, hand)
    return None


@functools.lru_cache(maxsize=16)
def _probes(rules: RuleSet) -> tuple[RuleSet, ...]:
    """``rules`` with each target of ``_REACHED_AND_NOT``: a ``RuleSet`` costs tens
    of microseconds to copy, and a batch's custom rooms mostly read the same rules
    (equal but for ``extra``, which the game flow does not read)."""
    return tuple(dataclasses.replace(rules, end_points=t) for t in _REACHED_AND_NOT)


def _end_text(bounds: _Bounds, last: HandLog) -> str:
    """How the last hand ended the game: the deal passed, or its dealer on top."""
    if bounds.dealer_top:
        return f"{last.label}'s dealer kept the deal on top at {bounds.upto}"
    return f"{last.label} left the top at {bounds.upto}"


def _why_known(bounds: _Bounds, target: int, east_last: int, last: HandLog) -> str:
    """The note's account of a sudden-death end under the room's known target."""
    return (
        f"nobody had the {target} the top needs to end the game after E{east_last + 1}, "
        f"and {_end_text(bounds, last)}"
    )


def _why_owners(bounds: _Bounds, target: int, east_last: int, last: HandLog) -> tuple[str, str]:
    """The note's account of a sudden-death end where the target is the room
    owner's, and the sentence that gives the range the log allows and says
    whether the default is in it (and if not, what the game is audited with)."""
    if bounds.above is None:
        why, span = _end_text(bounds, last), f"a target of at most {bounds.upto}"
    else:
        top, hand = bounds.above
        why = f"it went on after {hand.label} with the top at {top}, and {_end_text(bounds, last)}"
        span = f"a target between {top + SCORE_STEP} and {bounds.upto}"
    default = (
        f"the default {target} is one of them"
        if bounds.allows(target)
        else f"the default {target} is not, and the game is audited with {bounds.upto}"
    )
    own = (
        ". The points the top needs to end the game are the room's own, not in the log: "
        f"{span} explains every hand from E{east_last + 1} on; {default}"
    )
    return why, own


def _outcome(hand: HandLog, hr: HandReplay) -> HandOutcome | None:
    """What the game flow needs of a hand's results: the winners, and for a draw
    its kind and the replay's dealer tenpai (``None`` where a draw's tenpai is
    not known)."""
    if not hr.results:
        return None
    winners = tuple(r.result.seat for r in hr.results if isinstance(r.result, RecordedWin))
    if winners:
        return HandOutcome(winners=winners, dealer_won=hand.dealer in winners)
    res = hr.results[0]
    draw = res.result
    if not isinstance(draw, RecordedDraw):
        return None
    tenpai = False
    if draw.kind in ("exhaustive", "nm"):
        if res.draw is None:
            return None
        tenpai = bool(res.draw.tenpai[hand.dealer])
    return HandOutcome(draw_kind=draw.kind, dealer_tenpai=tenpai)


def _end_scores(hr: HandReplay | None, players: int) -> tuple[int, ...] | None:
    """The scores after the last hand: after its riichi sticks, plus the recorded
    payments (as the lobby's target reading takes them)."""
    if hr is None or len(hr.scores) < players:
        return None
    end = list(hr.scores[:players])
    for r in hr.results:
        deltas = r.result.deltas
        if len(deltas) < players:
            return None
        end = [e + d for e, d in zip(end, deltas, strict=False)]
    return tuple(end)
