"""Old Tenhou logs audited under the rules of their date (issue 16, classes 3 and 8).

The rules and their dates are data (``replay_audit.model.rules.eras``); a log is placed by its
id or, undated, by the window its format allows (``replay_audit.model.dating``).  Each
test audits a log as the shipped detection sees it: the two real era cases of
``../shared/cases``, the two hand-made fixtures (``fixtures/era20*``) and copies of
them with another name (another date), which must then be read the other way.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from replay_audit.auditing.era_readings import read_flow
from replay_audit.io.read import read_log
from replay_audit.model.dating import LogWindow, log_window
from replay_audit.model.events import HandLog
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.model.rules.eras import (
    OPEN_RULES,
    RED_FIVES_2006,
    TENPAI_YAME,
    Era,
    era_of,
    rules_of_date,
)
from replay_audit.model.rules.presets import PRESETS
from replay_audit.scoring.flow import HandOutcome, HandState, next_hand
from tests.conftest import CASES, CORPUS, FIXTURES, need
from tests.logedit import XmlLog, audit, notes, problems

CASE_2010 = (
    CASES / "era2010_all_last_dealer_tenpai_continues_2010060106gm-00a9-0000-30d6de3b.xml.gz"
)
CASE_2006 = CASES / "era2006_20061028gm-0001-0000-1af63a72.xml.gz"
FIX_2010 = FIXTURES / "era2010_all_last_dealer_tenpai_plays_on_2010051721gm-00e1-0000-2010e4a0.xml"
FIX_2006 = (
    FIXTURES / "era2006_four_reds_stepless_riichi_ankan_junk_20061015gm-0001-0000-2006a4e1.xml"
)
TENPAI_YAME_2024 = CORPUS / "tenhou-xml" / "phoenix-2024" / "2024041222gm-00a9-0000-aae91a61.xml.gz"
"""A Phoenix game that ends on the top all-last dealer's tenpai at a draw."""
T4 = PRESETS["tenhou-4p"]


def _fields(fa, *keys: str) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [tuple(f[k] for k in ("category", "field", "hand", *keys)) for f in fa.findings]


def _renamed(tmp_path: Path, source: Path, name: str) -> Path:
    """``source`` under another name: the same log with another date (or none)."""
    target = tmp_path / name
    if source.suffix == ".gz":
        XmlLog(source).write(target)
    else:
        shutil.copyfile(source, target)
    return target


# ----------------------------------------------------------------- the real cases


def test_the_2010_case_plays_on_as_the_rule_of_its_date_says() -> None:
    """2010-06-01 06h: the top dealer, tenpai at the South 4 draw, repeats (the
    automatic stop came in June 2010, after this log); no finding, no note."""
    fa = audit(need(CASE_2010, "../shared/cases"))
    assert fa.findings == []
    assert fa.games[0]["rules"] == "tenhou-4p-tenpai-renchan"
    assert [r["hand"] for r in fa.hands][-2:] == ["S4-0", "S4-1"]


def test_the_2006_case_audits_under_the_rules_of_2006() -> None:
    """Every value of the 2006 case is computed exactly (its 8-digit id dates it):
    four red fives, AGARI ba without sticks, the 2006 tonpuu uma, a bust at -2,900;
    it uses no rule that 2006 leaves unknown, so there is no note either."""
    fa = audit(need(CASE_2006, "../shared/cases"))
    assert fa.findings == []
    game = fa.games[0]
    assert (game["log_id"], game["date"]) == ("20061028gm-0001-0000-1af63a72", "20061028")
    assert game["rules"] == "tenhou-4p-tenpai-renchan-aka4"
    e3 = next(r for r in fa.hands if r["hand"] == "E3-0")
    assert (e3["comp_han"], e3["comp_points"]) == (4, 11600)
    assert "54,2" in e3["comp_yaku"]  # 16 and 53 are both red
    assert (game["final_score1"], game["final_points1"]) == (-2900, -43)


