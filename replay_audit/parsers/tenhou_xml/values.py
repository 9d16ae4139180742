"""Reading attribute values: deals, score lists, owari, legacy riichi; the log id
a file name carries (``log_id_from_name``).

Owns the small pure readers of mjlog values (``_sc``, ``_owari``, ``_pair``,
``_split``), the deal check ``_valid_deal`` and the slot setters of the hot path.

Must not: hold state.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Final

from replay_audit.model.errors import (
    InvalidValueError,
)
from replay_audit.model.events import (
    Discard,
    Draw,
    Event,
    Owari,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.parsers.tenhou_xml.tags import _LOG_ID, _LOG_ID_LAST, _SUFFIXES, _T, _TW

_PLAIN_NAME: Final = re.compile("(" + _LOG_ID.pattern + r")\.xml\.gz")
"""The usual file name, ``<log id>.xml.gz``: its id without the loop of suffixes."""


def _valid_deal(
    raw: tuple[str, ...], dora: int, players: int, valid: frozenset[int]
) -> tuple[tuple[int, ...], ...] | None:
    """The four INIT ``hai`` values as tiles when the whole deal is right (13
    tiles a seat, none in 3-player's fourth seat, every id valid, no id twice,
    the dora indicator included), else None.

    One check over the 53 tiles instead of one per seat: a deal is checked
    on every INIT and is nearly always right, so ``_HandState._deal_error``
    redoes it seat by seat only when it is not (and raises what the first
    failing check says)."""
    try:
        hands = tuple(tuple(map(int, v.split(","))) if v else () for v in raw)
    except ValueError:
        return None
    dealt = [*hands[0], *hands[1], *hands[2], *hands[3], dora]
    if (
        len(dealt) != 13 * players + 1
        or any(len(h) != (13 if seat < players else 0) for seat, h in enumerate(hands))
        or not valid.issuperset(dealt)
        or len(set(dealt)) != len(dealt)
    ):
        return None
    return hands


def _legacy_accepts(events: list[Event], declares: frozenset[int]) -> list[Event]:
    """2006 logs write riichi as one REACH tag.  The stick is placed when the
    declarer's next discard is not ronned: insert ``RiichiAccept(legacy=True)``
    (with the discard's index) right after that discard unless an AGARI follows
    it (formats.md §6.12)."""
    out: list[Event] = []
    declared: set[int] = set()
    after: Discard | None = None
    for event in events:
        if after is not None:
            if not isinstance(event, RecordedWin):
                out.append(RiichiAccept(after.seq, after.seat, None, legacy=True))
            after = None
        out.append(event)
        if isinstance(event, RiichiDeclare) and event.seq in declares:
            declared.add(event.seat)
        elif isinstance(event, Discard) and event.seat in declared:
            declared.discard(event.seat)
            after = event
    if after is not None:
        out.append(RiichiAccept(after.seq, after.seat, None, legacy=True))
    return out


def _slot_setters(
    cls: type, names: tuple[str, ...]
) -> tuple[Callable[[object, object], None], ...]:
    """The slot setters of a frozen slotted event, in field order, so the hot
    loop can fill ``object.__new__(cls)`` without the generated ``__init__``
    (which pays one ``object.__setattr__`` lookup per field).

    Draws and discards are ~90% of all elements: building them this way, in
    the loop itself, costs about 40% less than calling the dataclass (measured
    on the corpus).  It sets the same slots the generated ``__init__`` sets;
    the field names are checked at import so a change to ``model.events`` fails
    loudly instead of leaving a slot unset.
    """
    fields = tuple(f.name for f in dataclasses.fields(cls))
    if fields != names:
        raise ImportError(f"{cls.__name__} fields changed to {fields}; update tenhou_xml")
    return tuple(getattr(cls, n).__set__ for n in names)


_DRAW_SETTERS: Final = _slot_setters(Draw, ("seq", "seat", "tile"))
_DISCARD_SETTERS: Final = _slot_setters(Discard, ("seq", "seat", "tile", "tsumogiri"))


def _bad_value(tag: object, exc: BaseException) -> InvalidValueError:
    if isinstance(exc, KeyError):
        return InvalidValueError(f"<{tag}> lacks the attribute {exc.args[0]!r}")
    return InvalidValueError(f"<{tag}>: bad value ({exc})")


def _split(value: str | None, conv: Callable[[str], _T]) -> list[_T] | None:
    if value is None:
        return None
    return [conv(v) for v in value.split(",")]


def _pair(value: str, what: str) -> tuple[int, int]:
    parts = [int(v) for v in value.split(",")]
    if len(parts) != 2 or min(parts) < 0:
        raise InvalidValueError(f"{what}={value!r}: expected 'honba,sticks'")
    return parts[0], parts[1]


_ScTuple = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None, tuple[int, ...] | None]


def _sc(value: str) -> _ScTuple:
    """``sc`` -> (scores before, deltas) in points, and chips (before, deltas)
    for the 16-value chip-room form (formats.md §6.11)."""
    v = [int(x) for x in value.split(",")]
    if len(v) == 8:
        return tuple(100 * x for x in v[0::2]), tuple(100 * x for x in v[1::2]), None, None
    if len(v) == 16:
        s, c = v[:8], v[8:]
        return (
            tuple(100 * x for x in s[0::2]),
            tuple(100 * x for x in s[1::2]),
            tuple(c[0::2]),
            tuple(c[1::2]),
        )
    raise InvalidValueError(f"sc has {len(v)} values, not 8 (or 16 in chip rooms)")


def _owari(value: str | None) -> tuple[Owari | None, str | None]:
    """``owari`` -> (final scores in points and final values, raw chip part).

    Chip rooms append 8 chip values (final chips and a second column, always 0
    in the corpus); ``Owari`` has no place for them, so they come back raw and
    end up in ``GameMeta.extra`` as ``owari.chips``."""
    if value is None:
        return None, None
    v = value.split(",")
    if len(v) not in (8, 16):
        raise InvalidValueError(f"owari has {len(v)} values, not 8 (or 16 in chip rooms)")
    chips = ",".join(v[8:]) if len(v) == 16 else None
    v = v[:8]
    return Owari(tuple(100 * int(x) for x in v[0::2]), tuple(float(x) for x in v[1::2])), chips


def log_id_from_name(name: str) -> str | None:
    """The Tenhou log id a file name carries, or None.

    >>> log_id_from_name("logs/2019021004gm-00a9-0000-e2f6516d&tw=2.mjlog")
    '2019021004gm-00a9-0000-e2f6516d'
    >>> log_id_from_name("double_ron.2024040112gm-00a9-0000-0123abcd.xml")
    '2024040112gm-00a9-0000-0123abcd'
    >>> log_id_from_name("archives/phoenix-2024.db::2024040112gm-00a9-0000-0123abcd")
    '2024040112gm-00a9-0000-0123abcd'
    >>> log_id_from_name("3p_kita_2024030112gm-00b9-0000-3a7c0f19.xml")
    '2024030112gm-00b9-0000-3a7c0f19'
    >>> log_id_from_name("era2006_20061028gm-0001-0000-1af63a72.xml.gz")
    '20061028gm-0001-0000-1af63a72'
    >>> log_id_from_name("2021061315gm-0641-11000-f25efe24.xml")
    '2021061315gm-0641-11000-f25efe24'
    >>> log_id_from_name("bye.xml.gz") is None
    True
    >>> log_id_from_name("x2024040112gm-00a9-0000-0123abcd.xml") is None  # not a word of its own
    True
    """
    # an archive member (``replay_audit.io.archive``) is named DB::LOG_ID
    # the name past its last separator (either slash) and past its last ``::``, found
    # from the end rather than by splitting the whole path (a copy and two lists)
    base = name[max(name.rfind("/"), name.rfind("\\")) + 1 :]
    member = base.rfind("::")
    if member >= 0:
        base = base[member + 2 :]
    plain = _PLAIN_NAME.fullmatch(base)  # what the loop below finds for it, sooner
    if plain is not None:
        return plain.group(1)
    changed = True
    while changed:
        changed = False
        for suffix in _SUFFIXES:
            if base.lower().endswith(suffix):
                base = base[: -len(suffix)]
                changed = True
        stripped = _TW.sub("", base)
        if stripped != base:
            base, changed = stripped, True
    # a descriptive name may end in the id: "double_ron.2024...-0123abcd.xml",
    # "3p_kita_2024...-3a7c0f19.xml"
    m = _LOG_ID_LAST.search(base)
    return m.group(1) if m else None
