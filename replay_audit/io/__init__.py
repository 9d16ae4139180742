"""Reading logs: files, folders, globs, compressed files and SQLite archives, to ``Game``.

The layer above the parsers: ``io.paths`` finds the inputs, ``io.read`` hands each one's
bytes to the parser its format needs; ``io.archive`` reads phoenix-logs SQLite
databases.  The old ``io`` module's names are re-exported here (``replay_audit.io`` was a
module before the layout of issue 18).

Must not: replay, score or audit; it stops at the ``Game``.
"""

from __future__ import annotations

from replay_audit.io.paths import (
    LOG_SUFFIXES,
    SKIPPED_NAMES,
    SNIFF_BYTES,
    iter_log_paths,
    looks_like_log,
)
from replay_audit.io.read import iter_games, read_bytes, read_log

__all__ = [
    "LOG_SUFFIXES",
    "SKIPPED_NAMES",
    "SNIFF_BYTES",
    "iter_games",
    "iter_log_paths",
    "looks_like_log",
    "read_bytes",
    "read_log",
]
