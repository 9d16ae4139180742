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
import dataclasses
import gc
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from replay_audit.errors import LogFormatError, RulesError
from replay_audit.events import (
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
from replay_audit.findings import Finding
from replay_audit.rules import (
    RuleSet,
    load_rules,
    rules_for_csrule,
    rules_for_disp,
    rules_for_go_type,
)

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit.replay import GameReplay, HandReplay, ResultReplay
    from replay_audit.scoring.context import WinContext, WinValue
    from replay_audit.scoring.final import Era
    from replay_audit.scoring.flow import HandState

SCHEMA_VERSION = 1


class _Outcome(TypedDict):
    """How a hand ended, as the audit carries it to the next hand's checks
    (``_expected_next`` turns it into a ``scoring.flow.HandOutcome``)."""

    winners: tuple[int, ...]
    dealer_won: bool
    draw_kind: str | None
    dealer_tenpai: bool | None
    sticks: int


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
            "findings": len(self.findings),
            "error": self.error,
            "sha256": self.sha256,
        }


# ------------------------------------------------------------------------- rules


def rules_for_game(game: Game, rules: RuleSet | None = None) -> RuleSet:
    """The rules a game is audited under: the caller's, else detected from the log."""
    if rules is not None:
        return rules
    if game.meta.format == "tenhou-xml":
        detected = rules_for_go_type(game.meta.go_type)
    else:
        detected = rules_for_disp(game.meta.rule_disp, aka=game.meta.aka)
    csrule = dict(game.meta.extra).get("csrule")
    if csrule:
        detected = rules_for_csrule(detected, csrule)
    date = game_date(game)
    if date is not None and date < "2010" and detected.dealer_stops_on_tenpai:
        # A 2009 log has a tenpai dealer on top playing on in all-last; Tenhou's
        # automatic stop on tenpai came later.
        detected = dataclasses.replace(detected, dealer_stops_on_tenpai=False)
    return detected


