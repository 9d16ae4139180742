"""Per-player statistics: facts first (``facts``), counters and ratios late
(``aggregate``), every ratio defined once (``definitions``).

>>> from replay_audit.stats import players, explain
>>> print(explain("deal_in_rate"))
deal_in_rate (deal-in rate) = deal_ins / hands: deal-ins ÷ hands

The aggregation's names (``players``, ``counters``, ...) are imported when first
asked for: they need pandas, which takes longer to import than auditing many
files, and the audit, which computes facts through this package, never needs it.

Must not: audit, score or read report folders itself, or import pandas (through
``aggregate``) before an aggregation name is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from replay_audit.stats.definitions import (
    COMPOSITES,
    COUNTERS,
    STAT_KEYS,
    STATS,
    StatDef,
    explain,
)
from replay_audit.stats.facts import hand_facts
from replay_audit.stats.game_facts import game_facts, placements, score_history
from replay_audit.stats.identity import game_rules, game_type, player_key
from replay_audit.stats.tenhou_rank import PT_TABLES, PtTable, rate_change, stable_dan

if TYPE_CHECKING:  # pragma: no cover
    from replay_audit.stats.aggregate import (
        combine,
        counters,
        derive,
        fact_frames,
        games_table,
        integer_counts,
        log_day,
        players,
    )

_LAZY = frozenset(
    {
        "combine",
        "counters",
        "derive",
        "fact_frames",
        "games_table",
        "integer_counts",
        "log_day",
        "players",
    }
)
"""The names of ``stats.aggregate`` (which imports pandas), resolved on first use."""


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("replay_audit.stats.aggregate"), name)
    globals()[name] = value  # later look-ups find it without this call
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "COMPOSITES",
    "COUNTERS",
    "PT_TABLES",
    "STATS",
    "STAT_KEYS",
    "PtTable",
    "StatDef",
    "combine",
    "counters",
    "derive",
    "explain",
    "fact_frames",
    "game_facts",
    "game_rules",
    "game_type",
    "games_table",
    "hand_facts",
    "integer_counts",
    "log_day",
    "placements",
    "player_key",
    "players",
    "rate_change",
    "score_history",
    "stable_dan",
]
