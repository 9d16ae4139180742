"""The INIT deal check: one pass over the 53 dealt tiles (``_valid_deal``) with a
seat-by-seat fallback (``_HandState._deal_error``) that names the first problem.

The fast path is a speed change only, so the two must agree on every deal: the
fast path accepts exactly the deals the seat-by-seat checks accept, and a
refused deal still raises the message the per-seat checks give.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.errors import InvalidValueError
from replay_audit.parsers.tenhou_xml import _VALID_IDS, _valid_deal, parse_tenhou_xml

HEAD = '<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/>'
HEAD_3P = '<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="A" n1="B" n2="C" n3=""/>'
END = '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" owari="250,0,250,0,250,0,250,0"/>'
GOOD = [",".join(map(str, range(13 * s, 13 * s + 13))) for s in range(4)]


def _doc(hai: list[str], dora: int = 60, head: str = HEAD) -> bytes:
    attrs = " ".join(f'hai{s}="{v}"' for s, v in enumerate(hai) if v is not None)
    init = f'<INIT seed="0,0,0,2,4,{dora}" ten="250,250,250,250" oya="0" {attrs}/>'
    return (head + init + END + "</mjloggm>").encode()


def _message(data: bytes) -> str | None:
    try:
        parse_tenhou_xml(data, "x.xml")
    except InvalidValueError as exc:
        return exc.message
    return None


def test_a_good_deal_parses() -> None:
    hand = parse_tenhou_xml(_doc(GOOD), "x.xml").hands[0]
    assert hand.haipai[3] == tuple(range(39, 52))
    assert hand.dora_indicator == 60


@pytest.mark.parametrize(
    ("seat", "value", "dora", "message"),
    [
        (1, "13,14,15", 60, "hai1 has 3 tiles, not 13"),
        (2, "26,27,28,29,30,31,32,33,34,35,36,37,136", 60, "hai2: tile id 136 does not exist"),
        (0, "0,0,2,3,4,5,6,7,8,9,10,11,12", 60, "hai0: the same tile id twice"),
        (3, "0,40,41,42,43,44,45,46,47,48,49,50,51", 60, "the deal holds the same tile id twice"),
        (0, GOOD[0], 5, "the deal holds the same tile id twice"),
        (0, GOOD[0], 140, "seed dora: tile id 140 does not exist"),
        (1, "13,x,15", 60, "<INIT>: bad value"),
        (3, "", 60, "hai3 has 0 tiles, not 13"),
    ],
)
def test_a_bad_deal_names_its_first_problem(seat: int, value: str, dora: int, message: str) -> None:
    hai = list(GOOD)
    hai[seat] = value
    got = _message(_doc(hai, dora))
    assert got is not None and got.startswith(message), got


def test_the_first_seat_at_fault_is_named() -> None:
    hai = list(GOOD)
    hai[1] = "13,14"  # too short ...
    hai[2] = "26,27,28,29,30,31,32,33,34,35,36,37,999"  # ... and later a bad id
    assert _message(_doc(hai)) == "hai1 has 2 tiles, not 13"


def test_three_player_deal() -> None:
    hai = ["0,1,2,3,32,33,34,35,36,37,38,39,40", "41,42,43,44,45,46,47,48,49,50,51,52,53"]
    hai += ["54,55,56,57,58,59,60,61,62,63,64,65,66", ""]
    assert parse_tenhou_xml(_doc(hai, 70, HEAD_3P), "x.xml").hands[0].haipai[3] == ()
    hai[3] = "67"
    assert _message(_doc(hai, 70, HEAD_3P)) == "hai3 has 1 tiles, not 0"
    hai[3] = ""
    hai[0] = "0,1,2,4,32,33,34,35,36,37,38,39,40"  # id 4 is a 2m: not in sanma
    assert _message(_doc(hai, 70, HEAD_3P)).startswith("hai0: tile id 4 does not exist")


@st.composite
def _deals(draw: st.DrawFn) -> tuple[list[list[int]], int, int]:
    """A right deal (random tiles of the game's set), then maybe one fault:
    a tile dropped or added, an id repeated (within a seat, across seats or as
    the dora) or an id that does not exist."""
    players = draw(st.sampled_from([3, 4]))
    ids = sorted(_VALID_IDS[players])
    tiles = draw(st.permutations(ids))
    hands = [list(tiles[13 * s : 13 * s + 13]) if s < players else [] for s in range(4)]
    dora = tiles[13 * players]
    fault = draw(st.sampled_from(["none", "drop", "add", "repeat", "bad_id", "bad_dora"]))
    seat = draw(st.integers(0, 3))
    if fault == "drop" and hands[seat]:
        hands[seat].pop()
    elif fault == "add":
        hands[seat].append(tiles[-1])
    elif fault == "repeat":
        source = draw(st.sampled_from([t for h in hands for t in h] + [dora]))
        if hands[seat]:
            hands[seat][draw(st.integers(0, len(hands[seat]) - 1))] = source
    elif fault == "bad_id" and hands[seat]:
        hands[seat][0] = draw(st.sampled_from([-1, 136, 137, *sorted(set(range(136)) - set(ids))]))
    elif fault == "bad_dora":
        dora = draw(st.sampled_from([-1, 136, *sorted(set(range(136)) - set(ids))]))
    return hands, dora, players


@settings(max_examples=400, deadline=None)
@given(_deals())
def test_fast_path_accepts_exactly_what_the_seat_checks_accept(
    deal: tuple[list[list[int]], int, int],
) -> None:
    hands, dora, players = deal
    raw = [",".join(map(str, h)) for h in hands]
    valid = _VALID_IDS[players]
    fast = _valid_deal(tuple(raw), dora, players, valid)
    dealt = [t for h in hands for t in h] + [dora]
    per_seat_ok = (
        all(len(h) == (13 if s < players else 0) for s, h in enumerate(hands))
        and valid.issuperset(dealt)
        and len(set(dealt)) == len(dealt)
    )
    assert (fast is not None) == per_seat_ok
    if fast is not None:
        assert fast == tuple(tuple(h) for h in hands)
    head = HEAD_3P if players == 3 else HEAD
    assert (_message(_doc(raw, dora, head)) is None) == per_seat_ok
