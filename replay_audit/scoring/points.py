"""Han and fu to base points, limit codes and payments.

Kept apart from yaku and fu because this is the part every platform shares in
shape and differs in detail (kiriage, kazoe, tsumo loss in three-player), all
of which are ``RuleSet`` fields.

>>> from replay_audit.model.rules.presets import TENHOU_4P, TENHOU_3P
>>> base_points(4, 30, 0, TENHOU_4P), base_points(3, 70, 0, TENHOU_4P)
((1920, 0), (2000, 1))
>>> pay(1920, dealer=False, tsumo=False, rules=TENHOU_4P).total
7700
>>> pay(240, dealer=False, tsumo=True, rules=TENHOU_3P).total
800

Must not: find yaku or fu, or read events.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay_audit.model.rules.ruleset import RuleSet

LIMIT_NAMES = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")


def ceil100(x: int | float) -> int:
    return int(-(-x // 100) * 100)


def base_points(han: int, fu: int, yakuman_count: int, rules: RuleSet) -> tuple[int, int]:
    """``(base, limit)``: limit 0 none, 1 mangan ... 5 yakuman (kazoe included).

    Chip rooms round 4h30f/3h60f up to mangan (kiriage) but Tenhou still writes
    limit 0 for them, so kiriage changes the base only.
    """
    if yakuman_count:
        return 8000 * yakuman_count, 5
    if han >= 13:
        if rules.kazoe == "single":
            return 8000, 5
        if rules.kazoe == "multiple":
            return 8000 * (han // 13), 5
        return 6000, 4
    if han >= 11:
        return 6000, 4
    if han >= 8:
        return 4000, 3
    if han >= 6:
        return 3000, 2
    if han == 5:
        return 2000, 1
    base = fu * (1 << (2 + han))
    if base >= 2000:
        return 2000, 1
    if rules.kiriage and base == 1920:
        return 2000, 0
    return base, 0


@dataclass(frozen=True, slots=True)
class Payment:
    """What each payer pays, before honba and sticks; ``total`` is Tenhou's ``ten[1]``."""

    ron: int
    tsumo_dealer: int
    """Non-dealer tsumo: the dealer's share; dealer tsumo: each payer's share."""
    tsumo_other: int
    """Non-dealer tsumo: each other non-dealer's share (0 otherwise)."""
    total: int


def pay(base: int, dealer: bool, tsumo: bool, rules: RuleSet) -> Payment:
    """Payments for a base value.

    Three-player with ``tsumo_loss`` (Tenhou): the absent North's share simply
    vanishes.  Three-player without it: what North would pay is split between the
    two payers (北家折半), each half rounded up to 100, as
    ``payments.tsumo_shares`` splits it, so both give the same amounts.

    >>> from replay_audit.model.rules.presets import TENHOU_3P, with_overrides
    >>> split = with_overrides(TENHOU_3P, {"tsumo_loss": False})
    >>> pay(2000, dealer=False, tsumo=True, rules=split)
    Payment(ron=0, tsumo_dealer=5000, tsumo_other=3000, total=8000)
    >>> pay(240, dealer=False, tsumo=True, rules=split).total
    1200
    """
    if not tsumo:
        ron = ceil100(base * (6 if dealer else 4))
        return Payment(ron, 0, 0, ron)
    payers = rules.players - 1
    missing = 4 - rules.players and not rules.tsumo_loss
    if dealer:
        each = ceil100(2 * base)
        if missing:
            each += ceil100(each / 2)
        return Payment(0, each, 0, each * payers)
    d = ceil100(2 * base)
    o = ceil100(base)
    if missing:
        half = ceil100(o / 2)  # the North is a non-dealer: it would pay ``o``
        d += half
        o += half
    return Payment(0, d, o, d + o * (payers - 1))


def hand_value(
    han: int, fu: int, yakuman_count: int, dealer: bool, tsumo: bool, rules: RuleSet
) -> tuple[int, int, Payment]:
    """``(base, limit, payment)`` in one call: ``base_points`` then ``pay``.

    The scorer asks this for every reading, and a whole corpus holds only a few
    hundred distinct answers, so they are memoised in one table per ``RuleSet``
    (found by identity, the table holding the rules so the id stays theirs;
    hashing a whole ``RuleSet`` would cost more than the arithmetic).

    >>> from replay_audit.model.rules.presets import TENHOU_4P
    >>> hand_value(4, 30, 0, False, False, TENHOU_4P)
    (1920, 0, Payment(ron=7700, tsumo_dealer=0, tsumo_other=0, total=7700))
    """
    entry = _VALUES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_VALUES) >= 64:  # many short-lived RuleSets: stay bounded
            _VALUES.clear()
        entry = _VALUES[id(rules)] = (rules, {})
    table = entry[1]
    key = (han, fu, yakuman_count, dealer, tsumo)
    got = table.get(key)
    if got is None:
        base, limit = base_points(han, fu, yakuman_count, rules)
        got = table[key] = (base, limit, pay(base, dealer, tsumo, rules))
    return got


_VALUES: dict[int, tuple[RuleSet, dict[tuple[int, int, int, bool, bool], tuple[int, int, Payment]]]]
_VALUES = {}
"""``id(rules)`` -> (the rules, their memo of ``hand_value`` answers)."""


def clear_caches() -> None:
    """Forget memoised values (benchmarks time a cold start with this)."""
    _VALUES.clear()
