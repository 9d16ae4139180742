"""Lobbies, chips and Mahjong Soul rooms audited end to end (issue 16, classes 4-6).

The two real cases of ``../shared/cases`` must audit with no problem (notes are
fine); the hand-made fixtures are a ranked chip-room game audited exactly, chips
included, a private-lobby game whose rules are not in its log and a Mahjong Soul
friendly-room game, both showing in notes what was read off the log.  Each
fixture also gets changed copies, so a clean audit is shown not to be a blank
check.

The fixtures, worked out by hand (no SHUFFLE: the walls are not checked):

* ``chip_room_ippatsu_ura_aka``: ranked 祝２ tonpuu (GO 545), 2024.  E1 seat 1
  riichi, ippatsu ron (riichi, ippatsu, pinfu, tanyao, ura 1: mangan 8000);
  chips 2 from the discarder.  E2 seat 2 pons haku and tsumos with two red
  fives (3 han 30 fu, 1000/2000); chips 2 from each.  E3 pinfu ron 1000, no
  chips.  E4 seat 1 riichi tsumo a go-around later (riichi, tsumo, pinfu, red
  five, ura 1: mangan, 20 fu); chips 2 from each.  Final 23000/39000/19000/19000,
  chip-room uma +30/+10/-10/-30 with oka 20: 3.0, 59.0, -21.0, -41.0 (the tie
  by seat order); chips -4/6/2/-4 kept out of the points.
* ``private_lobby_custom_uma_west_round``: lobby 1234, tonpuu (GO 65), no
  csrule.  Pinfu rons of 1000 (a dealer's 1500 at S2, then 1300 with its honba)
  keep everyone below 30000 through South 4, where a ranked game ends; West 1's
  mangan (tanyao, pinfu, dora 2, red five) ends it at 33300.  The lobby's uma
  +30/+10/-10/-30 against the 25000 start: -10.0, 10.2, 38.3, -38.5.
* ``majsoul_friendly_room_own_uma``: 友人戦東喰赤 (tensoul JSON).  Rons of 1000,
  2000, 1000 and a mangan: 23000/32000/27000/18000; the room's uma
  +20/+10/-10/-20 against the start, no oka: -12.0, 27.0, 12.0, -27.0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from tests.conftest import CASES, FIXTURES, need
from tests.logedit import XmlLog, audit, bump, json_log, notes, problems, write_json

CHAMPIONSHIP = CASES / "championship_lobby_chips_2021061315gm-0641-11000-f25efe24.xml.gz"
MAJSOUL_CASE = CASES / "mahjong_soul_tensoul.json"
CHIP_ROOM = FIXTURES / "chip_room_ippatsu_ura_aka.2024060112gm-0221-0000-c41b0a01.xml"
PRIVATE = FIXTURES / "private_lobby_custom_uma_west_round.2024060112gm-0041-1234-5a1b2c3d.xml"
FRIENDLY = FIXTURES / "majsoul_friendly_room_own_uma.json"


def _fields(findings: list[dict]) -> set[tuple[str, str]]:
    return {(f["category"], f["field"]) for f in findings}


def _note(fa, field: str) -> str:
    (text,) = [f["message"] for f in notes(fa) if f["field"] == field]
    return text


# ------------------------------------------------------------------ the cases


def test_championship_case_audits_clean_with_its_chips() -> None:
    fa = audit(need(CHAMPIONSHIP, "../shared/cases"))
    assert problems(fa) == []
    assert fa.games[0]["rules"] == "tenhou-4p-csrule"
    assert {"chips", "lobby_rules", "csrule_unmodelled", "final_reading"} <= {
        f["field"] for f in notes(fa)
    }
    assert "2 of 2 wins paid chips" in _note(fa, "chips")
    assert "no renchan on dealer tenpai" in _note(fa, "lobby_rules")
    # E2-0's tenpai dealer passed the deal; E3-1 paid 100 per payer for its honba
    assert [(r["hand"], r["comp_deltas"]) for r in fa.hands][2] == (
        "E3-1",
        "-2100,9300,-4100,-2100",
    )


def test_championship_case_dated_by_its_log_id(tmp_path: Path) -> None:
    """Under a 4-digit name its log id gives a 2021-06 date (ranked rooms still
    rounded to 1000 then): the lobby's exact tenths must still be accepted."""
    log = XmlLog(need(CHAMPIONSHIP, "../shared/cases"))
    fa = audit(log.write(tmp_path / "2021061315gm-0641-1100-f25efe24.xml"))
    assert fa.games[0]["date"] == "2021061315"
    assert problems(fa) == []
    assert "follow exact to 0.1" in _note(fa, "final_reading")


