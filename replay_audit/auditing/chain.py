"""The score chain and the flow from hand to hand.

Owns ``_ScoreChain``: each hand's start scores against the chain, the opening
state, the transitions (round, honba, sticks, dealer) computed by
``scoring.flow`` against the next INIT, the game's end and the final settlement
(``scoring.final``).

Must not: score a win or a draw (``auditing.wins``, ``auditing.hands``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from replay_audit.auditing.base import (
    _as_logged,
    _chain_start,
    _expected_next,
    _fmt,
    _is_editor_export,
    _Outcome,
    _same_state,
    _scores_agree,
)
from replay_audit.auditing.engine import engine
from replay_audit.auditing.notes import _Notes
from replay_audit.model.events import (
    Game,
    HandLog,
    Owari,
)
from replay_audit.model.findings import INFO

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit.model.dating import LogWindow
    from replay_audit.model.rules.ruleset import RuleSet
    from replay_audit.scoring.final import Reading
    from replay_audit.scoring.final_core import FinalRule
    from replay_audit.scoring.flow import HandState


_READINGS: dict[tuple[int, int, bool], tuple[RuleSet, LogWindow, tuple[Reading, ...]]] = {}
"""``scoring.final.readings`` by the ``id`` of the rules and of the log's window (the
entry holding both, so the ids stay theirs) and hanchan: the games of one lobby and
hour share both objects (``auditing.game._detected``), and hashing the window's
fields at every game cost more than the look-up."""


def _readings(rules: RuleSet, window: LogWindow, hanchan: bool) -> tuple[Reading, ...]:
    """``scoring.final.readings``, remembered: the games of one lobby and hour have
    the same, and a tonpuu lobby's built new rules (its old uma) at every game."""
    key = (id(rules), id(window), hanchan)
    entry = _READINGS.get(key)
    if entry is not None and entry[0] is rules and entry[1] is window:
        return entry[2]
    from replay_audit.scoring.final import readings

    found = readings(rules, window, hanchan)
    if len(_READINGS) >= 256:  # many short-lived RuleSets and windows: stay bounded
        _READINGS.clear()
    _READINGS[key] = (rules, window, found)
    return found


def _final_rule(rules: RuleSet, window: LogWindow, hanchan: bool) -> FinalRule | None:
    """The core's form (``scoring.final_core``) of the one reading of a log's final
    points, for the game's one call (``_core.audit_hands``) to check its end; None
    where the log's date allows several (``_check_final`` names the one the log
    follows) or the core leaves the count to Python.  Asked once per lobby and hour
    (``auditing.game._hands_context`` keeps it)."""
    from replay_audit.scoring.final_core import final_rule

    options = _readings(rules, window, hanchan)
    return final_rule(options[0]) if len(options) == 1 else None


_OPENINGS: dict[tuple[int, int], tuple[RuleSet, HandState]] = {}
"""``_opening``'s states by the ``id`` of the rules (held in the entry) and the dealer."""


def _opening(rules: RuleSet, dealer: int) -> HandState:
    """The rules' start of a game with this first dealer, made once for the games of
    one lobby (a frozen value: its scores a tuple), not again at each game."""
    key = (id(rules), dealer)
    entry = _OPENINGS.get(key)
    if entry is not None and entry[0] is rules:
        return entry[1]
    from replay_audit.scoring.flow import HandState

    state = HandState(0, 0, 0, dealer, engine().start_state(rules).scores)
    if len(_OPENINGS) >= 256:  # many short-lived RuleSets: stay bounded
        _OPENINGS.clear()
    _OPENINGS[key] = (rules, state)
    return state


