"""Toutenkou (東天紅): points instead of han and fu, and its payments.

Tenhou's Toutenkou is a three-player COM-match variant (GO bit 0x800) with
1m/5m/9m as the only manzu and 1m/5m/9m/North as *gari* (set aside like
kita).  A hand is worth points: the han of its regular yaku (a win needs at
least one), or 20 per yakuman, plus bonuses that every win can collect
(seed 002, scoring-rules.md §15).  No Toutenkou log is in the corpus, so
everything here follows the rule text only:

=============  ==========================================================
banban         +2 on every win
oya            +1 for the dealer
menzen         +1 for a concealed hand
honba          +1 per honba (honba are paid inside the hand, not on top)
gari           +1 per gari set aside; a set-aside 0m counts 2 (also red)
minkan/ankan   +2 / +4 each
set            +4 per complete set of one gari kind (stacks with gari)
ron            +8 (ron is paid by one opponent, tsumo by each of two)
karasu         no gari anywhere: +10 open, +20 closed
all gari       +20 (stacks with gari)
=============  ==========================================================

>>> toutenkou_points(1, 0, dealer=False, menzen=True, honba=0, gari=0, red_gari=0,
...                  minkan=0, ankan=0, sets=0, ron=True, karasu=False, all_gari=False)
12

Must not: import ``payments`` (which dispatches to this module).
"""

from __future__ import annotations

from collections.abc import Sequence

from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import dora_of
from replay_audit.scoring.noten import noten_pool_deltas

YAKUMAN_POINTS = 20
BANBAN = 2
RON_BONUS = 8
MINKAN_BONUS = 2
ANKAN_BONUS = 4
SET_BONUS = 4
ALL_GARI_BONUS = 20
KARASU_OPEN = 10
KARASU_CLOSED = 20

TOUTENKOU_UNIT = 100
"""One Toutenkou point in the log's score units.  No Toutenkou log exists, so
this project reads them the way Tenhou writes its 10-point 'ratio' tables:
INIT ``ten``, ``sc`` and ``owari`` hold points where other games hold hundreds,
and AGARI ``ten[1]`` (never scaled) holds points x 100."""

MANZU_KINDS = (0, 4, 8)
"""The only manzu in the Toutenkou set: 1m, 5m, 9m (kinds 0, 4, 8)."""


def toutenkou_points(
    regular_yaku_han: int,
    yakuman_count: int,
    *,
    dealer: bool,
    menzen: bool,
    honba: int,
    gari: int,
    red_gari: int,
    minkan: int,
    ankan: int,
    sets: int,
    ron: bool,
    karasu: bool,
    all_gari: bool,
) -> int:
    """Points of one Toutenkou win, or 0 when the hand has no regular yaku.

    ``regular_yaku_han`` is the han the hand's regular yaku (and, if the
    caller's rules count them, its dora) would score; pass 0 when there is no
    regular yaku, since bonuses alone never make a win.  Yakuman replace the
    regular yaku (20 points each) but keep every bonus.  ``gari`` counts the
    gari tiles set aside; ``red_gari`` how many of them are 0m (each adds one
    more point).
    """
    if yakuman_count <= 0 and regular_yaku_han <= 0:
        return 0
    value = YAKUMAN_POINTS * yakuman_count if yakuman_count > 0 else regular_yaku_han
    value += BANBAN
    value += int(dealer) + int(menzen) + honba
    value += gari + red_gari
    value += MINKAN_BONUS * minkan + ANKAN_BONUS * ankan + SET_BONUS * sets
    if ron:
        value += RON_BONUS
    if karasu:
        value += KARASU_CLOSED if menzen else KARASU_OPEN
    if all_gari:
        value += ALL_GARI_BONUS
    return value


def toutenkou_dora_of(indicator_kind: int) -> int | None:
    """The dora kind an indicator points at, with the manzu quirk.

    1m -> 9m, 9m -> 1m, and 5m points at nothing; pinzu, souzu, winds and
    dragons follow the ordinary cycles.

    >>> toutenkou_dora_of(0), toutenkou_dora_of(8), toutenkou_dora_of(4)
    (8, 0, None)
    >>> toutenkou_dora_of(17), toutenkou_dora_of(30), toutenkou_dora_of(33)
    (9, 27, 31)
    """
    if not 0 <= indicator_kind < 34:
        raise ValueError(f"tile kind {indicator_kind} outside 0-33")
    if indicator_kind < 9:
        if indicator_kind not in MANZU_KINDS:
            raise ValueError(f"kind {indicator_kind} ({indicator_kind + 1}m) is not in Toutenkou")
        return {0: 8, 8: 0, 4: None}[indicator_kind]
    return dora_of(indicator_kind)


def toutenkou_win_deltas(
    points: int,
    *,
    winner: int,
    from_seat: int,
    players: int,
    sticks: int,
    first_winner: bool,
    rules: RuleSet,
) -> tuple[int, ...]:
    """Ron: the discarder pays ``points``; tsumo: each opponent pays ``points``.

    Honba are already inside ``points`` (+1 each), so nothing is added for
    them; the first winner collects the riichi sticks at
    ``rules.toutenkou_riichi_points`` each.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> toutenkou_win_deltas(12, winner=0, from_seat=2, players=3, sticks=1,
    ...                      first_winner=True, rules=PRESETS["toutenkou"])
    (13, 0, -12)
    """
    deltas = [0] * players
    payers = [from_seat] if from_seat != winner else [s for s in range(players) if s != winner]
    for seat in payers:
        deltas[seat] -= points
    deltas[winner] = points * len(payers)
    if first_winner:
        deltas[winner] += sticks * rules.toutenkou_riichi_points
    return tuple(deltas)


def toutenkou_draw_deltas(tenpai: Sequence[bool], rules: RuleSet) -> tuple[int, ...]:
    """Noten payments with the Toutenkou penalty as the pool (20 points).

    The rule text says only "noten penalty 20 points"; this reads it like the
    ordinary noten pool (1 tenpai: +20, -10 each; 2 tenpai: +10 each, -20).
    Unverified against Tenhou (no Toutenkou log is available).

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> toutenkou_draw_deltas([True, False, False], PRESETS["toutenkou"])
    (20, -10, -10)
    """
    return noten_pool_deltas(tenpai, rules.players, rules.toutenkou_noten_penalty)
