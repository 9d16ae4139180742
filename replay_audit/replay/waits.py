"""Waits and tenpai of a concealed hand, as bit masks over the 34 kinds.

Owns ``wait_mask`` (and ``hand_wait_mask``, ``hands_tenpai``, ``_waits``, ``_has_wait``): which kinds
complete a hand, Tenhou's tenpai (a wait not held four times), by suit patterns.

``wait_mask`` asks the compiled core (``_core.wait_mask``, ``src/core/waits.cpp``)
when the install has it, and ``hand_wait_mask`` (the same of tile ids: the core counts
them itself) too; ``_py_wait_mask`` is the reference they are held equal to
(``tests/test_core_waits.py``), and answers without the core or when it declines.

Must not: know about a table, seats or rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from replay_audit.model.tiles import TERMINALS_AND_HONORS, TERMINALS_AND_HONORS_MASK, Tile, counts34
from replay_audit.native import _core
from replay_audit.scoring.agari import _py_is_complete, is_regular_complete

CORE_WAIT_MASK: Callable[[Sequence[int]], int | None] | None = getattr(_core, "wait_mask", None)
"""The core's ``wait_mask`` (None: no core, a stale build, or switched off by a test)."""
CORE_TILES_WAIT_MASK: Callable[[Sequence[int]], int | None] | None = getattr(
    _core, "tiles_wait_mask", None
)
"""The core's ``wait_mask`` of tile ids (None as for ``CORE_WAIT_MASK``)."""

# --------------------------------------------------------------------------- helpers


_KOKUSHI_KINDS = tuple(sorted(TERMINALS_AND_HONORS))


def _as_hand(part: tuple[int, ...], pair: bool) -> list[int]:
    """A 34-count hand holding ``part`` as its only suit (honors when it has 7
    kinds) and, when ``pair`` is False, a pair of some kind of another suit, so
    ``is_regular_complete`` answers "sets only" for ``part``."""
    counts = [0] * 34
    if len(part) == 7:
        counts[27:34] = part
        if not pair:
            counts[0] = 2
    else:
        counts[0:9] = part
        if not pair:
            counts[27] = 2
    return counts


@lru_cache(maxsize=1 << 16)
def _suit_ok(part: tuple[int, ...], pair: bool) -> bool:
    """Can this one suit be split into sets (plus one pair when ``pair``)?"""
    return is_regular_complete(_as_hand(part, pair))


@lru_cache(maxsize=1 << 16)
def _suit_waits(part: tuple[int, ...], pair: bool) -> int:
    """Bit mask of the positions in this suit whose tile makes it split into
    sets (plus a pair when ``pair``); positions held four times are left out."""
    mask = 0
    c = list(part)
    for i in range(len(c)):
        if c[i] >= 4:
            continue
        c[i] += 1
        if _suit_ok(tuple(c), pair):
            mask |= 1 << i
        c[i] -= 1
    return mask


def wait_mask(counts: list[int]) -> int:
    """Bit mask of the kinds that complete the hand, as ``agari.waits`` finds
    them (kinds held four times left out): the core's, else ``_py_wait_mask``."""
    core = CORE_WAIT_MASK
    if core is not None:
        mask = core(counts)
        if mask is not None:
            return mask
    return _py_wait_mask(counts)


def hand_wait_mask(tiles: list[Tile]) -> int:
    """``wait_mask`` of these tile ids' counts (``counts34``): the core counts them
    itself, which spares the replay a ``counts34`` at each ron and draw."""
    core = CORE_TILES_WAIT_MASK
    if core is not None:
        mask = core(tiles)
        if mask is not None:
            return mask
    return _py_wait_mask(counts34(tiles))


def hands_tenpai(hands: Sequence[list[Tile]]) -> tuple[bool, ...]:
    """Whether each hand waits (``hand_wait_mask`` of each is not 0): an exhaustive
    draw asks it of every seat, and the core's masks taken by ``map`` spare a
    Python call per seat (about 16,000 a corpus pass).  A hand the core declines
    sends them all through ``hand_wait_mask``, which answers it as it always does."""
    core = CORE_TILES_WAIT_MASK
    if core is not None:
        masks = list(map(core, hands))
        if None not in masks:
            return tuple(map(bool, masks))
    return tuple(map(bool, map(hand_wait_mask, hands)))


def _py_wait_mask(counts: list[int]) -> int:
    """``wait_mask`` in Python, computed suit by suit: the reference the core is
    held equal to.

    This is the hot part of the replay (riichi, furiten, exhaustive draws).
    A regular hand of 3n+1 tiles waits either in its one suit of 3m+1 tiles
    (that suit must take a pair, the others only sets) or in one of its two
    suits of 3m+2 tiles (that one must become sets, the other holds the
    pair).  Each suit's answer depends on its own counts only, so it is
    memoized per suit pattern: a few dict lookups instead of one full
    ``is_complete`` per candidate kind.  Seven pairs and kokushi are checked
    with ``is_complete`` on their (at most 13) candidates.
    """
    parts = (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )
    ones = []
    twos = []
    for s in range(4):
        r = sum(parts[s]) % 3
        if r == 1:
            ones.append(s)
        elif r == 2:
            twos.append(s)
    mask = 0
    if len(ones) == 1 and not twos:
        w = ones[0]
        if all(_suit_ok(parts[s], False) for s in range(4) if s != w):
            mask = _suit_waits(parts[w], True) << 9 * w
    elif len(twos) == 2 and not ones:
        a, b = twos
        if all(_suit_ok(parts[s], False) for s in range(4) if s != a and s != b):
            if _suit_ok(parts[b], True):
                mask |= _suit_waits(parts[a], False) << 9 * a
            if _suit_ok(parts[a], True):
                mask |= _suit_waits(parts[b], False) << 9 * b
    if sum(counts) == 13:
        mask |= _special_waits(counts)
    return mask


def _special_waits(counts: list[int]) -> int:
    """Seven-pairs and kokushi waits of a 13-tile hand (their only candidates:
    the single kind of six pairs and a single; the terminals and honors)."""
    cand: tuple[int, ...] = ()
    if counts.count(2) == 6 and counts.count(1) == 1:
        cand = (counts.index(1),)
    elif all(counts[k] == 0 for k in range(34) if not TERMINALS_AND_HONORS_MASK >> k & 1):
        cand = _KOKUSHI_KINDS
    mask = 0
    for k in cand:
        if counts[k] < 4:
            counts[k] += 1
            if _py_is_complete(counts):
                mask |= 1 << k
            counts[k] -= 1
    return mask


def _waits(counts: list[int]) -> set[int]:
    """``agari.waits`` (the same answer, computed by ``wait_mask``)."""
    mask = wait_mask(counts)
    return {k for k in range(34) if mask >> k & 1}


def _has_wait(counts: list[int]) -> bool:
    """Tenpai (Tenhou's way): some wait not held four times."""
    return wait_mask(counts) != 0
