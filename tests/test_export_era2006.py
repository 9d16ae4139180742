"""A 2006 log's second red 5p survives the tenhou.net/6 round trip.

Tenhou's 2006 server had four red fives, two of them 5p (ids 52 and 53:
``model.rules.eras``).  The writer spells both as code 52 and says so with
``aka52: 2`` (``model.rules.reds``: the flag read as a count, as tensoul writes
it for Mahjong Soul's four-red rooms); the reader gives the code-52 tiles copies
0 and 1 of 5p, and the auditor applies the 2006 set to a JSON log declaring it.
So XML -> JSON -> events and audit is XML -> events and audit, for the 2006 case
of ``../shared/cases``, our 2006 fixture and every 2006 log of the corpus (none
today: its oldest dated logs are of 2009; ``grep 2006 manifest.tsv`` only finds
hours).  The old writer (3 reds, 53 as a plain 25) is shown to fail the same
comparison.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replay_audit.auditing.game import audit_game
from replay_audit.cli import main
from replay_audit.export import dumps_tenhou6, tenhou6, to_mjai, to_tenhou6
from replay_audit.io.read import read_log
from replay_audit.model.errors import InvalidValueError
from replay_audit.model.events import Discard, Disconnect, Game, Reconnect
from replay_audit.model.findings import Finding
from replay_audit.model.rules.eras import red_fives_of
from replay_audit.model.rules.reds import TODAYS, declared_red_fives, kept_red_fives, rule_flags
from replay_audit.parsers.tenhou_json import comparable, parse_tenhou_json
from replay_audit.parsers.tenhou_json.calls import _Pool
from tests.conftest import CASES, CORPUS, FIXTURES, need

SET_2006 = (16, 52, 53, 88)
FLAGS_2006 = {"aka53": 1, "aka52": 2, "aka51": 1}
CASE = CASES / "era2006_20061028gm-0001-0000-1af63a72.xml.gz"
FIXTURE = (
    FIXTURES / "era2006_four_reds_stepless_riichi_ankan_junk_20061015gm-0001-0000-2006a4e1.xml"
)
JSON_FIXTURE = FIXTURES / "json_era2006_two_red_5p_aka52_20061015gm-0001-0000-2006a4e1.json"
LOGS = [CASE, FIXTURE, *sorted(CORPUS.rglob("2006*.xml.gz"))]
"""Every real or hand-made 2006 log we have (the corpus part is empty today)."""
JSON_BLIND = {"file", "seq", "rec_fu"}
"""``hands`` columns a JSON reading cannot match: the file name, the XML tag
numbers, and the fu of a limit hand (the JSON writes ``満貫`` without it)."""


def _read(path: Path) -> Game:
    return read_log(str(need(path, "../shared") if path != FIXTURE else path))


def _events(game: Game, reds: tuple[int, ...]) -> list[tuple[list[Any], list[Any]]]:
    """Per hand: the moves and results, and the connection events apart (the JSON
    counts a BYE after the last move, not after the result: formats.md §4)."""
    out = []
    for h in game.hands:
        conn = (Disconnect, Reconnect)
        out.append(
            (
                [comparable(e, reds=reds) for e in h.events if not isinstance(e, conn)],
                [comparable(e, reds=reds) for e in h.events if isinstance(e, conn)],
            )
        )
    return out


def _same_audit(xml: Game, js: Game) -> list[str]:
    """What differs between the audits of two readings of one game (empty: none)."""
    fx, hx, rx = audit_game(xml)
    fj, hj, rj = audit_game(js)

    def key(f: Finding) -> tuple[object, ...]:
        return (f.category, f.field, f.hand, f.seat, f.recorded, f.computed, f.message)

    out = []
    if rj.name != rx.name or rj.red_fives != rx.red_fives:
        out.append(f"rules {rj.name} {rj.red_fives} vs {rx.name} {rx.red_fives}")
    if [key(f) for f in fj] != [key(f) for f in fx]:
        out.append(f"findings {[key(f) for f in fj]} vs {[key(f) for f in fx]}")
    if len(hj) != len(hx):
        out.append(f"{len(hj)} hand rows vs {len(hx)}")
    for rowj, rowx in zip(hj, hx, strict=False):
        differ = {k for k in rowx if k not in JSON_BLIND and rowj.get(k) != rowx[k]}
        if rowj.get("rec_fu") is not None and rowj["rec_fu"] != rowx.get("rec_fu"):
            differ.add("rec_fu")
        if differ:
            out.append(f"{rowx['hand']}: {sorted(differ)}")
    return out


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_a_2006_log_round_trips_with_its_second_red_5p(path: Path) -> None:
    xml = _read(path)
    assert red_fives_of(xml) == SET_2006
    doc = to_tenhou6(xml)
    assert {k: v for k, v in doc["rule"].items() if k != "disp"} == FLAGS_2006
    js = parse_tenhou_json(json.dumps(doc, ensure_ascii=False).encode(), path.name + ".json")
    assert red_fives_of(js) == SET_2006
    assert len(js.hands) == len(xml.hands)
    assert _events(js, SET_2006) == _events(xml, SET_2006)
    assert js.owari == xml.owari
    assert _same_audit(xml, js) == []
    assert to_tenhou6(js) == doc  # and the JSON writes itself back unchanged


def test_the_2006_json_holds_53_as_a_red_5p() -> None:
    xml = _read(FIXTURE)
    hand = to_tenhou6(xml)["log"][1]
    # seat 0 holds 52 and seat 2 draws 53 and deals it in: both red, code 52
    assert 52 in hand[4] and 52 in hand[11]
    assert not any(25 in col for col in hand[4:16])
    js = parse_tenhou_json(dumps_tenhou6(xml).encode(), "x")
    assert [t for t in js.hands[1].haipai[0] if t >> 2 == 13] == [52]
    last = [e for e in js.hands[1].events if isinstance(e, Discard)][-1]
    assert (last.seat, last.tile) == (2, 53)
    dahai = [e["pai"] for e in to_mjai(xml) if e["type"] == "dahai" and e["actor"] == 2]
    assert dahai[-1] == "5pr"


def test_the_old_writer_fails_the_same_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    """Written with today's three reds (53 as a plain 25, ``aka52: 1``), the
    2006 fixture reads back and audits with findings the XML does not have."""
    xml = _read(FIXTURE)
    monkeypatch.setattr(tenhou6, "red_fives_of", lambda g: TODAYS if g.meta.aka else ())
    doc = to_tenhou6(xml)
    assert doc["rule"]["aka52"] == 1
    js = parse_tenhou_json(json.dumps(doc, ensure_ascii=False).encode(), "x")
    assert red_fives_of(js) == TODAYS
    assert _same_audit(xml, js) != []


def test_two_red_5p_codes_need_the_flag() -> None:
    """The 2006 JSON with ``aka52`` back at 1 is refused: one red 5p in the set."""
    doc = json.loads(JSON_FIXTURE.read_text(encoding="utf-8"))
    assert doc["rule"]["aka52"] == 2
    doc["rule"]["aka52"] = 1
    with pytest.raises(InvalidValueError, match="more copies of tile code 52"):
        parse_tenhou_json(json.dumps(doc).encode(), "x")


def test_the_convert_command_writes_the_2006_set(tmp_path: Path) -> None:
    out = tmp_path / "era2006.json"
    assert main(["convert", str(FIXTURE), "--to", "tenhou6", "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(
        JSON_FIXTURE.read_text(encoding="utf-8")
    )
    game = read_log(str(out))
    findings, _, rules = audit_game(game)
    assert rules.red_fives == SET_2006
    assert [f.field for f in findings] == ["rule_2006_unknown"]


# ----------------------------------------------------------------- the flags


@pytest.mark.parametrize(
    ("rule", "reds"),
    [
        ({"aka53": 1, "aka52": 1, "aka51": 1}, TODAYS),
        ({"aka": 1}, TODAYS),
        ({}, TODAYS),
        ({"aka53": 1, "aka52": 1, "aka51": 0}, TODAYS),  # three-player: no 5m anyway
        (FLAGS_2006, SET_2006),
        ({"aka53": 0, "aka52": 2, "aka51": 1}, SET_2006),  # tensoul sanma, 4 reds
        ({"aka52": 4, "aka53": 3}, (16, 52, 53, 54, 55, 88, 89, 90)),
        ({"aka52": "2", "aka53": True}, TODAYS),  # only integers count
    ],
)
def test_flags_read_as_red_counts(rule: dict[str, object], reds: tuple[int, ...]) -> None:
    assert declared_red_fives(rule) == reds


def test_flags_written_for_a_set() -> None:
    assert rule_flags(SET_2006) == FLAGS_2006
    assert rule_flags(TODAYS) == {"aka53": 1, "aka52": 1, "aka51": 1}
    assert rule_flags(()) == {"aka53": 0, "aka52": 0, "aka51": 0}
    assert list(rule_flags(SET_2006)) == ["aka53", "aka52", "aka51"]  # Tenhou's order


def test_a_flag_above_four_is_refused() -> None:
    doc = json.loads(JSON_FIXTURE.read_text(encoding="utf-8"))
    doc["rule"]["aka52"] = 5
    with pytest.raises(InvalidValueError, match="aka52 is 5"):
        parse_tenhou_json(json.dumps(doc).encode(), "x")


def test_a_game_without_aka_has_no_red_fives() -> None:
    doc = json.loads(JSON_FIXTURE.read_text(encoding="utf-8"))
    doc["rule"] = {"disp": "般東喰", "aka53": 0, "aka52": 0, "aka51": 0}
    doc["log"] = [doc["log"][0]]  # the hand without red codes
    game = parse_tenhou_json(json.dumps(doc).encode(), "x")
    assert not game.meta.aka
    assert kept_red_fives(game.meta) == ()
    assert red_fives_of(game) == ()


def test_the_pool_gives_red_codes_the_red_copies() -> None:
    pool = _Pool(frozenset(SET_2006))
    assert [pool.take(52), pool.take(52), pool.take(25), pool.take(25)] == [52, 53, 54, 55]
    for code in (52, 25):
        with pytest.raises(ValueError, match=f"tile code {code}"):
            pool.take(code)
    today = _Pool(frozenset(TODAYS))
    assert [today.take(25) for _ in range(3)] + [today.take(52)] == [53, 54, 55, 52]
    plain = _Pool(frozenset())  # no aka: a red code is a plain five, copy 0 last
    assert [plain.take(52) for _ in range(4)] == [53, 54, 55, 52]
