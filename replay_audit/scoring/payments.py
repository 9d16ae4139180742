"""Who pays whom: the score deltas of a win, a draw and nagashi mangan.

The scorer says what a hand is worth (``WinValue``); this module turns that
value into per-seat deltas the way the table settles it: honba, riichi
sticks, pao, double ron and three-player tsumo loss.  Every difference between
platforms is read from ``RuleSet`` fields, so one function serves Tenhou,
Mahjong Soul and a club's own rule file.

Deltas are tuples indexed by absolute seat, one entry per player: three in a
three-player game (the logs' ``sc`` lists a fourth, empty seat; callers compare
seat by seat, so the placeholder is not invented here).  The riichi deposits
themselves are *not* in the deltas (the logs take them at REACH step 2); the
sticks a winner collects are.

>>> from replay_audit.model.rules.presets import PRESETS
>>> v = WinValue(han=1, fu=30, points=1000, limit=0, base=240, ron_payment=1000,
...              tsumo_dealer_payment=500, tsumo_other_payment=300)
>>> win_deltas(v, winner=1, from_seat=1, dealer=0, players=3, honba=0, sticks=0,
...            first_winner=True, pao_seat=None, rules=PRESETS["tenhou-3p"])
(-500, 800, -300)

Must not: compute a hand's value (``scoring.hand``) or read events.
"""

from __future__ import annotations

from collections.abc import Sequence

from replay_audit.model.rules.ruleset import DOUBLE_YAKUMAN_PATTERNS, RuleSet
from replay_audit.scoring.context import WinValue
from replay_audit.scoring.noten import noten_pool_deltas
from replay_audit.scoring.toutenkou import (
    TOUTENKOU_UNIT,
    toutenkou_draw_deltas,
    toutenkou_win_deltas,
)

SEATS = 4
"""The most seats a table has."""

MANGAN_BASE = 2000


