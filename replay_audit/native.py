"""The compiled core (``replay_audit._core``, C++), and the Python API over it.

``pip install .`` and ``pip install -e .`` compile the core from ``src/core`` (see
``setup.py``).  An install made on purpose without it (``REPLAY_AUDIT_PURE_PYTHON=1``)
runs the pure-Python implementation, which gives the same results more slowly;
without that variable, importing the package without its core warns once
(``CoreMissingWarning``): the install is stale or incomplete (an editable install
made before the core existed needs ``pip install -e .`` again).

So far the core rebuilds walls from the seed, reads mjlog XML into columns and
scores wins.

Walls: the functions here return exactly what ``replay_audit.wall`` returns for the
same arguments (the same ``Wall`` values, the same ``ValueError`` messages): the core
answers the canonical seed texts that real logs hold, and any other input (a
malformed seed, a hex word written ``0x1f``) goes to ``replay_audit.wall``.
``tests/test_core_wall.py`` checks that on every seeded game of the shared corpus and
on random seeds.  The replayer does not use them yet.

mjlog XML: ``mjlog_events`` and ``mjlog_tables`` give a log's events (and its hands,
wins, draws) as Arrow tables, one row per event, for people who build data sets;
``read_game`` and ``game_from_core`` build from the same columns the ``Game`` that
``replay_audit.parsers.tenhou_xml`` builds, and any document the core declines goes to
that reader (``tests/test_core_mjlog.py``).  ``read_log`` and the audit do not use them
yet.

The scoring functions (``score_win``, ``score_wins``, ``win_deltas``) return exactly
what ``replay_audit.scoring.hand.score_win`` and ``replay_audit.scoring.payments.win_deltas``
return for the same arguments.  What goes where:

- the core scores han-and-fu wins (``RuleSet.scoring == "hanfu"``) under any rule set
  (every rule it applies is read from the ``RuleSet``: red fives, kuitan, kiriage, the
  fu values, renhou, yakuman and kazoe conventions, tsumo loss, honba, sticks, pao);
- Python answers Toutenkou (``scoring == "toutenkou"``, points instead of han and fu),
  and any context or value the core declines as unusual: tile ids outside 0-135, more
  than 14 concealed tiles, 8 calls or 16 indicators, a call kind that is not a
  ``MeldKind``, ``players`` other than 3 or 4, a round wind outside 0-3, numbers beyond
  2**40, seats outside the table (where Python raises, it raises the same error).

``tests/test_core_scoring.py`` checks both give the same values on every win of the
shared corpus (under several rule sets), on the scoring golden tests and on random
hands.  The replayer and the auditor do not use them yet.

>>> from replay_audit import wall
>>> walls = walls_from_seed(wall._EXAMPLE_SEED, hands=2)
>>> walls == wall.walls_from_seed(wall._EXAMPLE_SEED, hands=2)
True
"""

from __future__ import annotations

import dataclasses
import gc
import importlib
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import unquote

from replay_audit.events import Discard, Draw

if TYPE_CHECKING:  # numpy and pyarrow are imported when first needed: import stays cheap
    import numpy.typing as npt
    import pyarrow as pa

    from replay_audit.events import Game, Owari, Player, RecordedDraw, RecordedWin
    from replay_audit.meld import Meld
    from replay_audit.rules import RuleSet
    from replay_audit.scoring.context import WinContext, WinValue
    from replay_audit.wall import Wall

try:
    from replay_audit import _core
except ImportError:  # an install without the compiled core
    _core = None  # type: ignore[assignment]

__all__ = [
    "HAVE_CORE",
    "PURE_PYTHON_ENV",
    "CoreMissingWarning",
    "decode_meld",
    "game_from_core",
    "iter_walls",
    "mjlog_events",
    "mjlog_tables",
    "read_game",
    "read_mjlog_columns",
    "score_win",
    "score_wins",
    "wall_from_init_shuffle",
    "walls_from_seed",
    "win_deltas",
]

PURE_PYTHON_ENV: Final = "REPLAY_AUDIT_PURE_PYTHON"
"""Set to ``1`` at install time to skip the core, and at run time to silence the warning."""
HAVE_CORE: Final = _core is not None
"""Whether this install has its compiled core."""


class CoreMissingWarning(RuntimeWarning):
    """``replay_audit._core`` is not built: the pure-Python code runs instead."""


if not HAVE_CORE and os.environ.get(PURE_PYTHON_ENV) != "1":
    warnings.warn(
        "replay_audit's compiled core (replay_audit._core) is not built, so the slower "
        "pure-Python implementation runs (same results).  Reinstall with a C++ compiler "
        f"(pip install . or pip install -e .), or set {PURE_PYTHON_ENV}=1 to run without it "
        "and silence this warning.",
        CoreMissingWarning,
        stacklevel=1,  # the importer is importlib (replay_audit/__init__.py): point here
    )