@pytest.mark.parametrize(
    ("tag", "attr", "index", "field"),
    [
        ("AGARI", "chip", 1, ("hand_value", "chips")),
        ("AGARI", "sc", 13, ("payment", "chip_delta")),
        ("INIT", "chip", 2, ("transition", "start_chips")),
    ],
)
def test_a_changed_chip_in_the_case_is_a_finding(
    tmp_path: Path, tag: str, attr: str, index: int, field: tuple[str, str]
) -> None:
    log = XmlLog(need(CHAMPIONSHIP, "../shared/cases"))
    el = log.tags(tag, lambda e: e.get(attr) is not None)[-1]
    bump(el, attr, index, 1)
    fa = audit(log.write(tmp_path / "2021061315gm-0641-1100-f25efe24.xml"))
    assert field in _fields(problems(fa))


def test_majsoul_case_follows_majsoul_settlement() -> None:
    fa = audit(need(MAJSOUL_CASE, "../shared/cases"))
    assert problems(fa) == [] and notes(fa) == []
    assert fa.games[0]["rules"] == "majsoul-4p"


def test_majsoul_case_under_tenhou_rules_is_flagged() -> None:
    """The settlement is no formality: Tenhou's uma and oka do not give the case's points."""
    fa = audit_file(need(MAJSOUL_CASE, "../shared/cases"), "tenhou-4p", with_facts=False)
    assert _fields(problems(fa)) == {("final", "final_points")}


@pytest.mark.parametrize("disp", ["", "铜之间 四人东", "Bronze"])
def test_majsoul_known_by_its_game_id_where_no_room_is_named(tmp_path: Path, disp: str) -> None:
    """A Mahjong Soul log whose ``disp`` names no room (empty, in Chinese, cut short)
    is still Mahjong Soul's by its ``ref`` (the game's date and uuid): its open
    tanyao wins are legal and its points follow Mahjong Soul's settlement, read off
    the log as for a friendly room, and where the string does not say the length,
    the game's end at East 4 with no one below zero says East-only.  Under Tenhou's
    rules (what the string alone gave before) the same log has wins without yaku
    and wrong final points."""
    doc = json_log(need(MAJSOUL_CASE, "../shared/cases"))
    doc["rule"] = {**doc["rule"], "disp": disp}
    doc["title"] = [disp, *doc["title"][1:]]
    fa = audit(write_json(doc, tmp_path / "majsoul.json"))
    assert fa.games[0]["rules"] == "majsoul-4p-inferred"
    assert "Mahjong Soul custom room" in _note(fa, "lobby_rules")
    assert problems(fa) == []
    length = [f for f in notes(fa) if f["field"] == "inferred_length"]
    assert len(length) == (0 if "东" in disp else 1)  # 东: the string says East-only

    # a log cut before East 4 says nothing of the length: none is read, and its end
    # is flagged under either length
    doc["log"] = doc["log"][:-1]
    fa = audit(write_json(doc, tmp_path / "cut.json"))
    assert not [f for f in notes(fa) if f["field"] == "inferred_length"]
    assert ("transition", "game_over") in _fields(problems(fa))

    doc["ref"] = "2023101414gm-0001-0000-84c11a6f"  # a Tenhou id: Tenhou's rules again
    fa = audit(write_json(doc, tmp_path / "tenhou.json"))
    assert fa.games[0]["rules"].startswith("tenhou-4p")
    assert ("hand_value", "win") in _fields(problems(fa)) or ("final", "final_points") in _fields(
        problems(fa)
    )


