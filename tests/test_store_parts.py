"""The parts' write options (``report.store.PART_WRITE_OPTIONS``) change only their
bytes: every reader of a part gets what it gets from the same table written with
pyarrow's defaults, schema and metadata included (Parquet names a list's item
``element`` either way), and the rows come back as they were given."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from replay_audit.report.codec import rows_to_table
from replay_audit.report.store import Store

ROWS = [
    {"file": "a", "n": 1, "x": 1.5, "ok": True, "mixed": 1, "deep": [1, (2, "z")]},
    {"file": "a", "n": None, "x": float("inf"), "ok": False, "mixed": "one"},
    {"file": "b", "n": 2**62, "x": -0.0, "ok": None, "mixed": None, "deep": {"k": None}},
    {"n": 3, "x": None, "ok": True, "mixed": 2.5, "text": "東 ÿ"},
] * 50


def test_a_part_reads_back_as_written(tmp_path: Path) -> None:
    table = rows_to_table(ROWS, [str(i % 7) for i in range(len(ROWS))])
    store = Store(tmp_path)
    store.write_table("hands", "r-0", table)
    path = store.part_path("hands", "r-0")
    default = _default(tmp_path, table)
    with pq.ParquetFile(path) as part, pq.ParquetFile(default) as reference:
        back, want = part.read(), reference.read()
    assert back.equals(want, check_metadata=True)
    assert back.schema == want.schema and back.schema.metadata == want.schema.metadata
    assert back.select(range(8)).equals(table.select(range(8)), check_metadata=True)
    assert pq.read_schema(path) == pq.read_schema(default)
    some = ["__source__", "mixed", "__absent__"]
    assert pq.read_table(path, columns=some).equals(
        pq.read_table(default, columns=some), check_metadata=True
    )
    assert store.read_rows("hands", {str(i): "r-0" for i in range(7)}) == {
        str(i): ROWS[i::7] for i in range(7)
    }


def _default(tmp_path: Path, table: pa.Table) -> Path:
    """The same table written with pyarrow's defaults."""
    path = tmp_path / "default.parquet"
    pq.write_table(table, path)
    return path
