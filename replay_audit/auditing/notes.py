"""What a game's log leaves unsaid or carries besides the points: lobby rules
read off the log, chips, and notes about the log itself.

Owns ``_Notes``: reading a lobby's unrecorded rules (``auditing.lobby``), checking
chip games (``scoring.chips``), and the notes on warnings and 2006 logs.

Must not: compare hands, wins or payments.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from replay_audit.auditing.base import _AuditorBase
from replay_audit.auditing.lobby import (  # (not lazily: a game's import cost)
    FIXED_KINDS,
    lobby_kind,
    read_lobby,
)
from replay_audit.model.findings import INFO

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit.replay.values import GameReplay


class _Notes(_AuditorBase):
    """Lobby readings, chips and notes about the log."""

    def _read_lobby(self, replay: GameReplay) -> None:
        """The rules a lobby does not record, read off the log (``auditing.lobby``)."""
        if lobby_kind(self.game.meta) in FIXED_KINDS:
            return  # (nearly every game: ``read_lobby`` would give the rules back as they are)
        reading = read_lobby(self.game, replay, self.rules)
        self.rules = reading.rules
        if reading.hanchan is not None:  # the length read off the log: the chain's too
            self.meta = dataclasses.replace(self.meta, hanchan=reading.hanchan)
        for note in reading.notes:
            self.add(note.category, note.field, note.message, note.hand,
                     recorded=note.recorded, computed=note.computed)  # fmt: skip

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
        if not self.era.before_2009:  # as ``unobserved_2006`` says, without the import
            return
        from replay_audit.auditing.era_readings import unobserved_2006

        for hand, seq, what in unobserved_2006(self.game, self.era):
            self.add(
                INFO,
                "rule_2006_unknown",
                f"{what}: no log of 2006 shows its rule, so today's is applied",
                hand,
                seq=seq,
            )
