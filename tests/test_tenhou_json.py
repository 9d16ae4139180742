"""tenhou.net/6 JSON parser: hand-made fixtures, errors, and the real corpus.

The corpus tests hold the JSON reading of a game against the XML reading of the
same game (the six official pairs) and replay every JSON file through the
project's replayer, which checks that every discard and call is of a tile the
seat holds.
"""

from __future__ import annotations

import contextlib
import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.errors import (
    InvalidValueError,
    LimitExceededError,
    LogFormatError,
    NotALogError,
    TruncatedLogError,
)
from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    NewDora,
    Reconnect,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.meld import MeldKind
from replay_audit.model.tiles import is_red, kind
from replay_audit.parsers.tenhou_json import (
    comparable,
    dan_index,
    parse_call_string,
    parse_point_string,
    parse_tenhou_json,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOUR = FIXTURES / "json_4p_calls.json"
THREE = FIXTURES / "json_3p_kita.json"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _bytes(doc: dict) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


def _shape(events) -> list[tuple]:
    out = []
    for e in events:
        name = type(e).__name__
        if isinstance(e, (Draw, Discard)):
            out.append((name, e.seat, kind(e.tile)))
        elif isinstance(e, Call):
            out.append((name, e.seat, str(e.meld.kind), e.meld.from_seat))
        elif isinstance(e, (RiichiDeclare, RiichiAccept, Disconnect, Reconnect)):
            out.append((name, e.seat))
        elif isinstance(e, NewDora):
            out.append((name, kind(e.indicator)))
        else:
            out.append((name,))
    return out


# ---------------------------------------------------------------- fixtures


def test_four_player_fixture_merges_in_table_order() -> None:
    game = parse_tenhou_json(FOUR.read_bytes(), "json_4p_calls.json")
    hand = game.hands[0]
    # kinds: 15 -> 4 (5m), 47 -> 33 (chun), 33 -> 20 (3s) ...
    assert _shape(hand.events) == [
        ("Draw", 0, 4),
        ("Call", 0, "ankan", None),
        ("NewDora", 9),  # ankan: dora at once (and a BYE after step 2 comes after it)
        ("Disconnect", 3),
        ("Draw", 0, 29),
        ("Discard", 0, 29),
        ("Draw", 1, 21),
        ("Reconnect", 3),
        ("Discard", 1, 10),
        ("Call", 2, "chi", 1),
        ("Discard", 2, 33),
        ("Call", 0, "pon", 2),
        ("Discard", 0, 0),
        ("Draw", 1, 13),
        ("Discard", 1, 20),
        ("Call", 3, "daiminkan", 1),
        ("Draw", 3, 23),
        ("NewDora", 26),  # daiminkan: after the rinshan draw, before the discard
        ("Discard", 3, 23),
        ("Draw", 0, 25),
        ("Discard", 0, 25),
        ("Draw", 1, 8),
        ("RiichiDeclare", 1),
        ("Discard", 1, 14),
        ("RiichiAccept", 1),
        ("Draw", 2, 15),
        ("Discard", 2, 15),
        ("RecordedWin",),
    ]
    tsumogiri = [e.tsumogiri for e in hand.events if isinstance(e, Discard)]
    assert tsumogiri == [True, False, False, False, False, True, True, False, True]
    assert [e.seq for e in hand.events] == list(range(len(hand.events)))
    ankan = next(e.meld for e in hand.events if isinstance(e, Call))
    assert sorted(ankan.tiles) == [16, 17, 18, 19]  # "151515a51": the red 5m is one of them
    (win,) = hand.results
    assert isinstance(win, RecordedWin)
    assert (win.seat, win.from_seat, win.pao_seat) == (1, 2, None)
    assert (win.fu, win.points, win.limit, win.han) == (40, 2600, 0, 2)
    assert win.yaku == ((1, 1), (2, 1))  # riichi, ippatsu (ron before the riichi seat's turn)
    # the JSON records no honba, sticks or scores at the result (only the hand header)
    assert win.scores_before == () and win.honba is None and win.sticks is None
    assert [kind(t) for t in win.dora] == [31, 9, 26]
    assert [kind(t) for t in win.ura] == [6, 28, 24]  # one ura indicator per dora indicator
    assert game.hands[1].results[0].kind == "yao9"
    assert (game.hands[2].honba, game.hands[2].dealer) == (1, 1)  # the abort keeps the dealer
    (kokushi,) = game.hands[2].results
    assert isinstance(kokushi, RecordedWin) and kokushi.yakuman == (47,)
    assert kokushi.deltas == (0, 0, -32300, 32300)  # 32000 + 300 honba; seat 2 busts
    assert game.owari is not None and game.owari.points == (-15.0, 7.6, -59.9, 67.3)
    assert game.owari.scores == (25000, 27600, -9900, 57300)
    assert game.hands[-1].results[-1].owari == game.owari
    assert [p.dan for p in game.players] == [0, 1, 10, 20]
    assert game.players[2].name == 'C "quoted"'
    assert game.meta.rule_disp == "般南喰赤" and game.meta.hanchan and game.meta.aka


def test_tile_ids_are_unique_and_reds_are_copy_zero() -> None:
    for path in (FOUR, THREE):
        game = parse_tenhou_json(path.read_bytes())
        for hand in game.hands:
            wall = [t for hai in hand.haipai for t in hai]
            wall += [e.tile for e in hand.events if isinstance(e, Draw)]
            wall += [hand.dora_indicator]
            wall += [e.indicator for e in hand.events if isinstance(e, NewDora)]
            assert len(wall) == len(set(wall))
            assert all(0 <= t < 136 for t in wall)
    raw = _load(FOUR)["log"][1]
    game = parse_tenhou_json(FOUR.read_bytes())
    reds = [t for t in game.hands[1].haipai[2] if is_red(t)]
    assert sorted(reds) == [16, 52, 88]
    assert raw[10].count(51) == 1


def test_three_player_fixture() -> None:
    game = parse_tenhou_json(THREE.read_bytes())
    assert game.meta.players == 3
    assert game.hands[0].haipai[3] == ()
    calls = [e for e in game.hands[0].events if isinstance(e, Call)]
    assert [(c.seat, str(c.meld.kind), c.meld.from_seat) for c in calls] == [
        (0, "kita", None),
        (2, "pon", 1),
    ]
    assert not any(isinstance(e, NewDora) for e in game.hands[0].events)  # kita shows no dora
    (win,) = game.hands[0].results
    assert isinstance(win, RecordedWin)
    assert win.scores_before == ()
    assert win.seat == win.from_seat == 1  # riichi, tsumo, pinfu: 20 fu 3 han, 700-1300
    assert win.points == 2000 and win.deltas == (-1300, 3000, -700, 0)  # tsumo loss, stick
    kokushi = game.hands[1].results[0]
    assert isinstance(kokushi, RecordedWin) and kokushi.deltas == (-48000, 48000, 0, 0)
    assert game.owari is not None and game.owari.points == (-74.3, 80.0, -5.7, 0.0)
    assert len(game.players) == 4 and game.players[3].name == ""


def test_point_strings() -> None:
    assert parse_point_string("30符4飜7700点", False, False).points == 7700
    assert parse_point_string("30符3飜1000-2000点", True, False).points == 4000
    assert parse_point_string("30符4飜3900点∀", True, True).points == 11700
    assert parse_point_string("役満16000-32000点", True, False).points == 64000
    assert parse_point_string("跳満18000点", False, True).limit == 2
    assert parse_point_string("数え役満32000点", False, False).limit == 5
    assert parse_point_string("30符1飜300-500点", True, False, players=3).points == 800
    assert parse_point_string("満貫2000点∀1枚", True, True).points == 6000
    with pytest.raises(ValueError):
        parse_point_string("7700", False, False)


@pytest.mark.parametrize(
    ("name", "index"),
    [("新人", 0), ("９級", 1), ("１級", 9), ("初段", 10), ("二段", 11), ("十段", 19),
     ("天鳳", 20), ("天鳳位", 20), ("", None), ("名人", None)],
)  # fmt: skip
def test_dan_names(name: str, index: int | None) -> None:
    assert dan_index(name) == index


# ------------------------------------------------------------------ errors


def test_malformed_json_names_the_file() -> None:
    with pytest.raises(NotALogError, match=r"bad\.json.*malformed JSON"):
        parse_tenhou_json(b'{"log": [1, 2,, 3]}', "bad.json")
    with pytest.raises(TruncatedLogError, match=r"cut\.json"):
        parse_tenhou_json(FOUR.read_bytes()[:200], "cut.json")
    with pytest.raises(NotALogError):
        parse_tenhou_json(b"", "empty.json")
    with pytest.raises(NotALogError):
        parse_tenhou_json(b'{"name": []}', "nolog.json")


def test_wrong_length_log_entry() -> None:
    doc = _load(FOUR)
    doc["log"][1] = doc["log"][1][:16]
    with pytest.raises(InvalidValueError, match=r"x\.json.*hand E2-0.*17") as info:
        parse_tenhou_json(_bytes(doc), "x.json")
    assert info.value.hand == "E2-0" and info.value.source == "x.json"


def test_unknown_result_string() -> None:
    doc = _load(FOUR)
    doc["log"][1][16] = ["途中流局"]
    with pytest.raises(InvalidValueError, match=r"hand E2-0.*unknown result string"):
        parse_tenhou_json(_bytes(doc), "x.json")


@pytest.mark.parametrize("bad", ["47p4746", "47x4747", "4747p4", "c222325", "p47474747"])
def test_impossible_call_string(bad: str) -> None:
    doc = _load(FOUR)
    doc["log"][0][5][2] = bad
    with pytest.raises(InvalidValueError, match="hand E1-0") as info:
        parse_tenhou_json(_bytes(doc), "x.json")
    assert info.value.log_id == "2024010112gm-0009-0000-a1b2c3d4"


def test_call_on_a_tile_nobody_discarded() -> None:
    doc = _load(FOUR)
    doc["log"][0][5][2] = "46p4646"  # a well-formed pon of a tile never discarded
    with pytest.raises(InvalidValueError, match="cannot be merged"):
        parse_tenhou_json(_bytes(doc), "x.json")


def test_discard_of_a_tile_not_held() -> None:
    doc = _load(FOUR)
    doc["log"][0][6][0] = "171717a17"  # seat 0 holds no 7m
    with pytest.raises(InvalidValueError, match="seat 0 does not hold a 7m"):
        parse_tenhou_json(_bytes(doc), "x.json")


def test_deep_nesting_is_refused_without_recursion() -> None:
    deep = b'{"log": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(LimitExceededError, match="nested"):
        parse_tenhou_json(deep, "deep.json")
    # brackets inside strings do not count
    doc = _load(FOUR)
    doc["name"][0] = "[" * 200
    assert parse_tenhou_json(_bytes(doc)).players[0].name == "[" * 200


def test_size_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    import replay_audit.parsers.tenhou_json.document as mod

    monkeypatch.setattr(mod, "MAX_INPUT_BYTES", 1000)
    with pytest.raises(LimitExceededError, match="limit"):
        parse_tenhou_json(FOUR.read_bytes(), "big.json")


def test_lenient_mode_keeps_the_good_hands() -> None:
    doc = _load(FOUR)
    doc["log"][0][16] = ["途中流局"]
    game = parse_tenhou_json(_bytes(doc), "x.json", strict=False)
    assert len(game.hands) == 2 and game.hands[0].round_index == 1
    (err,) = game.errors
    assert isinstance(err, LogFormatError) and err.hand == "E1-0"


def test_bad_final_scores() -> None:
    doc = _load(FOUR)
    doc["sc"] = [1, 2, 3]
    with pytest.raises(InvalidValueError, match="final 'sc'"):
        parse_tenhou_json(_bytes(doc), "x.json")
    game = parse_tenhou_json(_bytes(doc), "x.json", strict=False)
    assert game.owari is None and len(game.hands) == 3 and len(game.errors) == 1


def test_call_string_shapes() -> None:
    c = parse_call_string("131313m13")
    assert (c.letter, c.pos, c.key_index) == ("m", 6, 3)
    assert parse_call_string("c145116").codes == (14, 51, 16)
    for bad in ("m13131313x", "a424242", "f45", "131313a13a"):
        with pytest.raises(ValueError):
            parse_call_string(bad)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_garbage_raises_only_log_format_errors(data: bytes) -> None:
    with contextlib.suppress(LogFormatError):
        parse_tenhou_json(data, "fuzz.json")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 1), st.integers(4, 15), st.sampled_from([11, 45, "p1111", "r11", 0]))
