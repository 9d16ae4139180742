"""A Mahjong Soul game's length read off the log where its room name does not say it
(``auditing.majsoul_length``), sudden death included.

An East-only game whose top is below the target after its all-last goes into the
South as sudden death and ends after the first hand that leaves someone at or
above it.  Read as a hanchan (the default), such a game "should have gone on": a
false ``game_over``.  The fixtures (``tests/majsoul_games.py`` writes them; each
audits with no problem):

* ``majsoul_east_only_sudden_death_ends_south2``: all at 25000 after East 4, South
  1 leaves the top at 26000 (on), South 2's mangan at 33000: East-only, said so;
* ``majsoul_no_length_east_only_ends_east4``: ends at East 4: East-only (as before);
* ``majsoul_no_length_hanchan_bust_in_south``: a bust at South 1 ends either
  length: the default (a hanchan), no note;
* ``majsoul_no_length_hanchan_ends_south4``: ends at South 4, where a hanchan ends
  (and an East-only game's sudden death at the latest): the default, no note;
* ``majsoul_3p_east_only_sudden_death_ends_south2``: three players (35000, 40000
  to end), all at 35000 after East 3, South 1 leaves the top at 36000, South 2's
  mangan at 43000: East-only; its counter-case
  ``majsoul_3p_no_length_hanchan_ends_south3`` ends at South 3, the three-player
  South all-last: the default (a hanchan);
* ``majsoul_friendly_room_own_target_ends_south2`` and
  ``majsoul_tournament_room_own_target_dealer_on_top_ends_south1``: rooms whose
  settings are their owner's, whose target is not in the log: the game went on
  where the default 30000 ends it (the second at its dealer on top, 37000), and
  ended in the South at a top a higher target explains.  East-only, with the
  target's range in the note and the game audited with one in it.

Each reading is also shown to be no blank check: a room that names its length, a
user's rules, a game that went on where sudden death ends it, one that ended
below every target it could have, and a room whose target is known are all
findings (or no reading).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.game import rules_for_game
from replay_audit.auditing.majsoul_length import read_length
from replay_audit.io.read import read_log
from replay_audit.model.rules.presets import PRESETS
from replay_audit.replay.table import replay_game
from tests.conftest import FIXTURES
from tests.logedit import audit, notes, problems, write_json
from tests.majsoul_games import (
    FIXTURE_GAMES,
    MANGAN,
    REF,
    ROUND_OF_SMALL_WINS,
    ROUND_OF_SMALL_WINS_3P,
    SMALL,
    SMALL_3P,
    build,
)

SUDDEN_DEATH = FIXTURES / "majsoul_east_only_sudden_death_ends_south2.json"
EAST4 = FIXTURES / "majsoul_no_length_east_only_ends_east4.json"
BUST = FIXTURES / "majsoul_no_length_hanchan_bust_in_south.json"
SOUTH4 = FIXTURES / "majsoul_no_length_hanchan_ends_south4.json"
SUDDEN_DEATH_3P = FIXTURES / "majsoul_3p_east_only_sudden_death_ends_south2.json"
SOUTH3_3P = FIXTURES / "majsoul_3p_no_length_hanchan_ends_south3.json"
FRIENDLY_TARGET = FIXTURES / "majsoul_friendly_room_own_target_ends_south2.json"
DEALER_TOP_TARGET = FIXTURES / "majsoul_tournament_room_own_target_dealer_on_top_ends_south1.json"
ALL = (SUDDEN_DEATH, EAST4, BUST, SOUTH4, SUDDEN_DEATH_3P, SOUTH3_3P)
ALL += (FRIENDLY_TARGET, DEALER_TOP_TARGET)
EAST_ONLY = (SUDDEN_DEATH, EAST4, SUDDEN_DEATH_3P, FRIENDLY_TARGET, DEALER_TOP_TARGET)


def _lengths(fa: Any) -> list[str]:
    return [f["message"] for f in notes(fa) if f["field"] == "inferred_length"]


def _fields(fa: Any) -> set[tuple[str, str]]:
    return {(f["category"], f["field"]) for f in problems(fa)}


@pytest.mark.parametrize("name", sorted(FIXTURE_GAMES))
def test_the_fixtures_are_the_games_written_out(name: str) -> None:
    """The fixtures are golden files: what ``majsoul_games`` builds, unchanged."""
    path = FIXTURES / f"{name}.json"
    assert json.loads(path.read_text(encoding="utf-8")) == FIXTURE_GAMES[name]


def test_every_fixture_is_named_here() -> None:
    assert {p.stem for p in ALL} == set(FIXTURE_GAMES)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_fixture_audits_clean(path: Path) -> None:
    fa = audit(path)
    assert problems(fa) == [] and fa.status == "ok"
    players = "3p" if "_3p_" in path.name else "4p"
    assert fa.games[0]["rules"] == f"majsoul-{players}-inferred"
    length = "tonpuu" if path in EAST_ONLY else "hanchan"
    assert {r["game_type"] for r in audit_file(path).game_facts} == {f"majsoul-{players}-{length}"}


@pytest.mark.parametrize("path", EAST_ONLY, ids=lambda p: p.stem)
def test_read_as_a_hanchan_every_east_only_fixture_is_a_finding(path: Path) -> None:
    """No blank check: under the user's rules (nothing read, the log's own length:
    a hanchan) each East-only fixture ends where a hanchan goes on."""
    rules = "majsoul-3p" if "_3p_" in path.name else "majsoul-4p"
    fa = audit_file(path, rules, with_facts=False)
    assert _lengths(fa) == []
    assert ("transition", "game_over") in _fields(fa)


def test_sudden_death_in_the_south_is_east_only() -> None:
    fa = audit(SUDDEN_DEATH)
    assert problems(fa) == []
    (text,) = _lengths(fa)
    assert "an East-only game that went into the South as sudden death" in text
    assert "'友人场'" in text and "ended at S2, before the South all-last" in text
    # '友人场' names no room tensoul knows: its target is not known either
    assert "it went on after S1-0 with the top at 26000, and S2-0 left the top at 33000" in text
    assert "a target between 26100 and 33000 explains every hand from E4 on" in text
    (row,) = [f for f in notes(fa) if f["field"] == "inferred_length"]
    assert (row["hand"], row["recorded"], row["computed"]) == ("S2-0", "hanchan", "tonpuu")
    # the default is one of them: the game is audited with it
    assert text.endswith("the default 30000 is one of them")


def test_east_only_at_east4_as_before() -> None:
    fa = audit(EAST4)
    (text,) = _lengths(fa)
    assert "ended at E4 with no score below zero, where a hanchan goes on" in text


@pytest.mark.parametrize("path", [BUST, SOUTH4], ids=lambda p: p.stem)
def test_where_both_lengths_fit_the_default_stays(path: Path) -> None:
    """A bust in the South, or an end at South 4, fits a hanchan as well as an
    East-only game's sudden death: the default (a hanchan) is kept, and a
    ``length_assumed`` note says it is the default, right after the lobby's."""
    fa = audit(path)
    assert problems(fa) == [] and _lengths(fa) == []
    fields = [f["field"] for f in fa.findings]
    assert fields.index("length_assumed") == fields.index("lobby_rules") + 1
    (note,) = [f for f in fa.findings if f["field"] == "length_assumed"]
    assert "counted as a hanchan (the default)" in note["message"]
    assert note["recorded"] is None and note["computed"] is None  # the facts keep hanchan
    why = "by a bust" if path == BUST else "the South all-last"
    assert why in note["message"]


