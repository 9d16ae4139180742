"""Is a hand complete, and what does it wait on.

Works on 34-kind count lists.  ``is_complete`` answers for any hand of
3n+2 tiles (melds already removed); ``waits`` lists the kinds that complete a
3n+1 hand; ``is_tenpai`` applies Tenhou's rule that a wait only on tiles the
player already holds all four of is not tenpai.  Suits are checked one at a
time with a memo keyed by the suit's counts, so repeated calls are cheap.

``is_complete`` asks the compiled core (``_core.is_complete``, ``src/core/waits.cpp``)
when the install has it, and ``is_complete_tiles`` (the same of tile ids: the core
counts them itself) too; ``_py_is_complete`` is the reference they are held equal to
(``tests/test_core_waits.py``), and answers without the core or when it declines.

>>> from replay_audit.model.tiles import parse_tiles, counts34
>>> sorted(waits(counts34(parse_tiles("123456789m1122p"))))
[9, 10]

Must not: know about seats, tables or rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from replay_audit.model.tiles import NUM_KINDS, Tile, counts34
from replay_audit.native import _core

CORE_IS_COMPLETE: Callable[[Sequence[int]], bool | None] | None = getattr(
    _core, "is_complete", None
)
"""The core's ``is_complete`` (None: no core, a stale build, or switched off by a test)."""
CORE_TILES_COMPLETE: Callable[[Sequence[int]], bool | None] | None = getattr(
    _core, "tiles_complete", None
)
"""The core's ``is_complete`` of tile ids (None as for ``CORE_IS_COMPLETE``)."""

_KOKUSHI = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@lru_cache(maxsize=1 << 16)
def _suit_ok(counts: tuple[int, ...], need_pair: bool, honors: bool) -> bool:
    """Can these counts (one suit) be split into sets, plus a pair if asked?"""
    i = 0
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i == len(counts):
        return not need_pair
    c = list(counts)
    if need_pair and c[i] >= 2:
        c[i] -= 2
        if _suit_ok(tuple(c), False, honors):
            return True
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        if _suit_ok(tuple(c), need_pair, honors):
            return True
        c[i] += 3
    if not honors and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        return _suit_ok(tuple(c), need_pair, honors)
    return False


def is_regular_complete(counts: list[int] | tuple[int, ...]) -> bool:
    """Sets and one pair (any number of sets)."""
    total = sum(counts)
    if total % 3 != 2:
        return False
    pair_suit = -1
    for s in range(4):
        part = counts[9 * s : 9 * s + 9] if s < 3 else counts[27:34]
        n = sum(part)
        if n % 3 == 2:
            if pair_suit >= 0:
                return False
            pair_suit = s
        elif n % 3 == 1:
            return False
    for s in range(4):
        part = tuple(counts[9 * s : 9 * s + 9] if s < 3 else counts[27:34])
        if not _suit_ok(part, s == pair_suit, s == 3):
            return False
    return True


def is_chiitoitsu(counts: list[int] | tuple[int, ...]) -> bool:
    """Seven distinct pairs (Tenhou: four of a kind is not two pairs)."""
    return sum(counts) == 14 and sum(1 for c in counts if c == 2) == 7


def is_kokushi(counts: list[int] | tuple[int, ...]) -> bool:
    if sum(counts) != 14:
        return False
    pair = False
    for k in _KOKUSHI:
        if counts[k] == 0:
            return False
        if counts[k] == 2:
            pair = True
    return pair and all(counts[k] == 0 for k in range(NUM_KINDS) if k not in _KOKUSHI)


def _py_is_complete(counts: list[int] | tuple[int, ...]) -> bool:
    """``is_complete`` in Python: the reference the core is held equal to."""
    return is_regular_complete(counts) or is_chiitoitsu(counts) or is_kokushi(counts)


def is_complete(counts: list[int] | tuple[int, ...]) -> bool:
    """Sets and one pair, seven distinct pairs or kokushi (any number of sets)."""
    core = CORE_IS_COMPLETE
    if core is not None:
        done = core(counts)
        if done is not None:
            return done
    return _py_is_complete(counts)


def is_complete_tiles(tiles: list[Tile]) -> bool:
    """``is_complete`` of these tile ids' counts (``counts34``): the core counts them
    itself, which spares the replay a ``counts34`` at each win."""
    core = CORE_TILES_COMPLETE
    if core is not None:
        done = core(tiles)
        if done is not None:
            return done
    return _py_is_complete(counts34(tiles))


def waits(counts: list[int] | tuple[int, ...], allowed: frozenset[int] | None = None) -> set[int]:
    """Kinds that complete a 3n+1 hand (ignoring how many copies are left)."""
    c = list(counts)
    out: set[int] = set()
    for k in range(NUM_KINDS):
        if allowed is not None and k not in allowed:
            continue
        if c[k] >= 4:
            continue
        c[k] += 1
        if is_complete(c):
            out.add(k)
        c[k] -= 1
    return out


def is_tenpai(counts: list[int] | tuple[int, ...], allowed: frozenset[int] | None = None) -> bool:
    """Tenpai as Tenhou counts it at an exhaustive draw: some wait exists that is
    not a tile the player holds all four of (those are skipped in ``waits``)."""
    return bool(waits(counts, allowed))