def test_a_2006_agari_that_writes_its_sticks_is_a_finding(tmp_path: Path) -> None:
    """The 2006 rule is exact: an AGARI of a stepless-REACH log writes no sticks."""
    log = XmlLog(need(CASE_2006, "../shared/cases"))
    first = log.tags("AGARI")[0]
    first.set("ba", "0,1")  # the stick this hand's riichi left (what a later log writes)
    fa = audit(log.write(tmp_path / CASE_2006.name.removesuffix(".gz")))
    assert [(f["field"], f["recorded"], f["computed"]) for f in problems(fa)] == [
        ("ba_sticks", "1", "0")
    ]


# ------------------------------------------------------------------- the fixtures


def test_the_2010_fixture_is_exact_and_its_dealer_plays_on() -> None:
    fa = audit(FIX_2010)
    assert fa.findings == []
    assert [r["hand"] for r in fa.hands] == ["E1-0", "E2-0", "E3-0", "E4-0", "E4-1"]
    draw = fa.hands[3]
    assert (draw["result"], draw["tenpai"], draw["comp_deltas"]) == (
        "exhaustive",
        "0,0,0,1",
        "-1000,-1000,-1000,3000",
    )


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # July 2010: the stop is certain, so playing on is a finding
        ("x_2010071721gm-00e1-0000-2010e4a0.xml", ("transition", "game_over", "E4-1")),
        # June 2010, after the 2010-06-01 case: either rule; a note names both
        ("x_2010061721gm-00e1-0000-2010e4a0.xml", ("info", "flow_reading", "E4-1")),
    ],
)
def test_the_2010_fixture_dated_after_the_change(
    tmp_path: Path, name: str, expected: tuple[str, str, str]
) -> None:
    fa = audit(_renamed(tmp_path, FIX_2010, name))
    assert _fields(fa) == [expected]
    if expected[0] == "info":
        text = fa.findings[0]["message"]
        assert "38215017" in text and "follows the rule before the change" in text


def test_a_modern_tenpai_yame_ending_undated_names_both_readings(tmp_path: Path) -> None:
    """A 2024 game that ends on tenpai-yame, saved without its id: its base64 seed
    and GO lobby place it from June 2010 on, so either flow rule is possible; the
    note says the log follows the new one.  Dated May 2010 it is a finding."""
    source = need(TENPAI_YAME_2024)
    fa = audit(_renamed(tmp_path, source, "renamed.xml"))
    assert problems(fa) == []
    (note,) = [f for f in notes(fa) if f["field"] == "flow_reading"]
    assert "follows the rule after it" in note["message"]
    old = audit(_renamed(tmp_path, source, "x_2010051512gm-00a9-0000-aae91a61.xml"))
    assert ("transition", "game_over") in {(f["category"], f["field"]) for f in problems(old)}


def test_the_2006_fixture_shows_the_rules_of_2006() -> None:
    """Four red fives (52 and 53 in the dealer's chinitsu: 8 han, baiman), two
    stepless riichi sticks collected though AGARI ba says 0, the ankan written
    with junk bits (14880), the 2006 uma; the nine-terminal abort is a rule no 2006
    log shows: a note, and today's rule (the dealer keeps, honba 1) is applied."""
    game = read_log(FIX_2006)
    assert game.meta.stepless_reach
    rules = rules_of_date(rules_for_go_type(game.meta.go_type), game)
    assert (rules.aka, rules.red_fives) == (4, (16, 52, 53, 88))
    fa = audit(FIX_2006)
    assert problems(fa) == []
    assert _fields(fa) == [("info", "rule_2006_unknown", "E1-0")]
    win = fa.hands[1]
    assert (win["comp_han"], win["comp_points"], win["comp_yaku"]) == (8, 24000, "35,6,54,2")
    assert win["comp_deltas"] == "26300,0,-24300,0"  # 24,000 + 300 honba + 2 sticks
    assert fa.games[0]["final_points0"] == 51  # uma +10/+5/-5/-10


