"""Tenhou's ranking arithmetic: lobby pt tables, stable dan, and the R change.

Both are *per game* statistics computed from placements (and the players'
rates), so they live with the statistics rather than with scoring.

**Stable dan (安定段位).** In a Tenhou ranked lobby a game moves a player's
dan points by the lobby's pt for 1st/2nd/3rd, and by a loss on 4th that grows
with the player's dan: ``loss(d) = loss_first_dan + loss_per_dan·(d − 1)`` for
初段 (d = 1) and up.  The stable dan is the dan ``d`` at which the expected pt
of the player's placement rates is zero::

    pt1·n1 + pt2·n2 + pt3·n3 = loss(d)·n4
    d = 1 + ((pt1·n1 + pt2·n2 + pt3·n3) / n4 − loss_first_dan) / loss_per_dan

(a real number: 8.5 means "between 八段 and 九段"; values below 1 are the same
line extended, not Tenhou's kyu tables).  For the Houou hanchan table (90/45/0,
4th −45 at 初段, −15 per dan) this is ``((90·n1 + 45·n2)/n4 − 30)/15``, which
is the same number as the closed form stats.md quotes,
``((60·n1 + 30·n2)/n4 − 20)/10`` (the Houou tonpuusen table, 60/30/0 and −30
−10 per dan): tonpuusen pt are exactly two thirds of hanchan pt, so both
tables give one stable dan.  The tables of the four 4-player lobbies, from the
Tenhou dan tables as summarised at https://mahjong-dora2.com/game/02-07.html
and 02-11.html (hanchan; tonpuusen is two thirds of it):

=========  ============  ==============
lobby      hanchan 1/2   tonpuusen 1/2
=========  ============  ==============
一般 ippan   +30 / +15     +20 / +10
上級 joukyuu +60 / +15     +40 / +10
特上 tokujou +75 / +30     +50 / +20
鳳凰 houou   +90 / +45     +60 / +30
=========  ============  ==============

3rd is 0 everywhere; 4th loses 45 + 15·(d − 1) in hanchan and 30 + 10·(d − 1)
in tonpuusen from 初段 up, in every lobby.  Three-player lobbies have other
tables, not modelled here: their stable dan is NaN.

**R change (レート変動).** After each rated game Tenhou moves R by
``k · (place score + (table average R − own R) / 40)`` with place scores
30/10/−10/−30 (4 players) or 30/0/−30 (3 players), where ``k`` is 0.2 for
players with at least 400 games (Paifu-Logger ``get_rate_change``; stats.md
§1.2).  For fewer games Tenhou uses a larger ``k`` (``1 − 0.002·games``), but
a log does not say how many games a player had, so only the 0.2 form is
computed here: for new accounts it understates the change.

Must not: read events or files; it works on placements and rates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RATE_FACTOR = 0.2
"""``k`` of the R formula for players with 400 games or more."""

RATE_PLACE_SCORES: dict[int, tuple[int, ...]] = {4: (30, 10, -10, -30), 3: (30, 0, -30)}


@dataclass(frozen=True, slots=True)
class PtTable:
    """A ranked lobby's dan-point table: pt for 1st, 2nd, 3rd, and the loss on
    4th at 初段 plus its growth per dan (losses as positive numbers)."""

    name: str
    place_pt: tuple[float, float, float]
    loss_first_dan: float
    loss_per_dan: float

    def loss(self, dan: int) -> float:
        """pt lost on 4th at dan ``dan`` (1 = 初段).

        >>> HOUOU_HANCHAN.loss(1), HOUOU_HANCHAN.loss(10)
        (45.0, 180.0)
        """
        return self.loss_first_dan + self.loss_per_dan * (dan - 1)


def _hanchan(name: str, first: float, second: float) -> PtTable:
    return PtTable(f"{name}-hanchan", (first, second, 0.0), 45.0, 15.0)


def _tonpuu(name: str, first: float, second: float) -> PtTable:
    return PtTable(f"{name}-tonpuu", (first, second, 0.0), 30.0, 10.0)


IPPAN_HANCHAN = _hanchan("ippan", 30, 15)
JOUKYUU_HANCHAN = _hanchan("joukyuu", 60, 15)
TOKUJOU_HANCHAN = _hanchan("tokujou", 75, 30)
HOUOU_HANCHAN = _hanchan("houou", 90, 45)
IPPAN_TONPUU = _tonpuu("ippan", 20, 10)
JOUKYUU_TONPUU = _tonpuu("joukyuu", 40, 10)
TOKUJOU_TONPUU = _tonpuu("tokujou", 50, 20)
HOUOU_TONPUU = _tonpuu("houou", 60, 30)

PT_TABLES: dict[str, PtTable] = {
    t.name: t
    for t in (
        IPPAN_HANCHAN,
        JOUKYUU_HANCHAN,
        TOKUJOU_HANCHAN,
        HOUOU_HANCHAN,
        IPPAN_TONPUU,
        JOUKYUU_TONPUU,
        TOKUJOU_TONPUU,
        HOUOU_TONPUU,
    )
}

DEFAULT_PT_TABLES: dict[str, PtTable] = {
    "tenhou-4p-hanchan": HOUOU_HANCHAN,
    "tenhou-4p-tonpuu": HOUOU_TONPUU,
    **{f"tenhou-4p-{t.name.split('-')[1]}-{t.name.split('-')[0]}": t for t in PT_TABLES.values()},
}
"""Which table a statistics group (its ``game_type``) uses for the stable dan.

