"""``score_win``: the value of one winning hand, computed from its tiles and situation.

The orchestration is: read the hand every way it can be read (``decompose``),
find the yaku and fu of each reading (``yaku``, ``fu``), add dora, turn han and
fu into base points and payments (``points``), and keep the reading worth the
most points (then the most han, then the most fu, then the larger unrounded fu sum, so a
ron tile that also fits a run leaves its triplet concealed), as Tenhou does.

Nothing here looks at what a log recorded: the result depends on ``WinContext``
and ``RuleSet`` alone, so the auditor can hold it against the log.

>>> from replay_audit.rules import TENHOU_4P
>>> from replay_audit.tiles import parse_tiles
>>> tiles = tuple(parse_tiles("234m345p456s22678s"))
>>> v = score_win(WinContext(tiles=tiles, melds=(), win_tile=tiles[-1], tsumo=True,
...                          seat=1, dealer=0), TENHOU_4P)
>>> v.han, v.fu, v.points, v.yaku
(3, 20, 2700, ((0, 1), (7, 1), (8, 1)))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay_audit.meld import Meld, MeldKind
from replay_audit.rules import RuleSet
from replay_audit.scoring.context import WinContext, WinValue
from replay_audit.scoring.decompose import RUN, Group, meld_group, shapes
from replay_audit.scoring.fu import fu_items, total_fu
from replay_audit.scoring.points import base_points, pay
from replay_audit.scoring.yaku import AKA, DORA, URA, find_yaku, hand_traits, yakuman_count
from replay_audit.tiles import NUM_KINDS, RED_FIVES, dora_of, parse_tiles

NOT_COMPLETE = "not_complete"
NO_YAKU = "no_yaku"


def _error(code: str) -> WinValue:
    return WinValue(han=0, fu=0, points=0, limit=0, error=code)


def count_dora(
    ctx: WinContext, rules: RuleSet, counts: list[int] | None = None
) -> tuple[int, int, int]:
    """``(dora, ura, aka)`` han of the hand.

    Dora counts every tile, concealed and called; kita tiles count as the
    North they are, so a kita is worth one more per indicator pointing at
    North, on top of its own +1 as nukidora (folded into dora as Tenhou does).
    Ura is counted only for a riichi winner; aka only when the rules have red fives.
    ``counts`` may pass the concealed kind counts already at hand.
    """
    if counts is None:
        counts = [0] * NUM_KINDS
        for t in ctx.tiles:
            counts[t >> 2] += 1
    else:
        counts = list(counts)
    aka = 0
    use_aka = rules.aka > 0
    if use_aka:
        aka = len(RED_FIVES.intersection(ctx.tiles))
    for m in ctx.melds:
        for t in m.tiles:
            counts[t >> 2] += 1
            if use_aka and t in RED_FIVES:
                aka += 1
    players = ctx.players
    dora = ctx.kita
    for t in ctx.dora_indicators:
        dora += counts[dora_of(t >> 2, players)]
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        for t in ctx.ura_indicators:
            ura += counts[dora_of(t >> 2, players)]
    return dora, ura, aka


def score_win(ctx: WinContext, rules: RuleSet) -> WinValue:
    """Score a win; ``WinValue.error`` is ``"not_complete"`` or ``"no_yaku"`` when the
    hand cannot win (then every number is 0)."""
    counts = [0] * NUM_KINDS
    mask = 0
    for t in ctx.tiles:
        k = t >> 2
        counts[k] += 1
        mask |= 1 << k
    win_kind = ctx.win_tile >> 2
    groups: list[Group] = []
    closed = True
    for m in ctx.melds:
        g = meld_group(m)
        if g is not None:
            groups.append(g)
            closed = closed and not g.called
            k = g.kind
            mask |= (7 << k) if g.form == RUN else (1 << k)
    meld_groups = tuple(groups)
    if len(ctx.tiles) + 3 * len(meld_groups) != 14 or counts[win_kind] == 0:
        return _error(NOT_COMPLETE)
    counts_t = tuple(counts)
    readings = shapes(counts_t, win_kind, meld_groups, ctx.tsumo)
    if not readings:
        return _error(NOT_COMPLETE)

    traits = hand_traits(mask, counts_t, win_kind, not ctx.melds)
    dora_han: tuple[int, int, int] | None = None
    riichi = ctx.riichi or ctx.double_riichi
    dealer = ctx.seat == ctx.dealer

    best: tuple[Any, ...] | None = None
    best_key: tuple[int, int, int, int, int] = (-1, -1, -1, -1, -1)
    tsumo = ctx.tsumo
    for shape in readings:
        yaku, ym = find_yaku(shape, ctx, rules, traits, closed)
        items = fu_items(shape, ctx, rules, closed, (7, 1) in yaku)
        fu = total_fu(items)
        if ym:
            ids = tuple(ym)
            count = yakuman_count(ids, rules)
            han = 13 * count
            base, limit = base_points(0, fu, count, rules)
            full: tuple[tuple[int, int], ...] = ()
            real = 1
        else:
            if not yaku:
                continue
            if dora_han is None:
                dora_han = count_dora(ctx, rules, counts)
            dora, ura, aka = dora_han
            han = dora + ura + aka
            for _, h in yaku:
                han += h
            if dora:
                yaku.append((DORA, dora))
            if aka:
                yaku.append((AKA, aka))
            if riichi:
                yaku.append((URA, ura))
            full = tuple(yaku)
            ids = ()
            count = 0
            base, limit = base_points(han, fu, 0, rules)
            real = 0
        payment = pay(base, dealer, tsumo, rules)
        key = (payment.total, real, han, fu, sum(f for _, f in items))
        if key > best_key:
            best_key = key
            best = (han, fu, payment, limit, full, ids, count, base, items)
    if best is None:
        return _error(NO_YAKU)
    han, fu, payment, limit, full, ids, count, base, items = best
    return WinValue(
        han=han,
        fu=fu,
        points=payment.total,
        limit=limit,
        yaku=full,
        yakuman=ids,
        yakuman_count=count,
        base=base,
        ron_payment=payment.ron,
        tsumo_dealer_payment=payment.tsumo_dealer,
        tsumo_other_payment=payment.tsumo_other,
        fu_items=items,
    )


_MELD_KINDS = {
    "chi": MeldKind.CHI,
    "pon": MeldKind.PON,
    "kan": MeldKind.DAIMINKAN,
    "daiminkan": MeldKind.DAIMINKAN,
    "kakan": MeldKind.KAKAN,
    "ankan": MeldKind.ANKAN,
    "kita": MeldKind.KITA,
}


def context_from_notation(
    hand: str, win: str, melds: Sequence[str] = (), **situation: Any
) -> WinContext:
    """A ``WinContext`` from notation, for tests, docs and the command line.

    ``hand`` is the concealed tiles without the winning tile, ``win`` the
    winning tile, ``melds`` strings like ``"pon:555m"``, ``"chi:678s"``,
    ``"ankan:1111z"``, ``"kan:9999p"``, ``"kakan:2222s"``, ``"kita:4z"``.  Tile copies are
    assigned across all strings at once so no id repeats.  Other keyword
    arguments are ``WinContext`` fields (``tsumo``, ``seat``, ``dealer``, ``riichi`` ...);
    ``tsumo`` defaults to False and ``seat``/``dealer`` to 1/0 (a non-dealer).

    >>> ctx = context_from_notation("555p555s22p99s", "2p", melds=["pon:555m"])
    >>> len(ctx.tiles), ctx.melds[0].kind, ctx.closed
    (11, <MeldKind.PON: 'pon'>, False)
    """
    specs = [m.split(":", 1) for m in melds]
    for kind_name, _ in specs:
        if kind_name not in _MELD_KINDS:
            raise ValueError(f"unknown meld kind {kind_name!r}; known: {', '.join(_MELD_KINDS)}")
    all_tiles = parse_tiles("".join(t for _, t in specs) + hand + win)
    out_melds: list[Meld] = []
    pos = 0
    for kind_name, text in specs:
        n = len(parse_tiles(text))
        tiles = tuple(sorted(all_tiles[pos : pos + n]))
        pos += n
        mk = _MELD_KINDS[kind_name]
        called = None if mk in (MeldKind.ANKAN, MeldKind.KITA) else tiles[0]
        src = None if called is None else 0
        out_melds.append(Meld(mk, tiles, called, src, tiles[-1] if mk == MeldKind.KAKAN else None))
    concealed = tuple(all_tiles[pos:])
    situation.setdefault("tsumo", False)
    situation.setdefault("seat", 1)
    situation.setdefault("dealer", 0)
    return WinContext(tiles=concealed, melds=tuple(out_melds), win_tile=concealed[-1], **situation)
