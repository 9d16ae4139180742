"""The sample logs in ``fixtures/`` are legal, consistent games.

Every file directly in ``fixtures/`` (not the ``bad/``, ``replay/`` or ``stats/``
folders, which hold deliberately broken or partial logs) must audit with zero
findings (and only the notes listed in ``NOTES``) under the rules detected from
the file itself: each was written by hand
with its recorded values worked out from the rules (and hand values cross-checked
against the ``mahjong`` package), so any finding is either a broken fixture or a
bug in the code under test.

The Toutenkou tests cover the 112-tile set (1m, 5m, 9m kept), gari codes for
1m/5m/9m and the karasu flag (``WinContext.gari_seen``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from replay_audit.model.errors import InvalidValueError
from replay_audit.model.events import Draw, RecordedWin
from replay_audit.model.meld import MeldKind
from replay_audit.model.rules.presets import load_rules
from replay_audit.parsers.meld_code import decode_meld, encode_meld
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.replay.table import replay_game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SAMPLES = sorted(p for p in FIXTURES.iterdir() if p.is_file() and p.suffix in (".xml", ".json"))
DOUBLE_RON = next(FIXTURES.glob("4p_riichi_double_ron.*.xml"))
TOUTENKOU_MANZU = FIXTURES / "toutenkou_manzu_gari.xml"


def test_the_sample_set_is_all_there() -> None:
    names = {p.name for p in SAMPLES}
    assert {"json_4p_calls.json", "json_3p_kita.json", DOUBLE_RON.name} <= names
    assert len(SAMPLES) >= 8


NOTES = {
    "toutenkou_manzu_gari.xml": ["first_hand"],
    "4p_wall_from_seed_all_last_draw.2024060112gm-00a9-0000-5eed0c07.xml": ["first_hand"],
    "4p_chankan_keeps_ippatsu.2024070112gm-00a9-0000-c4a4ca01.xml": ["first_hand"],
    "3p_three_kita_to_exhaustive_draw.2024070112gm-00b9-0000-3a3a3a03.xml": ["first_hand"],
    "era2006_four_reds_stepless_riichi_ankan_junk_20061015gm-0001-0000-2006a4e1.xml": [
        "rule_2006_unknown"
    ],
    "json_era2006_two_red_5p_aka52_20061015gm-0001-0000-2006a4e1.json": ["rule_2006_unknown"],
    "chip_room_ippatsu_ura_aka.2024060112gm-0221-0000-c41b0a01.xml": ["chips"],
    "private_lobby_custom_uma_west_round.2024060112gm-0041-1234-5a1b2c3d.xml": [
        "lobby_rules",
        "inferred_renchan",
        "inferred_length",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_friendly_room_own_uma.json": [
        "lobby_rules",
        "inferred_settlement",
        "rules_not_observed",
    ],
    # Mahjong Soul rooms that do not name the length (tests/test_majsoul_length.py)
    "majsoul_east_only_sudden_death_ends_south2.json": [
        "lobby_rules",
        "inferred_length",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_no_length_east_only_ends_east4.json": [
        "lobby_rules",
        "inferred_length",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_no_length_hanchan_bust_in_south.json": [
        "lobby_rules",
        "length_assumed",
        "inferred_start_points",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_no_length_hanchan_ends_south4.json": [
        "lobby_rules",
        "length_assumed",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_3p_east_only_sudden_death_ends_south2.json": [
        "lobby_rules",
        "inferred_length",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_3p_no_length_hanchan_ends_south3.json": [
        "lobby_rules",
        "length_assumed",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_friendly_room_own_target_ends_south2.json": [
        "lobby_rules",
        "inferred_length",
        "inferred_settlement",
        "rules_not_observed",
    ],
    "majsoul_tournament_room_own_target_dealer_on_top_ends_south1.json": [
        "lobby_rules",
        "inferred_length",
        "inferred_renchan",
        "inferred_settlement",
        "rules_not_observed",
    ],
}
"""The notes a sample carries on purpose (an excerpt that starts at its last hand; a
2006 game's nine-terminal abort, which no 2006 log shows; a chip game: what the chip
audit rests on; the lobbies whose rules are read off the log, whose notes
``tests/test_lobbies.py`` checks)."""


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_audits_clean(path: Path) -> None:
    fa = audit_file(path)
    assert [f for f in fa.findings if f["category"] != "info"] == [], fa.findings
    assert [f["field"] for f in fa.findings if f["category"] == "info"] == NOTES.get(path.name, [])
    assert fa.status == "ok"
    assert fa.hands, "a sample with no audited result proves nothing"
    for row in fa.hands:
        assert row["comp_deltas"] == row["rec_deltas"], row


# ------------------------------------------------------------------ double ron


def test_double_ron_winners_in_head_bump_order_first_takes_honba_and_sticks() -> None:
    fa = audit_file(DOUBLE_RON)
    assert fa.games[0]["rules"] == "tenhou-4p"
    draw, first, second = fa.hands
    assert draw["result"] == "yao9" and draw["rec_deltas"] == "0,0,0,0"
    assert (first["hand"], second["hand"]) == ("E1-1", "E1-1")
    assert (first["winner"], first["from_seat"]) == (0, 3)  # the discarder's shimocha first
    assert (second["winner"], second["from_seat"]) == (1, 3)
    assert first["comp_points"] == second["comp_points"] == 12000
    assert first["comp_deltas"] == "14300,0,0,-12300"  # 12000 + 300 honba + 2 sticks
    assert second["comp_deltas"] == "0,12000,0,-12000"  # hand value only


def test_double_ron_records_ba_and_chained_scores() -> None:
    game = parse_tenhou_xml(DOUBLE_RON.read_bytes(), DOUBLE_RON.name)
    assert game.meta.log_id == "2024050112gm-00a9-0000-d0b1e2f3"
    hand = game.hands[1]
    assert (hand.honba, hand.sticks) == (1, 0)  # the honba comes from the kyuushu draw
    first, second = hand.results
    assert isinstance(first, RecordedWin) and isinstance(second, RecordedWin)
    assert (first.honba, first.sticks, second.honba, second.sticks) == (1, 2, 1, 0)
    after_first = tuple(b + d for b, d in zip(first.scores_before, first.deltas, strict=True))
    assert second.scores_before == after_first  # "before" includes the first payment
    assert first.ura == () and second.ura  # only the riichi winner shows ura
    assert game.owari is not None and game.owari.scores[3] < 0  # the discarder busts
    assert game.owari.points == (49.3, 16.0, -15.0, -50.3)


# ------------------------------------------------------------------- Toutenkou

_TOUTENKOU_HEAD = (
    '<mjloggm ver="2.3"><GO type="2064" lobby="0"/><UN n0="A" n1="B" n2="C" n3="" '
    'dan="10,10,10,0" rate="1500.00,1500.00,1500.00,1500.00" sx="M,M,M,C"/>'
    '<TAIKYOKU oya="0"/>'
)


def test_toutenkou_keeps_1m_5m_9m_and_sanma_does_not() -> None:
    game = parse_tenhou_xml(TOUTENKOU_MANZU.read_bytes(), "t.xml")
    drawn = [e.tile for e in game.hands[0].events if isinstance(e, Draw)]
    assert {16, 17} <= set(drawn)  # the red 5m and a plain 5m are drawn
    sanma = TOUTENKOU_MANZU.read_bytes().replace(b'type="2064"', b'type="185"')
    with pytest.raises(InvalidValueError, match="does not exist"):
        parse_tenhou_xml(sanma, "s.xml")


@pytest.mark.parametrize("tile", [0, 16, 35, 121])
def test_gari_codes_decode_only_when_asked(tile: int) -> None:
    m = (tile << 8) | 0x20
    meld = decode_meld(m, who=1, gari=True)
    assert (meld.kind, meld.tiles) == (MeldKind.KITA, (tile,))
    assert encode_meld(meld, who=1) == m
    if tile & 0xE0 == 0x20:
        # outside Toutenkou a 9m "gari" code is the 2006 form of an ankan of 9m
        assert decode_meld(m, who=1).kind is MeldKind.ANKAN
    elif tile >> 2 != 30:
        with pytest.raises(InvalidValueError, match="kita"):
            decode_meld(m, who=1)


def test_gari_of_a_2p_is_still_refused() -> None:
    with pytest.raises(InvalidValueError):
        decode_meld((40 << 8) | 0x20, who=0, gari=True)


def test_manzu_gari_is_allowed_in_toutenkou_only() -> None:
    game = parse_tenhou_xml(TOUTENKOU_MANZU.read_bytes(), "t.xml")
    clean = replay_game(game, load_rules("toutenkou"))
    assert [f for f in clean.findings if f.category == "replay"] == []
    three = replay_game(game, load_rules("tenhou-3p"))
    assert {f.field for f in three.findings} >= {"kita_not_allowed"}


def _karasu_game(gari_in_hand: bool) -> bytes:
    """Seat 1 rons seat 0's 6p with 234p 78p 456s 789s 55s (pinfu).  With
    ``gari_in_hand`` seat 1 drew and discarded a 9m on its turn (it held a gari
    once: no karasu); otherwise a 1p, and no gari ever passed through its hand."""
    junk = "32" if gari_in_hand else "36"  # 9m (a gari) or 1p
    return (
        _TOUTENKOU_HEAD + '<INIT seed="0,0,0,1,1,72" ten="0,0,0,0" oya="0" '
        'hai0="1,37,41,45,49,53,57,65,69,73,77,81,85" '
        'hai1="40,44,48,60,64,84,89,90,91,92,96,100,104" '
        'hai2="2,38,42,46,50,54,58,66,70,74,78,82,86" hai3=""/>'
        f"<T108/><D108/><U{junk}/><E{junk}/><V109/><F109/><T112/><D57/>"
        '<AGARI ba="0,0" hai="40,44,48,57,60,64,84,89,90,91,92,96,100,104" machi="57" '
        'ten="0,3200,0" yaku="7,1" doraHai="72" who="1" fromWho="0" '
        'sc="0,-32,0,32,0,0,0,0" owari="-32,-3.2,32,3.2,0,0.0,0,0.0"/></mjloggm>'
    ).encode()


@pytest.mark.parametrize("gari_in_hand", [True, False])
def test_karasu_flag_follows_the_winners_tiles(gari_in_hand: bool) -> None:
    game = parse_tenhou_xml(_karasu_game(gari_in_hand), "k.xml")
    replay = replay_game(game, load_rules("toutenkou"))
    (result,) = replay.hands[0].results
    assert result.win is not None
    assert result.win.gari_seen is gari_in_hand
    hanfu = replay_game(game, load_rules("tenhou-3p"))
    assert hanfu.hands[0].results[0].win.gari_seen is True  # unused outside Toutenkou
