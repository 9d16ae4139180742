"""What a replay returns: frozen values per result, hand and game.

Owns ``ResultReplay``, ``HandReplay`` and ``GameReplay``, and ``MAKE``, how the
replay builds these and its other frozen values (``WinContext``, ``DrawContext``, the
hand's wall) a few times a hand: the core's ``make_value`` sets the slots directly,
as the dataclass ``__init__`` would (one ``object.__setattr__`` per field made a
``WinContext`` cost more than the work that filled it, measured); without the core,
``_py_make`` calls the class itself, the reference ``tests/test_core_replay.py``
holds it equal to.  Its callers give every field, in the class's order.

Must not: compute anything; the table (``replay.table``) fills them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from replay_audit.model.events import (
    Game,
    HandLog,
    RecordedDraw,
    RecordedWin,
)
from replay_audit.model.findings import Finding
from replay_audit.native import _core
from replay_audit.scoring.context import DrawContext, WinContext

_T = TypeVar("_T")


class _Make(Protocol):
    def __call__(self, cls: type[_T], /, *fields: object) -> _T: ...


def _py_make(cls: type[_T], /, *fields: object) -> _T:
    """The reference for ``_core.make_value``: the class's own ``__init__``."""
    return cls(*fields)


MAKE: _Make = (getattr(_core, "make_value", None) if _core is not None else None) or _py_make
"""``cls(*fields)`` for a frozen value of the replay (every field, in order): the
core's when it has one; a test sets it to ``_py_make`` to compare."""

# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ResultReplay:
    """One result of a hand with what the moves say about it.

    ``win`` is set for a win, ``draw`` for an exhaustive draw or nagashi
    (``"nm"``), ``abort_ok`` for an abortive draw (did its condition hold?).
    ``win`` is ``None`` when the replay could not tell the winning tile (a ron
    with no discard to ron).  ``pao`` lists the winner's liabilities the calls
    created, as ``(yakuman id, liable seat)``: the seat whose discard completed
    the third dragon set (39), the fourth wind set (49) or, by daiminkan, the
    fourth kan (51); the auditor keeps those its rules give pao for and holds
    the result against the log's ``paoWho``.
    """

    result: RecordedWin | RecordedDraw
    win: WinContext | None = None
    draw: DrawContext | None = None
    abort_ok: bool | None = None
    pao: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A replayed hand.

    ``riichi_accepted`` lists the seats whose riichi stick was placed, in
    order; ``dora_indicators`` are those revealed by the end of the hand (Tenhou
    timing); ``ura_source`` says where ura indicators came from: ``"wall"`` (the
    wall rebuilt from the SHUFFLE seed), ``"log"`` (the win's recorded
    ``doraHaiUra``, the only other source there is) or ``None`` (no riichi win).
    """

    hand: HandLog
    results: tuple[ResultReplay, ...]
    findings: tuple[Finding, ...]
    riichi_accepted: tuple[int, ...]
    dora_indicators: tuple[int, ...]
    ura_source: str | None
    sticks: int = 0
    """Riichi sticks on the table at the end of the hand (carried + this hand's)."""
    scores: tuple[int, ...] = ()
    """Scores after this hand's riichi deposits, before any result is paid."""


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A replayed game; ``findings`` holds every hand's findings in order."""

    game: Game
    hands: tuple[HandReplay, ...]
    findings: tuple[Finding, ...]
