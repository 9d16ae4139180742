"""Calls: chi, pon, the three kans and kita.

Owns ``_Calls``: who may call what and when, the tiles taken from the hand, the
kan count and its dora, pao (liability) by completed sets, and kita.  Inside a run
of draws and discards the compiled core plays the chi and pon that find nothing
and make no pao (``replay.moves``); its hand loop (``_core.run_hand``,
``src/core/replay_hand.cpp``) plays the other chi, pon and daiminkan that find nothing,
their pao with them, and the ankan and kakan that find nothing.  ``_open_call``,
``_liability``, ``_ankan`` and ``_kakan`` are their reference
(``tests/test_core_replay_rooms.py``), and play every call the core leaves to them.

Must not: decide a result or read a recorded one.
"""

from __future__ import annotations

from replay_audit.model.events import (
    Call,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.tiles import counts34
from replay_audit.replay.compare import _meld_shape_ok, _same_tile, _sets_of
from replay_audit.replay.riichi import _Riichi
from replay_audit.replay.state import (
    _KAN_KINDS,
    _KITA_KINDS,
    _OFFER_ANKAN,
    _OFFER_DISCARD,
    _OFFER_KAKAN,
    _OFFER_KITA,
    _PAO_KINDS,
    _PAO_SETS,
    _SUUKANTSU,
)
from replay_audit.replay.waits import _waits
from replay_audit.scoring.hand import GARI_KINDS

_CHI, _PON, _DAIMINKAN = MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN
_ANKAN, _KAKAN = MeldKind.ANKAN, MeldKind.KAKAN
"""The meld kinds as module constants: reading ``MeldKind.CHI`` goes through the enum
class (~50 ns, measured), ten times a global's cost, and calls test kinds often."""


class _Calls(_Riichi):
    """Chi, pon, kans and kita: legality, tiles, kan dora and pao."""

    __slots__ = ()

    def _call(self, ev: Call) -> None:
        m = ev.meld
        kind = m.kind
        if kind is _CHI or kind is _PON or kind is _DAIMINKAN:
            self._open_call(ev, m)
        elif kind is _ANKAN:
            self._ankan(ev, m)
        elif kind is _KAKAN:
            self._kakan(ev, m)
        else:
            self._kita(ev, m)

    def _own_turn(self, ev: Call) -> bool:
        s = ev.seat
        if s != self.to_act or self.after_call:
            self._find("call_out_of_turn", f"{ev.meld.kind} outside seat {s}'s turn", ev.seq, s)
            return False
        return True

    def _open_call(self, ev: Call, m: Meld) -> None:
        # One call in five events: the meld's fields are read once into locals,
        # and the rare checks (pao, ippatsu) are entered only when they can apply.
        s = ev.seat
        kind = m.kind
        tiles = m.tiles
        called = m.called
        frm = m.from_seat
        json = self.json
        lo = self.last_offer
        if (
            lo is None
            or lo[2] != _OFFER_DISCARD
            or lo[0] != frm
            or lo[0] == s
            or (lo[1] != called if not json else not _same_tile(lo[1], called))
        ):
            self._find(
                "call_not_last_discard",
                f"{kind} of a tile that was not just discarded",
                ev.seq,
                s,
                recorded=called,
                computed=lo[1] if lo else None,
            )
        if kind is _CHI:
            if not self.rules.chi:
                self._find("chi_not_allowed", "chi in a game without chi", ev.seq, s)
            elif frm != (s - 1) % self.n:
                self._find("chi_not_left", "chi from someone other than the left player", ev.seq, s)
        if self.riichi[s] or self.riichi_declared == s:
            self._find("call_after_riichi", f"{kind} after riichi", ev.seq, s)
        if not _meld_shape_ok(m):
            self._find("call_not_held", f"{kind} tiles do not form the meld", ev.seq, s)
        called_seen = False
        for t in tiles:
            if not called_seen and (t == called or (json and _same_tile(t, called))):
                called_seen = True
                continue
            if not self._take(s, t):
                self._find("call_not_held", f"{kind}: tile {t} is not in the hand", ev.seq, s)
        if frm is not None and 0 <= frm < len(self.nagashi):
            self.nagashi[frm] = False
        self.melds[s].append(m)
        if (
            kind is not _CHI
            and frm is not None
            and (kind is _DAIMINKAN or (tiles and tiles[0] >> 2 in _PAO_KINDS))
        ):
            self._liability(s, m)
        self.uninterrupted = False
        self._break_ippatsu()
        self.last_offer = None
        self.to_draw = -1
        if kind is _DAIMINKAN:
            self._kan_declared(ev, s)
            self._open_kan_dora()
            self.to_act = -1
            self.to_draw = s
            self.rinshan_due = s
        else:
            self.to_act = s
            self.after_call = True

    def _liability(self, s: int, m: Meld) -> None:
        """Pao: a pon or daiminkan that completes the seat's third dragon set,
        fourth wind set, or (daiminkan) fourth kan makes the discarder liable.
        Sets already declared count whatever their kind (an ankan of one dragon
        and pons of the other two: the last pon completes the three)."""
        k = m.tiles[0] >> 2 if m.tiles else -1
        melds = self.melds[s]
        liable = m.from_seat if m.from_seat is not None else -1
        for kinds, needed, yakuman in _PAO_SETS:
            if k in kinds and _sets_of(melds, kinds) == needed:
                self.pao[s].append((yakuman, liable))
        if m.kind is _DAIMINKAN and sum(1 for x in melds if x.kind in _KAN_KINDS) == 4:
            self.pao[s].append((_SUUKANTSU, liable))

    def _kan_declared(self, ev: Call, s: int) -> None:
        if self.live <= 0:
            self._find("kan_empty_wall", "kan with no live tile left", ev.seq, s)
        self.kans += 1
        self.kan_seats |= 1 << s
        if self.kans > 4:
            self._find("fifth_kan", "a fifth kan", ev.seq, s)
        self._reveal_pending()

    def _open_kan_dora(self) -> None:
        """Daiminkan/kakan: Tenhou shows the dora after the replacement draw (at
        once in chip rooms)."""
        if self.kan_dora_now:
            self.dora_due += 1
        else:
            self.dora_pending += 1

    def _ankan(self, ev: Call, m: Meld) -> None:
        s = ev.seat
        self._own_turn(ev)
        tiles = m.tiles
        k = tiles[0] >> 2 if tiles else -1
        # four of kind k: the lowest and highest tile are (``>> 2`` keeps the order)
        if len(tiles) != 4 or min(tiles) >> 2 != k or max(tiles) >> 2 != k:
            self._find("call_not_held", "ankan tiles are not four of a kind", ev.seq, s)
        if self.riichi[s]:
            self._check_riichi_ankan(ev, s, k)
        elif self.riichi_declared == s:
            self._find("call_after_riichi", "ankan between riichi and its discard", ev.seq, s)
        for t in tiles:
            if not self._take(s, t):
                self._find("call_not_held", f"ankan: tile {t} is not in the hand", ev.seq, s)
        self.melds[s].append(m)
        self._kan_declared(ev, s)
        self.dora_due += 1
        self.uninterrupted = False
        self._break_ippatsu()
        self.last_offer = (s, tiles[0] if tiles else -1, _OFFER_ANKAN)
        self.to_act = -1
        self.to_draw = s
        self.rinshan_due = s

    def _check_riichi_ankan(self, ev: Call, s: int, k: int) -> None:
        """Tenhou allows an ankan in riichi only of the drawn tile's kind and only
        when it leaves the waits unchanged."""
        hand = self.concealed[s]
        drawn = self.last_draw[s]
        ok = not self.after_call and drawn >= 0 and drawn >> 2 == k
        if ok:
            before = counts34(hand)
            before[drawn >> 2] -= 1
            after = counts34(hand)
            after[k] = max(0, after[k] - 4)
            ok = bool(_waits(before)) and _waits(before) == _waits(after)
        if not ok:
            self._find("call_after_riichi", "ankan in riichi that changes the hand", ev.seq, s)

    def _kakan(self, ev: Call, m: Meld) -> None:
        s = ev.seat
        self._own_turn(ev)
        if self.riichi[s] or self.riichi_declared == s:
            self._find("call_after_riichi", "kakan after riichi", ev.seq, s)
        k = m.tiles[0] >> 2 if m.tiles else -1
        melds = self.melds[s]
        for i, old in enumerate(melds):
            if old.kind is _PON and old.tiles and old.tiles[0] >> 2 == k:
                melds[i] = m
                # its code is the pon's with the kan bit: the same discarder and called
                # tile (every one of the corpus's 921 kakan)
                if (m.from_seat, m.called) != (old.from_seat, old.called):
                    self._find(
                        "kakan_not_its_pon",
                        "kakan: its code names another discarder or called tile than the "
                        "pon it extends",
                        ev.seq,
                        s,
                        recorded=(m.from_seat, m.called),
                        computed=(old.from_seat, old.called),
                    )
                break
        else:
            self._find("call_not_held", "kakan without a pon of that kind", ev.seq, s)
            melds.append(m)
        added = m.added if m.added is not None else -1
        if not self._take(s, added):
            self._find("call_not_held", f"kakan: tile {added} is not in the hand", ev.seq, s)
        self._kan_declared(ev, s)
        self._open_kan_dora()
        self.uninterrupted = False
        # Robbing this kan (chankan) keeps the robber's ippatsu on Tenhou: the kan
        # never happened.  The flags are kept until the replacement draw completes it.
        self.ippatsu_before_kakan = list(self.ippatsu)
        self._break_ippatsu()
        self.offer_seats.append(s)
        self.offer_kinds.append(added >> 2)
        self.last_offer = (s, added, _OFFER_KAKAN)
        self.to_act = -1
        self.to_draw = s
        self.rinshan_due = s

    def _kita(self, ev: Call, m: Meld) -> None:
        s = ev.seat
        self._own_turn(ev)
        tile = m.tiles[0] if m.tiles else -1
        allowed = GARI_KINDS if self.rules.scoring == "toutenkou" else _KITA_KINDS
        if not self.rules.nukidora or tile >> 2 not in allowed:
            self._find("kita_not_allowed", "kita without nukidora or of a non-North", ev.seq, s)
        if self.riichi[s] and tile != self.last_draw[s]:
            self._find(
                "riichi_hand_changed",
                "after riichi only a just-drawn North can be set aside",
                ev.seq,
                s,
                computed=self.last_draw[s],
                recorded=tile,
            )
        if not self._take(s, tile):
            self._find("call_not_held", f"kita: tile {tile} is not in the hand", ev.seq, s)
        if self.live <= 0:
            self._find("kan_empty_wall", "kita with no live tile left", ev.seq, s)
        self.melds[s].append(m)
        # A kita always ends the first uninterrupted go-around (double riichi,
        # tenhou/chiihou, kyuushu); whether it ends ippatsu is a rule
        # (``scoring-rules.md`` §13: on Tenhou it does).
        self.uninterrupted = False
        if self.rules.kita_breaks_ippatsu:
            self._break_ippatsu()
        self.offer_seats.append(s)
        self.offer_kinds.append(tile >> 2)
        self.last_offer = (s, tile, _OFFER_KITA)
        self.to_act = -1
        self.to_draw = s
        self.rinshan_due = s
