"""``final_points`` in integer units against the ``Fraction`` settlement it replaced.

``scoring.final`` counts final points in whole ``1/12000`` of a point.  The
reference below is the former ``Fraction`` code, kept here as it was: the two
must agree to the last bit (``repr`` of every float, so ``-0.0`` too) on any
scores, sticks, uma and oka (floating rows too), return points, tie rule,
player count and rounding era.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.rules.presets import PRESETS
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.final import Era, final_points

T4 = PRESETS["tenhou-4p"]
T3 = PRESETS["tenhou-3p"]


# ------------------------------------------------------------- the reference


def _order(scores: Sequence[int], players: int) -> list[int]:
    return sorted(range(players), key=lambda s: (-scores[s], s))


def _round_half_away(x: Fraction) -> int:
    n = abs(x)
    whole = int(n)
    if n - whole >= Fraction(1, 2):
        whole += 1
    return whole if x >= 0 else -whole


def _place_bonus(scores: Sequence[int], rules: RuleSet) -> list[Fraction]:
    players = rules.players
    order = _order(scores, players)
    below = sum(1 for s in range(players) if scores[s] < rules.return_points)
    bonus = [Fraction(u) for u in (rules.uma_rows[below] if rules.uma_rows else rules.uma)]
    bonus[0] += rules.oka
    result = [Fraction(0)] * players
    i = 0
    while i < players:
        j = i + 1
        if rules.ties == "split":
            while j < players and scores[order[j]] == scores[order[i]]:
                j += 1
        share = sum(bonus[i:j], Fraction(0)) / (j - i)
        for k in range(i, j):
            result[order[k]] = share
        i = j
    return result


def reference_points(
    scores: Sequence[int], sticks_left: int, rules: RuleSet, era: Era
) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """The ``Fraction`` settlement ``final_points`` computed before integer units."""
    players = rules.players
    raw = list(scores)
    if sticks_left and rules.leftover_sticks_to_top:
        raw[_order(scores, players)[0]] += sticks_left * rules.riichi_cost
    bonus = _place_bonus(raw, rules)
    exact = [Fraction(raw[s] - rules.return_points, 1000) + bonus[s] for s in range(players)]
    points = [0.0] * len(raw)
    if era == "exact":
        for s in range(players):
            points[s] = _round_half_away(exact[s] * 10) / 10
        return tuple(raw), tuple(points)
    top = _order(raw, players)[0]
    others = Fraction(0)
    for s in range(players):
        if s == top:
            continue
        rounded = _round_half_away(Fraction(raw[s], 1000)) * 1000
        value = Fraction(rounded - rules.return_points, 1000) + bonus[s]
        points[s] = float(value)
        others += value
    points[top] = float(-others)
    return tuple(raw), tuple(points)


# ---------------------------------------------------------------- the cases


@st.composite
def settlements(
    draw: st.DrawFn, *, numbers: st.SearchStrategy[float] | None = None
) -> tuple[tuple[int, ...], int, RuleSet, Era]:
    """Final scores, leftover sticks, rules and era: ties and exact halves are
    common (scores on a 100 grid, often repeated), odd values possible."""
    base = draw(st.sampled_from([T4, T3]))
    n = base.players
    small = numbers if numbers is not None else st.integers(-60, 60)
    uma = tuple(draw(small) for _ in range(n))
    rows: tuple[tuple[float, ...], ...] = ()
    if draw(st.booleans()):
        rows = tuple(tuple(draw(small) for _ in range(n)) for _ in range(n + 1))
    rules = dataclasses.replace(
        base,
        uma=uma,
        uma_rows=rows,
        oka=draw(small),
        return_points=draw(st.sampled_from([30000, 25000, 40000, 35000, 0, 10]))
        if draw(st.booleans())
        else draw(st.integers(-5000, 60000)),
        ties=draw(st.sampled_from(["seat_order", "split"])),
        leftover_sticks_to_top=draw(st.booleans()),
    )
    grid = st.integers(-400, 1200).map(lambda x: 100 * x)
    pool = draw(st.lists(st.one_of(grid, st.integers(-(10**6), 10**6)), min_size=1, max_size=n))
    scores = tuple(draw(st.sampled_from(pool)) for _ in range(n))
    placeholder = (0,) * draw(st.integers(0, 4 - n))
    era: Era = draw(st.sampled_from(["exact", "era1"]))
    return scores + placeholder, draw(st.integers(0, 6)), rules, era


@settings(max_examples=600, deadline=None)
@given(settlements())
def test_integer_units_match_the_fraction_settlement(
    case: tuple[tuple[int, ...], int, RuleSet, Era],
) -> None:
    scores, sticks, rules, era = case
    got = final_points(scores, sticks, rules, era=era)
    assert repr(got) == repr(reference_points(scores, sticks, rules, era))


@settings(max_examples=300, deadline=None)
@given(settlements(numbers=st.sampled_from([12.5, -7.5, 0.1, 2.25, 10, -20, 1 / 3])))
def test_non_integer_uma_and_oka_match_the_fraction_settlement(
    case: tuple[tuple[int, ...], int, RuleSet, Era],
) -> None:
    # A rule file may write ``oka = 12.5``: those rules take the fraction path.
    scores, sticks, rules, era = case
    got = final_points(scores, sticks, rules, era=era)
    assert repr(got) == repr(reference_points(scores, sticks, rules, era))


def test_the_comparison_sees_a_rounding_change(monkeypatch: pytest.MonkeyPatch) -> None:
    # The properties above can fail: with the reference rounding halves to even
    # (Fraction's ``round``) instead of away from zero, 2500 rounds to 2000 (era1)
    # and 0.25 to 0.2 (exact), and the two no longer agree.
    raw = (2500, 38000, 61000, -1500)
    split = dataclasses.replace(T4, uma=(0, 0, 0, 0), oka=0, return_points=29750)
    cases: list[tuple[tuple[int, ...], RuleSet, Era]] = [
        (raw, T4, "era1"),
        ((30000, 30000, 30000, 30000), split, "exact"),
    ]
    for scores, rules, era in cases:
        assert final_points(scores, 0, rules, era=era) == reference_points(scores, 0, rules, era)
    monkeypatch.setattr(sys.modules[__name__], "_round_half_away", round)
    for scores, rules, era in cases:
        assert final_points(scores, 0, rules, era=era) != reference_points(scores, 0, rules, era)
