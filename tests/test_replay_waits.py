"""The replayer's suit-by-suit waits (``replay.wait_mask``) against ``agari.waits``.

The replayer computes waits per suit with a memo (it is the hot part of the
replay); ``agari.waits`` tries every kind with a full ``is_complete``.  They
must agree on every hand, tenpai or not, so the hands here are drawn near
tenpai: a complete hand (sets, pair, seven pairs or kokushi) less one tile,
sometimes with one tile swapped, plus plain random hands.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.tiles import TERMINALS_AND_HONORS, counts34, parse_tiles
from replay_audit.replay.waits import _has_wait, _waits
from replay_audit.scoring.agari import waits as agari_waits


@st.composite
def _regular(draw: st.DrawFn) -> list[int]:
    """A complete 14-tile regular hand (at most four copies of a kind)."""
    counts = [0] * 34
    pair = draw(st.integers(0, 33))
    counts[pair] += 2
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            k = draw(st.integers(0, 26).filter(lambda k: k % 9 <= 6))
            if all(counts[k + i] < 4 for i in range(3)):
                for i in range(3):
                    counts[k + i] += 1
        else:
            k = draw(st.integers(0, 33))
            if counts[k] <= 1:
                counts[k] += 3
    return counts


@st.composite
def _seven_pairs(draw: st.DrawFn) -> list[int]:
    counts = [0] * 34
    for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
        counts[k] = 2
    return counts


@st.composite
def _kokushi(draw: st.DrawFn) -> list[int]:
    counts = [0] * 34
    for k in TERMINALS_AND_HONORS:
        counts[k] = 1
    counts[draw(st.sampled_from(sorted(TERMINALS_AND_HONORS)))] += 1
    return counts


@st.composite
def _near_tenpai(draw: st.DrawFn) -> list[int]:
    """A complete hand less one tile, sometimes with one more tile swapped."""
    counts = draw(st.one_of(_regular(), _seven_pairs(), _kokushi()))
    held = [k for k in range(34) if counts[k]]
    counts[draw(st.sampled_from(held))] -= 1
    if draw(st.booleans()):
        held = [k for k in range(34) if counts[k]]
        counts[draw(st.sampled_from(held))] -= 1
        k = draw(st.integers(0, 33).filter(lambda k: counts[k] < 4))
        counts[k] += 1
    return counts


@settings(max_examples=1500, deadline=None)
@given(_near_tenpai())
def test_suit_waits_equal_agari_waits(counts: list[int]) -> None:
    expected = agari_waits(counts)
    assert _waits(list(counts)) == expected
    assert _has_wait(list(counts)) == bool(expected)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=0, max_size=14))
def test_suit_waits_any_size(kinds: list[int]) -> None:
    """Any tile count (broken hands reach the replayer too)."""
    counts = [0] * 34
    for k in kinds:
        counts[k] = min(4, counts[k] + 1)
    assert _waits(list(counts)) == agari_waits(counts)


def test_known_waits() -> None:
    cases = {
        "1112345678999m": set(range(9)),  # nine-sided chuuren
        "19m19p19s1234567z": set(TERMINALS_AND_HONORS),  # thirteen-sided kokushi
        "1122334455667m": {0, 3, 6},  # seven pairs on 7m, regular on 1m, 4m and 7m
        "1111m234p567s777z": set(),  # only a 1m tanki, and all four 1m are held
        "123m456p789s1122z": {27, 28},  # shanpon on two honors
    }
    for text, want in cases.items():
        counts = counts34(parse_tiles(text))
        assert _waits(counts) == agari_waits(counts) == want, text
