"""Yaku: Tenhou's id table and the detection of every yaku in one hand reading.

The ids are Tenhou's own (0-54, as written in AGARI ``yaku``/``yakuman``), so a
computed list compares directly with a log.  ``YAKU`` is the one table other
modules use (the JSON parser maps ``name_ja`` strings to ids with it).

Detection is split in two because most facts do not depend on the reading:
``hand_yaku`` looks once per hand at the situation (riichi, tsumo ...) and at
which kinds the whole hand holds, as one bit mask (tanyao, flushes, all-honors
...); ``set_yaku`` adds what depends on one reading (sets, pair, wait).  Both
work on plain ints and lists, so scoring a reading builds no objects but its
yaku list.

>>> YAKU[26].name, YAKU[26].han_open, YAKU[35].name_ja
('sanshoku doukou', 2, '清一色')
>>> by_name_ja("自風 東")
10

Must not: compute fu or points, or read events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from replay_audit.model.rules.ruleset import DOUBLE_YAKUMAN_PATTERNS, RuleSet
from replay_audit.model.tiles import DRAGONS, HONORS, TERMINALS, TERMINALS_AND_HONORS, WINDS
from replay_audit.scoring.context import WinContext
from replay_audit.scoring.decompose import WAIT_RYANMEN, WAIT_TANKI


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

TOUTENKOU_BONUSES: Final[dict[int, tuple[str, str]]] = {
    55: ("oya", "親"),
    56: ("menzen", "門前"),
    57: ("ron", "榮和"),
    58: ("honba", "本場"),
    59: ("minkan", "明槓"),
    60: ("ankan", "暗槓"),
    61: ("red gari", "五"),
    62: ("gari", "ガリ"),
    63: ("set", "セット"),
    64: ("karasu", "カラス"),
    65: ("all gari", "全ガリ"),
    66: ("banban", "バンバン"),
}
"""Toutenkou's bonus ids 55-66 (``scoring.hand.T_*``): English and Japanese names.
Kept out of ``YAKU`` because they are points, not yaku, and no log names them."""


def yaku_name(yaku_id: int, *, ja: bool = False) -> str:
    """The name of any id a win's ``yaku`` can list: a yaku, a yakuman, dora, or a
    Toutenkou bonus; an id nobody defined reads ``yaku <id>`` rather than failing,
    because a hostile log may write any number there.

    >>> yaku_name(19), yaku_name(52), yaku_name(66), yaku_name(35, ja=True), yaku_name(99)
    ('hatsu', 'dora', 'banban', '清一色', 'yaku 99')
    """
    info = YAKU.get(yaku_id)
    if info is not None:
        return info.name_ja if ja else info.name
    bonus = TOUTENKOU_BONUSES.get(yaku_id)
    if bonus is not None:
        return bonus[1] if ja else bonus[0]
    return f"yaku {yaku_id}"


def by_name_ja(name: str) -> int | None:
    """The id for a Japanese yaku name as tenhou.net/6 JSON writes it (``None`` if unknown)."""
    return _BY_NAME_JA.get(name)


_GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})
"""2s 3s 4s 6s 8s and hatsu."""


def kind_mask(kinds: Iterable[int]) -> int:
    """Bit ``k`` set for every kind present: the hand-level yaku are mask tests."""
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


M_TERMINALS_HONORS: Final = kind_mask(TERMINALS_AND_HONORS)
M_HONORS: Final = kind_mask(HONORS)
_M_TERMINALS: Final = kind_mask(TERMINALS)
_M_GREEN: Final = kind_mask(_GREEN)
_M_SUITS: Final = (0x1FF, 0x1FF << 9, 0x1FF << 18)
_M_DRAGONS: Final = kind_mask(DRAGONS)
_M_WINDS: Final = kind_mask(WINDS)
_OUTSIDE_RUN: Final = frozenset(k for k in range(27) if k % 9 in (0, 6))
"""Run starts whose run holds a terminal (123 and 789)."""
_ITTSU: Final = (0b1001001, 0b1001001 << 9, 0b1001001 << 18)
"""Run-start bits of 123-456-789 in each suit."""


def yakuman_count(ids: tuple[int, ...], rules: RuleSet) -> int:
    """How many single yakuman ``ids`` are worth under ``rules.yakuman``.

    >>> from replay_audit.model.rules.presets import TENHOU_4P, MAJSOUL_4P
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


def hand_yaku(
    ctx: WinContext, rules: RuleSet, mask: int, closed: bool
) -> tuple[list[tuple[int, int]], list[int]]:
    """Yaku ``(id, han)`` and yakuman ids that every reading of the hand shares.

    ``mask`` is the ``kind_mask`` of every tile (hand and calls).  These are the
    situational yaku (riichi, menzen tsumo, ippatsu ...) and the ones decided by
    which kinds the hand holds (tanyao, honroutou, flushes; all-honors, all-green
    and all-terminals yakuman).  Computed once per hand, not once per reading.

    >>> from replay_audit.model.rules.presets import TENHOU_4P
    >>> from replay_audit.model.tiles import parse_tiles
    >>> ctx = WinContext(tiles=(), melds=(), win_tile=0, tsumo=True, seat=0, dealer=0,
    ...                  riichi=True)
    >>> hand_yaku(ctx, TENHOU_4P, kind_mask(t >> 2 for t in parse_tiles("234567m")), True)
    ([(0, 1), (1, 1), (8, 1), (35, 6)], [])
    """
    yakuman: list[int] = []
    if ctx.tenhou:
        yakuman.append(37)
    if ctx.chiihou:
        yakuman.append(38)
    if ctx.renhou and rules.renhou == "yakuman":
        yakuman.append(36)
    if not mask & ~M_HONORS:
        yakuman.append(42)
    if not mask & ~_M_GREEN:
        yakuman.append(43)
    if not mask & ~_M_TERMINALS:
        yakuman.append(44)

    yaku: list[tuple[int, int]] = []
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
    if not mask & M_TERMINALS_HONORS:
        if closed or rules.kuitan:
            yaku.append((8, 1))
    elif not mask & ~M_TERMINALS_HONORS and mask & ~_M_TERMINALS:
        yaku.append((31, 2))
    suits = (mask & 0x1FF != 0) + (mask & (0x1FF << 9) != 0) + (mask & (0x1FF << 18) != 0)
    if suits == 1:
        if mask & M_HONORS:
            yaku.append((34, 3 if closed else 2))
        else:
            yaku.append((35, 6 if closed else 5))
    return yaku, yakuman