def test_mutated_columns_raise_log_format_errors(hand: int, col: int, value: object) -> None:
    """Any single edit of a column either still merges or raises a located error."""
    doc = _load(FOUR)
    target = doc["log"][hand][col]
    if target:
        target[0] = value
    else:
        target.append(value)
    try:
        game = parse_tenhou_json(_bytes(doc), "m.json")
    except LogFormatError as exc:
        assert exc.hand is not None and exc.source == "m.json"
    else:
        assert len(game.hands) == 3


# ------------------------------------------------------------------ corpus


def _json_files(corpus: Path) -> list[Path]:
    return sorted((corpus / "pairs").glob("*.json")) + sorted(
        (corpus / "tenhou-json" / "excerpts").glob("*.json")
    )


@pytest.mark.corpus
def test_every_corpus_json_parses_and_replays(corpus: Path) -> None:
    from replay_audit.model.rules.detect import rules_for_disp
    from replay_audit.replay.table import replay_game

    files = _json_files(corpus)
    assert len(files) == 24
    results = 0
    for path in files:
        game = parse_tenhou_json(path.read_bytes(), str(path))
        assert not game.errors
        rules = rules_for_disp(game.meta.rule_disp, game.meta.aka)
        replay = replay_game(game, rules)
        results += sum(len(h.results) for h in game.hands)
        moves_findings = [f for f in replay.findings if f.category == "replay"]
        if path.name == "confusing_nakis_2.json":
            # a synthetic merge test (four plain 5s with aka on, a "win" on a pin-only
            # hand from a 7m): its moves replay, its win is not a real one
            assert {f.field for f in moves_findings} == {"ron_furiten", "win_incomplete"}
            continue
        assert moves_findings == [], (path.name, moves_findings[:3])
    assert results == _manifest_results(corpus, files)


