"""Scoring rules one at a time: fu items, limits, point tables, rule switches and the
bug classes listed in anchors.md §5 (each test names the case it pins down)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.rules.presets import TENHOU_3P, TENHOU_4P
from replay_audit.model.tiles import parse_tiles
from replay_audit.scoring.explain import explain
from replay_audit.scoring.hand import context_from_notation as hand
from replay_audit.scoring.hand import score_win
from replay_audit.scoring.points import base_points, pay

R = TENHOU_4P


def fu_of(ctx, rules=R) -> tuple[int, dict[str, int]]:  # type: ignore[no-untyped-def]
    v = score_win(ctx, rules)
    assert v.ok, v.error
    return v.fu, dict(v.fu_items)


# ------------------------------------------------------------------------------ fu


def test_pinfu_tsumo_is_20_fu_without_tsumo_fu() -> None:
    fu, items = fu_of(hand("234m345p456s2267s", "8s", tsumo=True))
    assert fu == 20
    assert "tsumo" not in items


def test_pinfu_ron_is_30_fu() -> None:
    assert fu_of(hand("234m345p456s2267s", "8s", riichi=True))[0] == 30


def test_chiitoitsu_is_25_fu_not_rounded() -> None:
    v = score_win(hand("1133m5577p99s11z2z", "2z", riichi=True), R)
    assert (v.fu, v.han, v.ron_payment) == (25, 3, 3200)


def test_open_pinfu_shape_ron_is_raised_to_30() -> None:
    v = score_win(hand("345p234s22p56s", "7s", melds=["chi:234m"]), R)
    assert (v.fu, v.han, v.ron_payment) == (30, 1, 1000)
    assert dict(v.fu_items)["open pinfu shape"] == 10


def test_open_pinfu_fu_is_a_rule() -> None:
    rules = dataclasses.replace(R, open_pinfu_fu=20)
    assert fu_of(hand("345p234s22p56s", "7s", melds=["chi:234m"]), rules)[0] == 20


@pytest.mark.parametrize(("double_wind_fu", "expected"), [(4, 4), (2, 2)])
def test_double_wind_pair_fu(double_wind_fu: int, expected: int) -> None:
    rules = dataclasses.replace(R, double_wind_fu=double_wind_fu)
    ctx = hand("234m345p456s11z67s", "8s", seat=0, dealer=0, riichi=True)
    assert fu_of(ctx, rules)[1]["pair E"] == expected


def test_single_wind_pair_is_2_fu() -> None:
    ctx = hand("234m345p456s22z67s", "8s", seat=1, dealer=0, round_wind=0, riichi=True)
    assert fu_of(ctx)[1]["pair S"] == 2


@pytest.mark.parametrize(("rinshan_fu", "fu"), [(2, 40), (0, 30)])
def test_rinshan_tsumo_gets_tsumo_fu_by_rule(rinshan_fu: int, fu: int) -> None:
    # 20 base + open kan 5m 8 + kanchan 2 = 30, plus the rinshan tsumo fu
    rules = dataclasses.replace(R, rinshan_tsumo_fu=rinshan_fu)
    ctx = hand("345p234s22p57s", "6s", melds=["kan:5555m"], tsumo=True, rinshan=True)
    got, items = fu_of(ctx, rules)
    assert items.get("tsumo", 0) == rinshan_fu
    assert got == fu


@pytest.mark.parametrize(
    ("concealed", "win", "label"),
    [
        ("234m345p456s2279s", "8s", "kanchan wait"),
        ("234m345p456s2212s", "3s", "penchan wait"),
        ("234m345p456s789s2s", "2s", "tanki wait"),
    ],
)
def test_wait_fu(concealed: str, win: str, label: str) -> None:
    assert fu_of(hand(concealed, win, riichi=True))[1][label] == 2


def test_ron_completed_triplet_counts_as_open_for_fu() -> None:
    _, items = fu_of(hand("234m345p99p11s678s", "9p", riichi=True))
    assert items["open triplet 9p"] == 4


def test_ron_tile_readable_in_a_run_keeps_the_triplet_concealed() -> None:
    # 1111m 23m: the 1m ron can close the 123m run, so 111m stays a closed triplet (8 fu)
    _, items = fu_of(hand("111m23m345p678s99s", "1m", riichi=True))
    assert items["closed triplet 1m"] == 8


@pytest.mark.parametrize(
    ("meld", "label", "value"),
    [
        ("ankan:1111m", "closed kan 1m", 32),
        ("ankan:5555m", "closed kan 5m", 16),
        ("kan:9999p", "open kan 9p", 16),
        ("kakan:5555p", "open kan 5p", 8),
        ("pon:111z", "open triplet E", 4),
        ("pon:555s", "open triplet 5s", 2),
    ],
)
def test_set_fu_table(meld: str, label: str, value: int) -> None:
    ctx = hand("234m678p22s67s", "8s", melds=[meld], seat=0, dealer=0, tsumo=True, haitei=True)
    assert fu_of(ctx)[1][label] == value


# ---------------------------------------------------------------------------- limits


def test_4_han_30_fu_is_7700_without_kiriage() -> None:
    assert base_points(4, 30, 0, R) == (1920, 0)
    assert pay(1920, dealer=False, tsumo=False, rules=R).ron == 7700
    assert pay(1920, dealer=True, tsumo=False, rules=R).ron == 11600


def test_kiriage_makes_4_han_30_fu_a_mangan_with_limit_code_0() -> None:
    rules = dataclasses.replace(R, kiriage=True)
    assert base_points(4, 30, 0, rules) == (2000, 0)
    assert base_points(3, 60, 0, rules) == (2000, 0)
    assert pay(2000, dealer=False, tsumo=False, rules=rules).ron == 8000


def test_3_han_70_fu_and_4_han_40_fu_are_mangan() -> None:
    assert base_points(3, 70, 0, R) == (2000, 1)
    assert base_points(4, 40, 0, R) == (2000, 1)


@pytest.mark.parametrize(
    ("kazoe", "han", "expected"),
    [
        ("single", 13, (8000, 5)),
        ("single", 26, (8000, 5)),
        ("multiple", 26, (16000, 5)),
        ("sanbaiman", 13, (6000, 4)),
    ],
)
def test_kazoe(kazoe: str, han: int, expected: tuple[int, int]) -> None:
    assert base_points(han, 30, 0, dataclasses.replace(R, kazoe=kazoe)) == expected


def test_kazoe_hand_scores_yakuman_limit() -> None:
    # riichi tsumo chinitsu iipeikou pinfu ... plus dora: 13+ han
    ctx = hand(
        "1122334567899m",
        "9m",
        tsumo=True,
        riichi=True,
        dora_indicators=tuple(parse_tiles("8m")),
    )
    v = score_win(ctx, R)
    assert v.han >= 13
    assert (v.limit, v.points, v.yakuman) == (5, 32000, ())


@pytest.mark.parametrize(
    ("han", "fu", "nd_ron", "d_ron", "nd_tsumo", "d_tsumo"),
    [
        (1, 30, 1000, 1500, (500, 300), 500),
        (1, 40, 1300, 2000, (700, 400), 700),
        (2, 20, 1300, 2000, (700, 400), 700),
        (2, 25, 1600, 2400, (800, 400), 800),
        (3, 30, 3900, 5800, (2000, 1000), 2000),
        (3, 60, 7700, 11600, (3900, 2000), 3900),
        (4, 20, 5200, 7700, (2600, 1300), 2600),
        (5, 30, 8000, 12000, (4000, 2000), 4000),
        (6, 30, 12000, 18000, (6000, 3000), 6000),
        (8, 30, 16000, 24000, (8000, 4000), 8000),
        (11, 30, 24000, 36000, (12000, 6000), 12000),
    ],
)
def test_point_table(
    han: int, fu: int, nd_ron: int, d_ron: int, nd_tsumo: tuple[int, int], d_tsumo: int
) -> None:
    base, _ = base_points(han, fu, 0, R)
    assert pay(base, dealer=False, tsumo=False, rules=R).ron == nd_ron
    assert pay(base, dealer=True, tsumo=False, rules=R).ron == d_ron
    p = pay(base, dealer=False, tsumo=True, rules=R)
    assert (p.tsumo_dealer, p.tsumo_other, p.total) == (*nd_tsumo, nd_tsumo[0] + 2 * nd_tsumo[1])
    assert pay(base, dealer=True, tsumo=True, rules=R).total == 3 * d_tsumo


@given(han=st.integers(1, 4), fu=st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]))
@settings(max_examples=60, deadline=None)
def test_payments_are_multiples_of_100_and_tsumo_never_beats_ron_by_more_than_rounding(
    han: int, fu: int
) -> None:
    base, _ = base_points(han, fu, 0, R)
    for dealer in (False, True):
        ron = pay(base, dealer=dealer, tsumo=False, rules=R)
        tsumo = pay(base, dealer=dealer, tsumo=True, rules=R)
        assert ron.total % 100 == 0 and tsumo.total % 100 == 0
        assert ron.total <= tsumo.total <= ron.total + 300


# ------------------------------------------------------------------------ rule switches


def test_kuitan_off_leaves_an_open_all_simples_hand_without_yaku() -> None:
    ctx = hand("345p234s22p56s", "7s", melds=["chi:234m"])
    assert score_win(ctx, R).ok
    assert score_win(ctx, dataclasses.replace(R, kuitan=False)).error == "no_yaku"


def test_aka_off_does_not_count_red_fives() -> None:
    ctx = hand("234m340p456s2267s", "8s", riichi=True)
    assert (54, 1) in score_win(ctx, R).yaku
    assert all(y != 54 for y, _ in score_win(ctx, dataclasses.replace(R, aka=0)).yaku)


def test_three_player_non_dealer_30_fu_1_han_tsumo_collects_800() -> None:
    ctx = hand("234p567p555s11p79s", "8s", tsumo=True, players=3, seat=1, dealer=0)
    v = score_win(ctx, TENHOU_3P)
    assert (v.han, v.fu) == (1, 30)
    assert (v.tsumo_dealer_payment, v.tsumo_other_payment, v.points) == (500, 300, 800)
    assert score_win(dataclasses.replace(ctx, players=4), R).points == 1100


def test_three_player_dealer_tsumo_loses_the_missing_share() -> None:
    ctx = hand("234p567p555s11p79s", "8s", tsumo=True, players=3, seat=0, dealer=0)
    assert score_win(ctx, TENHOU_3P).points == 1000


def test_three_player_kita_adds_dora_and_north_dora_counts_each_kita_again() -> None:
    base = {"tsumo": True, "riichi": True, "players": 3, "seat": 1, "dealer": 0}
    ctx = hand("234p567p999s11p78s", "9s", melds=["kita:4z", "kita:4z"], **base)
    assert dict(score_win(ctx, TENHOU_3P).yaku)[52] == 2
    west = tuple(parse_tiles("3z"))
    ctx2 = dataclasses.replace(ctx, dora_indicators=west)
    assert dict(score_win(ctx2, TENHOU_3P).yaku)[52] == 4
    ctx3 = dataclasses.replace(ctx, ura_indicators=west)
    assert dict(score_win(ctx3, TENHOU_3P).yaku)[53] == 2


def test_kita_does_not_open_the_hand_menzen_tsumo_survives() -> None:
    ctx = hand(
        "234p567p999s11p78s", "9s", melds=["kita:4z"], tsumo=True, players=3, seat=1, dealer=0
    )
    ids = dict(score_win(ctx, TENHOU_3P).yaku)
    assert 0 in ids


def test_three_player_1m_indicator_points_at_9m() -> None:
    ctx = hand(
        "999m567p999s11p78s",
        "9s",
        riichi=True,
        players=3,
        dora_indicators=tuple(parse_tiles("1m")),
    )
    assert dict(score_win(ctx, TENHOU_3P).yaku)[52] == 3


# -------------------------------------------------------------- bug classes (anchors §5)


def test_no_yaku_hand_gets_no_dora() -> None:
    ctx = hand("234m345p99p11s678s", "9p", dora_indicators=tuple(parse_tiles("8p")))
    v = score_win(ctx, R)
    assert v.error == "no_yaku"
    assert v.yaku == () and v.points == 0


def test_several_dora_indicators_on_an_honor_triplet() -> None:
    ctx = hand("111z234m345p99s67s", "8s", riichi=True, dora_indicators=(120, 121))
    assert dict(score_win(ctx, R).yaku)[52] == 6


def test_ura_is_listed_as_zero_for_riichi_and_dora_only_when_nonzero() -> None:
    v = score_win(hand("234m345p456s2267s", "8s", riichi=True), R)
    assert v.yaku[-1] == (53, 0)
    assert all(y not in (52, 54) for y, _ in v.yaku)


def test_double_riichi_replaces_riichi() -> None:
    ids = dict(score_win(hand("234m345p456s2267s", "8s", double_riichi=True), R).yaku)
    assert 21 in ids and 1 not in ids


def test_chinitsu_and_honitsu_are_exclusive() -> None:
    ids = dict(score_win(hand("1122334567899m", "9m", riichi=True), R).yaku)
    assert 35 in ids and 34 not in ids


@pytest.mark.parametrize(("win", "yakuman"), [("1m", (46,)), ("9m", (46,)), ("5m", (46,))])
def test_junsei_chuuren_on_any_of_its_nine_waits(win: str, yakuman: tuple[int, ...]) -> None:
    assert score_win(hand("1112345678999m", win), R).yakuman == yakuman


def test_chuuren_not_on_the_nine_sided_wait_is_45() -> None:
    assert score_win(hand("1112345678899m", "9m"), R).yakuman == (45,)


def test_no_chuuren_with_a_closed_kan() -> None:
    v = score_win(hand("1112345678m", "8m", melds=["ankan:9999m"], tsumo=True), R)
    assert 45 not in v.yakuman and 46 not in v.yakuman


def test_kokushi_13_sided_is_its_own_id_and_stacks_with_tenhou() -> None:
    v = score_win(hand("19m19p19s1234567z", "1m", tsumo=True, seat=0, tenhou=True), R)
    assert v.yakuman == (37, 48)
    assert v.yakuman_count == 2
    assert score_win(hand("19m19p19s1234566z", "7z"), R).yakuman == (47,)


def test_chanta_needs_a_run() -> None:
    ids = dict(score_win(hand("111m999p111s22z99s", "9s"), R).yaku)
    assert 23 not in ids and 31 in ids


def test_chanta_and_junchan() -> None:
    assert 23 in dict(score_win(hand("123m789p111s99s11z", "1z", riichi=True), R).yaku)
    assert 33 in dict(score_win(hand("123m789p111s99s11m", "1m", riichi=True), R).yaku)


def test_open_ittsu_and_sanshoku_lose_a_han() -> None:
    ids = dict(score_win(hand("456m789m11z22p", "2p", melds=["chi:123m"]), R).yaku)
    assert ids.get(24) == 1


def test_ryanpeikou_beats_chiitoitsu() -> None:
    v = score_win(hand("223344m556677p1s", "1s", riichi=True), R)
    assert 32 in dict(v.yaku) and 22 not in dict(v.yaku)


def test_not_complete() -> None:
    assert score_win(hand("123m456p789s11z23z", "5z"), R).error == "not_complete"


def test_explain_lists_fu_items_limit_and_payments() -> None:
    ctx = hand("333m333p33s99p678s", "3s", tsumo=True)
    text = explain(ctx, score_win(ctx, R))
    assert "20 base + 2 tsumo + 4 + 4 + 4 = 34 -> 40" in text
    assert "mangan" in text
    assert "dealer pays 4000, others pay 2000" in text
