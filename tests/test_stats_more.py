"""The later statistics: starting shanten (and the shanten function itself),
longest dealer streak (a max-reduced counter), stable dan and Tenhou R change.

Hand-built games with answers worked out in the comments; the shanten function
against the ``mahjong`` package on random hands; (corpus) sanity on Phoenix."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.events import (
    Call,
    Discard,
    Draw,
    Game,
    GameMeta,
    HandLog,
    Owari,
    Player,
    RecordedDraw,
    RiichiDeclare,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.tiles import parse_tiles
from replay_audit.scoring.shanten import (
    chiitoitsu_shanten,
    kokushi_shanten,
    regular_shanten,
    shanten,
)
from replay_audit.stats import (
    STATS,
    combine,
    counters,
    explain,
    fact_frames,
    game_facts,
    hand_facts,
    players,
)
from replay_audit.stats.definitions import COUNTERS
from replay_audit.stats.facts import riichi_wait_kinds
from replay_audit.stats.game_facts import dealer_streaks
from replay_audit.stats.identity import lobby, start_shanten
from replay_audit.stats.tenhou_rank import (
    HOUOU_HANCHAN,
    HOUOU_TONPUU,
    PT_TABLES,
    TOKUJOU_HANCHAN,
    lobby_of_go_type,
    rate_change,
    stable_dan,
)

NAMES = ("Ann", "Bob", "Cid", "Dee")


def counts(text: str) -> list[int]:
    c = [0] * 34
    for t in parse_tiles(text):
        c[t // 4] += 1
    return c


# ------------------------------------------------------------------- shanten


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123456789m1234p", 0),  # 1p/4p ... tenpai
        ("123456789m11p12s", 0),
        ("123m456p789s11z23z", 1),  # three groups, a pair, two honor singles
        ("19m19p19s1234567z", 0),  # thirteen-sided kokushi
        ("1122m3344p5566s7z", 0),  # seven pairs tenpai
        ("1111m2222p3333s4z", 2),  # three groups; 1m/2p/3s extras cannot pair
        ("1111z2222z3333z4z", 3),  # three honor quads: three dead tiles
        ("147m258p369s1234z", 6),
        ("123456789m12344p", -1),  # 14 tiles complete
        ("11223344556677z", -1),  # seven pairs of honors
    ],
)
def test_shanten_known_hands(hand: str, expected: int) -> None:
    c = counts(hand)
    assert shanten(c) == expected


def test_shanten_shapes_separately() -> None:
    c = counts("113355m779p1133s")  # six pairs and a single: seven-pairs tenpai
    assert chiitoitsu_shanten(c) == 0
    assert kokushi_shanten(counts("19m19p19s1234567z")) == 0
    assert regular_shanten(counts("123456789m1234p")) == 0
    with pytest.raises(ValueError):
        shanten([0] * 9)


def _random_counts(data: st.DataObject, size: int) -> list[int]:
    wall = [k for k in range(34) for _ in range(4)]
    concentrated = data.draw(st.booleans())
    if concentrated:  # few kinds, so four-held kinds and honor quads come up often
        kinds = data.draw(st.lists(st.integers(0, 33), min_size=4, max_size=6, unique=True))
        wall = [k for k in kinds for _ in range(4)]
    idx = data.draw(
        st.lists(
            st.integers(0, len(wall) - 1),
            min_size=min(size, len(wall)),
            max_size=min(size, len(wall)),
            unique=True,
        )
    )
    c = [0] * 34
    for i in idx:
        c[wall[i]] += 1
    return c


@settings(max_examples=1500, deadline=None)
@given(st.data(), st.sampled_from([13, 13, 14, 10, 11, 7, 8, 4, 5, 1, 2]))
def test_shanten_agrees_with_mahjong_package(data: st.DataObject, size: int) -> None:
    Shanten = pytest.importorskip("mahjong.shanten").Shanten
    c = _random_counts(data, size)
    if sum(c) % 3 == 0:
        return
    assert shanten(c) == Shanten.calculate_shanten(c)


def test_shanten_agrees_on_many_dealt_hands() -> None:
    """A fixed-seed sample of real-looking dealt hands (13 tiles from a wall)."""
    Shanten = pytest.importorskip("mahjong.shanten").Shanten
    rng = random.Random(20261129)
    for _ in range(3000):
        c = [0] * 34
        for t in rng.sample(range(136), 13):
            c[t // 4] += 1
        assert shanten(c) == Shanten.calculate_shanten(c)


# ----------------------------------------------------------------- fixtures


def _hand(index: int, round_index: int, haipai: tuple[tuple[int, ...], ...], **kw) -> HandLog:
    events = (
        Draw(index * 10 + 1, round_index % 4, 135),
        Discard(index * 10 + 2, round_index % 4, 135, True),
        RecordedDraw(seq=index * 10 + 3, kind="exhaustive", deltas=(0, 0, 0, 0), shown=()),
    )
    return HandLog(
        index=index,
        seq=index * 10,
        round_index=round_index,
        honba=kw.get("honba", 0),
        sticks=0,
        dealer=round_index % 4,
        scores=(25000,) * 4,
        haipai=haipai,
        dora_indicator=0,
        events=events,
    )


def _game(
    rounds: list[int],
    haipai: tuple[tuple[int, ...], ...],
    *,
    final: tuple[int, ...] = (40000, 30000, 20000, 10000),
    rates: tuple[float | None, ...] = (None,) * 4,
    go_type: int = 0xA9,
    source: str = "more.xml",
    names: tuple[str, ...] = NAMES,
) -> Game:
    meta = GameMeta(source, source, "tenhou-xml", 4, go_type=go_type, hanchan=bool(go_type & 8))
    hands = tuple(_hand(i, r, haipai) for i, r in enumerate(rounds))
    return Game(
        meta,
        tuple(Player(n, rate=r) for n, r in zip(names, rates, strict=True)),
        hands,
        owari=Owari(final, (0.0,) * 4),
    )


# Dealt hands: seat 0 tenpai (0), seat 1 one-shanten (1), seat 2 kokushi 1-shanten,
# seat 3 thirteen singles scattered (6).
HAIPAI = (
    tuple(parse_tiles("123456789m1234p")),
    tuple(parse_tiles("123456789m1357p")),
    tuple(parse_tiles("19m19p19s123456z5m")),
    tuple(parse_tiles("147m258p369s1234z")),
)


def test_start_shanten_facts_use_the_13_dealt_tiles() -> None:
    assert [start_shanten(h) for h in HAIPAI] == [0, 1, 1, 6]
    assert start_shanten(()) is None  # 3-player placeholder / fixtures
    assert start_shanten("") is None
    g = _game([0, 1], HAIPAI)
    rows = hand_facts(g)
    assert [start_shanten(r["dealt"]) for r in rows] == [0, 1, 1, 6] * 2
    assert bytes.fromhex(rows[0]["dealt"]) == bytes(HAIPAI[0])


def test_start_shanten_statistics_split_by_dealer() -> None:
    # E1 (Ann dealer), E2 (Bob dealer), E3 (Cid dealer): same dealt hands each time.
    p = players([_game([0, 1, 2], HAIPAI)]).set_index("player")
    assert p.loc["Ann", "avg_start_shanten"] == 0
    assert p.loc["Bob", "avg_start_shanten_dealer"] == 1
    assert math.isnan(p.loc["Dee", "avg_start_shanten_dealer"])  # never dealer
    assert p.loc["Dee", "avg_start_shanten_nondealer"] == 6
    assert p.loc["Cid", "start_shanten_hands"] == 3
    assert p.loc["Cid", "dealer_start_shanten_hands"] == 1


# -------------------------------------------------------------- dealer streak


def test_dealer_streaks_count_repeats() -> None:
    # E1 E1 E1 (Ann: 2 repeats) E2 (Bob: 0) E3 E3 (Cid: 1) E4 (Dee: 0) S1 S1 S1 S1 (Ann: 3)
    g = _game([0, 0, 0, 1, 2, 2, 3, 4, 4, 4, 4], HAIPAI)
    assert dealer_streaks(g) == {0: 3, 1: 0, 2: 1, 3: 0}
    gf = {r["seat"]: r["dealer_streak"] for r in game_facts(g)}
    assert gf == {0: 3, 1: 0, 2: 1, 3: 0}


def test_longest_dealer_streak_is_a_max_across_games() -> None:
    g1 = _game([0, 0, 0, 1, 2, 3], HAIPAI, source="a.xml")  # Ann 2
    g2 = _game([0, 1, 1, 1, 1, 2, 3], HAIPAI, source="b.xml")  # Ann 0, Bob 3
    g3 = _game([0, 0, 1, 2, 3], HAIPAI, source="c.xml")  # Ann 1
    p = players([g1, g2, g3]).set_index("player")
    assert p.loc["Ann", "longest_dealer_streak"] == 2  # max, not 2 + 0 + 1
    assert p.loc["Bob", "longest_dealer_streak"] == 3
    assert p.loc["Dee", "longest_dealer_streak"] == 0


def test_combine_partial_counters_equals_counting_at_once() -> None:
    games = [
        _game([0, 0, 0, 1, 2, 3], HAIPAI, source="a.xml", rates=(1800.0, 1900.0, 2000.0, 2100.0)),
        _game([0, 1, 1, 1, 1, 2, 3], HAIPAI, source="b.xml", final=(1, 4, 3, 2)),
        _game([0, 0, 1, 2, 3], HAIPAI, source="c.xml"),
    ]
    parts = [counters(*fact_frames([g])) for g in games]
    at_once = counters(*fact_frames(games))
    merged = combine(parts)
    keys = ["name", "game_type"]
    pd.testing.assert_frame_equal(
        merged.set_index(keys).sort_index(), at_once.set_index(keys).sort_index(), check_dtype=False
    )
    # merging in another grouping of the parts gives the same table
    twice = combine([combine(parts[:2]), parts[2]])
    pd.testing.assert_frame_equal(twice, merged, check_dtype=False)
    assert {c.key for c in COUNTERS if c.reduce == "max"} == {"max_dealer_streak"}


# ---------------------------------------------------------------- stable dan


def test_stable_dan_closed_form_matches_the_table() -> None:
    # stats.md's worked example: 3 firsts, 4 seconds, 3 thirds, 3 fourths → 8 on Houou.
    assert stable_dan((3, 4, 3, 3), HOUOU_TONPUU) == pytest.approx(8.0)
    for n in [(10, 9, 8, 7), (25, 25, 25, 25), (3, 1, 0, 2)]:
        closed = ((60 * n[0] + 30 * n[1]) / n[3] - 20) / 10
        assert stable_dan(n, HOUOU_HANCHAN) == pytest.approx(closed)
        assert stable_dan(n, HOUOU_TONPUU) == pytest.approx(closed)
    # At the stable dan the expected pt of a game is zero (by the table itself).
    n = (27, 26, 24, 23)
    d = stable_dan(n, TOKUJOU_HANCHAN)
    pt = TOKUJOU_HANCHAN.place_pt
    loss = TOKUJOU_HANCHAN.loss_first_dan + TOKUJOU_HANCHAN.loss_per_dan * (d - 1)
    assert pt[0] * n[0] + pt[1] * n[1] + pt[2] * n[2] - loss * n[3] == pytest.approx(0)
    assert math.isnan(stable_dan((5, 0, 0, 0), HOUOU_HANCHAN))
    assert len(PT_TABLES) == 8
    assert HOUOU_HANCHAN.loss(10) == 180


def test_stable_dan_in_players_per_game_type_and_lobby() -> None:
    # Ann: 1st, 1st, 4th; Bob: 2nd x3 ... per the final scores below.
    finals = [
        (40000, 30000, 20000, 10000),
        (40000, 30000, 10000, 20000),
        (5000, 30000, 25000, 40000),
    ]
    games = [_game([0, 1, 2, 3], HAIPAI, final=f, source=f"{i}.xml") for i, f in enumerate(finals)]
    p = players(games).set_index("player")
    # Ann: n1 = 2, n2 = 0, n4 = 1 → ((120)/1 − 20)/10 = 10
    assert p.loc["Ann", "stable_dan"] == pytest.approx(10.0)
    assert math.isnan(p.loc["Bob", "stable_dan"])  # never 4th
    # tokujou games (GO 0x89) by lobby use the tokujou table: 75/30, −45 −15/dan
    tok = [
        _game([0, 1, 2, 3], HAIPAI, final=f, source=f"t{i}.xml", go_type=0x89)
        for i, f in enumerate(finals)
    ]
    q = players(tok, by_lobby=True).set_index("player")
    assert q.loc["Ann", "game_type"] == "tenhou-4p-hanchan-tokujou"
    assert q.loc["Ann", "stable_dan"] == pytest.approx(1 + (150 / 1 - 45) / 15)
    # three-player or unknown tables: NaN
    r = players(games, pt_tables={}).set_index("player")
    assert r["stable_dan"].isna().all()


def test_lobby_from_go_type() -> None:
    assert [lobby_of_go_type(x) for x in (0xA9, 0x89, 0x29, 0x09, None)] == [
        "houou",
        "tokujou",
        "joukyuu",
        "ippan",
        None,
    ]
    assert lobby(_game([0], HAIPAI, go_type=0xE1)) == "houou"


# ------------------------------------------------------------------ R change


def test_rate_change_by_hand() -> None:
    # table mean (1800 + 2000 + 2000 + 2200) / 4 = 2000
    rates = (1800.0, 2000.0, 2000.0, 2200.0)
    assert rate_change(1, 1800.0, rates, 4) == pytest.approx(0.2 * (30 + 200 / 40))
    assert rate_change(4, 2200.0, rates, 4) == pytest.approx(0.2 * (-30 - 200 / 40))
    assert rate_change(2, 2000.0, rates, 3) == pytest.approx(0.0)


@given(
    st.lists(st.floats(1400, 2400, allow_nan=False), min_size=4, max_size=4),
    st.permutations([1, 2, 3, 4]),
)
def test_rate_changes_of_a_table_sum_to_zero(rates: list[float], places: list[int]) -> None:
    total = sum(rate_change(p, r, rates, 4) for p, r in zip(places, rates, strict=True))
    assert total == pytest.approx(0.0, abs=1e-9)


def test_rate_change_in_players() -> None:
    rates = (1800.0, 2000.0, 2000.0, 2200.0)
    g1 = _game([0, 1, 2, 3], HAIPAI, rates=rates, source="r1.xml")  # places 1 2 3 4
    g2 = _game([0, 1, 2, 3], HAIPAI, source="r2.xml")  # no rates: not counted
    p = players([g1, g2]).set_index("player")
    assert p.loc["Ann", "rated_games"] == 1
    assert p.loc["Ann", "games"] == 2
    assert p.loc["Ann", "total_rate_change"] == pytest.approx(0.2 * (30 + 5))
    assert p.loc["Dee", "avg_rate_change"] == pytest.approx(0.2 * (-30 - 5))
    assert [r["rate_change"] for r in game_facts(g2)] == [None] * 4


# ------------------------------------------------------------------ registry


def test_new_statistics_are_documented() -> None:
    keys = {s.key for s in STATS}
    for key in (
        "avg_start_shanten",
        "avg_start_shanten_dealer",
        "avg_start_shanten_nondealer",
        "longest_dealer_streak",
        "stable_dan",
        "avg_rate_change",
        "total_rate_change",
    ):
        assert key in keys
        assert key in explain(key)
    assert "renchan" in explain("longest_dealer_streak")


# -------------------------------------------------------------------- corpus


@pytest.mark.corpus
def test_corpus_phoenix_sanity(corpus) -> None:
    from replay_audit.io.read import iter_games

    files = sorted((corpus / "tenhou-xml" / "phoenix-2024").glob("*"))[:300]
    games = [g for _p, g in iter_games(files) if isinstance(g, Game)]
    assert len(games) == len(files)
    p = players(games)
    t = p.groupby("game_type")[
        ["start_shanten_hands", "start_shanten_sum", "rated_games", "games", "hands"]
    ].sum()
    # every dealt hand of a 4-player log has 13 tiles; every finished game has rates
    assert (t["start_shanten_hands"] == t["hands"]).all()
    assert (t["rated_games"] == t["games"]).all()
    mean = t["start_shanten_sum"].sum() / t["start_shanten_hands"].sum()
    assert 3.0 < mean < 4.0  # random 13-tile hands average about 3.5 shanten
    # R changes of each table sum to zero, and a Phoenix table's stable dan is plausible
    gf = fact_frames(games)[1]
    per_game = gf.groupby("file")["rate_change"].sum()
    assert per_game.abs().max() < 1e-6
    rows = p[p["games"] >= 1]
    assert rows["longest_dealer_streak"].max() >= 3
    pooled = p.groupby("game_type")[["place_1", "place_2", "place_3", "place_4"]].sum()
    for _gt, row in pooled.iterrows():
        assert stable_dan(row.to_numpy(), HOUOU_HANCHAN) == pytest.approx(
            ((60 * row.iloc[0] + 30 * row.iloc[1]) / row.iloc[3] - 20) / 10
        )


# ------------------------------------------------- players of a stored report


@pytest.mark.parametrize("by_lobby", [False, True])
def test_players_of_a_stored_report_sum_part_by_part_to_the_same_table(
    tmp_path: Path, by_lobby: bool
) -> None:
    """A stored run is aggregated one part at a time (``fact_chunks``); the table
    equals the one counted from the whole in-memory report."""
    from replay_audit.report.stored import StoredAuditReport
    from replay_audit.run.local import audit_files

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    files = sorted(str(p) for p in fixtures.iterdir() if p.suffix in (".xml", ".json"))
    plain = audit_files(files, jobs=1)
    stored = audit_files(files, jobs=1, out=tmp_path / "o", files_per_part=1)
    assert isinstance(stored, StoredAuditReport)
    assert len(list(stored.fact_chunks())) == len(files)
    want = players(plain, by_lobby=by_lobby)
    assert len(want) > 4
    pd.testing.assert_frame_equal(players(stored, by_lobby=by_lobby), want, check_dtype=False)


def test_players_cli_reads_report_folders_of_earlier_audits(tmp_path: Path) -> None:
    """`replay-audit players REPORT_DIR` gives the table auditing the logs again gives."""
    from replay_audit.cli import main

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    logs = sorted(str(p) for p in fixtures.iterdir() if p.suffix in (".xml", ".json"))
    half = len(logs) // 2
    assert main(["audit", *logs[:half], "--out", str(tmp_path / "r1"), "-q"]) in (0, 1)
    assert main(["audit", *logs[half:], "--out", str(tmp_path / "r2"), "-q"]) in (0, 1)
    assert (
        main(
            [
                "players",
                str(tmp_path / "r1"),
                str(tmp_path / "r2"),
                "--out",
                str(tmp_path / "a.csv"),
            ]
        )
        == 0
    )
    assert main(["players", *logs, "--out", str(tmp_path / "b.csv"), "-q"]) == 0
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    assert len(a) > 4
    pd.testing.assert_frame_equal(a, b)
    assert main(["players", str(tmp_path / "r1"), logs[0]]) == 2  # either reports or logs
    assert main(["players", *logs, "--by-lobby", "--out", str(tmp_path / "c.csv"), "-q"]) == 0
    c = pd.read_csv(tmp_path / "c.csv")
    assert set(c["game_type"]) != set(b["game_type"])  # Tenhou types carry their lobby
    assert c["games"].sum() == b["games"].sum()


def test_players_cli_selects_players_and_a_minimum_of_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--player keeps exactly the named players' rows, with the counters the full
    table has for them; --min-games drops rows of fewer games."""
    from replay_audit.cli import main

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    logs = sorted(str(p) for p in fixtures.iterdir() if p.suffix in (".xml", ".json"))
    assert main(["players", *logs, "--out", str(tmp_path / "all.csv"), "-q"]) == 0
    full = pd.read_csv(tmp_path / "all.csv")
    most = full.sort_values("games", ascending=False)
    a, b = most["player"].iloc[0], most["player"].iloc[-1]
    args = ["players", *logs, "--player", a, "--player", b, "--player", "nobody", "-q"]
    assert main([*args, "--out", str(tmp_path / "two.csv")]) == 0
    assert "no games of nobody" in capsys.readouterr().err
    two = pd.read_csv(tmp_path / "two.csv")
    assert set(two["player"]) == {a, b}
    want = full[full["player"].isin([a, b])].reset_index(drop=True)
    pd.testing.assert_frame_equal(two, want)
    floor = int(most["games"].iloc[0])
    assert floor > int(most["games"].iloc[-1])  # the fixtures differ in games per player
    assert (
        main(["players", *logs, "--min-games", str(floor), "--out", str(tmp_path / "m.csv")]) == 0
    )
    kept = pd.read_csv(tmp_path / "m.csv")
    assert len(kept) and (kept["games"] >= floor).all()
    assert len(kept) == int((full["games"] >= floor).sum())


