"""The auditor: recorded against computed, per file, game and result.

``auditor`` (one file: read, parse, audit each game, add the facts) <- ``game``
(``rules_for_game``, ``audit_game``, the rows) <- the rooms of one game's audit:
``hands`` <- ``wins`` <- ``chain`` (score chain, transitions, end, final line)
<- ``notes`` (lobby readings, chips, notes on the log) <- ``base`` (state and
findings); ``rows`` holds ``FileAudit``.  ``lobby``, ``infer_settlement`` and
``era_readings`` read what a log leaves unsaid.  The names of the old ``audit``
module are re-exported here; the package is called ``auditing`` because
``replay_audit.audit`` is the library function.

Must not: re-implement scoring or replay rules, write reports, or run files in
parallel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay_audit._lazy import lazy_names

# The names are imported when asked for: ``report`` and ``stats`` import
# ``auditing.rows`` (the row types), and an eager ``auditor`` here made every
# reader of a stored run import the whole audit (0.26 s of a report's write).
_EXPORTS = {
    "SCHEMA_VERSION": "rows",
    "FileAudit": "rows",
    "audit_file": "auditor",
    "display_name": "auditor",
    "validate_file": "auditor",
    "audit_game": "game",
    "rules_for_game": "game",
}

if TYPE_CHECKING:  # pragma: no cover
    from replay_audit.auditing.auditor import audit_file, display_name, validate_file
    from replay_audit.auditing.game import audit_game, rules_for_game
    from replay_audit.auditing.rows import SCHEMA_VERSION, FileAudit


__getattr__ = lazy_names(__name__, _EXPORTS)


__all__ = [
    "SCHEMA_VERSION",
    "FileAudit",
    "audit_file",
    "audit_game",
    "display_name",
    "rules_for_game",
    "validate_file",
]