class _ScoreChain(_Notes):
    """Start scores, transitions between hands, the end and the final line."""

    def _start_scores(self, hand: HandLog, chain: tuple[int, ...] | None) -> tuple[int, ...]:
        """The scores this hand's computations start from: the computed chain; the
        hand's own recorded ones where the chain is unknown (a note said so) or,
        after a start-score mismatch, where the hand's own records agree with them
        (``_chain_start``)."""
        if chain is None:
            return hand.scores
        players = self.meta.players
        if tuple(hand.scores[:players]) == tuple(chain[:players]):  # ``_scores_agree``
            return chain
        return _chain_start(hand, chain, self.meta.players, self.rules.riichi_cost)

    def _check_opening(self, first: HandLog) -> HandState | None:
        """The first hand against the rules' start of a game (East 1, no honba or
        sticks, the first dealer, everyone at the start points).  A log that starts
        later is an excerpt (or lost its first hands): said in a note, and its first
        hand is taken as recorded (``None``)."""
        if first.round_index != 0 or first.honba != 0:
            self.add(
                INFO,
                "first_hand",
                f"the log starts at {first.label}, not at the first hand of a game: the hands "
                "before it are missing (an excerpt?), so its start is taken as recorded",
                first,
                seq=first.seq,
            )
            return None
        oya = dict(self.meta.extra).get("TAIKYOKU.oya", "0") if self.meta.extra else "0"
        expected = _opening(self.rules, int(oya) if oya.isdigit() else 0)
        why = "the game's first hand does not start as the rules say"
        self._compare_state(first, expected, why)
        players = self.meta.players
        if tuple(first.scores[:players]) != expected.scores[:players]:
            self._compare_scores(first, expected.scores, why)
        return expected

    def _compare_state(self, hand: HandLog, expected: HandState, why: str) -> None:
        """Round, honba, sticks and dealer of ``hand`` against ``expected``."""
        if (
            hand.round_index == expected.round_index
            and hand.honba == expected.honba
            and hand.sticks == expected.sticks
            and hand.dealer == expected.dealer
        ):
            return
        for name, rec, comp in (
            ("round", hand.round_index, expected.round_index),
            ("honba", hand.honba, expected.honba),
            ("sticks", hand.sticks, expected.sticks),
            ("dealer", hand.dealer, expected.dealer),
        ):
            if rec != comp:
                self.add(
                    "transition",
                    name,
                    f"{name} at the start of this hand: {why}",
                    hand,
                    seq=hand.seq,
                    recorded=rec,
                    computed=comp,
                )

    def _compare_scores(self, hand: HandLog, computed: Sequence[int], why: str) -> None:
        for s in range(self.meta.players):
            if hand.scores[s] != computed[s]:
                self.add(
                    "transition",
                    "start_scores",
                    f"seat {s}'s start score: {why}",
                    hand,
                    seq=hand.seq,
                    seat=s,
                    recorded=hand.scores[s],
                    computed=computed[s],
                )

    # -- one hand

    def _check_transition(
        self, prev: HandLog, outcome: _Outcome, hand: HandLog, chain: tuple[int, ...] | None
    ) -> tuple[HandState | None, tuple[int, ...] | None]:
        """``hand``'s start against what ``prev`` leads to: the expected state (``None``
        when the game should have ended before it) and the score chain to go on with.

        A problem is reported once.  When ``prev`` already carries a finding and
        ``hand`` starts exactly where the log's own account of ``prev`` leads (its
        recorded start, riichi sticks and payments; its recorded round, honba,
        sticks and dealer), the difference from the computed account is a
        consequence of what ``prev`` reports: the audit goes on from the log's
        values without saying it again."""
        flagged = prev.index in (
            self._flagged if self._flags_seen == len(self.findings) else self._flagged_hands()
        )
        players = self.meta.players
        if chain is not None and tuple(hand.scores[:players]) != tuple(chain[:players]):
            if flagged and _scores_agree(hand.scores, outcome["log_end"], players):
                chain = hand.scores
            else:
                self._compare_scores(
                    hand, chain, "differs from the previous hand's scores after its payments"
                )
        # with the chain unknown (a note said so) the flow reads this hand's scores
        scores = chain if chain is not None else hand.scores
        expected = self._next_state(prev, outcome, scores, hand)
        if flagged and not _same_state(expected, hand):
            logged = _expected_next(prev, _as_logged(prev, outcome), scores, self.rules, self.meta)
            if _same_state(logged, hand):
                expected = logged
        if expected is None:
            self.add(
                "transition",
                "game_over",
                "the game should have ended before this hand",
                hand,
                seq=hand.seq,
            )
            return None, chain
        if (
            hand.round_index != expected.round_index
            or hand.honba != expected.honba
            or hand.sticks != expected.sticks
            or hand.dealer != expected.dealer
        ):
            self._compare_state(hand, expected, "differs from what the previous hand leads to")
        return expected, chain

    def _flagged_hands(self) -> set[int | None]:
        """The ``hand_index`` of every problem (not a note) found so far: the
        findings only grow, so each is looked at once, not again at every
        transition (a long game with many notes walked them all at each hand)."""
        findings = self.findings
        seen = self._flags_seen
        if seen < len(findings):
            flagged = self._flagged
            for f in findings[seen:]:
                if f.category != INFO:
                    flagged.add(f.hand_index)
            self._flags_seen = len(findings)
        return self._flagged

    def _next_state(
        self, prev: HandLog, outcome: _Outcome, scores: tuple[int, ...], logged: HandLog | None
    ) -> HandState | None:
        """``_expected_next`` under the rules of the log's date; where its dates
        leave a game-flow rule open, the course the log takes (``logged``: its next
        hand, ``None`` where it ends), in a note (``era_readings.read_flow``).
        A log whose dates leave nothing open (every modern one) is read by
        today's rule, without a note, as ``read_flow`` would."""
        era = self.era
        if not era.alternatives:
            expected = _expected_next(prev, outcome, scores, self.rules, self.meta)
            if not era.open_rules or (expected is None) == (logged is None):
                # ``read_flow`` would weigh no dated change and, the log going
                # where today's rule does, no open rule: the same state, no note
                return expected
        read = engine().read_flow(
            era,
            self.rules,
            lambda rules: _expected_next(prev, outcome, scores, rules, self.meta),
            prev,
            logged,
            hanchan=self.meta.hanchan,
        )
        where = logged if logged is not None else prev
        for note in read.notes:
            self.add(INFO, note.field, note.message, where, seq=where.seq if logged else None)
        return read.expected

    def _check_game_end(
        self, last: HandLog, outcome: _Outcome, end_scores: tuple[int, ...] | None
    ) -> None:
        owari = self.game.owari
        scores = end_scores if end_scores is not None else last.scores
        if self.game.errors:
            goes_on = False  # hands were lost to a parse error: it is reported, not the end
            if owari is None:
                return
        else:
            goes_on = self._next_state(last, outcome, scores, None) is not None
        if owari is None:
            if _is_editor_export(self.meta):
                self.add(
                    INFO,
                    "no_final_scores",
                    "an editor or viewer export without final scores (sc): the hands are "
                    "audited, the end of the game is not",
                    last,
                )
                return
            self.add(
                "final",
                "owari_missing",
                "the log ends without final scores (owari): the game's end is missing",
                last,
            )
        if goes_on:
            self.add(
                "transition",
                "game_over",
                "the log ends here but the rules say the game goes on",
                last,
            )
        if owari is not None:
            self._check_final(last, owari, end_scores, outcome["sticks"])

    def _check_final(
        self, last: HandLog, owari: Owari, end_scores: tuple[int, ...] | None, sticks_left: int
    ) -> None:
        """The final line against the last scores and every settlement the log's
        date allows (``scoring.final.readings``); where several disagree, the one
        the log follows is named in a note, and none is passed over in silence."""
        eng = engine()
        final_points = eng.final_points
        players = self.meta.players
        window = self.window if self.window is not None else eng.log_window(self.game)
        options = _readings(self.rules, window, self.meta.hanchan)
        if end_scores is None:
            self.add(
                INFO,
                "final_scores_unchecked",
                "the last hand's payments could not be computed: the final scores are taken "
                "as recorded and only their uma and oka are checked",
                last,
            )
            base, left = tuple(owari.scores), 0
        else:
            base, left = end_scores, sticks_left
        base = base[:players]
        if len(options) == 1:  # a dated log: one reading, nothing to choose or name
            raw, pts = final_points(base, left, options[0].rules, era=options[0].era)
            if end_scores is not None and tuple(owari.scores[:players]) != raw[:players]:
                self._compare_final_scores(last, owari, raw)  # (``_scores_agree``, inline)
            self._compare_final(last, owari, options[0], pts)
            return
        results = [final_points(base, left, r.rules, era=r.era) for r in options]
        if end_scores is not None:
            self._compare_final_scores(last, owari, results[0][0])

        def misses(points: Sequence[float]) -> list[int]:
            return _misses(owari, points, players)

        distinct = {tuple(p for p in pts[:players]) for _, pts in results}
        pick = min(range(len(options)), key=lambda i: len(misses(results[i][1])))
        chosen, pts = options[pick], results[pick][1]
        if len(distinct) > 1:
            others = "; ".join(
                f"{r.label} would give {_fmt(tuple(results[i][1][:players]))}"
                for i, r in enumerate(options)
                if i != pick
            )
            fits = "follow" if not misses(pts) else "fit no reading; compared with"
            why = (
                "the lobby's rounding of its final points is not in the log"
                if self.rules.rounding == "either"
                else f"the log's date is {window.describe()}, so the rule of its final "
                "points is not known from the log itself"
            )
            self.add(
                INFO,
                "final_reading",
                f"{why}: the recorded points {fits} {chosen.label}; {others}",
                last,
            )
        self._compare_final(last, owari, chosen, pts)

    def _compare_final_scores(self, last: HandLog, owari: Owari, raw: Sequence[int]) -> None:
        """The recorded final scores against the last scores plus leftover sticks."""
        for s in range(self.meta.players):
            if owari.scores[s] != raw[s]:
                self.add(
                    "final",
                    "final_score",
                    "final score differs from the last scores plus leftover sticks",
                    last,
                    seat=s,
                    recorded=owari.scores[s],
                    computed=raw[s],
                )

    def _compare_final(
        self,
        last: HandLog,
        owari: Owari,
        chosen: Reading,
        pts: Sequence[float],
    ) -> None:
        """The recorded final points against ``chosen``'s (``pts``), seat by seat."""
        for s in _misses(owari, pts, self.meta.players):
            self.add(
                "final",
                "final_points",
                f"final points differ (uma/oka, {chosen.label})",
                last,
                seat=s,
                recorded=owari.points[s],
                computed=pts[s],
            )