# ---------------------------------------------------------- riichi wait quality


def _riichi_hand() -> HandLog:
    """Seat 0: 23m 456p 789s 111z 9m 5z, draws 5z, riichi on 9m: waits 1m/4m (2 kinds).
    Seat 1: 13m 456p 789s 222z 9m 6z, draws 6z, riichi on 9m: a kanchan on 2m (1 kind).
    Seat 2: 23m 456p 789s 3333z 9m, draws 7z, closed kan of 3z, draws 7z from the dead
    wall, riichi on 9m: 23m 456p 789s 77z + kan, waits 1m/4m (2 kinds).
    Seat 3 never declares."""
    haipai = (
        (4, 8, 48, 52, 56, 96, 100, 104, 108, 109, 110, 32, 124),
        (0, 9, 49, 53, 57, 97, 101, 105, 112, 113, 114, 33, 128),
        (5, 10, 50, 54, 58, 98, 102, 106, 116, 117, 118, 119, 34),
        (37, 41, 45, 60, 64, 68, 72, 76, 80, 84, 88, 92, 120),
    )
    ev = [
        Draw(1, 0, 125),
        RiichiDeclare(2, 0),
        Discard(3, 0, 32, False),
        Draw(4, 1, 129),
        RiichiDeclare(5, 1),
        Discard(6, 1, 33, False),
        Draw(7, 2, 132),
        Call(8, 2, Meld(MeldKind.ANKAN, (116, 117, 118, 119))),
        Draw(9, 2, 133),
        RiichiDeclare(10, 2),
        Discard(11, 2, 34, False),
        Draw(12, 3, 135),
        Discard(13, 3, 135, True),
        RecordedDraw(seq=14, kind="exhaustive", deltas=(0, 0, 0, 0), shown=()),
    ]
    return HandLog(
        index=0,
        seq=0,
        round_index=0,
        honba=0,
        sticks=0,
        dealer=0,
        scores=(25000,) * 4,
        haipai=haipai,
        dora_indicator=0,
        events=tuple(ev),
    )


