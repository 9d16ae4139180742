"""The compiled mjlog reader (``_core.read_mjlog``, C++) against ``parsers.tenhou_xml``.

The rule is equality over what the core accepts: for any bytes, the core either
declines them (``from_columns.game_from_core`` returns None, and ``parse_tenhou_xml``
hands them to the Python reader) or builds from its columns the very ``Game`` the
Python reader returns.  What the Python reader refuses (DOCTYPE and ENTITY
declarations, truncated documents, bad tiles and seats, inputs over the limits), the
core declines, so ``parse_tenhou_xml`` raises the Python reader's error, class and message.
Checked over every mjlog XML of the shared corpus (no modern Phoenix log may be
declined), the project's fixtures, hand-made bad inputs, every meld code, and
hypothesis-mutated documents.
"""

from __future__ import annotations

import gzip
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay_audit.io import read_log
from replay_audit.model.errors import InvalidValueError, LogFormatError
from replay_audit.model.events import (
    Call,
    Discard,
    Draw,
    Game,
    NewDora,
    Reconnect,
    RecordedDraw,
    RecordedWin,
)
from replay_audit.parsers.meld_code import decode_meld
from replay_audit.parsers.tenhou_xml import (
    MAX_ATTRIBUTE_LENGTH,
    MAX_ELEMENTS,
    columns,
    from_columns,
    parse_tenhou_xml,
)
from tests.conftest import CORPUS, FIXTURES, need, shard

try:
    from replay_audit import _core
except ImportError:
    _core = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(_core is None, reason="replay_audit._core is not built")

CLEAN = FIXTURES / "replay" / "clean_ron.xml"
RICH = FIXTURES / "4p_chankan_keeps_ippatsu.2024070112gm-00a9-0000-c4a4ca01.xml"
"""A small hand-made log with REACH, a call and ``owari``: the base of the bad inputs."""
FIXTURE_XML = sorted(FIXTURES.rglob("*.xml"))


def _python(data: bytes, source: str) -> Game | LogFormatError:
    try:
        return parse_tenhou_xml(data, source, engine="python")
    except LogFormatError as exc:
        return exc


def check_same(data: bytes, source: str = "<bytes>") -> bool:
    """The core declines ``data`` or agrees with the Python reader; ``parse_tenhou_xml``
    returns what the Python reader returns or raises its error.  True if the core
    read the document."""
    expected = _python(data, source)
    core = from_columns.game_from_core(data, source)
    if core is not None:
        assert isinstance(expected, Game), f"the core read what Python refuses: {expected!r}"
        assert core == expected
    if isinstance(expected, Game):
        assert parse_tenhou_xml(data, source) == expected
    else:
        with pytest.raises(LogFormatError) as info:
            parse_tenhou_xml(data, source)
        assert type(info.value) is type(expected)
        assert str(info.value) == str(expected)
    return core is not None


# ------------------------------------------------------------------- the corpus


def _corpus_paths() -> list[Path]:
    return sorted((CORPUS / "tenhou-xml").rglob("*.xml.gz")) + sorted(
        (CORPUS / "pairs").glob("*.xml.gz")
    )


_CORPUS_SHARDS = 3
"""``test_corpus_games_equal_python_reader``'s shards: the Python reader's parse of
the whole corpus is the slow half, spread over the workers."""


@pytest.mark.corpus
def test_the_reader_shards_hold_every_corpus_file(corpus_games: dict[Path, Game]) -> None:
    """The shards below read every mjlog XML of the corpus (``corpus_games``' files), each
    once, the 2,770 Phoenix logs among them."""
    need(CORPUS)
    paths = _corpus_paths()
    parts = [shard(paths, k, _CORPUS_SHARDS) for k in range(_CORPUS_SHARDS)]
    assert sorted(p for part in parts for p in part) == sorted(corpus_games) == sorted(paths)
    assert len(paths) >= 2800
    assert sum("phoenix" in p.parent.name for p in paths) >= 2770


