"""Tenhou's wall, rebuilt from the game's seed.

Tenhou writes the seed of its random generator into every log, so the whole
wall of every hand (deal, draws, replacement tiles, dora and ura indicators,
dice) can be recomputed from it.  That gives the replayer an account of the
tiles that owes nothing to the tags it checks: a log whose draws disagree with
its own seed is corrupt or hand-edited, and ura indicators of hands that no
riichi winner revealed become known.

Three seed forms are reproduced (``formats.md`` §3.3, §3.9):

* ``mt19937ar-sha512-n288-base64,<2496 bytes>`` (SHUFFLE, 2010 on): 624
  little-endian words seed one MT19937 (``init_by_array``) for the whole game;
  each hand draws 288 words, hashes them as nine 128-byte chunks with SHA-512
  and shuffles with the resulting 144 words.
* ``mt19937ar-sha512-n288,<32 hex words>`` (SHUFFLE, late 2009): the same,
  with the hex words as the ``init_by_array`` key.
* ``mt19937ar,<hex words>`` (INIT ``shuffle``, mid-2009): one generator per
  hand, seeded with those words; its raw outputs shuffle directly (no hash).

The shuffle is Fisher-Yates (swap ``i`` with ``i + rnd[i] % (n - i)``) over the
ids 0-135 (three-player: 0-3 and 32-135), read backwards, so ``tiles[0]`` is
the first tile dealt.  Positions in that draw order (checked against every
phoenix-2024 log, see ``tests/test_wall.py``)::

    0 .. 13p-1         the deal: blocks of four to dealer, dealer+1, ...,
                       three rounds, then one tile each
    13p ..             live draws, in order
    n-R-2-2k  (+1)     dora indicator k (its ura); k = 0 is the first
    n-2, n-1, n-4, ... replacement draws after a kan (three-player: or kita)

with ``p`` players, ``n`` tiles and ``R`` replacement tiles (4, or 8 in
three-player: the named dead-wall positions are 14 or 18 tiles; the live wall
ends 14 tiles before the end in both, less one per replacement draw).  Logs of 2009 (both hex
forms) read each dead-wall stack the other way up: their dora indicator is
``n-R-1`` and ura ``n-R-2``, the first replacement ``n-1``; see
``Wall.flipped``.

>>> wall = walls_from_seed(_EXAMPLE_SEED, hands=1)[0]
>>> wall.dice, wall.dora_indicator(0)
((2, 5), 57)
>>> sorted(wall.haipai(dealer=0)[0])
[1, 2, 29, 30, 32, 45, 48, 53, 91, 102, 110, 123, 126]
>>> [wall.live_tile(i) for i in range(4)]
[134, 96, 17, 89]
"""

from __future__ import annotations

import base64
import hashlib
import random
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "FORMAT_BASE64",
    "FORMAT_HEX",
    "FORMAT_INIT",
    "FOUR_PLAYER_TILES",
    "THREE_PLAYER_TILES",
    "Wall",
    "init_by_array",
    "iter_walls",
    "seed_format",
    "shuffle_tiles",
    "wall_from_init_shuffle",
    "walls_from_seed",
]

FORMAT_BASE64: Final = "mt19937ar-sha512-n288-base64"
"""SHUFFLE seeds from 2010 on."""
FORMAT_HEX: Final = "mt19937ar-sha512-n288"
"""SHUFFLE seeds of late 2009 (hex words instead of base64)."""
FORMAT_INIT: Final = "mt19937ar"
"""The per-hand INIT ``shuffle`` attribute of mid-2009 logs."""

_MT_N: Final = 624
_HAND_WORDS: Final = 288
"""MT outputs consumed per hand by the SHA-512 forms."""
_CHUNK_BYTES: Final = 128
_RND_WORDS: Final = 144
"""Words of shuffle randomness per hand (9 SHA-512 digests of 16 words)."""

LIVE_HELD_BACK: Final = 14
"""Tiles the live wall stops short of the end before any replacement draw."""
FOUR_PLAYER_TILES: Final = tuple(range(136))
THREE_PLAYER_TILES: Final = (0, 1, 2, 3, *range(32, 136))
"""Sanma drops 2m-8m (ids 4-31)."""


# ------------------------------------------------------------------------ the wall


