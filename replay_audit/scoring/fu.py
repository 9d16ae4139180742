"""Fu, item by item, for one reading of a winning hand (Tenhou rules by default).

Items are kept as ``(label, fu)`` pairs rather than a bare total so a win can
be explained the way a player counts it (``20 base + 2 tsumo + 4 + 8 = 34 ->
40``) and so a fu mismatch in an audit points at the item that differs.

>>> from replay_audit.model.rules.presets import TENHOU_4P
>>> total_fu((("base", 20), ("tsumo", 2), ("closed triplet 3m", 4), ("closed triplet 9p", 8)))
40
>>> total_fu((("chiitoitsu", 25),))
25

Must not: find yaku (``yaku``) or turn fu into points (``points``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import DRAGONS, KIND_NAMES, TERMINALS_AND_HONORS
from replay_audit.scoring.decompose import KAN, TRIPLET, WAIT_KANCHAN, WAIT_PENCHAN, WAIT_TANKI

FuItems = tuple[tuple[str, int], ...]

CHIITOITSU_ITEMS: Final[FuItems] = (("chiitoitsu", 25),)
"""Chiitoitsu is a flat 25 fu, never rounded."""

PonSet = tuple[int, int, bool]
"""``(form, kind, concealed)`` of a triplet or kan (``form`` ``TRIPLET`` or ``KAN``)."""

_WAIT_ITEMS: Final = {w: (f"{w} wait", 2) for w in (WAIT_KANCHAN, WAIT_PENCHAN, WAIT_TANKI)}
_PAIR_ITEMS: Final = tuple((f"pair {name}", 2) for name in KIND_NAMES)
"""Shared item tuples: a scored hand keeps its items, so sharing them keeps memory
and garbage-collector work down."""


def set_fu(form: int, kind: int, concealed: bool) -> int:
    """Fu of one triplet or kan: 2, doubled for a terminal or honor, doubled when
    concealed, times four for a kan."""
    fu = 4 if kind in TERMINALS_AND_HONORS else 2
    if concealed:
        fu *= 2
    if form == KAN:
        fu *= 4
    return fu


_SET_ITEMS: Final = {
    (form, kind, concealed): (
        f"{'closed' if concealed else 'open'} {'kan' if form == KAN else 'triplet'} {name}",
        set_fu(form, kind, concealed),
    )
    for form in (TRIPLET, KAN)
    for kind, name in enumerate(KIND_NAMES)
    for concealed in (False, True)
}
"""Every ``PonSet`` -> its fu item (272 entries), so items are lookups, not formatting."""


def pair_fu(pair: int, seat_kind: int, round_kind: int, rules: RuleSet) -> int:
    """Fu of the pair: dragons and the winner's seat or round wind (both: the rules'
    double-wind value)."""
    if pair in DRAGONS:
        return 2
    if pair == seat_kind and pair == round_kind:
        return rules.double_wind_fu
    if pair in (seat_kind, round_kind):
        return 2
    return 0


def fu_items(
    pair: int,
    pon_sets: Sequence[PonSet],
    wait: str,
    tsumo: bool,
    rinshan: bool,
    seat_kind: int,
    round_kind: int,
    rules: RuleSet,
    closed: bool,
    pinfu: bool,
) -> FuItems:
    """The fu items of one regular reading, in the order a player counts them.

    ``pon_sets`` are its triplets and kans, concealed part first, then calls;
    ``pinfu`` says the reading scores pinfu (its tsumo stays at 20 fu).  An open
    hand with nothing but the base gets the rules' open-pinfu value.
    (Chiitoitsu is ``CHIITOITSU_ITEMS``; kokushi has no fu, Tenhou logs 0.)
    """
    items: list[tuple[str, int]] = [("base", 20)]
    if closed and not tsumo:
        items.append(("menzen ron", 10))
    if tsumo and not pinfu:
        items.append(("tsumo", rules.rinshan_tsumo_fu if rinshan else 2))
    wait_item = _WAIT_ITEMS.get(wait)
    if wait_item is not None:
        items.append(wait_item)
    fu = pair_fu(pair, seat_kind, round_kind, rules)
    if fu == 2:
        items.append(_PAIR_ITEMS[pair])
    elif fu:
        items.append((_PAIR_ITEMS[pair][0], fu))
    for pon in pon_sets:
        items.append(_SET_ITEMS[pon])
    if not closed and len(items) == 1:
        items.append(("open pinfu shape", rules.open_pinfu_fu - 20))
    return tuple(items)


def total_fu(items: FuItems) -> int:
    """Sum rounded up to 10 (chiitoitsu's 25 stays 25; no items = 0)."""
    raw = 0
    for _, f in items:
        raw += f
    if raw == 25 and items[0][0] == "chiitoitsu":
        return raw
    return -(-raw // 10) * 10
