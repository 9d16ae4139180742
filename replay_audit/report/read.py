"""Read a written report back with the types it was written with.

CSV has no types: ``pd.read_csv("hands.csv")`` turns an integer column with one
empty cell (a draw has no winner) into floats, ``19,1`` stays text only by luck,
and a player named ``NA`` becomes a missing value.  ``read_report`` reads the
folder ``AuditReport.write`` filled, from Parquet when it is there (typed on
disk), else from CSV with each column's type restored from the report's schema
(``report.INT_COLUMNS`` as pandas' nullable ``Int64``, text as text).

Must not: audit or run anything; it only reads a folder a run wrote.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from replay_audit.report.audit_report import AuditReport
from replay_audit.report.tables import CSV_TABLES, INT_COLUMNS, _int_column

FLOAT_COLUMNS = frozenset(f"final_points{s}" for s in range(4))
"""Columns of fractional numbers (uma and oka make ``+42.6``)."""


def _read_table(folder: Path, name: str) -> pd.DataFrame:
    parquet = folder / f"{name}.parquet"
    if parquet.is_file():
        df = pd.read_parquet(parquet)
        for c in df.columns:
            if c in INT_COLUMNS and df[c].dtype != "Int64":
                df[c] = df[c].astype("Int64")
        return df
    csv = folder / f"{name}.csv"
    if not csv.is_file():
        raise FileNotFoundError(f"{folder} holds no {name}.csv or {name}.parquet")
    # every cell as text first, and only an empty cell is missing: "NA" and "null"
    # are names a player can choose
    df = pd.read_csv(csv, dtype=object, keep_default_na=False, na_values=[""])
    for c in df.columns:
        if c in INT_COLUMNS:
            df[c] = _int_column(df[c])  # a value past 64 bits keeps the column as text
        elif c in FLOAT_COLUMNS:
            df[c] = pd.to_numeric(df[c], errors="coerce")
    return df


def read_report(folder: str | Path) -> AuditReport:
    """The ``files``, ``games``, ``hands`` and ``findings`` tables of a report folder
    (``replay-audit audit --out DIR``), typed as the report that wrote them:
    integer columns ``Int64`` (missing values stay missing, not ``NaN`` floats),
    ``final_points*`` floats, every other column text.  The per-player fact
    tables are not written as CSV; ``replay-audit players DIR`` reads them from
    the folder's ``parts``.
    """
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"no report folder {root}")
    tables = {name: _read_table(root, name) for name in CSV_TABLES}
    rules = "auto"
    summary = root / "summary.json"
    if summary.is_file():
        rules = str(json.loads(summary.read_text(encoding="utf-8")).get("rules", "auto"))
    return AuditReport(**tables, rules=rules)
