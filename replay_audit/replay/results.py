"""Results: a win or a draw, as the moves imply it.

Owns ``_Results``: the ``WinContext`` of each win (how it was won, situational
yaku, dora and ura, pao) checked against the shown hand, and the ``DrawContext``
of each draw (tenpai seats, nagashi, whether an abortive draw's condition held).
For a win in an XML log the compiled core (``_core.win_checks``) first says whether
the win's checks (complete, furiten, the shown hand, melds, winning tile, dora and
ura) find nothing; only then are they skipped, so ``_check_furiten``, the
completeness test and ``_check_win`` stay the reference, held equal to it by
``tests/test_core_replay.py`` and ``tests/test_core_replay_wins.py``.  The core's hand
loop also makes the draws whose ``_draw_result`` would find nothing (an exhaustive
draw with no live tile left and the tenpai seats' hands shown; an abortive draw but a
triple ron, whose condition ``_abort_ok`` tells); ``_draw_result`` is their reference
(``tests/test_core_replay_rooms.py``).

Must not: take a recorded value into a context (who won, from whom and the pao
seat are moves; the rest of a recorded result is only compared).
"""

from __future__ import annotations

from itertools import compress

from replay_audit.model.events import (
    RecordedDraw,
    RecordedWin,
)
from replay_audit.model.meld import Meld
from replay_audit.model.tiles import to_notation
from replay_audit.native import _core
from replay_audit.replay import values
from replay_audit.replay.calls import _Calls
from replay_audit.replay.compare import _json_key, _meld_text, _melds_key, _xml_key
from replay_audit.replay.state import (
    _OFFER_ANKAN,
    _OFFER_DISCARD,
    _OFFER_KAKAN,
    _OFFER_KITA,
    _TH_MASK,
)
from replay_audit.replay.values import ResultReplay
from replay_audit.replay.waits import hands_tenpai
from replay_audit.scoring.agari import is_complete_tiles
from replay_audit.scoring.context import DrawContext, WinContext
from replay_audit.scoring.hand import GARI_KINDS

CORE_WIN_CHECKS = getattr(_core, "win_checks", None) if _core is not None else None
"""The core's ``win_checks`` (None: a stale build, no core, or switched off by a test):
it says when a win's checks (``_check_furiten``, completeness, ``_check_win``) would
find nothing, and those then do not run; they are its reference."""


_SHOWN_CHECKED = frozenset({"exhaustive", "nm", "yao9", "reach4"})
"""The draws whose shown hands are checked against the replayed hands: those the
corpus has (7,489 hands shown, every one its seat's concealed hand: 7,178 exhaustive,
17 nagashi mangan, 270 kyuushu, 24 four riichi).  A triple ron's shown hands (the
winners', perhaps with the ron tile) are unseen, so not checked."""


def _shown_due(kind: str, to_act: int, n: int) -> tuple[int, ...] | None:
    """The seats whose hands an abortive draw shows, by its rule: a kyuushu the
    declarer's (the seat to act, holding fourteen tiles), four riichi every seat's,
    four winds and four kans none; None where no rule is checked (a triple ron's hands
    are unseen, a kyuushu with no seat to act is already a finding).  Every one of the
    corpus's 299 such draws shows these (268 kyuushu, 6 four riichi, 24 four winds,
    1 four kans)."""
    if kind == "yao9":
        return (to_act,) if to_act >= 0 else None
    if kind == "reach4":
        return tuple(range(n))
    return () if kind in ("kaze4", "kan4") else None