def test_riichi_wait_kinds_are_rebuilt_from_the_deal_and_own_moves() -> None:
    hand = _riichi_hand()
    assert riichi_wait_kinds(hand, 0, 2) == 2
    assert riichi_wait_kinds(hand, 1, 5) == 1
    assert riichi_wait_kinds(hand, 2, 10) == 2  # through the closed kan
    bad = dataclasses.replace(hand, haipai=((),) * 4)
    assert riichi_wait_kinds(bad, 0, 2) is None  # no deal known: no answer
    g = Game(
        GameMeta("w.xml", "w", "tenhou-xml", 4, go_type=0xA9, hanchan=True),
        tuple(Player(n) for n in NAMES),
        (hand,),
        owari=Owari((25000,) * 4, (0.0,) * 4),
    )
    rows = hand_facts(g)
    assert [r["riichi_waits"] for r in rows] == [2, 1, 2, None]
    p = players(g).set_index("player")
    assert p.loc["Ann", "riichi_multi_wait_rate"] == 1.0
    assert p.loc["Bob", "riichi_multi_wait_rate"] == 0.0
    assert p.loc["Cid", "avg_riichi_wait_kinds"] == 2.0
    assert math.isnan(p.loc["Dee", "riichi_multi_wait_rate"])


@pytest.mark.corpus
def test_every_corpus_riichi_has_a_rebuilt_wait(corpus: Path) -> None:
    """Riichi needs tenpai, and Tenhou enforces it: every rebuilt wait has a kind,
    and a riichi win's tile is one of them (checked through the count >= 1)."""
    from replay_audit.io.read import read_log

    files = sorted((corpus / "tenhou-xml" / "phoenix-2024").glob("*.xml.gz"))[:200]
    seen = 0
    for f in files:
        for r in hand_facts(read_log(f)):
            if r["riichi_declared"]:
                seen += 1
                assert r["riichi_waits"] is not None and r["riichi_waits"] >= 1, (f, r["hand"])
    assert seen > 300