@pytest.mark.corpus
@pytest.mark.parametrize("part", range(_CORPUS_SHARDS))
def test_corpus_games_equal_python_reader(corpus_games: dict[Path, Game], part: int) -> None:
    """Every mjlog XML of the shared corpus (this shard's): the core's Game equals the
    Python reader's.  The core may decline an unusual document, never a Phoenix log.
    ``corpus_games``, which the other corpus tests read, is held to the Python reader
    here too: it is ``parse_tenhou_xml``'s default reading (the core's, or the Python
    reader's where the core declines)."""
    need(CORPUS)
    files = shard(_corpus_paths(), part, _CORPUS_SHARDS)
    declined: Counter[str] = Counter()
    read = 0
    for path in files:
        data = gzip.decompress(path.read_bytes())
        expected = parse_tenhou_xml(data, str(path), engine="python")
        assert corpus_games[path] == expected, path
        game = from_columns.game_from_core(data, str(path))
        if game is None:
            declined[path.parent.name] += 1
            assert "phoenix" not in path.parent.name, (
                f"{path}: declined ({_core.mjlog_decline_reason(data)})"
            )
            continue
        assert game == expected, path
        read += 1
    assert read + sum(declined.values()) == len(files) >= 2800 // _CORPUS_SHARDS
    print(f"core read {read} documents, declined {dict(declined) or 'none'}")


