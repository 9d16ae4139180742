"""replay_audit: audit Riichi Mahjong game logs, payment by payment.

The library API::

    import replay_audit
    game = replay_audit.read_log("2024041200gm-00a9-0000-1142b3d7.xml.gz")
    events = replay_audit.events_table("2024041200gm-00a9-0000-1142b3d7.xml.gz")  # Arrow
    report = replay_audit.audit(["logs/"])          # AuditReport of DataFrames
    table = replay_audit.players(report)             # per-player statistics
    hand = replay_audit.score_hand("123m456p789s11z22z", win="2z", tsumo=True)
    report = replay_audit.read_report("reports/run")  # a written report, typed

Names are imported lazily so ``import replay_audit`` stays cheap for workers.

Must not: hold logic, or import a layer before a name is asked for (workers
import the package cheaply).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from replay_audit import _compat
from replay_audit._version import __version__ as __version__

_EXPORTS = {
    "read_log": "replay_audit.io.read",
    "iter_games": "replay_audit.io.read",
    "events_table": "replay_audit.io.events_table",
    "audit": "replay_audit.report.api",
    "AuditReport": "replay_audit.report.audit_report",
    "read_report": "replay_audit.report.read",
    "players": "replay_audit.stats",
    "games_table": "replay_audit.stats",
    "replay_game": "replay_audit.replay.table",
    "score_win": "replay_audit.scoring.hand",
    "score_hand": "replay_audit.scoring.hand_api",
    "HandResult": "replay_audit.scoring.hand_api",
    "RuleSet": "replay_audit.model.rules.ruleset",
    "load_rules": "replay_audit.model.rules.presets",
    "PRESETS": "replay_audit.model.rules.presets",
}

__all__ = [
    "PRESETS",
    "AuditReport",
    "HandResult",
    "RuleSet",
    "audit",
    "events_table",
    "games_table",
    "iter_games",
    "load_rules",
    "players",
    "read_log",
    "read_report",
    "replay_game",
    "score_hand",
    "score_win",
]

if TYPE_CHECKING:  # pragma: no cover
    from replay_audit.io.events_table import events_table
    from replay_audit.io.read import iter_games, read_log
    from replay_audit.model.rules.presets import PRESETS, load_rules
    from replay_audit.model.rules.ruleset import RuleSet
    from replay_audit.replay.table import replay_game
    from replay_audit.report.api import audit
    from replay_audit.report.audit_report import AuditReport
    from replay_audit.report.read import read_report
    from replay_audit.scoring.hand import score_win
    from replay_audit.scoring.hand_api import HandResult, score_hand
    from replay_audit.stats import games_table, players


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'replay_audit' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


class _Package(types.ModuleType):
    """The package object, which keeps its exported names.

    Importing a submodule sets it as an attribute of its package, so the first
    ``import replay_audit.audit`` (done by ``replay_audit.audit(...)`` itself)
    would replace the ``audit`` function with the ``audit`` module, and every
    later call would fail.  A name of ``_EXPORTS`` is therefore never bound to
    a module here: it stays resolved by ``__getattr__``, while the submodule is
    still imported normally (``from replay_audit.audit import audit_file``
    reads it from ``sys.modules``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

# Old module paths (before the layout by layers) resolve, with a DeprecationWarning.
_compat.install()

# The compiled core: warns once here if this install lacks it (replay_audit/native.py).
importlib.import_module("replay_audit.native")
