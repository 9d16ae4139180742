"""The score-history files the page picks, read from fewer rows, equal those read row by row.

``StoredAuditReport.page_history_files`` finds each file of the score history and the
source path of its first row; ``_history_sources_of`` drops, by Arrow, the rows of
other sources, those without a file and those repeating the row before them, where
a part's ``file`` column is text; with ``history_by_rows = True`` every row is read
(``_history_sources_by_rows``), the reference.  Held equal here (the files picked and
the sources the page then reads their rows from) on the fixtures in parts, on awkward
rows cut into parts, and on the shared corpus sample.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from replay_audit.report.stored import StoredAuditReport
from tests.test_parquet_columns import _stored


def _picked(report: StoredAuditReport, by_rows: bool, also: set[str]) -> Any:
    report.history_by_rows = by_rows
    try:
        got = report.page_history_files(2, also)
        return got, dict(report._history_sources)
    finally:
        report.history_by_rows = False


def assert_same_files(report: StoredAuditReport, also: set[str] = frozenset()) -> None:  # type: ignore[assignment]
    assert _picked(report, False, set(also)) == _picked(report, True, set(also))


def test_fixture_history_files(fixtures_in_parts: Path) -> None:
    report = StoredAuditReport.open(fixtures_in_parts)
    assert_same_files(report)
    files = sorted(report._wanted())
    assert_same_files(report, set(files[::3]))
    assert _picked(report, False, set())[0][2] > 10


def test_interleaved_sources(tmp_path: Path) -> None:
    """A part whose rows go back and forth between sources and files (``b`` then ``a``
    then ``b`` again), a file under two sources, rows without a file, and a file
    audited again in a later part: the first source of each file, as row by row."""
    rows = [
        ("b.xml", {"file": "x", "hand_index": 0}),
        ("a.xml", {"file": "x", "hand_index": 0}),
        ("b.xml", {"file": "y", "hand_index": 0}),
        ("b.xml", {"file": None, "hand_index": 1}),
        ("a.xml", {"file": "y", "hand_index": 1}),
        ("c.xml", {"file": "c", "hand_index": 0}),
        ("c.xml", {"file": "c", "hand_index": 1}),
    ]
    again = [("c.xml", {"file": "z", "hand_index": 0})]
    out = tmp_path / "o"
    report = StoredAuditReport(out, _stored(out, "score_history", [rows, again]))
    assert_same_files(report)
    (ordered, _, n), sources = _picked(report, False, set())
    assert (ordered, n) == (["x", "y"], 3) and sources == {"x": "b.xml", "y": "b.xml"}


_FILES: dict[str, st.SearchStrategy[Any]] = {
    "text": st.sampled_from(["x", "y", "a.xml", ""]),
    "int": st.integers(0, 2),
    "mixed": st.none() | st.integers(0, 2) | st.sampled_from(["x", "y"]),
}


@st.composite
def _rows(draw: st.DrawFn, paths: list[str], kind: str) -> list[tuple[str, dict[str, Any]]]:
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["value", "value", "value", "none", "missing"]))
        row: dict[str, Any] = {"hand_index": 0}
        if how == "value":
            row["file"] = draw(_FILES[kind])
        elif how == "none":
            row["file"] = None
        rows.append((path, row))
    return rows


@settings(max_examples=40, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.data(), st.integers(1, 3), st.sampled_from(sorted(_FILES)))
def test_awkward_history_in_parts(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, n_parts: int, kind: str
) -> None:
    """Score-history rows of text, integer or mixed files, with gaps and missing keys,
    in any order of sources, cut into parts, a path audited again in a later part."""
    pool = ["a.xml", "b.xml", "c.json"]
    parts = []
    for _ in range(n_parts):
        paths = sorted(data.draw(st.sets(st.sampled_from(pool), min_size=1, max_size=3)))
        parts.append(data.draw(_rows(paths, kind)))
    if not any(parts):
        return
    out = tmp_path_factory.mktemp("history") / "o"
    report = StoredAuditReport(out, _stored(out, "score_history", parts))
    assert_same_files(report, {"y"})


@pytest.mark.corpus
def test_corpus_sample_history_files(corpus_sample_stored: Path) -> None:
    report = StoredAuditReport.open(corpus_sample_stored)
    files = sorted(report._wanted())
    assert_same_files(report, set(files[::20]))
