"""The compiled scoring engine: ``score_win``, ``score_wins`` and ``win_deltas``
by ``replay_audit._core``, the same values as the Python engine.

They return exactly what ``scoring.hand.score_win`` and ``scoring.payments.win_deltas``
return for the same arguments.  What goes where:

- the core scores han-and-fu wins (``RuleSet.scoring == "hanfu"``) under any rule set
  (every rule it applies is read from the ``RuleSet``: red fives, kuitan, kiriage, the
  fu values, renhou, yakuman and kazoe conventions, tsumo loss, honba, sticks, pao);
- Python answers Toutenkou (``scoring == "toutenkou"``, points instead of han and fu),
  and any context or value the core declines as unusual: tile ids outside 0-135, more
  than 14 concealed tiles, 8 calls or 16 indicators, a call kind that is not a
  ``MeldKind``, ``players`` other than 3 or 4, a round wind outside 0-3, numbers beyond
  2**40, seats outside the table (where Python raises, it raises the same error);
- without the core (``REPLAY_AUDIT_PURE_PYTHON=1``), Python answers everything.

``tests/test_core_scoring.py`` checks both give the same values on every win of the
shared corpus (under several rule sets), on the scoring golden tests and on random
hands.  The auditor scores through this module.

Must not: hold a rule of its own (every rule comes from the ``RuleSet``), or differ
from the Python engine by a single value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from replay_audit.native import _core

if TYPE_CHECKING:
    from replay_audit.model.rules import RuleSet
    from replay_audit.scoring.context import WinContext, WinValue

__all__ = ["core_rules", "score_win", "score_wins", "win_deltas"]

_VALUE_FIELDS: Final = (
    "han",
    "fu",
    "points",
    "limit",
    "yaku",
    "yakuman",
    "yakuman_count",
    "base",
    "ron_payment",
    "tsumo_dealer_payment",
    "tsumo_other_payment",
    "fu_items",
    "error",
)
"""The ``WinValue`` fields, in the order the core gives them."""


class _Python:
    """The pure-Python scoring functions, bound once on first use (``import
    replay_audit`` stays cheap).  Held here rather than looked up on each call, so a
    caller that swaps ``replay_audit.scoring.hand.score_win`` for this module's
    ``score_win`` (the golden tests run against both engines that way) still falls
    back to the Python code.  ``core`` says whether the core may score: it makes
    ``WinValue`` objects itself, so only while their fields are the ones it knows."""

    score_win: Any = None
    win_deltas: Any = None
    core = False

    @classmethod
    def load(cls) -> type[_Python]:
        if cls.score_win is None:
            from replay_audit.scoring import hand, payments
            from replay_audit.scoring.context import WinValue

            cls.score_win = hand.score_win
            cls.win_deltas = payments.win_deltas
            fields = tuple(f.name for f in dataclasses.fields(WinValue))
            if _core is not None and fields == _VALUE_FIELDS:
                _core.set_value_type(WinValue)
                cls.core = True
        return cls


_RULES: dict[int, tuple[RuleSet, _core.ScoreRules | None]] = {}
"""``id(rules)`` -> (the rules, their core form, or None when the core leaves them to
Python).  Keyed by identity, the entry holding the rules so the id stays theirs, as
``scoring.points`` memoises: hashing a whole ``RuleSet`` costs more than a win."""


def core_rules(rules: RuleSet) -> _core.ScoreRules | None:
    """The core's form of ``rules`` (``_core.ScoreRules``, remembered by identity), or
    None for rules the core leaves to Python; the auditor hands it to the core's
    one-call rows (``_core.win_row``, ``_core.audit_hands``)."""
    entry = _RULES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    found: _core.ScoreRules | None = None
    if _Python.load().core and rules.scoring == "hanfu":
        from replay_audit.model.rules import DOUBLE_YAKUMAN_PATTERNS

        try:
            found = _core.ScoreRules(
                players=rules.players,
                aka=rules.aka,
                red_fives=list(rules.red_fives),
                kuitan=rules.kuitan,
                kiriage=rules.kiriage,
                double_wind_fu=rules.double_wind_fu,
                rinshan_tsumo_fu=rules.rinshan_tsumo_fu,
                open_pinfu_fu=rules.open_pinfu_fu,
                renhou=rules.renhou,
                yakuman=rules.yakuman,
                kazoe=rules.kazoe,
                tsumo_loss=rules.tsumo_loss,
                honba_ron=rules.honba_ron,
                honba_tsumo=rules.honba_tsumo,
                riichi_cost=rules.riichi_cost,
                pao_yakuman=list(rules.pao_yakuman),
                pao_scope=rules.pao_scope,
                double_yakuman=list(DOUBLE_YAKUMAN_PATTERNS),
            )
        except (ValueError, TypeError):
            found = None
    if len(_RULES) >= 64:  # many short-lived RuleSets: stay bounded
        _RULES.clear()
    _RULES[id(rules)] = (rules, found)
    return found


def score_win(ctx: WinContext, rules: RuleSet) -> WinValue:
    """``replay_audit.scoring.hand.score_win``, by the compiled core when it can (see
    the module docstring for what goes to Python): the same ``WinValue``."""
    found_rules = core_rules(rules)
    if found_rules is not None:
        value: WinValue | None = _core.score_win_value(ctx, found_rules)
        if value is not None:
            return value
    result: WinValue = _Python.load().score_win(ctx, rules)
    return result


def score_wins(contexts: Sequence[WinContext], rules: RuleSet) -> list[WinValue]:
    """``score_win`` of many wins under one rule set, the core scoring them all in one
    call (``_core.WinBatch``); what it declines is scored one by one in Python."""
    py = _Python.load()
    found_rules = core_rules(rules)
    if found_rules is None:
        return [py.score_win(ctx, rules) for ctx in contexts]
    batch = _core.WinBatch(found_rules)
    for ctx in contexts:
        batch.add(ctx)
    batch.score()
    return [
        value if value is not None else py.score_win(ctx, rules)
        for ctx, value in zip(contexts, batch.win_values(), strict=True)
    ]


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
    """``replay_audit.scoring.payments.win_deltas``, by the compiled core when it can:
    the same deltas, and the same ``ValueError`` for a seat outside the table."""
    found_rules = core_rules(rules)
    if found_rules is not None and type(honba) is int and type(sticks) is int:
        try:
            got = _core.win_deltas(
                value,
                winner=winner,
                from_seat=from_seat,
                dealer=dealer,
                players=players,
                honba=honba,
                sticks=sticks,
                first_winner=bool(first_winner),
                pao_seat=pao_seat,
                rules=found_rules,
            )
        except (TypeError, OverflowError):  # not plain ints: Python decides
            got = None
        if got is not None:
            return got
    result: tuple[int, ...] = _Python.load().win_deltas(
        value,
        winner=winner,
        from_seat=from_seat,
        dealer=dealer,
        players=players,
        honba=honba,
        sticks=sticks,
        first_winner=first_winner,
        pao_seat=pao_seat,
        rules=rules,
    )
    return result