def game_date(game: Game) -> str | None:
    """The log's date (``YYYYMMDDHH``), from its id or, when the id has none,
    from the wall-seed format: per-hand INIT ``shuffle`` seeds were used only
    until mid-July 2009."""
    if game.meta.date is not None:
        return game.meta.date
    if game.hands and any(k == "shuffle" for k, _ in game.hands[0].extra):
        return "2009071800"
    return None


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

    def __init__(self, game: Game, rules: RuleSet) -> None:
        self.game = game
        self.rules = rules
        self.meta = game.meta
        self.findings: list[Finding] = []
        self.hand_rows: list[dict[str, Any]] = []

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
        from replay_audit.replay import replay_game

        replay = replay_game(self.game, self.rules)
        self.findings.extend(replay.findings)
        return replay

    def run(self) -> None:
        replay = self.replay()
        hand_findings = {id(h.hand): h for h in replay.hands}
        computed_start: tuple[int, ...] | None = None
        prev_outcome: _Outcome | None = None
        prev_hand: HandLog | None = None
        sticks_left = 0
        end_scores: tuple[int, ...] | None = None
        for hand in self.game.hands:
            hr = hand_findings.get(id(hand))
            if hr is None:
                continue
            start = hand.scores
            # prev_outcome is set with prev_hand; testing it too tells the checker
            if prev_hand is not None and prev_outcome is not None and computed_start is not None:
                self._check_transition(prev_hand, prev_outcome, hand, computed_start)
                if not _scores_agree(hand.scores, computed_start, self.meta.players):
                    start = _chain_start(
                        hand, computed_start, self.meta.players, self.rules.riichi_cost
                    )
            end_scores, sticks_left, prev_outcome = self._audit_hand(hand, hr, start)
            computed_start = end_scores
            prev_hand = hand
        if prev_hand is not None and prev_outcome is not None and end_scores is not None:
            self._check_game_end(prev_hand, prev_outcome, end_scores, sticks_left)

    # -- one hand
    def _audit_hand(
        self, hand: HandLog, hr: HandReplay, start: tuple[int, ...]
    ) -> tuple[tuple[int, ...], int, _Outcome]:
        from replay_audit.scoring.hand import score_win
        from replay_audit.scoring.payments import (
            exhaustive_draw_deltas,
            nagashi_deltas,
        )

        rules = self.rules
        players = self.meta.players
        scores = list(start)
        sticks = hand.sticks
        results_by_id = {id(r.result): r for r in hr.results}
        first_winner_done = False
        winners: list[int] = []
        draw_kind: str | None = None
        dealer_tenpai: bool | None = None
        for ev in hand.events:
            t = type(ev)
            if t is Draw or t is Discard:  # most events: nothing to audit here
                continue
            if t is RiichiAccept:
                ra: RiichiAccept = ev  # type: ignore[assignment]  # t is RiichiAccept
                scores[ra.seat] -= rules.riichi_cost
                sticks += 1
                if ra.scores is not None and tuple(ra.scores[:players]) != tuple(scores[:players]):
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
            row: dict[str, Any] = {
                "file": self.meta.source,
                "log_id": self.meta.log_id,
                "hand_index": hand.index,
                "hand": hand.label,
                "round_index": hand.round_index,
                "honba": hand.honba,
                # a later winner of a multiple ron finds the table empty
                "sticks": 0 if first_winner_done else sticks,
                "dealer": hand.dealer,
                "seq": ev.seq,
            }
            n_before = len(self.findings)
            if ev.scores_before and tuple(ev.scores_before[:players]) != tuple(scores[:players]):
                self.add(
                    "payment",
                    "scores_before",
                    "scores before this result differ from the start scores less riichi sticks and earlier payments",
                    hand,
                    seq=ev.seq,
                    recorded=_fmt(ev.scores_before[:players]),
                    computed=_fmt(scores[:players]),
                )
            if isinstance(ev, RecordedWin):
                computed = self._audit_win(
                    hand, ev, rr, row, sticks, not first_winner_done, score_win
                )
                if not first_winner_done:
                    self._check_ba(hand, ev, sticks)
                first_winner_done = True
                winners.append(ev.seat)
            else:
                draw_kind = ev.kind
                computed, dealer_tenpai = self._audit_draw(
                    hand, ev, rr, row, sticks, exhaustive_draw_deltas, nagashi_deltas
                )
                self._check_ba(hand, ev, sticks)
            if computed is None and ev.deltas:
                # Nothing could be computed (the hand is already flagged): the
                # chain goes on with what the log paid, so the next hand is not
                # reported a second time for the same problem.
                computed = tuple(ev.deltas)
            if computed is not None:
                for s in range(players):
                    scores[s] += computed[s]
            row["n_findings"] = len(self.findings) - n_before
            row["status"] = "mismatch" if row["n_findings"] else "ok"
            self.hand_rows.append(row)
        sticks_after = 0 if winners else sticks
        outcome: _Outcome = {
            "winners": tuple(winners),
            "dealer_won": hand.dealer in winners,
            "draw_kind": draw_kind,
            "dealer_tenpai": dealer_tenpai,
            "sticks": sticks_after,
        }
        return tuple(scores), sticks_after, outcome

    def _check_ba(self, hand: HandLog, ev: RecordedWin | RecordedDraw, sticks: int) -> None:
        legacy = isinstance(ev, RecordedWin) and (self.meta.date or "9") < "2007"
        if ev.honba is not None and ev.honba != hand.honba:
            self.add(
                "transition",
                "ba_honba",
                "honba in the result differs from the hand's honba",
                hand,
                seq=ev.seq,
                recorded=ev.honba,
                computed=hand.honba,
            )
        if ev.sticks is not None and not legacy and ev.sticks != sticks:
            self.add(
                "transition",
                "ba_sticks",
                "riichi sticks in the result differ from the sticks carried in plus this hand's riichi",
                hand,
                seq=ev.seq,
                recorded=ev.sticks,
                computed=sticks,
            )

    def _audit_win(
        self,
        hand: HandLog,
        ev: RecordedWin,
        rr: ResultReplay | None,
        row: dict[str, Any],
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
        value = score_win(ctx, self.rules)
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
        deltas = win_deltas(
            value,
            winner=ev.seat,
            from_seat=ev.from_seat,
            dealer=hand.dealer,
            players=players,
            honba=hand.honba,
            sticks=sticks,
            first_winner=first,
            pao_seat=ev.pao_seat,
            rules=self.rules,
        )
        row["comp_deltas"] = _fmt(tuple(deltas[:players]))
        self._compare_deltas("payment", hand, ev.seq, ev.deltas, deltas)
        return tuple(deltas)

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
        sticks: int,
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
            dealer_tenpai = dctx.tenpai[hand.dealer]
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
                computed = tuple(nagashi_deltas(dctx.nagashi, hand.dealer, players, self.rules))
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
        self, prev: HandLog, outcome: _Outcome, hand: HandLog, computed_start: tuple[int, ...]
    ) -> None:
        players = self.meta.players
        if tuple(hand.scores[:players]) != tuple(computed_start[:players]):
            self.add(
                "transition",
                "start_scores",
                "start scores differ from the previous hand's scores after its payments",
                hand,
                seq=hand.seq,
                recorded=_fmt(hand.scores[:players]),
                computed=_fmt(computed_start[:players]),
            )
        expected = _expected_next(prev, outcome, computed_start, self.rules, self.meta)
        if expected is None:
            self.add(
                "transition",
                "game_over",
                "the game should have ended before this hand",
                hand,
                seq=hand.seq,
            )
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
                    f"{name} at the start of this hand differs from what the previous hand leads to",
                    hand,
                    seq=hand.seq,
                    recorded=rec,
                    computed=comp,
                )

    def _check_game_end(
        self, last: HandLog, outcome: _Outcome, end_scores: tuple[int, ...], sticks_left: int
    ) -> None:
        from replay_audit.scoring.final import detect_era, final_points, uma_for_date

        owari = self.game.owari
        if owari is None:
            return  # an excerpt or a cut game: nothing recorded to compare
        if _expected_next(last, outcome, end_scores, self.rules, self.meta) is not None:
            self.add(
                "transition",
                "game_over",
                "the log ends here but the rules say the game goes on",
                last,
            )
        players = self.meta.players
        date = game_date(self.game)
        rules = uma_for_date(self.rules, date, self.meta.hanchan)
        era = _final_era(rules, owari, date, detect_era)
        raw, pts = final_points(end_scores[:players], sticks_left, rules, era=era)
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
            if abs(owari.points[s] - pts[s]) > 0.05:
                self.add(
                    "final",
                    "final_points",
                    f"final points differ (uma/oka, rounding {era})",
                    last,
                    seat=s,
                    recorded=owari.points[s],
                    computed=pts[s],
                )


