"""A lobby's uma, oka and rounding, read off one game's final line.

Where a lobby's settlement is not in the log (a private or championship
lobby without ``csrule``, a Mahjong Soul friendly or tournament room), the
final line itself shows it: each place ``r`` gets

    points_r = (score_r - R) / 1000 + uma_r  (+ oka for the top),

so the per-place offsets ``c_r = points_r - score_r / 1000`` are the lobby's
``uma_r - R/1000`` (+ oka).  One game fixes every ``c_r`` but not how the top's
share splits into return, uma and oka (adding ``t`` to R/1000 and to every
uma gives the same values), so a reading is chosen and named:

* Mahjong Soul settles against the start score with no oka: ``R = start``;
* a Tenhou lobby: a symmetric uma (``uma_1 = -uma_4``, ``uma_2 = -uma_3``;
  3-player ``uma_2 = 0``) with the oka ``players * (R - start) / 1000`` when one
  exists, else the default return points, else ``R = start``.

Rounding is read from the values' form, never from a fit (any set of offsets
fits the exact formula): a tenth in any value means exact to 0.1; whole values
while some non-top score is not a whole thousand mean Tenhou's era-1
rounding (non-top scores rounded to 1000, the top takes minus the rest).

>>> from replay_audit.model.rules.presets import TENHOU_4P
>>> s = infer_settlement((26900, 38300, 21400, 33400), (-13.1, 28.3, -28.6, 13.4),
...                      TENHOU_4P, start=30000, origin_is_start=False)
>>> s.rules.return_points, s.rules.uma, s.rules.oka, s.era, s.offsets
(30000, (20, 10, -10, -20), 0, 'exact', (-10, -20, -40, -50))

Must not: compute final points itself (``scoring.final``) or read files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.final import Era, final_points


@dataclass(frozen=True, slots=True)
class Settlement:
    """A settlement that reproduces a final line, and how it was read."""

    rules: RuleSet
    era: Era
    offsets: tuple[Fraction | int, ...]
    """``c_r`` per place, first to last (in era 1 the top's absorbs the rounding)."""
    reading: str
    """How the offsets were split into return, uma and oka (for the note)."""


def places(scores: Sequence[int], players: int) -> list[int]:
    """Seats from first to last: higher score first, equal scores by seat."""
    return sorted(range(players), key=lambda s: (-scores[s], s))


def rounding_of(scores: Sequence[int], points: Sequence[float], players: int) -> Era:
    """The rounding the values were written with, from their form alone.

    >>> rounding_of((26900, 38300, 21400, 33400), (-13.1, 28.3, -28.6, 13.4), 4)
    'exact'
    >>> rounding_of((30000, 44800, 4500, 20700), (10.0, 64.0, -55.0, -19.0), 4)
    'era1'
    """
    if any(_tenths(p) % 10 for p in points[:players]):
        return "exact"
    top = places(scores, players)[0]
    if any(scores[s] % 1000 for s in range(players) if s != top):
        return "era1"
    return "exact"


def offsets(
    scores: Sequence[int], points: Sequence[float], players: int, era: Era
) -> tuple[Fraction, ...]:
    """``c_r`` per place: value minus score/1000 (era 1: the rounded score)."""
    out: list[Fraction] = []
    for rank, seat in enumerate(places(scores, players)):
        score = Fraction(scores[seat], 1000)
        if era == "era1" and rank:
            score = Fraction(_round_half_away(score))
        out.append(Fraction(_tenths(points[seat]), 10) - score)
    return tuple(out)


def infer_settlement(
    scores: Sequence[int],
    points: Sequence[float],
    rules: RuleSet,
    *,
    start: int,
    origin_is_start: bool,
) -> Settlement | None:
    """The settlement (return, uma, oka, rounding) that gives ``points`` from the
    final ``scores``, or ``None`` when no uma of whole thousands does."""
    n = rules.players
    era = rounding_of(scores, points, n)
    c = offsets(scores, points, n, era)
    candidates: list[tuple[Fraction, str]] = []
    if origin_is_start:
        candidates.append((Fraction(start, 1000), "settled against the start score, no oka"))
    else:
        sym = -c[1] if n == 3 else -(c[1] + c[2]) / 2
        candidates.append((sym, "a symmetric uma (the return is not identifiable from one game)"))
        candidates.append((Fraction(rules.return_points, 1000), "the default return points"))
        candidates.append((Fraction(start, 1000), "settled against the start score"))
    for r, how in candidates:
        found = _try(scores, points, rules, c, r, start, era, symmetric=how.startswith("a sym"))
        if found is not None:
            return Settlement(found, era, tuple(_plain(x) for x in c), how)
    return None


def _try(
    scores: Sequence[int],
    points: Sequence[float],
    rules: RuleSet,
    c: tuple[Fraction, ...],
    r: Fraction,
    start: int,
    era: Era,
    *,
    symmetric: bool,
) -> RuleSet | None:
    n = rules.players
    if (r * 1000).denominator != 1 or (r * 1000) % 100:
        return None
    oka = n * (r - Fraction(start, 1000))
    uma = [x + r for x in c]
    uma[0] = -sum(uma[1:], Fraction(0)) if era == "era1" else uma[0] - oka
    if any(u.denominator != 1 for u in uma) or oka.denominator != 1:
        return None
    if symmetric and uma[0] != -uma[-1]:
        return None
    candidate = dataclasses.replace(
        rules,
        start_points=start,
        return_points=int(r * 1000),
        end_points=rules.points_to_end,
        uma=tuple(int(u) for u in uma),
        uma_rows=(),
        oka=int(oka),
        old_tonpuu_uma=(),
        rounding=era,
        ties="seat_order",
    )
    _, computed = final_points(tuple(scores[:n]), 0, candidate, era=era)
    if any(abs(computed[s] - points[s]) > 0.05 for s in range(n)):
        return None
    return candidate


def _tenths(value: float) -> int:
    return round(value * 10)


def _round_half_away(x: Fraction) -> int:
    whole = int(abs(x) + Fraction(1, 2))
    return whole if x >= 0 else -whole


def _plain(x: Fraction) -> Fraction | int:
    return int(x) if x.denominator == 1 else x