class _Results(_Calls):
    """Wins and draws: the contexts the scorer reads."""

    __slots__ = ()

    # ------------------------------------------------------------------ results

    def _win(self, r: RecordedWin, unclean: bool = False) -> ResultReplay:
        # Once a win (most hands end in one): the table's fields are read once into
        # locals and the values are made positionally (``values.MAKE``).  ``unclean``:
        # the core's ``run_hand`` already asked ``CORE_WIN_CHECKS``, which found
        # something, so the Python checks run without asking again.
        s = r.seat
        seq = r.seq
        tsumo = s == r.from_seat
        hand = self.concealed[s]
        log = self.hand
        chankan = rinshan = haitei = houtei = tenhou = chiihou = renhou = False
        ippatsu_now = self.ippatsu[s]
        if tsumo:
            if s != self.to_act or self.after_call:
                self._find("win_out_of_turn", "tsumo outside the winner's draw", seq, s)
            win_tile = self.last_draw[s]
            tiles = list(hand)
            rinshan = self.drawn_rinshan
            haitei = self.live == 0 and not rinshan
            if self.uninterrupted and not self.discarded[s]:
                tenhou = s == log.dealer
                chiihou = not tenhou
        else:
            lo = self.last_offer
            if lo is None or lo[0] != r.from_seat or lo[0] == s:
                self._find("ron_no_discard", f"ron with no tile from seat {r.from_seat}", seq, s)
                return values.MAKE(ResultReplay, r, None, None, None, ())
            win_tile = lo[1]
            offer = lo[2]
            if offer != _OFFER_DISCARD:
                if offer == _OFFER_ANKAN and not self.rules.kokushi_ankan_ron:
                    self._find("ron_no_discard", "ron on an ankan", seq, s)
                if offer == _OFFER_KITA and not self.rules.kita_ron:
                    self._find("kita_ron_not_allowed", "ron on a set-aside North", seq, s)
                chankan = offer in (_OFFER_KAKAN, _OFFER_ANKAN)
                if offer == _OFFER_KAKAN and self.ippatsu_before_kakan is not None:
                    ippatsu_now = self.ippatsu_before_kakan[s]
            else:
                houtei = self.live == 0
            renhou = self.uninterrupted and not self.discarded[s]
            tiles = [*hand, win_tile]
        melds = tuple(self.melds[s])
        riichi = self.riichi[s]
        dora = self._dora()
        ura: tuple[int, ...] = ()
        if riichi:
            ura = tuple(self.dead_ura[: len(dora)]) if self.dead_ura is not None else r.ura
        checks = CORE_WIN_CHECKS
        args = (s, tiles, win_tile, not tsumo, r, melds, dora, ura, riichi, self.dead_ura is None)
        if unclean or checks is None or self.json or not checks(self, *args):
            # The checks below, unless the core found that none of them finds anything.
            if not tsumo:
                self._check_furiten(s, seq, hand)
            if not is_complete_tiles(tiles):
                self._find(
                    "win_incomplete",
                    "the winning hand is not complete",
                    seq,
                    s,
                    computed=to_notation(tiles, self.aka),
                )
            self._check_win(r, tiles, melds, win_tile, dora, ura, riichi)
        gari_seen = True if self.rules.scoring != "toutenkou" else self._gari_seen(s, tiles, melds)
        ctx = values.MAKE(
            WinContext,
            tuple(tiles),
            melds,
            win_tile,
            tsumo,
            s,
            log.dealer,
            log.round_wind,
            self.n,
            riichi,
            riichi and self.riichi_double[s],
            riichi and ippatsu_now,
            haitei,
            houtei,
            rinshan,
            chankan,
            tenhou,
            chiihou,
            renhou,
            dora,
            ura,
            log.honba,
            gari_seen,
        )
        return values.MAKE(ResultReplay, r, ctx, None, None, tuple(self.pao[s]))

    def _gari_seen(self, s: int, tiles: list[int], melds: tuple[Meld, ...]) -> bool:
        """Toutenkou karasu needs a winner who never had a gari tile: none in the
        final hand, its calls and set-asides, or its discards.  Everything a seat
        ever held ends in one of those (discards stay listed when called), so the
        end state answers it.  Outside Toutenkou the flag is unused: True (``_win``
        does not call this there)."""
        if self.rules.scoring != "toutenkou":
            return True
        held = [*tiles, *self.discards[s]]
        held += [t for m in melds for t in m.tiles]
        return any(t >> 2 in GARI_KINDS for t in held)

    def _check_win(
        self,
        r: RecordedWin,
        tiles: list[int],
        melds: tuple[Meld, ...],
        win_tile: int,
        dora: tuple[int, ...],
        ura: tuple[int, ...],
        riichi: bool,
    ) -> None:
        s, seq, aka = r.seat, r.seq, self.aka
        json = self.json
        key = _json_key if json else _xml_key
        # XML tiles carry copy numbers: the win tile is compared as is, and tiles or
        # melds equal in order need no sorted key (the usual case, once a win).
        if r.hand and key(tiles) != key(r.hand):
            self._find(
                "hand",
                "replayed concealed tiles differ from the recorded hand",
                seq,
                s,
                recorded=to_notation(r.hand, aka),
                computed=to_notation(tiles, aka),
            )
        if (
            (r.hand or r.melds)
            and (json or melds != r.melds)
            and _melds_key(melds, json) != _melds_key(r.melds, json)
        ):
            self._find(
                "melds",
                "replayed melds differ from the recorded melds",
                seq,
                s,
                recorded=[_meld_text(m, aka) for m in r.melds],
                computed=[_meld_text(m, aka) for m in melds],
            )
        if r.win_tile is not None and (
            win_tile != r.win_tile if not json else key([win_tile]) != key([r.win_tile])
        ):
            self._find(
                "win_tile",
                "replayed winning tile differs from the recorded machi",
                seq,
                s,
                recorded=r.win_tile,
                computed=win_tile,
            )
        if r.dora and (json or dora != r.dora) and key(dora) != key(r.dora):
            self._find(
                "dora",
                "dora indicators differ from the recorded doraHai",
                seq,
                s,
                recorded=tuple(r.dora),
                computed=dora,
            )
        if r.dora and riichi and self.dead_ura is None and len(r.ura) != len(dora):
            self._find(
                "ura_count",
                "the log gives a riichi win one ura indicator per dora indicator; this one does not",
                seq,
                s,
                recorded=len(r.ura),
                computed=len(dora),
            )
        elif r.dora and (riichi or r.ura) and (json or ura != r.ura) and key(ura) != key(r.ura):
            self._find(
                "ura",
                "ura indicators differ from the recorded doraHaiUra",
                seq,
                s,
                recorded=tuple(r.ura),
                computed=ura,
            )

    def _draw_result(self, r: RecordedDraw) -> ResultReplay:
        kind = r.kind
        n = self.n
        seats = len(self.concealed)
        if self.to_act >= 0 and kind != "yao9":  # only a kyuushu ends a turn mid-way
            self._find(
                "draw_mid_turn",
                f"the hand ends in a draw ({kind}) while seat {self.to_act} has yet to discard",
                r.seq,
                self.to_act,
            )
        if kind == "exhaustive" or kind == "nm":
            if self.live != 0:
                self._find(
                    "draw_wall_not_empty",
                    "exhaustive draw with live tiles left",
                    r.seq,
                    None,
                    computed=self.live,
                )
            # each seat that plays (``n``), then False for a placeholder seat
            rest = (False,) * (seats - n)
            tenpai = hands_tenpai(self.concealed[:n]) + rest
            nagashi = tuple(self.nagashi[:n]) + rest
            # the hands shown are the tenpai hands: nearly always the tenpai seats in
            # seat order (compared in C), else seat by seat
            if r.shown is not None and r.shown_seats != tuple(compress(range(n), tenpai)):
                shown = set(r.shown_seats)
                for s in range(n):
                    if (s in shown) != tenpai[s]:
                        self._find(
                            "tenpai",
                            f"seat {s} is {'tenpai' if tenpai[s] else 'noten'} but the log "
                            f"{'does not show' if tenpai[s] else 'shows'} its hand",
                            r.seq,
                            s,
                            recorded=int(s in shown),
                            computed=int(tenpai[s]),
                            category="draw",
                        )
            self._check_shown(r)
            ctx = values.MAKE(DrawContext, tenpai, nagashi, self.hand.dealer, n)
            return values.MAKE(ResultReplay, r, None, ctx, None, ())
        if kind in _SHOWN_CHECKED:
            self._check_shown(r)
        due = _shown_due(kind, self.to_act, n) if r.shown is not None else None
        if due is not None and r.shown_seats != due:
            for s in range(n):
                was = int(s in r.shown_seats)
                if was != (s in due):
                    what = (
                        f"a {kind} draw {'shows' if not was else 'does not show'} seat {s}'s hand"
                    )
                    self._find("hand_shown", what, r.seq, s, was, 1 - was, category="draw")
        return values.MAKE(ResultReplay, r, None, None, self._abort_ok(r), ())

    def _check_shown(self, r: RecordedDraw) -> None:
        """Each hand the draw shows is its seat's concealed hand replayed from the
        moves, tile for tile (XML logs carry copy numbers; JSON shows no hands)."""
        concealed = self.concealed
        for s, tiles in r.shown or ():
            if 0 <= s < self.n and sorted(tiles) != sorted(concealed[s]):
                self._find(
                    "shown_hand",
                    f"the hand seat {s} shows at the draw is not its hand replayed from the moves",
                    r.seq,
                    s,
                    recorded=tuple(sorted(tiles)),
                    computed=tuple(sorted(concealed[s])),
                    category="draw",
                )

    def _abort_ok(self, r: RecordedDraw) -> bool:
        kind = r.kind
        if kind == "yao9":
            s = self.to_act
            if s < 0 or self.after_call or not self.uninterrupted or self.discarded[s]:
                return False
            kinds = {t >> 2 for t in self.concealed[s]}
            return len(self.concealed[s]) == 14 and sum(_TH_MASK >> k & 1 for k in kinds) >= 9
        if kind == "reach4":
            return len(self.riichi_accepted) == 4
        if kind == "kaze4":
            offers = self.offer_kinds
            return (
                self.uninterrupted
                and len(offers) == 4
                and len(set(self.offer_seats)) == 4
                and 27 <= offers[0] <= 30
                and offers.count(offers[0]) == 4
            )
        if kind == "kan4":
            return self.kans == 4 and self.kan_seats & (self.kan_seats - 1) != 0
        if kind == "ron3":
            lo = self.last_offer
            if lo is None:
                return False
            cand = r.shown_seats if r.shown is not None else range(self.n)
            winners = [
                s for s in cand if s != lo[0] and is_complete_tiles([*self.concealed[s], lo[1]])
            ]
            return len(winners) == 3
        return False
