"""What one audited file contributes to a report: ``FileAudit``, plain rows.

Owns ``FileAudit`` (rows of every table for one input file, and its ``files``
row) and ``SCHEMA_VERSION``, the version of those rows.

Must not: audit anything; the auditor fills it and the report reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from replay_audit.model.findings import INFO

SCHEMA_VERSION = 2
"""2: notes (``findings.INFO``) and their ``notes`` counts, per-seat start-score
and scores-before findings, ``comp_pao_seat``."""


GAME_COLUMNS = [
    "file",
    "log_id",
    "format",
    "rules",
    "players",
    "go_type",
    "lobby",
    "rule_disp",
    "date",
    "hands",
    "results",
    "findings",
    "notes",
    "status",
    *[f"{c}{s}" for s in range(4) for c in ("name", "final_score", "final_points")],
]
"""The ``games`` table's columns, in order: the rows ``auditing.game`` makes have
these keys, and the report's tables (``report.tables``) take the list from here."""


@dataclass(slots=True)
class FileAudit:
    """Everything one input file contributes to a report, as plain rows."""

    path: str
    status: str = "ok"
    """``ok``, ``mismatch`` or ``error``."""
    format: str | None = None
    error: str | None = None
    sha256: str | None = None
    stored_sha256: str | None = None
    """SHA-256 of the bytes as stored (before any gunzip), from the auditor's one
    read: the runner's resume key (``run.keys.file_sha256``), not a column.  Set
    only when the caller asks (``audit_file(..., stored_digest=True)``, as the
    runner does): None otherwise, when the file could not be read, or when a
    worker does not set it."""
    games: list[dict[str, Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    hand_facts: list[dict[str, Any]] = field(default_factory=list)
    game_facts: list[dict[str, Any]] = field(default_factory=list)
    score_history: list[dict[str, Any]] = field(default_factory=list)
    hands_written: int = 0
    """The ``hands`` rows the runner's part took straight from the core
    (``audit_file(..., hands_sink=)``, ``report.part_rows.HandsSink``): counted among
    the file's results, but not in ``hands``."""

    def file_row(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "format": self.format,
            "status": self.status,
            "games": len(self.games),
            "hands": sum(g["hands"] for g in self.games),
            "results": len(self.hands) + self.hands_written,
            "findings": sum(1 for f in self.findings if f["category"] != INFO),
            "notes": sum(1 for f in self.findings if f["category"] == INFO),
            "error": self.error,
            "sha256": self.sha256,
        }
