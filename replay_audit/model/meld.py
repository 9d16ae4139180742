"""Melds: the value type shared by events, the replayer and the scorer.

A ``Meld`` says what is on the table, in tile ids, independent of how a log
format spells it (the XML bit field or a tenhou.net/6 call string).

Must not: know how a format encodes a meld (``parsers``) or judge a call's legality.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from replay_audit.model.tiles import Tile, kind


class MeldKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    KAKAN = "kakan"
    ANKAN = "ankan"
    KITA = "kita"


@dataclass(frozen=True, slots=True)
class Meld:
    """One call.

    ``tiles`` are all the meld's tile ids, ascending (4 for kans, 1 for kita).
    ``called`` is the tile taken from another player's discard (chi, pon,
    daiminkan; for a kakan the tile of the original pon), ``None`` for ankan and
    kita.  ``added`` is the tile a kakan adds.  ``from_seat`` is the absolute seat
    the called tile came from (``None`` for ankan and kita).
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    from_seat: int | None = None
    added: Tile | None = None

    @property
    def opened(self) -> bool:
        """True when the meld opens the hand (ankan and kita do not)."""
        return self.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN, MeldKind.KAKAN)

    @property
    def is_kan(self) -> bool:
        return self.kind in (MeldKind.DAIMINKAN, MeldKind.KAKAN, MeldKind.ANKAN)

    @property
    def kind34(self) -> int:
        """Kind of the lowest tile (the run start for chi)."""
        return kind(self.tiles[0])

    @property
    def kinds(self) -> tuple[int, ...]:
        return tuple(kind(t) for t in self.tiles)