def test_the_2006_fixture_dated_later_reads_the_red_fives_by_its_date(tmp_path: Path) -> None:
    """2008: the red fives may be either set (a note names both, the log follows
    the 2006 one); 2010: three reds, so the win holding 53 is a finding."""
    between = audit(_renamed(tmp_path, FIX_2006, "x_2008061512gm-0001-0000-2006a4e1.xml"))
    assert problems(between) == []
    (note,) = [f for f in notes(between) if f["field"] == "red_fives_reading"]
    assert "8 han 24000" in note["message"] and "follows the old one" in note["message"]
    later = audit(_renamed(tmp_path, FIX_2006, "x_2010081512gm-0001-0000-2006a4e1.xml"))
    assert {(f["category"], f["field"]) for f in problems(later)} >= {
        ("hand_value", "han"),
        ("hand_value", "points"),
    }
    assert not [f for f in notes(later) if f["field"] == "rule_2006_unknown"]


def test_an_undated_2006_log_is_placed_by_its_format(tmp_path: Path) -> None:
    """Without its id the 2006 fixture is placed before 2009-06 by its stepless
    REACH and missing wall seed: the 2009 flow and uma apply, the red fives stay
    open (a note), and it audits without a finding."""
    path = _renamed(tmp_path, FIX_2006, "renamed.xml")
    window = log_window(read_log(path))
    assert (window.earliest, window.latest) == (None, "2009060320")
    fa = audit(path)
    assert problems(fa) == []
    assert sorted(f["field"] for f in notes(fa)) == ["red_fives_reading", "rule_2006_unknown"]


# ------------------------------------------------------------------ dated rules


@pytest.mark.parametrize(
    ("window", "side"),
    [
        (LogWindow("2010060106", "2010060106"), "before"),
        (LogWindow("2010060107", "2010060107"), "both"),
        (LogWindow("2010063023", "2010063023"), "both"),
        (LogWindow("2010070100", "2010070100"), "after"),
        (LogWindow(None, "2009073123"), "before"),  # INIT shuffle seeds
        (LogWindow("2009070100", "2010123123"), "both"),  # hex SHUFFLE seed
        (LogWindow("2010060107", None), "both"),  # GO with lobby, undated
        (LogWindow("2022060100", "2022060100"), "after"),
    ],
)
def test_tenpai_yame_by_date(window: LogWindow, side: str) -> None:
    assert TENPAI_YAME.side(window) == side


def test_red_fives_by_date_and_by_format() -> None:
    assert RED_FIVES_2006.side(LogWindow("2006110523", "2006110523")) == "before"
    assert RED_FIVES_2006.side(LogWindow("2008010100", "2008010100")) == "both"
    assert RED_FIVES_2006.side(LogWindow("2009080100", "2009080100")) == "after"
    bug1 = read_log(need(CORPUS / "tenhou-xml" / "special" / "bug1.xml.gz"))
    assert RED_FIVES_2006.side(log_window(bug1)) == "both"  # by its window alone
    assert RED_FIVES_2006.side_of(bug1, log_window(bug1)) == "after"  # it has a wall seed


def test_modern_and_foreign_rules_are_not_dated() -> None:
    modern = read_log(FIXTURES / "4p_riichi_double_ron.2024050112gm-00a9-0000-d0b1e2f3.xml")
    assert rules_of_date(T4, modern) is T4
    era = era_of(modern, T4)
    assert (era.alternatives, era.open_rules, era.before_2009) == ((), (), False)
    old = read_log(FIX_2006)
    soul = PRESETS["majsoul-4p"]
    assert rules_of_date(soul, old) is soul and era_of(old, soul).alternatives == ()
    custom = dataclasses.replace(T4, name="tenhou-4p", dealer_stops_on_tenpai=False)
    assert rules_of_date(custom, old).dealer_stops_on_tenpai is False  # the user's own


def test_the_callers_rules_are_taken_as_they_are() -> None:
    """With rules given (``--rules``) nothing is dated: the 2010 fixture played
    on where today's rule ends the game, a finding."""
    from replay_audit.auditing.auditor import audit_file

    fa = audit_file(FIX_2010, "tenhou-4p", with_facts=False)
    assert _fields(fa) == [("transition", "game_over", "E4-1")]


# ------------------------------------------------------------- open flow rules


def _hand(round_index: int, dealer: int, honba: int = 0, sticks: int = 0) -> HandLog:
    return HandLog(0, 0, round_index, honba, sticks, dealer, (0,) * 4, ((),) * 4, 0)


def _era(window: LogWindow, *, hanchan: bool) -> Era:
    return Era(window, (), tuple(r for r in OPEN_RULES if r.open_for(window, hanchan)))