def ceil100(points: int) -> int:
    """Round up to a multiple of 100, the way every payment is rounded.

    >>> ceil100(960), ceil100(1000), ceil100(0)
    (1000, 1000, 0)
    """
    return -(-points // 100) * 100


def base_payments(base: int, *, dealer_win: bool) -> tuple[int, int, int]:
    """``(ron, tsumo_dealer, tsumo_other)`` for a hand of ``base`` points.

    ``tsumo_dealer`` is what the dealer pays on a non-dealer tsumo, or what
    each payer pays on a dealer tsumo; ``tsumo_other`` is what each other
    non-dealer pays on a non-dealer tsumo (0 on a dealer tsumo).

    >>> base_payments(2000, dealer_win=False)
    (8000, 4000, 2000)
    >>> base_payments(2000, dealer_win=True)
    (12000, 4000, 0)
    """
    if dealer_win:
        return ceil100(6 * base), ceil100(2 * base), 0
    return ceil100(4 * base), ceil100(2 * base), ceil100(base)


def _value_payments(value: WinValue, dealer_win: bool) -> tuple[int, int, int, bool]:
    """The value's own payment split; derived from ``base`` only when the
    scorer left the split empty (so both kinds of WinValue settle alike).

    The last item says whether the split is the value's own: the scorer's split
    already holds each payer's half of an absent North's share (``points.pay``),
    so it must not be added a second time; a split derived here is the
    four-player one, to which ``tsumo_shares`` adds it.
    """
    own = (value.ron_payment, value.tsumo_dealer_payment, value.tsumo_other_payment)
    if any(own) or not value.base:
        return (*own, True)
    return (*base_payments(value.base, dealer_win=dealer_win), False)


def tsumo_shares(
    dealer_share: int,
    other_share: int,
    *,
    winner: int,
    dealer: int,
    players: int,
    tsumo_loss: bool,
) -> tuple[int, ...]:
    """What each seat pays on a tsumo (positive amounts, winner 0).

    ``dealer_share``/``other_share`` are the four-player amounts
    (``base_payments``).  With three players the absent North's share either
    vanishes (``tsumo_loss``, Tenhou) or is split between the two payers,
    each half rounded up to 100 (the common 北家折半 convention; not observed
    in any log here).

    >>> tsumo_shares(500, 300, winner=1, dealer=0, players=3, tsumo_loss=True)
    (500, 0, 300)
    >>> tsumo_shares(4000, 2000, winner=1, dealer=0, players=3, tsumo_loss=False)
    (5000, 0, 3000)
    """
    pay = [0] * players
    dealer_win = winner == dealer
    for seat in range(players):
        if seat == winner:
            continue
        pay[seat] = dealer_share if dealer_win or seat == dealer else other_share
    if players == 3 and not tsumo_loss:
        # The missing North is a non-dealer: its share is dealer_share on a dealer
        # win and other_share otherwise.
        north = dealer_share if dealer_win else other_share
        half = ceil100(-(-north // 2))
        for seat in range(players):
            if seat != winner:
                pay[seat] += half
    return tuple(pay)


def _pao_fraction(value: WinValue, rules: RuleSet) -> tuple[int, int]:
    """``(pao units, all units)``: how much of the value the liable seat answers for.

    Tenhou (``pao_scope="all"``) makes the liable seat answer for the whole
    value, composite yakuman included.  ``"yakuman_only"`` (Mahjong Soul)
    limits it to the pao yakuman themselves.
    """
    if rules.pao_scope == "all" or not value.yakuman:
        return 1, 1

    def units(yid: int) -> int:
        return 2 if rules.yakuman == "full" and yid in DOUBLE_YAKUMAN_PATTERNS else 1

    total = sum(units(y) for y in value.yakuman)
    pao = sum(units(y) for y in value.yakuman if y in rules.pao_yakuman)
    return pao, total


def win_deltas(
    value: WinValue,
    *,
    winner: int,
    from_seat: int,
    dealer: int,
    players: int,
    honba: int,
    sticks: int,
    first_winner: bool,
    pao_seat: int | None,
    rules: RuleSet,
) -> tuple[int, ...]:
    """Per-seat deltas of one win (one AGARI tag), honba and sticks included.

    ``first_winner`` is False for the later winners of a double ron: they get
    the hand value only, with neither honba nor sticks (Tenhou's 上家取り).
    ``pao_seat`` is the liable seat (``paoWho``); ``None`` or the winner's own
    seat means no pao.  Pao on tsumo: the liable seat pays everything,
    honba included.  Pao on ron: the pao part of the value is split 50/50
    between the discarder and the liable seat, who also pays all honba; if
    the discarder is the liable seat it simply pays everything.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> v = WinValue(han=13, fu=40, points=32000, limit=5, yakuman=(39,), yakuman_count=1,
    ...              base=8000, ron_payment=32000)
    >>> win_deltas(v, winner=1, from_seat=2, dealer=0, players=4, honba=0, sticks=0,
    ...            first_winner=True, pao_seat=3, rules=PRESETS["tenhou-4p"])
    (0, 32000, -16000, -16000)

    Three players without tsumo loss: the scorer's split already holds the North's
    half shares, so a non-dealer mangan tsumo takes 8,000 (5,000 + 3,000):

    >>> from replay_audit.model.rules.presets import with_overrides
    >>> split = with_overrides(PRESETS["tenhou-3p"], {"tsumo_loss": False})
    >>> m = WinValue(han=5, fu=30, points=8000, limit=1, base=2000,
    ...              tsumo_dealer_payment=5000, tsumo_other_payment=3000)
    >>> win_deltas(m, winner=1, from_seat=1, dealer=0, players=3, honba=0, sticks=0,
    ...            first_winner=True, pao_seat=None, rules=split)
    (-5000, 8000, -3000)
    """
    if not 0 <= winner < players or not 0 <= from_seat < players:
        raise ValueError(f"winner {winner} / from_seat {from_seat} outside {players} players")
    if rules.scoring == "toutenkou":
        return _toutenkou_win_deltas(
            value,
            winner=winner,
            from_seat=from_seat,
            players=players,
            sticks=sticks,
            first_winner=first_winner,
            rules=rules,
        )
    dealer_win = winner == dealer
    ron_value, dealer_share, other_share, split = _value_payments(value, dealer_win)
    pao = pao_seat if pao_seat is not None and pao_seat != winner else None
    pay = [0] * players
    honba_n = honba if first_winner else 0

    if from_seat != winner:
        honba_total = honba_n * rules.honba_ron
        if pao is None or pao == from_seat:
            pay[from_seat] = ron_value + honba_total
        else:
            part, whole = _pao_fraction(value, rules)
            pao_part = ron_value * part // whole
            half = pao_part // 2
            pay[pao] = half + honba_total
            pay[from_seat] = ron_value - half
    else:
        shares = tsumo_shares(
            dealer_share,
            other_share,
            winner=winner,
            dealer=dealer,
            players=players,
            # the scorer's own split already shares out an absent North
            tsumo_loss=rules.tsumo_loss or split,
        )
        payers = [s for s in range(players) if s != winner]
        honba_each = honba_n * rules.honba_tsumo
        if pao is None:
            for s in payers:
                pay[s] = shares[s] + honba_each
        else:
            part, whole = _pao_fraction(value, rules)
            for s in payers:
                liable = shares[s] * part // whole
                pay[s] += shares[s] - liable
                pay[pao] += liable
            pay[pao] += honba_each * len(payers)

    deltas = [-p for p in pay]
    deltas[winner] = sum(pay) + (sticks * rules.riichi_cost if first_winner else 0)
    return tuple(deltas)


def _toutenkou_win_deltas(
    value: WinValue,
    *,
    winner: int,
    from_seat: int,
    players: int,
    sticks: int,
    first_winner: bool,
    rules: RuleSet,
) -> tuple[int, ...]:
    """Toutenkou settles in points: each payer owes the hand's points (honba are
    already inside them) and the first winner takes the sticks at the Toutenkou
    riichi value; ``scoring.toutenkou`` does it in points, scaled here to log units.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> v = WinValue(han=12, fu=0, points=1200, limit=0, base=1200, ron_payment=1200)
    >>> win_deltas(v, winner=0, from_seat=2, dealer=0, players=3, honba=0, sticks=0,
    ...            first_winner=True, pao_seat=None, rules=PRESETS["toutenkou"])
    (1200, 0, -1200)
    """
    per_payer = value.base // TOUTENKOU_UNIT
    deltas = toutenkou_win_deltas(
        per_payer,
        winner=winner,
        from_seat=from_seat,
        players=players,
        sticks=sticks,
        first_winner=first_winner,
        rules=rules,
    )
    return tuple(d * TOUTENKOU_UNIT for d in deltas)


def exhaustive_draw_deltas(
    tenpai: Sequence[bool], players: int, rules: RuleSet, *, pool: int | None = None
) -> tuple[int, ...]:
    """Noten payments at an exhaustive draw: the noten players fill a pool
    (``rules.noten_pool``, or ``pool``) that the tenpai players share.

    Nobody or everybody tenpai: no payments.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> exhaustive_draw_deltas([True, False, False, False], 4, PRESETS["tenhou-4p"])
    (3000, -1000, -1000, -1000)
    >>> exhaustive_draw_deltas([True, True, False], 3, PRESETS["tenhou-3p"])
    (1000, 1000, -2000)

    Toutenkou (``rules.scoring``) pays its noten penalty in points instead:

    >>> exhaustive_draw_deltas([False, True, False], 3, PRESETS["toutenkou"])
    (-1000, 2000, -1000)
    """
    if pool is None and rules.scoring == "toutenkou":
        return tuple(d * TOUTENKOU_UNIT for d in toutenkou_draw_deltas(tenpai, rules))
    return noten_pool_deltas(tenpai, players, rules.noten_pool if pool is None else pool)


def nagashi_deltas(
    nagashi: Sequence[bool], dealer: int, players: int, rules: RuleSet
) -> tuple[int, ...]:
    """Nagashi mangan: each eligible seat is paid like a mangan tsumo (no honba,
    no noten payments; sticks stay on the table).  Several nagashi are each
    paid, so their payments may offset.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> nagashi_deltas([False, False, True, False], 3, 4, PRESETS["tenhou-4p"])
    (-2000, -2000, 8000, -4000)
    """
    deltas = [0] * players
    for seat in range(players):
        if seat >= len(nagashi) or not nagashi[seat]:
            continue
        _, dealer_share, other_share = base_payments(MANGAN_BASE, dealer_win=seat == dealer)
        shares = tsumo_shares(
            dealer_share,
            other_share,
            winner=seat,
            dealer=dealer,
            players=players,
            tsumo_loss=rules.tsumo_loss,
        )
        for payer, amount in enumerate(shares):
            deltas[payer] -= amount
            deltas[seat] += amount
    return tuple(deltas)


def abortive_draw_deltas(players: int = SEATS) -> tuple[int, ...]:
    """Abortive draws (九種九牌, 四風連打, 四家立直, 三家和了, 四槓散了) move no points."""
    return (0,) * players


def draw_deltas(
    kind: str,
    *,
    tenpai: Sequence[bool],
    nagashi: Sequence[bool],
    dealer: int,
    players: int,
    rules: RuleSet,
) -> tuple[int, ...]:
    """Deltas of one draw by its kind: ``exhaustive``, ``nm`` or an abortive type.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> draw_deltas("yao9", tenpai=[], nagashi=[], dealer=0, players=4, rules=PRESETS["tenhou-4p"])
    (0, 0, 0, 0)
    """
    if kind == "exhaustive":
        return exhaustive_draw_deltas(tenpai, players, rules)
    if kind == "nm":
        return nagashi_deltas(nagashi, dealer, players, rules)
    return abortive_draw_deltas(players)


def conservation_ok(
    deltas: Sequence[int], sticks_collected: int, *, riichi_cost: int = 1000
) -> bool:
    """Do the deltas create exactly the collected sticks and nothing else?

    A first winner's deltas sum to ``sticks * riichi_cost``; later winners'
    and draws' sum to 0.

    >>> conservation_ok((-8000, 9000, 0, 0), 1)
    True
    """
    return sum(deltas) == sticks_collected * riichi_cost
