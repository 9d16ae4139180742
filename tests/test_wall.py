"""The wall rebuilt from the seed must agree with every tile tag Tenhou wrote.

The corpus checks read the mjlog XML with a small regex reader of their own (not
the project parser), so a parser bug cannot hide a wall bug or the reverse.  Each
check compares one recorded fact (an INIT deal, dora, dice, a draw tag, a DORA
tag, an AGARI ``doraHai``/``doraHaiUra`` entry, the length of an exhaustive
draw) with the computed wall; the tallies are reported and every mismatch fails.
"""

from __future__ import annotations

import base64
import csv
import gzip
import random
import re
import struct
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.events import Call, Draw, Game, NewDora, RecordedWin
from replay_audit.wall import (
    FORMAT_BASE64,
    FORMAT_HEX,
    THREE_PLAYER_TILES,
    Wall,
    init_by_array,
    iter_walls,
    seed_format,
    shuffle_tiles,
    wall_from_init_shuffle,
    walls_from_seed,
)
from tests.conftest import shard

_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
FIXTURES_DIR = Path(__file__).resolve().parents[1] / "fixtures"
"""Only for collecting parameters; the tests themselves use the ``corpus`` fixture."""

# --------------------------------------------------------------- a tiny mjlog reader

_TAG = re.compile(r"<(\w+)((?:\s+\w+\s*=\s*\"[^\"]*\")*)\s*/?>")
_ATTR = re.compile(r"(\w+)\s*=\s*\"([^\"]*)\"")
_DRAW = re.compile(r"[TUVW](\d+)")


