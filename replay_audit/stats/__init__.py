"""Per-player statistics: facts first (``facts``), counters and ratios late
(``aggregate``), every ratio defined once (``definitions``).

>>> from replay_audit.stats import players, explain
>>> print(explain("deal_in_rate"))
deal_in_rate (deal-in rate) = deal_ins / hands: deal-ins ÷ hands

Must not: audit, score or read report folders itself.
"""

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
