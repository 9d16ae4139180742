"""A stored report's Parquet written from its parts' Arrow columns equals the pandas-written one.

``report.parquet_columns.write_table_parquet`` maps each part's columns to what
pandas' typed frame converts to, derives the hand columns and sorts in Arrow; the
pandas path (``_write_parquet_streamed(..., from_parts=False)``) stays the reference.
Here the two are held equal (``pq.read_table(...).equals``, the schemas with their
metadata, and the frames pandas reads back) on the fixtures, on awkward rows cut
into parts, and on the whole shared corpus; the Arrow path is shown to be taken for
every table of a real run, and a planted slip in it to be caught.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from replay_audit.report import parquet_columns, stored_tables
from replay_audit.report.store import Store
from replay_audit.report.stored import StoredAuditReport
from replay_audit.report.tables import CSV_TABLES
from tests.conftest import CORPUS, draw_rows, need


def _write_both(report: StoredAuditReport, tmp: Path) -> tuple[Path, Path, list[str]]:
    """The report's Parquet through pandas (``old``) and from the parts (``new``),
    and the tables the new writer handed to pandas."""
    old, new = tmp / "old", tmp / "new"
    old.mkdir()
    new.mkdir()
    report._write_parquet_streamed(old, from_parts=False)
    fell_back: list[str] = []
    frames = stored_tables._StoredTables._write_parquet_frames

    def noted(self: Any, name: str, *args: Any) -> None:
        fell_back.append(name)
        frames(self, name, *args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(stored_tables._StoredTables, "_write_parquet_frames", noted)
        report._write_parquet_streamed(new, from_parts=True)
    return old, new, fell_back


def assert_same_parquet(old: Path, new: Path) -> None:
    """Every table: the same Arrow table, the same schema and metadata, the same frame."""
    for name in CSV_TABLES:
        a, b = pq.read_table(old / f"{name}.parquet"), pq.read_table(new / f"{name}.parquet")
        assert a.schema.equals(b.schema, check_metadata=True), (name, a.schema, b.schema)
        assert a.equals(b), name
        frame, again = _pandas_read(old / f"{name}.parquet"), _pandas_read(new / f"{name}.parquet")
        if isinstance(frame, pd.DataFrame) and isinstance(again, pd.DataFrame):
            pd.testing.assert_frame_equal(frame, again)
        else:
            assert frame == again, name


def _pandas_read(path: Path) -> pd.DataFrame | str:
    """The frame pandas reads, or the error it raises: a column typed ``Int64`` in the
    first part's metadata and text in the file (numbers in one part, text in another)
    is unreadable by pandas, either way."""
    try:
        return pd.read_parquet(path)
    except (TypeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("held", [True, False])
def test_fixtures_parquet_is_the_pandas_parquet(
    fixtures_in_parts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: bool
) -> None:
    """Every table from the parts, the pandas path's file, whether the first pass's
    chunks are kept for the second or made again (past ``HELD_CELLS``)."""
    if not held:
        monkeypatch.setattr(parquet_columns, "HELD_CELLS", 0)
    report = StoredAuditReport.open(fixtures_in_parts)
    old, new, fell_back = _write_both(report, tmp_path)
    assert fell_back == []
    assert_same_parquet(old, new)
    hands = pq.read_table(new / "hands.parquet")
    assert hands.num_rows > 10 and hands.column("rec_yaku_names").null_count < hands.num_rows
    assert len({p for g in report._groups() for p in g.values()}) > 3  # several parts


@pytest.mark.parametrize("slip", ["text_type", "nullable_int_cast", "metadata", "order"])
def test_a_planted_difference_is_caught(
    fixtures_in_parts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slip: str
) -> None:
    """One cast, the metadata or the order changed in the Arrow path: the files differ."""
    typed_column = parquet_columns.typed_column
    metadata = parquet_columns.pandas_metadata

    def int_as_float(*args: Any) -> tuple[pa.ChunkedArray, str]:
        values, dtype = typed_column(*args)
        if dtype == parquet_columns.NULLABLE_INT:
            return values.cast(pa.float64()), dtype
        return values, dtype

    def no_rules(*args: Any) -> dict[bytes, bytes]:
        return {k: v for k, v in metadata(*args).items() if k != b"replay_audit.rules"}

    if slip == "text_type":
        monkeypatch.setattr(parquet_columns, "TEXT", pa.string())
    elif slip == "nullable_int_cast":
        monkeypatch.setattr(parquet_columns, "typed_column", int_as_float)
    elif slip == "metadata":
        monkeypatch.setattr(parquet_columns, "pandas_metadata", no_rules)
    else:
        order = parquet_columns.arrow_order
        monkeypatch.setattr(parquet_columns, "arrow_order", lambda *args: order(*args)[::-1])
    old, new, fell_back = _write_both(StoredAuditReport.open(fixtures_in_parts), tmp_path)
    assert fell_back == []
    with pytest.raises(AssertionError):
        assert_same_parquet(old, new)


# ---------------------------------------------------------------- awkward rows

_KINDS: dict[str, st.SearchStrategy[Any]] = {
    "none": st.none(),
    "bool": st.booleans(),
    "int": st.integers(-3, 14),
    "big_int": st.integers(2**53 - 1, 2**53 + 2) | st.integers(-3, 3),
    "float": st.floats(allow_nan=True) | st.sampled_from([1.0, 2.5]),
    "text": st.sampled_from(["12", "x", "19,1,52,1", "39,42", "", "天鳳", "a\nb"]),
    "mixed": st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=2),
}
_KEYS = {
    "files": ["format", "games", "error", "x"],
    "games": ["log_id", "players", "final_points0", "name0", "x", "y"],
    "hands": ["hand_index", "seq", "rec_yaku", "comp_yaku", "rec_limit", "note", "x"],
    "findings": ["hand_index", "seq", "hand", "category", "seat", "recorded", "x"],
}


@st.composite
def _rows(draw: st.DrawFn, name: str, paths: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Rows of table ``name`` for ``paths`` (one per path for ``files``), each key of one
    kind of value, ``None`` or missing here and there."""
    kinds = {k: draw(st.sampled_from(sorted(_KINDS))) for k in _KEYS[name]}
    return draw_rows(draw, paths, kinds, _KINDS, one_per_path=name == "files")