@dataclass(frozen=True, slots=True)
class Wall:
    """The tiles of one hand in the order they leave the wall, plus the dice.

    Positions are computed, never stored, so a ``Wall`` is just the shuffled
    ids; ``players`` follows from their number (136 or 108).
    """

    tiles: tuple[int, ...]
    """All tile ids in draw order: the deal first, the dead wall at the end."""
    dice: tuple[int, int]
    """The two dice, 1-6 each (INIT ``seed`` holds them minus one)."""
    flipped: bool = False
    """2009 logs read each dead-wall stack bottom first: dora and ura trade
    places, and so do the two tiles of each replacement pair."""

    @property
    def players(self) -> int:
        return 3 if len(self.tiles) == len(THREE_PLAYER_TILES) else 4

    @property
    def replacement_count(self) -> int:
        """Replacement (rinshan) tiles: 4, or 8 in three-player where kita draws too."""
        return 8 if self.players == 3 else 4

    @property
    def dead_wall_size(self) -> int:
        """Named dead-wall positions, 14 (18 in three-player): the replacements
        and five dora stacks (``live_count`` says how they meet the live wall)."""
        return self.replacement_count + 10

    @property
    def deal_size(self) -> int:
        return 13 * self.players

    def haipai(self, dealer: int) -> tuple[tuple[int, ...], ...]:
        """The 13 starting tiles of each seat, in the order dealt.

        ``dealer`` is the INIT ``oya`` seat: the deal starts with the dealer and
        goes round the table, four tiles at a time for three rounds, then one
        each.  One tuple per seat (three in three-player).
        """
        p = self.players
        if not 0 <= dealer < p:
            raise ValueError(f"dealer {dealer} is not a seat of a {p}-player game")
        hands: list[list[int]] = [[] for _ in range(p)]
        blocks = 12 * p
        for i in range(blocks):
            hands[(i // 4 + dealer) % p].append(self.tiles[i])
        for i in range(p):
            hands[(i + dealer) % p].append(self.tiles[blocks + i])
        return tuple(tuple(h) for h in hands)

    def _dead(self, position: int) -> int:
        """A dead-wall tile; 2009 walls read each two-tile stack the other way up."""
        return self.tiles[position ^ 1 if self.flipped else position]

    def dora_indicator(self, k: int = 0) -> int:
        """Dora indicator ``k``: 0 is the INIT one, 1-4 the kan dora in order."""
        _check_range("dora indicator", k, 5)
        return self._dead(len(self.tiles) - self.replacement_count - 2 - 2 * k)

    def ura_indicator(self, k: int = 0) -> int:
        """The ura indicator under dora indicator ``k``."""
        _check_range("ura indicator", k, 5)
        return self._dead(len(self.tiles) - self.replacement_count - 1 - 2 * k)

    def rinshan_tile(self, n: int) -> int:
        """The ``n``-th replacement draw (0-based) after a kan or, in three-player, a kita.

        Replacements come from the far end in pairs: top of the last stack,
        then its bottom, then the stack before it.
        """
        _check_range("replacement draw", n, self.replacement_count)
        end = len(self.tiles)
        return self._dead(end - 2 - 2 * (n // 2) + n % 2)

    def live_tile(self, n: int) -> int:
        """The ``n``-th live draw (0-based) after the deal, whoever draws it."""
        _check_range("live draw", n, self.live_count(0))
        return self.tiles[self.deal_size + n]

    def live_count(self, replacements: int = 0) -> int:
        """How many live draws the hand has after ``replacements`` replacement draws.

        Tenhou keeps 14 tiles back from the live wall in both games, and each
        replacement draw moves the end of the live wall one tile closer: 70 -
        kans in four-player, 55 - kans - kitas in three-player (a real sanma
        hand with three kita drew 52 live tiles before its exhaustive draw).
        In three-player the named dead-wall positions (``dead_wall_size``, 18)
        reach four tiles into that live wall: kan dora 3 and 4 (and their ura)
        sit there, and are only shown after 3 or 4 kans, by which time the
        live wall ends before them.
        """
        _check_range("replacement count", replacements, self.replacement_count + 1)
        return len(self.tiles) - LIVE_HELD_BACK - self.deal_size - replacements

    def position_of(self, tile: int) -> int:
        """Where a tile id sits in draw order (for diagnostics)."""
        return self.tiles.index(tile)


def _check_range(what: str, value: int, limit: int) -> None:
    if not 0 <= value < limit:
        raise IndexError(f"{what} {value} out of range 0..{limit - 1}")


# ------------------------------------------------------------------------ seeds


def seed_format(seed: str) -> str:
    """The generator name before the first comma (``mt19937ar-sha512-n288-base64`` ...)."""
    return seed.split(",", 1)[0].strip()


def walls_from_seed(seed: str, players: int = 4, *, hands: int) -> list[Wall]:
    """The walls of the first ``hands`` hands of a game, from its SHUFFLE seed.

    Raises ``ValueError`` for seeds this module cannot reproduce: the INIT
    ``shuffle`` form (use ``wall_from_init_shuffle`` per hand), seeds of other
    generators (simulators write floats) and malformed keys.

    >>> walls_from_seed("mt19937ar,1A2B", hands=1)
    Traceback (most recent call last):
    ...
    ValueError: per-hand INIT shuffle seed: use wall_from_init_shuffle
    """
    if hands < 0:
        raise ValueError(f"hands must be >= 0, not {hands}")
    walls = iter_walls(seed, players)
    return [next(walls) for _ in range(hands)]


def iter_walls(seed: str, players: int = 4) -> Iterator[Wall]:
    """The walls of a game, hand after hand, without end (stop after the last hand).

    The key is checked before the first wall is asked for, so a bad seed
    raises ``ValueError`` here, not on ``next``.
    """
    tiles = _tile_set(players)
    form = seed_format(seed)
    if form == FORMAT_BASE64:
        key = _base64_key(seed)
        flipped = False
    elif form == FORMAT_HEX:
        key = _hex_key(seed)
        words = seed.split(",")[1:]
        if len(key) != _HEX_WORDS or any(len(w.strip()) != 8 for w in words):
            raise ValueError(
                f"hex wall seed of {len(key)} words ({_HEX_WORDS} of 8 hex digits expected)"
            )
        flipped = True
    elif form == FORMAT_INIT:
        raise ValueError("per-hand INIT shuffle seed: use wall_from_init_shuffle")
    else:
        raise ValueError(f"unknown wall seed format {form[:40]!r}")
    return _walls(_mt_from_key(key), tiles, flipped)


def _walls(mt: random.Random, tiles: tuple[int, ...], flipped: bool) -> Iterator[Wall]:
    while True:
        yield _wall(_hashed_words(mt), tiles, flipped, dice_at=135)


def wall_from_init_shuffle(shuffle: str, players: int = 4) -> Wall:
    """The wall of one hand from a mid-2009 INIT ``shuffle="mt19937ar,<hex>"``.

    Each hand has its own generator; its raw outputs drive the shuffle and the
    dice are the two words after the last swap (``rnd[n-1]``, ``rnd[n]``).
    The three-player dice were seen in one hand only.
    """
    tiles = _tile_set(players)
    if seed_format(shuffle) != FORMAT_INIT:
        raise ValueError(f"not an INIT shuffle seed: {seed_format(shuffle)[:40]!r}")
    mt = _mt_from_key(_hex_key(shuffle))
    words = _words(mt.getrandbits(32 * (len(tiles) + 1)), len(tiles) + 1)
    return _wall(words, tiles, flipped=True, dice_at=len(tiles) - 1)


def shuffle_tiles(rnd: Sequence[int], tiles: Sequence[int]) -> tuple[int, ...]:
    """Tenhou's Fisher-Yates pass, then reversed into draw order.

    >>> shuffle_tiles([1, 0, 0], [10, 11, 12])
    (12, 10, 11)
    """
    wall = list(tiles)
    n = len(wall)
    for i in range(n):
        j = i + rnd[i] % (n - i)
        wall[i], wall[j] = wall[j], wall[i]
    wall.reverse()
    return tuple(wall)


def _wall(rnd: Sequence[int], tiles: tuple[int, ...], flipped: bool, dice_at: int) -> Wall:
    dice = (rnd[dice_at] % 6 + 1, rnd[dice_at + 1] % 6 + 1)
    return Wall(shuffle_tiles(rnd, tiles), dice, flipped)


def _tile_set(players: int) -> tuple[int, ...]:
    if players == 4:
        return FOUR_PLAYER_TILES
    if players == 3:
        return THREE_PLAYER_TILES
    raise ValueError(f"players must be 3 or 4, not {players}")


_HEX_WORDS: Final = 32
"""Words of a SHUFFLE hex key (every late-2009 log in the corpus has 32, of 8 digits)."""
_BASE64_CHARS: Final = 4 * _MT_N * 4 // 3
"""Characters of a whole base64 key (2496 bytes)."""


def _base64_key(seed: str) -> list[int]:
    text = seed.split(",", 1)[1] if "," in seed else ""
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError as exc:
        raise ValueError(
            f"base64 wall seed of {len(text)} characters ({_BASE64_CHARS} expected)"
            f" cannot be decoded: {exc}"
        ) from exc
    if len(raw) != 4 * _MT_N:
        raise ValueError(
            f"base64 wall seed of {len(text)} characters is {len(raw)} bytes, {4 * _MT_N} expected"
        )
    return list(struct.unpack(f"<{_MT_N}I", raw))


def _hex_key(seed: str) -> list[int]:
    parts = seed.split(",")[1:]
    try:
        key = [int(p, 16) for p in parts]
    except ValueError as exc:
        raise ValueError(f"bad hex word in wall seed: {exc}") from exc
    if not key or any(not 0 <= w <= 0xFFFFFFFF for w in key):
        raise ValueError("a hex wall seed needs one or more 32-bit words")
    return key


# ------------------------------------------------------------------------ MT19937


def init_by_array(key: Sequence[int]) -> list[int]:
    """MT19937's reference ``init_by_array``: the 624-word state for a key.

    Written out because Tenhou keys may end in zero words, which Python's own
    integer seeding would drop (it sizes the key by the integer's bit length).
    """
    if not key:
        raise ValueError("init_by_array needs a non-empty key")
    mt = [0] * _MT_N
    mt[0] = 19650218
    for i in range(1, _MT_N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    i, j, n = 1, 0, len(key)
    for _ in range(max(_MT_N, n)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= _MT_N:
            mt[0] = mt[_MT_N - 1]
            i = 1
        if j >= n:
            j = 0
    for _ in range(_MT_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= _MT_N:
            mt[0] = mt[_MT_N - 1]
            i = 1
    mt[0] = 0x80000000
    return mt


def _mt_from_key(key: Sequence[int]) -> random.Random:
    """A ``random.Random`` (C MT19937) in the state ``init_by_array(key)`` leaves.

    Its ``getrandbits(32)`` is then the reference ``genrand_int32``; the state
    is set directly, so the generation itself runs in C.
    """
    mt = random.Random()
    if key and key[-1] != 0:
        # CPython's integer seeding is init_by_array over the integer's 32-bit
        # words, low word first; it matches the reference exactly when the top
        # word is non-zero, and runs in C (about 100x faster than the loop).
        mt.seed(int.from_bytes(struct.pack(f"<{len(key)}I", *key), "little"))
    else:
        mt.setstate((3, (*init_by_array(key), _MT_N), None))
    return mt


def _words(bits: int, count: int) -> tuple[int, ...]:
    """Split ``getrandbits(32 * count)`` back into its words, first drawn first.

    CPython fills wide ``getrandbits`` results from the least significant word
    up, so the little-endian bytes are the outputs in draw order.
    """
    return struct.unpack(f"<{count}I", bits.to_bytes(4 * count, "little"))


def _hashed_words(mt: random.Random) -> tuple[int, ...]:
    """One hand's 144 shuffle words: 288 MT outputs through SHA-512, 128 bytes at a time."""
    src = mt.getrandbits(32 * _HAND_WORDS).to_bytes(4 * _HAND_WORDS, "little")
    digest = b"".join(
        hashlib.sha512(src[i : i + _CHUNK_BYTES]).digest() for i in range(0, len(src), _CHUNK_BYTES)
    )
    return struct.unpack(f"<{_RND_WORDS}I", digest)


_EXAMPLE_SEED: Final = (
    "mt19937ar-sha512-n288-base64," + base64.b64encode(struct.pack("<624I", *range(624))).decode()
)
"""A synthetic seed (key words 0..623) for the doctests; real logs are in the tests."""
