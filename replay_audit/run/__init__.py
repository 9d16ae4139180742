"""Running an audit over many files: planning, the chunk worker, the engines.

``keys`` (resume keys) <- ``chunk`` (one unit of work) <- ``plan`` (what to do)
<- ``local`` (process pool) and ``dask_engine`` (a Dask cluster) <- ``api``
(``run_audit``).  Both engines share the plan, the chunk task and the report
store (``report.store``), so neither imports the other.  The names of the old
``runner`` module are re-exported here (``replay_audit.runner`` now aliases this
package, with a DeprecationWarning).

Must not: audit a file itself (``auditing``), hold report tables (``report``), or
parse options (``cli``).
"""

from __future__ import annotations

from replay_audit.report.store import (
    ABSENT_COLUMN,
    INDEX_NAME,
    PARTS_DIR,
    ROW_TABLES,
    SOURCE_COLUMN,
    IndexEntry,
    Store,
    Tally,
    rows_to_table,
    table_to_rows,
)
from replay_audit.report.stored import StoredAuditReport
from replay_audit.run.api import run_audit
from replay_audit.run.chunk import ChunkResult, ChunkTask, audit_chunk
from replay_audit.run.keys import (
    Worker,
    code_fingerprint,
    file_sha256,
    rules_key,
    sources_fingerprint,
    work_key,
)
from replay_audit.run.local import SMALL_RUN, audit_files, collect
from replay_audit.run.plan import Plan, chunk_tasks, plan_run

__all__ = [
    "ABSENT_COLUMN",
    "INDEX_NAME",
    "PARTS_DIR",
    "ROW_TABLES",
    "SMALL_RUN",
    "SOURCE_COLUMN",
    "ChunkResult",
    "ChunkTask",
    "IndexEntry",
    "Plan",
    "Store",
    "StoredAuditReport",
    "Tally",
    "Worker",
    "audit_chunk",
    "audit_files",
    "chunk_tasks",
    "code_fingerprint",
    "collect",
    "file_sha256",
    "plan_run",
    "rows_to_table",
    "rules_key",
    "run_audit",
    "sources_fingerprint",
    "table_to_rows",
    "work_key",
]
