"""Types of ``replay_audit._core``, the compiled core (C++ in ``src/core``, pybind11)."""

from collections.abc import Sequence

def walls(seed: str, players: int, hands: int) -> list[bytes]:
    """The first ``hands`` walls of a game from its SHUFFLE seed: one record per hand,
    the tile ids in draw order then the two dice (1-6); ValueError if declined."""

def init_shuffle_wall(shuffle: str, players: int) -> bytes:
    """One hand's wall record from a mid-2009 INIT ``shuffle``; ValueError if declined."""

def sha512(data: bytes) -> bytes:
    """The SHA-512 digest, by the core's own implementation."""

def mt19937_outputs(key: Sequence[int], count: int) -> list[int]:
    """``count`` outputs of MT19937 seeded with ``init_by_array(key)``."""
