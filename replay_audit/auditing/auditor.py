"""The auditor: hold the recorded account of a game against the computed one.

For each game: pick the rules, replay it (``replay.py``), score every win
(``scoring.hand``), compute every payment (``scoring.payments``), follow the
score chain and the hand-to-hand transitions (``scoring.flow``) and the final
settlement (``scoring.final``), and turn every difference into a ``Finding``.
Nothing here computes a value itself; it only compares.

The per-file worker ``audit_file`` returns plain rows (lists of dicts) so it
pickles cheaply to process pools and Dask workers.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from replay_audit.model.errors import LogFormatError, RulesError
from replay_audit.model.events import (
    Discard,
    Draw,
    Game,
    GameMeta,
    HandLog,
    Owari,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
)
from replay_audit.model.findings import INFO, Finding
from replay_audit.model.rules.csrule import rules_for_csrule
from replay_audit.model.rules.eras import Era, era_of, rules_of_date
from replay_audit.model.rules.ruleset import (
    RuleSet,
    load_rules,
    rules_for_disp,
    rules_for_go_type,
)

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit.replay.values import GameReplay, HandReplay, ResultReplay
    from replay_audit.scoring.context import WinContext, WinValue
    from replay_audit.scoring.flow import HandState

SCHEMA_VERSION = 2
"""2: notes (``findings.INFO``) and their ``notes`` counts, per-seat start-score
and scores-before findings, ``comp_pao_seat``."""


class _Outcome(TypedDict):
    """How a hand ended, as the audit carries it to the next hand's checks
    (``_expected_next`` turns it into a ``scoring.flow.HandOutcome``)."""

    winners: tuple[int, ...]
    dealer_won: bool
    draw_kind: str | None
    dealer_tenpai: bool | None
    sticks: int
    """Riichi sticks left on the table after the hand."""
    honba: int
    """The hand's computed honba (like the round and dealer below: the flow goes on
    from what was computed, so one wrong INIT is reported once, not again at the
    next hand)."""
    round_index: int
    dealer: int
    riichi: int
    """Riichi sticks placed this hand."""
    log_end: tuple[int, ...]
    """The scores after the hand by the log's own account: its recorded start, less
    its riichi sticks, plus its recorded payments."""
    tenpai: tuple[bool, ...]
    """Each seat's tenpai at an exhaustive draw (empty otherwise)."""