def _tags(path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        text = f.read()
    for m in _TAG.finditer(text):
        yield m.group(1), dict(_ATTR.findall(m.group(2)))


def _ints(value: str) -> list[int]:
    return [int(x) for x in value.split(",") if x != ""]


def _replaces(m: int) -> bool:
    """A call after which the caller draws a replacement tile: any kan, or kita.

    Chi (bit 2), pon (bit 3) and kakan (bit 4) are tested in that order because
    a chi's upper bits overlap the others' flag bits.
    """
    # kakan (0x10), kita (0x20), daiminkan/ankan (none of the flags) draw a replacement
    return not m & 0x4 and not m & 0x8


def audit_log(path: Path, tally: Counter[str]) -> list[str]:
    """Check every wall fact of one log; count checks in ``tally``; return mismatches."""
    bad: list[str] = []

    def check(what: str, recorded: object, computed: object, where: str) -> None:
        tally[what] += 1
        if recorded != computed:
            bad.append(f"{path.name} {where} {what}: log {recorded} wall {computed}")

    players = 4
    seed_text: str | None = None
    walls: Iterator[Wall] | None = None
    wall: Wall | None = None
    hand = -1
    live = rep = kans = 0
    pending = False
    for name, a in _tags(path):
        if name == "GO":
            players = 3 if int(a["type"]) & 0x10 else 4
        elif name == "SHUFFLE":  # comes before GO: start the generator at the first INIT
            seed_text = a["seed"]
        elif name == "INIT":
            hand += 1
            if "shuffle" in a:
                wall = wall_from_init_shuffle(a["shuffle"], players)
            else:
                assert seed_text is not None, f"{path.name}: no seed"
                if walls is None:
                    walls = iter_walls(seed_text, players)
                wall = next(walls)
            seed = _ints(a["seed"])
            where = f"hand {hand}"
            dealt = wall.haipai(int(a["oya"]))
            for seat in range(4):
                computed = sorted(dealt[seat]) if seat < players else []
                check("deal", sorted(_ints(a[f"hai{seat}"])), computed, f"{where} seat {seat}")
            check("INIT dora", seed[5], wall.dora_indicator(0), where)
            check("dice", (seed[3] + 1, seed[4] + 1), wall.dice, where)
            live = rep = kans = 0
            pending = False
        elif wall is not None and (m := _DRAW.fullmatch(name)):
            tile = int(m.group(1))
            if pending:
                check("replacement draw", tile, wall.rinshan_tile(rep), f"hand {hand} rep {rep}")
                rep += 1
                pending = False
            else:
                check("live draw", tile, wall.live_tile(live), f"hand {hand} draw {live}")
                live += 1
        elif wall is not None and name == "N":
            pending = _replaces(int(a["m"]))
        elif wall is not None and name == "DORA":
            kans += 1
            check("DORA tag", int(a["hai"]), wall.dora_indicator(kans), f"hand {hand}")
        elif wall is not None and name == "AGARI":
            for k, tile in enumerate(_ints(a.get("doraHai", ""))):
                check("AGARI doraHai", tile, wall.dora_indicator(k), f"hand {hand} k {k}")
            for k, tile in enumerate(_ints(a.get("doraHaiUra", ""))):
                check("AGARI doraHaiUra", tile, wall.ura_indicator(k), f"hand {hand} k {k}")
        elif wall is not None and name == "RYUUKYOKU" and "type" not in a:
            check("exhaustive length", live, wall.live_count(rep), f"hand {hand}")
    return bad


def _audit(paths: list[Path]) -> tuple[Counter[str], list[str]]:
    tally: Counter[str] = Counter()
    bad: list[str] = []
    for path in paths:
        bad += audit_log(path, tally)
    return tally, bad


# --------------------------------------------------------------- corpus checks


_PHOENIX_SHARDS = 4
"""``test_every_phoenix_2024_wall_matches``'s shards: each checks every fourth game."""


@pytest.mark.corpus
@pytest.mark.parametrize("part", range(_PHOENIX_SHARDS))
def test_every_phoenix_2024_wall_matches(corpus: Path, part: int) -> None:
    """All 2,770 phoenix-2024 games (this shard's): every deal, dora, dice, draw and
    indicator, the tallies held to the manifest's rows of the same games."""
    every = sorted((corpus / "tenhou-xml" / "phoenix-2024").glob("*.xml.gz"))
    assert len(every) > 2000
    paths = shard(every, part, _PHOENIX_SHARDS)
    tally, bad = _audit(paths)
    print(dict(tally))
    assert bad[:20] == []
    names = {str(p.relative_to(corpus)) for p in paths}
    with (corpus / "manifest.tsv").open(encoding="utf-8") as f:
        phoenix = [r for r in csv.DictReader(f, delimiter="\t") if "phoenix-2024" in r["path"]]
    assert len(phoenix) == len(every)
    rows = [r for r in phoenix if r["path"] in names]
    hands = sum(int(r["hands"]) for r in rows)
    wins = sum(int(r["agari"]) for r in rows)
    assert len(rows) == len(paths)
    assert tally["deal"] == 4 * hands
    assert tally["INIT dora"] == tally["dice"] == hands
    assert tally["AGARI doraHai"] >= wins
    assert tally["live draw"] > 40 * hands
    assert tally["replacement draw"] > 0 and tally["DORA tag"] > 0
    assert tally["AGARI doraHaiUra"] > 0 and tally["exhaustive length"] > 0


def _other_xml_logs() -> list[str]:
    """Every other mjlog in the corpus: 2009 hex and INIT-shuffle eras, chip and
    Toutenkou lobbies (GO 2113: a full 136-tile wall), 2022-23 lobbies, the
    XML/JSON pairs and the trimmed excerpts, 3-player ones included."""
    root = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*.xml.gz") if "phoenix-2024" not in p.parts
    )


@pytest.mark.corpus
@pytest.mark.parametrize("name", _other_xml_logs())
def test_other_eras_lobbies_and_three_player(corpus: Path, name: str) -> None:
    tally, bad = _audit([corpus / name])
    assert bad == []
    assert tally["deal"] > 0 and tally["live draw"] > 0 and tally["dice"] == tally["INIT dora"]


@pytest.mark.corpus
def test_three_player_replacements_and_kan_dora(corpus: Path) -> None:
    """The base64 sanma excerpt has six kita draws and a kan with its DORA tag."""
    path = corpus / "tenhou-xml" / "excerpts" / "2018110809gm-00b9-0000-00a79b89.xml.gz"
    if not path.exists():
        pytest.skip("sanma excerpt absent")
    tally, bad = _audit([path])
    assert bad == []
    assert tally["replacement draw"] >= 6
    assert tally["DORA tag"] >= 1
    assert tally["deal"] == 4 * 3


