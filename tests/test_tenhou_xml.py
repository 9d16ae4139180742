"""The mjlog XML parser: tags, eras, errors with their place, lenient mode, corpus."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from replay_audit.model.errors import (
    InvalidValueError,
    LimitExceededError,
    LogFormatError,
    NotALogError,
    TruncatedLogError,
    UnknownTagError,
)
from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    Reconnect,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.meld import MeldKind
from replay_audit.parsers.tenhou_xml import log_id_from_name, parse_tenhou_xml

SOURCE = "2024040112gm-00a9-0000-0123abcd.xml"
HEAD = (
    '<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar-sha512-n288-base64,AAAA" ref=""/>'
    '<GO type="169" lobby="0"/>'
    '<UN n0="%41%6C%69%63%65" n1="%E5%A4%A9" n2="C" n3="D" dan="10,11,12,20" '
    'rate="1500.00,1600.50,1700.00,2000.00" sx="M,F,M,C"/><TAIKYOKU oya="0"/>'
)
HANDS = 'hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"'


def init(round_index: int = 0, honba: int = 0, sticks: int = 0, dealer: int = 0) -> str:
    return (
        f'<INIT seed="{round_index},{honba},{sticks},2,4,60" ten="250,250,250,250" '
        f'oya="{dealer}" {HANDS}/>'
    )


DRAW_END = '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/>'
OWARI_END = (
    '<RYUUKYOKU ba="1,0" sc="250,0,250,0,250,0,250,0" owari="250,25.0,250,5.0,250,-5.0,250,-25.0"/>'
)


def doc(*parts: str) -> bytes:
    return (HEAD + "".join(parts) + "</mjloggm>").encode()


def parse(data: bytes, strict: bool = True):
    return parse_tenhou_xml(data, SOURCE, strict=strict)


def test_minimal_game_structure() -> None:
    game = parse(doc(init(), "<T52/><D52/><U53/><E13/>", DRAW_END, init(0, 1), OWARI_END))
    assert game.meta.log_id == "2024040112gm-00a9-0000-0123abcd"
    assert (game.meta.players, game.meta.go_type, game.meta.lobby) == (4, 169, 0)
    assert game.meta.aka and game.meta.kuitan and game.meta.hanchan
    assert game.meta.seed == "mt19937ar-sha512-n288-base64,AAAA"
    assert [p.name for p in game.players] == ["Alice", "天", "C", "D"]
    assert game.players[1].dan == 11 and game.players[1].rate == 1600.5
    assert game.players[1].sex == "F"
    assert len(game.hands) == 2
    hand = game.hands[0]
    assert (hand.round_index, hand.honba, hand.sticks, hand.dealer) == (0, 0, 0, 0)
    assert hand.scores == (25000, 25000, 25000, 25000)
    assert hand.dice == (3, 5)
    assert hand.dora_indicator == 60
    assert hand.haipai[1] == tuple(range(13, 26))
    assert hand.label == "E1-0" and game.hands[1].label == "E1-1"
    assert hand.events[:4] == (
        Draw(5, 0, 52),
        Discard(6, 0, 52, True),
        Draw(7, 1, 53),
        Discard(8, 1, 13, False),
    )
    assert game.owari is not None
    assert game.owari.scores == (25000, 25000, 25000, 25000)
    assert game.owari.points == (25.0, 5.0, -5.0, -25.0)
    assert game.warnings == () and game.errors == ()


def test_tsumogiri_is_forgotten_after_a_discard_and_a_call() -> None:
    # seat 1 draws 53 and keeps it, later pons and discards 53: not tsumogiri
    pon = (13 << 9) | 0x08 | 3  # pon of kind 13 (5p), from kamicha (seat 0)
    game = parse(
        doc(init(), "<T52/><D0/><U53/><E13/><T54/><D54/>", f'<N who="1" m="{pon}"/>', "<E53/>")
        + b""
        if False
        else doc(
            init(),
            "<T52/><D0/><U53/><E13/><T54/><D54/>",
            f'<N who="1" m="{pon}"/><E53/>',
            OWARI_END,
        )
    )
    discards = [e for e in game.hands[0].events if isinstance(e, Discard)]
    assert [(d.seat, d.tile, d.tsumogiri) for d in discards] == [
        (0, 0, False),
        (1, 13, False),
        (0, 54, True),
        (1, 53, False),
    ]
    call = next(e for e in game.hands[0].events if isinstance(e, Call))
    assert call.meld.kind is MeldKind.PON and call.meld.from_seat == 0


def test_riichi_steps_and_scores() -> None:
    game = parse(
        doc(
            init(),
            '<T52/><REACH who="0" step="1"/><D52/><REACH who="0" ten="240,250,250,250" step="2"/>',
            OWARI_END,
        )
    )
    events = game.hands[0].events
    assert events[1] == RiichiDeclare(6, 0)
    assert events[3] == RiichiAccept(8, 0, (24000, 25000, 25000, 25000))


AGARI_RON = (
    '<AGARI ba="0,1" hai="13,14,15,16,17,18,19,20,21,22,23,24,25,52" machi="52" '
    'ten="30,3900,0" yaku="1,1,53,0" doraHai="60" doraHaiUra="61" who="1" fromWho="0" '
    'sc="240,-39,250,49,250,0,250,0"'
)


def test_legacy_2006_riichi_accepted_after_the_discard() -> None:
    game = parse(doc(init(), '<T52/><REACH who="0"/><D52/><U53/><E53/>', OWARI_END))
    events = game.hands[0].events
    assert events[1] == RiichiDeclare(6, 0)
    assert events[2] == Discard(7, 0, 52, True)
    assert events[3] == RiichiAccept(7, 0, None, legacy=True)


def test_legacy_2006_riichi_ronned_has_no_accept() -> None:
    game = parse(
        doc(init(), '<T52/><REACH who="0"/><D52/>', AGARI_RON, ' owari="1,2,3,4,5,6,7,8"/>')
    )
    assert not any(isinstance(e, RiichiAccept) for e in game.hands[0].events)
    assert game.meta.stepless_reach  # the format is known even with no stick placed


def test_stepless_reach_marks_the_game_and_steps_do_not() -> None:
    legacy = parse(doc(init(), '<T52/><REACH who="0"/><D52/><U53/><E53/>', OWARI_END))
    steps = parse(
        doc(
            init(),
            '<T52/><REACH who="0" step="1"/><D52/><REACH who="0" ten="240,250,250,250" step="2"/>',
            OWARI_END,
        )
    )
    assert (legacy.meta.stepless_reach, steps.meta.stepless_reach) == (True, False)


def test_agari_fields() -> None:
    game = parse(
        doc(
            init(),
            "<T56/><D52/>" if False else "<T52/><D52/>",
            AGARI_RON,
            ' owari="1,2,3,4,5,6,7,-8.5"/>',
        )
    )
    win = game.hands[0].results[0]
    assert isinstance(win, RecordedWin)
    assert (win.seat, win.from_seat, win.tsumo) == (1, 0, False)
    assert (win.fu, win.points, win.limit, win.han) == (30, 3900, 0, 1)
    assert (win.honba, win.sticks) == (0, 1)
    assert win.yaku == ((1, 1), (53, 0))
    assert win.win_tile == 52 and win.dora == (60,) and win.ura == (61,)
    assert win.scores_before == (24000, 25000, 25000, 25000)
    assert win.deltas == (-3900, 4900, 0, 0)
    assert win.owari is not None and win.owari.points[-1] == -8.5
    assert game.owari == win.owari


def test_agari_melds_back_in_calling_order() -> None:
    chi = 54647  # 4s-5s-6s, by seat 3
    pon = 37961  # 7s pon by seat 2 -> the who of AGARI must match
    # seat 3's hand: 8 concealed tiles + 2 melds = 14
    agari = (
        f'<AGARI ba="0,0" hai="0,1,2,4,5,6,8,9" m="{pon},{chi}" machi="9" ten="30,1000,0" '
        'yaku="8,1" doraHai="60" who="3" fromWho="3" sc="250,-3,250,-3,250,-4,250,10" '
        'owari="240,1,240,2,240,3,280,4"/>'
    )
    data = (
        HEAD.replace('type="169"', 'type="169"')
        + init()
        .replace(
            'hai0="0,1,2,3,4,5,6,7,8,9,10,11,12"', 'hai0="3,7,10,11,12,13,14,15,16,17,18,19,20"'
        )
        .replace(
            'hai1="13,14,15,16,17,18,19,20,21,22,23,24,25"',
            'hai1="21,22,23,24,25,26,27,28,29,30,31,32,33"',
        )
        .replace(
            'hai2="26,27,28,29,30,31,32,33,34,35,36,37,38"',
            'hai2="34,35,36,37,38,39,40,41,42,43,44,45,46"',
        )
        .replace(
            'hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"',
            'hai3="0,1,2,4,5,6,8,47,48,49,50,51,53"',
        )
        + agari
        + "</mjloggm>"
    ).encode()
    win = parse(data).hands[0].results[0]
    assert isinstance(win, RecordedWin)
    assert [m.kind for m in win.melds] == [MeldKind.CHI, MeldKind.PON]


def test_double_ron_in_one_hand() -> None:
    second = (
        '<AGARI ba="0,0" hai="26,27,28,29,30,31,32,33,34,35,36,37,38,52" machi="52" '
        'ten="30,1000,0" yaku="8,1" doraHai="60" who="2" fromWho="0" '
        'sc="201,-10,299,0,250,10,250,0" owari="191,1,299,2,260,3,250,4"/>'
    )
    game = parse(doc(init(), "<T52/><D52/>", AGARI_RON, "/>", second))
    results = game.hands[0].results
    assert [r.seat for r in results] == [1, 2]
    assert all(isinstance(r, RecordedWin) for r in results)
    assert game.num_results == 2


def test_exhaustive_draw_shown_hands() -> None:
    draw = (
        '<RYUUKYOKU ba="0,0" sc="250,15,250,-15,250,15,250,-15" '
        'hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" '
        'owari="265,1,235,2,265,3,235,4"/>'
    )
    result = parse(doc(init(), draw)).hands[0].results[0]
    assert isinstance(result, RecordedDraw)
    assert result.kind == "exhaustive" and not result.is_abortive
    assert result.shown_seats == (0, 2)
    assert result.deltas == (1500, -1500, 1500, -1500)


def test_abortive_draw_kind() -> None:
    draw = '<RYUUKYOKU type="kaze4" ba="0,0" sc="250,0,250,0,250,0,250,0"/>'
    result = parse(doc(init(), draw, init(0, 1), OWARI_END)).hands[0].results[0]
    assert isinstance(result, RecordedDraw)
    assert result.kind == "kaze4" and result.is_abortive and result.shown == ()


def test_bye_and_reconnect_everywhere() -> None:
    game = parse(
        doc(
            '<BYE who="2"/>',
            init(),
            '<T52/><BYE who="1"/><D52/><UN n1="%E5%A4%A9"/>',
            DRAW_END,
            '<BYE who="3"/>',
            init(0, 1),
            OWARI_END,
            '<UN n3="D"/>',
        )
    )
    assert game.pre_game == (Disconnect(4, 2),)
    first, second = game.hands
    assert Disconnect(7, 1) in first.events and Reconnect(9, 1, "天") in first.events
    # the BYE between a result and the next INIT opens the next hand
    assert second.events[0] == Disconnect(11, 3)
    # a UN after the last result stays with the last hand, after its result
    assert second.events[-1] == Reconnect(14, 3, "D")
    assert [p.name for p in game.players] == ["Alice", "天", "C", "D"]


def test_unknown_attributes_are_kept_with_a_warning() -> None:
    data = doc(init().replace("<INIT ", '<INIT fancy="1" '), '<T52 odd="x"/><D52/>', OWARI_END)
    data = data.replace(b'<GO type="169" lobby="0"/>', b'<GO type="169" lobby="0" novel="7"/>')
    game = parse(data)
    assert ("GO.novel", "7") in game.meta.extra
    assert ("INIT.fancy", "1") in game.hands[0].extra
    assert any("GO.novel" in w for w in game.warnings)
    assert any("INIT.fancy" in w for w in game.warnings)
    assert any("T52.odd" in w for w in game.warnings)


def test_2023_go_attributes_kept_without_warning() -> None:
    data = doc(init(), OWARI_END).replace(
        b'<GO type="169" lobby="0"/>',
        b'<GO type="257" lobby="1" title="" rule=",,0101" ranking="" csrule="0FE0BF0B"/>',
    )
    game = parse(data)
    assert ("csrule", "0FE0BF0B") in game.meta.extra
    assert game.warnings == ()
    assert not game.meta.hanchan and game.meta.aka


def test_chip_room_sc_has_sixteen_values() -> None:
    sc = 'sc="250,0,250,0,250,0,250,0,3,0,-1,0,-1,0,-1,0"'
    data = doc(
        init(), f'<RYUUKYOKU ba="0,0" {sc} owari="250,1,250,2,250,3,250,4,3,0,-1,0,-1,0,-1,0"/>'
    )
    result = parse(data).hands[0].results[0]
    assert result.scores_before == (25000,) * 4
    assert result.chips_before == (3, -1, -1, -1) and result.chip_deltas == (0, 0, 0, 0)


def test_three_player_game() -> None:
    head = HEAD.replace('type="169"', 'type="185"')
    hands = (
        'hai0="0,1,2,3,32,33,34,35,36,37,38,39,40" hai1="41,42,43,44,45,46,47,48,49,50,51,52,53" '
        'hai2="54,55,56,57,58,59,60,61,62,63,64,65,66" hai3=""'
    )
    data = (
        head
        + f'<INIT seed="0,0,0,1,1,70" ten="350,350,350,0" oya="0" {hands}/>'
        + '<T121/><N who="0" m="31008"/><T67/><D67/>'
        + '<RYUUKYOKU ba="0,0" sc="350,0,350,0,350,0,0,0" owari="350,1,350,2,350,3,0,0"/>'
        + "</mjloggm>"
    ).encode()
    game = parse(data)
    assert game.meta.players == 3 and len(game.players) == 3
    assert game.hands[0].haipai[3] == ()
    call = next(e for e in game.hands[0].events if isinstance(e, Call))
    assert call.meld.kind is MeldKind.KITA
    # a 2m (id 4) cannot exist in three-player
    with pytest.raises(InvalidValueError, match="tile id 4"):
        parse(data.replace(b"<T67/><D67/>", b"<T4/><D4/>"))


# ------------------------------------------------------------------ errors


def _raises(kind: type[LogFormatError], data: bytes, *, strict: bool = True) -> LogFormatError:
    with pytest.raises(kind) as info:
        parse(data, strict=strict)
    error = info.value
    assert error.source == SOURCE
    return error


def test_unknown_tag_names_its_place() -> None:
    error = _raises(UnknownTagError, doc(init(), "<T52/><FOO/><D52/>", OWARI_END))
    assert error.index == 6 and error.hand == "E1-0"
    assert error.log_id == "2024040112gm-00a9-0000-0123abcd"
    assert "FOO" in str(error) and "E1-0" in str(error) and SOURCE in str(error)


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ("<T136/>", "tile id 136"),
        ('<N who="4" m="37961"/>', "seats"),
        ('<N who="1" m="64514"/>', "meld code"),
        ('<DORA hai="999"/>', "tile id 999"),
        ('<REACH who="1" step="3"/>', "step"),
        ("<DORA/>", "lacks the attribute 'hai'"),
        ('<DORA hai="x"/>', "bad value"),
    ],
)
def test_bad_values_name_the_element(body: str, match: str) -> None:
    error = _raises(InvalidValueError, doc(init(), "<T52/>", body, OWARI_END))
    assert error.index == 6 and error.hand == "E1-0"
    assert match in str(error)


def test_fifth_copy_and_short_hand_in_a_deal() -> None:
    fifth = doc(init().replace('hai1="13,', 'hai1="12,'), OWARI_END)
    assert "twice" in str(_raises(InvalidValueError, fifth))
    short = doc(init().replace('hai1="13,', 'hai1="'), OWARI_END)
    error = _raises(InvalidValueError, short)
    assert "12 tiles" in str(error) and error.index == 4


def test_agari_hand_of_wrong_size() -> None:
    bad = AGARI_RON.replace('hai="13,', 'hai="') + ' owari="1,2,3,4,5,6,7,8"/>'
    assert "14" in str(_raises(InvalidValueError, doc(init(), "<T52/><D52/>", bad)))


def test_truncated_document_strict_and_lenient() -> None:
    full = doc(init(), "<T52/><D52/>", DRAW_END, init(0, 1), "<T53/><D53/><U54/>", OWARI_END)
    cut = full[: full.index(b"<U54/>") + 3]
    error = _raises(TruncatedLogError, cut)
    assert "cut short" in str(error)
    game = parse(cut, strict=False)
    assert len(game.hands) == 1 and game.hands[0].label == "E1-0"
    assert len(game.errors) == 1 and isinstance(game.errors[0], TruncatedLogError)


def test_game_without_owari_and_an_unfinished_hand_is_truncated() -> None:
    data = doc(init(), "<T52/><D52/>", DRAW_END, init(0, 1), "<T53/>")
    error = _raises(TruncatedLogError, data)
    assert error.hand == "E1-1"
    game = parse(data, strict=False)
    assert len(game.hands) == 1 and isinstance(game.errors[0], TruncatedLogError)


def test_game_without_owari_but_finished_hands_is_read_whole() -> None:
    """The parser keeps every hand and leaves ``owari`` unset; the missing end is the
    auditor's finding (``tests/test_trust.py``), not a parser warning."""
    game = parse(doc(init(), DRAW_END))
    assert game.owari is None and len(game.hands) == 1 and not game.errors