def _misses(owari: Owari, points: Sequence[float], players: int) -> list[int]:
    """The seats whose recorded final points are more than 0.05 off ``points``
    (none where they are the same values, as they nearly always are: compared in C)."""
    recorded = owari.points
    if tuple(recorded[:players]) == tuple(points[:players]):
        return []
    return [s for s in range(players) if abs(recorded[s] - points[s]) > 0.05]


def empty_seats(
    game: Game,
) -> Iterator[tuple[str, str, HandLog | None, int | None, Sequence[float]]]:
    """A three-player log keeps four seats, the fourth a placeholder whose start
    score, result scores and payments and final values are all 0 (formats.md
    §4.10, §6.8).  Every other check reads the three seats only, so a value written
    there would go unseen: each place that holds one, as ``(category, what, hand,
    seq, values)`` (none for four players)."""
    n = game.meta.players
    for hand in game.hands:
        if any(hand.scores[n:]):
            yield "transition", "start scores", hand, hand.seq, hand.scores
        for r in hand.results:
            for what, values in (("scores", r.scores_before), ("payments", r.deltas)):
                if any(values[n:]):
                    yield "payment", f"result {what}", hand, r.seq, values
    owari = game.owari
    if owari is not None:
        last = game.hands[-1] if game.hands else None
        for what, final in (("final scores", owari.scores), ("final points", owari.points)):
            if any(final[n:]):
                yield "final", what, last, None, final
