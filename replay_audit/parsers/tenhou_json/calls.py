"""The pieces of a hand's simulation: call strings, tile pools and the state.

Owns ``parse_call_string`` (``c123``, ``p111``, ``m``/``a``/``k``/``f`` kans and
kita), ``source_seat``, the per-hand tile pool that gives every JSON code a tile
id, and the simulation's ``_State``/``_Hand`` values.

Must not: run the simulation (``merge``) or build events of a whole hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from replay_audit.model.events import (
    Move,
)
from replay_audit.model.meld import Meld
from replay_audit.model.tiles import Tile, kind, tenhou6_kind

# --------------------------------------------------------------------- one hand


class _Dead(Exception):
    """This branch of the merge cannot be what happened (backtracking signal)."""

    def __init__(self, message: str, depth: int) -> None:
        super().__init__(message)
        self.message = message
        self.depth = depth


@dataclass(frozen=True, slots=True)
class _CallStr:
    letter: str
    pos: int
    codes: tuple[int, ...]
    text: str

    @property
    def key_index(self) -> int:
        """Index in ``codes`` of the tile right after the letter."""
        return self.pos // 2


def parse_call_string(text: str) -> _CallStr:
    """Split a call string into letter, letter position and tile codes, checking
    the shape of §4.5/§4.6; ``ValueError`` when impossible.

    >>> c = parse_call_string("35k353553")
    >>> c.letter, c.pos, c.codes
    ('k', 2, (35, 35, 35, 53))
    """
    letters = [i for i, ch in enumerate(text) if not ch.isdigit()]
    if len(letters) != 1:
        raise ValueError(f"call string {text!r} needs exactly one letter")
    pos = letters[0]
    letter = text[pos]
    digits = text[:pos] + text[pos + 1 :]
    if pos % 2 or len(digits) % 2 or not digits:
        raise ValueError(f"call string {text!r} is not made of 2-digit tiles")
    codes = tuple(int(digits[i : i + 2]) for i in range(0, len(digits), 2))
    kinds = []
    for c in codes:
        try:
            kinds.append(tenhou6_kind(c)[0])
        except ValueError as exc:
            raise ValueError(f"call string {text!r}: {exc}") from None
    shape = {"c": (3, (0,)), "p": (3, (0, 2, 4)), "m": (4, (0, 2, 6)), "k": (4, (0, 2, 4)),
             "a": (4, (6,)), "f": (1, (0,))}  # fmt: skip
    if letter not in shape:
        raise ValueError(f"call string {text!r}: unknown letter {letter!r}")
    n, positions = shape[letter]
    if len(codes) != n or pos not in positions:
        raise ValueError(f"call string {text!r}: wrong length or letter position")
    if letter == "c":
        ks = sorted(kinds)
        if ks[0] >= 27 or ks[0] // 9 != ks[2] // 9 or ks != [ks[0], ks[0] + 1, ks[0] + 2]:
            raise ValueError(f"chi {text!r} is not a run in one suit")
    elif letter == "f":
        if kinds[0] != 30:
            raise ValueError(f"kita {text!r} is not a North")
    elif len(set(kinds)) != 1:
        raise ValueError(f"{text!r}: tiles of a pon/kan must be of one kind")
    return _CallStr(letter, pos, codes, text)


def source_seat(who: int, pos: int, letter: str, players: int) -> int:
    """Absolute seat a called tile came from, from the letter position (0 kamicha,
    2 toimen, 4 or 6 shimocha).  Three-player: kamicha/shimocha among seats 0-2;
    a toimen letter is read with four-seat arithmetic (unverified convention)."""
    shimocha_pos = 6 if letter == "m" else 4
    if players == 3:
        if pos == 0:
            return (who + 2) % 3
        if pos == shimocha_pos:
            return (who + 1) % 3
        seat = (who + 2) % 4
        if seat == 3:
            raise ValueError("toimen call in a three-player game from the empty seat")
        return seat
    if pos == 0:
        return (who + 3) % 4
    if pos == 2:
        return (who + 2) % 4
    return (who + 1) % 4


class _Pool:
    """Per-hand copy numbers for wall tiles (see the package doc): a red code takes
    the first free red copy of its five (``reds``, the game's red fives), a plain
    five the first free other copy (copy 0 last when the game has no aka)."""

    def __init__(self, reds: frozenset[Tile]) -> None:
        self.reds = reds
        self.used: set[int] = set()

    def take(self, code: int) -> Tile:
        used = self.used
        for t in _copy_order(code, self.reds):
            if t not in used:
                used.add(t)
                return t
        raise ValueError(f"more copies of tile code {code} than the set has")


@lru_cache(maxsize=1024)
def _copy_order(code: int, reds: frozenset[Tile]) -> tuple[Tile, ...]:
    """The tile ids a code may stand for, in the order ``_Pool.take`` hands them out.
    Remembered: it depends on the code and the red set alone, and every tile of every
    hand asks it (a bad code raises ``ValueError`` each time; errors are not kept)."""
    k, red = tenhou6_kind(code)
    red = red and bool(reds)
    if red:
        copies: tuple[int, ...] = tuple(c for c in range(4) if 4 * k + c in reds)
    elif k < 27 and k % 9 == 4:
        copies = tuple(c for c in (1, 2, 3, 0) if 4 * k + c not in reds)
    else:
        copies = (0, 1, 2, 3)
    return tuple(4 * k + c for c in copies)


@lru_cache(maxsize=1024)
def _key(code: int, reds: frozenset[Tile]) -> tuple[int, bool]:
    """(kind, red) of a code in a game with these red fives (none: every five plain).
    Remembered like ``_copy_order``: the merge asks it for every discard."""
    k, red = tenhou6_kind(code)
    return k, red and bool(reds)


def _tkey(tile: Tile, reds: frozenset[Tile]) -> tuple[int, bool]:
    return kind(tile), tile in reds


@dataclass(slots=True)
class _State:
    """Mutable merge state; copied whole at each choice point."""

    ti: list[int]
    di: list[int]
    hands: list[list[Tile]]
    melds: list[list[Meld]]
    drawn: list[Tile | None]
    events: list[Move]
    pending_dora: int = 0
    """Kan dora owed by a daiminkan/kakan, shown before the kanner's next discard."""
    due_on_draw: int = 0
    """Kan dora owed by an earlier kan when a kakan came first: shown at the rinshan
    draw, i.e. only if the kakan is not robbed (chankan)."""
    dora_used: int = 0
    riichi_wait: int | None = None
    accepted: list[bool] = field(default_factory=lambda: [False] * 4)
    last_discard: tuple[int, Tile] | None = None

    def copy(self) -> _State:
        return _State(
            ti=list(self.ti),
            di=list(self.di),
            hands=[list(h) for h in self.hands],
            melds=[list(m) for m in self.melds],
            drawn=list(self.drawn),
            events=list(self.events),
            pending_dora=self.pending_dora,
            due_on_draw=self.due_on_draw,
            dora_used=self.dora_used,
            riichi_wait=self.riichi_wait,
            accepted=list(self.accepted),
            last_discard=self.last_discard,
        )


@dataclass(slots=True)
class _Hand:
    """The immutable inputs of one hand's merge."""

    players: int
    reds: frozenset[Tile]
    """The game's red fives (empty without aka): what a red code means."""
    dealer: int
    takes: list[list[int | _CallStr | Tile]]
    """Per seat: wall tile ids (ints) or parsed call strings."""
    discards: list[list[int | str | _CallStr]]
    """Per seat: codes (ints incl. 60 and 0), ``"rNN"`` riichi strings or parsed calls."""
    dora: list[Tile]
    result_kind: str
    wins: list[tuple[int, int]]
    """(winner, from) pairs."""
    kan_dora_at_once: bool = False
    """Chip rooms show every kan's dora right after the kan (observed once, on a
    kakan in a GO 553 log); elsewhere only the ankan's."""
    steps: int = 0