def test_no_assumption_noted_where_the_log_decides() -> None:
    """A game the log reads (East-only at E4, sudden death in the South) has its
    ``inferred_length`` note and no ``length_assumed``."""
    for path in (EAST4, SUDDEN_DEATH):
        fields = [f["field"] for f in audit(path).findings]
        assert "inferred_length" in fields and "length_assumed" not in fields


def test_the_note_comes_right_after_the_lobby_note() -> None:
    """The length is read after the renchan now, but its note keeps its place."""
    fields = [f["field"] for f in audit_file(SUDDEN_DEATH, with_facts=False).findings]
    assert fields.index("inferred_length") == fields.index("lobby_rules") + 1


@pytest.mark.parametrize(
    ("disp", "length_notes", "game_over"),
    [("友人戦南喰赤", 0, True), ("友人戦東喰赤", 0, False), ("Friendly South", 0, True)],
)
def test_a_named_length_is_taken_as_named(
    tmp_path: Path, disp: str, length_notes: int, game_over: bool
) -> None:
    """Nothing is read where the room names the length: named a hanchan, the game
    ends where a hanchan goes on (a finding); named East-only, it audits clean."""
    doc = json.loads(SUDDEN_DEATH.read_text(encoding="utf-8"))
    doc["rule"]["disp"] = doc["title"][0] = disp
    fa = audit(write_json(doc, tmp_path / SUDDEN_DEATH.name))
    assert len(_lengths(fa)) == length_notes
    assert (("transition", "game_over") in _fields(fa)) is game_over
    if not game_over:
        assert problems(fa) == []


def test_under_the_users_rules_nothing_is_read() -> None:
    """Rules passed by the user are the rules: read as a hanchan (the log's own
    length), the game ends where it should go on."""
    fa = audit_file(SUDDEN_DEATH, "majsoul-4p", with_facts=False)
    assert _lengths(fa) == []
    assert ("transition", "game_over") in _fields(fa)