def test_lenient_mode_drops_the_bad_hand_and_resyncs() -> None:
    data = doc(
        init(),
        "<T52/><D52/>",
        DRAW_END,
        init(0, 1),
        "<T53/><FOO/><D53/>",
        DRAW_END,
        init(0, 2),
        OWARI_END,
    )
    game = parse(data, strict=False)
    assert [h.label for h in game.hands] == ["E1-0", "E1-2"]
    assert [h.index for h in game.hands] == [0, 1]
    (error,) = game.errors
    assert isinstance(error, UnknownTagError) and error.hand == "E1-1"


def test_lenient_mode_bad_init_is_skipped() -> None:
    data = doc(
        init(),
        DRAW_END,
        init().replace('ten="250,250,250,250"', 'ten="x"'),
        DRAW_END,
        init(0, 2),
        OWARI_END,
    )
    game = parse(data, strict=False)
    assert len(game.hands) == 2 and isinstance(game.errors[0], InvalidValueError)


@pytest.mark.parametrize(
    "data",
    [b"", b"   \n", b"\x00\x01binary", b"PK\x03\x04zip", b'{"log": []}'],
)
def test_not_a_log(data: bytes) -> None:
    _raises(NotALogError, data)


def test_html_page_is_not_a_log() -> None:
    page = b"<!DOCTYPE html><html><head><title>404</title></head><body>Not found</body></html>"
    assert "HTML" in str(_raises(NotALogError, page))
    assert "HTML" in str(_raises(NotALogError, b"<html><body>busy</body></html>"))


