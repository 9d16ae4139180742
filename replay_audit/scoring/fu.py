"""Fu, item by item, for one reading of a winning hand (Tenhou rules by default).

Items are kept as ``(label, fu)`` pairs rather than a bare total so a win can
be explained the way a player counts it (``20 base + 2 tsumo + 4 + 8 = 34 ->
40``) and so a fu mismatch in an audit points at the item that differs.

>>> from replay_audit.rules import TENHOU_4P
>>> total_fu((("base", 20), ("tsumo", 2), ("closed triplet 3m", 4), ("closed triplet 9p", 8)))
40
>>> total_fu((("chiitoitsu", 25),))
25
"""

from __future__ import annotations

from replay_audit.rules import RuleSet
from replay_audit.scoring.context import WinContext
from replay_audit.scoring.decompose import (
    FORM_CHIITOITSU,
    FORM_KOKUSHI,
    KAN,
    RUN,
    WAIT_KANCHAN,
    WAIT_PENCHAN,
    WAIT_TANKI,
    Shape,
)
from replay_audit.tiles import DRAGONS, KIND_NAMES, TERMINALS_AND_HONORS

FuItems = tuple[tuple[str, int], ...]


def fu_items(shape: Shape, ctx: WinContext, rules: RuleSet, closed: bool, pinfu: bool) -> FuItems:
    """The fu items of ``shape``; ``pinfu`` says the reading scores pinfu (its
    tsumo stays at 20 fu).  Kokushi has no fu (Tenhou logs 0)."""
    if shape.form == FORM_KOKUSHI:
        return ()
    if shape.form == FORM_CHIITOITSU:
        return (("chiitoitsu", 25),)
    items: list[tuple[str, int]] = [("base", 20)]
    if closed and not ctx.tsumo:
        items.append(("menzen ron", 10))
    if ctx.tsumo and not pinfu:
        items.append(("tsumo", rules.rinshan_tsumo_fu if ctx.rinshan else 2))
    if shape.wait in (WAIT_KANCHAN, WAIT_PENCHAN, WAIT_TANKI):
        items.append((f"{shape.wait} wait", 2))
    pair_fu = _pair_fu(shape.pair, ctx, rules)
    if pair_fu:
        items.append((f"pair {KIND_NAMES[shape.pair]}", pair_fu))
    for g in shape.groups:
        if g.form == RUN:
            continue
        fu = 2
        if g.kind in TERMINALS_AND_HONORS:
            fu *= 2
        if g.concealed:
            fu *= 2
        if g.form == KAN:
            fu *= 4
        label = f"{'closed' if g.concealed else 'open'} {'kan' if g.form == KAN else 'triplet'}"
        items.append((f"{label} {KIND_NAMES[g.kind]}", fu))
    if not closed and len(items) == 1:
        items.append(("open pinfu shape", rules.open_pinfu_fu - 20))
    return tuple(items)


def _pair_fu(pair: int, ctx: WinContext, rules: RuleSet) -> int:
    if pair in DRAGONS:
        return 2
    seat = 27 + ctx.seat_wind
    rnd = 27 + ctx.round_wind
    if pair == seat and pair == rnd:
        return rules.double_wind_fu
    if pair in (seat, rnd):
        return 2
    return 0


def total_fu(items: FuItems) -> int:
    """Sum rounded up to 10 (chiitoitsu's 25 stays 25; no items = 0)."""
    raw = 0
    for _, f in items:
        raw += f
    if raw == 25 and items[0][0] == "chiitoitsu":
        return raw
    return -(-raw // 10) * 10
