"""The page's games table from a stored run's columns equals the one from its frames.

``StoredAuditReport.page_game_cells`` (``report.part_frames.cell_chunks``) gives the
games table's cells from the parts' columns; with ``cells_from_parts = False`` the
page reads ``typed_chunks``' frames, the reference.  Here the two are held equal (the
cells, the text columns and the section's HTML) on the fixtures in parts, on awkward
rows cut into parts, and on the shared corpus sample; the cell path is shown to be
taken, and planted slips in it to be caught.  ``pieces.rows_html``, which makes each
column's cells once per distinct value, is held to ``rows_html_uncached`` on awkward
values; the players section, which types only the columns it reads, to the section
typing the whole table.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from replay_audit.report import part_frames
from replay_audit.report.html import pieces, sections
from replay_audit.report.stored import StoredAuditReport
from tests.conftest import draw_rows
from tests.test_parquet_columns import _stored


def _gap(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def _cells(report: StoredAuditReport, fast: bool) -> tuple[list[str], frozenset[str], list[Any]]:
    """The games' columns, text columns and rows (each gap as ``None``, each cell with
    its type) the page reads, from the columns or from the frames."""
    report.cells_from_parts = fast
    try:
        got = list(sections._game_rows(report))
    finally:
        report.cells_from_parts = True
    cols, text = (got[0][0], got[0][1]) if got else ([], frozenset())
    rows = [
        tuple(None if _gap(v) else (type(v), v) for v in row)
        for _, _, chunk in got
        for row in chunk
    ]
    return cols, text, rows


def _section(report: StoredAuditReport, fast: bool, keep: set[str]) -> tuple[str, set[str]]:
    report.cells_from_parts = fast
    try:
        return sections._games_section(report, keep)
    finally:
        report.cells_from_parts = True


def assert_same_games(report: StoredAuditReport, keep: set[str] = frozenset()) -> None:  # type: ignore[assignment]
    assert _cells(report, True) == _cells(report, False)
    assert _section(report, True, set(keep)) == _section(report, False, set(keep))


def test_fixture_games_from_the_columns(fixtures_in_parts: Path) -> None:
    """The fixtures' games from the parts' columns: the cells, their text columns and
    the section equal the frames' (with every game, and capped)."""
    report = StoredAuditReport.open(fixtures_in_parts)
    assert report.page_game_cells() is not None
    assert_same_games(report)
    files = sorted(report._wanted())
    with pytest.MonkeyPatch.context() as m:
        m.setattr(pieces, "MAX_GAMES", 3)
        assert_same_games(report, {files[-1], files[len(files) // 2]})


def _games(out: Path) -> StoredAuditReport:
    """Games in two parts, ``a.xml`` audited again in the second; text with gaps,
    integers with gaps in an integer column and in another, floats with ``NaN``,
    booleans with a gap, a column of gaps only."""
    nan = float("nan")
    old = [
        ("a.xml", {"file": "a.xml", "log_id": "z", "players": 4, "final_points0": 1.5}),
        ("b.xml", {"file": "b.xml", "log_id": "b2", "players": None, "name0": "<b>&"}),
        ("b.xml", {"file": "b.xml", "log_id": "b1", "players": 3, "final_points0": 12}),
    ]
    for k, (_, row) in enumerate(old):
        row.update(x=None if k == 1 else k, ok=[True, None, False][k], gone=None)
    again = [
        ("a.xml", {"file": "a.xml", "log_id": "a", "players": 4, "final_points0": nan, "x": 7}),
    ]
    report = StoredAuditReport(out, _stored(out, "games", [old, again]))
    report.page_game_count = lambda: 3  # type: ignore[method-assign]  # (no index totals)
    return report


@pytest.mark.parametrize("slip", ["order", "floats", "text", "sources"])
def test_a_planted_difference_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slip: str
) -> None:
    """Rows left unsorted, integers in a float column left integers, no text columns,
    or a re-audited file's old rows kept: the section differs from the frames'."""
    report = _games(tmp_path / "o")
    assert report.page_game_cells() is not None
    assert_same_games(report)
    if slip == "order":
        monkeypatch.setattr(part_frames, "row_order", lambda *args: None)
    elif slip == "floats":
        monkeypatch.setattr(part_frames, "_cells", _cells_without_floats)
    elif slip == "text":
        dtypes = part_frames._dtypes
        monkeypatch.setattr(
            part_frames,
            "_dtypes",
            lambda *args: {c: "str" if str(d) == "object" else d for c, d in dtypes(*args).items()},
        )
    else:
        monkeypatch.setattr(report, "_column_chunks", _all_rows(report))
    with pytest.raises(AssertionError):
        assert _section(report, True, set()) == _section(report, False, set())


_cells_kept = part_frames._cells


def _cells_without_floats(name: str, columns: list[str], floats: list[bool], chunks: Any) -> Any:
    return _cells_kept(name, columns, [False] * len(floats), chunks)


def _all_rows(report: StoredAuditReport) -> Any:
    """``_column_chunks`` reading every row of each part (a re-audited file's old rows too)."""
    from replay_audit.report.codec import table_columns

    def read(name: str, groups: list[dict[str, str | None]]) -> Any:
        for part in sorted({p for g in groups for p in g.values() if p is not None}):
            data = report.store.read_part(name, part)
            if data is not None:
                yield table_columns(data.drop_columns(["__source__"]))

    return read


# ---------------------------------------------------------------- awkward rows

_KINDS: dict[str, st.SearchStrategy[Any]] = {
    "none": st.none(),
    "bool": st.booleans(),
    "int": st.integers(-3, 14),
    "big_int": st.integers(2**53 - 1, 2**53 + 2) | st.integers(-3, 3),
    "float": st.floats(allow_nan=True) | st.sampled_from([1.0, 2.5, -0.0, 0.0]),
    "text": st.sampled_from(["12", "x", "", "天鳳", "a<b>&\"'"]),
    "mixed": st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=2),
}
_KEYS = ["log_id", "players", "name0", "final_points0", "final_score0", "x"]


@st.composite
def _rows(draw: st.DrawFn, paths: list[str]) -> list[tuple[str, dict[str, Any]]]:
    kinds = {k: draw(st.sampled_from(sorted(_KINDS))) for k in _KEYS}
    if kinds["log_id"] not in ("text", "none", "int"):  # (a sort key of text or gaps)
        kinds["log_id"] = "text"
    return draw_rows(draw, paths, kinds, _KINDS)


@settings(max_examples=40, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.data(), st.integers(1, 3))
def test_awkward_games_in_parts(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, n_parts: int
) -> None:
    """Games of every kind of column, with gaps and missing keys, cut into parts, a path
    audited again in a later part: the cells from the columns (or, where they decline,
    from the frames) are the frames'."""
    pool = ["a.xml", "b.xml", "c.json", "d.xml"]
    parts = []
    for _ in range(n_parts):
        paths = sorted(data.draw(st.sets(st.sampled_from(pool), min_size=1, max_size=3)))
        parts.append(data.draw(_rows(paths)))
    if not any(parts):
        return
    out = tmp_path_factory.mktemp("awkward") / "o"
    report = StoredAuditReport(out, _stored(out, "games", parts))
    n = sum(len(p) for p in parts)
    report.page_game_count = lambda: n  # type: ignore[method-assign]
    assert_same_games(report)


_EDGES = [0.0, -0.0, 10.0, -10.0, 9.5, 9.9996, 0.0005, -0.0004, 1e20, math.inf, -math.inf]


_VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-12, 12)
    | st.floats(allow_nan=True)
    | st.sampled_from([*_EDGES, 1.0, float("nan"), pd.NA, "", "a<b", [1, 2.5]])
    | st.text(max_size=3)
)


