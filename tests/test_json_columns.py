"""A stored report's JSON written from its parts' columns equals the pandas-written JSON.

``report.json_columns`` lays out each table's records from the parts' columns (the
whole table's column kinds from ``column_plan.ColumnPlan``, floats through ``float_text``,
pandas' encoder rounding redone); the pandas path (``_write_json_columns(...,
from_parts=False)``: ``typed_chunks``, ``to_json``, ``json.loads``) stays the
reference.  Here the two are held byte-identical, ``report.json`` and every
``.jsonl``, on the fixtures, on awkward rows cut into parts and on a sample of the
shared corpus; ``float_text`` is held to ``DataFrame.to_json`` value by value; the
new path is shown to be taken for every table of a real run, and a planted slip in
it to be caught.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from replay_audit.report import json_columns, stored_tables
from replay_audit.report.audit_report import AuditReport
from replay_audit.report.stored import StoredAuditReport
from replay_audit.report.tables import CSV_TABLES, INT_COLUMNS
from tests.conftest import draw_rows
from tests.test_parquet_columns import _stored

JSON_FILES = ["report.json", *(f"{name}.jsonl" for name in CSV_TABLES)]


def _write_both(report: StoredAuditReport, tmp: Path) -> tuple[Path, Path, list[str]]:
    """The report's JSON and JSONL through pandas (``old``) and from the parts
    (``new``), and the tables (once per format) the new writer handed to pandas."""
    old, new = tmp / "old", tmp / "new"
    old.mkdir()
    new.mkdir()
    for fmt in ("json", "jsonl"):
        report._write_json_columns(fmt, old, from_parts=False)
    fell_back: list[str] = []
    typed_chunks = stored_tables._StoredTables.typed_chunks

    def noted(self: Any, name: str, *args: Any) -> Any:
        fell_back.append(name)
        return typed_chunks(self, name, *args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(stored_tables._StoredTables, "typed_chunks", noted)
        for fmt in ("json", "jsonl"):
            report._write_json_columns(fmt, new, from_parts=True)
    return old, new, fell_back


def assert_same_json(old: Path, new: Path) -> None:
    """``report.json`` and every table's ``.jsonl``: the same bytes."""
    for name in JSON_FILES:
        assert (old / name).read_bytes() == (new / name).read_bytes(), name


@pytest.mark.parametrize("held", [True, False])
def test_fixtures_json_is_the_pandas_json(
    fixtures_in_parts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: bool
) -> None:
    """Every table from the parts, the pandas path's bytes, whether the first pass's
    chunks are kept for the second or read again (past ``HELD_CELLS``)."""
    if not held:
        monkeypatch.setattr(json_columns, "HELD_CELLS", 0)
    report = StoredAuditReport.open(fixtures_in_parts)
    old, new, fell_back = _write_both(report, tmp_path)
    assert fell_back == []
    assert_same_json(old, new)
    doc = json.loads((new / "report.json").read_text(encoding="utf-8"))
    assert len(doc["hands"]) > 10 and any(h["rec_yaku_names"] for h in doc["hands"])
    assert any(type(g["final_points0"]) is float for g in doc["games"])
    assert len({p for g in report._groups() for p in g.values()}) > 3  # several parts


# ---------------------------------------------------------------- planted slips

_PLANTED_ROWS = [
    ("a.xml", {"file": "a.xml", "hand_index": 1, "seq": 3, "x": 2 / 3, "y": 12, "z": True}),
    ("a.xml", {"file": "a.xml", "hand_index": 0, "seq": None, "x": -1e-12, "y": None}),
    ("a.xml", {"file": "a.xml", "hand_index": 2, "seq": 5, "x": 1.0, "y": 3, "z": False}),
    ("b.xml", {"file": "b.xml", "hand_index": 2, "seq": 1, "x": 0.1 + 0.2, "y": 7, "z": None}),
]
"""Rows whose texts each slip below changes: a float pandas rounds (``2/3``), one it
writes as ``-0.0``, integers in a column a gap made float, booleans with a gap, rows
out of order."""


def _slip_float_repr(value: float) -> str | None:
    return float.__repr__(value)  # (no rounding to ten decimals)