def _audited(tmp_path: Path, wins: tuple[Any, ...], name: str) -> Any:
    doc = build(wins, disp="", ref=REF + "9")
    return audit(write_json(doc, tmp_path / f"{name}.json"))


def test_a_game_that_went_on_past_its_sudden_death_end_is_not_east_only(
    tmp_path: Path,
) -> None:
    """East 4's mangan puts the top at 32000 and the game goes on (an East-only
    game's target is above it); South 1 ends it with the top at 31000: no target
    explains that, and no length does."""
    wins = (*ROUND_OF_SMALL_WINS[:3], (0, 3, MANGAN), (1, 0, SMALL))
    fa = _audited(tmp_path, wins, "went_on")
    assert _lengths(fa) == []
    assert ("transition", "game_over") in _fields(fa)


def test_a_game_that_ended_below_the_target_is_not_east_only(tmp_path: Path) -> None:
    """All small wins: the game went on with the top at 26000 after South 1 and
    ended with it at 26000 after South 2: below every target it could have."""
    wins = (*ROUND_OF_SMALL_WINS, (1, 0, SMALL), (2, 1, SMALL))
    fa = _audited(tmp_path, wins, "below")
    assert _lengths(fa) == []
    assert ("transition", "game_over") in _fields(fa)


def test_the_dealer_on_top_ends_sudden_death(tmp_path: Path) -> None:
    """South 1's dealer (seat 0) wins a mangan, 37000 and on top: the game ends
    there without passing the deal, as the all-last dealer on top ends it."""
    wins = (*ROUND_OF_SMALL_WINS, (0, 1, MANGAN))
    fa = _audited(tmp_path, wins, "dealer_top")
    assert problems(fa) == []
    (text,) = _lengths(fa)
    assert "S1-0's dealer kept the deal on top at 37000" in text


def test_the_dealer_who_keeps_the_deal_below_the_known_target_goes_on(tmp_path: Path) -> None:
    """South 1's dealer (seat 0) wins 1500 and is on top at 26500: in a room whose
    target is known (30000) the game goes on there, so ending there is not sudden
    death's end and nothing is read; with no room named the target is the room's
    own, and one between 25100 and 26500 explains it (said so, and not the
    default)."""
    wins = (*ROUND_OF_SMALL_WINS, (0, 1, SMALL))
    for disp in ("銅の間", "Gold Room"):  # ranked rooms, the length not named
        assert _read(tmp_path, build(wins, disp=disp, ref=REF + "9")) is None
    fa = _audited(tmp_path, wins, "dealer_below")
    assert problems(fa) == []
    (text,) = _lengths(fa)
    assert "S1-0's dealer kept the deal on top at 26500" in text
    assert "a target between 25100 and 26500" in text
    assert text.endswith("the default 30000 is not, and the game is audited with 26500")


def _read(tmp_path: Path, doc: dict[str, Any]) -> Any:
    """``read_length`` called as such, for a room the audit does not read (a
    ranked room's rules are known: the lobby reading leaves it alone)."""
    game = read_log(write_json(doc, tmp_path / "read.json"))
    rules = rules_for_game(game)
    return read_length(game, replay_game(game, rules), rules)


def test_a_known_rooms_target_is_kept(tmp_path: Path) -> None:
    """The same hands as the default-target fixture read the same in a ranked room
    (its 30000 explains them); the friendly room's hands, which went on at 32000,
    are no sudden death there."""
    doc = json.loads(SUDDEN_DEATH.read_text(encoding="utf-8"))
    doc["rule"]["disp"] = "銅の間"
    found = _read(tmp_path, doc)
    assert found is not None and found.end_points is None
    assert "nobody had the 30000 the top needs to end the game after E4, and S2-0" in found.message
    doc = json.loads(FRIENDLY_TARGET.read_text(encoding="utf-8"))
    assert _read(tmp_path, doc) is not None
    doc["rule"]["disp"] = "銅の間"
    assert _read(tmp_path, doc) is None


# ------------------------------------------------------------------ three players


def test_three_player_sudden_death_in_the_south_is_east_only() -> None:
    """35000 each after East 3 (the three-player all-last), 36000 after South 1,
    43000 after South 2: East-only, its 40000 among the targets that explain it."""
    fa = audit(SUDDEN_DEATH_3P)
    (text,) = _lengths(fa)
    assert "ended at S2, before the South all-last" in text
    assert "it went on after S1-0 with the top at 36000, and S2-0 left the top at 43000" in text
    assert "a target between 36100 and 43000 explains every hand from E3 on" in text
    assert text.endswith("the default 40000 is one of them")
    fields = [f["field"] for f in fa.findings]
    assert fields[:2] == ["lobby_rules", "inferred_length"] and "length_assumed" not in fields


