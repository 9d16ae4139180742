"""The compiled mjlog reader's columns: a log's events as an Arrow table.

``replay_audit._core.read_mjlog`` reads an mjlog XML document into integer columns
(``src/core/game.hpp`` describes the layout): an events table in document order, and
tables per hand, per win, per draw, per meld and per final-scores line.  This module
gives those columns to people who build data sets (``mjlog_events``,
``mjlog_tables``: no object per event, and ``table.to_pandas()`` gives a DataFrame);
``from_columns`` has the core build from the same tables, without numpy, the ``Game``
the Python reader builds (``_core.GameBuilder``: ``_players`` here is its Python twin).

The core reads the documents Tenhou writes and *declines* the rest (returns None): an
XML declaration, a DOCTYPE or ENTITY, a comment, an entity reference, non-ASCII bytes,
unknown tags or attributes, the 2006 stepless REACH, a truncated document, a value out
of its domain, input over the size limits.  Those go to the Python reader
(``parse_tenhou_xml``), which reads them or raises its own error.

Must not: build ``Game`` objects (``from_columns``), read files or judge the moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final
from urllib.parse import unquote

from replay_audit.native import _core
from replay_audit.parsers.tenhou_xml import limits

if TYPE_CHECKING:  # numpy and pyarrow are imported when first needed: import stays cheap
    import numpy.typing as npt
    import pyarrow as pa

    from replay_audit.model.events import Player

__all__ = [
    "DRAW_KINDS",
    "EVENT_KINDS",
    "MELD_KINDS",
    "mjlog_events",
    "mjlog_tables",
    "read_mjlog_columns",
]

_DRAW, _DISCARD, _CALL, _DECLARE, _ACCEPT, _DORA, _BYE, _UN, _AGARI, _RYUUKYOKU = range(10)

EVENT_KINDS: Final = (
    "draw",
    "discard",
    "call",
    "riichi_declare",
    "riichi_accept",
    "new_dora",
    "disconnect",
    "reconnect",
    "agari",
    "ryuukyoku",
)
"""The ``kind`` codes of the events table, in order (``kind`` 0 is a draw)."""
MELD_KINDS: Final = ("chi", "pon", "daiminkan", "kakan", "ankan", "kita")
"""The ``meld_kind`` codes of the events table (the values of ``replay_audit.model.meld.MeldKind``)."""
DRAW_KINDS: Final = ("exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4")
"""The ``kind`` codes of the RYUUKYOKU table (as ``RecordedDraw.kind``)."""


def read_mjlog_columns(data: bytes) -> dict[str, Any] | None:
    """The core's columns for one mjlog XML document (bytes, not gzipped), or None
    when the core declines it or is not built.  A dict of dicts of numpy arrays; see
    ``src/core/game.hpp`` for every table and ``mjlog_events`` for a friendlier form."""
    if _core is None:
        return None
    result: dict[str, Any] | None = _core.read_mjlog(
        bytes(data), limits.MAX_ELEMENTS, limits.MAX_ATTRIBUTE_LENGTH
    )
    return result


def mjlog_events(data: bytes) -> pa.Table | None:
    """The events of one mjlog XML document (bytes, not gzipped) as a ``pyarrow.Table``,
    one row per event in document order, or None if the core declines the document
    (``read_game`` then still reads it, by the Python reader).

    Useful in itself to build data sets: no object per event, and
    ``table.to_pandas()`` gives a DataFrame.  The columns (-1 stands for "none"):

    - ``hand``: the hand's index in the game (-1: before the first INIT);
    - ``seq``: the element's index among the document's elements;
    - ``kind``: dictionary-encoded ``EVENT_KINDS`` (draw, discard, call, ...);
    - ``seat``: who acts (the winner for ``agari``; -1 for ``new_dora``, ``ryuukyoku``);
    - ``tile``: the tile drawn or discarded, the new dora indicator, the winning tile;
    - ``tsumogiri``: the discard is the tile just drawn;
    - ``from_seat``: where a call's tile came from, the AGARI ``fromWho``;
    - ``meld_code``: the raw ``<N m=...>`` code, ``meld_kind`` (dictionary-encoded
      ``MELD_KINDS``, null outside calls), ``meld_tiles`` (its tiles ascending, null
      outside calls), ``meld_called``, ``meld_added``;
    - ``result``: the row of the win or draw in ``mjlog_tables(...)["agari"]`` or
      ``["ryuukyoku"]``.

    >>> deal = " ".join(f'hai{s}="{",".join(map(str, range(13 * s, 13 * s + 13)))}"' for s in range(4))
    >>> doc = (
    ...     '<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/>'
    ...     f'<INIT seed="0,0,0,0,0,52" ten="250,250,250,250" oya="0" {deal}/><T60/><D60/>'
    ...     '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/></mjloggm>'
    ... ).encode()
    >>> table = mjlog_events(doc)  # None without the compiled core
    >>> rows = table.select(["seq", "kind", "seat", "tile", "tsumogiri"]).to_pylist() if table else []
    >>> rows[1] if rows else {"seq": 4, "kind": "discard", "seat": 0, "tile": 60, "tsumogiri": True}
    {'seq': 4, 'kind': 'discard', 'seat': 0, 'tile': 60, 'tsumogiri': True}
    """
    cols = read_mjlog_columns(data)
    return None if cols is None else _events_table(cols)


def mjlog_tables(data: bytes) -> dict[str, pa.Table] | None:
    """``mjlog_events`` and the other tables of one document, or None if declined:
    ``events``, ``hands`` (INIT: round, honba, sticks, dealer, dice, dora indicator,
    scores, the deal), ``agari`` (the AGARI values in the units of ``RecordedWin``:
    who, fromWho, pao, machi, fu, points, limit, honba, sticks, scores and deltas,
    and the hand, yaku pairs flat, yakuman, dora, ura and meld codes as list columns;
    row ``i`` is the events table's ``result`` ``i``), ``ryuukyoku`` (kind, honba,
    sticks, scores, deltas, the hands shown, null where not shown) and ``game`` (one
    row: players, GO type, lobby, SHUFFLE seed, the final scores and values of
    ``owari``, and the players' names unquoted, ranks, rates and sexes).  Chip-room
    values, ``ratio`` and the raw extras are in ``read_game``'s ``Game`` only."""
    import numpy as np
    import pyarrow as pa

    cols = read_mjlog_columns(data)
    if cols is None:
        return None
    pool = cols["pool"]
    h = cols["hands"]
    haipai = h["haipai"].reshape(-1, 4, 13)
    hands = pa.table(
        {
            "hand": np.arange(len(h["seq"]), dtype=np.int32),
            "seq": h["seq"],
            "round_index": h["round_index"],
            "honba": h["honba"],
            "sticks": h["sticks"],
            "dealer": h["dealer"],
            "dice": _fixed(h["dice"]),
            "dora_indicator": h["dora_indicator"],
            "scores": _fixed(h["scores"]),
            **{f"haipai{s}": _fixed(haipai[:, s, :]) for s in range(4)},
        }
    )
    a = cols["agari"]
    agari = pa.table(
        {
            **{k: a[k] for k in ("hand", "seq", "who", "from_who", "pao", "machi")},
            **{k: a[k] for k in ("fu", "points", "limit", "honba", "sticks")},
            "scores": _fixed(a["scores"]),
            "deltas": _fixed(a["deltas"]),
            **{k: _lists(pool, a, k) for k in ("hai", "yaku", "yakuman", "dora", "ura")},
            "meld_codes": _lists(cols["melds"]["code"], a, "melds"),
        }
    )
    r = cols["ryuukyoku"]
    ryuukyoku = pa.table(
        {
            "hand": r["hand"],
            "seq": r["seq"],
            "kind": pa.DictionaryArray.from_arrays(r["kind"], DRAW_KINDS),
            "honba": r["honba"],
            "sticks": r["sticks"],
            "scores": _fixed(r["scores"]),
            "deltas": _fixed(r["deltas"]),
            **{
                f"shown{s}": _lists(
                    pool,
                    {"x_offset": r["shown_offset"][:, s], "x_length": r["shown_length"][:, s]},
                    "x",
                )
                for s in range(4)
            },
        }
    )
    g = cols["game"]
    owari = cols["owari"]
    final = owari["scores"][-1].tolist() if len(owari["scores"]) else None
    players = _players(g)[: g["players"]]
    game = pa.table(
        {
            "players": [g["players"]],
            "go_type": [g["go_type"]],
            "lobby": [g["lobby"]],
            "seed": [g["seed"]],
            "names": [[p.name for p in players]],
            "dan": [[p.dan for p in players]],
            "rate": [[p.rate for p in players]],
            "sex": [[p.sex for p in players]],
            "final_scores": [final],
            "final_points": [owari["points"][-1].tolist() if final is not None else None],
        }
    )
    return {
        "events": _events_table(cols),
        "hands": hands,
        "agari": agari,
        "ryuukyoku": ryuukyoku,
        "game": game,
    }


def _fixed(values: npt.NDArray[Any]) -> pa.FixedSizeListArray:
    """Rows of a 2-D array as a fixed-size list column."""
    import pyarrow as pa

    return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), values.shape[1])