def test_other_xml_root_is_not_a_log() -> None:
    _raises(NotALogError, b'<?xml version="1.0"?><rss></rss>')


def test_billion_laughs_is_refused() -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
        b'<mjloggm ver="2.3"><GO type="169" lobby="&lol3;"/></mjloggm>'
    )
    assert "DOCTYPE" in str(_raises(LogFormatError, bomb))


def test_xxe_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    xxe = (
        f'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file://{secret}">]>'
        '<mjloggm ver="2.3"><UN n0="&x;" n1="" n2="" n3=""/></mjloggm>'
    ).encode()
    error = _raises(LogFormatError, xxe)
    assert "top secret" not in str(error)


def test_text_cdata_nesting_and_processing_instructions_are_refused() -> None:
    for bad in (b"hello", b"<![CDATA[x]]>", b"<T52><D52/></T52>", b"<?pi x?>"):
        data = doc(init(), "<T52/>").replace(b"<T52/>", b"<T52/>" + bad) + b""
        with pytest.raises(LogFormatError):
            parse(data)


def test_pretty_printed_log_is_fine() -> None:
    pretty = doc(init(), "<T52/><D52/>", OWARI_END).replace(b"><", b">\n  <")
    assert len(parse(pretty).hands) == 1


def test_element_and_attribute_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    from replay_audit.parsers.tenhou_xml import limits as tenhou_xml

    monkeypatch.setattr(tenhou_xml, "MAX_ELEMENTS", 5)
    _raises(LimitExceededError, doc(init(), "<T52/><D52/>", OWARI_END))
    monkeypatch.setattr(tenhou_xml, "MAX_ELEMENTS", 200_000)
    monkeypatch.setattr(tenhou_xml, "MAX_ATTRIBUTE_LENGTH", 10)
    _raises(LimitExceededError, doc(init(), OWARI_END))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("2019021004gm-00a9-0000-e2f6516d.xml.gz", "2019021004gm-00a9-0000-e2f6516d"),
        ("/x/y/2019021004gm-00a9-0000-e2f6516d&tw=2.mjlog", "2019021004gm-00a9-0000-e2f6516d"),
        ("C:\\logs\\2024040112gm-00e1-0000-0123abcd.xml", "2024040112gm-00e1-0000-0123abcd"),
        ("era2006_20061028gm-0001-0000-1af63a72.xml.gz", "20061028gm-0001-0000-1af63a72"),
        ("20061105gm-0001-0000-06e87448&tw=0.mjlog", "20061105gm-0001-0000-06e87448"),
        ("x_2021061315gm-0641-11000-f25efe24.xml.gz", "2021061315gm-0641-11000-f25efe24"),
        ("2006102gm-0001-0000-1af63a72.xml", None),  # seven digits: no date
        ("200610281gm-0001-0000-1af63a72.xml", None),  # nine digits
        ("2021061315gm-0641-110000-f25efe24.xml", None),  # a six-digit lobby
        ("bug1.xml.gz", None),
        ("2019021004gm-00a9-0000-e2f6516d-copy.xml", None),
        ("<bytes>", None),
    ],
)
def test_log_id_from_name(name: str, expected: str | None) -> None:
    assert log_id_from_name(name) == expected


