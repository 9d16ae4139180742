"""Every way to read a winning hand: sets and a pair, seven pairs, or kokushi.

Scoring needs *all* readings because Tenhou pays the most valuable one, and the
same tiles can be several hands (``111222333m`` is three triplets or three
runs).  The winning tile matters too: where it sits decides the wait fu and
whether a triplet it completes by ron counts as concealed, so the scorer
expands a reading once per set the winning tile can belong to.

Decomposition works suit by suit and is, after the first sight of a suit
pattern, one dict lookup per suit: a suit's nine (honors: seven) counts, as a
``bytes`` key, map to that suit's readings in absolute kinds.  A real-log corpus
of 24,000 wins holds only about 3,300 distinct suit patterns, so the tables fill
quickly, and ``bytes`` keys hash fast and are not tracked by the garbage
collector (scoring allocates few containers, which keeps collections rare).

>>> from replay_audit.model.tiles import counts34, parse_tiles
>>> [r for r in hand_readings(counts34(parse_tiles("111222333m11p")))]
[(9, ((1, 0), (1, 1), (1, 2))), (9, ((0, 0), (0, 0), (0, 0)))]

Must not: score a reading (``yaku``, ``fu``) or know about rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Final

from replay_audit.model.tiles import NUM_KINDS

RUN: Final = 0
TRIPLET: Final = 1
KAN: Final = 2

WAIT_RYANMEN: Final = "ryanmen"
WAIT_KANCHAN: Final = "kanchan"
WAIT_PENCHAN: Final = "penchan"
WAIT_SHANPON: Final = "shanpon"
WAIT_TANKI: Final = "tanki"
WAIT_KOKUSHI: Final = "kokushi"
WAIT_KOKUSHI13: Final = "kokushi13"

KOKUSHI_KINDS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

SuitSet = tuple[int, int]
"""``(form, kind)`` with form ``RUN`` (kind = lowest tile) or ``TRIPLET``."""
Reading = tuple[int, tuple[SuitSet, ...]]
"""``(pair_kind, sets)`` for the concealed part of a regular hand (pair -1 = none
within one suit)."""


@lru_cache(maxsize=1 << 14)
def _suit_splits(counts: tuple[int, ...], honors: bool) -> tuple[Reading, ...]:
    """Every split of one suit into sets and at most one pair (pair -1 = none).

    Kinds are indices into ``counts``.  Order: the first non-empty kind is
    taken as a pair, a triplet or the start of a run.  (Four of a kind can
    yield the same sets in two orders; the scorer keeps the first of equal
    values, so this only costs a duplicate evaluation.)
    """
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return ((-1, ()),)
    out: list[Reading] = []
    c = list(counts)
    if c[i] >= 2:
        c[i] -= 2
        for pair, sets in _suit_splits(tuple(c), honors):
            if pair == -1:
                out.append((i, sets))
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        for pair, sets in _suit_splits(tuple(c), honors):
            out.append((pair, ((TRIPLET, i), *sets)))
        c[i] += 3
    if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for pair, sets in _suit_splits(tuple(c), honors):
            out.append((pair, ((RUN, i), *sets)))
    return tuple(out)


_SUIT_TABLES: Final[tuple[dict[bytes, tuple[Reading, ...]], ...]] = ({}, {}, {}, {})
"""Per suit (man, pin, sou, honors): counts as ``bytes`` -> readings in absolute kinds."""

_SUITS: Final = tuple(
    (lo, hi, bytes(hi - lo), _SUIT_TABLES[suit], suit)
    for suit, (lo, hi) in enumerate(((0, 9), (9, 18), (18, 27), (27, 34)))
)
"""Per suit: its kind span, the key of an empty suit, its table, its index."""


_SHIFTED: Final = tuple(
    {(f, k): (f, k + 9 * suit) for f in (RUN, TRIPLET) for k in range(9)} for suit in range(4)
)
"""Per suit: a set in suit-relative kinds -> the same set in absolute kinds."""


def _suit_readings(suit: int, key: bytes) -> tuple[Reading, ...]:
    """Readings of one suit's counts ``key`` in absolute kinds, filled on first sight."""
    table = _SUIT_TABLES[suit]
    got = table.get(key)
    if got is None:
        lo = 9 * suit
        shifted = _SHIFTED[suit]
        got = tuple(
            (p + lo if p >= 0 else -1, tuple([shifted[s] for s in sets]))
            for p, sets in _suit_splits(tuple(key), suit == 3)
        )
        table[key] = got
    return got


def clear_caches() -> None:
    """Forget every suit pattern seen (benchmarks time a cold start with this)."""
    for table in _SUIT_TABLES:
        table.clear()
    _suit_splits.cache_clear()


def hand_readings(counts: Sequence[int]) -> tuple[Reading, ...]:
    """All regular readings (one pair + sets) of a 3n+2 count sequence, kinds 0-33."""
    if sum(counts) % 3 != 2:
        return ()
    return readings_of(bytes(counts))


def readings_of(raw: bytes) -> tuple[Reading, ...]:
    """``hand_readings`` of 34 kind counts given as ``bytes`` (the caller vouches
    for 3n+2 tiles).

    Readings come in a fixed order (suits in order, each suit's splits in
    ``_suit_splits`` order), which keeps the scorer's tie-breaks deterministic.
    """
    per_suit: list[tuple[Reading, ...]] = []
    single = True
    for lo, hi, empty, table, suit in _SUITS:
        key = raw[lo:hi]
        if key == empty:
            continue
        splits = table.get(key)
        if splits is None:
            splits = _suit_readings(suit, key)
        if not splits:
            return ()
        if len(splits) > 1:
            single = False
        per_suit.append(splits)
    if single:
        return _combine([s[0] for s in per_suit])
    out: list[Reading] = []
    for combo in product(*per_suit):
        out.extend(_combine(combo))
    return tuple(out)


def _combine(parts: Sequence[Reading]) -> tuple[Reading, ...]:
    """One reading from one split per suit, or none when the pair count is not one."""
    pair = -1
    sets: tuple[SuitSet, ...] = ()
    for p, ss in parts:
        if p >= 0:
            if pair >= 0:
                return ()
            pair = p
        sets += ss
    return ((pair, sets),) if pair >= 0 else ()


def is_chiitoitsu_counts(counts: Sequence[int]) -> bool:
    """Seven distinct pairs (Tenhou does not read four of a kind as two pairs)."""
    return counts.count(2) == 7 and sum(counts) == 14


def is_kokushi_counts(counts: Sequence[int]) -> bool:
    """Thirteen orphans: every terminal and honor, one of them twice."""
    if not counts[0] or not counts[33] or sum(counts) != 14:
        return False
    if any(counts[k] == 0 for k in KOKUSHI_KINDS):
        return False
    return all(counts[k] == 0 for k in range(NUM_KINDS) if k not in KOKUSHI_KINDS) and any(
        counts[k] == 2 for k in KOKUSHI_KINDS
    )


def run_wait(start: int, win: int) -> str:
    """The wait of a run starting at ``start`` completed by kind ``win``."""
    if win == start + 1:
        return WAIT_KANCHAN
    if win == start and start % 9 == 6:
        return WAIT_PENCHAN
    if win == start + 2 and start % 9 == 0:
        return WAIT_PENCHAN
    return WAIT_RYANMEN
