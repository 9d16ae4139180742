"""Writers: tenhou.net/6 JSON and mjai.

The strongest checks run on the corpus: the mjlog of each official pair,
written out by ``to_tenhou6``, must be Tenhou's own JSON of that game, and every
Phoenix game must survive XML -> JSON -> events unchanged (tiles by kind/red).
"""

from __future__ import annotations

import gzip
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.export import dumps_tenhou6, to_mjai, to_tenhou6, write_mjai_lines
from replay_audit.export.mjai import mjai_tile
from replay_audit.export.tenhou6 import call_string, disp_for_go_type, point_string
from replay_audit.model.events import Call, Discard, Draw, Game
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.parsers.tenhou_json import comparable, parse_tenhou_json
from tests.conftest import shard

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
JSON_FIXTURES = sorted(FIXTURES.glob("json_*.json"))
OFFICIAL_ORDER = ["ver", "ref", "log", "connection", "ratingc", "rule", "lobby", "dan", "rate"]


def _parse(path: Path) -> Game:
    return parse_tenhou_json(path.read_bytes(), path.name)


# ------------------------------------------------------------- call strings


def _ids(*pairs: tuple[int, int]) -> tuple[int, ...]:
    """(kind, copy) pairs -> ids."""
    return tuple(4 * k + c for k, c in pairs)


@pytest.mark.parametrize(
    ("meld", "seat", "expected"),
    [
        # chi 6s taken with 4s-5s (seat 3's kamicha is seat 2)
        (Meld(MeldKind.CHI, _ids((21, 0), (22, 1), (23, 2)), called=94, from_seat=2), 3, "c363435"),
        # chi 7s with red 5s and 6s
        (Meld(MeldKind.CHI, (88, 92, 97), called=97, from_seat=0), 1, "c375336"),
        # shimocha pon of 7s
        (Meld(MeldKind.PON, (97, 98, 99), called=99, from_seat=3), 2, "3737p37"),
        # toimen pon of 5s with the red five from the hand: red last
        (Meld(MeldKind.PON, (88, 89, 90), called=89, from_seat=0), 2, "35p3553"),
        # shimocha pon of 5m with the red from the hand: red in the middle
        (Meld(MeldKind.PON, (16, 17, 18), called=18, from_seat=1), 0, "1551p15"),
        # shimocha daiminkan of 5m, red from hand
        (Meld(MeldKind.DAIMINKAN, (16, 17, 18, 19), called=19, from_seat=1), 0, "151551m15"),
        # kamicha daiminkan, red last
        (Meld(MeldKind.DAIMINKAN, (16, 17, 18, 19), called=19, from_seat=3), 0, "m15151551"),
        # kakan of the toimen 5s pon
        (Meld(MeldKind.KAKAN, (88, 89, 90, 91), called=89, from_seat=0, added=91), 2, "35k353553"),
        (Meld(MeldKind.KAKAN, (96, 97, 98, 99), called=99, from_seat=3, added=98), 2, "3737k3737"),
        (Meld(MeldKind.ANKAN, (60, 61, 62, 63)), 3, "272727a27"),
        (Meld(MeldKind.ANKAN, (16, 17, 18, 19)), 3, "151515a51"),
        (Meld(MeldKind.KITA, (121,)), 0, "f44"),
    ],
)
def test_call_strings(meld: Meld, seat: int, expected: str) -> None:
    assert call_string(meld, seat, aka=True) == expected


def test_call_strings_without_aka_have_no_red() -> None:
    pon = Meld(MeldKind.PON, (16, 17, 18), called=18, from_seat=1)
    assert call_string(pon, 0, aka=False) == "1515p15"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((30, 4, 0, 7700, False, False), "30符4飜7700点"),
        ((30, 1, 0, 1100, True, False), "30符1飜300-500点"),
        ((40, 2, 0, 2700, True, False), "40符2飜700-1300点"),
        ((30, 4, 0, 11700, True, True), "30符4飜3900点∀"),
        ((40, 5, 1, 8000, True, False), "満貫2000-4000点"),
        ((50, 13, 5, 64000, True, False), "役満16000-32000点"),
        ((30, 7, 2, 18000, False, True), "跳満18000点"),
    ],
)
def test_point_strings(args: tuple, expected: str) -> None:
    assert point_string(*args) == expected


def test_three_player_tsumo_point_strings() -> None:
    # tsumo loss: the non-dealer total is ko + oya (no North share)
    assert point_string(30, 1, 0, 800, True, False, players=3) == "30符1飜300-500点"
    assert point_string(30, 2, 0, 3000, True, True, players=3) == "30符2飜1500点∀"