# --------------------------------------------------------------- unit checks

_SEED = (
    "mt19937ar-sha512-n288-base64,"
    + base64.b64encode(
        struct.pack("<624I", *(random.Random(7).getrandbits(32) for _ in range(624)))
    ).decode()
)


def test_wall_shape_four_players() -> None:
    walls = walls_from_seed(_SEED, hands=3)
    assert len(walls) == 3
    assert len({w.tiles for w in walls}) == 3
    for w in walls:
        assert sorted(w.tiles) == list(range(136))
        assert w.players == 4 and w.dead_wall_size == 14
        assert all(1 <= d <= 6 for d in w.dice)
        assert w.live_count() == 70 and w.live_count(4) == 66


def test_walls_follow_one_generator() -> None:
    """Hand k's wall does not depend on how many walls are asked for."""
    assert walls_from_seed(_SEED, hands=2) == walls_from_seed(_SEED, hands=5)[:2]
    it = iter_walls(_SEED)
    assert [next(it) for _ in range(4)] == walls_from_seed(_SEED, hands=4)


def test_three_player_tile_set() -> None:
    w = walls_from_seed(_SEED, 3, hands=1)[0]
    assert sorted(w.tiles) == sorted(THREE_PLAYER_TILES)
    assert w.players == 3 and w.dead_wall_size == 18 and w.deal_size == 39
    assert len(w.haipai(1)) == 3
    # 14 tiles held back, as in four-player: a real sanma hand with three kita
    # drew 52 live tiles (../shared/cases/sanma_three_kita_exhaustive_draw)
    assert w.live_count() == 108 - 14 - 39
    assert w.live_count(3) == 52


def test_positions_partition_the_wall() -> None:
    """Deal, live draws and the dead wall's named tiles never overlap."""
    for players in (3, 4):
        for w in walls_from_seed(_SEED, players, hands=2):
            dealt = [t for hand in w.haipai(0) for t in hand]
            # three-player: the four tiles the named positions reach into the live
            # wall (kan dora 3, 4) are gone from it once four replacements are drawn
            live = [w.live_tile(i) for i in range(w.live_count(w.replacement_count - 4))]
            dead = [w.rinshan_tile(n) for n in range(w.replacement_count)]
            dead += [w.dora_indicator(k) for k in range(5)]
            dead += [w.ura_indicator(k) for k in range(5)]
            everything = dealt + live + dead
            assert sorted(everything) == sorted(w.tiles)


def test_no_tile_is_both_drawn_and_shown() -> None:
    """After ``r`` replacement draws (up to 4 of them kans), the live draws, the
    replacements and the indicators the kans reveal are all different tiles."""
    for players in (3, 4):
        for w in walls_from_seed(_SEED, players, hands=2):
            for r in range(w.replacement_count + 1):
                for kans in range(min(r, 4) + 1):
                    seen = [w.live_tile(i) for i in range(w.live_count(r))]
                    seen += [w.rinshan_tile(n) for n in range(r)]
                    seen += [w.dora_indicator(k) for k in range(kans + 1)]
                    seen += [w.ura_indicator(k) for k in range(kans + 1)]
                    assert len(seen) == len(set(seen)), (players, r, kans)


def test_haipai_order_and_dealer_rotation() -> None:
    w = Wall(tuple(range(136)), (1, 1))
    east = w.haipai(0)
    assert east[0] == (0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48)
    assert east[3] == (12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 51)
    south = w.haipai(1)
    assert south[1] == east[0] and south[0] == east[3]


