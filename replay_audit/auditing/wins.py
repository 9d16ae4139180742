"""One win: the scorer's value and its payments against the log's.

Owns ``_Wins``: scoring the replayed ``WinContext`` (``scoring.hand``), the pao
seat, and comparing yaku, han, fu, limit, points and payments with the recorded
win.  A win whose every cell agrees with its value is filled by the core in one
call (``_core.win_row``); this module's Python is its reference and audits the rest.

Must not: compute a value itself (the scorer does) or touch the score chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from replay_audit.auditing.base import (
    _PAYMENT_CELLS,
    _YAKU_CELLS,
    YakuCell,
    _flat,
    _fmt,
    _payments_cell,
    _yaku_cell,
)
from replay_audit.auditing.chain import _ScoreChain
from replay_audit.auditing.engine import Engine, engine
from replay_audit.model.events import (
    HandLog,
    RecordedWin,
)
from replay_audit.model.findings import INFO

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit import _core
    from replay_audit.replay.values import ResultReplay
    from replay_audit.scoring.context import WinContext, WinValue


class _Wins(_ScoreChain):
    """A win's value and payments, computed against recorded."""

    def _audit_win(
        self,
        hand: HandLog,
        ev: RecordedWin,
        rr: ResultReplay | None,
        row: dict[str, Any],
        dealer: int,
        honba: int,
        sticks: int,
        first: bool,
    ) -> tuple[int, ...] | None:
        """Score the win (``rr.win``) and compare it with the recorded one, filling
        its ``hands`` row; return its payments (``None`` where none were computed).
        ``dealer``, ``honba`` and ``sticks`` are the hand's as computed."""
        eng = engine()
        players = self.meta.players
        # the common case in one call to the core: a win whose every cell agrees
        # with its value, with no pao and no other reading of the rules to weigh
        # (``_core.win_row``: this method is its reference, and audits the rest)
        if (
            rr is not None
            and rr.win is not None
            and not rr.pao
            and eng.win_row is not None
            and not self.era.alternatives
            and type(honba) is int
            and type(sticks) is int
        ):
            held = self._core_rules
            core_rules = held[1] if held is not None and held[0] is self.rules else None
            if core_rules is None:
                core_rules = self._core_rules_of(eng)
            if core_rules is not None:
                got = eng.win_row(
                    row, ev, rr.win, core_rules, dealer, players, honba, sticks, first
                )
                if got is not None:
                    self.win_values[id(ev)] = got[0]
                    return got[1]
        # the yaku compared as a set, their cell text and han, remembered (``_yaku_cell``)
        yaku = ev.yaku
        if yaku:
            try:  # ``_yaku_cell``, its dictionary asked here first
                rec_yaku: YakuCell | None = _YAKU_CELLS[yaku]
            except (KeyError, TypeError):
                rec_yaku = _yaku_cell(yaku)
        else:
            rec_yaku = None
        yakuman = ev.yakuman
        # ``ev.han``: 13 a yakuman, else the yaku's han, ``None`` with no yaku
        rec_han = 13 * len(yakuman) if yakuman else rec_yaku[2] if rec_yaku is not None else None
        seat = ev.seat
        from_seat = ev.from_seat
        rec_deltas = ev.deltas
        row["result"] = "tsumo" if seat == from_seat else "ron"
        row["winner"] = seat
        row["from_seat"] = from_seat
        row["pao_seat"] = ev.pao_seat
        row["rec_fu"] = ev.fu
        row["rec_han"] = rec_han
        row["rec_points"] = ev.points
        row["rec_limit"] = ev.limit
        row["rec_yaku"] = rec_yaku[1] if rec_yaku is not None else _flat(sorted(yakuman))
        try:  # ``_payments_cell``, its dictionary asked here first
            row["rec_deltas"] = _PAYMENT_CELLS[rec_deltas, players]
        except (KeyError, TypeError):
            row["rec_deltas"] = _payments_cell(rec_deltas, players)
        if rr is None or rr.win is None:
            self.add(
                "replay",
                "no_context",
                "the replay could not rebuild this win",
                hand,
                seq=ev.seq,
                seat=seat,
            )
            return None
        value = self._win_value(rr.win, ev, hand, eng)
        self.win_values[id(ev)] = value
        try:
            comp_yaku = _YAKU_CELLS[value.yaku]
        except (KeyError, TypeError):
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
                seat=seat,
            )
            return None
        rec_set = rec_yaku[0] if rec_yaku is not None else ()
        comp_yakuman = value.yakuman
        if not yakuman and not comp_yakuman:
            # the common case, every value as computed: no check to list
            fu, points, limit = ev.fu, ev.points, ev.limit
            if (
                (points is None or points == value.points)
                and (limit is None or limit == value.limit)
                and (rec_han is None or rec_han == value.han)
                and rec_set == comp_yaku[0]
                and (fu is None or fu == value.fu)
            ):
                checks: tuple[tuple[str, object, object], ...] = ()
            else:
                checks = (
                    ("points", points, value.points),
                    ("limit", limit, value.limit),
                    ("han", rec_han, value.han),
                    ("yaku", rec_set, comp_yaku[0]),
                    ("fu", fu, value.fu),
                )
        else:
            # the fu Tenhou writes on a yakuman is meaningless: not compared
            checks = (
                ("points", ev.points, value.points),
                ("limit", ev.limit, value.limit),
                ("yakuman", tuple(sorted(yakuman)), tuple(sorted(comp_yakuman))),
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
                    seat=seat,
                )
        liable = self._pao_seat(ev, rr, value) if rr.pao else None
        row["comp_pao_seat"] = liable
        recorded_pao = ev.pao_seat if ev.pao_seat != seat else None
        if recorded_pao != liable:
            self.add(
                "payment",
                "pao_seat",
                "the liable (pao) seat differs from the one the calls make liable",
                hand,
                recorded=recorded_pao,
                computed=liable,
                seq=ev.seq,
                seat=seat,
            )
        deltas = eng.win_deltas(
            value,
            winner=seat,
            from_seat=from_seat,
            dealer=dealer,
            players=players,
            honba=honba,
            sticks=sticks,
            first_winner=first,
            pao_seat=liable,
            rules=self.rules,
        )
        try:
            row["comp_deltas"] = _PAYMENT_CELLS[deltas, players]
        except (KeyError, TypeError):
            row["comp_deltas"] = _payments_cell(deltas, players)
        if rec_deltas[:players] != deltas[:players]:  # else no seat differs
            self._compare_deltas("payment", hand, ev.seq, rec_deltas, deltas)
        return deltas if type(deltas) is tuple else tuple(deltas)

    def _core_rules_of(self, eng: Engine) -> _core.ScoreRules | None:
        """The core's form of the rules (``scoring.core.core_rules``), asked once
        per rule set of the game (the lobby's reading may replace them)."""
        rules = self.rules
        held = self._core_rules
        if held is None or held[0] is not rules:
            held = self._core_rules = (rules, eng.core_rules(rules))
        core_rules: _core.ScoreRules | None = held[1]
        return core_rules

    def _win_value(
        self,
        ctx: WinContext,
        ev: RecordedWin,
        hand: HandLog,
        eng: Engine,
    ) -> WinValue:
        """The win under the rules of the log's date; where its dates leave a
        scoring rule open (the red fives), the reading the log follows, in a note."""
        if not self.era.alternatives:  # every log after 2006: ``read_win`` reads no other
            return eng.score_win(ctx, self.rules)
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
