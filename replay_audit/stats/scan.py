"""One pass over a hand's events for the per-(hand, seat) facts.

Nine events in ten are plain draws and discards, which the facts only count; the
scan reduces a hand to its other events, each with what the facts need to know of
the draws and discards before it, so that ``stats.facts`` looks at about one event
in ten.  ``py_scan_hand`` is the reference; the compiled core
(``_core.hand_scan``, ``src/core/facts.cpp``) gives the same entries for the hands
it takes, and ``tests/test_core_facts.py`` holds the two equal over the shared
corpus and mutated games.  ``CORE_SCAN`` set to ``None`` (a test, an install
without the core) leaves every hand to Python.

Owns ``scan_hand``, ``py_scan_hand`` and ``riichi_wait_kinds``.

Must not: build fact rows (``stats.facts``), read files or aggregate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from replay_audit.model.events import Call, Discard, Draw, HandLog, RiichiDeclare
from replay_audit.model.meld import MeldKind
from replay_audit.native import _core
from replay_audit.replay.waits import riichi_wait_mask

Entry = tuple[int, int | None, tuple[int, ...] | None]
"""One entry of a scan, in event order.  For an event that is neither an exact
``Draw`` nor an exact ``Discard``: ``(index, last discarder or None, discards per
seat before it)``.  For a riichi discard (a seat's first discard after its first
declaration): ``(index, wait kinds after it or None, None)``."""

CORE_SCAN: Callable[..., list[Entry] | None] | None = (
    getattr(_core, "hand_scan", None) if _core is not None else None
)
"""The core's ``hand_scan`` (None: a stale build, no core, or switched off by a test)."""

_CALLS_THAT_TAKE = (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)


def scan_hand(hand: HandLog, n: int) -> list[Entry]:
    """The scan of ``hand`` for a table of ``n`` seats: the core's when it takes
    the hand, else ``py_scan_hand``'s (the same entries)."""
    core = CORE_SCAN
    if core is not None:
        entries = core(hand.events, n, hand.haipai, Draw, Discard, RiichiDeclare, Call)
        if entries is not None:
            return entries
    return py_scan_hand(hand, n)


def py_scan_hand(hand: HandLog, n: int) -> list[Entry]:
    """The reference scan (see ``Entry``).

    A plain loop: draws and discards cost an exact type test and, for a discard,
    a count; riichi discards are found here because the wait is fixed by them."""
    ndisc = [0] * n  # discards per seat so far
    declared: set[int] = set()
    pending: set[int] = set()  # riichi declared, riichi discard not yet made
    last_discarder: int | None = None
    entries: list[Entry] = []
    for i, ev in enumerate(hand.events):
        t = type(ev)
        if t is Draw:
            continue
        if t is Discard:
            ds: int = ev.seat  # type: ignore[union-attr]  # t is Discard
            if ds < n:
                ndisc[ds] += 1
                if pending and ds in pending:
                    pending.discard(ds)
                    entries.append((i, riichi_wait_kinds(hand, ds, i), None))
            last_discarder = ds
            continue
        if isinstance(ev, RiichiDeclare):
            seat = ev.seat
            if seat < n and seat not in declared:
                declared.add(seat)
                pending.add(seat)
        entries.append((i, last_discarder, tuple(ndisc)))
    return entries


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
    return riichi_wait_mask(counts).bit_count()
