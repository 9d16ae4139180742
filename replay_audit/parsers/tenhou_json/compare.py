"""Events compared across formats: a JSON game's events against an XML one's.

Owns ``comparable``: an event reduced to what both formats record (tile kind and
redness, not copy numbers).

Must not: parse anything.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    Event,
    NewDora,
    Reconnect,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.tiles import Tile, is_red, kind

# ------------------------------------------------------------------- comparison


def comparable(
    event: Event, aka: bool = True, reds: Collection[Tile] | None = None
) -> tuple[object, ...]:
    """An event as a plain tuple with tiles reduced to (kind, red) and ``seq``
    left out: JSON has no copy numbers, so this is how an XML and a JSON reading
    of the same game are held against each other.  Result fields JSON does not
    carry (hand, melds, win tile, fu of limit hands, ``裏ドラ(0飜)``, the ``ba``
    honba and sticks, the scores before the result) are left out.  ``reds`` is
    the game's red-five set where it is not today's (Tenhou's 2006 set, whose id 53
    a JSON writes as a red 5p: ``model.rules.reds``); it overrides ``aka``."""

    # the moves first, without the helpers below: nearly every event is one
    if isinstance(event, Draw):
        tile = event.tile
        return (
            "draw",
            event.seat,
            (kind(tile), is_red(tile, aka) if reds is None else tile in reds),
        )
    if isinstance(event, Discard):
        tile = event.tile
        return (
            "discard", event.seat,
            (kind(tile), is_red(tile, aka) if reds is None else tile in reds), event.tsumogiri,
        )  # fmt: skip

    def t(tile: Tile) -> tuple[int, bool]:
        return kind(tile), is_red(tile, aka) if reds is None else tile in reds

    def ts(tiles: Sequence[Tile]) -> tuple[tuple[int, bool], ...]:
        return tuple(t(x) for x in tiles)

    if isinstance(event, Call):
        m = event.meld
        return (
            "call", event.seat, str(m.kind), tuple(sorted(ts(m.tiles))),
            None if m.called is None else t(m.called), m.from_seat,
            None if m.added is None else t(m.added),
        )  # fmt: skip
    if isinstance(event, RiichiDeclare):
        return ("riichi", event.seat)
    if isinstance(event, RiichiAccept):
        return ("riichi_accept", event.seat)
    if isinstance(event, NewDora):
        return ("dora", t(event.indicator))
    if isinstance(event, Disconnect):
        return ("disconnect", event.seat)
    if isinstance(event, Reconnect):
        return ("reconnect", event.seat, event.name)
    if isinstance(event, RecordedWin):
        return (
            "win", event.seat, event.from_seat, event.pao_seat, event.points, event.limit,
            tuple(y for y in event.yaku if y != (53, 0)), event.yakuman, ts(event.dora),
            ts(event.ura), event.deltas, event.owari,
        )  # fmt: skip
    return ("draw_result", event.kind, event.deltas, event.owari)