def test_players_in_a_date_window_counts_only_those_days_games(tmp_path: Path) -> None:
    """since/until keep the games of those days (inclusive, by the log id's date)
    with their hands: the table equals the one counted from those games' facts
    alone; two windows that split the dated games add up to them, undated games
    are in neither, and a stored report (part by part) agrees."""
    from types import SimpleNamespace

    from replay_audit.run.local import audit_files

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    files = sorted(str(p) for p in fixtures.iterdir() if p.suffix in (".xml", ".json"))
    plain = audit_files(files, jobs=1)
    hf, gf = plain.hand_facts, plain.game_facts
    day = gf["date"].astype("string").str[:8]
    days = sorted(day.dropna().unique())
    assert len(days) >= 2 and day.isna().any()  # dated games on two days or more, undated too

    def only(keep: pd.Series) -> pd.DataFrame:
        games = gf[keep.fillna(False).astype(bool)]
        return players(
            SimpleNamespace(hand_facts=hf[hf["file"].isin(games["file"])], game_facts=games)
        )

    cut = days[1]
    late = players(plain, since=f"{cut[:4]}-{cut[4:6]}-{cut[6:]}")
    pd.testing.assert_frame_equal(late, only(day >= cut))
    early = players(plain, until=days[0])
    pd.testing.assert_frame_equal(early, only(day <= days[0]))
    dated = players(plain, since="1900-01-01")
    pd.testing.assert_frame_equal(dated, only(day.notna()))
    if len(days) == 2:
        assert early["games"].sum() + late["games"].sum() == dated["games"].sum()
    assert dated["hands"].sum() < players(plain)["hands"].sum()  # the undated games are out
    stored = audit_files(files, jobs=1, out=tmp_path / "o", files_per_part=1)
    pd.testing.assert_frame_equal(players(stored, since=cut), late, check_dtype=False)
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        players(plain, since="April")


def test_players_cli_date_window_and_bad_date(tmp_path: Path) -> None:
    from replay_audit.cli import main

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    logs = sorted(str(p) for p in fixtures.iterdir() if p.suffix in (".xml", ".json"))
    out, ref = tmp_path / "w.csv", tmp_path / "all.csv"
    assert main(["players", *logs, "--out", str(ref), "-q"]) == 0
    window = ["--since", "2024-04-01", "--until", "2024-04-30"]
    assert main(["players", *logs, *window, "--out", str(out), "-q"]) == 0
    april, everything = pd.read_csv(out), pd.read_csv(ref)
    assert 0 < april["games"].sum() < everything["games"].sum()
    assert main(["players", *logs, "--since", "1st of April", "-q"]) == 2