def test_disp_strings() -> None:
    assert disp_for_go_type(169) == "鳳南喰赤"
    assert disp_for_go_type(41) == "特南喰赤"
    assert disp_for_go_type(171) == "鳳南喰"
    assert disp_for_go_type(9) == "般南喰赤"
    assert disp_for_go_type(1) == "般東喰赤"
    assert disp_for_go_type(2113) == "東天紅"


# ------------------------------------------------------------ round trips


@pytest.mark.parametrize("path", JSON_FIXTURES, ids=lambda p: p.name)
def test_fixture_is_written_back_exactly(path: Path) -> None:
    original = json.loads(path.read_text(encoding="utf-8"))
    written = to_tenhou6(_parse(path))
    assert written == original
    assert list(written) == list(original)
    assert json.loads(dumps_tenhou6(_parse(path))) == original


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(JSON_FIXTURES),
    st.data(),
    st.lists(st.text(max_size=8), min_size=4, max_size=4),
)
def test_parse_export_parse_is_identity(path: Path, data: st.DataObject, names: list[str]) -> None:
    """Any selection of a fixture's hands, under any player names, reads back
    into exactly the same ``Game`` (tile ids included) after being written."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    picks = data.draw(
        st.lists(st.integers(0, len(doc["log"]) - 1), min_size=1, max_size=3, unique=True)
    )
    doc["log"] = [doc["log"][i] for i in sorted(picks)]
    doc.pop("connection", None)
    doc.pop("sc", None)
    doc["name"] = names
    first = parse_tenhou_json(json.dumps(doc, ensure_ascii=False).encode(), "a")
    again = parse_tenhou_json(dumps_tenhou6(first).encode(), "a")
    assert again == first
    assert replace(again.meta, source="b") == replace(first.meta, source="b")


# -------------------------------------------------------------------- mjai


def test_mjai_events_of_the_four_player_fixture() -> None:
    game = _parse(FIXTURES / "json_4p_calls.json")
    events = to_mjai(game)
    types = [e["type"] for e in events]
    assert types[0] == "start_game" and types[-1] == "end_game"
    assert types.count("start_kyoku") == types.count("end_kyoku") == 3
    assert types.count("tsumo") == sum(isinstance(e, Draw) for g in game.hands for e in g.events)
    assert types.count("dahai") == sum(isinstance(e, Discard) for g in game.hands for e in g.events)
    calls = [e for e in events if e["type"] in ("chi", "pon", "daiminkan", "ankan", "kakan")]
    assert [c["type"] for c in calls] == ["ankan", "chi", "pon", "daiminkan"]
    assert calls[1] == {
        "type": "chi",
        "actor": 2,
        "target": 1,
        "pai": "2p",
        "consumed": ["3p", "4p"],
    }
    assert calls[3]["consumed"] == ["3s", "3s", "3s"]
    assert [e["dora_marker"] for e in events if e["type"] == "dora"] == ["1p", "9s"]
    start = events[1]
    assert start["bakaze"] == "E" and start["kyoku"] == 1 and start["oya"] == 0
    assert len(start["tehais"]) == 4 and all(len(t) == 13 for t in start["tehais"])
    reach = types.index("reach")
    assert types[reach : reach + 3] == ["reach", "dahai", "reach_accepted"]
    hora = next(e for e in events if e["type"] == "hora")
    assert hora == {
        "type": "hora",
        "actor": 1,
        "target": 2,
        "deltas": [0, 3600, -2600, 0],
        "ura_markers": ["7m", "S", "7s"],
    }
    assert next(e for e in events if e["type"] == "ryukyoku") == {
        "type": "ryukyoku",
        "deltas": [0, 0, 0, 0],
    }
    buf = io.StringIO()
    assert write_mjai_lines(events, buf) == len(events)
    assert [json.loads(line) for line in buf.getvalue().splitlines()] == events


def test_mjai_three_player_kita_and_red_tiles() -> None:
    events = to_mjai(_parse(FIXTURES / "json_3p_kita.json"))
    assert {"type": "kita", "actor": 0, "pai": "N"} in events
    assert events[1]["tehais"][3] == []
    assert mjai_tile(52) == "5pr" and mjai_tile(53) == "5p" and mjai_tile(52, aka=False) == "5p"


# ------------------------------------------------------------------ corpus


def _xml(path: Path) -> Game:
    """Parse a gzip mjlog with the XML parser (skip when it is absent)."""
    xml = pytest.importorskip("replay_audit.parsers.tenhou_xml")
    return xml.parse_tenhou_xml(gzip.decompress(path.read_bytes()), str(path))


@pytest.mark.corpus
def test_xml_pairs_export_to_tenhous_own_json(corpus: Path) -> None:
    pairs = sorted((corpus / "pairs").glob("*.json"))
    assert len(pairs) == 6
    for path in pairs:
        official = json.loads(path.read_text(encoding="utf-8"))
        game = _xml(path.with_name(path.name.replace(".json", ".xml.gz")))
        written = to_tenhou6(game)
        for key in ("log", "name", "rule", "sc", "dan", "rate", "sx", "lobby", "ratingc"):
            assert written[key] == official[key], (path.name, key)
        assert written.get("connection") == official.get("connection")
        assert list(written) == list(official)


@pytest.mark.corpus
def test_corpus_json_written_back(corpus: Path) -> None:
    """Every corpus JSON file reads and writes back to itself (editor files
    modulo their unsorted haipai and key order)."""
    files = sorted((corpus / "pairs").glob("*.json")) + sorted(
        (corpus / "tenhou-json" / "excerpts").glob("*.json")
    )
    for path in files:
        original = json.loads(path.read_text(encoding="utf-8"))
        written = to_tenhou6(parse_tenhou_json(path.read_bytes(), str(path)))
        if "ver" in original:
            assert written == original, path.name
            continue
        assert set(written) == set(original), path.name
        for hand_w, hand_o in zip(written["log"], original["log"], strict=True):
            for j in (4, 7, 10, 13):
                hand_o[j] = sorted(
                    hand_o[j], key=lambda c: (10 * (c - 50) + 5 if c > 50 else c, c > 50)
                )
            assert hand_w == hand_o, path.name


_ROUND_TRIP_SHARDS = 6
"""``test_phoenix_round_trip_xml_json_xml``'s shards (about 10 s each on one CPU)."""


