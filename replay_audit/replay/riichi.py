"""Riichi and furiten.

Owns ``_Riichi``: declaring and accepting riichi (points, tenpai, live tiles,
closed hand) and the furiten check of a ron (own discards, passed tiles, riichi).
Inside a run of draws and discards the compiled core plays the declarations and
acceptances that find nothing (``replay.moves``); these methods are its reference
and play every other one.

Must not: handle calls or score anything.
"""

from __future__ import annotations

from replay_audit.model.events import (
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.replay.moves import _Moves
from replay_audit.replay.state import _OFFER_DISCARD
from replay_audit.replay.waits import hand_wait_mask


class _Riichi(_Moves):
    """Riichi declarations and acceptances; furiten."""

    __slots__ = ()

    def _riichi_declare(self, ev: RiichiDeclare) -> None:
        s = ev.seat
        if s != self.to_act or self.after_call or self.riichi[s] or self.riichi_declared >= 0:
            self._find("riichi_out_of_turn", "riichi outside the declarer's turn", ev.seq, s)
        if any(m.opened for m in self.melds[s]):
            self._find("riichi_open", "riichi with an open hand", ev.seq, s)
        if self.scores and s < len(self.scores) and self.scores[s] < self.rules.riichi_cost:
            self._find(
                "riichi_points",
                "riichi with less than the riichi cost",
                ev.seq,
                s,
                computed=self.scores[s],
            )
        if self.live < 4:
            self._find("riichi_late", "riichi with fewer than 4 live tiles", ev.seq, s)
        self.riichi_declared = s

    def _riichi_accept(self, ev: RiichiAccept) -> None:
        s = ev.seat
        if self.riichi_declared != s:
            self._find("riichi_out_of_turn", "riichi stick without a declaration", ev.seq, s)
        else:
            # The stick is placed as the riichi discard passes: the log's step 2 comes
            # right after that discard, before any draw or call (all 20,224 of the
            # corpus's XML logs do; the JSON and 2006 readers place it so).
            lo = self.last_offer
            if lo is None or lo[0] != s or lo[2] != _OFFER_DISCARD:
                self._find(
                    "riichi_accept_misplaced",
                    "the riichi stick is placed other than right after the riichi discard",
                    ev.seq,
                    s,
                )
        self.riichi_declared = -1
        if self.riichi[s]:
            return
        self.riichi[s] = True
        self.ippatsu[s] = True
        self.riichi_accepted.append(s)
        self.sticks += 1
        if s < len(self.scores):
            self.scores[s] -= self.rules.riichi_cost

    def _check_furiten(self, s: int, seq: int, hand: list[int]) -> None:
        """Furiten by own discards, by a passed winning tile since the seat's last
        discard (temporary) and since its riichi discard (riichi furiten)."""
        mask = hand_wait_mask(hand)
        if not mask:
            return
        why = ""
        if self.disc_mask[s] & mask:
            why = "a wait is in the seat's own discards"
        else:
            end = len(self.offer_kinds) - 1
            seats = self.offer_seats
            kinds = self.offer_kinds
            start = self.last_disc_pos[s] + 1
            if self.riichi[s] and self.riichi_pos[s] >= 0:
                start = min(start, self.riichi_pos[s] + 1)
            for i in range(start, end):
                if seats[i] != s and mask >> kinds[i] & 1:
                    why = "a winning tile was passed"
                    break
        if why:
            self._find("ron_furiten", f"ron while furiten: {why}", seq, s)
