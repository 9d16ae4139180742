"""The mjlog ``<N m=...>`` meld bit field, decoded into a ``Meld`` and back.

The layout (formats.md §3.4): bits 0-1 are the offset of the seat the called
tile came from (0 = self, 1 = shimocha, 2 = toimen, 3 = kamicha); the type is
read from the flags *in order* chi (0x04) -> pon (0x08) -> kakan (0x10) ->
kita (0x20) -> kan (none of them), because a kita code also has bits that a
careless kan test would read.  Offsets are relative, so the absolute seat is
``(who + offset) % 4`` (four-seat arithmetic also in three-player games).

The 2006 server wrote an ankan as ``(t << 8) | (t & 0xE0)``: the low byte
repeats bits 5-7 of the tile id (``_is_2006_ankan``).  Where bit 5 is set that
reads as a kita, so those codes are recognised first (bits 0-4 clear, bits 5-7
equal to the tile's): ankan 6p 14880 and 9m 8736 in
``SenaShibanuma/senasJanAI:sample_data/20061105gm-0001-0000-7a51288e``, 6p
14880 in ``...-7b22326f``; every ankan code of the four public 2006 logs has
this form.  No later code does: a kita is ``t << 8 | 0x20`` with t = 120-123,
whose bits 5-7 are 0x60, and none of the 56,861 codes of the shared corpus
decodes differently (``tests/test_meld_code.py``).

>>> decode_meld(54647, who=3)
Meld(kind=<MeldKind.CHI: 'chi'>, tiles=(86, 91, 94), called=94, from_seat=2, added=None)
>>> encode_meld(decode_meld(37969, who=2), who=2)
37969

Must not: judge whether a call is legal (the replayer does).
"""

from __future__ import annotations

from replay_audit.model.errors import InvalidValueError
from replay_audit.model.meld import Meld, MeldKind

_CHI = 0x04
_PON = 0x08
_KAKAN = 0x10
_KITA = 0x20
_NORTH = 30
_KITA_KINDS = frozenset((_NORTH,))
_GARI_KINDS = frozenset((0, 4, 8, _NORTH))
"""Toutenkou's gari: 1m, 5m, 9m and North can all be set aside (scoring-rules.md §15)."""


def decode_meld(m: int, who: int, *, gari: bool = False) -> Meld:
    """The meld a code ``m`` made by seat ``who`` stands for.

    ``tiles`` come out ascending; ``called`` is the tile taken from another
    seat (for a kakan: the tile of the original pon, and ``added`` the tile
    the kakan adds).  Raises ``InvalidValueError`` for a code no Tenhou log
    can hold (a chi run past 7, a kind past 33, a chi not from the left, a
    pon from oneself, a kita that is not a North).  With ``gari`` (a Toutenkou
    game) a kita code may also set aside a 1m, 5m or 9m; it stays a
    ``MeldKind.KITA`` of that tile.

    >>> decode_meld((16 << 8) | 0x20, who=1, gari=True).tiles
    (16,)
    """
    if not 0 <= who <= 3:
        raise InvalidValueError(f"meld by seat {who}: seats are 0-3")
    if not 0 <= m <= 0xFFFF:
        raise InvalidValueError(f"meld code {m} is not a 16-bit value")
    if not gari and _is_2006_ankan(m):
        return _decode_kan(m, who, 0)
    offset = m & 3
    if m & _CHI:
        return _decode_chi(m, who, offset)
    if m & (_PON | _KAKAN):
        return _decode_pon_or_kakan(m, who, offset)
    if m & _KITA:
        tile = m >> 8
        if tile >> 2 not in (_GARI_KINDS if gari else _KITA_KINDS) or offset:
            raise InvalidValueError(f"meld code {m}: kita of tile {tile} (offset {offset})")
        return Meld(MeldKind.KITA, (tile,))
    return _decode_kan(m, who, offset)