def _wall_module() -> ModuleType:
    """``replay_audit.wall``, imported when first needed (``import replay_audit`` stays
    cheap), and always the module itself, whatever the package attribute holds."""
    return importlib.import_module("replay_audit.wall")


def iter_walls(seed: str, players: int = 4) -> Iterator[Wall]:
    """``replay_audit.wall.iter_walls``, by the compiled core when it can: a game's
    walls hand after hand, without end; a bad seed raises ``ValueError`` here."""
    wall = _wall_module()
    if _core is not None and seed.isascii():
        try:
            stream = _core.WallStream(seed, players)
        except ValueError:
            pass
        else:
            return _stream_walls(wall.Wall, stream)
    result: Iterator[Wall] = wall.iter_walls(seed, players)
    return result


def _stream_walls(cls: type[Wall], stream: _core.WallStream) -> Iterator[Wall]:
    flipped = stream.flipped
    for record in stream:
        yield _record_wall(cls, record, flipped)


def walls_from_seed(seed: str, players: int = 4, *, hands: int) -> list[Wall]:
    """``replay_audit.wall.walls_from_seed``, by the compiled core when it can."""
    wall = _wall_module()
    if _core is not None and seed.isascii():
        try:
            records = _core.walls(seed, players, hands)
        except ValueError:
            pass  # declined: replay_audit.wall rebuilds it or says why not
        else:
            flipped = wall.seed_format(seed) == wall.FORMAT_HEX
            return [_record_wall(wall.Wall, r, flipped) for r in records]
    result: list[Wall] = wall.walls_from_seed(seed, players, hands=hands)
    return result


def wall_from_init_shuffle(shuffle: str, players: int = 4) -> Wall:
    """``replay_audit.wall.wall_from_init_shuffle``, by the compiled core when it can."""
    wall = _wall_module()
    if _core is not None and shuffle.isascii():
        try:
            record = _core.init_shuffle_wall(shuffle, players)
        except ValueError:
            pass
        else:
            return _record_wall(wall.Wall, record, flipped=True)
    result: Wall = wall.wall_from_init_shuffle(shuffle, players)
    return result


def _record_wall(cls: type[Wall], record: bytes, flipped: bool) -> Wall:
    """A core wall record (tiles in draw order, then the two dice) as a ``Wall``."""
    n = len(record) - 2
    return cls(tuple(record[:n]), (record[n], record[n + 1]), flipped)


# ------------------------------------------------------------------- mjlog reader
#
# ``_core.read_mjlog`` reads an mjlog XML document into columns (src/core/game.hpp
# describes the layout): an events table in document order, and tables per hand, per
# win, per draw, per meld and per final-scores line.  The functions below give those
# columns to people who build data sets (``mjlog_events``, ``mjlog_tables``), and
# build from them the very ``Game`` that ``replay_audit.parsers.tenhou_xml`` builds
# (``game_from_core``, ``read_game``); ``tests/test_core_mjlog.py`` holds the two
# readers equal over the shared corpus.  The core reads the documents Tenhou writes
# and *declines* the rest (returns None): an XML declaration, a DOCTYPE or ENTITY, a
# comment, an entity reference, non-ASCII bytes, unknown tags or attributes, the 2006
# stepless REACH, a truncated document, a value out of its domain, input over the size
# limits.  ``read_game`` then hands the bytes to the Python reader, which reads them
# or raises its own error (``LogFormatError`` and its subclasses), so what the core
# refuses is refused with the Python reader's error and message.

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
"""The ``meld_kind`` codes of the events table (the values of ``replay_audit.meld.MeldKind``)."""
DRAW_KINDS: Final = ("exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4")
"""The ``kind`` codes of the RYUUKYOKU table (as ``RecordedDraw.kind``)."""

_DRAW, _DISCARD, _CALL, _DECLARE, _ACCEPT, _DORA, _BYE, _UN, _AGARI, _RYUUKYOKU = range(10)


def read_mjlog_columns(data: bytes) -> dict[str, Any] | None:
    """The core's columns for one mjlog XML document (bytes, not gzipped), or None
    when the core declines it or is not built.  A dict of dicts of numpy arrays; see
    ``src/core/game.hpp`` for every table and ``mjlog_events`` for a friendlier form."""
    if _core is None:
        return None
    result: dict[str, Any] | None = _core.read_mjlog(bytes(data))
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
    from replay_audit.meld import Meld, MeldKind

    return Meld(MeldKind(MELD_KINDS[kind]), tiles, called, from_seat, added)


def game_from_core(data: bytes, source: str = "<bytes>") -> Game | None:
    """The ``Game`` that ``parse_tenhou_xml(data, source)`` returns, read by the core
    and built from its columns; None if the core declines the document (or is not
    built): then only the Python reader can say what it is."""
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


