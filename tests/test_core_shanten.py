"""The compiled core's shanten (``_core.shanten`` and ``_core.start_shanten``,
``src/core/shanten.cpp``) gives exactly the pure-Python answers
(``scoring.shanten._py_shanten``, ``stats.identity._py_start_shanten``): on every dealt
hand of the shared corpus, on every pattern one suit or the honors can hold up to 14
tiles, on random hands of 13 and 14 tiles (kinds held four times among them) and on the
module's doctest hands.  The Python stays the reference: it answers without the core
and wherever the core declines an input, which the declines below check.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.io.paths import iter_log_paths
from replay_audit.io.read import read_log
from replay_audit.native import _core
from replay_audit.scoring import shanten
from replay_audit.scoring.shanten import _c, _py_shanten
from replay_audit.stats import identity
from replay_audit.stats.identity import _py_start_shanten
from tests.conftest import CORPUS, core_built, need, one_suit_patterns

pytestmark = core_built("shanten", "start_shanten")

core: Any = _core

_INIT = re.compile(rb"<INIT [^>]*>")
_SEAT_HAI = re.compile(rb'\bhai[0-3]="([0-9,]*)"')


def _counts(tiles: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * 34
    for t in tiles:
        counts[t >> 2] += 1
    return tuple(counts)


def _dealt_hands() -> Iterator[tuple[int, ...]]:
    """Every seat's dealt tiles in the corpus: the mjlog INIT ``hai0``-``hai3``
    attributes (read straight from the XML, which is all this needs), and the JSON
    logs' hands as the JSON reader gives them."""
    for path in iter_log_paths([CORPUS]):
        name = str(path)
        if name.endswith(".json"):
            for hand in read_log(path, strict=False).hands:
                yield from (tuple(h) for h in hand.haipai if h)
            continue
        data = gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_bytes()
        for init in _INIT.findall(data):
            for hai in _SEAT_HAI.findall(init):
                if hai:
                    yield tuple(int(t) for t in hai.split(b","))


def test_every_dealt_hand_of_the_corpus() -> None:
    """Each distinct dealt hand (~113,000) as ``aggregate`` passes it (the hand facts'
    hex string) and as tile ids; the Python reference once per distinct count pattern."""
    need(CORPUS)
    hands = set(_dealt_hands())
    assert len(hands) > 100_000
    by_counts: dict[tuple[int, ...], int | None] = {}
    for tiles in hands:
        key = _counts(tiles)
        if key not in by_counts:
            by_counts[key] = _py_start_shanten(tiles)
        expected = by_counts[key]
        assert expected is not None
        text = bytes(tiles).hex()
        assert core.start_shanten(text) == expected, text
        assert core.start_shanten(tiles) == expected, text
        assert core.shanten(list(key)) == expected, text
    assert set(by_counts.values()) >= {0, 1, 2, 3, 4, 5}


# ------------------------------------------------------------ one suit, exhaustive


_SMALL = 7
"""Every one-suit pattern is checked up to this many tiles: the Python reference costs
about a millisecond a pattern past that (its option sets grow), ~8 minutes of CPU for
the 405,350 man patterns up to 14 tiles; the larger ones are sampled below."""


@pytest.mark.parametrize(("lo", "n", "count"), [(0, 9, 10_945), (27, 7, 3_180)])
def test_every_small_one_suit_pattern(lo: int, n: int, count: int) -> None:
    """Each pattern of the man suit (the pin and sou suits take the same code at other
    offsets; the random hands below mix all four parts) and of the honors up to
    ``_SMALL`` tiles, as a hand by itself."""
    seen = 0
    for p in one_suit_patterns(n, _SMALL):
        counts = [0] * 34
        counts[lo : lo + n] = p
        assert core.shanten(counts) == _py_shanten(counts), p
        seen += 1
    assert seen == count


@settings(max_examples=400, deadline=None)
@given(st.booleans(), st.lists(st.integers(0, 4), min_size=9, max_size=9))
def test_large_one_suit_patterns(honors: bool, pattern: list[int]) -> None:
    """One suit (or the honors) holding 8 to 14 tiles, sampled."""
    n = 7 if honors else 9
    part = pattern[:n]
    while sum(part) > 14:
        part[part.index(max(part))] -= 1
    counts = [0] * 34
    counts[27 if honors else 0 : 34 if honors else 9] = part
    assert core.shanten(counts) == _py_shanten(counts), part


# ------------------------------------------------------------ random full hands


