"""replay_audit: audit Riichi Mahjong game logs, payment by payment.

The library API::

    import replay_audit
    game = replay_audit.read_log("2024041200gm-00a9-0000-1142b3d7.xml.gz")
    report = replay_audit.audit(["logs/"])          # AuditReport of DataFrames
    table = replay_audit.players(report)             # per-player statistics

Names are imported lazily so ``import replay_audit`` stays cheap for workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "read_log": "replay_audit.io",
    "iter_games": "replay_audit.io",
    "audit": "replay_audit.report",
    "AuditReport": "replay_audit.report",
    "players": "replay_audit.stats",
    "games_table": "replay_audit.stats",
    "replay_game": "replay_audit.replay",
    "score_win": "replay_audit.scoring.hand",
    "RuleSet": "replay_audit.rules",
    "load_rules": "replay_audit.rules",
    "PRESETS": "replay_audit.rules",
}

__all__ = [
    "PRESETS",
    "AuditReport",
    "RuleSet",
    "audit",
    "games_table",
    "iter_games",
    "load_rules",
    "players",
    "read_log",
    "replay_game",
    "score_win",
]

if TYPE_CHECKING:  # pragma: no cover
    from replay_audit.io import iter_games, read_log
    from replay_audit.replay import replay_game
    from replay_audit.report import AuditReport, audit
    from replay_audit.rules import PRESETS, RuleSet, load_rules
    from replay_audit.scoring.hand import score_win
    from replay_audit.stats import games_table, players


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'replay_audit' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
