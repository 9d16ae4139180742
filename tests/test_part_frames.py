"""A stored report's fact frames built from its parts' Arrow columns equal the frames of its rows.

``StoredAuditReport.fact_chunks`` (what ``stats.players`` sums, for the HTML page
and ``replay-audit players``) builds each part's ``hand_facts`` and ``game_facts``
frame with ``report.part_frames.part_frame``; with ``frames_from_parts = False`` it
builds them from the rows (``tables.table_frame``), the reference.  Here the two
are held equal (``assert_frame_equal``: values, dtypes, column order, index) on
the fixtures in parts, on awkward rows cut into parts, and on the shared corpus
sample, with the players' table; the Arrow path is shown to be taken for a real
run, and planted slips in it to be caught.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from replay_audit import stats
from replay_audit.report import part_frames
from replay_audit.report.audit_report import AuditReport
from replay_audit.report.stored import StoredAuditReport
from replay_audit.report.stored_tables import _StoredTables
from tests.conftest import draw_rows
from tests.test_parquet_columns import _stored


def _both(report: StoredAuditReport) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """Each chunk's frame from the parts and from the rows, hand facts then game facts."""
    report.frames_from_parts = True
    fast = list(report.fact_chunks())
    report.frames_from_parts = False
    slow = list(report.fact_chunks())
    report.frames_from_parts = True
    assert len(fast) == len(slow)
    for (hf, gf), (hf0, gf0) in zip(fast, slow, strict=True):
        yield hf, hf0
        yield gf, gf0


def assert_same_frames(report: StoredAuditReport) -> None:
    for got, want in _both(report):
        pd.testing.assert_frame_equal(got, want)


def _fell_back(report: StoredAuditReport, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The fact tables whose chunk frames ``fact_chunks`` built from the rows (a chunk
    with rows only; an empty chunk goes that way by design)."""
    noted: list[str] = []
    frame = _StoredTables._frame

    def noting(self: Any, name: str, group: dict[str, str | None]) -> pd.DataFrame:
        df = frame(self, name, group)
        if len(df):
            noted.append(name)
        return df

    monkeypatch.setattr(_StoredTables, "_frame", noting)
    list(report.fact_chunks())
    return noted


def test_fixture_fact_frames_are_the_rows_frames(
    fixtures_in_parts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every chunk of the fixtures' facts from the parts, equal to the rows' frame, and
    the players' table (what the page shows) equal too."""
    report = StoredAuditReport.open(fixtures_in_parts)
    assert_same_frames(report)
    fast = stats.players(report)
    report.frames_from_parts = False
    pd.testing.assert_frame_equal(fast, stats.players(report))
    report.frames_from_parts = True
    assert len(fast) > 10
    assert len({p for g in report._groups() for p in g.values()}) > 3  # several parts
    assert _fell_back(report, monkeypatch) == []


def _reaudited(out: Path) -> StoredAuditReport:
    """Hand facts in two parts, ``a.xml`` audited again in the second: the first part's
    rows of ``b.xml`` alone are read from it, their ``x`` all gaps though the part
    typed it (``a.xml``'s old row had a number there)."""
    old = [
        ("a.xml", {"file": "a.xml", "hand_index": 0, "seat": 0, "x": 7, "won": True}),
        ("b.xml", {"file": "b.xml", "hand_index": 1, "seat": 1, "x": None, "won": False}),
        ("b.xml", {"file": "b.xml", "hand_index": 0, "seat": 0, "x": None, "won": None}),
    ]
    again = [("a.xml", {"file": "a.xml", "hand_index": 0, "seat": 0, "x": 8, "won": True})]
    return StoredAuditReport(out, _stored(out, "hand_facts", [old, again]))


@pytest.mark.parametrize("slip", ["gaps", "order", "sources"])
def test_a_planted_difference_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slip: str
) -> None:
    """All-gap columns left typed, the rows reversed, or a re-audited file's old rows
    kept: the frames differ from the rows' (the path taken, not declined)."""
    report = _reaudited(tmp_path / "o")
    assert_same_frames(report)
    if slip == "gaps":
        monkeypatch.setattr(part_frames, "_gaps_as_null", lambda data: data)
    elif slip == "order":
        order = part_frames.arrow_order
        monkeypatch.setattr(part_frames, "arrow_order", lambda *args: order(*args)[::-1])
    else:
        monkeypatch.setattr(part_frames, "chunk_rows", lambda name, chunk: chunk.data)
    with monkeypatch.context() as m:
        assert _fell_back(report, m) == []
    with pytest.raises(AssertionError):
        assert_same_frames(report)


