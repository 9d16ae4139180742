"""The ``Game`` of an mjlog document, built by the compiled reader.

``parse_tenhou_xml`` asks ``game_from_core`` first: the core reads the bytes into its
tables (``columns`` describes them) and, in the same call, makes from them the
players and every event, result and hand of the very ``Game`` the Python reader
(``builder``) builds (``_core.GameBuilder``, given the model's classes once, here);
this module adds the game's meta.  A document the core declines (anything unusual, see
``columns``) is read by the Python reader, which also raises every error.
``tests/test_core_mjlog.py`` holds the two readers equal over the whole shared corpus,
the fixtures, bad inputs and mutated documents.

Must not: read or judge anything the core's tables do not say; decline silently what
the Python reader would refuse (the core declines, then Python refuses with its error).
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar
from urllib.parse import unquote

from replay_audit.model import events as ev
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.native import _core
from replay_audit.parsers.tenhou_xml import limits
from replay_audit.parsers.tenhou_xml.columns import DRAW_KINDS, MELD_KINDS
from replay_audit.parsers.tenhou_xml.values import log_id_from_name

if TYPE_CHECKING:
    from replay_audit._core import GameBuilder

__all__ = ["decode_meld", "game_from_core"]

_V = TypeVar("_V")


def decode_meld(m: int, who: int, *, gari: bool = False) -> Meld | None:
    """``replay_audit.parsers.meld_code.decode_meld`` by the core: the same ``Meld``,
    or None where that raises ``InvalidValueError`` (or without the core)."""
    if _core is None:
        return None
    decoded = _core.decode_meld(m, who, gari)
    if decoded is None:
        return None
    kind, tiles, called, from_seat, added = decoded
    return Meld(_MELD_KINDS[kind], tiles, called, from_seat, added)


def game_from_core(data: bytes, source: str = "<bytes>", *, lazy: bool = False) -> ev.Game | None:
    """The ``Game`` that ``parse_tenhou_xml(data, source)`` returns, read and built by
    the core; None if the core declines the document (or is not built): then only
    the Python reader can say what it is.

    ``lazy`` (the audit's parse, ``auditing.auditor``): each hand's ``events`` a
    ``_core.HandEvents`` rather than a tuple, equal to it item by item, whose draws
    and discards (nine events in ten) are made only when read; the core's readers
    (replay, hand audit, facts) read them without an object each."""
    if _BUILDER is None:  # no core, or one built before GameBuilder: the Python reader
        return None
    # thousands of small acyclic objects: the cyclic GC would only walk them again
    # and again, so it waits (as in the Python reader)
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        built = _BUILDER.build(
            bytes(data), limits.MAX_ELEMENTS, limits.MAX_ATTRIBUTE_LENGTH, lazy=lazy
        )
        if built is None:
            return None
        g, players, pre_game, hands, owari = built
        # every field in order (Game: meta, players, hands, owari, pre_game, warnings,
        # errors), set by the core without the frozen dataclass's __init__
        return _make(ev.Game, _meta(g, source), players, hands, owari, pre_game, (), ())
    finally:
        if paused:
            gc.enable()


def _meta(g: dict[str, Any], source: str) -> ev.GameMeta:
    go_type: int | None = g["go_type"]
    flags = go_type or 0
    return _make(
        ev.GameMeta,
        source,  # source
        log_id_from_name(source),  # log_id
        "tenhou-xml",  # format
        g["players"],  # players
        go_type,  # go_type
        g["lobby"],  # lobby
        None,  # rule_disp
        not flags & 0x02,  # aka
        not flags & 0x04,  # kuitan
        bool(flags & 0x08),  # hanchan
        g["seed"],  # seed
        False,  # stepless_reach
        tuple(g["extra"]),  # extra
    )


class _Make(Protocol):
    def __call__(self, cls: type[_V], /, *fields: object) -> _V: ...


def _py_make(cls: type[_V], /, *fields: object) -> _V:
    """The reference for ``_core.make_value``: the class's own ``__init__``."""
    return cls(*fields)


def _builder() -> GameBuilder | None:
    """The core's builder, given the model's classes; None without the core, or with a
    stale build of it (an editable install not rebuilt since): ``game_from_core`` then
    declines every document, so the Python reader reads it, rather than every audit
    failing.  A class whose fields changed fails here, at import."""
    if _core is None or not hasattr(_core, "GameBuilder"):
        return None
    return _core.GameBuilder(
        draw=ev.Draw,
        discard=ev.Discard,
        call=ev.Call,
        riichi_declare=ev.RiichiDeclare,
        riichi_accept=ev.RiichiAccept,
        new_dora=ev.NewDora,
        disconnect=ev.Disconnect,
        reconnect=ev.Reconnect,
        win=ev.RecordedWin,
        drawn=ev.RecordedDraw,
        owari=ev.Owari,
        hand=ev.HandLog,
        meld=Meld,
        player=ev.Player,
        meld_kinds=_MELD_KINDS,
        draw_kinds=DRAW_KINDS,
        unquote=unquote,
    )


_make: Final[_Make] = (
    getattr(_core, "make_value", None) if _core is not None else None
) or _py_make
"""A value from all its fields in order: the core's ``make_value`` (the Game and its
meta are made once a file), or ``__init__`` without it."""
_MELD_KINDS: Final = tuple(MeldKind(k) for k in MELD_KINDS)
"""The ``MeldKind`` of each meld kind code of the core."""
_BUILDER: Final = _builder()