def read_game(
    path_or_bytes: str | Path | bytes, *, source: str | None = None, max_bytes: int | None = None
) -> Game:
    """One mjlog XML log (a path or bytes, gzipped or not) as a ``Game``, by the core
    when it reads the document, else by ``replay_audit.parsers.tenhou_xml`` (strict),
    which raises its own errors.  The same ``Game`` either way."""
    from replay_audit.parsers.sniff import DEFAULT_MAX_BYTES, gunzip_capped, is_gzip
    from replay_audit.parsers.tenhou_xml import parse_tenhou_xml

    cap = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    if isinstance(path_or_bytes, bytes):
        name = source or "<bytes>"
        data = path_or_bytes
        if is_gzip(data):
            data = gunzip_capped(data, cap, source=name)
        elif len(data) > cap:
            from replay_audit.errors import LimitExceededError

            raise LimitExceededError(f"{len(data)} bytes (limit {cap})", source=name)
    else:
        from replay_audit.io import read_bytes

        name = source or str(path_or_bytes)
        data = read_bytes(path_or_bytes, cap)
    game = game_from_core(data, name)
    return game if game is not None else parse_tenhou_xml(data, name)


# --------------------------------------------------------- the Game from the columns


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


def _build_game(cols: dict[str, Any], source: str) -> Game:
    from replay_audit import events as ev
    from replay_audit.parsers.tenhou_xml import log_id_from_name

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
    hand_events: list[list[ev.Event]] = [[] for _ in range(n_hands)]
    pre_game: list[ev.Event] = []
    new = object.__new__
    set_seq, set_seat, set_tile = _DRAW_SETTERS
    set_dseq, set_dseat, set_dtile, set_tsumogiri = _DISCARD_SETTERS
    Draw, Discard = ev.Draw, ev.Discard
    e = cols["events"]
    current = -2
    append = pre_game.append
    obj: ev.Event
    for hand, seq, kind, seat, tile, tsumogiri, ref in zip(
        e["hand"].tolist(),
        e["seq"].tolist(),
        e["kind"].tolist(),
        e["seat"].tolist(),
        e["tile"].tolist(),
        e["tsumogiri"].tolist(),
        e["ref"].tolist(),
        strict=True,
    ):
        if hand != current:
            current = hand
            append = pre_game.append if hand < 0 else hand_events[hand].append
        if kind == _DRAW:
            obj = new(Draw)
            set_seq(obj, seq)
            set_seat(obj, seat)
            set_tile(obj, tile)
        elif kind == _DISCARD:
            obj = new(Discard)
            set_dseq(obj, seq)
            set_dseat(obj, seat)
            set_dtile(obj, tile)
            set_tsumogiri(obj, tsumogiri == 1)
        elif kind == _CALL:
            obj = ev.Call(seq, seat, melds[ref])
        elif kind == _DECLARE:
            obj = ev.RiichiDeclare(seq, seat)
        elif kind == _ACCEPT:
            obj = ev.RiichiAccept(seq, seat, reach_scores[ref] if ref >= 0 else None)
        elif kind == _DORA:
            obj = ev.NewDora(seq, tile)
        elif kind == _BYE:
            obj = ev.Disconnect(seq, seat)
        elif kind == _UN:
            obj = ev.Reconnect(seq, seat, unquote(strings[ref]))
        elif kind == _AGARI:
            obj = wins[ref]
        else:
            obj = draws[ref]
        append(obj)

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
    from replay_audit.events import RecordedWin

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
    from replay_audit.events import RecordedDraw

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


def _players(g: dict[str, Any]) -> tuple[Player, ...]:
    """The player list as the Python reader builds it from the raw UN values."""
    from replay_audit.events import Player

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


_DRAW_SETTERS: Final = _slot_setters(Draw, ("seq", "seat", "tile"))
_DISCARD_SETTERS: Final = _slot_setters(Discard, ("seq", "seat", "tile", "tsumogiri"))


# ------------------------------------------------------------------ scoring


_VALUE_FIELDS: Final = (
    "han",
    "fu",
    "points",
    "limit",
    "yaku",
    "yakuman",
    "yakuman_count",
    "base",
    "ron_payment",
    "tsumo_dealer_payment",
    "tsumo_other_payment",
    "fu_items",
    "error",
)
"""The ``WinValue`` fields, in the order the core gives them."""