def _stored(out: Path, name: str, parts: list[list[tuple[str, dict[str, Any]]]]) -> list[str]:
    """``parts`` written under ``out`` as a run would (rows with their source paths,
    a ``files`` row per path, the index pointing each path at the last part holding
    it: its rows in an earlier part are a re-audited file's, left out)."""
    store = Store(out)
    latest: dict[str, str] = {}
    for k, rows in enumerate(parts):
        part = f"t-{k:05d}"
        sources = [p for p, _ in rows]
        if rows:
            store.write_part(name, part, [r for _, r in rows], sources)
        if name != "files":
            files = sorted(set(sources))
            store.write_part("files", part, [{"file": p} for p in files], files)
        latest.update((p, part) for p in sources)
    store.append_index({"path": p, "part": part} for p, part in sorted(latest.items()))
    return sorted(latest)


# (no shrinking: each example writes eight Parquet files, and shrinking a failure took
# over five minutes; the failing example is reported as drawn)
@settings(max_examples=20, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.sampled_from(sorted(_KEYS)), st.data(), st.integers(1, 3))
def test_awkward_rows_in_parts(
    tmp_path_factory: pytest.TempPathFactory, name: str, data: st.DataObject, n_parts: int
) -> None:
    """Rows of every kind of column, with gaps and missing keys, cut into parts, a path
    audited again in a later part: the Arrow path's file (or, where it declines, the
    pandas one) is the pandas path's."""
    pool = ["a.xml", "b.xml", "c.json", "d.xml"]
    parts = []
    for _ in range(n_parts):
        paths = sorted(data.draw(st.sets(st.sampled_from(pool), min_size=1, max_size=3)))
        parts.append(data.draw(_rows(name, paths)))
    tmp = tmp_path_factory.mktemp("awkward")
    paths = _stored(tmp / "o", name, parts)
    report = StoredAuditReport(tmp / "o", paths)
    try:
        _write_both(report, tmp)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
        # integers past 2**53 where another part made the column float: the pandas
        # path cannot cast the part to the file's schema; the Arrow path declines
        # such a column and hands the table to it, failing the same way
        with pytest.raises(type(e)):
            report._write_parquet_streamed(tmp / "new", from_parts=True)
        return
    assert_same_parquet(tmp / "old", tmp / "new")


def test_plain_rows_take_the_arrow_path(tmp_path: Path) -> None:
    """Text, integers with gaps, booleans with and without gaps, floats and missing keys
    in every table: no table goes through pandas."""
    rows = [
        ("a.xml", {"file": "a.xml", "hand_index": 1, "seq": None, "x": True, "y": 1.5}),
        ("a.xml", {"file": "a.xml", "hand_index": None, "seq": 4, "x": False}),
        ("b.xml", {"file": "b.xml", "hand_index": 0, "seq": 2, "x": None, "y": float("nan")}),
    ]
    for name in ("hands", "findings", "games"):
        out = tmp_path / name
        paths = _stored(out / "o", name, [rows[:2], rows[2:]])
        old, new, fell_back = _write_both(StoredAuditReport(out / "o", paths), out)
        assert fell_back == [t for t in CSV_TABLES if t not in ("files", name)]  # (no rows)
        assert_same_parquet(old, new)


# ---------------------------------------------------------------- the corpus


@pytest.mark.corpus
def test_corpus_parquet_is_the_pandas_parquet(tmp_path: Path) -> None:
    """One stored run of the whole shared corpus: every table from its parts, each file
    the pandas path's (about 4 s of CPU to audit, 5 s for the pandas path, 1 s here)."""
    from replay_audit.run.api import run_audit

    report = run_audit([need(CORPUS)], jobs=1, out=tmp_path / "o")
    assert isinstance(report, StoredAuditReport)
    old, new, fell_back = _write_both(report, tmp_path)
    assert fell_back == []
    assert_same_parquet(old, new)
    assert pq.read_metadata(new / "hands.parquet").num_rows > 27_938
    assert len(report._groups()) > 4  # parts of the default size
