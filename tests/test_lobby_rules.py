"""Lobby rule data, unit by unit: the ``csrule`` reading, the ranked chip-room
presets, Mahjong Soul's rooms and settlement, the game-flow fields a lobby
changes, and the settlement read off a final line (issue 16, classes 4-6).

Every expected value here is worked out from the rule it tests (the comments
say how), never copied from the code under test.
"""

from __future__ import annotations

import dataclasses

import pytest

from replay_audit.auditing.infer_settlement import infer_settlement, rounding_of
from replay_audit.auditing.lobby import lobby_kind
from replay_audit.model.events import GameMeta
from replay_audit.model.rules.csrule import read_csrule, rules_for_csrule
from replay_audit.model.rules.detect import rules_for_disp, rules_for_go_type
from replay_audit.model.rules.majsoul import room_of
from replay_audit.model.rules.presets import INFERRED_RULES, PRESETS, TENHOU_3P, TENHOU_4P
from replay_audit.parsers.tenhou_json import is_chip_room
from replay_audit.scoring.final import final_points, readings
from replay_audit.scoring.flow import HandOutcome, HandState, end_reason, next_hand

CHAMPIONSHIP = "4007C004,,,,30000,30000,30000" + "," * 38
"""The 2021 championship lobby's csrule (``../shared/cases``)."""
PRIVATE_2023 = "0FE0BF0B,0000001F,,,30000,30000,30000,,,,,,,,,,,,,,," + "5,-5,-15," * 5 + ",,,"
"""The 2023 private lobby's csrule (corpus ``newattr2023.xml``)."""


# ------------------------------------------------------------------- csrule


def test_championship_csrule_reads_every_rule_the_game_shows() -> None:
    rules = read_csrule(rules_for_go_type(0x641, lobby=1111), CHAMPIONSHIP).rules
    # fields 4/5/6: start 30000, the top needs 30000, return 30000: no oka
    assert (rules.start_points, rules.points_to_end, rules.return_points, rules.oka) == (
        30000,
        30000,
        30000,
        0,
    )
    # uma rows empty: Tenhou's +20/+10/-10/-20; field 11 empty: 100 per payer
    assert rules.uma == (20, 10, -10, -20) and not rules.uma_rows
    assert (rules.honba_tsumo, rules.honba_ron) == (100, 300)
    # bits 2, 14, 15, 16, 17 of 0x4007C004
    assert not rules.bust and not rules.dealer_stops_all_last and not rules.dealer_stops_on_tenpai
    assert not rules.renchan_on_win and not rules.renchan_on_tenpai
    # none of the ranked chip-room rules under a csrule; still a chip game
    assert rules.chips and not rules.kiriage and not rules.kan_dora_immediate
    assert rules.ties == "seat_order" and rules.leftover_sticks_to_top
    assert rules.rounding == "either"


def test_return_points_are_field_6_and_the_target_field_5() -> None:
    rules = rules_for_csrule(TENHOU_4P, "0,,,,25000,35000,30000")
    assert (rules.start_points, rules.end_points, rules.return_points) == (25000, 35000, 30000)
    assert rules.oka == 4 * (30000 - 25000) // 1000


def test_honba_per_payer_is_field_11_times_the_payers_on_ron() -> None:
    four = rules_for_csrule(TENHOU_4P, "0" + "," * 11 + "200")
    three = rules_for_csrule(TENHOU_3P, "0" + "," * 11 + "500")
    assert (four.honba_tsumo, four.honba_ron, three.honba_tsumo, three.honba_ron) == (
        200,
        600,
        500,
        1000,
    )