def _is_2006_ankan(m: int) -> bool:
    """An ankan as the 2006 server wrote it: no flag or offset bits (0-4), and
    bits 5-7 a copy of the tile id's (``(t << 8) | (t & 0xE0)``).  A modern ankan
    of a tile below 32 has this form too and means the same.  Not asked in
    Toutenkou games, whose 9m gari (``32 << 8 | 0x20``) has it as well.

    >>> _is_2006_ankan(14880), _is_2006_ankan(8736), _is_2006_ankan(31008)
    (True, True, False)
    """
    return m & 0x1F == 0 and m & 0xE0 == (m >> 8) & 0xE0


def _decode_kan(m: int, who: int, offset: int) -> Meld:
    tile = m >> 8
    k = tile >> 2
    if k > 33:
        raise InvalidValueError(f"meld code {m}: kan of tile id {tile} (ids are 0-135)")
    tiles = (4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3)
    if offset == 0:
        return Meld(MeldKind.ANKAN, tiles)
    return Meld(MeldKind.DAIMINKAN, tiles, called=tile, from_seat=(who + offset) % 4)


def _decode_chi(m: int, who: int, offset: int) -> Meld:
    t = m >> 10
    called_index = t % 3
    suit, start = divmod(t // 3, 7)
    if suit > 2:
        raise InvalidValueError(f"meld code {m}: chi base {t // 3} is past 7-8-9s")
    if offset != 3:
        raise InvalidValueError(f"meld code {m}: a chi can only come from the left (offset 3)")
    base = 9 * suit + start
    tiles = (
        4 * base + ((m >> 3) & 3),
        4 * (base + 1) + ((m >> 5) & 3),
        4 * (base + 2) + ((m >> 7) & 3),
    )
    return Meld(MeldKind.CHI, tiles, called=tiles[called_index], from_seat=(who + 3) % 4)


def _decode_pon_or_kakan(m: int, who: int, offset: int) -> Meld:
    t = m >> 9
    called_index = t % 3
    k = t // 3
    if k > 33:
        raise InvalidValueError(f"meld code {m}: pon of kind {k} (kinds are 0-33)")
    if offset == 0:
        raise InvalidValueError(f"meld code {m}: a pon cannot come from oneself (offset 0)")
    unused = (m >> 5) & 3
    pon = tuple(4 * k + c for c in range(4) if c != unused)
    called = pon[called_index]
    from_seat = (who + offset) % 4
    if m & _PON:
        return Meld(MeldKind.PON, pon, called=called, from_seat=from_seat)
    tiles = (4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3)
    return Meld(MeldKind.KAKAN, tiles, called=called, from_seat=from_seat, added=4 * k + unused)


def encode_meld(meld: Meld, who: int) -> int:
    """The code Tenhou writes for ``meld`` made by seat ``who`` (inverse of
    ``decode_meld``).  An ankan code names copy 0 of its kind: the field only
    identifies the kind, so that is the canonical choice."""
    if meld.kind is MeldKind.ANKAN:
        return (4 * (meld.tiles[0] >> 2)) << 8
    if meld.kind is MeldKind.KITA:
        return (meld.tiles[0] << 8) | _KITA
    if meld.from_seat is None or meld.called is None:
        raise InvalidValueError(f"{meld.kind} meld without a called tile or source seat")
    offset = (meld.from_seat - who) % 4
    if meld.kind is MeldKind.DAIMINKAN:
        return (meld.called << 8) | offset
    if meld.kind is MeldKind.CHI:
        tiles = sorted(meld.tiles)
        base = tiles[0] >> 2
        t = (base // 9 * 7 + base % 9) * 3 + tiles.index(meld.called)
        copies = (tiles[0] & 3) << 3 | (tiles[1] & 3) << 5 | (tiles[2] & 3) << 7
        return t << 10 | copies | _CHI | offset
    if meld.kind is MeldKind.PON:
        pon = sorted(meld.tiles)
        unused = 6 - sum(t & 3 for t in pon)
        flag = _PON
    else:  # kakan: the pon is the four tiles minus the added one
        if meld.added is None:
            raise InvalidValueError("kakan meld without its added tile")
        pon = sorted(t for t in meld.tiles if t != meld.added)
        unused = meld.added & 3
        flag = _KAKAN
    t = (pon[0] >> 2) * 3 + pon.index(meld.called)
    return t << 9 | unused << 5 | flag | offset