# ------------------------------------------------------------ chip room, exact


def test_chip_room_fixture_audits_exactly() -> None:
    fa = audit(CHIP_ROOM)
    assert problems(fa) == [] and fa.status == "ok"
    assert fa.games[0]["rules"] == "tenhou-4p-chip"
    assert "3 of 4 wins paid chips" in _note(fa, "chips")
    assert [r["comp_points"] for r in fa.hands] == [8000, 4000, 1000, 8000]


@pytest.mark.parametrize(
    ("tag", "attr", "hand", "index", "field", "seat"),
    [
        ("AGARI", "chip", 0, 3, ("hand_value", "chips"), 1),  # E1: ura 1 -> 2
        ("AGARI", "chip", 1, 1, ("hand_value", "chips"), 2),  # E2: two red fives -> three
        ("AGARI", "sc", 1, 15, ("payment", "chip_delta"), 3),  # E2: seat 3 pays 2 -> 1
        ("AGARI", "sc", 3, 10, ("payment", "chips_before"), 1),  # E4: seat 1's chips before
        ("INIT", "chip", 2, 0, ("transition", "start_chips"), 0),  # E3 starts off the chain
        ("AGARI", "owari", 3, 8, ("final", "final_chips"), 0),  # seat 0's final chips
    ],
)
def test_a_changed_chip_is_a_finding(
    tmp_path: Path,
    tag: str,
    attr: str,
    hand: int,
    index: int,
    field: tuple[str, str],
    seat: int,
) -> None:
    log = XmlLog(CHIP_ROOM)
    el = log.tags(tag)[hand]
    bump(el, attr, index, 1)
    fa = audit(log.write(tmp_path / CHIP_ROOM.name))
    found = [f for f in problems(fa) if (f["category"], f["field"]) == field]
    assert found and found[0]["seat"] == seat, problems(fa)
    if tag == "AGARI" and attr != "owari":
        assert fa.hands[hand]["status"] == "mismatch"  # the result row counts it


def test_chips_do_not_enter_the_final_points(tmp_path: Path) -> None:
    """Adding each seat's chips (at 2000 points, the room's value) to the final
    points is a finding on every seat whose chips are not zero."""
    log = XmlLog(CHIP_ROOM)
    last = log.tags("AGARI")[-1]
    values = last.get("owari").split(",")
    for s, chips in enumerate((-4, 6, 2, -4)):
        values[2 * s + 1] = f"{float(values[2 * s + 1]) + 2 * chips:.1f}"
    last.set("owari", ",".join(values))
    fa = audit(log.write(tmp_path / CHIP_ROOM.name))
    assert {f["seat"] for f in problems(fa) if f["field"] == "final_points"} == {0, 1, 2, 3}


# ------------------------------------------------- a lobby that records nothing


def test_private_lobby_rules_are_read_off_the_log() -> None:
    fa = audit(PRIVATE)
    assert problems(fa) == [] and fa.status == "ok"
    assert fa.games[0]["rules"] == "tenhou-4p-inferred"
    assert "private lobby 1234" in _note(fa, "lobby_rules")
    assert "reached W1" in _note(fa, "inferred_length")
    assert "up to 2 winds of extension" in _note(fa, "inferred_length")
    settlement = _note(fa, "inferred_settlement")
    assert "5/-15/-35/-55" in settlement
    assert "return 25000, uma +30/+10/-10/-30, oka 0, exact" in settlement
    assert "keeps the deal after a dealer win, as S2-0 shows" in _note(fa, "inferred_renchan")
    assert "renchan after dealer tenpai" in _note(fa, "rules_not_observed")


