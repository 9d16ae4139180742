"""Chips (祝儀) of Tenhou chip games, computed from the wins and held against the log.

A chip game (GO bits 0x600) pays chips next to the points, and the log keeps
them apart from the points (formats.md §6.11): AGARI ``chip="id,n,..."`` lists
a win's chip items, ``sc`` has 16 values (the last 8 are each seat's chips
before the result and their change), INIT ``chip`` carries the running count
and ``owari`` ends with each seat's final chips and a 0.  The rules, from 13
wins in three logs (``rules.INFERRED_RULES``):

* a win earns 1 chip for ippatsu, 1 per ura dora (kan ura included) and 1
  per red five, open hands too: the han of yaku 2, 53 and 54 the scorer
  computed from the tiles;
* on ron the discarder pays them, on tsumo every other player pays them;
* a draw moves no chip; chips never enter the final points.

A yakuman's chips are not documented: such a win's chip items are accepted
as recorded (a note says so) and only their payment is checked.

>>> chip_deltas(2, winner=1, from_seat=1, players=4)
(-2, 6, -2, -2)
>>> chip_deltas(1, winner=3, from_seat=2, players=4)
(0, 0, -1, 1)

Must not: read files or decide a finding's wording beyond the chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from replay_audit.model.events import Game, HandLog, RecordedDraw, RecordedWin
from replay_audit.scoring.context import WinValue

CHIP_YAKU: tuple[int, ...] = (2, 53, 54)
"""Yaku whose han are paid in chips, one chip each: ippatsu, ura dora, red fives."""

CHIP_VALUES: dict[int, str] = {0x200: "祝２ (2000 points a chip)", 0x400: "祝０ (no points)"}
"""The room's chip value by its GO bits (the Tenhou client); both bits: 祝５ (5000)."""


@dataclass(frozen=True, slots=True)
class ChipFinding:
    """One chip difference (or note), in the auditor's terms."""

    category: str
    field: str
    message: str
    hand: HandLog | None = None
    seq: int | None = None
    seat: int | None = None
    recorded: object = None
    computed: object = None


def win_chips(value: WinValue) -> tuple[tuple[int, int], ...] | None:
    """A win's chip items ``(yaku id, chips)`` from its computed yaku, or ``None``
    for a yakuman (its chips are not documented)."""
    if value.yakuman:
        return None
    return tuple(sorted((i, h) for i, h in value.yaku if i in CHIP_YAKU and h))


def chip_deltas(count: int, *, winner: int, from_seat: int, players: int) -> tuple[int, ...]:
    """The chip changes of a win worth ``count`` chips (four seats): the discarder
    pays on ron, every other player pays on tsumo."""
    deltas = [0, 0, 0, 0]
    payers = [s for s in range(players) if s != winner] if winner == from_seat else [from_seat]
    for s in payers:
        deltas[s] -= count
        deltas[winner] += count
    return tuple(deltas)


def chip_room(go_type: int | None) -> str:
    """The room's chip value as the Tenhou client names it.

    >>> chip_room(0x641), chip_room(0x221)
    ('祝５ (5000 points a chip)', '祝２ (2000 points a chip)')
    """
    bits = (go_type or 0) & 0x600
    return "祝５ (5000 points a chip)" if bits == 0x600 else CHIP_VALUES.get(bits, "no chip bits")