@pytest.mark.parametrize("fixed", [False, True])
def test_rows_html_edges(fixed: bool) -> None:
    """``0.0`` then ``-0.0`` in one column (one key, two texts where fixed), ``1``,
    ``True`` and ``1.0`` (one key), floats about the ``_fmt`` bounds, pandas' ``NA``
    twice: each cell as made a cell at a time."""
    rows = [[v, v, 1] for v in _EDGES]
    rows += [[1, True, 1.0], [True, 1.0, 1], [pd.NA, pd.NA, math.nan], ["<", None, [1]]]
    kw: dict[str, Any] = {"text": {"c"}, "fixed": {"b", "c"} if fixed else set()}
    got = pieces.rows_html(rows, ["a", "b", "c"], **kw)
    assert got == pieces.rows_html_uncached(rows, ["a", "b", "c"], **kw)
    if fixed:
        assert "<td>-0.000</td>" in got[1] and "<td>0.000</td>" in got[0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_VALUES, min_size=3, max_size=3), max_size=12), st.booleans())
def test_rows_html_remembers_nothing_wrong(rows: list[list[Any]], ids: bool) -> None:
    """Awkward cells (``0.0`` and ``-0.0``, ``1``, ``1.0`` and ``True``, gaps of three
    kinds, unhashable lists) in text, fixed and plain columns: the remembered cells are
    the ones made a cell at a time."""
    cols = ["a", "b", "c"]
    kw: dict[str, Any] = {"text": {"a"}, "fixed": {"b"}}
    if ids:
        kw["row_ids"] = [f"r{i}" if i % 2 else "" for i in range(len(rows))]
    assert pieces.rows_html(rows, cols, **kw) == pieces.rows_html_uncached(rows, cols, **kw)


# ---------------------------------------------------------------- the corpus


@pytest.mark.corpus
def test_corpus_sample_games(corpus_sample_stored: Path) -> None:
    """The shared corpus sample stored in parts of nine files: its games from the
    columns, every one and capped, equal the frames'."""
    report = StoredAuditReport.open(corpus_sample_stored)
    assert report.page_game_cells() is not None
    assert_same_games(report)
    files = sorted(report._wanted())
    with pytest.MonkeyPatch.context() as m:
        m.setattr(pieces, "MAX_GAMES", 40)
        assert_same_games(report, set(files[::25]))


# ---------------------------------------------------------------- the players section


def _whole_players_section(players: pd.DataFrame) -> str:
    """The players section typing every column of the table (the reference)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sections, "_page_columns", lambda frame: frame)
        return sections._players_section(players)


def test_players_section_from_its_columns(fixtures_in_parts: Path) -> None:
    """The fixtures' players: the section from the columns it reads equals the one from
    the whole table, with and without charts (and with a cap on the rows); a chart's
    counter left out of ``PLACE_COLUMNS`` is caught."""
    from replay_audit import stats

    players = stats.players(StoredAuditReport.open(fixtures_in_parts))
    assert len(players) > 10
    assert sections._players_section(players) == _whole_players_section(players)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(pieces, "MAX_PLAYERS", 3)
        m.setattr(pieces, "MAX_PLAYER_CHARTS", 2)
        assert sections._players_section(players) == _whole_players_section(players)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sections, "PLACE_COLUMNS", ("place_2", "place_3", "place_4"))
        assert sections._players_section(players) != _whole_players_section(players)


@pytest.mark.corpus
def test_corpus_sample_players_section(corpus_sample_stored: Path) -> None:
    from replay_audit import stats

    players = stats.players(StoredAuditReport.open(corpus_sample_stored))
    assert sections._players_section(players) == _whole_players_section(players)
