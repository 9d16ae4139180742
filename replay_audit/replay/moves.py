"""Draws, discards and new dora indicators: the plain moves of a hand.

Owns ``_Moves``, the table's room for the live wall (every draw checked against
the rebuilt wall), the rivers, nagashi and the kan-dora timing.

``_moves`` is the reference for draws and discards.  The compiled core
(``_core.play_moves``, ``src/core/replay.cpp``) plays their common case: in turn,
held, seen once, as the wall has it (a replacement draw after a kan from the wall's
rinshan tiles), no kan dora due; inside a run it
also plays the REACH steps that find nothing (``replay.riichi``'s
``_riichi_declare`` and ``_riichi_accept`` are their reference) and the riichi
discard that leaves a wait, and the chi and pon of the discard just made that find
nothing and make no pao (``replay.calls``' ``_open_call`` is their reference).  It
stops before anything else, which ``_moves`` and the table then play (the table's
``run`` calls it on each run of draws and discards).  The core's hand loop
(``_core.run_hand``) shows the kan dora indicators that ``_new_dora``, their reference,
would find nothing in.  ``tests/test_core_replay.py`` holds the two equal over the shared corpus and damaged
games.  JSON logs (no copy numbers) and installs without the core use ``_moves``
alone; so does a replay with ``CORE_MOVES`` set to ``None``.

Must not: handle calls, riichi or results in Python (the core's share of them is
held equal to ``replay.calls`` and ``replay.riichi``).
"""

from __future__ import annotations

