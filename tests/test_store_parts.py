"""The parts' format (``report.store.PART_SUFFIX``: Arrow IPC, LZ4) is internal: every
reader of a part gets the table that was written, schema and metadata included, and
the rows come back as they were given; a folder of an older run, whose parts are
Parquet, reads back the same through the same methods."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from replay_audit.report.codec import rows_to_table
from replay_audit.report.store import LEGACY_PART_SUFFIX, PART_SUFFIX, Store

ROWS = [
    {"file": "a", "n": 1, "x": 1.5, "ok": True, "mixed": 1, "deep": [1, (2, "z")]},
    {"file": "a", "n": None, "x": float("inf"), "ok": False, "mixed": "one"},
    {"file": "b", "n": 2**62, "x": -0.0, "ok": None, "mixed": None, "deep": {"k": None}},
    {"n": 3, "x": None, "ok": True, "mixed": 2.5, "text": "東 ÿ"},
] * 50
SOME = ["__source__", "mixed", "__absent__"]


def _table() -> pa.Table:
    return rows_to_table(ROWS, [str(i % 7) for i in range(len(ROWS))])


def test_a_part_reads_back_as_written(tmp_path: Path) -> None:
    table = _table()
    store = Store(tmp_path)
    store.write_table("hands", "r-0", table)
    path = store.part_path("hands", "r-0")
    assert path.name == f"part-r-0{PART_SUFFIX}" and store.stored_part("hands", "r-0") == path
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left
    back = store.read_part("hands", "r-0")
    assert back is not None and back.equals(table, check_metadata=True)
    assert back.schema == table.schema and back.schema.metadata == table.schema.metadata
    assert store.part_schema("hands", "r-0") == table.schema
    some = store.read_part("hands", "r-0", SOME)
    assert some is not None and some.equals(table.select(SOME), check_metadata=True)
    assert store.read_rows("hands", {str(i): "r-0" for i in range(7)}) == {
        str(i): ROWS[i::7] for i in range(7)
    }


def test_a_missing_part_is_none(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.stored_part("hands", "r-0") is None
    assert store.read_part("hands", "r-0") is None
    assert store.part_schema("hands", "r-0") is None
    assert store.read_columns("hands", "r-0", ["a"]).n == 0


@pytest.mark.parametrize("options", [{}, {"compression": "lz4", "use_dictionary": False}])
def test_an_older_runs_parquet_part_reads_back_the_same(
    tmp_path: Path, options: dict[str, object]
) -> None:
    """A Parquet part (as earlier versions wrote them) is read where no Arrow part is:
    the same rows, columns and metadata as the Arrow part of the same table."""
    table = _table()
    arrow, legacy = Store(tmp_path / "arrow"), Store(tmp_path / "legacy")
    arrow.write_table("hands", "r-0", table)
    path = legacy.part_path("hands", "r-0").with_suffix(LEGACY_PART_SUFFIX)
    path.parent.mkdir(parents=True)
    pq.write_table(table, path, **options)
    assert legacy.stored_part("hands", "r-0") == path
    back = legacy.read_part("hands", "r-0")
    assert back is not None and back.to_pylist() == table.to_pylist()
    schema = legacy.part_schema("hands", "r-0")
    assert schema is not None and schema.names == table.schema.names
    assert schema.metadata == table.schema.metadata
    wanted = {str(i): "r-0" for i in range(7)}
    assert legacy.read_rows("hands", wanted) == arrow.read_rows("hands", wanted)
    for keep in (wanted, {"3": "r-0", "5": "r-0"}):
        got, want = (s.read_columns("hands", "r-0", keep) for s in (legacy, arrow))
        assert (got.names, got.values, got.absent, got.n) == (
            want.names,
            want.values,
            want.absent,
            want.n,
        )