def chuuren(concealed: Sequence[int], win_kind: int, mask: int) -> int:
    """0, or 45 (chuuren poutou) / 46 (junsei, the nine-sided wait) for a hand with
    no call at all (not even an ankan) whose ``mask`` is one suit.
    ``concealed`` holds the 34 kind counts with the winning tile."""
    lo = 0 if mask & 0x1FF else 9 if mask & (0x1FF << 9) else 18
    if mask & ~_M_SUITS[lo // 9]:
        return 0
    c = concealed[lo : lo + 9]
    if c[0] < 3 or c[8] < 3 or not all(c[i] for i in range(1, 8)):
        return 0
    rest = list(c)
    rest[win_kind - lo] -= 1
    return 46 if rest == [3, 1, 1, 1, 1, 1, 1, 1, 3] else 45


def set_yaku(
    pair: int,
    runs: list[int],
    pons: list[int],
    kans: int,
    concealed_pons: int,
    wait: str,
    seat_kind: int,
    round_kind: int,
    closed: bool,
    has_honor: bool,
) -> tuple[list[tuple[int, int]], list[int]]:
    """Yaku and yakuman of one regular reading that depend on its sets and wait.

    ``runs`` are the start kinds of every run and ``pons`` the kinds of every
    triplet or kan (concealed and called); ``concealed_pons`` counts the
    concealed ones (a triplet completed by ron is not); ``kans`` counts kans.
    ``seat_kind``/``round_kind`` are the winner's wind kinds (27-30).
    Yakuman found here make the regular list empty.

    >>> set_yaku(0, [1, 10, 19], [31], 0, 1, "ryanmen", 27, 27, False, True)
    ([(18, 1), (25, 1)], [])
    """
    yaku: list[tuple[int, int]] = []
    yakuman: list[int] = []
    pon_bits = 0
    for k in pons:
        pon_bits |= 1 << k
    dragons = (pon_bits & _M_DRAGONS).bit_count()
    winds = (pon_bits & _M_WINDS).bit_count()
    if dragons == 3:
        yakuman.append(39)
    if concealed_pons == 4:
        yakuman.append(41 if wait == WAIT_TANKI else 40)
    if winds == 4:
        yakuman.append(49)
    elif winds == 3 and pair in WINDS:
        yakuman.append(50)
    if kans == 4:
        yakuman.append(51)
    if yakuman:
        return yaku, yakuman

    if closed:
        if (
            not pons
            and wait == WAIT_RYANMEN
            and pair not in DRAGONS
            and pair != seat_kind
            and pair != round_kind
        ):
            yaku.append((7, 1))
        if len(runs) >= 2 and len(set(runs)) < len(runs):  # some run repeats
            peiko = 0
            ordered = sorted(runs)
            i = 0
            while i + 1 < len(ordered):
                if ordered[i] == ordered[i + 1]:
                    peiko += 1
                    i += 2
                else:
                    i += 1
            if peiko >= 2:
                yaku.append((32, 3))
            elif peiko == 1:
                yaku.append((9, 1))
    if pon_bits & M_HONORS:
        for k in pons:
            if k == seat_kind:
                yaku.append((k - 17, 1))
            if k == round_kind:
                yaku.append((k - 13, 1))
            if k > 30:
                yaku.append((k - 13, 1))
    if runs:
        if (
            pair in TERMINALS_AND_HONORS
            and all(k in _OUTSIDE_RUN for k in runs)
            and not pon_bits & ~M_TERMINALS_HONORS
        ):
            if has_honor:
                yaku.append((23, 2 if closed else 1))
            else:
                yaku.append((33, 3 if closed else 2))
        run_bits = 0
        for k in runs:
            run_bits |= 1 << k
        for ittsu in _ITTSU:
            if run_bits & ittsu == ittsu:
                yaku.append((24, 2 if closed else 1))
                break
        if run_bits & (run_bits >> 9) & (run_bits >> 18) & 0x7F:
            yaku.append((25, 2 if closed else 1))
    else:
        yaku.append((28, 2))
    if pon_bits & (pon_bits >> 9) & (pon_bits >> 18) & 0x1FF:
        yaku.append((26, 2))
    if kans == 3:
        yaku.append((27, 2))
    if concealed_pons == 3:
        yaku.append((29, 2))
    if dragons == 2 and pair in DRAGONS:
        yaku.append((30, 2))
    return yaku, yakuman
