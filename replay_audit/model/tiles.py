"""Tiles: the 136 Tenhou tile ids, the 34 kinds, red fives and the notations.

A tile is a plain ``int`` (0-135), ``kind = tile // 4`` (0-33): 0-8 are 1m-9m,
9-17 1p-9p, 18-26 1s-9s, 27-33 East South West North Haku Hatsu Chun.  Plain
ints keep the replay loop fast; this module is the one place that knows what
they mean.

Red fives are copy 0 of each five (ids 16, 52, 88) and are red only when the
game plays with aka; every function that can print a red five takes ``aka``.

>>> parse_tiles("506m")
[17, 16, 20]
>>> to_notation([16, 17, 20, 108])
'056m1z'
>>> to_tenhou6(16), to_tenhou6(16, aka=False), from_tenhou6(53)
(51, 15, 88)

Must not: know about games, hands or rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

Tile = int
Kind = int

NUM_TILES: Final = 136
NUM_KINDS: Final = 34
RED_FIVES: Final = frozenset({16, 52, 88})
"""Copy 0 of 5m, 5p and 5s: red when the game has aka."""

SUITS: Final = "mpsz"
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (HAKU, HATSU, CHUN)
TERMINALS: Final = frozenset({0, 8, 9, 17, 18, 26})
HONORS: Final = frozenset(range(27, 34))
TERMINALS_AND_HONORS: Final = TERMINALS | HONORS
TERMINALS_AND_HONORS_MASK: Final = sum(1 << k for k in TERMINALS_AND_HONORS)
"""The same kinds as bits (bit k for kind k): the replay's nagashi, kyuushu and wait checks."""
SANMA_MISSING_KINDS: Final = frozenset(range(1, 8))
"""2m-8m: absent from the three-player tile set."""

WIND_NAMES: Final = "ESWN"
KIND_NAMES: Final = tuple(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"]
)
"""Short names: ``1m`` ... ``9s``, ``E S W N`` winds, ``P F C`` = Haku Hatsu Chun."""


def kind(tile: Tile) -> Kind:
    """The kind (0-33) of a tile id."""
    return tile >> 2


def is_red(tile: Tile, aka: bool = True) -> bool:
    """True for ids 16/52/88 in a game that plays with red fives."""
    return aka and tile in RED_FIVES


def is_valid_tile(tile: int, players: int = 4) -> bool:
    """A tile id that can exist in a game of that many players."""
    if not 0 <= tile < NUM_TILES:
        return False
    return players != 3 or kind(tile) not in SANMA_MISSING_KINDS


def is_terminal_or_honor(k: Kind) -> bool:
    return k in TERMINALS_AND_HONORS


def suit_of(k: Kind) -> int:
    """0 man, 1 pin, 2 sou, 3 honors."""
    return k // 9 if k < 27 else 3


def dora_of(indicator_kind: Kind, players: int = 4) -> Kind:
    """The dora kind an indicator kind points at (9 -> 1 within a suit, winds and
    dragons cycle; in three-player 1m -> 9m and 9m -> 1m because 2m-8m are gone)."""
    if indicator_kind >= 31:
        return 31 + (indicator_kind - 31 + 1) % 3
    if indicator_kind >= 27:
        return 27 + (indicator_kind - 27 + 1) % 4
    if players == 3 and indicator_kind in (0, 8):
        return 8 if indicator_kind == 0 else 0
    base = indicator_kind - indicator_kind % 9
    return base + (indicator_kind % 9 + 1) % 9


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """Histogram of kinds (34 entries)."""
    out = [0] * NUM_KINDS
    for t in tiles:
        out[t >> 2] += 1
    return out


def kind_name(k: Kind) -> str:
    return KIND_NAMES[k]


def parse_tiles(text: str) -> list[Tile]:
    """Parse ``123m0p44z`` notation into tile ids.

    ``0`` is a red five (copy 0).  Plain tiles take the lowest free copy, and
    plain fives start at copy 1 so a later ``0`` still finds its copy free.
    Raises ``ValueError`` for a fifth copy or bad text.
    """
    used: set[int] = set()
    out: list[Tile] = []
    digits: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(ch)
            continue
        if ch not in SUITS:
            raise ValueError(f"bad tile notation {text!r}: unexpected {ch!r}")
        if not digits:
            raise ValueError(f"bad tile notation {text!r}: suit {ch!r} without numbers")
        for d in digits:
            out.append(_take_copy(_kind_from(int(d), ch, text), d == "0", used, text))
        digits = []
    if digits:
        raise ValueError(f"bad tile notation {text!r}: numbers without a suit")
    return out


def _kind_from(n: int, suit: str, text: str) -> Kind:
    if suit == "z":
        if not 1 <= n <= 7:
            raise ValueError(f"bad honor {n}z in {text!r}")
        return 26 + n
    return SUITS.index(suit) * 9 + (5 if n == 0 else n) - 1


def _take_copy(k: Kind, red: bool, used: set[int], text: str) -> Tile:
    if red:
        if k % 9 != 4 or k >= 27:
            raise ValueError(f"0 is only a red five, in {text!r}")
        order: tuple[int, ...] = (0,)
    elif k < 27 and k % 9 == 4:
        order = (1, 2, 3, 0)
    else:
        order = (0, 1, 2, 3)
    for c in order:
        t = 4 * k + c
        if t not in used:
            used.add(t)
            return t
    raise ValueError(f"more than four {KIND_NAMES[k]} in {text!r}")


def to_notation(tiles: Iterable[Tile], aka: bool = True) -> str:
    """Sorted ``123m456p`` notation, red fives as ``0``."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for t in sorted(tiles, key=lambda t: (kind(t), not is_red(t, aka), t)):
        k = kind(t)
        s = SUITS[suit_of(k)]
        n = k - 27 + 1 if k >= 27 else k % 9 + 1
        groups[s].append("0" if is_red(t, aka) else str(n))
    return "".join("".join(v) + s for s, v in groups.items() if v)


def to_tenhou6(tile: Tile, aka: bool = True) -> int:
    """tenhou.net/6 code: 11-19 man, 21-29 pin, 31-39 sou, 41-47 honors, 51-53 red."""
    if is_red(tile, aka):
        return 51 + tile // 36
    k = kind(tile)
    return 10 * (k // 9 + 1) + k % 9 + 1


def tenhou6_kind(code: int) -> tuple[Kind, bool]:
    """Kind and redness of a tenhou.net/6 code; ``ValueError`` for anything else."""
    if code in (51, 52, 53):
        return (code - 51) * 9 + 4, True
    suit, n = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= n <= 9:
        return (suit - 1) * 9 + n - 1, False
    if suit == 4 and 1 <= n <= 7:
        return 26 + n, False
    raise ValueError(f"not a tenhou.net/6 tile code: {code}")


def from_tenhou6(code: int) -> Tile:
    """A representative tile id for a code: copy 0 for red fives, else copy 0 (copy 1
    for plain fives).  Parsers that need distinct copies assign them themselves."""
    k, red = tenhou6_kind(code)
    if red:
        return 4 * k
    return 4 * k + (1 if k < 27 and k % 9 == 4 else 0)