def test_dead_wall_positions_and_2009_flip() -> None:
    w = Wall(tuple(range(136)), (1, 1))
    assert [w.dora_indicator(k) for k in range(5)] == [130, 128, 126, 124, 122]
    assert [w.ura_indicator(k) for k in range(5)] == [131, 129, 127, 125, 123]
    assert [w.rinshan_tile(n) for n in range(4)] == [134, 135, 132, 133]
    old = Wall(tuple(range(136)), (1, 1), flipped=True)
    assert [old.dora_indicator(k) for k in range(2)] == [131, 129]
    assert [old.ura_indicator(k) for k in range(2)] == [130, 128]
    assert [old.rinshan_tile(n) for n in range(4)] == [135, 134, 133, 132]
    sanma = Wall(THREE_PLAYER_TILES, (1, 1))
    assert sanma.dora_indicator(0) == THREE_PLAYER_TILES[98]
    assert sanma.rinshan_tile(0) == THREE_PLAYER_TILES[106]


def test_out_of_range_positions_raise() -> None:
    w = Wall(tuple(range(136)), (1, 1))
    with pytest.raises(IndexError):
        w.dora_indicator(5)
    with pytest.raises(IndexError):
        w.rinshan_tile(4)
    with pytest.raises(IndexError):
        w.live_tile(70)
    with pytest.raises(ValueError):
        w.haipai(4)


@pytest.mark.parametrize(
    "seed",
    [
        "mt19937ar,5EE931AE,6705E689",  # per-hand INIT form
        "0.12345",  # simulator float seed
        "mt19937ar-sha512-n288-base64,not*base64",
        "mt19937ar-sha512-n288-base64," + base64.b64encode(b"short").decode(),
        "mt19937ar-sha512-n288,XYZ",
        "mt19937ar-sha512-n288",
    ],
)
def test_unreproducible_seeds_raise_value_error(seed: str) -> None:
    with pytest.raises(ValueError):
        walls_from_seed(seed, hands=1)


def test_bad_player_count_and_init_shuffle_checks() -> None:
    with pytest.raises(ValueError):
        walls_from_seed(_SEED, 5, hands=1)
    with pytest.raises(ValueError):
        wall_from_init_shuffle(_SEED)
    assert seed_format(_SEED) == FORMAT_BASE64
    w = wall_from_init_shuffle("mt19937ar,5EE931AE,6705E689,792A825C", 3)
    assert sorted(w.tiles) == sorted(THREE_PLAYER_TILES) and w.flipped


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=700))
def test_init_by_array_matches_cpython(key: list[int]) -> None:
    """CPython seeds MT19937 from an int with the same reference init_by_array;
    it is an independent implementation whenever the key's last word is non-zero."""
    if key[-1] == 0:
        key[-1] = 1
    ref = random.Random(sum(w << (32 * i) for i, w in enumerate(key)))
    assert list(ref.getstate()[1][:624]) == init_by_array(key)


@given(st.lists(st.integers(0, 2**32 - 1), min_size=136, max_size=136))
def test_shuffle_is_a_permutation(rnd: list[int]) -> None:
    assert sorted(shuffle_tiles(rnd, range(136))) == list(range(136))
    assert sorted(shuffle_tiles(rnd[:108], THREE_PLAYER_TILES)) == sorted(THREE_PLAYER_TILES)


# --------------------------------------------------------------- through the event model

_REPLACING = {"daiminkan", "kakan", "ankan", "kita"}


def _game_walls(game: Game) -> list[Wall]:
    """One wall per hand of a parsed ``Game``: the SHUFFLE generator, or INIT ``shuffle``."""
    meta = game.meta
    walls = iter_walls(meta.seed, meta.players) if meta.seed else None
    out = []
    for hand in game.hands:
        shuffle = dict(hand.extra).get("shuffle")
        if shuffle is not None:
            out.append(wall_from_init_shuffle(shuffle, meta.players))
        else:
            assert walls is not None
            out.append(next(walls))
    return out


def _sample_paths() -> list[Path]:
    phoenix = sorted((_CORPUS / "tenhou-xml" / "phoenix-2024").glob("*.xml.gz"))[::50]
    others = sorted((_CORPUS / "tenhou-xml" / "excerpts").glob("*00b9*.xml.gz"))
    others += [_CORPUS / "tenhou-xml" / "special" / n for n in ("bug7.xml.gz", "pao.xml.gz")]
    return [p for p in phoenix + others if p.exists()]


