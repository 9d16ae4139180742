"""The compiled core's waits and completeness (``_core.wait_mask``, ``_core.is_complete``
and their tile-id forms, ``src/core/waits.cpp``) give exactly the pure-Python answers
(``replay.waits._py_wait_mask``, ``scoring.agari._py_is_complete``): on every concealed
hand the replay asks about over the shared corpus, on made-up hands of 1 to 14 tiles
(near-complete regular hands, seven pairs, kokushi, kinds held four times) and on
every pattern of counts a single suit can hold.  The Python code stays the reference:
it answers without the core, and whenever the core declines an input.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.io.paths import iter_log_paths
from replay_audit.model.tiles import TERMINALS_AND_HONORS, counts34, parse_tiles
from replay_audit.native import _core
from replay_audit.replay import table, waits
from replay_audit.scoring import agari
from tests.conftest import CORPUS, need, one_suit_patterns
from tests.test_replay_waits import _regular, _seven_pairs

pytestmark = pytest.mark.skipif(
    waits.CORE_WAIT_MASK is None or agari.CORE_IS_COMPLETE is None, reason="no compiled core"
)

_KOKUSHI = sorted(TERMINALS_AND_HONORS)


def _tiles(counts: list[int]) -> list[int]:
    """Tile ids with these counts (copies 0, 1, ... of each kind)."""
    return [4 * k + j for k in range(34) for j in range(counts[k])]


def _agree(counts: list[int]) -> None:
    """The core (counts and tile ids) and the Python reference agree on both questions."""
    core: Any = _core
    tiles = _tiles(counts)
    mask = waits._py_wait_mask(list(counts))
    assert core.wait_mask(counts) == mask, counts
    assert core.tiles_wait_mask(tiles) == mask, counts
    assert waits.wait_mask(counts) == mask
    assert waits.hand_wait_mask(tiles) == mask
    done = agari._py_is_complete(counts)
    assert core.is_complete(counts) is done, counts
    assert core.tiles_complete(tiles) is done, counts
    assert agari.is_complete(counts) is done
    assert agari.is_complete_tiles(tiles) is done


# ------------------------------------------------------------------ the corpus


def test_the_core_agrees_on_every_hand_of_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand the replay's waits and completeness checks see (riichi discards,
    furiten, exhaustive and triple-ron draws, wins), recorded on its way to the core
    while the corpus is validated, then asked again of the core and of Python."""
    from replay_audit.auditing.auditor import validate_file

    need(CORPUS)
    seen: set[tuple[str, tuple[int, ...]]] = set()

    def recording(name: str, module: Any, tiles: bool) -> None:
        real: Callable[[list[int]], object] = getattr(module, name)

        def record(hand: list[int]) -> object:
            seen.add((name, tuple(counts34(hand)) if tiles else tuple(hand)))
            return real(hand)

        monkeypatch.setattr(module, name, record)

    recording("CORE_WAIT_MASK", waits, False)
    recording("CORE_TILES_WAIT_MASK", waits, True)
    recording("CORE_IS_COMPLETE", agari, False)
    recording("CORE_TILES_COMPLETE", agari, True)
    # The core's hand loop asks the waits of an exhaustive draw in C: the Python loop,
    # whose rooms ask them here, replays instead (the same replay, tests/test_core_replay*).
    monkeypatch.setattr(table, "CORE_RUN", None)
    monkeypatch.setattr(table, "CORE_GAME", None)
    paths = list(iter_log_paths([CORPUS]))
    assert len(paths) > 2000
    for path in paths:
        validate_file(path)
    asked = {name for name, _ in seen}
    assert asked == {"CORE_WAIT_MASK", "CORE_TILES_WAIT_MASK", "CORE_TILES_COMPLETE"}
    hands = {h for _, h in seen}
    assert len(hands) > 10000
    for counts in hands:
        _agree(list(counts))


# ------------------------------------------------------------------ made-up hands


