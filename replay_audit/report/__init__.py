"""The report layer: tables of an audit run, their writers and readers.

``tables`` (columns, types, order) <- ``stream`` (chunked writers) <-
``audit_report`` (``AuditReport``) <- ``store`` (the on-disk parts and index) <-
``stored`` (``StoredAuditReport``) and ``read`` (a written report read back);
``html`` renders the one-page report; ``api`` is ``audit(paths)``, in memory.
The names of the old ``report`` module are re-exported here.

Must not: parse logs, plan or execute a run (``run`` does), or import ``run`` or
``cli``.
"""

from __future__ import annotations

from replay_audit.report.api import audit, iter_file_audits
from replay_audit.report.audit_report import AuditReport, parquet_table
from replay_audit.report.tables import (
    CSV_TABLES,
    DERIVED_HAND_COLUMNS,
    FILE_COLUMNS,
    FINDING_COLUMNS,
    FORMATS,
    GAME_COLUMNS,
    HAND_COLUMNS,
    INT_COLUMNS,
    SORT_KEYS,
    TABLE_COLUMNS,
    TABLES,
    YAKUMAN_FU_NOTE,
    sort_table,
    table_frame,
    yaku_names,
)
from replay_audit.report.tables import _frame as _frame
from replay_audit.report.tables import _int_column as _int_column

__all__ = [
    "CSV_TABLES",
    "DERIVED_HAND_COLUMNS",
    "FILE_COLUMNS",
    "FINDING_COLUMNS",
    "FORMATS",
    "GAME_COLUMNS",
    "HAND_COLUMNS",
    "INT_COLUMNS",
    "SORT_KEYS",
    "TABLES",
    "TABLE_COLUMNS",
    "YAKUMAN_FU_NOTE",
    "AuditReport",
    "audit",
    "iter_file_audits",
    "parquet_table",
    "sort_table",
    "table_frame",
    "yaku_names",
]
