"""The ``Game`` of an mjlog document, built from the compiled reader's columns.

``parse_tenhou_xml`` asks ``game_from_core`` first: the core reads the bytes into
columns (``columns``) and this module builds from them the very ``Game`` the Python
reader (``builder``) builds, about twice as fast; a document the core declines
(anything unusual, see ``columns``) is read by the Python reader, which also raises
every error.  ``tests/test_core_mjlog.py`` holds the two readers equal over the whole
shared corpus, the fixtures, bad inputs and mutated documents.

Must not: read or judge anything the columns do not say; decline silently what the
Python reader would refuse (the core declines, then Python refuses with its error).
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import unquote

from replay_audit.model.events import Discard, Draw
from replay_audit.native import _core
from replay_audit.parsers.tenhou_xml.columns import (
    _ACCEPT,
    _AGARI,
    _BYE,
    _CALL,
    _DECLARE,
    _DISCARD,
    _DORA,
    _DRAW,
    _UN,
    DRAW_KINDS,
    MELD_KINDS,
    _players,
    read_mjlog_columns,
)

if TYPE_CHECKING:
    from replay_audit.model.events import Game, Owari, RecordedDraw, RecordedWin
    from replay_audit.model.meld import Meld

__all__ = ["decode_meld", "game_from_core"]


def decode_meld(m: int, who: int, *, gari: bool = False) -> Meld | None:
    """``replay_audit.parsers.meld_code.decode_meld`` by the core: the same ``Meld``,
    or None where that raises ``InvalidValueError`` (or without the core)."""
    if _core is None:
        return None
    decoded = _core.decode_meld(m, who, gari)
    return None if decoded is None else _meld(*decoded)


def _meld(
    kind: int, tiles: tuple[int, ...], called: int | None, from_seat: int | None, added: int | None
) -> Meld:
    from replay_audit.model.meld import Meld, MeldKind

    return Meld(MeldKind(MELD_KINDS[kind]), tiles, called, from_seat, added)


def game_from_core(data: bytes, source: str = "<bytes>") -> Game | None:
    """The ``Game`` that ``parse_tenhou_xml(data, source)`` returns, read by the core
    and built from its columns; None if the core declines the document (or is not
    built): then only the Python reader can say what it is."""
    if _group_events is None:  # a core built before group_events: the Python reader
        return None
    cols = read_mjlog_columns(data)
    if cols is None:
        return None
    # thousands of small acyclic objects: the cyclic GC would only walk them again
    # and again, so it waits (as in the Python reader)
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _build_game(cols, source)
    finally:
        if paused:
            gc.enable()


def _slot_setters(
    cls: type, names: tuple[str, ...]
) -> tuple[Callable[[object, object], None], ...]:
    """The slot setters of a frozen slotted event, in field order: ~90% of the events
    are draws and discards, filled without the dataclass ``__init__`` (as the Python
    reader does).  The field names are checked so a change to events.py fails loudly."""
    fields = tuple(f.name for f in dataclasses.fields(cls))
    if fields != names:
        raise ImportError(f"{cls.__name__} fields changed to {fields}; update native.py")
    return tuple(getattr(cls, n).__set__ for n in names)


def _other_event(
    ev: Any,
    kind: int,
    seq: int,
    seat: int,
    tile: int,
    ref: int,
    melds: list[Meld],
    reach_scores: list[tuple[int, ...]],
    strings: list[str],
    wins: list[RecordedWin],
    draws: list[RecordedDraw],
) -> Any:
    """An event that is neither a draw nor a discard, from its row of the columns."""
    if kind == _CALL:
        return ev.Call(seq, seat, melds[ref])
    if kind == _DECLARE:
        return ev.RiichiDeclare(seq, seat)
    if kind == _ACCEPT:
        return ev.RiichiAccept(seq, seat, reach_scores[ref] if ref >= 0 else None)
    if kind == _DORA:
        return ev.NewDora(seq, tile)
    if kind == _BYE:
        return ev.Disconnect(seq, seat)
    if kind == _UN:
        return ev.Reconnect(seq, seat, unquote(strings[ref]))
    if kind == _AGARI:
        return wins[ref]
    return draws[ref]


def _build_game(cols: dict[str, Any], source: str) -> Game:
    from replay_audit.model import events as ev
    from replay_audit.parsers.tenhou_xml.values import log_id_from_name

    g = cols["game"]
    pool: list[int] = cols["pool"].tolist()
    strings: list[str] = cols["strings"]
    m = cols["melds"]
    melds = [
        _meld(
            k,
            tuple(t for t in tiles if t >= 0),
            c if c >= 0 else None,
            f if f >= 0 else None,
            a if a >= 0 else None,
        )
        for k, tiles, c, f, a in zip(
            m["kind"].tolist(),
            m["tiles"].tolist(),
            m["called"].tolist(),
            m["from_seat"].tolist(),
            m["added"].tolist(),
            strict=True,
        )
    ]
    o = cols["owari"]
    owaris = [
        ev.Owari(tuple(s), tuple(p))
        for s, p in zip(o["scores"].tolist(), o["points"].tolist(), strict=True)
    ]
    wins = _wins(cols["agari"], pool, melds, owaris)
    draws = _draws(cols["ryuukyoku"], pool, owaris)
    reach_scores = [tuple(s) for s in cols["reach_scores"].tolist()]

    h = cols["hands"]
    n_hands = len(h["seq"])
    e = cols["events"]
    # Draws and discards, ~90% of the events, are built by the core
    # (``_core.group_events``: each made by ``object.__new__`` and filled through
    # its slots, as the Python reader fills them); the others here, in document order.
    kinds = e["kind"]
    rest = (kinds != _DRAW) & (kinds != _DISCARD)
    others: list[ev.Event] = []
    for seq, kind, seat, tile, ref in zip(
        e["seq"][rest].tolist(),
        kinds[rest].tolist(),
        e["seat"][rest].tolist(),
        e["tile"][rest].tolist(),
        e["ref"][rest].tolist(),
        strict=True,
    ):
        others.append(
            _other_event(ev, kind, seq, seat, tile, ref, melds, reach_scores, strings, wins, draws)
        )
    assert _group_events is not None  # game_from_core checked it
    pre_game, hand_events = _group_events(
        Draw,
        Discard,
        e["hand"],
        e["seq"],
        kinds,
        e["seat"],
        e["tile"],
        e["tsumogiri"],
        others,
        n_hands,
        _DRAW,
        _DISCARD,
    )

    chips = _spans(pool, h, "chips")
    hands = []
    for i, (
        seq,
        round_index,
        honba,
        sticks,
        dealer,
        dice,
        dora,
        scores,
        haipai,
        shuffle,
    ) in enumerate(
        zip(
            h["seq"].tolist(),
            h["round_index"].tolist(),
            h["honba"].tolist(),
            h["sticks"].tolist(),
            h["dealer"].tolist(),
            h["dice"].tolist(),
            h["dora_indicator"].tolist(),
            h["scores"].tolist(),
            h["haipai"].tolist(),
            h["shuffle"],
            strict=True,
        )
    ):
        hands.append(
            ev.HandLog(
                index=i,
                seq=seq,
                round_index=round_index,
                honba=honba,
                sticks=sticks,
                dealer=dealer,
                scores=tuple(scores),
                haipai=tuple(
                    tuple(haipai[13 * s : 13 * s + 13]) if haipai[13 * s] >= 0 else ()
                    for s in range(4)
                ),
                dora_indicator=dora,
                dice=(dice[0], dice[1]),
                events=tuple(hand_events[i]),
                chips=chips[i],
                extra=(("shuffle", shuffle),) if shuffle is not None else (),
            )
        )

    go_type: int | None = g["go_type"]
    flags = go_type or 0
    meta = ev.GameMeta(
        source=source,
        log_id=log_id_from_name(source),
        format="tenhou-xml",
        players=g["players"],
        go_type=go_type,
        lobby=g["lobby"],
        aka=not flags & 0x02,
        kuitan=not flags & 0x04,
        hanchan=bool(flags & 0x08),
        seed=g["seed"],
        stepless_reach=False,
        extra=tuple(g["extra"]),
    )
    return ev.Game(
        meta=meta,
        players=_players(g)[: g["players"]],
        hands=tuple(hands),
        owari=owaris[-1] if owaris else None,
        pre_game=tuple(pre_game),
        warnings=(),
        errors=(),
    )


def _spans(pool: list[int], table: dict[str, Any], name: str) -> list[tuple[int, ...] | None]:
    return [
        tuple(pool[o : o + n]) if n >= 0 else None
        for o, n in zip(
            table[f"{name}_offset"].tolist(), table[f"{name}_length"].tolist(), strict=True
        )
    ]


def _wins(
    a: dict[str, Any], pool: list[int], melds: list[Meld], owaris: list[Owari]
) -> list[RecordedWin]:
    from replay_audit.model.events import RecordedWin

    hai, yaku, yakuman = _spans(pool, a, "hai"), _spans(pool, a, "yaku"), _spans(pool, a, "yakuman")
    dora, ura, chip = _spans(pool, a, "dora"), _spans(pool, a, "ura"), _spans(pool, a, "chip")
    out = []
    for i, (seq, who, from_who, machi, fu, points, limit, honba, sticks) in enumerate(
        zip(
            *(
                a[k].tolist()
                for k in (
                    "seq",
                    "who",
                    "from_who",
                    "machi",
                    "fu",
                    "points",
                    "limit",
                    "honba",
                    "sticks",
                )
            ),
            strict=True,
        )
    ):
        pao = int(a["pao"][i])
        has_chips = bool(a["has_chips"][i])
        pairs = yaku[i] or ()
        c = chip[i]
        o = int(a["owari"][i])
        mo, mn = int(a["melds_offset"][i]), int(a["melds_length"][i])
        out.append(
            RecordedWin(
                seq=seq,
                seat=who,
                from_seat=from_who,
                hand=hai[i] or (),
                melds=tuple(melds[mo : mo + mn]),
                win_tile=machi,
                fu=fu,
                points=points,
                limit=limit,
                yaku=tuple(zip(pairs[::2], pairs[1::2], strict=True)),
                yakuman=yakuman[i] or (),
                dora=dora[i] or (),
                ura=ura[i] or (),
                honba=honba,
                sticks=sticks,
                scores_before=tuple(a["scores"][i].tolist()),
                deltas=tuple(a["deltas"][i].tolist()),
                pao_seat=pao if pao >= 0 else None,
                chips_before=tuple(a["chips"][i].tolist()) if has_chips else None,
                chip_deltas=tuple(a["chip_deltas"][i].tolist()) if has_chips else None,
                chip=tuple(zip(c[::2], c[1::2], strict=True)) if c is not None else None,
                ratio=a["ratio"][i],
                owari=owaris[o] if o >= 0 else None,
            )
        )
    return out


def _draws(r: dict[str, Any], pool: list[int], owaris: list[Owari]) -> list[RecordedDraw]:
    from replay_audit.model.events import RecordedDraw

    out = []
    offsets, lengths = r["shown_offset"].tolist(), r["shown_length"].tolist()
    for i, (seq, kind, honba, sticks) in enumerate(
        zip(
            r["seq"].tolist(),
            r["kind"].tolist(),
            r["honba"].tolist(),
            r["sticks"].tolist(),
            strict=True,
        )
    ):
        has_chips = bool(r["has_chips"][i])
        o = int(r["owari"][i])
        out.append(
            RecordedDraw(
                seq=seq,
                kind=DRAW_KINDS[kind],
                honba=honba,
                sticks=sticks,
                scores_before=tuple(r["scores"][i].tolist()),
                deltas=tuple(r["deltas"][i].tolist()),
                shown=tuple(
                    (s, tuple(pool[offsets[i][s] : offsets[i][s] + lengths[i][s]]))
                    for s in range(4)
                    if lengths[i][s] >= 0
                ),
                chips_before=tuple(r["chips"][i].tolist()) if has_chips else None,
                chip_deltas=tuple(r["chip_deltas"][i].tolist()) if has_chips else None,
                ratio=r["ratio"][i],
                owari=owaris[o] if o >= 0 else None,
            )
        )
    return out


_group_events: Final = getattr(_core, "group_events", None)
"""``_core.group_events``; None without the core, or with a stale build of it (an
editable install not rebuilt since): ``game_from_core`` then declines every document,
so the Python reader reads it, rather than every audit failing."""

# (not used to build: they check, at import, the fields ``_core.group_events`` fills)
_DRAW_SETTERS: Final = _slot_setters(Draw, ("seq", "seat", "tile"))
_DISCARD_SETTERS: Final = _slot_setters(Discard, ("seq", "seat", "tile", "tsumogiri"))