def test_three_player_end_at_south3_is_the_hanchan_all_last() -> None:
    """South 3 is the three-player South all-last (no South 4): a hanchan's end,
    not sudden death before it, so the default stays, said to be the default."""
    fa = audit(SOUTH3_3P)
    assert problems(fa) == [] and _lengths(fa) == []
    (note,) = [f for f in fa.findings if f["field"] == "length_assumed"]
    assert "ended at S3, the South all-last" in note["message"]
    assert (note["hand"], note["recorded"], note["computed"]) == ("S3-0", None, None)


def test_three_player_game_that_went_on_past_its_end_is_not_east_only(tmp_path: Path) -> None:
    """East 3 passes the deal with the top at 36000, South 1 ends the game with it
    at 35000: no target explains both, so the default (a hanchan) stays and the
    game-end check reports the end."""
    wins = (*ROUND_OF_SMALL_WINS_3P[:2], (1, 2, SMALL_3P), (2, 0, SMALL_3P))
    doc = build(wins, disp="", ref=REF + "9", players=3)
    fa = audit(write_json(doc, tmp_path / "went_on_3p.json"))
    assert _lengths(fa) == []
    assert ("transition", "game_over") in _fields(fa)


# ----------------------------------------------- rooms whose settings are their owner's


def test_a_friendly_rooms_own_target_explains_its_end() -> None:
    """East 4 left the top at 32000 and the game went on, so the target is not the
    default 30000 (read with it, the game is no sudden death: a false
    ``game_over``); South 2 ended it at 40000.  East-only, audited with 40000."""
    fa = audit(FRIENDLY_TARGET)
    assert problems(fa) == []
    (text,) = _lengths(fa)
    assert "'友人戦'" in text and "ended at S2, before the South all-last" in text
    assert "it went on after E4-0 with the top at 32000, and S2-0 left the top at 40000" in text
    assert "a target between 32100 and 40000 explains every hand from E4 on" in text
    assert text.endswith("the default 30000 is not, and the game is audited with 40000")
    # the target is not read twice: no second note on it
    assert not any("not the default" in f["message"] for f in notes(fa))


def test_the_dealer_on_top_who_plays_on_bounds_the_target() -> None:
    """South 1's dealer wins a mangan and is on top at 37000, and the deal is
    played on: the dealer on top at the target ends the game, so the target is
    above 37000 (not only above the deal-passing hands' 25000); the next mangan
    ends it at 49300."""
    fa = audit(DEALER_TOP_TARGET)
    assert problems(fa) == []
    (text,) = _lengths(fa)
    assert "'大会戦'" in text and "ended at S1, before the South all-last" in text
    assert "it went on after S1-0 with the top at 37000" in text
    assert "S1-1's dealer kept the deal on top at 49300" in text
    assert "a target between 37100 and 49300" in text
    assert text.endswith("the default 30000 is not, and the game is audited with 49300")


@pytest.mark.parametrize("path", [FRIENDLY_TARGET, DEALER_TOP_TARGET], ids=lambda p: p.stem)
def test_the_range_is_the_targets_the_game_end_check_accepts(tmp_path: Path, path: Path) -> None:
    """The note's range, held against the game-end check itself: the same game with
    its room named East-only, audited under the user's rules with the target at
    each end of the range is clean, and 100 beyond either end (the game should
    have ended earlier, or gone on) is a ``game_over``."""
    (text,) = _lengths(audit(path))
    span = text.split("a target between ")[1].split(" explains")[0]
    lo, hi = (int(v) for v in span.split(" and "))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["rule"]["disp"] = doc["title"][0] = "友人戦東喰赤"
    named = write_json(doc, tmp_path / path.name)
    for target, clean in ((lo - 100, False), (lo, True), (hi, True), (hi + 100, False)):
        rules = dataclasses.replace(PRESETS["majsoul-4p"], end_points=target)
        fa = audit_file(named, rules, with_facts=False)
        assert (_fields(fa) == set()) is clean, (target, _fields(fa))
        assert clean or ("transition", "game_over") in _fields(fa)


def test_a_friendly_room_no_target_explains_is_a_finding(tmp_path: Path) -> None:
    """East 4's mangan leaves the top at 32000 and the game goes on; South 1 ends it
    with the top at 31000: the target would be above 32000 and at most 31000.  No
    target explains the game: not East-only, and the game-end check reports the
    end under the default (a hanchan)."""
    wins = (*ROUND_OF_SMALL_WINS[:3], (0, 3, MANGAN), (2, 0, SMALL))
    fa = audit(write_json(build(wins, disp="友人戦", ref=REF + "9"), tmp_path / "none.json"))
    assert _lengths(fa) == []
    assert _fields(fa) == {("transition", "game_over")}