@dataclass(slots=True)
class FileAudit:
    """Everything one input file contributes to a report, as plain rows."""

    path: str
    status: str = "ok"
    """``ok``, ``mismatch`` or ``error``."""
    format: str | None = None
    error: str | None = None
    sha256: str | None = None
    games: list[dict[str, Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    hand_facts: list[dict[str, Any]] = field(default_factory=list)
    game_facts: list[dict[str, Any]] = field(default_factory=list)
    score_history: list[dict[str, Any]] = field(default_factory=list)

    def file_row(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "format": self.format,
            "status": self.status,
            "games": len(self.games),
            "hands": sum(g["hands"] for g in self.games),
            "results": len(self.hands),
            "findings": sum(1 for f in self.findings if f["category"] != INFO),
            "notes": sum(1 for f in self.findings if f["category"] == INFO),
            "error": self.error,
            "sha256": self.sha256,
        }


# ------------------------------------------------------------------------- rules


def rules_for_game(game: Game, rules: RuleSet | None = None) -> RuleSet:
    """The rules a game is audited under: the caller's, else detected from the log."""
    if rules is not None:
        return rules
    if game.meta.format == "tenhou-xml":
        detected = rules_for_go_type(game.meta.go_type, game.meta.lobby)
    else:
        detected = rules_for_disp(game.meta.rule_disp, game.meta.aka, game.meta.players)
    csrule = dict(game.meta.extra).get("csrule")
    if csrule:
        detected = rules_for_csrule(detected, csrule)
    # Tenhou's rules of the log's date: 2009 tenpai renchan, the 2006 red fives (eras.py)
    return rules_of_date(detected, game)


# ---------------------------------------------------------------------- one game


def _fmt(value: object) -> object:
    """Printable, comparable cell value (tuples become ``a,b,c``, nested ones flat).

    >>> _fmt(((1, 2), (52, 1))), _fmt([0, -8000]), _fmt(3)
    ('1,2,52,1', '0,-8000', 3)
    """
    if isinstance(value, tuple | list):
        return _joined(value)
    return value


def _joined(values: Sequence[object]) -> str:
    return ",".join([_joined(v) if isinstance(v, tuple | list) else str(v) for v in values])


def _yaku_set(yaku: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Yaku compared as a set, ignoring zero-han entries (``53,0``)."""
    return tuple(sorted((i, h) for i, h in yaku if h))


class _GameAuditor:
    """Walks one game; collects findings and the ``hands`` rows."""

    def __init__(
        self, game: Game, rules: RuleSet, era: Era | None = None, *, read_lobby: bool = False
    ) -> None:
        self.game = game
        self.rules = rules
        self.era = era if era is not None else Era()
        """The readings the log's dates leave open (none for the caller's own rules)."""
        self.read_lobby = read_lobby
        """Rules detected, not given: read what the lobby does not record off the log."""
        self.meta = game.meta
        self.findings: list[Finding] = []
        self.hand_rows: list[dict[str, Any]] = []
        self.win_values: dict[int, WinValue | None] = {}
        """The scorer's value of each recorded win, by ``id`` (for the chips)."""

    # -- helpers
    def add(
        self, category: str, fld: str, message: str, hand: HandLog | None = None, **kw: Any
    ) -> None:
        self.findings.append(
            Finding(
                category=category,
                field=fld,
                message=message,
                file=self.meta.source,
                log_id=self.meta.log_id,
                hand=hand.label if hand else None,
                hand_index=hand.index if hand else None,
                **kw,
            )
        )

    def replay(self) -> GameReplay:
        """Replay the game; its findings are the audit's first."""
        from replay_audit.replay.table import replay_game

        replay = replay_game(self.game, self.rules)
        self.findings.extend(replay.findings)
        return replay

    def run(self) -> None:
        from replay_audit.scoring.flow import HandState

        replay = self.replay()
        self._note_warnings()
        self._note_unobserved_2006()
        if self.read_lobby:
            self._read_lobby(replay)
        by_hand = {id(h.hand): h for h in replay.hands}
        played = [(hand, by_hand[id(hand)]) for hand in self.game.hands if id(hand) in by_hand]
        if not played:
            return
        first = played[0][0]
        expected = self._check_opening(first)
        chain: tuple[int, ...] | None = first.scores if expected is None else expected.scores
        prev: tuple[HandLog, _Outcome] | None = None
        for hand, hr in played:
            if prev is not None:
                expected, chain = self._check_transition(prev[0], prev[1], hand, chain)
            # the hand's state as computed (as recorded only where nothing is: the
            # first hand of an excerpt, or after the game should have ended)
            at = HandState(
                round_index=(expected or hand).round_index,
                honba=(expected or hand).honba,
                sticks=(expected or hand).sticks,
                dealer=(expected or hand).dealer,
                scores=self._start_scores(hand, chain),
            )
            chain, outcome = self._audit_hand(hand, hr, at)
            prev = (hand, outcome)
        if prev is not None:
            self._check_game_end(prev[0], prev[1], chain)
        if self.rules.chips:
            self._check_chips()

    def _read_lobby(self, replay: GameReplay) -> None:
        """The rules a lobby does not record, read off the log (``lobby.py``)."""
        from replay_audit.auditing.lobby import read_lobby

        reading = read_lobby(self.game, replay, self.rules)
        self.rules = reading.rules
        for note in reading.notes:
            self.add(note.category, note.field, note.message, note.hand)

    def _check_chips(self) -> None:
        """Every chip record against the chips the wins earn (``chips.py``); a
        result row counts its chip findings too."""
        from replay_audit.scoring.chips import check_chips

        rows = {(r["hand_index"], r["seq"]): r for r in self.hand_rows}
        for c in check_chips(self.game, self.win_values, self.meta.players):
            self.add(c.category, c.field, c.message, c.hand, seq=c.seq, seat=c.seat,
                     recorded=c.recorded, computed=c.computed)  # fmt: skip
            row = rows.get((c.hand.index if c.hand else None, c.seq))
            if row is not None and c.category != INFO:
                row["n_findings"] += 1
                row["status"] = "mismatch"

    def _note_warnings(self) -> None:
        """What the parser kept but did not understand reaches the report as notes."""
        for text in self.game.warnings:
            self.add(INFO, "parse_warning", f"the parser noted: {text}")

    def _note_unobserved_2006(self) -> None:
        """What a log of the 2006 days does that no 2006 log shows is audited under
        today's rule, and said in a note (``era_readings.unobserved_2006``)."""
        from replay_audit.auditing.era_readings import unobserved_2006

        for hand, seq, what in unobserved_2006(self.game, self.era):
            self.add(
                INFO,
                "rule_2006_unknown",
                f"{what}: no log of 2006 shows its rule, so today's is applied",
                hand,
                seq=seq,
            )

    def _start_scores(self, hand: HandLog, chain: tuple[int, ...] | None) -> tuple[int, ...]:
        """The scores this hand's computations start from: the computed chain; the
        hand's own recorded ones where the chain is unknown (a note said so) or,
        after a start-score mismatch, where the hand's own records agree with them
        (``_chain_start``)."""
        if chain is None:
            return hand.scores
        if _scores_agree(hand.scores, chain, self.meta.players):
            return chain
        return _chain_start(hand, chain, self.meta.players, self.rules.riichi_cost)

    def _check_opening(self, first: HandLog) -> HandState | None:
        """The first hand against the rules' start of a game (East 1, no honba or
        sticks, the first dealer, everyone at the start points).  A log that starts
        later is an excerpt (or lost its first hands): said in a note, and its first
        hand is taken as recorded (``None``)."""
        from replay_audit.scoring.flow import HandState, start_state

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
        base = start_state(self.rules)
        oya = dict(self.meta.extra).get("TAIKYOKU.oya", "0")
        expected = HandState(0, 0, 0, int(oya) if oya.isdigit() else 0, base.scores)
        why = "the game's first hand does not start as the rules say"
        self._compare_state(first, expected, why)
        self._compare_scores(first, expected.scores, why)
        return expected

    def _compare_state(self, hand: HandLog, expected: HandState, why: str) -> None:
        """Round, honba, sticks and dealer of ``hand`` against ``expected``."""
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
    def _audit_hand(
        self, hand: HandLog, hr: HandReplay, at: HandState
    ) -> tuple[tuple[int, ...] | None, _Outcome]:
        """Audit one hand's results from its computed start (``at``: round, honba,
        sticks, dealer, scores); return the scores after it (``None`` when a
        result's payments could not be computed) and how it ended."""
        from replay_audit.scoring.hand import score_win
        from replay_audit.scoring.payments import (
            exhaustive_draw_deltas,
            nagashi_deltas,
        )

        rules = self.rules
        players = self.meta.players
        scores = list(at.scores)
        logged = list(hand.scores)
        riichi = 0
        honba, sticks, dealer = at.honba, at.sticks, at.dealer
        known = True
        results_by_id = {id(r.result): r for r in hr.results}
        first_winner_done = False
        winners: list[int] = []
        draw_kind: str | None = None
        dealer_tenpai: bool | None = None
        tenpai: tuple[bool, ...] = ()
        for ev in hand.events:
            t = type(ev)
            if t is Draw or t is Discard:  # most events: nothing to audit here
                continue
            if t is RiichiAccept:
                ra: RiichiAccept = ev  # type: ignore[assignment]  # t is RiichiAccept
                scores[ra.seat] -= rules.riichi_cost
                logged[ra.seat] -= rules.riichi_cost
                sticks += 1
                riichi += 1
                if (
                    known
                    and ra.scores is not None
                    and tuple(ra.scores[:players]) != tuple(scores[:players])
                ):
                    self.add(
                        "payment",
                        "riichi_deposit",
                        "scores after the riichi stick differ from the computed ones",
                        hand,
                        seq=ra.seq,
                        seat=ra.seat,
                        recorded=_fmt(ra.scores[:players]),
                        computed=_fmt(scores[:players]),
                    )
                continue
            if not isinstance(ev, RecordedWin | RecordedDraw):
                continue
            rr = results_by_id.get(id(ev))
            for s, d in enumerate(ev.deltas[: len(logged)]):
                logged[s] += d
            row: dict[str, Any] = {
                "file": self.meta.source,
                "log_id": self.meta.log_id,
                "hand_index": hand.index,
                "hand": hand.label,
                "round_index": at.round_index,
                "honba": honba,
                # a later winner of a multiple ron finds the table empty
                "sticks": 0 if first_winner_done else sticks,
                "dealer": dealer,
                "seq": ev.seq,
            }
            n_before = len(self.findings)
            if known and ev.scores_before:
                for s in range(players):
                    if ev.scores_before[s] != scores[s]:
                        self.add(
                            "payment",
                            "scores_before",
                            f"seat {s}'s score before this result differs from its start score "
                            "less riichi sticks and earlier payments",
                            hand,
                            seq=ev.seq,
                            seat=s,
                            recorded=ev.scores_before[s],
                            computed=scores[s],
                        )
            if isinstance(ev, RecordedWin):
                computed = self._audit_win(
                    hand, ev, rr, row, at, sticks, not first_winner_done, score_win
                )
                if not first_winner_done:
                    self._check_ba(hand, ev, honba, sticks)
                first_winner_done = True
                winners.append(ev.seat)
            else:
                draw_kind = ev.kind
                computed, dealer_tenpai = self._audit_draw(
                    hand, ev, rr, row, dealer, exhaustive_draw_deltas, nagashi_deltas
                )
                if rr is not None and rr.draw is not None:
                    tenpai = tuple(rr.draw.tenpai)
                self._check_ba(hand, ev, honba, sticks)
            if computed is None:
                # Nothing could be computed (the result is already flagged above).
                # The log's own payments are not taken instead: the chain stops
                # here and the next hand starts from its recorded scores.
                if known:
                    self.add(
                        INFO,
                        "payments_unknown",
                        "this result's payments could not be computed, so the scores after "
                        "this hand are not known: the next hand is audited from its recorded "
                        "start scores",
                        hand,
                        seq=ev.seq,
                    )
                known = False
            else:
                for s in range(players):
                    scores[s] += computed[s]
            row["n_findings"] = _problems(self.findings[n_before:])
            row["status"] = "mismatch" if row["n_findings"] else "ok"
            self.hand_rows.append(row)
        sticks_after = 0 if winners else sticks
        outcome: _Outcome = {
            "winners": tuple(winners),
            "dealer_won": dealer in winners,
            "draw_kind": draw_kind,
            "dealer_tenpai": dealer_tenpai,
            "sticks": sticks_after,
            "honba": honba,
            "round_index": at.round_index,
            "dealer": dealer,
            "riichi": riichi,
            "log_end": tuple(logged),
            "tenpai": tenpai,
        }
        return (tuple(scores) if known else None), outcome

    def _check_ba(
        self, hand: HandLog, ev: RecordedWin | RecordedDraw, honba: int, sticks: int
    ) -> None:
        # 2006 (stepless REACH) logs write no sticks in AGARI ba, though the winner
        # collects them (formats.md §6.12: all 17 wins of the four public 2006 logs)
        legacy = isinstance(ev, RecordedWin) and self.meta.stepless_reach
        if ev.honba is not None and ev.honba != honba:
            self.add(
                "transition",
                "ba_honba",
                "honba in the result differs from the hand's computed honba",
                hand,
                seq=ev.seq,
                recorded=ev.honba,
                computed=honba,
            )
        if ev.sticks is not None and ev.sticks != (0 if legacy else sticks):
            self.add(
                "transition",
                "ba_sticks",
                "riichi sticks in the result differ from the sticks carried in plus this hand's riichi"
                + (" (a 2006 AGARI writes none)" if legacy else ""),
                hand,
                seq=ev.seq,
                recorded=ev.sticks,
                computed=0 if legacy else sticks,
            )

    def _audit_win(
        self,
        hand: HandLog,
        ev: RecordedWin,
        rr: ResultReplay | None,
        row: dict[str, Any],
        at: HandState,
        sticks: int,
        first: bool,
        score_win: Callable[[WinContext, RuleSet], WinValue],
    ) -> tuple[int, ...] | None:
        from replay_audit.scoring.payments import win_deltas

        row.update(
            result="tsumo" if ev.tsumo else "ron",
            winner=ev.seat,
            from_seat=ev.from_seat,
            pao_seat=ev.pao_seat,
            rec_fu=ev.fu,
            rec_han=ev.han,
            rec_points=ev.points,
            rec_limit=ev.limit,
            rec_yaku=_fmt(_yaku_set(ev.yaku)) if ev.yaku else _fmt(tuple(sorted(ev.yakuman))),
            rec_deltas=_fmt(ev.deltas[: self.meta.players]),
        )
        ctx = rr.win if rr is not None else None
        if ctx is None:
            self.add(
                "replay",
                "no_context",
                "the replay could not rebuild this win",
                hand,
                seq=ev.seq,
                seat=ev.seat,
            )
            return None
        value = self._win_value(ctx, ev, hand, score_win)
        self.win_values[id(ev)] = value
        row.update(
            comp_fu=value.fu,
            comp_han=value.han,
            comp_points=value.points,
            comp_limit=value.limit,
            comp_yaku=_fmt(_yaku_set(value.yaku))
            if not value.yakuman
            else _fmt(tuple(sorted(value.yakuman))),
        )
        where = {"seq": ev.seq, "seat": ev.seat}
        if not value.ok:
            self.add(
                "hand_value",
                "win",
                f"the recorded win is not a legal win here ({value.error})",
                hand,
                recorded=ev.points,
                computed=value.error,
                **where,
            )
            return None
        checks: list[tuple[str, object, object]] = [
            ("points", ev.points, value.points),
            ("limit", ev.limit, value.limit),
        ]
        if ev.yakuman or value.yakuman:
            # the fu Tenhou writes on a yakuman is meaningless: not compared
            checks.append(("yakuman", tuple(sorted(ev.yakuman)), tuple(sorted(value.yakuman))))
        else:
            checks.append(("han", ev.han, value.han))
            checks.append(("yaku", _yaku_set(ev.yaku), _yaku_set(value.yaku)))
            checks.append(("fu", ev.fu, value.fu))
        for name, rec, comp in checks:
            if rec is not None and rec != comp:
                self.add(
                    "hand_value",
                    name,
                    f"recorded {name} differs from the value computed from the hand",
                    hand,
                    recorded=_fmt(rec),
                    computed=_fmt(comp),
                    **where,
                )
        players = self.meta.players
        liable = self._pao_seat(ev, rr, value)
        row["comp_pao_seat"] = liable
        recorded_pao = ev.pao_seat if ev.pao_seat != ev.seat else None
        if recorded_pao != liable:
            self.add(
                "payment",
                "pao_seat",
                "the liable (pao) seat differs from the one the calls make liable",
                hand,
                recorded=recorded_pao,
                computed=liable,
                **where,
            )
        deltas = win_deltas(
            value,
            winner=ev.seat,
            from_seat=ev.from_seat,
            dealer=at.dealer,
            players=players,
            honba=at.honba,
            sticks=sticks,
            first_winner=first,
            pao_seat=liable,
            rules=self.rules,
        )
        row["comp_deltas"] = _fmt(tuple(deltas[:players]))
        self._compare_deltas("payment", hand, ev.seq, ev.deltas, deltas)
        return tuple(deltas)

    def _win_value(
        self,
        ctx: WinContext,
        ev: RecordedWin,
        hand: HandLog,
        score_win: Callable[[WinContext, RuleSet], WinValue],
    ) -> WinValue:
        """The win under the rules of the log's date; where its dates leave a
        scoring rule open (the red fives), the reading the log follows, in a note."""
        from replay_audit.auditing.era_readings import read_win

        value, notes = read_win(self.era, self.rules, ctx, ev, score_win)
        for note in notes:
            self.add(INFO, note.field, note.message, hand, seq=ev.seq, seat=ev.seat)
        return value

    def _pao_seat(self, ev: RecordedWin, rr: ResultReplay | None, value: WinValue) -> int | None:
        """The seat liable for this win (pao), from the calls: a liability the
        replay found for a yakuman the hand scored and the rules give pao for."""
        if rr is None:
            return None
        for yakuman, seat in rr.pao:
            if yakuman in self.rules.pao_yakuman and yakuman in value.yakuman and seat != ev.seat:
                return seat
        return None

    def _compare_deltas(
        self,
        category: str,
        hand: HandLog,
        seq: int,
        recorded: Sequence[int],
        computed: Sequence[int],
    ) -> None:
        players = self.meta.players
        if not recorded:
            return
        for s in range(players):
            if recorded[s] != computed[s]:
                self.add(
                    category,
                    "delta",
                    f"seat {s} recorded a payment of {recorded[s]:+d}, the rules give {computed[s]:+d}",
                    hand,
                    seq=seq,
                    seat=s,
                    recorded=recorded[s],
                    computed=computed[s],
                )

    def _audit_draw(
        self,
        hand: HandLog,
        ev: RecordedDraw,
        rr: ResultReplay | None,
        row: dict[str, Any],
        dealer: int,
        exhaustive_draw_deltas: Callable[[Sequence[bool], int, RuleSet], tuple[int, ...]],
        nagashi_deltas: Callable[[Sequence[bool], int, int, RuleSet], tuple[int, ...]],
    ) -> tuple[tuple[int, ...] | None, bool | None]:
        players = self.meta.players
        row.update(result=ev.kind, rec_deltas=_fmt(ev.deltas[:players]))
        dctx = rr.draw if rr is not None else None
        dealer_tenpai: bool | None = None
        computed: tuple[int, ...]
        if ev.kind in ("exhaustive", "nm"):
            if dctx is None:
                self.add(
                    "replay",
                    "no_context",
                    "the replay could not rebuild this draw",
                    hand,
                    seq=ev.seq,
                )
                return None, None
            dealer_tenpai = dctx.tenpai[dealer]
            row["tenpai"] = _fmt(tuple(int(t) for t in dctx.tenpai[:players]))
            if ev.kind == "nm" or any(dctx.nagashi[:players]):
                if ev.kind != "nm":
                    self.add(
                        "draw",
                        "nagashi",
                        "a seat qualified for nagashi mangan but the log records an ordinary draw",
                        hand,
                        seq=ev.seq,
                    )
                computed = tuple(nagashi_deltas(dctx.nagashi, dealer, players, self.rules))
            else:
                computed = tuple(exhaustive_draw_deltas(dctx.tenpai, players, self.rules))
        else:
            computed = (0,) * len(hand.scores)
            if rr is not None and rr.abort_ok is False:
                self.add(
                    "draw",
                    "abort_condition",
                    f"abortive draw '{ev.kind}' recorded but its condition did not hold",
                    hand,
                    seq=ev.seq,
                )
            if ev.kind not in self.rules.abortive_draws:
                self.add(
                    "rules",
                    "abortive_draw",
                    f"abortive draw '{ev.kind}' is not used under rules {self.rules.name}",
                    hand,
                    seq=ev.seq,
                )
            dealer_tenpai = None
        row["comp_deltas"] = _fmt(computed[:players])
        self._compare_deltas("draw", hand, ev.seq, ev.deltas, computed)
        return computed, dealer_tenpai

    # -- between hands
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
        flagged = any(f.hand_index == prev.index and f.category != INFO for f in self.findings)
        players = self.meta.players
        if chain is not None and not _scores_agree(hand.scores, chain, players):
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
        self._compare_state(hand, expected, "differs from what the previous hand leads to")
        return expected, chain

    def _next_state(
        self, prev: HandLog, outcome: _Outcome, scores: tuple[int, ...], logged: HandLog | None
    ) -> HandState | None:
        """``_expected_next`` under the rules of the log's date; where its dates
        leave a game-flow rule open, the course the log takes (``logged``: its next
        hand, ``None`` where it ends), in a note (``era_readings.read_flow``)."""
        from replay_audit.auditing.era_readings import read_flow

        read = read_flow(
            self.era,
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
        from replay_audit.model.dating import log_window
        from replay_audit.scoring.final import final_points, readings

        players = self.meta.players
        window = log_window(self.game)
        options = readings(self.rules, window, self.meta.hanchan)
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
        results = [final_points(base[:players], left, r.rules, era=r.era) for r in options]
        raw = results[0][0]
        if end_scores is not None:
            for s in range(players):
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

        def misses(points: Sequence[float]) -> list[int]:
            return [s for s in range(players) if abs(owari.points[s] - points[s]) > 0.05]

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
        for s in misses(pts):
            self.add(
                "final",
                "final_points",
                f"final points differ (uma/oka, {chosen.label})",
                last,
                seat=s,
                recorded=owari.points[s],
                computed=pts[s],
            )


def _same_state(state: HandState | None, hand: HandLog) -> bool:
    """Whether ``hand`` starts in ``state`` (round, honba, sticks, dealer)."""
    return state is not None and (
        state.round_index,
        state.honba,
        state.sticks,
        state.dealer,
    ) == (hand.round_index, hand.honba, hand.sticks, hand.dealer)


def _as_logged(hand: HandLog, outcome: _Outcome) -> _Outcome:
    """``outcome`` with the hand's state as its INIT recorded it (for the log's own
    account of where the game goes next)."""
    logged = dict(outcome)
    logged.update(
        round_index=hand.round_index,
        honba=hand.honba,
        dealer=hand.dealer,
        dealer_won=hand.dealer in outcome["winners"],
        dealer_tenpai=(
            outcome["tenpai"][hand.dealer]
            if hand.dealer < len(outcome["tenpai"])
            else outcome["dealer_tenpai"]
        ),
        sticks=0 if outcome["winners"] else hand.sticks + outcome["riichi"],
    )
    return logged  # type: ignore[return-value]  # the same keys as ``outcome``


def _problems(findings: Sequence[Finding]) -> int:
    """How many of ``findings`` are problems (notes left out)."""
    return sum(1 for f in findings if f.category != INFO)


def _is_editor_export(meta: GameMeta) -> bool:
    """A tenhou.net/6 editor or viewer export (formats.md §4.1, kind 2): no ``ver``
    and no log id, often one hand, never final scores.  An official download has
    both, so its missing ``sc`` is a finding."""
    return meta.format == "tenhou-json" and meta.log_id is None and "ver" not in dict(meta.extra)


def _scores_agree(a: Sequence[int], b: Sequence[int], players: int) -> bool:
    return tuple(a[:players]) == tuple(b[:players])


def _chain_start(
    hand: HandLog, computed: tuple[int, ...], players: int, riichi_cost: int
) -> tuple[int, ...]:
    """Where the score chain goes on after a start-score mismatch (already reported).

    If the hand's own records agree with its INIT scores (the first result's
    "before" scores equal INIT less this hand's riichi sticks), the INIT is
    trusted and our chain resyncs to it, so one wrong computation upstream is
    reported once, not in every later hand.  If they disagree, or nothing in the
    hand vouches for its INIT (JSON results record no "before" scores), the
    INIT itself is the odd one out and the computed chain goes on (the next
    transition resyncs if the log's own account of this hand leads there).
    """
    scores = list(hand.scores)
    for ev in hand.events:
        if type(ev) is RiichiAccept:
            scores[ev.seat] -= riichi_cost
        elif isinstance(ev, RecordedWin | RecordedDraw):
            if ev.scores_before and _scores_agree(ev.scores_before, scores, players):
                return hand.scores
            break
    return computed


def _expected_next(
    prev: HandLog, outcome: _Outcome, scores: tuple[int, ...], rules: RuleSet, meta: GameMeta
) -> HandState | None:
    """The next hand's state per the rules, or None when the game is over."""
    from replay_audit.scoring.flow import HandOutcome, HandState, next_hand

    if rules.max_hands and prev.index + 1 >= rules.max_hands:
        return None
    state = HandState(
        round_index=outcome["round_index"],
        honba=outcome["honba"],
        sticks=outcome["sticks"],
        dealer=outcome["dealer"],
        scores=tuple(scores[: meta.players]),
    )
    out = HandOutcome(
        winners=outcome["winners"],
        dealer_won=outcome["dealer_won"],
        draw_kind=outcome["draw_kind"],
        dealer_tenpai=bool(outcome["dealer_tenpai"]),
    )
    return next_hand(state, out, rules, game_length="hanchan" if meta.hanchan else "tonpuu")


# -------------------------------------------------------------------- game rows


def audit_game(
    game: Game, rules: RuleSet | None = None, *, replay_only: bool = False
) -> tuple[list[Finding], list[dict[str, Any]], RuleSet]:
    """Audit one parsed game: its findings, its ``hands`` rows and the rules used.

    ``replay_only`` stops after the replay (``validate``): the log's own
    consistency, its moves against the wall and the hands, without scoring or
    payments, so no ``hands`` rows."""
    used = rules_for_game(game, rules)
    auditor = _GameAuditor(
        game, used, era_of(game, used) if rules is None else None, read_lobby=rules is None
    )
    for err in game.errors:
        auditor.findings.append(
            Finding(
                category="parse",
                field=type(err).__name__,
                message=getattr(err, "message", str(err)),
                file=game.meta.source,
                log_id=game.meta.log_id,
                hand=getattr(err, "hand", None),
                seq=getattr(err, "index", None),
            )
        )
    if used.players != game.meta.players:
        auditor.add(
            "rules",
            "players",
            f"rules {used.name} are for {used.players} players but the game has {game.meta.players}; not audited",
            recorded=game.meta.players,
            computed=used.players,
        )
        return auditor.findings, auditor.hand_rows, used
    try:
        if replay_only:
            auditor.replay()
        else:
            auditor.run()
    except (LogFormatError, RulesError) as exc:
        auditor.add("replay", "aborted", f"audit stopped: {exc}")
    return auditor.findings, auditor.hand_rows, auditor.rules


def _game_row(
    game: Game, rules: RuleSet, findings: list[Finding], hands: list[dict[str, Any]]
) -> dict[str, Any]:
    meta = game.meta
    row: dict[str, Any] = {
        "file": meta.source,
        "log_id": meta.log_id,
        "format": meta.format,
        "rules": rules.name,
        "players": meta.players,
        "go_type": meta.go_type,
        "lobby": meta.lobby,
        "rule_disp": meta.rule_disp,
        "date": meta.date,
        "hands": len(game.hands),
        "results": len(hands),
        "findings": _problems(findings),
        "notes": len(findings) - _problems(findings),
        "status": "mismatch" if _problems(findings) else "ok",
    }
    for s in range(4):
        row[f"name{s}"] = game.players[s].name if s < len(game.players) else None
        if game.owari is not None and s < meta.players:
            row[f"final_score{s}"] = game.owari.scores[s]
            row[f"final_points{s}"] = game.owari.points[s]
        else:
            row[f"final_score{s}"] = None
            row[f"final_points{s}"] = None
    return row


def _finding_row(f: Finding) -> dict[str, Any]:
    return {
        "category": f.category,
        "field": f.field,
        "file": f.file,
        "log_id": f.log_id,
        "hand": f.hand,
        "hand_index": f.hand_index,
        "seq": f.seq,
        "seat": f.seat,
        "recorded": None if f.recorded is None else str(f.recorded),
        "computed": None if f.computed is None else str(f.computed),
        "message": f.message,
    }


def audit_file(
    path: str | Path,
    rules: RuleSet | str | None = None,
    *,
    strict: bool = False,
    with_facts: bool = True,
) -> FileAudit:
    """Audit every game in one file.  Never raises in lenient mode: an unreadable
    file becomes one ``parse`` finding and status ``error``."""
    with _gc_paused():
        return _audit_file(path, rules, strict, with_facts)


def validate_file(
    path: str | Path, rules: RuleSet | str | None = None, *, strict: bool = False
) -> FileAudit:
    """Read, parse and replay one file, without scoring: a quick check that a
    download is whole and consistent (``replay-audit validate``).  Its findings
    are the ``parse`` and replay findings ``audit_file`` reports for the file."""
    with _gc_paused():
        return _audit_file(path, rules, strict, with_facts=False, replay_only=True)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector while one file is audited.

    A Phoenix log becomes thousands of small objects (events, melds,
    contexts, rows) and none of them form cycles, yet every 700 allocations
    the collector walks the young generation, and the older ones as they
    fill: about a tenth of the audit time, measured on the corpus, for
    nothing collected.  Collection resumes after the file (any cycle an
    error traceback left is then freed).  If the caller has the collector
    off, it stays off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _audit_file(
    path: str | Path,
    rules: RuleSet | str | None,
    strict: bool,
    with_facts: bool,
    replay_only: bool = False,
) -> FileAudit:
    from replay_audit.io.read import read_bytes
    from replay_audit.parsers.sniff import sniff_format

    p = display_name(path)
    fa = FileAudit(path=p)
    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    stage = "parse"
    try:
        data = read_bytes(path)
        fa.sha256 = hashlib.sha256(data).hexdigest()
        fa.format = sniff_format(data)
        game = _parse(data, p, fa.format, strict)
        stage = "replay"
        _audit_parsed(fa, game, rule_set, strict, with_facts, replay_only)
    except LogFormatError as exc:
        exc.located(source=p)
        if strict:
            raise
        fa.status = "error"
        fa.error = str(exc)
        fa.findings.append(
            _finding_row(
                Finding(
                    category="parse",
                    field=type(exc).__name__,
                    message=exc.message,
                    file=p,
                    log_id=exc.log_id,
                    hand=exc.hand,
                    seq=exc.index,
                )
            )
        )
        return fa
    except OSError as exc:
        if strict:
            raise
        fa.status = "error"
        fa.error = f"{p}: cannot read: {exc}"
        fa.findings.append(_finding_row(Finding("parse", "unreadable", str(exc), file=p)))
        return fa
    except Exception as exc:  # lenient batches never stop on one file
        if strict:
            raise
        message = f"internal error while auditing ({type(exc).__name__}): {str(exc)[:300]}"
        fa.status = "error"
        fa.error = f"{p}: {message}"
        fa.games.clear()
        fa.hands.clear()
        fa.hand_facts.clear()
        fa.game_facts.clear()
        fa.score_history.clear()
        fa.findings.append(_finding_row(Finding(stage, "internal_error", message, file=p)))
    return fa


def display_name(path: str | Path) -> str:
    """The path as reported: a name that is not valid UTF-8 keeps its bytes as
    escapes, so the report tables (CSV, Parquet) can always hold it."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _audit_parsed(
    fa: FileAudit,
    game: Game,
    rule_set: RuleSet | None,
    strict: bool,
    with_facts: bool,
    replay_only: bool = False,
) -> None:
    p = fa.path
    findings, hand_rows, used = audit_game(game, rule_set, replay_only=replay_only)
    problems = [f for f in findings if f.category != INFO]
    if strict and problems:
        first = problems[0]
        raise LogFormatError(
            first.message, source=p, log_id=first.log_id, hand=first.hand, index=first.seq
        )
    fa.games.append(_game_row(game, used, findings, hand_rows))
    fa.hands.extend(hand_rows)
    fa.findings.extend(_finding_row(f) for f in findings)
    damage = [f for f in findings if f.category == "parse"]
    if damage:
        fa.status = "error"
        fa.error = _cause(p, damage)
    elif _problems(findings):
        fa.status = "mismatch"
    if with_facts:
        _add_facts(fa, game)


def _cause(path: str, damage: list[Finding]) -> str:
    """The ``error`` of a partly read file: its first located damage (a bad seat or
    tile, in hand and event), before what follows from it (the game then ends
    without a result), in the words of ``LogFormatError``."""
    first = min(damage, key=lambda f: (f.hand is None and f.seq is None, f.hand_index or 0))
    return LogFormatError(
        first.message, source=path, log_id=first.log_id, hand=first.hand, index=first.seq
    ).describe()


def _parse(data: bytes, source: str, fmt: str, strict: bool) -> Game:
    if fmt == "tenhou-json":
        from replay_audit.parsers.tenhou_json import parse_tenhou_json

        return parse_tenhou_json(data, source, strict=strict)
    from replay_audit.parsers.tenhou_xml import parse_tenhou_xml

    return parse_tenhou_xml(data, source, strict=strict)


def _add_facts(fa: FileAudit, game: Game) -> None:
    """Per-player facts for the statistics layer (absent until it exists)."""
    try:
        from replay_audit import stats
    except ImportError:  # pragma: no cover - the stats layer is optional here
        return
    fa.hand_facts.extend(stats.hand_facts(game))
    fa.game_facts.extend(stats.game_facts(game))
    fa.score_history.extend(stats.score_history(game))
