"""One hand: its results in order, the sticks and honba, and the draws.

Owns ``_Hands``: walking a hand's results (``_audit_hand``), the sticks and honba
checks, and a draw's payments and tenpai against the log's.  The moves it passes
over are left out by the core (``_core.events_except``) where it is built; a game in
which nothing is to be reported has its hands walked by the core in one call
(``_core.audit_hands``, from ``auditing.game``), this walk being its reference.

Must not: score wins (``auditing.wins``) or decide the next hand (``auditing.chain``).
"""

from __future__ import annotations

from operator import add
from typing import TYPE_CHECKING, Any

from replay_audit.auditing.base import _fmt, _Outcome, _problems
from replay_audit.auditing.engine import engine
from replay_audit.auditing.wins import _Wins
from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    HandLog,
    NewDora,
    Reconnect,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.findings import INFO

_RESULTS = (RecordedWin, RecordedDraw)
"""A hand's results: the events ``_audit_hand`` audits (with the riichi sticks)."""

_LABELS: dict[tuple[int, int], str] = {}
"""``HandLog.label`` (``E1-0``) by the hand's recorded round and honba, the two
it is made of: every result row writes it, and formatting it again was some 3%
of the auditor's own time."""

_PASSED_OVER = (Draw, Discard, Call, RiichiDeclare, NewDora, Disconnect, Reconnect)
"""The moves ``_audit_hand`` passes over (these exact types: none is a result or a
riichi stick).  Nine events in ten are draws and discards, and a Python loop step
for each was a seventh of the auditor's own time: the core's ``events_except``
leaves them out in C, and the loop below looks at what is left, as it looks at
every event without the core."""


if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit.replay.values import HandReplay, ResultReplay
    from replay_audit.scoring.flow import HandState


class _Hands(_Wins):
    """A hand's results, sticks, honba and draws."""

    def _audit_hand(
        self,
        hand: HandLog,
        hr: HandReplay,
        at: HandState | HandLog,
        start_scores: tuple[int, ...],
    ) -> tuple[tuple[int, ...] | None, _Outcome]:
        """Audit one hand's results from its computed start (``at``: round, honba,
        sticks and dealer; ``start_scores``); return the scores after it (``None``
        when a result's payments could not be computed) and how it ended."""
        rules = self.rules
        players = self.meta.players
        scores = list(start_scores)
        logged = list(hand.scores)
        riichi = 0
        round_index = at.round_index
        honba, sticks, dealer = at.honba, at.sticks, at.dealer
        known = True
        replayed = hr.results
        n_replayed = len(replayed)
        results_by_id: dict[int, ResultReplay] | None = None
        k = 0  # the results seen so far
        first_winner_done = False
        winners: list[int] = []
        draw_kind: str | None = None
        dealer_tenpai: bool | None = None
        tenpai: tuple[bool, ...] = ()
        findings = self.findings
        meta = self.meta
        n_logged = len(logged)
        # ``hand.label``, a function of the round and honba: remembered by them
        key = (hand.round_index, hand.honba)
        label = _LABELS.get(key)
        if label is None:
            if len(_LABELS) >= 1024:
                _LABELS.clear()
            label = _LABELS[key] = hand.label
        events = hand.events
        pick = engine().events_except
        picked = pick(events, _PASSED_OVER) if pick is not None else None
        for ev in events if picked is None else picked:
            t = type(ev)
            if t is Draw or t is Discard:  # most events (where the core did not pick)
                continue
            if t is RiichiAccept:
                ra: RiichiAccept = ev  # type: ignore[assignment]  # its type is RiichiAccept
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
            if not isinstance(ev, _RESULTS):
                continue
            # the replay's results come in the hand's order: looked up by id only
            # where one is missing
            if k < n_replayed and replayed[k].result is ev:
                rr: ResultReplay | None = replayed[k]
            else:
                if results_by_id is None:
                    results_by_id = {id(r.result): r for r in replayed}
                rr = results_by_id.get(id(ev))
            k += 1
            deltas = ev.deltas
            if len(deltas) >= n_logged:
                logged = list(map(add, logged, deltas))
            else:
                for s, d in enumerate(deltas):
                    logged[s] += d
            row: dict[str, Any] = {
                "file": meta.source,
                "log_id": meta.log_id,
                "hand_index": hand.index,
                "hand": label,
                "round_index": round_index,
                "honba": honba,
                # a later winner of a multiple ron finds the table empty
                "sticks": 0 if first_winner_done else sticks,
                "dealer": dealer,
                "seq": ev.seq,
            }
            n_before = len(findings)
            before = ev.scores_before
            # (a quick look first: the scores nearly always agree)
            if known and before and list(before[:players]) != scores[:players]:
                for s in range(players):
                    if before[s] != scores[s]:
                        self.add(
                            "payment",
                            "scores_before",
                            f"seat {s}'s score before this result differs from its start score "
                            "less riichi sticks and earlier payments",
                            hand,
                            seq=ev.seq,
                            seat=s,
                            recorded=before[s],
                            computed=scores[s],
                        )
            if isinstance(ev, RecordedWin):
                computed = self._audit_win(
                    hand, ev, rr, row, dealer, honba, sticks, not first_winner_done
                )
                # a later winner of a double ron: its ``ba`` shows the hand's honba
                # and no sticks (formats.md §6.3), all 144 such tags in the corpus
                self._check_ba(
                    hand, ev, honba, 0 if first_winner_done else sticks, first_winner_done
                )
                first_winner_done = True
                winners.append(ev.seat)
            else:
                draw_kind = ev.kind
                computed, dealer_tenpai = self._audit_draw(hand, ev, rr, row, dealer)
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
            elif len(computed) >= players:
                scores[:players] = map(add, scores[:players], computed)
            else:
                for s in range(players):
                    scores[s] += computed[s]
            problems = _problems(findings[n_before:]) if len(findings) > n_before else 0
            row["n_findings"] = problems
            row["status"] = "mismatch" if problems else "ok"
            self.hand_rows.append(row)
        sticks_after = 0 if winners else sticks
        outcome: _Outcome = {
            "winners": tuple(winners),
            "dealer_won": dealer in winners,
            "draw_kind": draw_kind,
            "dealer_tenpai": dealer_tenpai,
            "sticks": sticks_after,
            "honba": honba,
            "round_index": round_index,
            "dealer": dealer,
            "riichi": riichi,
            "log_end": tuple(logged),
            "tenpai": tenpai,
        }
        return (tuple(scores) if known else None), outcome

    def _check_ba(
        self,
        hand: HandLog,
        ev: RecordedWin | RecordedDraw,
        honba: int,
        sticks: int,
        later: bool = False,
    ) -> None:
        """The result's ``ba`` (honba, sticks) against the hand's; ``later``: a double
        ron's later winner, whose ``ba`` shows the hand's honba but no sticks."""
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
                + (" (a 2006 AGARI writes none)" if legacy else "")
                + (" (a later winner of a double ron collects none)" if later else ""),
                hand,
                seq=ev.seq,
                recorded=ev.sticks,
                computed=0 if legacy else sticks,
            )

    def _audit_draw(
        self,
        hand: HandLog,
        ev: RecordedDraw,
        rr: ResultReplay | None,
        row: dict[str, Any],
        dealer: int,
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
                computed = tuple(engine().nagashi_deltas(dctx.nagashi, dealer, players, self.rules))
            else:
                computed = tuple(engine().exhaustive_draw_deltas(dctx.tenpai, players, self.rules))
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
