"""The end of a game: leftover sticks, places, uma and oka, and the two rounding eras.

What the ``owari`` line holds is computed here from the last scores: the
sticks still on the table go to the top player (ties: the seat nearer the
first dealer), places follow the raw scores with the same tiebreak (or share
uma when ``rules.ties == "split"``), and each place earns
``(raw - return) / 1000 + uma`` plus the oka for the top.  Tenhou printed
those values two ways over the years:

* ``era1`` (until 2021): each non-top score is rounded to a whole 1000, an
  exact 500 away from zero, and the top takes minus the sum of the others;
* ``exact`` (from 2022): every value to 0.1 as it is.

>>> from replay_audit.model.rules.presets import PRESETS
>>> final_points((16300, 22100, 30300, 30300), 1, PRESETS["tenhou-4p"], era="era1")
((16300, 22100, 31300, 30300), (-34.0, -18.0, 42.0, 10.0))

Must not: read files or events beyond the final scores it is given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from replay_audit.model.dating import LogWindow, date_digits
from replay_audit.model.events import Owari
from replay_audit.model.rules.ruleset import RuleSet

Era = Literal["era1", "exact"]


def _order(scores: Sequence[int], players: int) -> list[int]:
    """Seats from first to last place; equal scores: lower seat first (a reversed
    sort keeps equal keys in their order, so the seat needs no place in the key,
    nor a lambda its call)."""
    return sorted(range(players), key=scores.__getitem__, reverse=True)


def _round_half_away(x: Fraction) -> int:
    """Nearest integer, an exact half away from zero (Tenhou's era-1 rounding)."""
    n = abs(x)
    whole = int(n)
    if n - whole >= Fraction(1, 2):
        whole += 1
    return whole if x >= 0 else -whole


def _to_tenths(x: Fraction) -> float:
    return _round_half_away(x * 10) / 10


def place_bonus(scores: Sequence[int], rules: RuleSet) -> tuple[Fraction, ...]:
    """Uma plus oka (in 1000s) for each seat, after the tiebreak rule.

    With ``ties == "split"`` tied players share the uma and oka of the places
    they occupy; otherwise seat order decides.  A floating uma
    (``rules.uma_rows``) takes the row of the number of players below the
    return points.
    """
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
    return tuple(result)


def final_scores(scores: Sequence[int], sticks_left: int, rules: RuleSet) -> tuple[int, ...]:
    """The raw final scores: the leftover sticks go to the top (seat-order tiebreak).

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> final_scores((16300, 22100, 30300, 30300), 1, PRESETS["tenhou-4p"])
    (16300, 22100, 31300, 30300)
    """
    if not (sticks_left and rules.leftover_sticks_to_top):
        return tuple(scores)
    raw = list(scores)
    seated = raw[: rules.players]
    # the top is ``_order``'s first: the first seat of the highest score, found in C
    # without the sort (``final_points`` asks this of every game)
    raw[seated.index(max(seated))] += sticks_left * rules.riichi_cost
    return tuple(raw)


def final_points(
    scores: Sequence[int], sticks_left: int, rules: RuleSet, *, era: Era
) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """``(final raw scores, final point values)``, one entry per seat of ``scores``.

    ``scores`` may carry the 3-player placeholder seat; it stays ``0`` / ``0.0``.
    Counted in whole ``1/12000`` of a point (``_UNIT``): every value is exact
    there, so the rounding is the exact rational one without ``Fraction``'s cost
    (a rule file may give a non-integer uma or oka: those are counted as
    fractions, ``_rational_points``).  Every game calls it, so it has no generator,
    and the places' values are made once per rule set (``_place_units``).
    """
    players = rules.players
    raw = final_scores(scores, sticks_left, rules)
    seated = raw[:players]
    rows = _place_units(rules)
    if rows is None or not _INT.issuperset(map(type, seated)):
        return raw, _rational_points(raw, rules, era)
    ret = rules.return_points
    below = sum(map(ret.__gt__, seated))  # seats below the return (ints: no NotImplemented)
    places = rows[below] if rules.uma_rows else rows[0]
    if places is None:
        return raw, _rational_points(raw, rules, era)
    order = sorted(range(players), key=raw.__getitem__, reverse=True)  # ``_order(raw)``
    shares: Sequence[int] = (
        _split_units(raw, places, players, order) if rules.ties == "split" else places
    )
    points = [0.0] * len(raw)
    # each place's seat in one loop, to the nearest, an exact half away from zero, in
    # integers (a call per value was a third of this function's time): the divisors
    # are even, so adding half of one and flooring rounds an exact half up, and a
    # negative value is rounded as its opposite; ``tests/test_final_units.py`` holds
    # it to ``Fraction``'s rounding
    if era == "exact":
        for place, seat in enumerate(order):
            # tenths: (raw - return) / 1000 + bonus, times 10, to the nearest
            n = (raw[seat] - ret) * _PER_RAW + shares[place]
            if n >= 0:
                points[seat] = (n + _HALF_TENTH) // _TENTH / 10
            else:
                points[seat] = -((_HALF_TENTH - n) // _TENTH) / 10
        return raw, tuple(points)
    others = 0  # (a sum of ints: the same in any order)
    for place in range(1, players):
        seat = order[place]
        r = raw[seat]
        rounded = (r + 500) // 1000 * 1000 if r >= 0 else -((500 - r) // 1000 * 1000)
        value = (rounded - ret) * _PER_RAW + shares[place]
        points[seat] = value / _UNIT  # int / int: correctly rounded, as float(Fraction)
        others += value
    points[order[0]] = -others / _UNIT
    return raw, tuple(points)


_INT = frozenset({int})
"""``final_points`` counts in integers where every value it reads is exactly an ``int``."""

_UNIT = 12000
"""Final points are counted in ``1/_UNIT`` of a point: a raw point is 12 of them,
and a share of 2, 3 or 4 tied places' uma divides evenly."""
_PER_RAW = _UNIT // 1000
_TENTH = _UNIT // 10
"""A tenth of a point in units (``exact`` rounds to it)."""
_HALF_TENTH = _TENTH // 2


PlaceUnits = tuple[tuple[int, ...] | None, ...]
"""Each place's uma plus the top's oka in ``1/_UNIT`` of a point: one row per
``rules.uma_rows`` row (one row, ``rules.uma``'s, without them); a row is None
where one of its values is not an int."""

_PLACE_UNITS: dict[int, tuple[RuleSet, PlaceUnits | None]] = {}
"""``_place_units`` by the ``id`` of the rules (held in the entry, so the id stays
theirs)."""


def _place_units(rules: RuleSet) -> PlaceUnits | None:
    """The rules' ``PlaceUnits``, None where the return points or the oka is not an
    int (``_rational_points`` then counts).  Made once per rule set: the games of a
    lobby share it, and checking and scaling the uma again was a sixth of
    ``final_points``.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> _place_units(PRESETS["tenhou-4p"])
    ((480000, 120000, -120000, -240000),)
    """
    entry = _PLACE_UNITS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    table: PlaceUnits | None = None
    if type(rules.return_points) is int and type(rules.oka) is int:
        oka = rules.oka * _UNIT
        rows: list[tuple[int, ...] | None] = []
        for uma in rules.uma_rows or (rules.uma,):
            if _INT.issuperset(map(type, uma)):
                units = [u * _UNIT for u in uma]
                units[0] += oka
                rows.append(tuple(units))
            else:
                rows.append(None)
        table = tuple(rows)
    if len(_PLACE_UNITS) >= 256:  # many short-lived RuleSets: stay bounded
        _PLACE_UNITS.clear()
    _PLACE_UNITS[id(rules)] = (rules, table)
    return table


def _split_units(
    scores: Sequence[int], places: Sequence[int], players: int, order: Sequence[int]
) -> list[int]:
    """``place_bonus`` in ``1/_UNIT`` of a point with ``ties == "split"``, place by
    place: tied players share the places' values (``places``, a ``_place_units``
    row); ``order`` is ``_order(scores, players)``."""
    result = [0] * players
    i = 0
    while i < players:
        j = i + 1
        while j < players and scores[order[j]] == scores[order[i]]:
            j += 1
        share = sum(places[i:j]) // (j - i)  # exact: _UNIT is a multiple of 2, 3 and 4
        for k in range(i, j):
            result[k] = share
        i = j
    return result


def _rational_points(raw: tuple[int, ...], rules: RuleSet, era: Era) -> tuple[float, ...]:
    """``final_points``' values for rules with a non-integer uma, oka or return
    (a rule file may write ``oka = 12.5``), counted as fractions."""
    players = rules.players
    bonus = place_bonus(raw, rules)
    exact = [Fraction(raw[s] - rules.return_points, 1000) + bonus[s] for s in range(players)]
    points = [0.0] * len(raw)
    if era == "exact":
        for s in range(players):
            points[s] = _to_tenths(exact[s])
        return tuple(points)
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
    return tuple(points)


def detect_era(
    owari: Owari, rules: RuleSet, *, date: str | None = None, tolerance: float = 0.05
) -> Era:
    """Which rounding the ``owari`` line was written with (scoring-rules §14).

    If every value equals the exact formula, the game is ``exact``; otherwise
    ``era1``.  When the raw scores are all whole thousands both eras give the
    same values; ``date`` then breaks the tie (before 2022 = ``era1``) so the
    answer reads naturally, though it cannot change a comparison.
    """
    players = rules.players
    raw = tuple(owari.scores[:players])
    _, exact = final_points(raw, 0, rules, era="exact")
    fits = all(abs(exact[s] - owari.points[s]) <= tolerance for s in range(players))
    if not fits:
        return "era1"
    if date is not None and date[:4].isdigit() and int(date[:4]) < 2022:
        _, rounded = final_points(raw, 0, rules, era="era1")
        if rounded == exact[: len(rounded)]:
            return "era1"
    return "exact"


def uma_for_date(rules: RuleSet, date: str | None, hanchan: bool) -> RuleSet:
    """The rules with the uma in force for a game of this date and length.

    Tenhou's tonpuu paid +10/+5/-5/-10 until the summer of 2009
    (``rules.old_tonpuu_uma`` before ``rules.old_tonpuu_uma_until``); an
    undated game keeps the current uma (``readings`` weighs both for it).

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> uma_for_date(PRESETS["tenhou-4p"], "2006102800", hanchan=False).uma
    (10, 5, -5, -10)
    >>> uma_for_date(PRESETS["tenhou-4p"], "2009082700", hanchan=False).uma
    (20, 10, -10, -20)
    """
    if hanchan or not rules.old_tonpuu_uma or not rules.old_tonpuu_uma_until:
        return rules
    stamp = date_digits(date)
    if stamp is None or stamp >= rules.old_tonpuu_uma_until.ljust(10, "0"):
        return rules
    return dataclasses.replace(rules, uma=rules.old_tonpuu_uma)


ERA1_LAST_SEEN = "2021100399"
"""The last game seen with ``owari`` rounded to 1000 (scoring-rules.md §14)."""
EXACT_FIRST_SEEN = "2022060100"
"""The first game seen with exact ``owari`` values."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One way a game's final line can have been computed: the rules (their uma)
    and the rounding era, with a label a person reads in a note."""

    label: str
    rules: RuleSet
    era: Era


def readings(rules: RuleSet, window: LogWindow, hanchan: bool) -> tuple[Reading, ...]:
    """Every settlement the log's date window allows, most recent rule first.

    A dated log has one reading; an undated one (or one from the months in
    which Tenhou changed its rounding) may have two or four, which the auditor
    holds against the recorded line and names in a note.

    >>> from replay_audit.model.rules.presets import PRESETS
    >>> from replay_audit.model.dating import LogWindow
    >>> [r.era for r in readings(PRESETS["tenhou-4p"], LogWindow("2015", "2015"), True)]
    ['era1']
    >>> [r.label for r in readings(PRESETS["tenhou-4p"], LogWindow("2010", None), True)]
    ['exact to 0.1 (Tenhou since 2022)', 'rounded to 1000 (Tenhou until 2021)']
    """
    if rules.rounding == "either":
        eras: list[Era] = ["exact", "era1"]
    elif rules.rounding != "auto":
        eras = [rules.rounding]
    else:
        eras = []
        if window.latest is None or window.latest.ljust(10, "0") > ERA1_LAST_SEEN:
            eras.append("exact")
        if window.earliest is None or window.earliest.ljust(10, "0") < EXACT_FIRST_SEEN:
            eras.append("era1")
    umas: list[tuple[str, RuleSet]] = [("", rules)]
    if (
        not hanchan
        and rules.old_tonpuu_uma
        and rules.old_tonpuu_uma_until
        # a window after the old uma (every modern tonpuu log) reads today's alone:
        # the old uma's rules are not built for it
        and (side := window.side(rules.old_tonpuu_uma_until)) != "after"
    ):
        old = dataclasses.replace(rules, uma=rules.old_tonpuu_uma)
        until = f"{rules.old_tonpuu_uma_until[:4]}-{rules.old_tonpuu_uma_until[4:6]}"
        old_label = f", tonpuu uma {_uma_text(old.uma)} (until {until})"
        if side == "before":
            umas = [(old_label, old)]
        elif side == "both":
            umas = [(f", uma {_uma_text(rules.uma)}", rules), (old_label, old)]
    return tuple(Reading(ERA_LABELS[era] + extra, r, era) for era in eras for extra, r in umas)


ERA_LABELS: dict[str, str] = {
    "exact": "exact to 0.1 (Tenhou since 2022)",
    "era1": "rounded to 1000 (Tenhou until 2021)",
}


def _uma_text(uma: Sequence[int]) -> str:
    return "/".join(f"{u:+d}" for u in uma)
