"""Toutenkou point scoring, dora quirk and payments, every number from seed 002."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replay_audit.model.rules.presets import PRESETS
from replay_audit.scoring.payments import conservation_ok
from replay_audit.scoring.toutenkou import (
    toutenkou_dora_of,
    toutenkou_draw_deltas,
    toutenkou_points,
    toutenkou_win_deltas,
)

TK = PRESETS["toutenkou"]
PLAIN = {
    "dealer": False,
    "menzen": False,
    "honba": 0,
    "gari": 0,
    "red_gari": 0,
    "minkan": 0,
    "ankan": 0,
    "sets": 0,
    "ron": False,
    "karasu": False,
    "all_gari": False,
}


def pts(han: int = 1, yakuman: int = 0, **kw: object) -> int:
    args = dict(PLAIN)
    args.update(kw)
    return toutenkou_points(han, yakuman, **args)  # type: ignore[arg-type]


def test_banban_two_points_on_every_win() -> None:
    # An open 1-han tsumo by a non-dealer: 1 + banban 2.
    assert pts(1) == 3


@pytest.mark.parametrize(
    ("bonus", "extra"),
    [
        ({"dealer": True}, 1),  # oya
        ({"menzen": True}, 1),  # menzen
        ({"honba": 3}, 3),  # honba, 1 each
        ({"gari": 2}, 2),  # gari, 1 each
        ({"gari": 1, "red_gari": 1}, 2),  # 0m set aside counts 2
        ({"minkan": 2}, 4),  # minkan 2 each
        ({"ankan": 1}, 4),  # ankan 4 each
        ({"sets": 1, "gari": 4}, 8),  # set 4, stacks with its 4 gari
        ({"ron": True}, 8),  # ron
        ({"karasu": True}, 10),  # karasu, open
        ({"karasu": True, "menzen": True}, 21),  # karasu closed 20 + menzen 1
        ({"all_gari": True, "gari": 16, "red_gari": 1, "sets": 4}, 20 + 17 + 16),
    ],
)
def test_each_bonus(bonus: dict[str, object], extra: int) -> None:
    assert pts(2, **bonus) == 2 + 2 + extra


def test_bonuses_alone_are_no_win() -> None:
    # "A hand cannot be claimed with only those following yakus."
    assert pts(0, ron=True, gari=3, karasu=True) == 0


def test_yakuman_20_each_stacking_only_with_bonuses() -> None:
    # Regular han are dropped under a yakuman; the special bonuses stay.
    assert pts(5, yakuman=1) == 20 + 2
    assert pts(0, yakuman=2, ron=True, dealer=True, menzen=True) == 40 + 2 + 8 + 1 + 1


def test_dora_quirk_manzu() -> None:
    assert toutenkou_dora_of(0) == 8  # 1m -> 9m
    assert toutenkou_dora_of(8) == 0  # 9m -> 1m
    assert toutenkou_dora_of(4) is None  # 5m -> nothing
    with pytest.raises(ValueError):
        toutenkou_dora_of(1)  # 2m does not exist here


def test_dora_other_suits_and_honors_cycle_as_usual() -> None:
    assert toutenkou_dora_of(9) == 10 and toutenkou_dora_of(17) == 9  # 1p->2p, 9p->1p
    assert toutenkou_dora_of(26) == 18  # 9s -> 1s
    assert toutenkou_dora_of(30) == 27  # N -> E
    assert toutenkou_dora_of(33) == 31  # chun -> haku


def test_ron_paid_by_one_tsumo_by_two() -> None:
    ron = pts(1, ron=True, menzen=True)  # riichi 1 + 2 + 1 + 8 = 12
    assert ron == 12
    assert toutenkou_win_deltas(
        ron, winner=1, from_seat=0, players=3, sticks=0, first_winner=True, rules=TK
    ) == (-12, 12, 0)
    tsumo = pts(2, menzen=True)  # riichi + tsumo 2 + 2 + 1 = 5
    assert toutenkou_win_deltas(
        tsumo, winner=1, from_seat=1, players=3, sticks=0, first_winner=True, rules=TK
    ) == (-5, 10, -5)


def test_riichi_stick_is_one_point_to_the_first_winner_only() -> None:
    d = toutenkou_win_deltas(4, winner=2, from_seat=0, players=3, sticks=2, first_winner=True,
                             rules=TK)  # fmt: skip
    assert d == (-4, 0, 6)
    d2 = toutenkou_win_deltas(4, winner=1, from_seat=0, players=3, sticks=2, first_winner=False,
                              rules=TK)  # fmt: skip
    assert d2 == (-4, 4, 0)


def test_noten_penalty_20() -> None:
    assert TK.toutenkou_noten_penalty == 20
    assert toutenkou_draw_deltas([True, False, False], TK) == (20, -10, -10)
    assert toutenkou_draw_deltas([True, True, False], TK) == (10, 10, -20)
    assert toutenkou_draw_deltas([False, False, False], TK) == (0, 0, 0)


@given(
    st.integers(1, 40),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 4),
    st.booleans(),
)
def test_win_deltas_conserve_points(
    points: int, winner: int, from_seat: int, sticks: int, first: bool
) -> None:
    d = toutenkou_win_deltas(
        points,
        winner=winner,
        from_seat=from_seat,
        players=3,
        sticks=sticks,
        first_winner=first,
        rules=TK,
    )
    assert sum(d) == (sticks if first else 0)
    assert conservation_ok(d, sticks if first else 0, riichi_cost=1)