@pytest.mark.parametrize("slip", ["float_repr", "float_as_plain", "order", "separator"])
def test_a_planted_difference_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slip: str
) -> None:
    """One formatting choice of the new path changed: ``assert_same_json`` fails."""
    paths = _stored(tmp_path / "o", "hands", [_PLANTED_ROWS[:3], _PLANTED_ROWS[3:]])
    report = StoredAuditReport(tmp_path / "o", paths)
    (tmp_path / "clean").mkdir()
    old, new, fell_back = _write_both(report, tmp_path / "clean")
    assert fell_back == [t for t in CSV_TABLES if t not in ("files", "hands")] * 2  # (no rows)
    assert_same_json(old, new)  # (without the slip, the same bytes)
    if slip == "float_repr":
        monkeypatch.setattr(json_columns, "encoder_text", _slip_float_repr)
    elif slip == "float_as_plain":
        monkeypatch.setattr(json_columns, "FLOAT", "not a rendering")
    elif slip == "order":
        monkeypatch.setattr(json_columns, "row_order", lambda *a: list(range(a[2]))[::-1])
    else:
        template = json_columns.record_template
        monkeypatch.setattr(
            json_columns, "record_template", lambda *a: template(*a).replace(": %s", ":%s")
        )
    (tmp_path / "slip").mkdir()
    old, new, _ = _write_both(report, tmp_path / "slip")
    with pytest.raises(AssertionError):
        assert_same_json(old, new)


# ---------------------------------------------------------------- float text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats() | st.integers(-(2**53), 2**53), min_size=1, max_size=20))
@example([0.1 + 0.2, 1e16, 1e17, -0.0, -1e-12, 1e-15, 1e-16, math.nan, math.inf, -math.inf])
@example([0.5e-10, 1.5e-10, 2.5e-10, 0.99999999995, 9999999999999998.0, 2**53, 123456.78901234567])
def test_float_text_is_pandas_text_or_declined(values: list[float | int]) -> None:
    """Each value of a ``float64`` column: ``float_text`` is ``repr`` of what
    ``json.loads`` reads from ``DataFrame.to_json``, or ``None`` (declined: pandas'
    exponent form), never another text."""
    frame = pd.DataFrame({"a": [float(v) for v in values]})
    records = json.loads(frame.to_json(orient="records"))
    for value, record in zip(values, records, strict=True):
        want = "null" if record["a"] is None else float.__repr__(record["a"])
        got = json_columns.float_text(value)
        assert got in (want, None), (value, got, want)
        assert got is not None or not json_columns._fixed(float(value))


# ---------------------------------------------------------------- awkward rows

_KINDS: dict[str, st.SearchStrategy[Any]] = {
    "none": st.none(),
    "bool": st.booleans(),
    "int": st.integers(-3, 14),
    "big_int": st.integers(2**53 - 1, 2**53 + 2) | st.integers(-(2**63), -(2**63) + 1),
    "huge_int": st.integers(2**63 - 1, 2**64 + 1),
    "float": st.floats(allow_nan=True)
    | st.sampled_from([0.1 + 0.2, 1e16, -0.0, 1 / 3, 2.5, math.nan, math.inf, -1e-12]),
    "tame_float": st.floats(-1e6, 1e6) | st.sampled_from([0.1 + 0.2, -0.0, 1 / 3, math.nan]),
    "int_float": st.integers(-3, 3) | st.sampled_from([0.5, 1e15 + 0.3, math.inf]),
    "text": st.sampled_from(["12", "x", "19,1,52,1", "39,42", "", "天鳳", "a\nb", '"\\\u2028']),
    "mixed": st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=2),
}
_KEYS = {
    "files": ["format", "games", "error", "x"],
    "games": ["log_id", "players", "final_points0", "name0", "x", "y"],
    "hands": ["hand_index", "seq", "rec_yaku", "comp_yaku", "rec_limit", "note", "x"],
    "findings": ["hand_index", "seq", "hand", "category", "seat", "recorded", "x"],
}


_TAME = {
    "int": ["none", "int"],  # (an integer column, or one the rows sort by)
    "text": ["none", "text"],  # (a text column the rows sort by, or a yaku list)
    "any": ["none", "bool", "int", "tame_float", "int_float", "text"],
}
"""The kinds the new path writes, per key, so most examples take it for their table; one
key in twelve draws from every kind, which mostly makes the table go to pandas."""