def _expect(state: HandState, outcome: HandOutcome, length: str):  # type: ignore[no-untyped-def]
    return lambda rules: next_hand(state, outcome, rules, game_length=length)


def test_an_east_only_game_entering_south_before_june_2010_is_a_note() -> None:
    """East 4: a non-dealer wins and seat 1 has 31,000, so today's rule ends the
    game; a 2009 log that goes into South 1 instead is followed, with a note."""
    state = HandState(3, 0, 0, 3, (24000, 31000, 25000, 20000))
    out = HandOutcome(winners=(0,), deltas=(1000, 0, 0, -1000))
    expect = _expect(state, out, "tonpuu")
    south1 = _hand(4, 0)
    for stamp, opened in (("2009100718", True), ("2010070100", False)):
        era = _era(LogWindow(stamp, stamp), hanchan=False)
        read = read_flow(era, T4, expect, _hand(3, 3), south1, hanchan=False)
        if opened:
            assert read.expected == HandState(4, 0, 0, 0, (25000, 31000, 25000, 19000))
            assert [n.field for n in read.notes] == ["flow_rule_open"]
            assert "South round" in read.notes[0].message
        else:
            assert (read.expected, read.notes) == (None, ())


def test_a_game_ending_at_exactly_zero_before_2024_is_a_note() -> None:
    state = HandState(1, 0, 0, 1, (25000, 25000, 25000, 25000))
    out = HandOutcome(winners=(0,), deltas=(25000, 0, 0, -25000))
    expect = _expect(state, out, "hanchan")
    for stamp, opened in (("2015010100", True), ("2024050100", False)):
        era = _era(LogWindow(stamp, stamp), hanchan=True)
        read = read_flow(era, T4, expect, _hand(1, 1), None, hanchan=True)
        assert (read.expected is None) is opened
        assert [n.field for n in read.notes] == (["flow_rule_open"] if opened else [])


def test_a_bust_below_zero_is_settled_in_every_era() -> None:
    state = HandState(1, 0, 0, 1, (25000, 25000, 25000, 25000))
    out = HandOutcome(winners=(0,), deltas=(25100, 0, 0, -25100))
    era = _era(LogWindow("2006102800", "2006102800"), hanchan=False)
    read = read_flow(
        era, T4, _expect(state, out, "tonpuu"), _hand(1, 1), _hand(2, 2), hanchan=False
    )
    assert (read.expected, read.notes) == (None, ())


def test_a_2006_dealer_playing_on_after_a_win_on_top_is_a_note() -> None:
    state = HandState(3, 0, 0, 3, (20000, 25000, 24000, 31000))
    out = HandOutcome(winners=(3,), dealer_won=True, deltas=(-1000, 0, 0, 1000))
    expect = _expect(state, out, "tonpuu")
    again = _hand(3, 3, honba=1)
    old = read_flow(
        _era(LogWindow("2006102800", "2006102800"), hanchan=False),
        T4,
        expect,
        _hand(3, 3),
        again,
        hanchan=False,
    )
    assert old.expected is not None and (old.expected.dealer, old.expected.honba) == (3, 1)
    assert "agari-yame" in old.notes[0].message
    modern = read_flow(
        _era(LogWindow("2015010100", "2015010100"), hanchan=False),
        T4,
        expect,
        _hand(3, 3),
        again,
        hanchan=False,
    )
    assert (modern.expected, modern.notes) == (None, ())


def test_the_red_five_set_is_checked_like_every_rule_value() -> None:
    """Four reds need four ids of fives: the 2006 set is a valid rule, a fourth
    red without its tile, or a red 6m, is refused."""
    from replay_audit.model.errors import RulesError
    from replay_audit.model.rules.presets import with_overrides

    old = with_overrides(T4, {"aka": "4", "red_fives": "16,52,53,88"})
    assert old.red_fives == RED_FIVES_2006.old[1][1]
    for bad in ({"aka": "4"}, {"red_fives": "16,20,88"}, {"red_fives": "16,16,88"}):
        with pytest.raises(RulesError, match="red_fives"):
            with_overrides(T4, bad)