@st.composite
def _complete(draw: st.DrawFn) -> list[int]:
    """A complete hand of 2 to 14 tiles (sets and a pair, seven pairs or kokushi),
    at most four of a kind; quads kept on purpose."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(_seven_pairs())
    if shape == 1:
        counts = [0] * 34
        for k in _KOKUSHI:
            counts[k] = 1
        counts[draw(st.sampled_from(_KOKUSHI))] += 1
        return counts
    return draw(_regular())


@st.composite
def _hand(draw: st.DrawFn) -> list[int]:
    """A hand of 1, 4, 7, 10, 13 or 14 tiles: a complete one, less a tile (a wait
    or not), maybe with a tile swapped; or any tiles, or a kind or more held four times."""
    how = draw(st.integers(0, 3))
    if how == 0:  # any tiles, at most four of a kind
        size = draw(st.sampled_from([1, 4, 7, 10, 13, 14]))
        kinds = draw(st.lists(st.integers(0, 33), min_size=size, max_size=size))
        counts = [0] * 34
        for k in kinds:
            if counts[k] < 4:
                counts[k] += 1
        return counts
    counts = draw(_complete())
    if how == 1:  # quads: kinds held four times, in sets or left over
        for k in draw(st.lists(st.integers(0, 33), min_size=1, max_size=3, unique=True)):
            while counts[k] < 4 and sum(counts) < 14:
                counts[k] += 1
    if sum(counts) % 3 == 2 and draw(st.booleans()):
        held = [k for k in range(34) if counts[k]]
        counts[draw(st.sampled_from(held))] -= 1
    if draw(st.booleans()):
        held = [k for k in range(34) if counts[k]]
        if held:
            counts[draw(st.sampled_from(held))] -= 1
            counts[draw(st.integers(0, 33).filter(lambda k: counts[k] < 4))] += 1
    return counts


@settings(max_examples=1500, deadline=None)
@given(_hand())
def test_the_core_agrees_on_made_up_hands(counts: list[int]) -> None:
    _agree(counts)


@pytest.mark.parametrize(
    "text",
    [
        "1m",
        "1111m",  # a wait on a kind held four times is none
        "1112345678999m",  # nine gates: every kind of the suit
        "1122334455667z",  # seven pairs on the single
        "1122334455666z",  # six pairs and a triplet: 7z only by the regular shape
        "19m19p19s1234567z",  # kokushi, thirteen-sided
        "19m19p19s1234566z",  # kokushi on 7z
        "1111m2222p3333s44z",  # quads do not make seven pairs
        "11112222333344m",
        "123456789m1122p",
    ],
)
def test_the_core_agrees_on_named_shapes(text: str) -> None:
    _agree(counts34(parse_tiles(text)))


# ------------------------------------------------------------------ one suit, exhaustive


@pytest.mark.parametrize(
    ("suit", "part", "parts"), [(0, 0, 4), (0, 1, 4), (0, 2, 4), (0, 3, 4), (3, 0, 1)]
)
def test_the_core_agrees_on_every_one_suit_pattern(suit: int, part: int, parts: int) -> None:
    """Each pattern of one suit (man, sou, honors) up to 13 tiles as a hand by itself,
    and up to 11 tiles next to a pair of another suit (a wait either in this suit with
    the pair elsewhere, or on the pair: both branches of ``wait_mask``).  The man
    suit's patterns in four shards (every fourth pattern each), together all of them."""
    lo = 9 * suit
    n = 7 if suit == 3 else 9
    pair = 13 if suit == 0 else 4  # 5p beside man, else 5m
    for p in itertools.islice(one_suit_patterns(n, 13), part, None, parts):
        counts = [0] * 34
        counts[lo : lo + n] = p
        _agree(counts)
        if sum(p) <= 11:
            counts[pair] = 2
            _agree(counts)


def test_the_core_declines_what_python_reads_another_way() -> None:
    """Inputs outside the core's domain (a count above 4, an id outside 0-135, not a
    list) come back None, and the Python functions answer them."""
    core: Any = _core
    assert core.wait_mask([5] + [0] * 33) is None
    assert core.wait_mask([0] * 33) is None
    assert core.wait_mask(iter([0] * 34)) is None
    assert core.tiles_wait_mask([136]) is None
    assert core.tiles_wait_mask([-1]) is None
    assert core.tiles_complete([0, 1, 2, 3, 3]) is None
    assert core.is_complete(["1"] * 34) is None
    assert waits.hand_wait_mask([0, 1, 2, 3, 0]) == waits._py_wait_mask(counts34([0, 1, 2, 3, 0]))
    assert agari.is_complete([5] + [0] * 33) is agari._py_is_complete([5] + [0] * 33)


def test_hands_tenpai_is_each_hands_wait_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hands_tenpai`` (an exhaustive draw's seats at once) answers as
    ``hand_wait_mask`` of each hand: from the core's masks, with a hand the core
    declines among them (then every hand through ``hand_wait_mask``), and without
    the core."""
    hands = [
        parse_tiles("123456789m1122p"),  # tenpai
        parse_tiles("1112345678999m"),  # nine gates: every kind of the suit
        parse_tiles("19m19p19s1234567z"),  # kokushi, thirteen-sided
        parse_tiles("1357m2468p1357s9m"),  # noten
    ]
    expected = tuple(bool(waits.hand_wait_mask(h)) for h in hands)
    assert expected == (True, True, True, False)
    assert waits.hands_tenpai(hands) == expected
    declined = [0, 1, 2, 3, 0]  # a fifth copy: the core says None, Python reads it
    with_declined = [*hands, declined]
    assert waits.hands_tenpai(with_declined) == (
        *expected,
        bool(waits._py_wait_mask(counts34(declined))),
    )
    monkeypatch.setattr(waits, "CORE_TILES_WAIT_MASK", None)
    assert waits.hands_tenpai(hands) == expected
    assert waits.hands_tenpai([]) == ()
