"""Every way to read a winning hand: sets and a pair, seven pairs, or kokushi.

Scoring needs *all* readings because Tenhou pays the most valuable one, and the
same tiles can be several hands (``111222333m`` is three triplets or three
runs).  The winning tile matters too: where it sits decides the wait fu and
whether a triplet it completes by ron counts as concealed.  So a reading is
expanded once per set the winning tile can belong to.

Decomposition works suit by suit on count tuples and caches each suit's
answer, so a real-log corpus with many repeated suit patterns is mostly lookups.

>>> from replay_audit.tiles import counts34, parse_tiles
>>> [r for r in hand_readings(tuple(counts34(parse_tiles("111222333m11p"))))]
[(9, ((1, 0), (1, 1), (1, 2))), (9, ((0, 0), (0, 0), (0, 0)))]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Final

from replay_audit.meld import Meld, MeldKind
from replay_audit.tiles import NUM_KINDS

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

FORM_REGULAR: Final = "regular"
FORM_CHIITOITSU: Final = "chiitoitsu"
FORM_KOKUSHI: Final = "kokushi"

KOKUSHI_KINDS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

SuitSet = tuple[int, int]
"""``(form, kind)`` with form ``RUN`` (kind = lowest tile) or ``TRIPLET``."""
Reading = tuple[int, tuple[SuitSet, ...]]
"""``(pair_kind, sets)`` for the concealed part of a regular hand."""


@dataclass(frozen=True, slots=True)
class Group:
    """One set of a finished hand.

    ``concealed`` is False for called sets *and* for a triplet completed by a
    ron (Tenhou scores that as open for fu and for the concealed-triplet
    yaku); ``called`` is True only for sets from calls, which is what opens a
    hand and what an open-hand han reduction looks at.
    """

    form: int
    kind: int
    concealed: bool
    called: bool = False

    @property
    def is_run(self) -> bool:
        return self.form == RUN

    @property
    def is_kan(self) -> bool:
        return self.form == KAN


@dataclass(frozen=True, slots=True)
class Shape:
    """One reading of a winning hand with the winning tile placed.

    ``groups`` holds all four sets (hand and melds) of a regular hand and is
    empty for chiitoitsu and kokushi; ``pair`` is the pair kind (-1 when the
    form has none).  ``wait`` is one of the ``WAIT_*`` names (chiitoitsu
    always waits tanki).
    """

    form: str
    groups: tuple[Group, ...]
    pair: int
    wait: str
    win_kind: int


@lru_cache(maxsize=1 << 14)
def _suit_splits(counts: tuple[int, ...], honors: bool) -> tuple[Reading, ...]:
    """Every split of one suit into sets and at most one pair (pair -1 = none).

    Kinds are indices into ``counts``.  Order: the first non-empty kind is
    taken as a pair, a triplet or the start of a run, so each reading is
    produced exactly once.
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


@lru_cache(maxsize=1 << 14)
def _suit_readings(part: tuple[int, ...], lo: int) -> tuple[Reading, ...]:
    """``_suit_splits`` of the suit starting at kind ``lo``, in absolute kinds."""
    return tuple(
        (p + lo if p >= 0 else -1, tuple((f, k + lo) for f, k in sets))
        for p, sets in _suit_splits(part, lo == 27)
    )


@lru_cache(maxsize=1 << 16)
def hand_readings(counts: tuple[int, ...]) -> tuple[Reading, ...]:
    """All regular readings (one pair + sets) of a 3n+2 count tuple, kinds 0-33."""
    if sum(counts) % 3 != 2:
        return ()
    per_suit: list[tuple[Reading, ...]] = []
    sets: list[SuitSet]
    for lo in (0, 9, 18, 27):
        part = counts[lo : lo + 9]
        if not any(part):
            continue
        splits = _suit_readings(part, lo)
        if not splits:
            return ()
        per_suit.append(splits)
    if all(len(s) == 1 for s in per_suit):
        pair = -1
        sets = []
        for ((p, ss),) in per_suit:
            if p >= 0:
                if pair >= 0:
                    return ()
                pair = p
            sets.extend(ss)
        return ((pair, tuple(sets)),) if pair >= 0 else ()
    out: list[Reading] = []
    for combo in product(*per_suit):
        pair = -1
        sets = []
        for p, ss in combo:
            if p >= 0:
                if pair >= 0:
                    break
                pair = p
            sets.extend(ss)
        else:
            if pair >= 0:
                out.append((pair, tuple(sets)))
    return tuple(out)


