"""Draws, discards and new dora indicators: the plain moves of a hand.

Owns ``_Moves``, the table's room for the live wall (every draw checked against
the rebuilt wall), the rivers, nagashi and the kan-dora timing.

Must not: handle calls, riichi or results.
"""

from __future__ import annotations

from replay_audit.model.events import (
    Discard,
    Draw,
    NewDora,
)
from replay_audit.model.tiles import counts34
from replay_audit.replay.state import _OFFER_DISCARD, _TH_MASK, _TableState
from replay_audit.replay.waits import _has_wait


class _Moves(_TableState):
    """Draws, discards and dora indicators, checked as they come."""

    __slots__ = ()

    def _draw(self, ev: Draw) -> None:
        # Hot path (a third of all events): every state field is read once and
        # the rare cases (findings, rinshan) branch off.
        s = ev.seat
        tile = ev.tile
        if s != self.to_draw:
            self._find(
                "draw_out_of_turn", f"seat {s} draws, seat {self.to_draw} is next", ev.seq, s
            )
        rinshan = self.rinshan_due == s
        if rinshan:
            self.rinshan_due = -1
            self.ippatsu_before_kakan = None
            if self.rinshan_from_live:
                self.live -= 1
        else:
            if self.live <= 0:
                self._find("draw_empty_wall", "draw from an empty live wall", ev.seq, s)
            self.live -= 1
            self.rinshan_due = -1
        if not self.json:
            seen = self.seen
            if tile in seen:
                self._find("tile_duplicate", f"tile {tile} appears twice", ev.seq, None)
            seen.add(tile)
        wall = self.wall
        if rinshan:
            i = self.rinshan_drawn
            self.rinshan_drawn = i + 1
            if wall is not None and self.wall_ok:
                expect = wall.rinshan[i] if i < len(wall.rinshan) else -1
                if tile != expect:
                    self._wall_mismatch(ev, expect)
        else:
            i = self.live_drawn
            self.live_drawn = i + 1
            if wall is not None and self.wall_ok:
                expect = wall.live[i] if i < len(wall.live) else -1
                if tile != expect:
                    self._wall_mismatch(ev, expect)
        self.concealed[s].append(tile)
        self.last_draw[s] = tile
        self.drawn_rinshan = rinshan
        self.to_draw = -1
        self.to_act = s
        self.after_call = False
        self.last_offer = None

    def _wall_mismatch(self, ev: Draw, expect: int) -> None:
        self.wall_ok = False
        self._find(
            "wall",
            "the drawn tile differs from the wall rebuilt from the seed",
            ev.seq,
            ev.seat,
            recorded=ev.tile,
            computed=expect,
        )

    def _discard(self, ev: Discard) -> None:
        # Hot path (a third of all events), like ``_draw``.
        s = ev.seat
        tile = ev.tile
        riichi = self.riichi[s]
        if s != self.to_act:
            self._find("discard_out_of_turn", f"seat {s} discards out of turn", ev.seq, s)
        if riichi and (self.after_call or tile != self.last_draw[s]):
            self._find(
                "riichi_hand_changed",
                "after riichi only the drawn tile may be discarded",
                ev.seq,
                s,
                computed=self.last_draw[s],
                recorded=tile,
            )
        try:
            self.concealed[s].remove(tile)
        except ValueError:
            if not self._take(s, tile):
                self._find("discard_not_held", f"tile {tile} is not in the hand", ev.seq, s)
        k = tile >> 2
        kinds = self.offer_kinds
        if self.riichi_declared == s:
            if not _has_wait(counts34(self.concealed[s])):
                self._find("riichi_not_tenpai", "the riichi discard leaves no wait", ev.seq, s)
            self.riichi_pos[s] = len(kinds)
            self.riichi_double[s] = self.uninterrupted and not self.discarded[s]
        if riichi:
            self.ippatsu[s] = False
        if self.dora_pending:
            self._reveal_pending()
        if len(self.indicators) != self.dora_due:
            self._discard_dora(ev)
        self.discards[s].append(tile)
        self.disc_mask[s] |= 1 << k
        if not _TH_MASK >> k & 1:
            self.nagashi[s] = False
        self.last_disc_pos[s] = len(kinds)
        self.offer_seats.append(s)
        kinds.append(k)
        self.last_offer = (s, tile, _OFFER_DISCARD)
        self.discarded[s] = True
        self.to_act = -1
        self.after_call = False
        self.to_draw = (s + 1) % self.n

    def _discard_dora(self, ev: Discard) -> None:
        """A discard closes the kan-dora window: what is due must be shown."""
        if len(self.indicators) < self.dora_due:
            self._find(
                "dora_timing",
                "kan dora not revealed before the discard",
                ev.seq,
                ev.seat,
                recorded=len(self.indicators),
                computed=self.dora_due,
            )
        self.dora_due = len(self.indicators)

    def _new_dora(self, ev: NewDora) -> None:
        self._see(ev.indicator, ev.seq)
        self.indicators.append(ev.indicator)
        if len(self.indicators) <= self.dora_due:
            return
        # Tenhou shows a daiminkan/kakan dora after the replacement draw.
        if self.dora_pending and self.rinshan_due < 0 and self.to_act >= 0:
            self.dora_pending -= 1
            self.dora_due += 1
            return
        self._find("dora_timing", "a new dora indicator with no kan due", ev.seq, None)
