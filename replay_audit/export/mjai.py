"""``Game`` -> mjai events (formats.md §5), one dict per event.

mjai is the event stream most bots and reviewers read.  It has no yaku, fu or
draw reason, so those are lost; kan dora, ura markers and deltas are kept.
Three-player games use the ``kita`` extension (RiichiEnv) and keep four seats
with an empty hand for the missing one.  Red fives are the game's own set
(``model.rules.eras.red_fives_of``): a 2006 log's id 53 is a ``5pr`` too.

>>> mjai_tile(16), mjai_tile(16, aka=False), mjai_tile(124)
('5mr', '5m', 'P')

Must not: parse, replay or score; it only re-spells the events of a ``Game``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import IO, Any

from replay_audit.model.events import (
    Call,
    Discard,
    Draw,
    Game,
    HandLog,
    NewDora,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.meld import MeldKind
from replay_audit.model.rules.eras import red_fives_of
from replay_audit.model.tiles import Tile, is_red, kind

_HONORS = "ESWNPFC"


def mjai_tile(tile: Tile, aka: bool = True) -> str:
    """``1m``..``9s``, ``E S W N P F C``, red fives ``5mr``/``5pr``/``5sr``."""
    k = kind(tile)
    if k >= 27:
        return _HONORS[k - 27]
    name = f"{k % 9 + 1}{'mps'[k // 9]}"
    return name + "r" if is_red(tile, aka) else name


def to_mjai(game: Game) -> list[dict[str, Any]]:
    """Every event of the game as mjai dicts, from ``start_game`` to ``end_game``."""
    aka = game.meta.aka
    names = [p.name for p in game.players] + [""] * (4 - len(game.players))
    out: list[dict[str, Any]] = [
        {
            "type": "start_game",
            "names": names[:4],
            "kyoku_first": 4 if not game.meta.hanchan else 0,
            "aka_flag": aka,
        }
    ]
    reds = frozenset(red_fives_of(game))
    for hand in game.hands:
        out.extend(_hand(hand, reds))
    out.append({"type": "end_game"})
    return out


def _hand(h: HandLog, reds: Collection[Tile]) -> list[dict[str, Any]]:
    def t(tile: Tile) -> str:
        return mjai_tile(tile, aka=False) + ("r" if tile in reds else "")

    tehais = [[t(x) for x in sorted(hai)] for hai in h.haipai]
    tehais += [[] for _ in range(4 - len(tehais))]
    out: list[dict[str, Any]] = [
        {
            "type": "start_kyoku",
            "bakaze": "ESWN"[h.round_wind % 4],
            "dora_marker": t(h.dora_indicator),
            "kyoku": h.round_index % 4 + 1,
            "honba": h.honba,
            "kyotaku": h.sticks,
            "oya": h.dealer,
            "scores": list(h.scores),
            "tehais": tehais,
        }
    ]
    for ev in h.events:
        if isinstance(ev, Draw):
            out.append({"type": "tsumo", "actor": ev.seat, "pai": t(ev.tile)})
        elif isinstance(ev, Discard):
            out.append(
                {"type": "dahai", "actor": ev.seat, "pai": t(ev.tile), "tsumogiri": ev.tsumogiri}
            )
        elif isinstance(ev, RiichiDeclare):
            out.append({"type": "reach", "actor": ev.seat})
        elif isinstance(ev, RiichiAccept):
            out.append({"type": "reach_accepted", "actor": ev.seat})
        elif isinstance(ev, NewDora):
            out.append({"type": "dora", "dora_marker": t(ev.indicator)})
        elif isinstance(ev, Call):
            out.append(_call(ev, t))
        elif isinstance(ev, RecordedWin):
            hora: dict[str, Any] = {"type": "hora", "actor": ev.seat, "target": ev.from_seat}
            if ev.deltas:
                hora["deltas"] = list(ev.deltas)
            if ev.ura:
                hora["ura_markers"] = [t(x) for x in ev.ura]
            out.append(hora)
        elif isinstance(ev, RecordedDraw):
            ryu: dict[str, Any] = {"type": "ryukyoku"}
            if ev.deltas:
                ryu["deltas"] = list(ev.deltas)
            out.append(ryu)
    out.append({"type": "end_kyoku"})
    return out


def _call(ev: Call, t: Any) -> dict[str, Any]:
    m = ev.meld
    if m.kind is MeldKind.KITA:
        return {"type": "kita", "actor": ev.seat, "pai": t(m.tiles[0])}
    if m.kind is MeldKind.ANKAN:
        return {"type": "ankan", "actor": ev.seat, "consumed": [t(x) for x in m.tiles]}
    if m.kind is MeldKind.KAKAN:
        assert m.added is not None
        return {
            "type": "kakan",
            "actor": ev.seat,
            "pai": t(m.added),
            "consumed": [t(x) for x in m.tiles if x != m.added],
        }
    assert m.called is not None
    return {
        "type": str(m.kind),
        "actor": ev.seat,
        "target": m.from_seat,
        "pai": t(m.called),
        "consumed": [t(x) for x in m.tiles if x != m.called],
    }


def write_mjai_lines(events: Iterable[dict[str, Any]], out: IO[str]) -> int:
    """Write one compact JSON object per line; returns the number of lines."""
    n = 0
    for ev in events:
        out.write(json.dumps(ev, ensure_ascii=False, separators=(",", ":")))
        out.write("\n")
        n += 1
    return n
