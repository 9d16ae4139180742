"""Yaku: Tenhou's id table and the detection of every yaku in one hand reading.

The ids are Tenhou's own (0-54, as written in AGARI ``yaku``/``yakuman``), so a
computed list compares directly with a log.  ``YAKU`` is the one table other
modules use (the JSON parser maps ``name_ja`` strings to ids with it).

Detection is split in two because most facts do not depend on the reading:
``hand_traits`` looks once at which kinds the whole hand holds (tanyao, flushes,
all-honors ...), and ``find_yaku`` adds what depends on one ``Shape`` (sets,
pair, wait) and on the situation in the ``WinContext``.

>>> YAKU[26].name, YAKU[26].han_open, YAKU[35].name_ja
('sanshoku doukou', 2, '清一色')
>>> by_name_ja("自風 東")
10
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from replay_audit.rules import DOUBLE_YAKUMAN_PATTERNS, RuleSet
from replay_audit.scoring.context import WinContext
from replay_audit.scoring.decompose import (
    FORM_CHIITOITSU,
    FORM_KOKUSHI,
    KAN,
    RUN,
    WAIT_KOKUSHI13,
    WAIT_RYANMEN,
    WAIT_TANKI,
    Shape,
)
from replay_audit.tiles import DRAGONS, HONORS, TERMINALS, TERMINALS_AND_HONORS, WINDS


@dataclass(frozen=True, slots=True)
class YakuInfo:
    """One Tenhou yaku id: names and han (``han_open`` 0 = closed only).
    Yakuman carry 13/13 and ``yakuman=True``; bonus ids (dora, ura, aka) carry 1/1."""

    id: int
    name: str
    name_ja: str
    han_closed: int
    han_open: int
    yakuman: bool = False


_TABLE: Final = (
    (0, "menzen tsumo", "門前清自摸和", 1, 0),
    (1, "riichi", "立直", 1, 0),
    (2, "ippatsu", "一発", 1, 0),
    (3, "chankan", "槍槓", 1, 1),
    (4, "rinshan kaihou", "嶺上開花", 1, 1),
    (5, "haitei raoyue", "海底摸月", 1, 1),
    (6, "houtei raoyui", "河底撈魚", 1, 1),
    (7, "pinfu", "平和", 1, 0),
    (8, "tanyao", "断幺九", 1, 1),
    (9, "iipeikou", "一盃口", 1, 0),
    (10, "seat wind east", "自風 東", 1, 1),
    (11, "seat wind south", "自風 南", 1, 1),
    (12, "seat wind west", "自風 西", 1, 1),
    (13, "seat wind north", "自風 北", 1, 1),
    (14, "round wind east", "場風 東", 1, 1),
    (15, "round wind south", "場風 南", 1, 1),
    (16, "round wind west", "場風 西", 1, 1),
    (17, "round wind north", "場風 北", 1, 1),
    (18, "haku", "役牌 白", 1, 1),
    (19, "hatsu", "役牌 發", 1, 1),
    (20, "chun", "役牌 中", 1, 1),
    (21, "double riichi", "両立直", 2, 0),
    (22, "chiitoitsu", "七対子", 2, 0),
    (23, "chanta", "混全帯幺九", 2, 1),
    (24, "ittsu", "一気通貫", 2, 1),
    (25, "sanshoku doujun", "三色同順", 2, 1),
    (26, "sanshoku doukou", "三色同刻", 2, 2),
    (27, "sankantsu", "三槓子", 2, 2),
    (28, "toitoi", "対々和", 2, 2),
    (29, "sanankou", "三暗刻", 2, 2),
    (30, "shousangen", "小三元", 2, 2),
    (31, "honroutou", "混老頭", 2, 2),
    (32, "ryanpeikou", "二盃口", 3, 0),
    (33, "junchan", "純全帯幺九", 3, 2),
    (34, "honitsu", "混一色", 3, 2),
    (35, "chinitsu", "清一色", 6, 5),
)
_YAKUMAN_TABLE: Final = (
    (36, "renhou", "人和", 13, 0),
    (37, "tenhou", "天和", 13, 0),
    (38, "chiihou", "地和", 13, 0),
    (39, "daisangen", "大三元", 13, 13),
    (40, "suuankou", "四暗刻", 13, 0),
    (41, "suuankou tanki", "四暗刻単騎", 13, 0),
    (42, "tsuuiisou", "字一色", 13, 13),
    (43, "ryuuiisou", "緑一色", 13, 13),
    (44, "chinroutou", "清老頭", 13, 13),
    (45, "chuuren poutou", "九蓮宝燈", 13, 0),
    (46, "junsei chuuren poutou", "純正九蓮宝燈", 13, 0),
    (47, "kokushi musou", "国士無双", 13, 0),
    (48, "kokushi musou 13-sided", "国士無双１３面", 13, 0),
    (49, "daisuushii", "大四喜", 13, 13),
    (50, "shousuushii", "小四喜", 13, 13),
    (51, "suukantsu", "四槓子", 13, 13),
)
_BONUS_TABLE: Final = (
    (52, "dora", "ドラ", 1, 1),
    (53, "ura dora", "裏ドラ", 1, 1),
    (54, "aka dora", "赤ドラ", 1, 1),
)

YAKU: Final[dict[int, YakuInfo]] = {
    **{i: YakuInfo(i, n, j, c, o) for i, n, j, c, o in _TABLE},
    **{i: YakuInfo(i, n, j, c, o, True) for i, n, j, c, o in _YAKUMAN_TABLE},
    **{i: YakuInfo(i, n, j, c, o) for i, n, j, c, o in _BONUS_TABLE},
}
"""Tenhou yaku id -> names and han."""

DORA: Final = 52
URA: Final = 53
AKA: Final = 54

_BY_NAME_JA: Final = {info.name_ja: i for i, info in YAKU.items()}


def by_name_ja(name: str) -> int | None:
    """The id for a Japanese yaku name as tenhou.net/6 JSON writes it (``None`` if unknown)."""
    return _BY_NAME_JA.get(name)


_GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})
"""2s 3s 4s 6s 8s and hatsu."""


@dataclass(frozen=True, slots=True)
class HandTraits:
    """Facts about the whole hand that do not depend on how it is read."""

    all_simples: bool
    all_honors: bool
    all_terminals: bool
    all_terminals_or_honors: bool
    all_green: bool
    suits: int
    """How many of man/pin/sou appear."""
    has_honor: bool
    chuuren: int
    """0 none, 45 chuuren, 46 junsei chuuren."""


def _mask(kinds: frozenset[int]) -> int:
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


_M_TERMINALS_HONORS: Final = _mask(TERMINALS_AND_HONORS)
_M_HONORS: Final = _mask(HONORS)
_M_TERMINALS: Final = _mask(TERMINALS)
_M_GREEN: Final = _mask(_GREEN)
_M_SUITS: Final = (0x1FF, 0x1FF << 9, 0x1FF << 18)


def kind_mask(kinds: Iterable[int]) -> int:
    """Bit ``k`` set for every kind present: the hand-level traits are mask tests."""
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


def hand_traits(mask: int, concealed: tuple[int, ...], win_kind: int, no_melds: bool) -> HandTraits:
    """Traits from the kinds of every tile (hand and melds, as a ``kind_mask``) and,
    for chuuren, the concealed counts (chuuren needs a hand with no call at all,
    not even an ankan)."""
    traits = _mask_traits(mask)
    if no_melds and traits.suits == 1 and not traits.has_honor:
        lo = 9 * next(i for i, m in enumerate(_M_SUITS) if mask & m)
        c = concealed[lo : lo + 9]
        if c[0] >= 3 and c[8] >= 3 and all(c[i] >= 1 for i in range(1, 8)):
            rest = list(c)
            rest[win_kind - lo] -= 1
            chuuren = 46 if rest == [3, 1, 1, 1, 1, 1, 1, 1, 3] else 45
            return dataclasses.replace(traits, chuuren=chuuren)
    return traits


def _mask_traits(mask: int) -> HandTraits:
    return HandTraits(
        all_simples=not mask & _M_TERMINALS_HONORS,
        all_honors=not mask & ~_M_HONORS,
        all_terminals=not mask & ~_M_TERMINALS,
        all_terminals_or_honors=not mask & ~_M_TERMINALS_HONORS,
        all_green=not mask & ~_M_GREEN,
        suits=sum(1 for m in _M_SUITS if mask & m),
        has_honor=bool(mask & _M_HONORS),
        chuuren=0,
    )


def yakuman_count(ids: tuple[int, ...], rules: RuleSet) -> int:
    """How many single yakuman ``ids`` are worth under ``rules.yakuman``.

    >>> from replay_audit.rules import TENHOU_4P, MAJSOUL_4P
    >>> yakuman_count((41, 39, 42), TENHOU_4P), yakuman_count((41, 39, 42), MAJSOUL_4P)
    (3, 4)
    """
    if not ids:
        return 0
    if rules.yakuman == "single":
        return 1
    if rules.yakuman == "full":
        return sum(2 if i in DOUBLE_YAKUMAN_PATTERNS else 1 for i in ids)
    return len(ids)


def _han(yid: int, closed: bool) -> int:
    info = YAKU[yid]
    return info.han_closed if closed else info.han_open


def find_yaku(
    shape: Shape, ctx: WinContext, rules: RuleSet, traits: HandTraits, closed: bool
) -> tuple[list[tuple[int, int]], list[int]]:
    """Regular yaku ``(id, han)`` (without dora) and yakuman ids of one reading.

    When any yakuman is found the regular list is returned empty: Tenhou drops
    regular yaku on a yakuman hand.
    """
    yakuman: list[int] = []
    if ctx.tenhou:
        yakuman.append(37)
    if ctx.chiihou:
        yakuman.append(38)
    if ctx.renhou and rules.renhou == "yakuman":
        yakuman.append(36)
    if traits.all_honors:
        yakuman.append(42)
    if traits.all_green:
        yakuman.append(43)
    if traits.all_terminals:
        yakuman.append(44)

    if shape.form == FORM_KOKUSHI:
        yakuman.append(48 if shape.wait == WAIT_KOKUSHI13 else 47)
        return [], sorted(yakuman)

    yaku: list[tuple[int, int]] = []
    if shape.form == FORM_CHIITOITSU:
        if yakuman:
            return [], sorted(yakuman)
        yaku.append((22, 2))
    else:
        _regular_yaku(shape, ctx, traits, closed, yaku, yakuman)
        if yakuman:
            return [], sorted(yakuman)

    # situational yaku
    if closed and ctx.tsumo:
        yaku.append((0, 1))
    if ctx.double_riichi:
        yaku.append((21, 2))
    elif ctx.riichi:
        yaku.append((1, 1))
    if ctx.ippatsu:
        yaku.append((2, 1))
    if ctx.chankan:
        yaku.append((3, 1))
    if ctx.rinshan:
        yaku.append((4, 1))
    if ctx.haitei:
        yaku.append((5, 1))
    if ctx.houtei:
        yaku.append((6, 1))
    if ctx.renhou and rules.renhou == "mangan":
        yaku.append((36, 5))
    # tile-set yaku
    if traits.all_simples and (closed or rules.kuitan):
        yaku.append((8, 1))
    if traits.all_terminals_or_honors and not traits.all_terminals:
        yaku.append((31, 2))
    if traits.suits == 1:
        if traits.has_honor:
            yaku.append((34, _han(34, closed)))
        else:
            yaku.append((35, _han(35, closed)))
    yaku.sort()
    return yaku, []


def _regular_yaku(
    shape: Shape,
    ctx: WinContext,
    traits: HandTraits,
    closed: bool,
    yaku: list[tuple[int, int]],
    yakuman: list[int],
) -> None:
    """Yaku that depend on the sets and pair of a regular reading."""
    groups = shape.groups
    pair = shape.pair
    seat_wind = 27 + ctx.seat_wind
    round_wind = 27 + ctx.round_wind
    runs: list[int] = []
    pons: list[int] = []
    kans = 0
    concealed_pons = 0
    for g in groups:
        if g.form == RUN:
            runs.append(g.kind)
        else:
            pons.append(g.kind)
            if g.form == KAN:
                kans += 1
            if g.concealed:
                concealed_pons += 1

    # yakuman
    dragons = sum(1 for k in pons if k in DRAGONS)
    winds = sum(1 for k in pons if k in WINDS)
    if dragons == 3:
        yakuman.append(39)
    if concealed_pons == 4:
        yakuman.append(41 if shape.wait == WAIT_TANKI else 40)
    if winds == 4:
        yakuman.append(49)
    elif winds == 3 and pair in WINDS:
        yakuman.append(50)
    if kans == 4:
        yakuman.append(51)
    if traits.chuuren:
        yakuman.append(traits.chuuren)
    if yakuman:
        return

    if (
        closed
        and not pons
        and shape.wait == WAIT_RYANMEN
        and pair not in DRAGONS
        and pair != seat_wind
        and pair != round_wind
    ):
        yaku.append((7, 1))
    if closed and len(runs) >= 2:
        seen: dict[int, int] = {}
        for k in runs:
            seen[k] = seen.get(k, 0) + 1
        peiko = sum(c // 2 for c in seen.values())
        if peiko >= 2:
            yaku.append((32, 3))
        elif peiko == 1:
            yaku.append((9, 1))
    for k in pons:
        if k == seat_wind:
            yaku.append((10 + k - 27, 1))
        if k == round_wind:
            yaku.append((14 + k - 27, 1))
        if k in DRAGONS:
            yaku.append((18 + k - 31, 1))
    if runs:
        outside = pair in TERMINALS_AND_HONORS and all(k % 9 in (0, 6) for k in runs)
        if outside and all(k in TERMINALS_AND_HONORS for k in pons):
            if traits.has_honor:
                yaku.append((23, _han(23, closed)))
            else:
                yaku.append((33, _han(33, closed)))
        run_set = set(runs)
        for lo in (0, 9, 18):
            if lo in run_set and lo + 3 in run_set and lo + 6 in run_set:
                yaku.append((24, _han(24, closed)))
                break
        for k in run_set:
            if k < 7 and k + 9 in run_set and k + 18 in run_set:
                yaku.append((25, _han(25, closed)))
                break
    else:
        yaku.append((28, 2))
    if len(pons) >= 3:
        pon_set = set(pons)
        for k in pon_set:
            if k < 9 and k + 9 in pon_set and k + 18 in pon_set:
                yaku.append((26, 2))
                break
    if kans == 3:
        yaku.append((27, 2))
    if concealed_pons == 3:
        yaku.append((29, 2))
    if dragons == 2 and pair in DRAGONS:
        yaku.append((30, 2))