class _Python:
    """The pure-Python scoring functions, bound once on first use (``import
    replay_audit`` stays cheap).  Held here rather than looked up on each call, so a
    caller that swaps ``replay_audit.scoring.hand.score_win`` for this module's
    ``score_win`` (the golden tests run against both engines that way) still falls
    back to the Python code.  ``core`` says whether the core may score: it makes
    ``WinValue`` objects itself, so only while their fields are the ones it knows."""

    score_win: Any = None
    win_deltas: Any = None
    core = False

    @classmethod
    def load(cls) -> type[_Python]:
        if cls.score_win is None:
            from replay_audit.scoring import hand, payments
            from replay_audit.scoring.context import WinValue

            cls.score_win = hand.score_win
            cls.win_deltas = payments.win_deltas
            fields = tuple(f.name for f in dataclasses.fields(WinValue))
            if _core is not None and fields == _VALUE_FIELDS:
                _core.set_value_type(WinValue)
                cls.core = True
        return cls


_RULES: dict[int, tuple[RuleSet, _core.ScoreRules | None]] = {}
"""``id(rules)`` -> (the rules, their core form, or None when the core leaves them to
Python).  Keyed by identity, the entry holding the rules so the id stays theirs, as
``scoring.points`` memoises: hashing a whole ``RuleSet`` costs more than a win."""


def _core_rules(rules: RuleSet) -> _core.ScoreRules | None:
    """The core's form of ``rules``, or None for rules the core leaves to Python."""
    entry = _RULES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    found: _core.ScoreRules | None = None
    if _Python.load().core and rules.scoring == "hanfu":
        from replay_audit.rules import DOUBLE_YAKUMAN_PATTERNS

        try:
            found = _core.ScoreRules(
                players=rules.players,
                aka=rules.aka,
                red_fives=list(rules.red_fives),
                kuitan=rules.kuitan,
                kiriage=rules.kiriage,
                double_wind_fu=rules.double_wind_fu,
                rinshan_tsumo_fu=rules.rinshan_tsumo_fu,
                open_pinfu_fu=rules.open_pinfu_fu,
                renhou=rules.renhou,
                yakuman=rules.yakuman,
                kazoe=rules.kazoe,
                tsumo_loss=rules.tsumo_loss,
                honba_ron=rules.honba_ron,
                honba_tsumo=rules.honba_tsumo,
                riichi_cost=rules.riichi_cost,
                pao_yakuman=list(rules.pao_yakuman),
                pao_scope=rules.pao_scope,
                double_yakuman=list(DOUBLE_YAKUMAN_PATTERNS),
            )
        except (ValueError, TypeError):
            found = None
    if len(_RULES) >= 64:  # many short-lived RuleSets: stay bounded
        _RULES.clear()
    _RULES[id(rules)] = (rules, found)
    return found


def score_win(ctx: WinContext, rules: RuleSet) -> WinValue:
    """``replay_audit.scoring.hand.score_win``, by the compiled core when it can (see
    the module docstring for what goes to Python): the same ``WinValue``."""
    entry = _RULES.get(id(rules))
    core_rules = entry[1] if entry is not None and entry[0] is rules else _core_rules(rules)
    if core_rules is not None:
        value: WinValue | None = _core.score_win_value(ctx, core_rules)
        if value is not None:
            return value
    result: WinValue = _Python.load().score_win(ctx, rules)
    return result


def score_wins(contexts: Sequence[WinContext], rules: RuleSet) -> list[WinValue]:
    """``score_win`` of many wins under one rule set, the core scoring them all in one
    call (``_core.WinBatch``); what it declines is scored one by one in Python."""
    py = _Python.load()
    core_rules = _core_rules(rules)
    if core_rules is None:
        return [py.score_win(ctx, rules) for ctx in contexts]
    batch = _core.WinBatch(core_rules)
    for ctx in contexts:
        batch.add(ctx)
    batch.score()
    return [
        value if value is not None else py.score_win(ctx, rules)
        for ctx, value in zip(contexts, batch.win_values(), strict=True)
    ]


def win_deltas(
    value: WinValue,
    *,
    winner: int,
    from_seat: int,
    dealer: int,
    players: int,
    honba: int,
    sticks: int,
    first_winner: bool,
    pao_seat: int | None,
    rules: RuleSet,
) -> tuple[int, ...]:
    """``replay_audit.scoring.payments.win_deltas``, by the compiled core when it can:
    the same deltas, and the same ``ValueError`` for a seat outside the table."""
    core_rules = _core_rules(rules)
    if core_rules is not None and type(honba) is int and type(sticks) is int:
        try:
            got = _core.win_deltas(
                value,
                winner=winner,
                from_seat=from_seat,
                dealer=dealer,
                players=players,
                honba=honba,
                sticks=sticks,
                first_winner=bool(first_winner),
                pao_seat=pao_seat,
                rules=core_rules,
            )
        except (TypeError, OverflowError):  # not plain ints: Python decides
            got = None
        if got is not None:
            return got
    result: tuple[int, ...] = _Python.load().win_deltas(
        value,
        winner=winner,
        from_seat=from_seat,
        dealer=dealer,
        players=players,
        honba=honba,
        sticks=sticks,
        first_winner=first_winner,
        pao_seat=pao_seat,
        rules=rules,
    )
    return result
