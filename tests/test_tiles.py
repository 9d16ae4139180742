"""Tile ids, notation and tenhou.net/6 codes, red fives and dora wrap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replay_audit.model.tiles import (
    dora_of,
    from_tenhou6,
    is_red,
    is_valid_tile,
    kind,
    parse_tiles,
    tenhou6_kind,
    to_notation,
    to_tenhou6,
)


def test_kinds_and_red_fives() -> None:
    assert [kind(t) for t in (0, 3, 4, 135)] == [0, 0, 1, 33]
    assert all(is_red(t) for t in (16, 52, 88))
    assert not any(is_red(t, aka=False) for t in (16, 52, 88))
    assert not is_red(17)


def test_notation_with_and_without_aka() -> None:
    assert parse_tiles("0m5m") == [16, 17]
    assert to_notation([16, 17, 52, 88, 108]) == "05m0p0s1z"
    assert to_notation([16, 17, 52, 88, 108], aka=False) == "55m5p5s1z"


@pytest.mark.parametrize("bad", ["5m5m5m5m5m", "8z", "0z", "123", "m", "12x"])
def test_bad_notation(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_tiles(bad)


@given(st.sets(st.integers(0, 135), max_size=14))
def test_notation_round_trip_keeps_kinds_and_redness(tiles: set[int]) -> None:
    text = to_notation(tiles)
    back = parse_tiles(text)
    assert sorted(kind(t) for t in back) == sorted(kind(t) for t in tiles)
    assert sorted(is_red(t) for t in back) == sorted(is_red(t) for t in tiles)
    assert to_notation(back) == text


@given(st.integers(0, 135), st.booleans())
def test_tenhou6_round_trip(tile: int, aka: bool) -> None:
    code = to_tenhou6(tile, aka)
    k, red = tenhou6_kind(code)
    assert k == kind(tile) and red == is_red(tile, aka)
    assert kind(from_tenhou6(code)) == kind(tile)
    assert is_red(from_tenhou6(code)) == red


def test_tenhou6_codes() -> None:
    assert [to_tenhou6(t) for t in (0, 16, 17, 52, 88, 94, 108, 135)] == [
        11,
        51,
        15,
        52,
        53,
        36,
        41,
        47,
    ]
    assert [to_tenhou6(t, aka=False) for t in (16, 52, 88)] == [15, 25, 35]
    with pytest.raises(ValueError):
        tenhou6_kind(48)
    with pytest.raises(ValueError):
        tenhou6_kind(10)


@pytest.mark.parametrize(
    ("indicator", "players", "dora"),
    [
        (0, 4, 1),  # 1m -> 2m
        (8, 4, 0),  # 9m -> 1m
        (17, 4, 9),  # 9p -> 1p
        (26, 4, 18),  # 9s -> 1s
        (30, 4, 27),  # North -> East
        (27, 4, 28),
        (33, 4, 31),  # Chun -> Haku
        (31, 4, 32),
        (0, 3, 8),  # three-player: 1m -> 9m
        (8, 3, 0),  # 9m -> 1m
        (17, 3, 9),  # pin and sou wrap as usual
        (30, 3, 27),
    ],
)
def test_dora_wrap(indicator: int, players: int, dora: int) -> None:
    assert dora_of(indicator, players) == dora


def test_valid_tiles_per_player_count() -> None:
    assert is_valid_tile(4, 4) and not is_valid_tile(4, 3)
    assert is_valid_tile(3, 3) and is_valid_tile(32, 3)
    assert not is_valid_tile(136) and not is_valid_tile(-1)