def _lists(pool: npt.NDArray[Any], table: dict[str, Any], name: str) -> pa.ListArray:
    """The ``name`` spans of a table (offset and length into ``pool``) as a list column
    (an absent list, length -1, is null)."""
    import numpy as np
    import pyarrow as pa

    offset, length = table[f"{name}_offset"], table[f"{name}_length"]
    size = np.maximum(length, 0)
    bounds = np.zeros(len(size) + 1, dtype=np.int32)
    np.cumsum(size, out=bounds[1:])
    index = np.repeat(offset - bounds[:-1], size) + np.arange(bounds[-1], dtype=np.int32)
    return pa.ListArray.from_arrays(
        pa.array(bounds, mask=np.append(length < 0, False)), pa.array(pool[index])
    )


def _events_table(cols: dict[str, Any]) -> pa.Table:
    import numpy as np
    import pyarrow as pa

    e, m = cols["events"], cols["melds"]
    kind = e["kind"]
    ref = e["ref"]
    is_call = kind == _CALL
    row = np.where(is_call, ref, 0)
    has_melds = len(m["code"]) > 0

    def meld(values: npt.NDArray[Any], fill: int = -1) -> npt.NDArray[Any]:
        if not has_melds:
            return np.full(len(kind), fill, dtype=values.dtype)
        return np.where(is_call, values[row], fill)

    # meld_tiles: a list column, null outside calls (the calls' rows of melds, -1 dropped)
    tiles = m["tiles"][ref[is_call]] if has_melds else np.zeros((0, 4), dtype=np.int16)
    size = np.zeros(len(kind), dtype=np.int32)
    size[is_call] = (tiles >= 0).sum(axis=1)
    bounds = np.zeros(len(kind) + 1, dtype=np.int32)
    np.cumsum(size, out=bounds[1:])
    meld_tiles = pa.ListArray.from_arrays(
        pa.array(bounds, mask=np.append(~is_call, False)), pa.array(tiles[tiles >= 0])
    )
    from_seat = meld(m["from_seat"]) if has_melds else np.full(len(kind), -1, np.int8)
    is_agari = kind == _AGARI
    if is_agari.any():
        from_seat = np.where(
            is_agari, cols["agari"]["from_who"][np.where(is_agari, ref, 0)], from_seat
        )
    return pa.table(
        {
            "hand": e["hand"],
            "seq": e["seq"],
            "kind": pa.DictionaryArray.from_arrays(kind, EVENT_KINDS),
            "seat": e["seat"],
            "tile": e["tile"],
            "tsumogiri": e["tsumogiri"].astype(bool),
            "from_seat": from_seat,
            "meld_code": meld(m["code"]),
            "meld_kind": pa.DictionaryArray.from_arrays(
                pa.array(meld(m["kind"], 0), mask=~is_call), MELD_KINDS
            ),
            "meld_tiles": meld_tiles,
            "meld_called": meld(m["called"]),
            "meld_added": meld(m["added"]),
            "result": np.where((kind == _AGARI) | (kind == _RYUUKYOKU), ref, -1).astype(np.int32),
        }
    )


def _players(g: dict[str, Any]) -> tuple[Player, ...]:
    """The player list as the Python reader builds it from the raw UN values."""
    from replay_audit.model.events import Player

    raw = [unquote(n) if n is not None else "" for n in g["names"]]
    dan = [int(v) for v in g["dan"].split(",")] if g["dan"] is not None else None
    rate = [float(v) for v in g["rate"].split(",")] if g["rate"] is not None else None
    sx = g["sx"].split(",") if g["sx"] is not None else None
    per_seat = {k: g[k].split(",") for k in ("gold", "rc") if g[k] is not None}
    return tuple(
        Player(
            raw[i],
            dan[i] if dan and i < len(dan) else None,
            rate[i] if rate and i < len(rate) else None,
            sx[i] if sx and i < len(sx) else None,
            tuple((k, v[i]) for k, v in per_seat.items() if i < len(v)),
        )
        for i in range(4)
    )