def _kind_of(key: str) -> st.SearchStrategy[str]:
    if key in INT_COLUMNS:
        tame = _TAME["int"]
    elif key in ("log_id", "hand", "category", "rec_yaku", "comp_yaku"):
        tame = _TAME["text"]
    else:
        tame = _TAME["any"]
    wild = st.sampled_from(sorted(_KINDS))
    return st.integers(0, 11).flatmap(lambda k: wild if k == 0 else st.sampled_from(tame))


@st.composite
def _rows(draw: st.DrawFn, name: str, paths: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Rows of table ``name`` for ``paths`` (one per path for ``files``), each key of one
    kind of value, ``None`` or missing here and there."""
    kinds = {k: draw(_kind_of(k)) for k in _KEYS[name]}
    return draw_rows(draw, paths, kinds, _KINDS, one_per_path=name == "files")


# (no shrinking: each example writes ten files twice; the failing example is reported as drawn)
@settings(max_examples=30, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.sampled_from(sorted(_KEYS)), st.data(), st.integers(1, 3))
def test_awkward_rows_in_parts(
    tmp_path_factory: pytest.TempPathFactory, name: str, data: st.DataObject, n_parts: int
) -> None:
    """Rows of every kind of column (ints, floats needing rounding, ``-0.0``, NaN, inf,
    integers past 2**53 and 64 bits, booleans, text, mixes), with gaps and missing keys,
    cut into parts, a path audited again in a later part: the new path's bytes (or,
    where it declines, the pandas path's) are the pandas path's."""
    pool = ["a.xml", "b.xml", "c.json", "d.xml"]
    parts = []
    for _ in range(n_parts):
        paths = sorted(data.draw(st.sets(st.sampled_from(pool), min_size=1, max_size=3)))
        parts.append(data.draw(_rows(name, paths)))
    tmp = tmp_path_factory.mktemp("awkward")
    paths = _stored(tmp / "o", name, parts)
    report = StoredAuditReport(tmp / "o", paths)
    old, new, _ = _write_both(report, tmp)
    assert_same_json(old, new)


def test_plain_rows_take_the_new_path(tmp_path: Path) -> None:
    """Text, integers with gaps, booleans with and without gaps, floats needing
    rounding, NaN and missing keys in every table: no table with rows goes to pandas."""
    rows = [
        ("a.xml", {"file": "a.xml", "hand_index": 1, "seq": None, "x": True, "y": 1 / 3}),
        ("a.xml", {"file": "a.xml", "hand_index": None, "seq": 4, "x": False}),
        ("b.xml", {"file": "b.xml", "hand_index": 0, "seq": 2, "x": None, "y": math.nan}),
    ]
    for name in ("hands", "findings", "games"):
        out = tmp_path / name
        paths = _stored(out / "o", name, [rows[:2], rows[2:]])
        old, new, fell_back = _write_both(StoredAuditReport(out / "o", paths), out)
        assert fell_back == [t for t in CSV_TABLES if t not in ("files", name)] * 2
        assert_same_json(old, new)


def test_a_float_in_exponent_form_declines_its_table(tmp_path: Path) -> None:
    """A float pandas writes as ``%.10g`` (``1e17``): that table goes to pandas, whole."""
    rows = [("a.xml", {"file": "a.xml", "hand_index": 1, "seq": 1, "y": 1e17})]
    paths = _stored(tmp_path / "o", "hands", [rows])
    old, new, fell_back = _write_both(StoredAuditReport(tmp_path / "o", paths), tmp_path)
    assert fell_back.count("hands") == 2
    assert_same_json(old, new)


# ---------------------------------------------------------------- the corpus


@pytest.mark.corpus
def test_corpus_sample_json_is_the_pandas_json(
    corpus_sample_stored: Path, corpus_sample_audit: AuditReport, tmp_path: Path
) -> None:
    """The corpus sample stored in parts of nine files: every table from its parts,
    ``report.json`` and each ``.jsonl`` the pandas path's bytes and the in-memory
    report's (about 2 s of CPU for both writers; the run is shared)."""
    report = StoredAuditReport.open(corpus_sample_stored)
    old, new, fell_back = _write_both(report, tmp_path)
    assert fell_back == []
    assert_same_json(old, new)
    plain = tmp_path / "plain"
    corpus_sample_audit.write(plain, ["json", "jsonl"])
    assert_same_json(plain, new)
    games = json.loads((new / "games.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert type(games["final_points0"]) is float
    assert len(report._groups()) > 20