def test_read_log_reads_paths_and_gzip_by_the_core() -> None:
    paths = _corpus_paths() if CORPUS.exists() else []
    need(CORPUS)
    for path in paths[:: max(1, len(paths) // 40)]:
        data = gzip.decompress(path.read_bytes())
        expected = parse_tenhou_xml(data, str(path), engine="python")
        assert from_columns.game_from_core(data, str(path)) is not None
        assert read_log(path) == expected
        assert read_log(path.read_bytes(), source=str(path)) == expected
        assert read_log(path, strict=False) == parse_tenhou_xml(
            data, str(path), False, engine="python"
        )


@pytest.mark.parametrize("path", FIXTURE_XML, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixtures(path: Path) -> None:
    """The project's own fixtures, the bad ones included (the core declines those)."""
    data = path.read_bytes()
    read = check_same(data, str(path))
    if path.parent.name != "bad" and "era2006" not in path.name:
        assert read, f"{path}: declined ({_core.mjlog_decline_reason(data)})"


def test_kept_tables_leave_nothing_behind() -> None:
    """The builder reads every document into one kept set of tables, cleared in between
    (``GameTables::clear``): each fixture, read right after each other one in turn
    (bad ones, chips, Toutenkou, 3-player, shuffles, extras), gives the Python reader's
    Game, so no value of the one before is left in it."""
    documents = [(str(p), p.read_bytes()) for p in FIXTURE_XML]
    expected = {name: _python(data, name) for name, data in documents}
    for before_name, before in documents:
        from_columns.game_from_core(before, before_name)
        for name, data in documents:
            game = from_columns.game_from_core(data, name)
            if game is not None:
                assert game == expected[name], (before_name, name)


# ------------------------------------------------------------------ the events table


def test_events_table_matches_the_game() -> None:
    """Each row of ``mjlog_events`` is an event of the Game, in the same order."""
    need(CORPUS)
    paths = _corpus_paths()
    for path in [*paths[::97], *(p for p in paths if "special" in str(p)), *FIXTURE_XML[:8]]:
        data = path.read_bytes()
        data = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        table = columns.mjlog_events(data)
        if table is None:
            continue
        game = parse_tenhou_xml(data, str(path), engine="python")
        rows = table.to_pylist()
        events = [(-1, e) for e in game.pre_game] + [
            (h.index, e) for h in game.hands for e in h.events
        ]
        assert len(rows) == len(events)
        for row, (hand, event) in zip(rows, events, strict=True):
            assert (row["hand"], row["seq"]) == (hand, event.seq)
            kind = row["kind"]
            if isinstance(event, Draw):
                assert (kind, row["seat"], row["tile"]) == ("draw", event.seat, event.tile)
                assert row["meld_kind"] is None and row["meld_tiles"] is None
            elif isinstance(event, Discard):
                assert (kind, row["seat"], row["tile"]) == ("discard", event.seat, event.tile)
                assert row["tsumogiri"] == event.tsumogiri
            elif isinstance(event, Call):
                meld = event.meld
                assert (kind, row["seat"], row["meld_kind"]) == (
                    "call",
                    event.seat,
                    meld.kind.value,
                )
                assert tuple(row["meld_tiles"]) == meld.tiles
                assert row["meld_called"] == (-1 if meld.called is None else meld.called)
                assert row["from_seat"] == (-1 if meld.from_seat is None else meld.from_seat)
            elif isinstance(event, NewDora):
                assert (kind, row["tile"]) == ("new_dora", event.indicator)
            elif isinstance(event, RecordedWin):
                assert (kind, row["seat"], row["from_seat"], row["tile"]) == (
                    "agari",
                    event.seat,
                    event.from_seat,
                    event.win_tile,
                )
            else:
                assert columns.EVENT_KINDS.index(kind) >= 3
    tables = columns.mjlog_tables(CLEAN.read_bytes())
    assert tables is not None
    assert set(tables) == {"events", "hands", "agari", "ryuukyoku", "game"}
    assert tables["hands"].num_rows == len(
        parse_tenhou_xml(CLEAN.read_bytes(), engine="python").hands
    )


# -------------------------------------------------------------------- bad inputs


def _sub(data: bytes, pattern: bytes, repl: bytes, count: int = 1) -> bytes:
    out, n = re.subn(pattern, repl, data, count=count)
    assert n, pattern
    return out


def _bad_inputs() -> list[tuple[str, bytes]]:
    base = RICH.read_bytes()
    cases = [
        ("doctype", b'<!DOCTYPE mjloggm [<!ENTITY x "y">]>' + base),
        ("entity-only", base.replace(b"<mjloggm", b'<!ENTITY x "y"><mjloggm', 1)),
        ("entity-ref", _sub(base, rb'n0="[^"]*"', b'n0="&x;"')),
        ("amp-ref", _sub(base, rb'n0="[^"]*"', b'n0="a&amp;b"')),
        ("char-ref", _sub(base, rb'n0="[^"]*"', b'n0="&#65;"')),
        ("xml-decl", b'<?xml version="1.0" encoding="UTF-8"?>' + base),
        ("comment", base.replace(b"<INIT", b"<!-- x --><INIT", 1)),
        ("cdata", base.replace(b"<INIT", b"<![CDATA[x]]><INIT", 1)),
        ("pi", base.replace(b"<INIT", b"<?pi x?><INIT", 1)),
        ("text", base.replace(b"<INIT", b"text<INIT", 1)),
        ("nested", base.replace(b"<INIT", b"<TAIKYOKU><X/></TAIKYOKU><INIT", 1)),
        ("empty", b""),
        ("html", b"<html><body>no</body></html>"),
        ("other-root", b"<mjlog><INIT/></mjlog>"),
        ("tile-136", _sub(base, rb"<T\d+/>", b"<T136/>")),
        ("tile-999", _sub(base, rb"<D\d+/>", b"<D999/>")),
        ("tile-leading-zero", _sub(base, rb"<T(\d+)/>", rb"<T0\1/>")),
        ("tile-attr", _sub(base, rb"<T(\d+)/>", rb'<T\1 x="1"/>')),
        ("tile-space", _sub(base, rb"<T(\d+)/>", rb"<T\1 />")),
        ("seat-4", _sub(base, rb'who="\d"', b'who="4"')),
        ("seat-neg", _sub(base, rb'who="\d"', b'who="-1"')),
        ("seat-text", _sub(base, rb'who="\d"', b'who="x"')),
        ("seat-plus", _sub(base, rb'who="\d"', b'who="+1"')),
        ("seat-space", _sub(base, rb'who="(\d)"', rb'who=" \1"')),
        ("oya-4", _sub(base, rb'oya="\d"', b'oya="4"', count=2)),
        ("fifth-copy", _sub(base, rb'hai1="(\d+),', rb'hai1="\1,\1,')),
        ("deal-short", _sub(base, rb'hai2="\d+,', b'hai2="')),
        ("unknown-tag", base.replace(b"<INIT", b"<FOO/><INIT", 1)),
        ("unknown-attr", _sub(base, rb"<INIT ", b'<INIT foo="1" ')),
        ("dup-attr", _sub(base, rb"<INIT ", b'<INIT oya="0" ')),
        ("reach-step-3", _sub(base, rb'step="1"', b'step="3"')),
        ("reach-no-step", _sub(base, rb' step="1"', b"")),
        ("reach-ten-3", _sub(base, rb'ten="300,40,340,310"', b'ten="1,2,3"')),
        ("bad-meld", _sub(base, rb'm="\d+"', b'm="65535"')),
        ("meld-17-bit", _sub(base, rb'm="\d+"', b'm="70000"')),
        ("machi-not-in-hand", _sub(base, rb'machi="\d+"', b'machi="135"')),
        ("dora-two", base.replace(b"<AGARI", b'<DORA hai="1,2"/><AGARI', 1)),
        (
            "ryuukyoku-type",
            base.replace(
                b"<AGARI", b'<RYUUKYOKU type="foo" ba="0,0" sc="1,0,2,0,3,0,4,0"/><AGARI', 1
            ),
        ),
        ("sc-7", _sub(base, rb'sc="[^"]*"', b'sc="1,2,3,4,5,6,7"')),
        ("ba-neg", _sub(base, rb'ba="[^"]*"', b'ba="-1,0"')),
        ("owari-7", _sub(base, rb'owari="[^"]*"', b'owari="1,2,3,4,5,6,7"')),
        ("float-exp", _sub(base, rb'owari="([^,"]*),[^,"]*', rb'owari="\1,1e3')),
        ("no-close", base.replace(b"</mjloggm>", b"")),
        ("after-close", base + b"<X/>"),
        ("non-ascii", _sub(base, rb'n0="[^"]*"', 'n0="名"'.encode())),
        ("tab-in-value", _sub(base, rb'n0="[^"]*"', b'n0="a\tb"')),
        ("single-quotes", base.replace(b'ver="2.3"', b"ver='2.3'")),
        ("ver-2.4", base.replace(b'ver="2.3"', b'ver="2.4"')),
        ("whitespace", base.replace(b"><", b">\n<")),
        ("bom", b"\xef\xbb\xbf" + base),
        ("leading-space", b"  " + base),
    ]
    return cases


@pytest.mark.parametrize("case", _bad_inputs(), ids=lambda c: c[0])
def test_bad_and_unusual_inputs(case: tuple[str, bytes]) -> None:
    """Hand-made bad or unusual inputs: the core declines or agrees; ``parse_tenhou_xml``
    raises what the Python reader raises."""
    name, data = case
    read = check_same(data)
    if name in ("tile-space", "single-quotes", "ver-2.4", "whitespace"):
        assert read, name  # well-formed variants the core reads
    if name in ("doctype", "entity-only", "entity-ref", "tile-136", "seat-4", "fifth-copy"):
        assert not read, name


def test_truncated_at_every_cut() -> None:
    """A document cut anywhere: declined (Python raises TruncatedLogError or another
    LogFormatError, and parse_tenhou_xml the same)."""
    data = CLEAN.read_bytes().rstrip()
    step = max(1, len(data) // 150)
    for cut in [*range(0, len(data) - 1, step), len(data) - 2, len(data) - 1]:
        assert from_columns.game_from_core(data[:cut]) is None, cut
        check_same(data[:cut])


def test_limits() -> None:
    """Inputs over the limits: declined, and the Python reader's LimitExceededError."""
    base = CLEAN.read_bytes()
    first_init = base.index(b"<INIT")
    end = base.index(b"<AGARI")
    moves = re.findall(rb"<[TUVWDEFG]\d+/>", base[first_init:end])
    head, tail = base[:end], base[end:]
    # more elements than MAX_ELEMENTS (filled with draw/discard pairs of one seat)
    filler = b"<T1/><D1/>" * ((MAX_ELEMENTS // 2) + 1)
    assert moves  # the hand has moves to keep the filler in place
    many = head + filler + tail
    check_same(many)
    assert from_columns.game_from_core(many) is None
    # an attribute longer than MAX_ATTRIBUTE_LENGTH
    long_attr = _sub(base, rb'n0="[^"]*"', b'n0="' + b"a" * (MAX_ATTRIBUTE_LENGTH + 1) + b'"')
    assert from_columns.game_from_core(long_attr) is None
    check_same(long_attr)
    # input over the core's size limit: declined before it is read
    assert _core.read_mjlog(base + b" " * (64 * 1024 * 1024)) is None
    assert "size limit" in str(_core.mjlog_decline_reason(base + b" " * (64 * 1024 * 1024)))


def test_declined_document_is_refused_with_the_python_error() -> None:
    data = (FIXTURES / "bad" / "billion_laughs.xml").read_bytes()
    assert from_columns.game_from_core(data) is None
    with pytest.raises(LogFormatError, match="DOCTYPE/ENTITY"):
        parse_tenhou_xml(data)
    with pytest.raises(InvalidValueError):
        parse_tenhou_xml((FIXTURES / "bad" / "tile_136.xml").read_bytes())


# ------------------------------------------------------------------- meld codes


def test_every_meld_code_decodes_as_meld_code_py() -> None:
    """All 65,536 codes, every seat, with and without Toutenkou's gari: the core's
    decode equals ``meld_code.decode_meld`` or both refuse (None / InvalidValueError)."""
    accepted = 0
    for gari in (False, True):
        for who in range(4):
            for m in range(0x10000):
                try:
                    expected = decode_meld(m, who, gari=gari)
                except InvalidValueError:
                    expected = None
                got = from_columns.decode_meld(m, who, gari=gari)
                if got != expected:
                    pytest.fail(f"m={m} who={who} gari={gari}: core {got}, python {expected}")
                accepted += expected is not None
    assert accepted == 199_984  # of 524,288 (code, seat, gari): both answers are exercised
    for m, who in ((-1, 0), (0x10000, 0), (0, 4), (0, -1)):
        assert from_columns.decode_meld(m, who) is None
        with pytest.raises(InvalidValueError):
            decode_meld(m, who)


# --------------------------------------------------------------- mutated documents


def _seeds() -> list[bytes]:
    docs = [CLEAN.read_bytes(), *[p.read_bytes() for p in sorted(FIXTURES.glob("*.xml"))][:6]]
    phoenix = CORPUS / "tenhou-xml" / "phoenix-2024"
    if phoenix.is_dir():
        docs += [gzip.decompress(p.read_bytes()) for p in sorted(phoenix.glob("*.xml.gz"))[:3]]
    return docs


SEEDS = _seeds()
TOKENS = [
    b"0",
    b"1",
    b"4",
    b"-1",
    b"135",
    b"136",
    b"99999999999999999999",
    b",",
    b",,",
    b"",
    b" ",
    b"<",
    b">",
    b"/>",
    b'"',
    b"'",
    b"&amp;",
    b"<T1/>",
    b"<D1/>",
    b"<INIT",
    b'<N who="0" m="1"/>',
    b"<!--",
    b"\x00",
    b"\xff",
    b"1.5",
    b"1e3",
    b"+",
    b"</mjloggm>",
    b'<BYE who="1"/>',
    b'<UN n1="x"/>',
    b'<REACH who="0" step="2"/>',
    b'<DORA hai="5"/>',
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["cut", "delete", "insert", "replace", "digit", "swap"]))
        if op == "cut":
            data = data[:i]
        elif op == "delete":
            data = data[:i] + data[i + draw(st.integers(1, 40)) :]
        elif op == "insert":
            data = data[:i] + draw(st.sampled_from(TOKENS)) + data[i:]
        elif op == "replace":
            data = data[:i] + draw(st.binary(min_size=1, max_size=3)) + data[i + 1 :]
        elif op == "digit":
            digits = [m.start() for m in re.finditer(rb"\d", data)]
            if digits:
                j = draw(st.sampled_from(digits))
                data = data[:j] + bytes([draw(st.integers(48, 57))]) + data[j + 1 :]
        else:  # swap two elements
            starts = [m.start() for m in re.finditer(rb"<[A-Z]", data)]
            if len(starts) > 3:
                a = draw(st.integers(1, len(starts) - 2))
                x, y, z = starts[a - 1], starts[a], starts[a + 1]
                data = data[:x] + data[y:z] + data[x:y] + data[z:]
    return data


@settings(
    max_examples=int(os.environ.get("REPLAY_AUDIT_FUZZ_EXAMPLES", "300")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_mutated_documents_decline_or_agree(data: bytes) -> None:
    """Mutated real and hand-made documents: never a crash; the core declines or
    builds the Python reader's Game; parse_tenhou_xml matches the Python reader."""
    check_same(data)


def test_tables_match_the_game() -> None:
    """``mjlog_tables``: hands, wins, draws and the game row say what the Game says."""
    need(CORPUS)
    paths = _corpus_paths()
    for path in [*paths[::151], *(p for p in paths if "special" in str(p))]:
        data = gzip.decompress(path.read_bytes())
        tables = columns.mjlog_tables(data)
        assert tables is not None, path
        game = parse_tenhou_xml(data, str(path), engine="python")
        hands = tables["hands"].to_pylist()
        assert len(hands) == len(game.hands)
        for row, hand in zip(hands, game.hands, strict=True):
            assert (row["round_index"], row["honba"], row["sticks"], row["dealer"]) == (
                hand.round_index,
                hand.honba,
                hand.sticks,
                hand.dealer,
            )
            assert tuple(row["dice"]) == hand.dice
            assert tuple(row["scores"]) == hand.scores
            assert row["dora_indicator"] == hand.dora_indicator
            for s in range(4):
                assert tuple(t for t in row[f"haipai{s}"] if t >= 0) == hand.haipai[s]
        results = [e for h in game.hands for e in h.results]
        wins = [e for e in results if isinstance(e, RecordedWin)]
        draws = [e for e in results if not isinstance(e, RecordedWin)]
        for row, win in zip(tables["agari"].to_pylist(), wins, strict=True):
            assert (row["seq"], row["who"], row["from_who"], row["machi"]) == (
                win.seq,
                win.seat,
                win.from_seat,
                win.win_tile,
            )
            assert (row["fu"], row["points"], row["limit"]) == (win.fu, win.points, win.limit)
            assert tuple(row["hai"]) == win.hand
            assert tuple(zip(row["yaku"][::2], row["yaku"][1::2], strict=True)) == win.yaku
            assert (tuple(row["dora"]), tuple(row["ura"])) == (win.dora, win.ura)
            assert (tuple(row["scores"]), tuple(row["deltas"])) == (win.scores_before, win.deltas)
            assert row["pao"] == (-1 if win.pao_seat is None else win.pao_seat)
            assert len(row["meld_codes"]) == len(win.melds)
        for row, draw in zip(tables["ryuukyoku"].to_pylist(), draws, strict=True):
            assert (row["seq"], row["kind"], row["honba"]) == (draw.seq, draw.kind, draw.honba)
            shown = tuple(
                (s, tuple(row[f"shown{s}"])) for s in range(4) if row[f"shown{s}"] is not None
            )
            assert shown == draw.shown
        (meta,) = tables["game"].to_pylist()
        assert (meta["players"], meta["go_type"], meta["lobby"], meta["seed"]) == (
            game.meta.players,
            game.meta.go_type,
            game.meta.lobby,
            game.meta.seed,
        )
        assert meta["names"] == [p.name for p in game.players]
        assert meta["dan"] == [p.dan for p in game.players]
        if game.owari is not None:
            assert tuple(meta["final_scores"]) == game.owari.scores
            assert tuple(meta["final_points"]) == game.owari.points


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.integers(0, 10**15 - 1),
    st.integers(0, 15),
    st.booleans(),
    st.sampled_from(["", "0", "00"]),
)
def test_owari_values_read_as_python_float(mantissa: int, point: int, neg: bool, pad: str) -> None:
    """The final values of ``owari`` (floats, the only ones in a log): the core's double
    is Python's ``float`` of the same text, or the core declines the text."""
    digits = pad + str(mantissa)
    point = min(point, len(digits) - 1)
    text = ("-" if neg else "") + (
        digits if point == 0 else f"{digits[: len(digits) - point]}.{digits[len(digits) - point :]}"
    )
    doc = _sub(RICH.read_bytes(), rb'owari="300,[^,]*,', f'owari="300,{text},'.encode())
    game = from_columns.game_from_core(doc)
    if game is not None:
        assert game.owari is not None
        assert repr(game.owari.points[0]) == repr(float(text)), text
    check_same(doc)


@pytest.mark.parametrize(
    "name", ["A", "", "%zz", "%", "%%41", "%4%41", "%E3%81", "%e3%81%82x", "a+b%20c", "%FF%FE"]
)
def test_percent_escapes_unquoted_as_urllib(name: str) -> None:
    """The core unquotes the player and reconnect names itself: the same text as
    ``urllib.parse.unquote`` (the Python reader's), stray '%' and bad UTF-8 included."""
    doc = _sub(RICH.read_bytes(), rb'n0="[^"]*"', f'n0="{name}"'.encode())
    doc = _sub(doc, rb"(<T\d+/>)", f'\\1<UN n2="{name}"/>'.encode())
    assert check_same(doc)
    game = from_columns.game_from_core(doc)
    assert game is not None
    reconnects = [e for h in game.hands for e in h.events if isinstance(e, Reconnect)]
    assert game.players[0].name == reconnects[0].name


# ---------------------------------------------------------------- GameBuilder


def _builder(**changes: object) -> _core.GameBuilder:
    """``_core.GameBuilder`` as ``from_columns`` makes it, with ``changes``."""
    from urllib.parse import unquote

    from replay_audit.model import events as ev
    from replay_audit.model.meld import Meld

    kw: dict[str, object] = {
        "draw": ev.Draw,
        "discard": ev.Discard,
        "call": ev.Call,
        "riichi_declare": ev.RiichiDeclare,
        "riichi_accept": ev.RiichiAccept,
        "new_dora": ev.NewDora,
        "disconnect": ev.Disconnect,
        "reconnect": ev.Reconnect,
        "win": ev.RecordedWin,
        "drawn": ev.RecordedDraw,
        "owari": ev.Owari,
        "hand": ev.HandLog,
        "meld": Meld,
        "player": ev.Player,
        "meld_kinds": from_columns._MELD_KINDS,
        "draw_kinds": columns.DRAW_KINDS,
        "unquote": unquote,
    }
    return _core.GameBuilder(**(kw | changes))  # type: ignore[arg-type]


def test_game_builder_is_current_and_checks_its_classes() -> None:
    """``game_from_core`` builds with ``_core.GameBuilder`` (the build is not stale),
    which refuses a class whose slots are not exactly the fields it fills."""
    assert isinstance(from_columns._BUILDER, _core.GameBuilder)
    from dataclasses import dataclass

    @dataclass(frozen=True, slots=True)
    class Longer:
        seq: int
        seat: int
        tile: int
        extra: int = 0

    @dataclass(frozen=True, slots=True)
    class Renamed:
        seq: int
        who: int
        tile: int

    class Plain:
        seq = seat = tile = 0

    for cls in (Longer, Renamed, Plain, Discard):
        with pytest.raises(TypeError):
            _builder(draw=cls)
    with pytest.raises(ValueError, match="draw kinds"):
        _builder(draw_kinds=columns.DRAW_KINDS[:-1])


def test_game_builder_equality_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus check would see a builder that builds a wrong value: one given the
    draw kinds in another order builds, for a game with a draw, a ``Game`` unequal to
    the Python reader's."""
    need(CORPUS)
    monkeypatch.setattr(from_columns, "_BUILDER", _builder(draw_kinds=columns.DRAW_KINDS[::-1]))
    for path in _corpus_paths()[:50]:
        data = gzip.decompress(path.read_bytes())
        expected = parse_tenhou_xml(data, str(path), engine="python")
        built = from_columns.game_from_core(data, str(path))
        assert built is not None
        if any(isinstance(e, RecordedDraw) for h in expected.hands for e in h.events):
            assert built != expected
            return
        assert built == expected
    raise AssertionError("no game with a draw in the first 50 corpus files")