def _scores_agree(a: Sequence[int], b: Sequence[int], players: int) -> bool:
    return tuple(a[:players]) == tuple(b[:players])


def _chain_start(
    hand: HandLog, computed: tuple[int, ...], players: int, riichi_cost: int
) -> tuple[int, ...]:
    """Where the score chain goes on after a start-score mismatch (already reported).

    If the hand's own records agree with its INIT scores (the first result's
    "before" scores equal INIT less this hand's riichi sticks), the INIT is
    trusted and our chain resyncs to it, so one wrong computation upstream is
    reported once, not in every later hand.  If they disagree, the INIT itself
    is the odd one out and the computed chain goes on.
    """
    scores = list(hand.scores)
    for ev in hand.events:
        if type(ev) is RiichiAccept:
            scores[ev.seat] -= riichi_cost
        elif isinstance(ev, RecordedWin | RecordedDraw):
            if ev.scores_before and not _scores_agree(ev.scores_before, scores, players):
                return computed
            break
    return hand.scores


ERA1_LAST_SEEN = "2021100399"
EXACT_FIRST_SEEN = "2022060100"


def _final_era(
    rules: RuleSet, owari: Owari, date: str | None, detect_era: Callable[..., Era]
) -> Era:
    """Which final-point rounding applies.  The log's date decides where it can
    (Tenhou rounded to 1000 until at least 2021-10-03 and wrote exact tenths from
    2022-06-01 at the latest, ``scoring-rules.md`` §14); only an undated log or
    one from the months between is matched against its own ``owari``, as that
    section's auditor rule says."""
    if rules.rounding != "auto":
        return rules.rounding
    if date is not None:
        stamp = date.ljust(10, "0")
        if stamp >= EXACT_FIRST_SEEN:
            return "exact"
        if stamp <= ERA1_LAST_SEEN:
            return "era1"
    return detect_era(owari, rules, date=date)


def _expected_next(
    prev: HandLog, outcome: _Outcome, scores: tuple[int, ...], rules: RuleSet, meta: GameMeta
) -> HandState | None:
    """The next hand's state per the rules, or None when the game is over."""
    from replay_audit.scoring.flow import HandOutcome, HandState, next_hand

    if rules.max_hands and prev.index + 1 >= rules.max_hands:
        return None
    state = HandState(
        round_index=prev.round_index,
        honba=prev.honba,
        sticks=outcome["sticks"],
        dealer=prev.dealer,
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
    auditor = _GameAuditor(game, used)
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
    return auditor.findings, auditor.hand_rows, used


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
        "findings": len(findings),
        "status": "mismatch" if findings else "ok",
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
    from replay_audit.io import read_bytes
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
    if strict and findings:
        first = findings[0]
        raise LogFormatError(
            first.message, source=p, log_id=first.log_id, hand=first.hand, index=first.seq
        )
    fa.games.append(_game_row(game, used, findings, hand_rows))
    fa.hands.extend(hand_rows)
    fa.findings.extend(_finding_row(f) for f in findings)
    if any(f.category == "parse" for f in findings):
        fa.status = "error"
    elif findings:
        fa.status = "mismatch"
    if with_facts:
        _add_facts(fa, game)


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