Plain ``tenhou-4p-hanchan`` / ``-tonpuu`` groups pool every lobby and use the
Houou table (the corpus is Phoenix games); ``players(by_lobby=True)`` makes
groups such as ``tenhou-4p-hanchan-tokujou`` that use their own lobby's
table.  Any other group (three-player, Mahjong Soul, private lobbies) has no
table and a NaN stable dan."""


def stable_dan(places: Sequence[float], table: PtTable) -> float:
    """The dan at which these placement counts (1st..4th) earn 0 expected pt.

    NaN without any 4th place (no finite answer) or without games.

    >>> stable_dan((3, 4, 3, 3), HOUOU_TONPUU)   # stats.md's worked example: 8
    8.0
    >>> stable_dan((3, 4, 3, 3), HOUOU_HANCHAN)  # same rates, same stable dan
    8.0
    """
    n1, n2, n3, n4 = (float(x) for x in places[:4])
    if not n4 > 0:
        return float("nan")
    gain = table.place_pt[0] * n1 + table.place_pt[1] * n2 + table.place_pt[2] * n3
    return 1.0 + (gain / n4 - table.loss_first_dan) / table.loss_per_dan


def rate_change(place: int, own_rate: float, rates: Sequence[float], players: int) -> float:
    """Tenhou's R change for one game with the 400-games factor 0.2.

    ``rates`` are the R of everyone at the table (own included); the table
    average is their mean.

    >>> round(rate_change(1, 1800.0, (1800.0, 2000.0, 2000.0, 2000.0), 4), 2)
    6.75
    """
    average = sum(rates) / len(rates)
    score = RATE_PLACE_SCORES[players][place - 1]
    return RATE_FACTOR * (score + (average - own_rate) / 40.0)


def lobby_of_go_type(go_type: int | None) -> str | None:
    """Tenhou's ranked lobby from the GO type bits (0x20 上級, 0x80 特上, both
    鳳凰, neither 一般); None without a GO type.

    >>> lobby_of_go_type(0xA9), lobby_of_go_type(0x89), lobby_of_go_type(0x01)
    ('houou', 'tokujou', 'ippan')
    """
    if go_type is None:
        return None
    bits = go_type & 0xA0
    return {0xA0: "houou", 0x80: "tokujou", 0x20: "joukyuu", 0: "ippan"}[bits]


def lobby_of_disp(disp: str | None) -> str | None:
    """The lobby from a tenhou.net/6 ``rule.disp`` string (``四鳳南喰赤`` …).

    >>> lobby_of_disp("四鳳南喰赤"), lobby_of_disp("四般東喰赤"), lobby_of_disp(None)
    ('houou', 'ippan', None)
    """
    text = disp or ""
    for mark, name in (("鳳", "houou"), ("特", "tokujou"), ("上", "joukyuu"), ("般", "ippan")):
        if mark in text:
            return name
    return None
