"""Types of ``replay_audit._core``, the compiled core (C++ in ``src/core``, pybind11)."""

from collections.abc import Iterator, Sequence
from typing import Any

SOURCES_DIGEST: str
"""A digest of the ``src/core`` files this module was compiled from (see ``setup.py``)."""

def walls(seed: str, players: int, hands: int) -> list[bytes]:
    """The first ``hands`` walls of a game from its SHUFFLE seed: one record per hand,
    the tile ids in draw order then the two dice (1-6); ValueError if declined."""

class WallStream(Iterator[bytes]):
    """A game's wall records from its SHUFFLE seed, hand after hand, without end;
    ValueError at construction if the core declines the seed."""

    def __init__(self, seed: str, players: int) -> None: ...
    @property
    def flipped(self) -> bool:
        """The 2009 hex form: dead-wall stacks read bottom first."""

    def __next__(self) -> bytes: ...

def init_shuffle_wall(shuffle: str, players: int) -> bytes:
    """One hand's wall record from a mid-2009 INIT ``shuffle``; ValueError if declined."""

def sha512(data: bytes) -> bytes:
    """The SHA-512 digest, by the core's own implementation."""

def mt19937_outputs(key: Sequence[int], count: int) -> list[int]:
    """``count`` outputs of MT19937 seeded with ``init_by_array(key)``."""

def read_mjlog(data: bytes) -> dict[str, Any] | None:
    """One mjlog XML document (bytes, not gzipped) as columns: a dict of tables (``events``,
    ``melds``, ``hands``, ``agari``, ``ryuukyoku``, ``owari``, ``reach_scores``, ``pool``,
    ``strings``, ``game``; src/core/game.hpp), or None if the core declines the document."""

def mjlog_decline_reason(data: bytes) -> str | None:
    """Why ``read_mjlog`` declines ``data``, or None if it reads it."""

def decode_meld(
    m: int, who: int, gari: bool = False
) -> tuple[int, tuple[int, ...], int | None, int | None, int | None] | None:
    """A meld code decoded: (kind, tiles, called, from_seat, added), kind the index of
    ``replay_audit.meld.MeldKind``; None where ``meld_code.decode_meld`` raises."""