def is_chiitoitsu_counts(counts: tuple[int, ...]) -> bool:
    """Seven distinct pairs (Tenhou does not read four of a kind as two pairs)."""
    return counts.count(2) == 7 and sum(counts) == 14


def is_kokushi_counts(counts: tuple[int, ...]) -> bool:
    if not counts[0] or not counts[33] or sum(counts) != 14:
        return False
    if any(counts[k] == 0 for k in KOKUSHI_KINDS):
        return False
    return all(counts[k] == 0 for k in range(NUM_KINDS) if k not in KOKUSHI_KINDS) and any(
        counts[k] == 2 for k in KOKUSHI_KINDS
    )


@lru_cache(maxsize=1 << 12)
def meld_group(meld: Meld) -> Group | None:
    """The set a call makes (None for kita, which is not a set)."""
    kinds = meld.kinds
    match meld.kind:
        case MeldKind.CHI:
            return Group(RUN, min(kinds), False, True)
        case MeldKind.PON:
            return Group(TRIPLET, kinds[0], False, True)
        case MeldKind.DAIMINKAN | MeldKind.KAKAN:
            return Group(KAN, kinds[0], False, True)
        case MeldKind.ANKAN:
            return Group(KAN, kinds[0], True, False)
    return None


def _run_wait(start: int, win: int) -> str:
    if win == start + 1:
        return WAIT_KANCHAN
    if win == start and start % 9 == 6:
        return WAIT_PENCHAN
    if win == start + 2 and start % 9 == 0:
        return WAIT_PENCHAN
    return WAIT_RYANMEN


_CONCEALED: Final = {(f, k): Group(f, k, True) for f in (RUN, TRIPLET) for k in range(NUM_KINDS)}
_RON_TRIPLET: Final = {k: Group(TRIPLET, k, False) for k in range(NUM_KINDS)}


def shapes(
    counts: tuple[int, ...], win_kind: int, meld_groups: tuple[Group, ...], tsumo: bool
) -> list[Shape]:
    """Every reading of the concealed ``counts`` (winning tile included) with the
    winning tile placed in each set it can belong to; empty when not complete."""
    out: list[Shape] = []
    if not meld_groups:
        if is_kokushi_counts(counts):
            wait = WAIT_KOKUSHI13 if counts[win_kind] == 2 else WAIT_KOKUSHI
            return [Shape(FORM_KOKUSHI, (), -1, wait, win_kind)]
        if is_chiitoitsu_counts(counts):
            out.append(Shape(FORM_CHIITOITSU, (), -1, WAIT_TANKI, win_kind))
    for pair, sets in hand_readings(counts):
        base = tuple(_CONCEALED[s] for s in sets) + meld_groups
        if pair == win_kind:
            out.append(Shape(FORM_REGULAR, base, pair, WAIT_TANKI, win_kind))
        last: tuple[int, int] | None = None
        for i, fk in enumerate(sets):
            if fk == last:
                continue
            f, k = fk
            if f == TRIPLET:
                if k != win_kind:
                    continue
                last = fk
                groups = base
                if not tsumo:
                    groups = (*base[:i], _RON_TRIPLET[k], *base[i + 1 :])
                out.append(Shape(FORM_REGULAR, groups, pair, WAIT_SHANPON, win_kind))
            elif k <= win_kind <= k + 2:
                last = fk
                out.append(Shape(FORM_REGULAR, base, pair, _run_wait(k, win_kind), win_kind))
    return out