def test_private_lobby_flags_ties_and_uma_rows() -> None:
    rules = read_csrule(TENHOU_4P, PRIVATE_2023).rules
    assert rules.uma == (15, 5, -5, -15) and not rules.uma_rows  # five equal rows
    assert rules.ties == "split" and not rules.leftover_sticks_to_top  # field 1 bits 1, 2
    assert rules.kiriage and rules.kan_dora_immediate and not rules.nagashi_mangan  # bits 1, 3, 0
    assert not rules.double_ron and not rules.west_extension  # bits 13, 21
    assert rules.abortive_draws == ()  # bits 8-12
    assert rules.double_wind_fu == 2 and rules.dealer_stops_all_last  # field 1 bit 0; bit 14 clear
    assert not rules.dealer_stops_on_tenpai  # bit 15


def test_unapplied_csrule_settings_are_listed() -> None:
    reading = read_csrule(TENHOU_4P, CHAMPIONSHIP)
    assert [u.split(" (")[0] for u in reading.unmodelled] == [
        "field 0 bit 0x40000",
        "field 0 bit 0x40000000",
    ]
    assert "no renchan on dealer tenpai" in reading.summary


def test_floating_uma_rows_pick_the_row_of_players_below_the_return() -> None:
    rows = "10,-10,-20,20,-10,-30,20,-10,-30,30,-10,-40,30,-10,-40"
    rules = rules_for_csrule(TENHOU_4P, f"0,,,,25000,30000,25000{',' * 15}{rows}")
    assert rules.uma_rows[1] == (20, 20, -10, -30)
    # 25000 return: one player below it (5000) -> row 1: +20/+20/-10/-30, no oka
    _, points = final_points((45000, 25000, 25000, 5000), 0, rules, era="exact")
    assert points == (40.0, 20.0, -10.0, -50.0)
    # nobody below: row 0 (+20/+10/-10/-20)
    _, points = final_points((25000, 25000, 25000, 25000), 0, rules, era="exact")
    assert points == (20.0, 10.0, -10.0, -20.0)


def test_a_lobby_rounding_offers_both_readings() -> None:
    from replay_audit.model.dating import LogWindow

    lobby = dataclasses.replace(TENHOU_4P, rounding="either")
    dated_2021 = LogWindow("2021061315", "2021061315")
    assert [r.era for r in readings(TENHOU_4P, dated_2021, True)] == ["era1"]
    assert [r.era for r in readings(lobby, dated_2021, True)] == ["exact", "era1"]


# ------------------------------------------------------------------ GO types


@pytest.mark.parametrize(
    ("go_type", "honba_ron", "honba_tsumo"),
    [(0x621, 1500, 500), (0x221, 300, 100), (0x421, 300, 100)],
    ids=["shuu5_both_bits", "shuu2_0x200", "shuu0_0x400"],
)
def test_ranked_chip_rooms(go_type: int, honba_ron: int, honba_tsumo: int) -> None:
    rules = rules_for_go_type(go_type, lobby=0)
    assert rules.chips and rules.kiriage and rules.kan_dora_immediate
    assert rules.uma == (30, 10, -10, -30)
    assert (rules.honba_ron, rules.honba_tsumo) == (honba_ron, honba_tsumo)


def test_a_lobby_chip_game_gets_chips_but_not_the_ranked_room_rules() -> None:
    rules = rules_for_go_type(0x641, lobby=1111)
    assert rules.chips and not rules.kiriage and not rules.kan_dora_immediate
    assert (rules.uma, rules.honba_ron) == ((20, 10, -10, -20), 300)


def test_every_inferred_rule_names_its_evidence() -> None:
    assert len(INFERRED_RULES) >= 8
    for rule in INFERRED_RULES:
        assert rule.rule and rule.used_in and rule.evidence
        assert any(ch.isdigit() for ch in rule.evidence), rule  # how many logs or hands


# --------------------------------------------------------------- Mahjong Soul


