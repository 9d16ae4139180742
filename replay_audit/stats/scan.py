"""One pass over a hand's events for the per-(hand, seat) facts.

Nine events in ten are plain draws and discards, which the facts only count; the
scan reduces a hand to what each seat did (``SeatFacts``: riichi, calls, the turn of
its win) and its recorded results, so that ``stats.facts`` only writes rows.  ``py_scan_hand`` is the reference; the compiled core
(``_core.hand_scan``, ``src/core/facts.cpp``) gives the same values for the hands
it takes, and ``tests/test_core_facts.py`` holds the two equal over the shared
corpus and mutated games.  ``CORE_SCAN`` set to ``None`` (a test, an install
without the core) leaves every hand to Python.

Owns ``scan_hand``, ``py_scan_hand`` and ``riichi_wait_kinds``.

Must not: build fact rows (``stats.facts``), read files or aggregate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from replay_audit.model.events import (
    Call,
    Discard,
    Draw,
    HandLog,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.native import _core
from replay_audit.replay.waits import wait_mask


class SeatFacts(NamedTuple):
    """What one seat did in a hand, from its rarer events (named, so that the facts
    read ``discards_taken`` rather than a tuple's ninth item; a tuple still, so the
    core's plain tuples compare equal to it)."""

    riichi_turn: int | None
    """1 + the seat's discards before its first declaration (None: no riichi declared)."""
    riichi_order: int | None
    """1 for the hand's first riichi declaration, 2 for the second..."""
    riichi_waits: int | None
    """The wait kinds after the riichi discard (``riichi_wait_kinds``)."""
    riichi_accepted: bool
    called: bool
    """A call that opens the hand (``Meld.opened``: chi, pon, open or added kan)."""
    closed_kan: bool
    kita: int
    win_turn: int | None
    """1 + its discards before its first recorded win."""
    discards_taken: bool
    """Whether a chi, pon or open kan took one of its discards."""


HandScan = tuple[list[SeatFacts | None], int, list[RecordedWin], list[RecordedDraw], list[str]]
"""A hand scanned: per seat its ``SeatFacts`` (None: no call, riichi or win), the
number of seats that declared riichi, the recorded wins, the recorded draws, and
the dealt tile ids of each seat that has a deal, as hex (the facts' ``dealt``)."""

CORE_SCAN: Callable[..., HandScan | None] | None = (
    getattr(_core, "hand_scan", None) if _core is not None else None
)
"""The core's ``hand_scan`` (None: a stale build, no core, or switched off by a test)."""

_CALLS_THAT_TAKE = (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)
_CLASSES = (Draw, Discard, RiichiDeclare, Call, RiichiAccept, RecordedWin, RecordedDraw, Meld)
_KINDS = tuple(MeldKind)
EVENT_CLASSES = _CLASSES
"""The event classes the core's scan reads, in the order it takes them."""
MELD_KINDS = _KINDS
"""The ``MeldKind`` members, in the order the core's scan takes them."""


def scan_hand(hand: HandLog, n: int) -> HandScan:
    """The scan of ``hand`` for a table of ``n`` seats: the core's when it takes
    the hand, else ``py_scan_hand``'s (the same values)."""
    core = CORE_SCAN
    if core is not None:
        got = core(hand.events, n, hand.haipai, _CLASSES, _KINDS)
        if got is not None:  # the core's seats are plain tuples: named here
            seats = [None if f is None else SeatFacts._make(f) for f in got[0]]
            return seats, got[1], got[2], got[3], got[4]
    return py_scan_hand(hand, n)


def py_scan_hand(hand: HandLog, n: int) -> HandScan:
    """The reference scan (see ``HandScan``).

    A plain loop: draws and discards (nine events in ten) cost an exact type test
    and, for a discard, a count; an exact type test is cheaper than isinstance,
    which only the rarer events get (it narrows their types for mypy)."""
    ndisc = [0] * n  # discards per seat so far
    # per seat that called, declared or won: the SeatFacts fields, in a list
    states: dict[int, list[Any]] = {}
    pending: set[int] = set()  # riichi declared, riichi discard not yet made
    last_discarder: int | None = None
    declared = 0
    wins: list[RecordedWin] = []
    draws: list[RecordedDraw] = []
    for i, ev in enumerate(hand.events):
        t = type(ev)
        if t is Draw:
            continue
        if t is Discard:
            ds: int = ev.seat  # type: ignore[union-attr]  # t is Discard
            if ds < n:
                ndisc[ds] += 1
                if pending and ds in pending:  # the riichi discard: the wait is now fixed
                    pending.discard(ds)
                    states[ds][2] = riichi_wait_kinds(hand, ds, i)
            last_discarder = ds
        elif isinstance(ev, Call):
            if ev.seat >= n:
                continue
            st = _state(states, ev.seat)
            meld = ev.meld
            mk = meld.kind
            if meld.opened:
                st[4] = True
            if mk is MeldKind.ANKAN:
                st[5] = True
            elif mk is MeldKind.KITA:
                st[6] += 1
            if mk in _CALLS_THAT_TAKE:
                taken_from = meld.from_seat if meld.from_seat is not None else last_discarder
                if taken_from is not None and taken_from < n:
                    _state(states, taken_from)[8] = True
        elif isinstance(ev, RiichiDeclare):
            if ev.seat < n:
                st = _state(states, ev.seat)
                if st[0] is None:
                    st[0] = ndisc[ev.seat] + 1
                    declared += 1
                    st[1] = declared
                    pending.add(ev.seat)
        elif isinstance(ev, RiichiAccept):
            if ev.seat < n:
                _state(states, ev.seat)[3] = True
        elif isinstance(ev, RecordedWin):
            if ev.seat < n:
                st = _state(states, ev.seat)
                if st[7] is None:
                    st[7] = ndisc[ev.seat] + 1
            wins.append(ev)
        elif isinstance(ev, RecordedDraw):
            draws.append(ev)
    seats: list[SeatFacts | None] = [None] * n
    for seat, st in states.items():
        if 0 <= seat < n:
            seats[seat] = SeatFacts._make(st)
    dealt = [bytes(tiles).hex() for tiles in hand.haipai[:n]]
    return seats, declared, wins, draws, dealt


def _state(states: dict[int, list[Any]], seat: int) -> list[Any]:
    st = states.get(seat)
    if st is None:
        st = states[seat] = [None, None, None, False, False, False, 0, None, False]
    return st


def riichi_wait_kinds(hand: HandLog, seat: int, stop: int) -> int | None:
    """How many tile kinds ``seat`` waits on once ``hand.events[stop]`` (its riichi
    discard) is made; None when the concealed tiles cannot be rebuilt.

    Only riichi hands need their tiles, so they are rebuilt here, from the deal
    and the seat's own moves, rather than tracked for every seat on every move.
    Waits are counted as Tenhou counts tenpai: a kind the hand holds all four of
    is not a wait.
    """
    if seat >= len(hand.haipai) or len(hand.haipai[seat]) != 13:
        return None
    tiles = list(hand.haipai[seat])
    try:
        # a plain loop with exact type tests: cheaper than filtering the moves in C
        # first, as the seat test is then needed on each move anyway
        for ev in hand.events[: stop + 1]:
            t = type(ev)  # mypy cannot narrow through ``t``, hence the ignores
            if t is Draw:
                if ev.seat == seat:  # type: ignore[union-attr]  # t is Draw
                    tiles.append(ev.tile)  # type: ignore[union-attr]  # t is Draw
            elif t is Discard:
                if ev.seat == seat:  # type: ignore[union-attr]  # t is Discard
                    tiles.remove(ev.tile)  # type: ignore[union-attr]  # t is Discard
            elif t is Call and ev.seat == seat:  # type: ignore[union-attr]  # t is Call
                call: Call = ev  # type: ignore[assignment]  # t is Call
                m = call.meld
                if m.kind is MeldKind.KAKAN:
                    used: Iterable[int] = (m.added,) if m.added is not None else ()
                elif m.kind in _CALLS_THAT_TAKE:
                    used = [x for x in m.tiles if x != m.called]
                else:
                    used = m.tiles
                for x in used:
                    tiles.remove(x)
    except ValueError:  # a move the log does not explain: the replay reports it
        return None
    if len(tiles) % 3 != 1:
        return None
    counts = [0] * 34
    for x in tiles:
        counts[x >> 2] += 1
    return wait_mask(counts).bit_count()
