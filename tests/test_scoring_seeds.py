"""The worked hands of the seed documents, scored by the engine.

Seed 000 (sanshoku doukou): a closed hand ``333m 333p 33s 99p 678s`` waiting on
3s or 9p, and a hand with pon 555m holding ``555p 555s 22p 99s``.  Seed 003
(multiple yakuman): five hands under the three yakuman conventions and the
yakuman point table.  Each test is named after what the document says.
"""

from __future__ import annotations

import dataclasses

import pytest

from replay_audit.model.rules.presets import TENHOU_4P
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.context import WinContext
from replay_audit.scoring.hand import context_from_notation as hand
from replay_audit.scoring.hand import score_win

RULES = TENHOU_4P
CLOSED = "333m333p33s99p678s"
PON_HAND = "555p555s22p99s"
PON = ["pon:555m"]


def ids(ctx: WinContext, rules: RuleSet = RULES) -> dict[int, int]:
    value = score_win(ctx, rules)
    assert value.ok, value.error
    return dict(value.yaku)


# ----------------------------------------------------------------- seed 000, closed hand


def test_closed_hand_tsumo_on_3s_is_doukou_sanankou_tsumo_mangan() -> None:
    v = score_win(hand(CLOSED, "3s", tsumo=True), RULES)
    assert dict(v.yaku) == {26: 2, 29: 2, 0: 1}
    assert (v.han, v.fu, v.limit) == (5, 40, 1)
    assert (v.tsumo_dealer_payment, v.tsumo_other_payment, v.points) == (4000, 2000, 8000)


def test_closed_hand_ron_on_3s_keeps_doukou_but_loses_sanankou() -> None:
    v = score_win(hand(CLOSED, "3s"), RULES)
    assert dict(v.yaku) == {26: 2}
    assert (v.han, v.fu) == (2, 40)
    assert dict(v.fu_items)["open triplet 3s"] == 2
    assert v.ron_payment == 2600
    assert score_win(hand(CLOSED, "3s", seat=0), RULES).ron_payment == 3900


def test_closed_hand_tsumo_on_9p_is_sanankou_tsumo_3_han_40_fu() -> None:
    v = score_win(hand(CLOSED, "9p", tsumo=True), RULES)
    assert dict(v.yaku) == {29: 2, 0: 1}
    assert (v.han, v.fu) == (3, 40)
    assert [f for _, f in v.fu_items] == [20, 2, 4, 4, 8]
    assert (v.tsumo_dealer_payment, v.tsumo_other_payment) == (2600, 1300)


def test_closed_hand_ron_on_9p_has_no_yaku() -> None:
    assert score_win(hand(CLOSED, "9p"), RULES).error == "no_yaku"


# ------------------------------------------------------------------ seed 000, pon hand


@pytest.mark.parametrize("win", ["2p", "9s"])
def test_pon_hand_ron_is_doukou_toitoi_4_han_40_fu_mangan(win: str) -> None:
    v = score_win(hand(PON_HAND, win, melds=PON), RULES)
    assert dict(v.yaku) == {26: 2, 28: 2}
    assert (v.han, v.fu, v.limit) == (4, 40, 1)
    assert v.ron_payment == 8000
    assert score_win(hand(PON_HAND, win, melds=PON, seat=0), RULES).ron_payment == 12000


@pytest.mark.parametrize("win", ["2p", "9s"])
def test_pon_hand_tsumo_adds_sanankou_for_a_haneman(win: str) -> None:
    v = score_win(hand(PON_HAND, win, melds=PON, tsumo=True), RULES)
    assert dict(v.yaku) == {26: 2, 28: 2, 29: 2}
    assert (v.han, v.limit) == (6, 2)
    assert (v.tsumo_dealer_payment, v.tsumo_other_payment) == (6000, 3000)


# -------------------------------------------------------------- seed 000, common mistakes


def test_mixed_numbers_555_555_666_are_not_doukou() -> None:
    assert 26 not in ids(hand("555m555p666s11z22", "2z", tsumo=True))


def test_open_doukou_keeps_2_han() -> None:
    assert ids(hand(PON_HAND, "2p", melds=PON))[26] == 2


def test_ron_completed_triplet_keeps_doukou_but_loses_sanankou() -> None:
    found = ids(hand(CLOSED, "3s"))
    assert 26 in found
    assert 29 not in found


def test_open_sanshoku_doujun_drops_to_1_han() -> None:
    closed = ids(hand("345m345p345s99m12s", "3s", riichi=True))
    opened = ids(hand("345m345p99m12s", "3s", melds=["chi:345s"]))
    assert closed[25] == 2
    assert opened[25] == 1


# ------------------------------------------------------------ seed 003, multiple yakuman

YAKUMAN_EXAMPLES = {
    # name: (hand, win, melds, can_ron, ids, counts single/cumulative/full)
    "daisuushii": ("333z444z1m", "1m", ["pon:111z", "pon:222z"], True, (49,), (1, 1, 2)),
    "shousuushii+tsuuiisou": (
        "333z44z55z",
        "5z",
        ["pon:111z", "pon:222z"],
        True,
        (42, 50),
        (1, 2, 2),
    ),
    "suuankou+daisangen": ("555z666z777z11m22m", "2m", [], False, (39, 40), (1, 2, 2)),
    "suuankou tanki+daisangen+tsuuiisou": (
        "555z666z777z111z4z",
        "4z",
        [],
        True,
        (39, 41, 42),
        (1, 3, 4),
    ),
    "tsuuiisou+suukantsu+suuankou tanki+daisuushii": (
        "5z",
        "5z",
        ["ankan:1111z", "ankan:2222z", "ankan:3333z", "ankan:4444z"],
        True,
        (41, 42, 49, 51),
        (1, 4, 6),
    ),
}
MODES = ("single", "cumulative", "full")


@pytest.mark.parametrize("name", YAKUMAN_EXAMPLES)
@pytest.mark.parametrize("mode_i", range(3), ids=MODES)
def test_multiple_yakuman_count_and_point_table(name: str, mode_i: int) -> None:
    text, win, melds, can_ron, expect_ids, counts = YAKUMAN_EXAMPLES[name]
    rules = dataclasses.replace(RULES, yakuman=MODES[mode_i])
    k = counts[mode_i]
    tsumo = score_win(hand(text, win, melds=melds, tsumo=True), rules)
    assert tsumo.yakuman == expect_ids
    assert tsumo.yakuman_count == k
    assert tsumo.limit == 5
    assert (tsumo.tsumo_dealer_payment, tsumo.tsumo_other_payment) == (16000 * k, 8000 * k)
    dealer_tsumo = score_win(hand(text, win, melds=melds, tsumo=True, seat=0), rules)
    assert dealer_tsumo.tsumo_dealer_payment == 16000 * k
    assert dealer_tsumo.points == 48000 * k
    if can_ron:
        assert score_win(hand(text, win, melds=melds), rules).ron_payment == 32000 * k
        assert score_win(hand(text, win, melds=melds, seat=0), rules).ron_payment == 48000 * k


def test_suuankou_shanpon_by_ron_is_not_suuankou() -> None:
    v = score_win(hand("555z666z777z11m22m", "2m"), RULES)
    assert v.yakuman == (39,)
