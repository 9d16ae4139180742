"""One win: the scorer's value and its payments against the log's.

Owns ``_Wins``: scoring the replayed ``WinContext`` (``scoring.hand``), the pao
seat, and comparing yaku, han, fu, limit, points and payments with the recorded
win.

Must not: compute a value itself (the scorer does) or touch the score chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from replay_audit.auditing.base import _flat, _fmt, _payments_cell, _yaku_cell
from replay_audit.auditing.chain import _ScoreChain
from replay_audit.auditing.engine import Engine, engine
from replay_audit.model.events import (
    HandLog,
    RecordedWin,
)
from replay_audit.model.findings import INFO

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit.replay.values import ResultReplay
    from replay_audit.scoring.context import WinContext, WinValue
    from replay_audit.scoring.flow import HandState


class _Wins(_ScoreChain):
    """A win's value and payments, computed against recorded."""

    def _audit_win(
        self,
        hand: HandLog,
        ev: RecordedWin,
        rr: ResultReplay | None,
        row: dict[str, Any],
        at: HandState,
        sticks: int,
        first: bool,
    ) -> tuple[int, ...] | None:
        eng = engine()
        players = self.meta.players
        rec_han = ev.han
        # the yaku compared as a set, and their cell text, remembered (``_yaku_cell``)
        rec_yaku = _yaku_cell(ev.yaku) if ev.yaku else None
        row["result"] = "tsumo" if ev.seat == ev.from_seat else "ron"
        row["winner"] = ev.seat
        row["from_seat"] = ev.from_seat
        row["pao_seat"] = ev.pao_seat
        row["rec_fu"] = ev.fu
        row["rec_han"] = rec_han
        row["rec_points"] = ev.points
        row["rec_limit"] = ev.limit
        row["rec_yaku"] = rec_yaku[1] if rec_yaku is not None else _flat(sorted(ev.yakuman))
        row["rec_deltas"] = _payments_cell(ev.deltas, players)
        if rr is None or rr.win is None:
            self.add(
                "replay",
                "no_context",
                "the replay could not rebuild this win",
                hand,
                seq=ev.seq,
                seat=ev.seat,
            )
            return None
        value = self._win_value(rr.win, ev, hand, eng)
        self.win_values[id(ev)] = value
        comp_yaku = _yaku_cell(value.yaku)
        row["comp_fu"] = value.fu
        row["comp_han"] = value.han
        row["comp_points"] = value.points
        row["comp_limit"] = value.limit
        row["comp_yaku"] = comp_yaku[1] if not value.yakuman else _flat(sorted(value.yakuman))
        if value.error is not None:
            self.add(
                "hand_value",
                "win",
                f"the recorded win is not a legal win here ({value.error})",
                hand,
                recorded=ev.points,
                computed=value.error,
                seq=ev.seq,
                seat=ev.seat,
            )
            return None
        checks: tuple[tuple[str, object, object], ...]
        if ev.yakuman or value.yakuman:
            # the fu Tenhou writes on a yakuman is meaningless: not compared
            checks = (
                ("points", ev.points, value.points),
                ("limit", ev.limit, value.limit),
                ("yakuman", tuple(sorted(ev.yakuman)), tuple(sorted(value.yakuman))),
            )
        else:
            checks = (
                ("points", ev.points, value.points),
                ("limit", ev.limit, value.limit),
                ("han", rec_han, value.han),
                ("yaku", rec_yaku[0] if rec_yaku is not None else (), comp_yaku[0]),
                ("fu", ev.fu, value.fu),
            )
        for name, rec, comp in checks:
            if rec is not None and rec != comp:
                self.add(
                    "hand_value",
                    name,
                    f"recorded {name} differs from the value computed from the hand",
                    hand,
                    recorded=_fmt(rec),
                    computed=_fmt(comp),
                    seq=ev.seq,
                    seat=ev.seat,
                )
        liable = self._pao_seat(ev, rr, value) if rr.pao else None
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
                seq=ev.seq,
                seat=ev.seat,
            )
        deltas = eng.win_deltas(
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
        row["comp_deltas"] = _payments_cell(deltas, players)
        if ev.deltas[:players] != deltas[:players]:  # else no seat differs
            self._compare_deltas("payment", hand, ev.seq, ev.deltas, deltas)
        return tuple(deltas)

    def _win_value(
        self,
        ctx: WinContext,
        ev: RecordedWin,
        hand: HandLog,
        eng: Engine,
    ) -> WinValue:
        """The win under the rules of the log's date; where its dates leave a
        scoring rule open (the red fives), the reading the log follows, in a note."""
        value, notes = eng.read_win(self.era, self.rules, ctx, ev, eng.score_win)
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
