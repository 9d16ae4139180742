"""The N-tag meld field: formats.md §3.4 worked examples, inverse, bad codes."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replay_audit.model.errors import InvalidValueError
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.parsers.meld_code import decode_meld, encode_meld


@pytest.mark.parametrize(
    ("m", "who", "expected"),
    [
        # chi 4s-5s-6s (ids 86, 91, 94), 6s called from kamicha (seat 2)
        (54647, 3, Meld(MeldKind.CHI, (86, 91, 94), called=94, from_seat=2)),
        # chi with the red 5s (id 88); 7s called; JSON "c375336"
        (57735, 1, Meld(MeldKind.CHI, (88, 92, 99), called=99, from_seat=0)),
        # pon of 7s from shimocha (offset 1 -> seat 3), called id 99
        (37961, 2, Meld(MeldKind.PON, (96, 97, 99), called=99, from_seat=3)),
        # the kakan of that pon: added copy 2 (id 98), pon's called tile and source kept
        (
            37969,
            2,
            Meld(MeldKind.KAKAN, (96, 97, 98, 99), called=99, from_seat=3, added=98),
        ),
        # ankan of 7p (kind 15)
        (15360, 3, Meld(MeldKind.ANKAN, (60, 61, 62, 63))),
        # kita: North id 121
        (31008, 0, Meld(MeldKind.KITA, (121,))),
    ],
)
def test_worked_examples(m: int, who: int, expected: Meld) -> None:
    assert decode_meld(m, who) == expected
    assert encode_meld(expected, who) == m


def test_kakan_is_pon_xor_0x18() -> None:
    pon = decode_meld(37961, 2)
    kakan = decode_meld(37961 ^ 0x18, 2)
    assert kakan.kind is MeldKind.KAKAN
    assert (kakan.called, kakan.from_seat) == (pon.called, pon.from_seat)
    assert set(pon.tiles) | {kakan.added} == set(kakan.tiles)


def test_daiminkan_from_toimen() -> None:
    meld = decode_meld((70 << 8) | 2, who=1)
    assert meld == Meld(MeldKind.DAIMINKAN, (68, 69, 70, 71), called=70, from_seat=3)
    assert meld.opened and meld.is_kan


def test_kita_does_not_open_the_hand() -> None:
    assert not decode_meld(31520, 2).opened


@pytest.mark.parametrize(
    ("m", "who", "why"),
    [
        ((63 << 10) | 0x04 | 3, 0, "chi base past 7-8-9s"),
        ((1 << 10) | 0x04 | 1, 0, "chi not from the left"),
        ((110 << 9) | 0x08 | 1, 0, "pon of kind 36"),
        ((10 << 9) | 0x08, 0, "pon from oneself"),
        ((136 << 8), 0, "kan of tile id 136"),
        ((72 << 8) | 0x20, 0, "kita of a 1s"),
        ((60 << 8) | 0x60, 0, "junk bits that are not the tile's"),
        (37961, 4, "seat 4"),
        (-1, 0, "negative code"),
        (1 << 16, 0, "more than 16 bits"),
    ],
)
def test_impossible_codes_raise(m: int, who: int, why: str) -> None:
    with pytest.raises(InvalidValueError):
        decode_meld(m, who)


@st.composite
def melds(draw: st.DrawFn) -> tuple[Meld, int]:
    who = draw(st.integers(0, 3))
    kind = draw(st.sampled_from(list(MeldKind)))
    if kind is MeldKind.CHI:
        suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
        base = 9 * suit + start
        tiles = tuple(4 * (base + i) + draw(st.integers(0, 3)) for i in range(3))
        called = draw(st.sampled_from(tiles))
        return Meld(kind, tiles, called=called, from_seat=(who + 3) % 4), who
    if kind is MeldKind.KITA:
        return Meld(kind, (draw(st.integers(120, 123)),)), who
    k = draw(st.integers(0, 33))
    four = (4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3)
    if kind is MeldKind.ANKAN:
        return Meld(kind, four), who
    from_seat = (who + draw(st.integers(1, 3))) % 4
    if kind is MeldKind.DAIMINKAN:
        return Meld(kind, four, called=draw(st.sampled_from(four)), from_seat=from_seat), who
    unused = draw(st.integers(0, 3))
    pon = tuple(t for t in four if t & 3 != unused)
    called = draw(st.sampled_from(pon))
    if kind is MeldKind.PON:
        return Meld(kind, pon, called=called, from_seat=from_seat), who
    return Meld(kind, four, called=called, from_seat=from_seat, added=4 * k + unused), who


@given(melds())
def test_round_trip_every_valid_meld(case: tuple[Meld, int]) -> None:
    meld, who = case
    code = encode_meld(meld, who)
    assert 0 <= code <= 0xFFFF
    assert decode_meld(code, who) == meld


@given(st.integers(0, 0xFFFF), st.integers(0, 3))
def test_every_code_decodes_or_raises_cleanly(m: int, who: int) -> None:
    try:
        meld = decode_meld(m, who)
    except InvalidValueError:
        return
    assert list(meld.tiles) == sorted(meld.tiles)
    assert all(0 <= t < 136 for t in meld.tiles)
    # decoding the canonical code gives the same meld back
    assert decode_meld(encode_meld(meld, who), who) == meld


# ------------------------------------------------------- 2006: junk in the ankan code


@pytest.mark.parametrize(
    ("m", "kind"),
    [
        # ankan 6p (tile 58) in senasJanAI 20061105gm-...-7a51288e E3 and -7b22326f E4
        (14880, 14),
        # ankan 9m (tile 34) in 20061105gm-...-7a51288e E3
        (8736, 8),
        # ankan 6s (tile 94) in the era2006 case, E1: low byte 0x40, no flag bit
        (24128, 23),
        # a North ankan written the 2006 way reads 0x60: an ankan, not a kita of North
        ((121 << 8) | 0x60, 30),
    ],
)
def test_2006_ankan_codes_with_the_tile_bits_repeated(m: int, kind: int) -> None:
    meld = decode_meld(m, who=2)
    assert meld == Meld(MeldKind.ANKAN, tuple(4 * kind + c for c in range(4)))
    assert decode_meld(encode_meld(meld, 2), 2) == meld


def test_kita_and_gari_codes_are_not_read_as_2006_ankans() -> None:
    assert decode_meld((121 << 8) | 0x20, who=0).kind is MeldKind.KITA
    # Toutenkou sets a 9m aside as 32 << 8 | 0x20: the 2006 form, but a gari there
    assert decode_meld((33 << 8) | 0x20, who=0, gari=True) == Meld(MeldKind.KITA, (33,))
    # outside Toutenkou the same code is the 2006 ankan of 9m
    assert decode_meld((33 << 8) | 0x20, who=0).kind is MeldKind.ANKAN


_N_CODE = re.compile(rb'<N who="\d" m="(\d+)"')


@pytest.mark.corpus
def test_no_corpus_code_reads_differently_with_the_2006_ankan_form(corpus: Path) -> None:
    """The 2006 form is tested before the kita flag; on the whole corpus it only
    ever meets ordinary ankan codes (tiles below 32, bits 5-7 clear), which the
    modern layout reads the same way: no code changes meaning."""
    codes: set[int] = set()
    for path in sorted(corpus.rglob("*.xml.gz")):
        codes.update(int(m) for m in _N_CODE.findall(gzip.decompress(path.read_bytes())))
    assert len(codes) > 1000
    hits = [m for m in codes if m & 0x1F == 0 and m & 0xE0 == (m >> 8) & 0xE0]
    assert hits and all(m & 0xE0 == 0 for m in hits)
    assert all(decode_meld(m, 0).kind is MeldKind.ANKAN for m in hits)