@pytest.mark.corpus
def test_parsed_games_agree_with_their_walls(corpus: Path) -> None:
    """The project parser's events (haipai, dice, dora, draws, kan dora, ura) vs the wall."""
    parser = pytest.importorskip("replay_audit.parsers.tenhou_xml")
    paths = _sample_paths()
    assert paths
    checked = 0
    for path in paths:
        game = parser.parse_tenhou_xml(gzip.decompress(path.read_bytes()), source=str(path))
        for hand, wall in zip(game.hands, _game_walls(game), strict=True):
            where = f"{path.name} {hand.label}"
            dealt = wall.haipai(hand.dealer)
            assert [sorted(h) for h in hand.haipai[: wall.players]] == [sorted(h) for h in dealt]
            assert (hand.dora_indicator, hand.dice) == (wall.dora_indicator(0), wall.dice), where
            live = rep = kans = 0
            pending = False
            for ev in hand.events:
                if isinstance(ev, Draw):
                    if pending:
                        assert ev.tile == wall.rinshan_tile(rep), where
                        rep += 1
                    else:
                        assert ev.tile == wall.live_tile(live), where
                        live += 1
                    pending = False
                    checked += 1
                elif isinstance(ev, Call):
                    pending = str(ev.meld.kind) in _REPLACING
                elif isinstance(ev, NewDora):
                    kans += 1
                    assert ev.indicator == wall.dora_indicator(kans), where
                elif isinstance(ev, RecordedWin):
                    assert list(ev.dora) == [wall.dora_indicator(k) for k in range(len(ev.dora))]
                    assert list(ev.ura) == [wall.ura_indicator(k) for k in range(len(ev.ura))]
    assert checked > 1000


# ------------------------------------------------------------- a damaged seed

WALL_SAMPLE = FIXTURES_DIR / "4p_wall_from_seed_all_last_draw.2024060112gm-00a9-0000-5eed0c07.xml"
CUT_SEED = FIXTURES_DIR / "damaged" / "seed_cut_short.2024060112gm-00a9-0000-5eed0c07.xml"


def test_the_forged_sample_follows_its_seed(tmp_path: Path) -> None:
    """The sample's 70 draws are the wall of its seed: one changed draw is a finding."""
    from replay_audit.auditing.auditor import audit_file

    assert [f["field"] for f in audit_file(WALL_SAMPLE).findings] == ["first_hand"]
    text = WALL_SAMPLE.read_text()
    first = text.index("<W") + 2  # the dealer's first draw
    end = text.index("/>", first)
    tile = int(text[first:end])
    other = next(t for t in range(136) if f"{t}/>" not in text and t != tile)
    changed = text[:first] + str(other) + text[end:]
    discard = changed.index("<G", first)
    changed = changed[: discard + 2] + str(other) + changed[changed.index("/>", discard) :]
    edited = tmp_path / WALL_SAMPLE.name
    edited.write_text(changed)
    fields = {f["field"] for f in audit_file(edited).findings}
    assert "wall" in fields


def test_a_seed_cut_short_is_one_finding_and_the_audit_goes_on() -> None:
    from replay_audit.auditing.auditor import audit_file

    fa = audit_file(CUT_SEED)
    problems = [f for f in fa.findings if f["category"] != "info"]
    (seed,) = problems
    assert (seed["category"], seed["field"], seed["hand"]) == ("replay", "seed", None)
    assert "3228 characters is 2421 bytes, 2496 expected" in seed["message"]
    assert fa.hands and all(row["status"] == "ok" for row in fa.hands)
    assert fa.hands[0]["comp_deltas"] == fa.hands[0]["rec_deltas"]


def test_a_hex_seed_cut_short_is_refused() -> None:
    hexed = FORMAT_HEX + "," + ",".join(f"{i:08X}" for i in range(31))
    with pytest.raises(ValueError, match="31 words"):
        iter_walls(hexed)
