"""A Mahjong Soul game's length read off the log where its room name does not say it
(``auditing.majsoul_length``), sudden death included.

An East-only game whose top is below the target after East 4 goes into the South
as sudden death and ends after the first hand that leaves someone at or above it.
Read as a hanchan (the default), such a game "should have gone on": a false
``game_over``.  The fixtures (``tests/majsoul_games.py`` writes them; each audits
with no problem):

* ``majsoul_east_only_sudden_death_ends_south2``: all at 25000 after East 4, South
  1 leaves the top at 26000 (on), South 2's mangan at 33000: East-only, said so;
* ``majsoul_no_length_east_only_ends_east4``: ends at East 4: East-only (as before);
* ``majsoul_no_length_hanchan_bust_in_south``: a bust at South 1 ends either
  length: the default (a hanchan), no note;
* ``majsoul_no_length_hanchan_ends_south4``: ends at South 4, where a hanchan ends
  (and an East-only game's sudden death at the latest): the default, no note.

Each reading is also shown to be no blank check: a room that names its length, a
user's rules, a game that went on where sudden death ends it, and one that ended
below the target are all findings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replay_audit.auditing.auditor import audit_file
from tests.conftest import FIXTURES
from tests.logedit import audit, notes, problems, write_json
from tests.majsoul_games import FIXTURE_GAMES, MANGAN, REF, ROUND_OF_SMALL_WINS, SMALL, build

SUDDEN_DEATH = FIXTURES / "majsoul_east_only_sudden_death_ends_south2.json"
EAST4 = FIXTURES / "majsoul_no_length_east_only_ends_east4.json"
BUST = FIXTURES / "majsoul_no_length_hanchan_bust_in_south.json"
SOUTH4 = FIXTURES / "majsoul_no_length_hanchan_ends_south4.json"


def _lengths(fa: Any) -> list[str]:
    return [f["message"] for f in notes(fa) if f["field"] == "inferred_length"]


def _fields(fa: Any) -> set[tuple[str, str]]:
    return {(f["category"], f["field"]) for f in problems(fa)}


@pytest.mark.parametrize("name", sorted(FIXTURE_GAMES))
def test_the_fixtures_are_the_games_written_out(name: str) -> None:
    """The fixtures are golden files: what ``majsoul_games`` builds, unchanged."""
    path = FIXTURES / f"{name}.json"
    assert json.loads(path.read_text(encoding="utf-8")) == FIXTURE_GAMES[name]


@pytest.mark.parametrize("path", [SUDDEN_DEATH, EAST4, BUST, SOUTH4], ids=lambda p: p.stem)
def test_every_fixture_audits_clean(path: Path) -> None:
    fa = audit(path)
    assert problems(fa) == [] and fa.status == "ok"
    assert fa.games[0]["rules"] == "majsoul-4p-inferred"


def test_sudden_death_in_the_south_is_east_only() -> None:
    fa = audit(SUDDEN_DEATH)
    assert problems(fa) == []
    (text,) = _lengths(fa)
    assert "an East-only game that went into the South as sudden death" in text
    assert "'友人场'" in text and "ended at S2, before the South all-last" in text
    assert (
        "nobody had the 30000 the top needs to end the game after E4, and S2-0 left the top at 33000"
        in text
    )
    (row,) = [f for f in notes(fa) if f["field"] == "inferred_length"]
    assert (row["hand"], row["recorded"], row["computed"]) == ("S2-0", "hanchan", "tonpuu")
    # the target is the default one: the game went on at 26000 and ended at 33000
    assert not any("not the default" in t for t in _lengths(fa))


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
    """East 4's mangan puts the top at 32000, where an East-only game ends; the game
    goes on to South 1 and ends there: neither length explains it."""
    wins = (*ROUND_OF_SMALL_WINS[:3], (0, 3, MANGAN), (1, 0, SMALL))
    fa = _audited(tmp_path, wins, "went_on")
    assert _lengths(fa) == []
    assert ("transition", "game_over") in _fields(fa)


def test_a_game_that_ended_below_the_target_is_not_east_only(tmp_path: Path) -> None:
    """All small wins: the top is at 26000 after South 2, where sudden death goes on."""
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


def test_the_dealer_who_keeps_the_deal_below_the_top_goes_on(tmp_path: Path) -> None:
    """South 1's dealer (seat 0) wins 1500 and is on top at 26500, below the target:
    the game goes on; ending there is not sudden death's end."""
    wins = (*ROUND_OF_SMALL_WINS, (0, 1, SMALL))
    fa = _audited(tmp_path, wins, "dealer_below")
    assert _lengths(fa) == []
    assert ("transition", "game_over") in _fields(fa)


def test_the_length_reaches_the_statistics() -> None:
    """The facts group an East-only game with the East-only games."""
    fa = audit_file(SUDDEN_DEATH)
    assert {r["game_type"] for r in fa.game_facts} == {"majsoul-4p-tonpuu"}
    assert {r["hanchan"] for r in fa.game_facts} == {False}
    fa = audit_file(EAST4)
    assert {r["game_type"] for r in fa.game_facts} == {"majsoul-4p-tonpuu"}
    for path in (SOUTH4, BUST):
        fa = audit_file(path)
        assert {r["game_type"] for r in fa.game_facts} == {"majsoul-4p-hanchan"}
    # the user's rules: nothing read, the log's own length
    fa = audit_file(SUDDEN_DEATH, "majsoul-4p")
    assert {r["game_type"] for r in fa.game_facts} == {"majsoul-4p-hanchan"}