def _phoenix_files(corpus_games: dict) -> list[Path]:
    return sorted(p for p in corpus_games if "phoenix-2024" in p.parts)


@pytest.mark.corpus
def test_the_round_trip_shards_hold_every_phoenix_game(corpus_games: dict) -> None:
    """The shards below read all 2,770 Phoenix games, 27,938 hands, each once."""
    files = _phoenix_files(corpus_games)
    assert len(files) == 2770
    parts = [shard(files, k, _ROUND_TRIP_SHARDS) for k in range(_ROUND_TRIP_SHARDS)]
    assert sorted(p for part in parts for p in part) == files
    assert sum(len(corpus_games[p].hands) for part in parts for p in part) == 27938


@pytest.mark.corpus
@pytest.mark.parametrize("part", range(_ROUND_TRIP_SHARDS))
def test_phoenix_round_trip_xml_json_xml(corpus_games: dict, part: int) -> None:
    """XML -> tenhou6 JSON -> events equals XML -> events on every Phoenix game (this
    shard's; every hand of each, the JSON's hands counted against the XML's)."""
    files = shard(_phoenix_files(corpus_games), part, _ROUND_TRIP_SHARDS)
    assert len(files) >= 2770 // _ROUND_TRIP_SHARDS
    hands = 0
    for path in files:
        xg = corpus_games[path]
        jg = parse_tenhou_json(dumps_tenhou6(xg).encode(), str(path))
        aka = xg.meta.aka
        assert len(jg.hands) == len(xg.hands), path.name
        for jh, xh in zip(jg.hands, xg.hands, strict=True):
            assert [comparable(e, aka) for e in jh.events] == [
                comparable(e, aka) for e in xh.events
            ], (path.name, jh.label)
            hands += 1
        assert jg.owari == xg.owari
    assert hands == sum(len(corpus_games[p].hands) for p in files)


def test_calls_survive_the_round_trip() -> None:
    game = _parse(FIXTURES / "json_4p_calls.json")
    again = parse_tenhou_json(dumps_tenhou6(game).encode(), "x")
    kinds = [e.meld.kind for h in again.hands for e in h.events if isinstance(e, Call)]
    assert kinds == [MeldKind.ANKAN, MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN]


@pytest.mark.corpus
def test_special_and_three_player_xml_round_trip(corpus: Path) -> None:
    """The edge-case logs (BYE, pao, chip room, 2009, Toutenkou-lobby) and the
    three-player excerpts with kita also survive XML -> JSON -> events."""
    files = sorted((corpus / "tenhou-xml" / "special").glob("*.xml.gz")) + sorted(
        (corpus / "tenhou-xml" / "excerpts").glob("*.xml.gz")
    )
    assert len(files) == 28
    three = 0
    for path in files:
        xg = _xml(path)
        jg = parse_tenhou_json(dumps_tenhou6(xg).encode(), str(path))
        aka = xg.meta.aka
        assert jg.meta.players == xg.meta.players
        three += xg.meta.players == 3
        assert len(jg.hands) == len(xg.hands), path.name
        for jh, xh in zip(jg.hands, xg.hands, strict=True):
            assert [comparable(e, aka) for e in jh.events] == [
                comparable(e, aka) for e in xh.events
            ], (path.name, jh.label)
        assert jg.owari == xg.owari
    assert three == 2