from replay_audit.model.events import (
    Discard,
    Draw,
    NewDora,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.tiles import counts34
from replay_audit.native import _core
from replay_audit.replay.state import _OFFER_DISCARD, _TH_MASK, _TableState
from replay_audit.replay.waits import wait_mask

CORE_MOVES = getattr(_core, "play_moves", None) if _core is not None else None
"""The core's ``play_moves`` (None: a stale build, no core, or switched off by a test)."""
_CHI, _PON = MeldKind.CHI, MeldKind.PON


def kuikae_mask(m: Meld) -> int:
    """The kinds (a bit each) a seat may not discard right after calling ``m``, a chi
    or pon, where kuikae is forbidden (``RuleSet.kuikae``): the called tile's kind,
    and for a chi called at one end of its run the kind past the other end (4m called
    with 5m6m forbids 7m: suji kuikae).  No discard of the corpus's 56,861 calls'
    seats is one of them."""
    k = (m.called or 0) >> 2
    mask = 1 << k
    if m.kind is _CHI:
        lo = m.tiles[0] >> 2  # (the run's kinds ascend with its tile ids)
        if k == lo and lo % 9 < 6:
            mask |= 1 << (lo + 3)
        elif k == lo + 2 and lo % 9 > 0:
            mask |= 1 << (lo - 1)
    return mask


class _Moves(_TableState):
    """Draws, discards and dora indicators, checked as they come."""

    __slots__ = ()

    def _moves(self, events: tuple[object, ...], i: int, end: int = -1) -> int:
        """Play the run of draws and discards that starts at ``events[i]`` (up to
        ``events[end]`` if given); return the index of the first event not played.

        The hot path (two thirds of all events): one call per run rather than per
        event, the state the run changes held in locals and written back once at
        its end (nothing the run calls reads them), the rare cases (findings,
        rinshan, riichi, kan dora) branching off inline.
        """
        n_ev = len(events) if end < 0 else end
        n = self.n
        json = self.json
        wall = self.wall
        wall_live = wall.live if wall is not None else ()
        wall_rinshan = wall.rinshan if wall is not None else ()
        concealed = self.concealed
        last_draw = self.last_draw
        riichi_flags = self.riichi
        discards = self.discards
        disc_mask = self.disc_mask
        nagashi = self.nagashi
        last_disc_pos = self.last_disc_pos
        offer_seats = self.offer_seats
        kinds = self.offer_kinds
        discarded = self.discarded
        to_draw = self.to_draw
        to_act = self.to_act
        after_call = self.after_call
        live = self.live
        rinshan_due = self.rinshan_due
        live_drawn = self.live_drawn
        wall_ok = wall is not None and self.wall_ok
        drawn_rinshan = self.drawn_rinshan
        last_offer = self.last_offer
        last_tile = -1
        last_seat = -1
        while i < n_ev:
            ev = events[i]
            t = type(ev)
            if t is Draw:
                s = ev.seat  # type: ignore[attr-defined]  # t is Draw
                tile = ev.tile  # type: ignore[attr-defined]  # t is Draw
                seq = ev.seq  # type: ignore[attr-defined]  # t is Draw
                if s != to_draw:
                    self._find(
                        "draw_out_of_turn", f"seat {s} draws, seat {to_draw} is next", seq, s
                    )
                rinshan = rinshan_due == s
                rinshan_due = -1
                if rinshan:
                    self.ippatsu_before_kakan = None
                    if self.rinshan_from_live:
                        live -= 1
                else:
                    if live <= 0:
                        self._find("draw_empty_wall", "draw from an empty live wall", seq, s)
                    live -= 1
                if not json and self._met(tile):
                    self._find("tile_duplicate", f"tile {tile} appears twice", seq, None)
                if rinshan:
                    if len(self.indicators) < self.dora_due:  # an ankan's (or a chip room's)
                        self._find(
                            "dora_timing",
                            "kan dora not revealed before the replacement draw",
                            seq,
                            s,
                            recorded=len(self.indicators),
                            computed=self.dora_due,
                        )
                    j = self.rinshan_drawn
                    self.rinshan_drawn = j + 1
                    if wall_ok:
                        expect = wall_rinshan[j] if j < len(wall_rinshan) else -1
                        if tile != expect:
                            wall_ok = False
                            self._wall_mismatch(seq, s, tile, expect)
                else:
                    j = live_drawn
                    live_drawn = j + 1
                    if wall_ok:
                        expect = wall_live[j] if j < len(wall_live) else -1
                        if tile != expect:
                            wall_ok = False
                            self._wall_mismatch(seq, s, tile, expect)
                concealed[s].append(tile)
                last_draw[s] = tile
                drawn_rinshan = rinshan
                to_draw = -1
                to_act = s
                after_call = False
                last_offer = None
                last_seat = -1
            elif t is Discard:
                s = ev.seat  # type: ignore[attr-defined]  # t is Discard
                tile = ev.tile  # type: ignore[attr-defined]  # t is Discard
                seq = ev.seq  # type: ignore[attr-defined]  # t is Discard
                riichi = riichi_flags[s]
                if s != to_act:
                    self._find("discard_out_of_turn", f"seat {s} discards out of turn", seq, s)
                if riichi and (after_call or tile != last_draw[s]):
                    self._find(
                        "riichi_hand_changed",
                        "after riichi only the drawn tile may be discarded",
                        seq,
                        s,
                        computed=last_draw[s],
                        recorded=tile,
                    )
                if (
                    after_call
                    and s == to_act
                    and not self.rules.kuikae
                    and self.melds[s]  # (the call's own: the seat to act made it)
                    and kuikae_mask(self.melds[s][-1]) >> (tile >> 2) & 1
                ):
                    self._find(
                        "kuikae",
                        "right after a chi or pon, a discard of a kind the call forbids (kuikae)",
                        seq,
                        s,
                        recorded=tile,
                    )
                try:
                    concealed[s].remove(tile)
                except ValueError:
                    if not self._take(s, tile):
                        self._find("discard_not_held", f"tile {tile} is not in the hand", seq, s)
                k = tile >> 2
                if self.riichi_declared == s:
                    if not wait_mask(counts34(concealed[s])):
                        self._find("riichi_not_tenpai", "the riichi discard leaves no wait", seq, s)
                    self.riichi_pos[s] = len(kinds)
                    self.riichi_double[s] = self.uninterrupted and not discarded[s]
                if riichi:
                    self.ippatsu[s] = False
                if self.dora_pending:
                    self._reveal_pending()
                if len(self.indicators) != self.dora_due:
                    self._discard_dora(seq, s)
                discards[s].append(tile)
                disc_mask[s] |= 1 << k
                if not _TH_MASK >> k & 1:
                    nagashi[s] = False
                last_disc_pos[s] = len(kinds)
                offer_seats.append(s)
                kinds.append(k)
                last_seat = s
                last_tile = tile
                discarded[s] = True
                to_act = -1
                after_call = False
                to_draw = (s + 1) % n
            else:
                break
            i += 1
        if last_seat >= 0:  # the run ended on a discard: that is the offer
            last_offer = (last_seat, last_tile, _OFFER_DISCARD)
        self.to_draw = to_draw
        self.to_act = to_act
        self.after_call = after_call
        self.live = live
        self.rinshan_due = rinshan_due
        self.live_drawn = live_drawn
        if wall is not None:
            self.wall_ok = wall_ok
        self.drawn_rinshan = drawn_rinshan
        self.last_offer = last_offer
        return i

    def _wall_mismatch(self, seq: int, seat: int, tile: int, expect: int) -> None:
        self.wall_ok = False
        self._find(
            "wall",
            "the drawn tile differs from the wall rebuilt from the seed",
            seq,
            seat,
            recorded=tile,
            computed=expect,
        )

    def _discard_dora(self, seq: int, seat: int) -> None:
        """A discard closes the kan-dora window: what is due must be shown."""
        if len(self.indicators) < self.dora_due:
            self._find(
                "dora_timing",
                "kan dora not revealed before the discard",
                seq,
                seat,
                recorded=len(self.indicators),
                computed=self.dora_due,
            )
        self.dora_due = len(self.indicators)

    def _new_dora(self, ev: NewDora) -> None:
        # (the reference of the core's hand loop for an indicator it finds nothing in)
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