@pytest.mark.parametrize(
    ("disp", "players", "name", "hanchan"),
    [
        ("銅の間東喰赤", 4, "majsoul-4p", False),
        ("銀の間南喰赤", 4, "majsoul-4p", True),
        ("Gold Room East", 4, "majsoul-4p", False),
        ("Gold Room South", 3, "majsoul-3p", True),
        ("三王座の間南喰赤", 3, "majsoul-3p", True),
        ("交流の間東喰赤", 4, "majsoul-4p", False),
        ("友人戦南喰赤", 4, "majsoul-4p", True),
        ("大会戦東喰", 4, "majsoul-4p", False),
        ("Friendly East", 4, "majsoul-4p", False),
        ("Tounament South", 4, "majsoul-4p", True),
        ("鳳南喰赤", 4, "tenhou-4p", True),
        ("三鳳南喰赤", 3, "tenhou-3p", True),
    ],
)
def test_rooms_are_detected_from_disp(disp: str, players: int, name: str, hanchan: bool) -> None:
    from replay_audit.model.rules.majsoul import is_tonpuu

    assert rules_for_disp(disp, True, players).name == name
    assert (not is_tonpuu(disp)) is hanchan


def test_silver_room_is_not_a_tenhou_chip_room() -> None:
    assert not is_chip_room("銀の間東喰赤") and is_chip_room("銀南喰赤祝２")


def test_friendly_and_tournament_rooms_do_not_record_their_rules() -> None:
    assert not room_of("友人戦東喰赤").rules_known  # type: ignore[union-attr]
    assert not room_of("Tournament East").rules_known  # type: ignore[union-attr]
    assert room_of("交流の間東喰赤").rules_known  # type: ignore[union-attr]


def test_special_rooms_start_and_settle_at_their_own_score() -> None:
    rules = rules_for_disp("龍の割目南喰赤", True, 4)
    assert (rules.start_points, rules.return_points, rules.points_to_end) == (40000, 40000, 45000)


def test_majsoul_settles_against_the_start_with_no_oka() -> None:
    # (raw - 25000)/1000 + 15/5/-5/-15: the Bronze-room case of ../shared/cases
    _, points = final_points((43600, 27800, 20600, 8000), 0, PRESETS["majsoul-4p"], era="exact")
    assert points == (33.6, 7.8, -9.4, -32.0)
    # 3-player: (raw - 35000)/1000 + 15/0/-15
    _, points = final_points((50000, 35000, 20000, 0), 0, PRESETS["majsoul-3p"], era="exact")
    assert points[:3] == (30.0, 0.0, -30.0)
    assert (PRESETS["majsoul-4p"].points_to_end, PRESETS["majsoul-3p"].points_to_end) == (
        30000,
        40000,
    )


def test_majsoul_extension_uses_the_target_not_the_origin() -> None:
    # East 4 passes the deal with the top at 28000: above the 25000 origin but below the
    # 30000 Mahjong Soul needs, so an East game goes into South
    rules = PRESETS["majsoul-4p"]
    state = HandState(3, 0, 0, 3, (28000, 26000, 24000, 22000))
    out = HandOutcome(winners=(0,), deltas=(0, 0, 0, 0))
    assert end_reason(state, out, rules, game_length="tonpuu") is None
    reached = HandState(3, 0, 0, 3, (30000, 26000, 24000, 20000))
    assert end_reason(reached, out, rules, game_length="tonpuu") == "all_last"


# ---------------------------------------------------------------- game flow


def test_no_tenpai_renchan_passes_the_deal_and_keeps_the_honba_going() -> None:
    rules = dataclasses.replace(TENHOU_4P, renchan_on_tenpai=False)
    state = HandState(1, 0, 1, 1, (29000, 30000, 24000, 36000))
    out = HandOutcome(dealer_tenpai=True, draw_kind="exhaustive")
    nxt = next_hand(state, out, rules, game_length="tonpuu")
    assert nxt is not None and (nxt.round_index, nxt.dealer, nxt.honba, nxt.sticks) == (2, 2, 1, 1)
    kept = next_hand(state, out, TENHOU_4P, game_length="tonpuu")
    assert kept is not None and (kept.round_index, kept.dealer) == (1, 1)