@st.composite
def _full_hand(draw: st.DrawFn) -> list[int]:
    """13 or 14 tiles, at most four of a kind; often crowded into few kinds, so kinds
    held four times (honors too) come up, with 4-of-a-kind honors asked for outright."""
    size = draw(st.sampled_from([13, 14]))
    counts = [0] * 34
    for k in draw(st.lists(st.integers(27, 33), max_size=3, unique=True)):
        counts[k] = 4
    kinds = draw(
        st.lists(st.integers(0, 33), min_size=4, max_size=34, unique=True)
        | st.just(list(range(34)))
    )
    picks = draw(st.lists(st.sampled_from(kinds), min_size=40, max_size=40))
    for k in picks:
        if sum(counts) >= size:
            break
        if counts[k] < 4:
            counts[k] += 1
    while sum(counts) > size:
        counts[max(range(34), key=lambda k: counts[k])] -= 1
    k = 0
    while sum(counts) < size:
        counts[k] += counts[k] < 4
        k += 1
    return counts


@settings(max_examples=300, deadline=None)
@given(_full_hand())
def test_random_hands(counts: list[int]) -> None:
    assert sum(counts) in (13, 14)
    assert core.shanten(counts) == _py_shanten(counts)
    assert core.shanten(tuple(counts)) == _py_shanten(counts)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123456789m1234p", 0),
        ("19m19p19s1234567z", 0),
        ("1111z2222z3333z4z", 3),
        ("1122m3344p5566s7z", 0),
        ("147m258p369s1234z", 6),
        ("123456789m11p", -1),
        ("1111m2222p3333s44z", 1),  # quads make no seven pairs
        ("11112222333344m", -1),
    ],
)
def test_doctest_and_named_hands(text: str, expected: int) -> None:
    counts = _c(text)
    assert _py_shanten(counts) == expected
    assert core.shanten(counts) == expected
    assert shanten.shanten(counts) == expected


def test_start_shanten_doctest() -> None:
    dealt = bytes(range(0, 52, 4))
    assert core.start_shanten(dealt.hex()) == _py_start_shanten(dealt.hex()) == 0
    assert core.start_shanten(dealt) == 0
    assert identity.start_shanten(dealt) == 0


# ------------------------------------------------------------ declines


@pytest.mark.parametrize(
    "counts",
    [
        [0] * 33,  # wrong length
        [0] * 35,
        [5] + [0] * 33,  # a count of 5
        [-1] + [0] * 33,
        [1.0] + [0] * 33,  # not an int
        [True] + [0] * 33,  # not an exact int: the Python's to answer
        "0" * 34,  # not a list or tuple
    ],
)
def test_the_core_declines_what_it_does_not_read(counts: Any) -> None:
    assert core.shanten(counts) is None


def test_declined_counts_go_to_the_python() -> None:
    """The public function raises as the Python does, or answers as it does."""
    with pytest.raises(ValueError, match="34 counts"):
        shanten.shanten([0] * 33)
    quirk = [5, 1, 1] + [0] * 31
    assert shanten.shanten(quirk) == _py_shanten(quirk)


@pytest.mark.parametrize(
    "dealt",
    [
        "00" * 12,  # 12 tiles
        "00" * 14,
        "",
        bytes(12),
        tuple(range(12)),
        tuple(range(14)),
    ],
)
def test_not_thirteen_tiles_is_none(dealt: Any) -> None:
    assert _py_start_shanten(dealt) is None
    assert core.start_shanten(dealt) is None
    assert identity.start_shanten(dealt) is None


@pytest.mark.parametrize(
    "dealt",
    [
        " ".join(["00"] * 13),  # bytes.fromhex reads spaces: the Python's call
        "0g" + "00" * 12,  # not hex
        bytes([136]) + bytes(12),  # an id beyond 135
        (0, 0, 0, 0, 0, *range(8, 16)),  # a fifth tile of a kind
        (-1, *range(12)),
        (0.0, *range(4, 52, 4)),
        bytearray(range(0, 52, 4)),  # not exact bytes
        None,
    ],
)
def test_start_shanten_declines(dealt: Any) -> None:
    assert core.start_shanten(dealt) is None


def test_declined_dealt_go_to_the_python() -> None:
    spaced = " ".join(f"{t:02x}" for t in range(0, 52, 4))
    assert identity.start_shanten(spaced) == _py_start_shanten(spaced) == 0
    with pytest.raises(IndexError):
        identity.start_shanten(bytes([136]) + bytes(12))


def test_wrong_argument_count_raises() -> None:
    with pytest.raises(TypeError):
        core.shanten()
    with pytest.raises(TypeError):
        core.start_shanten("", "")


def test_without_the_core_the_python_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shanten, "CORE_SHANTEN", None)
    monkeypatch.setattr(identity, "CORE_START_SHANTEN", None)
    assert shanten.shanten(_c("147m258p369s1234z")) == 6
    assert identity.start_shanten(bytes(range(0, 52, 4)).hex()) == 0
