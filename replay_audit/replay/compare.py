"""Tiles and melds held side by side with the log's.

Owns the keys that compare the replayed hand and melds with the shown ones (by
tile id in XML, by kind and redness in JSON), meld shape checks and set counts.

Must not: change the table or read anything but its arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.tiles import RED_FIVES, to_notation

_NOT_SETS = (MeldKind.CHI, MeldKind.KITA)
"""Meld kinds that are no pon or kan (a module constant: enum members cost a class
lookup each time they are named)."""


def _sets_of(melds: Sequence[Meld], kinds: frozenset[int]) -> int:
    """How many of ``melds`` are pons or kans of one of ``kinds``."""
    chi, kita = _NOT_SETS
    return sum(
        1
        for x in melds
        if x.kind is not chi and x.kind is not kita and x.tiles and x.tiles[0] >> 2 in kinds
    )


def _same_tile(a: int, b: int | None) -> bool:
    """Same kind and redness (JSON logs carry no copy numbers)."""
    return b is not None and a >> 2 == b >> 2 and (a in RED_FIVES) == (b in RED_FIVES)


def _xml_key(tiles: Sequence[int]) -> list[int]:
    return sorted(tiles)


def _json_key(tiles: Sequence[int]) -> list[tuple[int, bool]]:
    return sorted((t >> 2, t in RED_FIVES) for t in tiles)


def _melds_key(melds: Sequence[Meld], json: bool) -> list[object]:
    if json:
        return [(m.kind, _json_key(m.tiles)) for m in melds]
    return [(m.kind, tuple(sorted(m.tiles)), m.called, m.from_seat, m.added) for m in melds]


def _meld_text(m: Meld, aka: bool) -> str:
    return f"{m.kind}:{to_notation(m.tiles, aka)}"


_SHAPES: dict[tuple[MeldKind, tuple[int, ...]], bool] = {}
"""``_meld_shape`` by (kind, tiles): calls repeat the same few thousand shapes, and a
lookup costs a fifth of the check.  Cleared when full (bounded memory)."""
_SHAPES_MAX = 1 << 15


def _meld_shape_ok(m: Meld) -> bool:
    """Whether the meld's tiles form its kind (``_meld_shape``, remembered)."""
    key = (m.kind, m.tiles)
    ok = _SHAPES.get(key)
    if ok is None:
        if len(_SHAPES) >= _SHAPES_MAX:
            _SHAPES.clear()
        ok = _SHAPES[key] = _meld_shape(m.kind, m.tiles)
    return ok


def _meld_shape(kind: MeldKind, tiles: Sequence[int]) -> bool:
    ks = sorted(t >> 2 for t in tiles)
    if kind is MeldKind.CHI:
        return (
            len(ks) == 3
            and ks[2] < 27
            and ks[0] // 9 == ks[2] // 9
            and ks[1] == ks[0] + 1
            and ks[2] == ks[0] + 2
        )
    want = 3 if kind is MeldKind.PON else 4
    return len(ks) == want and ks[0] == ks[-1]