def test_no_win_renchan_passes_the_deal() -> None:
    rules = dataclasses.replace(TENHOU_4P, renchan_on_win=False)
    state = HandState(0, 0, 0, 0, (25000,) * 4)
    out = HandOutcome(winners=(0,), dealer_won=True, deltas=(1500, -1500, 0, 0))
    nxt = next_hand(state, out, rules, game_length="hanchan")
    assert nxt is not None and (nxt.round_index, nxt.dealer) == (1, 1)


def test_extension_winds() -> None:
    # an East-only game at South 4, nobody at 30000: one extension wind ends here, two go on
    state = HandState(7, 0, 0, 3, (27000, 26000, 24000, 23000))
    out = HandOutcome(winners=(0,), deltas=(0, 0, 0, 0))
    assert end_reason(state, out, TENHOU_4P, game_length="tonpuu") == "extension_end"
    two = dataclasses.replace(TENHOU_4P, extension_winds=2)
    assert end_reason(state, out, two, game_length="tonpuu") is None


# ------------------------------------------------------- reading a final line


def test_rounding_is_read_from_the_values_form() -> None:
    # chip.xml's final line: whole values while 44800 and 4500 are not whole thousands
    assert rounding_of((30000, 44800, 4500, 20700), (10.0, 64.0, -55.0, -19.0), 4) == "era1"
    assert rounding_of((30000, 45000, 5000, 20000), (10.0, 65.0, -55.0, -20.0), 4) == "exact"


def test_settlement_read_off_a_custom_uma() -> None:
    # uma +30/+10/-10/-30 against a 25000 start, no oka: 33300 -> 8.3 + 30 = 38.3, ...
    found = infer_settlement(
        (25000, 25200, 33300, 16500),
        (-10.0, 10.2, 38.3, -38.5),
        TENHOU_4P,
        start=25000,
        origin_is_start=False,
    )
    assert found is not None
    assert found.offsets == (5, -15, -35, -55)
    assert (found.rules.return_points, found.rules.uma, found.rules.oka) == (
        25000,
        (30, 10, -10, -30),
        0,
    )


def test_settlement_in_era1_takes_the_top_as_the_rest() -> None:
    # chip.xml: uma +30/+10/-10/-30, return 30000, rounded; the symmetric reading finds it
    found = infer_settlement(
        (30000, 44800, 4500, 20700),
        (10.0, 64.0, -55.0, -19.0),
        TENHOU_4P,
        start=25000,
        origin_is_start=False,
    )
    assert found is not None and found.era == "era1"
    assert (found.rules.return_points, found.rules.uma, found.rules.oka) == (
        30000,
        (30, 10, -10, -30),
        20,
    )


def test_no_whole_uma_gives_odd_offsets() -> None:
    # against the 25000 start, 2nd place would need an uma of +10.5 and 4th of -30.5
    found = infer_settlement(
        (25000, 25200, 33300, 16500),
        (-10.0, 10.7, 38.3, -39.0),
        TENHOU_4P,
        start=25000,
        origin_is_start=True,
    )
    assert found is None


@pytest.mark.parametrize(
    ("meta", "kind"),
    [
        (GameMeta("a.xml", "2024060112gm-00a9-0000-5a1b2c3d", "tenhou-xml", 4, 169, 0), "ranked"),
        (
            GameMeta("b.xml", "2024060112gm-0041-1234-5a1b2c3d", "tenhou-xml", 4, 65, 1234),
            "private",
        ),
        (
            GameMeta("c.xml", "2021061315gm-0641-11000-f25efe24", "tenhou-xml", 4, 1601, 1111),
            "championship",
        ),
        (
            GameMeta("d.xml", None, "tenhou-xml", 4, 1601, 1111, extra=(("csrule", "0"),)),
            "csrule",
        ),
        (GameMeta("e.json", None, "tenhou-json", 4, rule_disp="銅の間東喰赤"), "majsoul"),
        (GameMeta("f.json", None, "tenhou-json", 4, rule_disp="大会戦東喰"), "majsoul_custom"),
    ],
)
def test_lobby_kinds(meta: GameMeta, kind: str) -> None:
    assert lobby_kind(meta) == kind
