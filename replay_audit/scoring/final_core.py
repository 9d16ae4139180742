"""The core's form of one reading of a game's final points (``scoring.final``).

The auditor's one call (``_core.audit_hands``) checks a clean game's end in C: the
final scores and points of the one reading a dated log has, counted as
``final.final_points`` counts them in integers.  ``FinalRule`` holds what that count
reads, made once per reading; ``final_rule`` gives None where the core leaves the count
to Python (a rule file's fractional uma, oka or return; tied places splitting their uma).

>>> from replay_audit.model.rules.presets import PRESETS
>>> from replay_audit.scoring.final import Reading
>>> final_rule(Reading("exact", PRESETS["tenhou-4p"], "exact"))
FinalRule(players=4, return_points=30000, riichi_cost=1000, to_top=True, exact=True, floating=False, places=((480000, 120000, -120000, -240000),))

Must not: compute points (``scoring.final`` does; ``src/core/game_end.cpp`` is its copy,
held to it by ``tests/test_core_game_end.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from replay_audit.scoring.final import Reading, _place_units


@dataclass(frozen=True, slots=True)
class FinalRule:
    """What the core reads of one reading, by field name (its slots)."""

    players: int
    return_points: int
    riichi_cost: int
    to_top: bool
    """``rules.leftover_sticks_to_top``."""
    exact: bool
    """The reading's era is ``exact`` (every value to 0.1), else ``era1``."""
    floating: bool
    """``rules.uma_rows``: the row is picked by how many seats end below the return."""
    places: tuple[tuple[int, ...], ...]
    """``final._place_units``: each place's uma (the top's with the oka), in units."""


def final_rule(reading: Reading) -> FinalRule | None:
    """``reading`` in the core's terms, or None where ``final_points`` would count it in
    fractions (``_rational_points``) or split tied places (``_split_units``)."""
    rules = reading.rules
    if rules.ties == "split":
        return None
    units = _place_units(rules)
    if units is None or any(row is None for row in units):
        return None
    places = tuple(row for row in units if row is not None)
    return FinalRule(
        players=rules.players,
        return_points=rules.return_points,
        riichi_cost=rules.riichi_cost,
        to_top=bool(rules.leftover_sticks_to_top),
        exact=reading.era == "exact",
        floating=bool(rules.uma_rows),
        places=places,
    )
