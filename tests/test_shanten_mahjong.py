"""The compiled shanten (``_core.shanten``) against an independent implementation, the
``mahjong`` package's ``Shanten`` (2.1.0), on a fixed sample chosen for the structures
where the two searches differ: ours splits each suit into Pareto-best options and
prunes the hands with no kind held four times another way; ``mahjong`` runs one
depth-first search with its own shortcuts.  Both carry the same three corrections for
kinds held four times, so the sample is heavy in those.

``tests/test_core_shanten.py`` holds the core equal to the Python reference
(``_py_shanten``); this file holds it to an outside answer.  The exhaustive check behind
it (round 11, helper V, a script outside the suite) found no disagreement: every
one-suit hand of 1-14 tiles in each suit and in the honors (312,732 a suit, 31,495
honors), a uniform sample of 1,500,000 of the 1,307,268,390 hands made of two parts'
patterns, and 1,000,000 random 13- and 14-tile hands each from a full wall; the one-suit
man and honor hands also against the exact answer by definition (the fewest tiles to
change into a complete hand, minus one).

Only hand sizes ``mahjong`` accepts are compared: 1, 2, 4, 5, 7, 8, 10, 11, 13, 14
tiles (it rejects multiples of three, which no hand holds between draws).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import pytest

from replay_audit.native import _core
from tests.conftest import core_built, one_suit_patterns

mahjong_shanten = pytest.importorskip("mahjong.shanten")

pytestmark = core_built("shanten")

core: Any = _core

Hand = tuple[int, ...]
_SEED = 20261203
_PARTS = ((0, 9), (9, 9), (18, 9), (27, 7))
_ONE_SUIT_MOST = 8
"""Every one-suit pattern up to this many tiles (the 9s are skipped as multiples of
three): 19,242 man and 4,635 honor hands, about a second of ``mahjong``'s time."""


def _from_parts(pieces: Sequence[tuple[int, Sequence[int]]]) -> Hand:
    counts = [0] * 34
    for lo, pattern in pieces:
        counts[lo : lo + len(pattern)] = pattern
    return tuple(counts)


def _one_suit_hands() -> list[Hand]:
    """Each man pattern (pin and sou run the same code at other offsets) and each honor
    pattern up to ``_ONE_SUIT_MOST`` tiles, as a hand by itself."""
    return [
        _from_parts([(lo, p)])
        for lo, n in ((0, 9), (27, 7))
        for p in one_suit_patterns(n, _ONE_SUIT_MOST)
        if sum(p) % 3
    ]


def _wall_hands(rng: random.Random, size: int, count: int) -> list[Hand]:
    """``count`` hands of ``size`` tiles drawn from a full wall (as dealt or drawn)."""
    hands: list[Hand] = []
    for _ in range(count):
        counts = [0] * 34
        for tile in rng.sample(range(136), size):
            counts[tile >> 2] += 1
        hands.append(tuple(counts))
    return hands


def _crowded_hands(rng: random.Random, count: int) -> list[Hand]:
    """13 or 14 tiles in two parts, each kind drawn as 0-4 copies with most weight on
    3 and 4: kinds held four times in both parts, where one part's best split must give
    up its head to the other's (the pruning's hard case) and where the corrections
    apply."""
    hands: list[Hand] = []
    while len(hands) < count:
        (lo_a, n_a), (lo_b, n_b) = rng.sample(_PARTS, 2)
        size = rng.choice((13, 14))
        counts = [0] * 34
        kinds = [lo_a + i for i in range(n_a)] + [lo_b + i for i in range(n_b)]
        rng.shuffle(kinds)
        for kind in kinds:
            room = size - sum(counts)
            counts[kind] = min(room, rng.choice((0, 0, 1, 2, 3, 4, 4)))
        if sum(counts) == size:
            hands.append(tuple(counts))
    return hands


@cache
def _sample() -> tuple[tuple[Hand, int], ...]:
    """The fixed sample with ``mahjong``'s answers, computed once a session (the
    planted-difference tests reuse it)."""
    rng = random.Random(_SEED)
    hands = _one_suit_hands()
    for size in (13, 14):
        hands += _wall_hands(rng, size, 4000)
    for size in (1, 2, 4, 5, 7, 8, 10, 11):
        hands += _wall_hands(rng, size, 300)
    hands += _crowded_hands(rng, 4000)
    calculate = mahjong_shanten.Shanten.calculate_shanten
    return tuple((h, calculate(list(h))) for h in hands)


def _disagreements(shanten: Callable[[list[int]], int | None]) -> list[tuple[Hand, Any, int]]:
    """Each hand of the sample where ``shanten`` and ``mahjong`` differ, with both."""
    out = []
    for hand, expected in _sample():
        got = shanten(list(hand))
        if got != expected:
            out.append((hand, got, expected))
    return out


def test_the_sample_covers_the_structures_that_matter() -> None:
    """Sizes, answers from complete to far, and kinds held four times, in suits and in
    the honors, several in one hand."""
    sample = _sample()
    assert len(sample) == 19_242 + 4_635 + 8_000 + 2_400 + 4_000
    assert {sum(h) for h, _ in sample} == {1, 2, 4, 5, 7, 8, 10, 11, 13, 14}
    assert {v for _, v in sample} >= set(range(-1, 7))
    assert sum(1 for h, _ in sample if 4 in h[:27] and sum(h) >= 13) > 1000
    assert sum(1 for h, _ in sample if 4 in h[27:] and sum(h) >= 13) > 500
    assert sum(1 for h, _ in sample if h.count(4) >= 2) > 500


def test_core_shanten_equals_the_mahjong_package() -> None:
    assert _disagreements(core.shanten) == []


def _plant(where: Callable[[Hand], bool]) -> Callable[[list[int]], int | None]:
    """The core's answer, one too high on the hands ``where`` picks."""

    def planted(counts: list[int]) -> int | None:
        value: int | None = core.shanten(counts)
        return value + 1 if value is not None and where(tuple(counts)) else value

    return planted


@pytest.mark.parametrize(
    "where",
    [
        pytest.param(lambda h: 4 in h[:27] and sum(h) == 13, id="suit-kind-four-times"),
        pytest.param(lambda h: 4 in h[27:] and sum(h) == 14, id="honor-four-times"),
        pytest.param(lambda h: h.count(4) >= 3, id="three-kinds-four-times"),
        pytest.param(lambda h: sum(h) == 1, id="one-tile"),
        pytest.param(lambda h: sum(h) == 8 and max(h[27:]) == 0, id="eight-suited"),
        pytest.param(lambda h: sum(1 for x in h if x >= 2) == 6, id="six-pairs"),
    ],
)
def test_a_planted_difference_is_found(where: Callable[[Hand], bool]) -> None:
    """The comparison above can fail: a shanten wrong on any one of these shapes
    differs from ``mahjong`` somewhere in the sample."""
    assert _disagreements(_plant(where))