def test_private_lobby_under_known_rules_is_not_inferred() -> None:
    """A user who passes the rules gets them: Tenhou's ranked rules end the game at
    South 4 and settle with their own uma, so the lobby's game breaks them."""
    fa = audit_file(PRIVATE, "tenhou-4p", with_facts=False)
    assert not any(f["field"].startswith("inferred") for f in fa.findings)
    assert ("transition", "game_over") in _fields(problems(fa))
    assert ("final", "final_points") in _fields(problems(fa))


def test_private_lobby_is_still_audited_after_the_reading(tmp_path: Path) -> None:
    """What is read off the log is not a blank check: a changed payment in South 3
    is a finding, and final points out of the order of the scores fit no uma."""
    log = XmlLog(PRIVATE)
    win = log.tags("AGARI")[7]  # S3-0
    bump(win, "sc", 1, 1)  # seat 0 pays 100 less
    fa = audit(log.write(tmp_path / PRIVATE.name))
    assert ("payment", "delta") in _fields(problems(fa))

    log = XmlLog(PRIVATE)
    last = log.tags("AGARI")[-1]
    last.set("owari", "250,-10.0,252,-19.8,333,68.3,165,-38.5")  # 2nd's uma below 3rd's
    fa = audit(log.write(tmp_path / PRIVATE.name))
    assert ("final", "final_points_order") in _fields(problems(fa))


def test_a_lobby_game_that_ends_below_the_target_is_read_as_such(tmp_path: Path) -> None:
    """Cut after East 4 with the final line moved there: the game ended with every
    seat at 25000, below Tenhou's 30000 (a ranked game would go into South); the
    lobby's target is read as at most that."""
    log = XmlLog(PRIVATE)
    e4 = log.tags("AGARI")[3]
    e4.set("owari", "250,30.0,250,10.0,250,-10.0,250,-30.0")
    for hand in log.hands()[4:]:
        for el in hand:
            log.root.remove(el)
    fa = audit(log.write(tmp_path / PRIVATE.name))
    assert problems(fa) == []
    assert "at most 25000 (it ended after E4-0)" in _note(fa, "inferred_length")
    assert "seats 0 and 1 tie and are placed by seat order" in _note(fa, "inferred_settlement")


# --------------------------------------------------- Mahjong Soul friendly room


def test_friendly_room_settlement_is_read_off_the_log() -> None:
    fa = audit(FRIENDLY)
    assert problems(fa) == [] and fa.status == "ok"
    assert fa.games[0]["rules"] == "majsoul-4p-inferred"
    assert "Mahjong Soul friendly room" in _note(fa, "lobby_rules")
    settlement = _note(fa, "inferred_settlement")
    assert "settled against the start score, no oka: return 25000, uma +20/+10/-10/-20" in (
        settlement
    )


def test_friendly_room_under_majsoul_ranked_rules_is_flagged() -> None:
    fa = audit_file(FRIENDLY, "majsoul-4p", with_facts=False)
    assert _fields(problems(fa)) == {("final", "final_points")}


def test_friendly_room_with_another_start(tmp_path: Path) -> None:
    """A friendly room that starts at 30000: the start is read off the first hand
    and the room settles against it (every score and the final line moved up 5000
    for each seat, the values unchanged)."""
    doc = json_log(FRIENDLY)
    for hand in doc["log"]:
        hand[1] = [s + 5000 for s in hand[1]]
    doc["sc"] = [v + 5000 if i % 2 == 0 else v for i, v in enumerate(doc["sc"])]
    fa = audit(write_json(doc, tmp_path / FRIENDLY.name))
    assert problems(fa) == []
    assert "start points 30000, from the first hand" in _note(fa, "inferred_start_points")
    assert "return 30000, uma +20/+10/-10/-20" in _note(fa, "inferred_settlement")
