"""The auditor: recorded against computed, per file, game and result.

``auditor`` runs one file (parse, detect rules, replay, score, compare) and
returns a ``FileAudit`` of rows; ``lobby``, ``infer_settlement`` and
``era_readings`` read what a log leaves unsaid (lobby rules, settlement, the rules
of an era).  The names of the old ``audit`` module are re-exported here; the
package is called ``auditing`` because ``replay_audit.audit`` is the library
function.

Must not: re-implement scoring or replay rules, write reports, or run files in
parallel.
"""

from __future__ import annotations

from replay_audit.auditing.auditor import audit_file, display_name, validate_file
from replay_audit.auditing.game import audit_game, rules_for_game
from replay_audit.auditing.rows import SCHEMA_VERSION, FileAudit

__all__ = [
    "SCHEMA_VERSION",
    "FileAudit",
    "audit_file",
    "audit_game",
    "display_name",
    "rules_for_game",
    "validate_file",
]