# ------------------------------------------------------------------ corpus

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def _xml_rows() -> list[dict[str, str]]:
    manifest = CORPUS / "manifest.tsv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8") as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["format"] == "tenhou-xml"]


def _calls_in_order(hand, seat: int) -> list:
    """The seat's melds in calling order, a kakan taking its pon's place."""
    melds: list = []
    for e in hand.events:
        if isinstance(e, Call) and e.seat == seat:
            if e.meld.kind is MeldKind.KAKAN:
                slot = next(
                    i
                    for i, m in enumerate(melds)
                    if m.kind is MeldKind.PON and m.called == e.meld.called
                )
                melds[slot] = e.meld
            else:
                melds.append(e.meld)
    return melds


@pytest.mark.corpus
def test_every_corpus_xml_matches_the_manifest(corpus: Path, corpus_games: dict) -> None:
    rows = _xml_rows()
    assert len(rows) == 2804 == len(corpus_games)
    mismatches = []
    wins = draws = checked_melds = 0
    for row in rows:
        game = corpus_games[corpus / row["path"]]
        n_win = sum(isinstance(r, RecordedWin) for h in game.hands for r in h.results)
        n_draw = sum(isinstance(r, RecordedDraw) for h in game.hands for r in h.results)
        got = (len(game.hands), n_win, n_draw, game.meta.players, game.meta.go_type)
        want = (
            int(row["hands"]),
            int(row["agari"]),
            int(row["ryuukyoku"]),
            int(row["players"]),
            int(row["go_type"]),
        )
        if got != want or game.errors or game.owari is None or game.warnings:
            mismatches.append((row["path"], got, want, game.warnings[:2]))
        wins += n_win
        draws += n_draw
        for hand in game.hands:
            for r in hand.results:
                if isinstance(r, RecordedWin):
                    assert list(r.melds) == _calls_in_order(hand, r.seat), (row["path"], hand.label)
                    checked_melds += 1
    assert mismatches == []
    assert (wins, draws) == (24006, 4327)
    assert checked_melds == wins


FIXTURE = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "4p_east_tsumo_ron_draw.2024040112gm-00e1-0000-f1c70001.xml"
)


def test_hand_made_tonpuu_fixture() -> None:
    game = parse_tenhou_xml(FIXTURE.read_bytes(), str(FIXTURE))
    assert game.meta.log_id == "2024040112gm-00e1-0000-f1c70001"
    assert not game.meta.hanchan and game.meta.go_type == 225
    assert [h.label for h in game.hands] == ["E1-0", "E2-0", "E3-0", "E4-1"]
    kinds = [
        ("tsumo" if r.tsumo else "ron") if isinstance(r, RecordedWin) else r.kind
        for h in game.hands
        for r in h.results
    ]
    assert kinds == ["ron", "tsumo", "exhaustive", "ron"]
    # the score chain holds: every hand starts where the previous result left off
    for before, after in zip(game.hands, game.hands[1:], strict=False):
        (result,) = before.results
        assert (
            tuple(s + d for s, d in zip(result.scores_before, result.deltas, strict=True))
            == after.scores
        )
    assert game.owari is not None and sum(game.owari.points) == pytest.approx(0)
    assert game.warnings == () and game.errors == ()
