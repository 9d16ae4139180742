"""``Finding``: one disagreement or one problem, with its place.

Every layer that can find something wrong (parser, replayer, scorer
comparison, settlement, game flow) reports it as a ``Finding`` so the report
is one table with one schema.

Must not: decide what is a finding; it is only the value every layer reports with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Category = Literal[
    "parse", "replay", "hand_value", "payment", "draw", "transition", "final", "rules", "info"
]
CATEGORIES: tuple[str, ...] = (
    "parse",
    "replay",
    "hand_value",
    "payment",
    "draw",
    "transition",
    "final",
    "rules",
    "info",
)
INFO = "info"
"""The category of a *note*, not a problem: what the audit inferred (a lobby's uma,
the rounding of an undated log), assumed, or could not check (an excerpt's first
hands).  Notes are listed with the findings so nothing is passed over in silence,
but they do not make a file a mismatch, and counts of findings leave them out."""


def is_problem(category: object) -> bool:
    """Whether a finding of this category is a problem (everything but a note)."""
    return category != INFO


@dataclass(frozen=True, slots=True)
class Finding:
    """One row of the findings table.

    ``field`` names what was compared (``fu``, ``points``, ``delta``, ``yaku``,
    ``honba`` ...) or, for ``parse``/``replay``, a short code of the problem
    (``discard_not_held``).  ``recorded`` and ``computed`` are printable values
    (``None`` where one side has nothing).  ``hand`` is the label (``E1-0``),
    ``hand_index`` the hand's position in the game, ``seq`` the event index in
    the source and ``seat`` the absolute seat, each ``None`` where it does not
    apply.
    """

    category: str
    field: str
    message: str
    file: str = ""
    log_id: str | None = None
    hand: str | None = None
    hand_index: int | None = None
    seq: int | None = None
    seat: int | None = None
    recorded: object = None
    computed: object = None

    def where(self) -> str:
        parts = [self.file or "?"]
        if self.log_id:
            parts.append(self.log_id)
        if self.hand:
            parts.append(self.hand)
        if self.seq is not None:
            parts.append(f"event {self.seq}")
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        return " ".join(parts)
