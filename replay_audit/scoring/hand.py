"""``score_win``: the value of one winning hand, computed from its tiles and situation.

The orchestration is: read the hand every way it can be read (``decompose``),
find the yaku and fu of each reading (``yaku``, ``fu``), add dora, turn han and
fu into base points and payments (``points``), and keep the reading worth the
most points (then the most han, then the most fu, then the larger unrounded fu sum, so a
ron tile that also fits a run leaves its triplet concealed), as Tenhou does.

Nothing here looks at what a log recorded: the result depends on ``WinContext``
and ``RuleSet`` alone, so the auditor can hold it against the log.

>>> from replay_audit.model.rules.presets import TENHOU_4P
>>> from replay_audit.model.tiles import parse_tiles
>>> tiles = tuple(parse_tiles("234m345p456s22678s"))
>>> v = score_win(WinContext(tiles=tiles, melds=(), win_tile=tiles[-1], tsumo=True,
...                          seat=1, dealer=0), TENHOU_4P)
>>> v.han, v.fu, v.points, v.yaku
(3, 20, 2700, ((0, 1), (7, 1), (8, 1)))

Must not: read files or events; it scores the context it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import NUM_KINDS, dora_of, parse_tiles
from replay_audit.scoring.context import WinContext, WinValue
from replay_audit.scoring.decompose import (
    KAN,
    RUN,
    TRIPLET,
    WAIT_SHANPON,
    WAIT_TANKI,
    is_chiitoitsu_counts,
    is_kokushi_counts,
    readings_of,
    run_wait,
)
from replay_audit.scoring.fu import CHIITOITSU_ITEMS, FuItems, PonSet, fu_items
from replay_audit.scoring.points import hand_value
from replay_audit.scoring.toutenkou import TOUTENKOU_UNIT, toutenkou_dora_of, toutenkou_points
from replay_audit.scoring.yaku import (
    AKA,
    DORA,
    M_HONORS,
    URA,
    chuuren,
    hand_yaku,
    set_yaku,
    yakuman_count,
)

NOT_COMPLETE = "not_complete"
NO_YAKU = "no_yaku"

Candidate = tuple[list[tuple[int, int]], list[int], FuItems]
"""One way to score the hand: regular yaku ``(id, han)`` sorted by id (empty on a
yakuman hand), yakuman ids sorted, and the fu items."""

_DORA_NEXT: Final = (
    tuple(dora_of(k, 4) for k in range(NUM_KINDS)),
    tuple(dora_of(k, 3) for k in range(NUM_KINDS)),
)
"""Indicator kind -> dora kind, four-player and three-player."""


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
    use_aka = rules.aka > 0
    red = rules.red_fives
    aka = 0
    if use_aka:
        tiles = ctx.tiles
        aka = sum([t in tiles for t in red])
    kita = 0
    if ctx.melds:
        counts = list(counts)
        for m in ctx.melds:
            if m.kind == MeldKind.KITA:
                kita += 1
            for t in m.tiles:
                counts[t >> 2] += 1
                if use_aka and t in red:
                    aka += 1
    following = _DORA_NEXT[ctx.players == 3]
    dora = kita
    for t in ctx.dora_indicators:
        dora += counts[following[t >> 2]]
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        for t in ctx.ura_indicators:
            ura += counts[following[t >> 2]]
    return dora, ura, aka


def _candidates(ctx: WinContext, rules: RuleSet) -> tuple[list[int], list[Candidate], bool] | None:
    """What every scoring mode starts from: the concealed kind counts, every
    candidate (each reading with the winning tile placed in each set it can
    complete), and whether the hand is closed.  ``None`` when the tiles do not
    form a win.

    Calls are read once here into run starts and ``PonSet`` values; the
    reading-independent yaku (``hand_yaku``) are found once and shared by every
    candidate, so the per-reading work is only what a reading changes.
    """
    counts = [0] * NUM_KINDS
    mask = 0
    for t in ctx.tiles:
        k = t >> 2
        counts[k] += 1
        mask |= 1 << k
    win_kind = ctx.win_tile >> 2
    meld_runs: list[int] = []
    meld_pons: list[PonSet] = []
    kans = ankans = 0
    closed = True
    for m in ctx.melds:
        mk = m.kind
        if mk == MeldKind.KITA:
            continue
        if mk == MeldKind.CHI:
            k = min(m.tiles) >> 2
            meld_runs.append(k)
            mask |= 7 << k
            closed = False
            continue
        k = m.tiles[0] >> 2
        mask |= 1 << k
        if mk == MeldKind.PON:
            meld_pons.append((TRIPLET, k, False))
            closed = False
        elif mk == MeldKind.ANKAN:
            meld_pons.append((KAN, k, True))
            kans += 1
            ankans += 1
        else:
            meld_pons.append((KAN, k, False))
            kans += 1
            closed = False
    n_calls = len(meld_runs) + len(meld_pons)
    if len(ctx.tiles) + 3 * n_calls != 14 or counts[win_kind] == 0:
        return None
    hand_list, hand_ym = hand_yaku(ctx, rules, mask, closed)
    out: list[Candidate] = []
    if not n_calls:
        if is_kokushi_counts(counts):
            ym = sorted([*hand_ym, 48 if counts[win_kind] == 2 else 47])
            return counts, [([], ym, ())], closed
        if is_chiitoitsu_counts(counts):
            if hand_ym:
                out.append(([], sorted(hand_ym), CHIITOITSU_ITEMS))
            else:
                out.append((sorted([*hand_list, (22, 2)]), [], CHIITOITSU_ITEMS))
    readings = readings_of(bytes(counts))
    if not readings:
        return (counts, out, closed) if out else None

    tsumo = ctx.tsumo
    rinshan = ctx.rinshan
    seat_kind = 27 + (ctx.seat - ctx.dealer) % ctx.players
    round_kind = 27 + ctx.round_wind
    has_honor = bool(mask & M_HONORS)
    # chuuren is a closed chinitsu with no call at all: test only those.
    chuuren_id = chuuren(counts, win_kind, mask) if (35, 6) in hand_list and not ctx.melds else 0
    meld_pon_kinds = [k for _, k, _ in meld_pons]
    for pair, sets in readings:
        # One pass over the concealed sets: runs, triplets, and each placement of
        # the winning tile as (wait, position in ``pon_sets`` of a ron-completed
        # triplet or -1).  A repeated set gives the same placement, so it is skipped.
        runs = list(meld_runs)
        pons = list(meld_pon_kinds)
        pon_sets: list[PonSet] = []
        placements: list[tuple[str, int]] = [(WAIT_TANKI, -1)] if pair == win_kind else []
        last: tuple[int, int] | None = None
        for fk in sets:
            f, k = fk
            if f == RUN:
                runs.append(k)
                if k <= win_kind <= k + 2 and fk != last:
                    last = fk
                    placements.append((run_wait(k, win_kind), -1))
            else:
                if k == win_kind and fk != last:
                    last = fk
                    placements.append((WAIT_SHANPON, -1 if tsumo else len(pon_sets)))
                pons.append(k)
                pon_sets.append((TRIPLET, k, True))
        n_concealed = len(pon_sets) + ankans
        pon_sets += meld_pons
        for wait, ron_at in placements:
            yaku, ym = set_yaku(
                pair,
                runs,
                pons,
                kans,
                n_concealed - (ron_at >= 0),
                wait,
                seat_kind,
                round_kind,
                closed,
                has_honor,
            )
            if chuuren_id:
                ym.append(chuuren_id)
            pinfu = False
            if hand_ym or ym:
                yaku = []
                ym = sorted(hand_ym + ym)
            else:
                pinfu = (7, 1) in yaku
                yaku = sorted(hand_list + yaku)
            placed = pon_sets
            if ron_at >= 0:
                placed = list(pon_sets)
                placed[ron_at] = (TRIPLET, win_kind, False)
            items = fu_items(
                pair, placed, wait, tsumo, rinshan, seat_kind, round_kind, rules, closed, pinfu
            )
            out.append((yaku, ym, items))
    return counts, out, closed


def score_win(ctx: WinContext, rules: RuleSet) -> WinValue:
    """Score a win; ``WinValue.error`` is ``"not_complete"`` or ``"no_yaku"`` when the
    hand cannot win (then every number is 0).  Rules with ``scoring="toutenkou"``
    count points instead of han and fu (``score_toutenkou``)."""
    if rules.scoring == "toutenkou":
        return score_toutenkou(ctx, rules)
    prepared = _candidates(ctx, rules)
    if prepared is None:
        return _error(NOT_COMPLETE)
    counts, candidates, _ = prepared
    dora_han: tuple[int, int, int] | None = None
    riichi = ctx.riichi or ctx.double_riichi
    dealer = ctx.seat == ctx.dealer
    tsumo = ctx.tsumo

    best: tuple[Any, ...] | None = None
    best_key: tuple[int, int, int, int, int] = (-1, -1, -1, -1, -1)
    for yaku, ym, items in candidates:
        raw = 0
        for _, f in items:
            raw += f
        fu = raw if items is CHIITOITSU_ITEMS else -(-raw // 10) * 10  # as ``total_fu``
        if ym:
            ids = tuple(ym)
            count = yakuman_count(ids, rules)
            han = 13 * count
            base, limit, payment = hand_value(0, fu, count, dealer, tsumo, rules)
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
            base, limit, payment = hand_value(han, fu, 0, dealer, tsumo, rules)
            real = 0
        key = (payment.total, real, han, fu, raw)
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


# ----------------------------------------------------------------- Toutenkou

GARI_KINDS = frozenset((0, 4, 8, 30))
"""1m, 5m, 9m and North: the tiles a Toutenkou player may set aside."""

T_OYA, T_MENZEN, T_RON, T_HONBA, T_MINKAN, T_ANKAN = 55, 56, 57, 58, 59, 60
T_RED_GARI, T_GARI, T_SET, T_KARASU, T_ALL_GARI, T_BANBAN = 61, 62, 63, 64, 65, 66
"""Bonus ids 55-66 in the order the Tenhou client lists them (親 門前 榮和 本場
明槓 暗槓 五 ガリ セット カラス 全ガリ バンバン); ``五`` is read as the extra
point of a set-aside red 5m.  A win's ``yaku`` lists them with their points."""