def _manifest_results(corpus: Path, files: list[Path]) -> int:
    """AGARI + RYUUKYOKU results the corpus manifest lists for those files."""
    wanted = {str(p.relative_to(corpus)) for p in files}
    total = 0
    lines = (corpus / "manifest.tsv").read_text(encoding="utf-8").splitlines()
    for row in lines[1:]:
        cols = row.split("\t")
        if cols[0] in wanted:
            total += int(cols[5]) + int(cols[6])
    return total


@pytest.mark.corpus
def test_pairs_json_equals_xml(corpus: Path) -> None:
    """The official JSON and the mjlog of the same game give the same events."""
    xml = pytest.importorskip("replay_audit.parsers.tenhou_xml")
    pairs = sorted((corpus / "pairs").glob("*.json"))
    assert len(pairs) == 6
    for path in pairs:
        jg = parse_tenhou_json(path.read_bytes(), str(path))
        xml_path = path.with_name(path.name.replace(".json", ".xml.gz"))
        xg = xml.parse_tenhou_xml(gzip.decompress(xml_path.read_bytes()), str(xml_path))
        aka = xg.meta.aka
        assert jg.meta.aka == aka and jg.meta.players == xg.meta.players
        assert len(jg.hands) == len(xg.hands)
        for jh, xh in zip(jg.hands, xg.hands, strict=True):
            assert (jh.round_index, jh.honba, jh.sticks, jh.dealer, jh.scores) == (
                xh.round_index, xh.honba, xh.sticks, xh.dealer, xh.scores,
            )  # fmt: skip
            assert [sorted((kind(t), is_red(t, aka)) for t in hai) for hai in jh.haipai] == [
                sorted((kind(t), is_red(t, aka)) for t in hai) for hai in xh.haipai
            ]
            assert [comparable(e, aka) for e in jh.events] == [
                comparable(e, aka) for e in xh.events
            ], (path.name, jh.label)
            for jw, xw in zip(jh.results, xh.results, strict=True):
                if isinstance(jw, RecordedWin) and isinstance(xw, RecordedWin) and jw.fu:
                    assert jw.fu == xw.fu
        assert [comparable(e, aka) for e in jg.pre_game] == [
            comparable(e, aka) for e in xg.pre_game
        ]
        assert jg.owari == xg.owari
        assert [(p.name, p.dan, p.rate, p.sex) for p in jg.players] == [
            (p.name, p.dan, p.rate, p.sex) for p in xg.players
        ]


@pytest.mark.corpus
def test_confusing_nakis_are_resolved(corpus: Path) -> None:
    """mjai-reviewer's ambiguous-call excerpts: a merge exists and uses every column."""
    for path in sorted((corpus / "tenhou-json" / "excerpts").glob("confusing_nakis_*.json")):
        game = parse_tenhou_json(path.read_bytes(), str(path))
        (hand,) = game.hands
        raw = json.loads(path.read_text(encoding="utf-8"))["log"][0]
        takes = sum(len(raw[5 + 3 * s]) for s in range(4))
        n_take_events = sum(
            isinstance(e, Draw)
            or (
                isinstance(e, Call)
                and e.meld.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)
            )
            for e in hand.events
        )
        assert n_take_events == takes, path.name
        assert any(isinstance(r, (RecordedWin, RecordedDraw)) for r in hand.events)