# ---------------------------------------------------------------- awkward rows

_KINDS: dict[str, st.SearchStrategy[Any]] = {
    "none": st.none(),
    "bool": st.booleans(),
    "int": st.integers(-3, 14),
    "big_int": st.integers(2**53 - 1, 2**53 + 2) | st.integers(-3, 3),
    "float": st.floats(allow_nan=True) | st.sampled_from([1.0, 2.5]),
    "text": st.sampled_from(["12", "x", "", "天鳳", "a\nb"]),
    "mixed": st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=2),
}
_KEYS = ["hand_index", "seat", "name", "won", "net", "x"]


@st.composite
def _rows(draw: st.DrawFn, paths: list[str], missing: bool) -> list[tuple[str, dict[str, Any]]]:
    """Hand-fact rows for ``paths``, each key of one kind of value, ``None`` (or, with
    ``missing``, no key) here and there."""
    kinds = {k: draw(st.sampled_from(sorted(_KINDS))) for k in _KEYS}
    gaps = ["none", "missing"] if missing else ["none"]
    return draw_rows(draw, paths, kinds, _KINDS, gaps=gaps)


@settings(max_examples=40, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.data(), st.integers(1, 3), st.booleans())
def test_awkward_rows_in_parts(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, n_parts: int, missing: bool
) -> None:
    """Rows of every kind of column, with gaps (and missing keys), cut into parts, a path
    audited again in a later part: the frame from the parts (or, where it declines,
    from the rows) is the rows' frame."""
    pool = ["a.xml", "b.xml", "c.json", "d.xml"]
    parts = []
    for _ in range(n_parts):
        paths = sorted(data.draw(st.sets(st.sampled_from(pool), min_size=1, max_size=3)))
        parts.append(data.draw(_rows(paths, missing)))
    out = tmp_path_factory.mktemp("awkward") / "o"
    report = StoredAuditReport(out, _stored(out, "hand_facts", parts))
    assert_same_frames(report)


def test_plain_rows_take_the_arrow_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Text, integers with gaps, booleans with and without gaps, floats (NaN too) and a
    column of gaps only: the frame comes from the parts, equal to the rows' one."""
    rows = [
        ("b.xml", {"file": "b.xml", "hand_index": 1, "seat": 0, "won": True, "x": None, "y": 1.5}),
        ("a.xml", {"file": "a.xml", "hand_index": 2, "seat": None, "won": None, "x": None}),
        ("a.xml", {"file": "a.xml", "hand_index": 0, "seat": 1, "won": False, "x": None}),
    ]
    for row in rows[1:]:
        row[1]["y"] = float("nan")
    out = tmp_path / "o"
    report = StoredAuditReport(out, _stored(out, "hand_facts", [rows]))
    assert _fell_back(report, monkeypatch) == []
    monkeypatch.undo()
    assert_same_frames(report)
    hf, _ = next(iter(report.fact_chunks()))
    assert list(hf["file"]) == ["a.xml", "a.xml", "b.xml"]
    assert str(hf["won"].dtype) == "object" and hf["x"].isna().all()


# ---------------------------------------------------------------- the corpus


@pytest.mark.corpus
def test_corpus_sample_fact_frames_and_players(
    corpus_sample_stored: Path, corpus_sample_audit: AuditReport
) -> None:
    """The shared corpus sample stored in parts of nine files: each chunk's facts from
    the parts equal the rows' frames, and the players' table equals the in-memory
    run's (the run is shared with the JSON writer's test)."""
    stored = StoredAuditReport.open(corpus_sample_stored)
    assert_same_frames(stored)
    got = stats.players(stored)
    pd.testing.assert_frame_equal(got, stats.players(corpus_sample_audit))
    assert got["hands"].sum() > 8_000  # (seat-hands of the sample: 8,192)