def _toutenkou_dora(
    ctx: WinContext, counts: list[int], red: tuple[int, ...]
) -> tuple[int, int, int]:
    """``(dora, ura, aka)`` points: every tile, set-aside gari included, counts for
    the indicators (with the manzu quirk, ``toutenkou_dora_of``); red fives
    (``red``) count in the hand and in calls, while a set-aside red 5m is the
    ``五`` bonus instead."""
    all_counts = list(counts)
    aka = len(set(red).intersection(ctx.tiles))
    for m in ctx.melds:
        for t in m.tiles:
            all_counts[t >> 2] += 1
            if m.kind != MeldKind.KITA and t in red:
                aka += 1

    def hits(indicators: tuple[int, ...]) -> int:
        total = 0
        for t in indicators:
            k = toutenkou_dora_of(t >> 2)
            if k is not None:
                total += all_counts[k]
        return total

    ura = hits(ctx.ura_indicators) if ctx.riichi or ctx.double_riichi else 0
    return hits(ctx.dora_indicators), ura, aka


def score_toutenkou(ctx: WinContext, rules: RuleSet) -> WinValue:
    """Score a Toutenkou win in points (seed 002, ``scoring-rules.md`` §15).

    The regular part is the han of the best reading's regular yaku plus its dora,
    ura and red fives (one point each), or 20 per yakuman; bonuses come from
    ``toutenkou_points``.  A hand with no regular yaku cannot win, whatever its
    bonuses.  ``han`` is the points one payer owes, ``fu`` and ``limit`` are 0 (no
    limits), ``yaku`` lists regular yaku, dora and the bonus ids 55-66 with their
    points, and ``points`` is the total won in log units (x ``TOUTENKOU_UNIT``;
    a tsumo collects from both opponents).

    >>> from replay_audit.model.rules.presets import TOUTENKOU
    >>> ctx = context_from_notation("123p456p789s11s44z", "4z", melds=["kita:4z"],
    ...                             seat=1, dealer=0, players=3, gari_seen=True)
    >>> v = score_toutenkou(ctx, TOUTENKOU)
    >>> v.error, v.han, v.points
    ('no_yaku', 0, 0)
    """
    prepared = _candidates(ctx, rules)
    if prepared is None:
        return _error(NOT_COMPLETE)
    counts, candidates, closed = prepared
    best: tuple[int, int, list[tuple[int, int]], list[int]] | None = None
    for yaku, ym, _ in candidates:
        if not yaku and not ym:
            continue
        key = (len(ym), sum(h for _, h in yaku))
        if best is None or key > best[:2]:
            best = (key[0], key[1], yaku, ym)
    if best is None:
        return _error(NO_YAKU)
    _, regular, yaku, ym = best
    items: list[tuple[int, int]] = []
    if ym:
        ids = tuple(ym)
        count = yakuman_count(ids, rules)
        regular = 0
    else:
        ids, count = (), 0
        dora, ura, aka = _toutenkou_dora(ctx, counts, rules.red_fives)
        items.extend(yaku)
        if dora:
            items.append((DORA, dora))
        if aka:
            items.append((AKA, aka))
        if ctx.riichi or ctx.double_riichi:
            items.append((URA, ura))
        regular += dora + ura + aka
    gari_tiles = [m.tiles[0] for m in ctx.melds if m.kind == MeldKind.KITA]
    red_gari = sum(1 for t in gari_tiles if t in rules.red_fives)
    held = list(counts)
    for m in ctx.melds:
        for t in m.tiles:
            held[t >> 2] += 1
    sets = sum(1 for k in GARI_KINDS if held[k] == 4)
    minkan = sum(1 for m in ctx.melds if m.kind in (MeldKind.DAIMINKAN, MeldKind.KAKAN))
    ankan = sum(1 for m in ctx.melds if m.kind == MeldKind.ANKAN)
    ron = not ctx.tsumo
    karasu = not ctx.gari_seen
    all_gari = sets == len(GARI_KINDS)
    dealer = ctx.seat == ctx.dealer
    per_payer = toutenkou_points(
        regular,
        count,
        dealer=dealer,
        menzen=closed,
        honba=ctx.honba,
        gari=len(gari_tiles),
        red_gari=red_gari,
        minkan=minkan,
        ankan=ankan,
        sets=sets,
        ron=ron,
        karasu=karasu,
        all_gari=all_gari,
    )
    bonuses = (
        (T_OYA, int(dealer)),
        (T_MENZEN, int(closed)),
        (T_RON, 8 * int(ron)),
        (T_HONBA, ctx.honba),
        (T_MINKAN, 2 * minkan),
        (T_ANKAN, 4 * ankan),
        (T_RED_GARI, red_gari),
        (T_GARI, len(gari_tiles)),
        (T_SET, 4 * sets),
        (T_KARASU, (20 if closed else 10) * int(karasu)),
        (T_ALL_GARI, 20 * int(all_gari)),
        (T_BANBAN, 2),
    )
    items.extend((i, p) for i, p in bonuses if p)
    payers = 1 if ron else ctx.players - 1
    unit = per_payer * TOUTENKOU_UNIT
    return WinValue(
        han=per_payer,
        fu=0,
        points=unit * payers,
        limit=0,
        yaku=tuple(items),
        yakuman=ids,
        yakuman_count=count,
        base=unit,
        ron_payment=unit if ron else 0,
        tsumo_dealer_payment=0 if ron else unit,
        tsumo_other_payment=0 if ron else unit,
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