def check_chips(
    game: Game, values: Mapping[int, WinValue | None], players: int
) -> list[ChipFinding]:
    """Every chip record of ``game`` against the chips its wins earn.

    ``values`` maps ``id(RecordedWin)`` to the scorer's value of that win
    (``None`` or missing: not computed).  The running count starts at zero at
    East 1 (an excerpt starts from its first INIT, as recorded); a win whose
    chips cannot be computed leaves it unknown until the next INIT.
    """
    out: list[ChipFinding] = []
    if not any(h.chips is not None or _has_chip_sc(h) for h in game.hands):
        out.append(ChipFinding("info", "chips_unchecked", "a chip game whose log records no chips"))
        return out
    chain: list[int] | None = None
    wins = paid = 0
    for i, hand in enumerate(game.hands):
        if i == 0 and hand.round_index == 0 and hand.honba == 0:
            chain = [0] * players
        if hand.chips is not None:
            if chain is not None:
                _compare(out, "transition", "start_chips", hand, hand.seq, hand.chips, chain,
                         "chips at the start of this hand differ from the chips so far")  # fmt: skip
            chain = list(hand.chips[:players])
        for ev in hand.results:
            if not isinstance(ev, RecordedWin | RecordedDraw):
                continue
            if ev.chips_before is not None and chain is not None:
                _compare(out, "payment", "chips_before", hand, ev.seq, ev.chips_before, chain,
                         "chips before this result differ from the chips so far")  # fmt: skip
            deltas: tuple[int, ...] | None = (0, 0, 0, 0)
            if isinstance(ev, RecordedWin):
                wins += 1
                deltas = _win(out, hand, ev, values.get(id(ev)), players)
                paid += bool(deltas and any(deltas))
            if deltas is None:
                chain = None
                continue
            if ev.chip_deltas is not None:
                _compare(out, "payment", "chip_delta", hand, ev.seq, ev.chip_deltas, deltas,
                         "chips paid at this result differ from the chip rules")  # fmt: skip
            if chain is not None:
                chain = [c + d for c, d in zip(chain, deltas, strict=False)]
    final = dict(game.meta.extra).get("owari.chips")
    if final is not None and chain is not None and game.hands:
        recorded = tuple(int(v) for v in final.split(",")[0::2])
        _compare(out, "final", "final_chips", game.hands[-1], None, recorded, chain,
                 "final chips differ from the chips after the last hand")  # fmt: skip
    out.append(
        ChipFinding(
            "info",
            "chips",
            f"chip game, {chip_room(game.meta.go_type)}: chips audited (ippatsu, ura dora and "
            f"red fives 1 chip each, open hands too: rules generalised from 13 wins, see "
            f"README); {paid} of {wins} wins paid chips; chips are not part of the final points",
        )
    )
    return out


def _has_chip_sc(hand: HandLog) -> bool:
    return any(
        isinstance(r, RecordedWin | RecordedDraw) and r.chip_deltas is not None
        for r in hand.results
    )


def _win(
    out: list[ChipFinding],
    hand: HandLog,
    ev: RecordedWin,
    value: WinValue | None,
    players: int,
) -> tuple[int, ...] | None:
    """The chip changes of one win (``None`` when unknown), its items checked."""
    if value is None or not value.ok:
        return None
    recorded = tuple(sorted(ev.chip or ()))
    items = win_chips(value)
    if items is None:
        out.append(
            ChipFinding(
                "info",
                "chip_unverified",
                "a yakuman in a chip game: how many chips a yakuman earns is not documented, "
                "so its chip items are taken as recorded and only their payment is checked",
                hand,
                ev.seq,
                ev.seat,
                _text(recorded),
            )
        )
        items = recorded
    elif items != recorded:
        out.append(
            ChipFinding(
                "hand_value",
                "chips",
                "recorded chip items differ from the ippatsu, ura and red fives of the hand",
                hand,
                ev.seq,
                ev.seat,
                _text(recorded),
                _text(items),
            )
        )
    count = sum(n for _, n in items)
    return chip_deltas(count, winner=ev.seat, from_seat=ev.from_seat, players=players)


def _compare(
    out: list[ChipFinding],
    category: str,
    field: str,
    hand: HandLog,
    seq: int | None,
    recorded: Sequence[int],
    computed: Sequence[int],
    message: str,
) -> None:
    for s in range(min(len(recorded), len(computed))):
        if recorded[s] != computed[s]:
            out.append(
                ChipFinding(
                    category, field, f"seat {s}: {message}", hand, seq, s, recorded[s], computed[s]
                )
            )


def _text(items: Sequence[tuple[int, int]]) -> str:
    return ",".join(f"{i},{n}" for i, n in items) or "-"
