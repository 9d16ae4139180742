"""The page's score tables and charts built in Python equal pandas' (the reference).

``report.html.sections._wide`` (a game's hand-by-hand score table) and
``report.html.charts._lines`` (a score chart's hands and per-seat lines) replaced
``pivot_table`` and ``groupby`` for speed; ``_pivoted`` and ``_frame_lines`` keep
pandas' versions.  The table's HTML is drawn from ``_wide_cells``' lists without a
frame (``_score_table``), held to ``_table`` of ``_pivoted``'s frame.  Held equal here on the fixtures' histories, awkward histories
(gaps, a seat missing from a hand, two rows of one hand) and every game of the
shared corpus sample; a planted slip is caught.
"""

from __future__ import annotations

import builtins
from typing import Any

import pandas as pd
import pytest

from replay_audit.report.audit_report import AuditReport
from replay_audit.report.html import charts, sections
from tests.conftest import FIXTURES


def _games(history: pd.DataFrame) -> list[pd.DataFrame]:
    """Each game's rows, as the page's detail section groups them."""
    return [g for _, g in history.groupby("file", sort=False)]


def assert_same(game: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(sections._wide(game), sections._pivoted(game))
    assert _comparable(charts._lines(game)) == _comparable(charts._frame_lines(game))
    assert charts.score_chart(game, "x") == _chart_by_pandas(game)
    assert sections._score_table(game, "g-x") == _table_by_pandas(game)


def _table_by_pandas(game: pd.DataFrame) -> str:
    """The hand-by-hand table through ``_pivoted``'s frame and ``_table``."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sections, "_wide", sections._pivoted)
        return sections.score_table_by_frame(game, "g-x")


def _comparable(lines: charts.Lines) -> charts.Lines:
    """``lines`` with each missing score as ``None`` (two NaN are not equal)."""
    xs, labels, seats = lines
    return (
        xs,
        labels,
        [(s, [(x, None if v != v else v) for x, v in steps], n) for s, steps, n in seats],
    )


def _chart_by_pandas(game: pd.DataFrame) -> str:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(charts, "_lines", charts._frame_lines)
        return charts.score_chart(game, "x")


@pytest.fixture(scope="module")
def fixture_history() -> pd.DataFrame:
    from replay_audit.io.paths import iter_log_paths
    from replay_audit.run.local import audit_files

    report = audit_files([str(p) for p in iter_log_paths([FIXTURES])], jobs=1)
    return report.score_history


def test_fixture_games(fixture_history: pd.DataFrame) -> None:
    games = _games(fixture_history)
    assert len(games) > 10
    for game in games:
        assert_same(game)


def _history(rows: list[tuple[Any, str, Any, Any]]) -> pd.DataFrame:
    """A game's history of ``(hand_index, label, seat, score)`` rows."""
    return pd.DataFrame(
        {
            "file": "a.xml",
            "log_id": "x",
            "hand_index": [r[0] for r in rows],
            "label": [r[1] for r in rows],
            "seat": [r[2] for r in rows],
            "name": [f"p{r[2]}" for r in rows],
            "score": [r[3] for r in rows],
        }
    )


@pytest.mark.parametrize(
    "rows",
    [
        [(0, "E1-0", 0, 25000), (0, "E1-0", 1, 25000), (1, "final", 0, 30000)],  # a gap
        [(1, "E2-0", 1, 3), (0, "E1-0", 1, 1), (1, "E2-0", 0, 2), (0, "E1-0", 0, 4)],
        [(0, "E1-0", 0, 1), (0, "E1-0", 0, 2), (1, "E2-0", 0, 3)],  # two rows of a hand
        [(0, "E1-0", 0, None), (0, "E1-0", 1, 5.5), (1, "E2-0", 0, 2.0)],  # float scores
        [(0, "E1-0", None, 1), (0, "E1-0", 1, 2)],  # a seat missing
        [(0, "E1-0", 0, 1), (0, "other", 1, 2)],  # two labels of a hand
    ],
)
def test_awkward_histories(rows: list[tuple[Any, str, Any, Any]]) -> None:
    assert_same(_history(rows))


def test_a_planted_difference_is_caught(
    fixture_history: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows and seats put in reverse order in the Python versions: the tables and the
    lines differ from pandas'."""
    game = _games(fixture_history)[0]
    monkeypatch.setattr(
        sections, "sorted", lambda xs: builtins.sorted(xs, reverse=True), raising=False
    )
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(sections._wide(game), sections._pivoted(game))
    assert sections._wide_cells(game) is not None  # (the lists' path, not declined)
    assert sections._score_table(game, "g-x") != _table_by_pandas(game)
    monkeypatch.setattr(
        charts, "sorted", lambda xs, **k: builtins.sorted(xs, **k)[::-1], raising=False
    )
    assert charts._lines(game) != charts._frame_lines(game)


@pytest.mark.corpus
def test_corpus_sample_games(corpus_sample_audit: AuditReport) -> None:
    """Every other game of the shared corpus sample (about 5 s, most of it pandas'
    pivots and groupings)."""
    games = _games(corpus_sample_audit.score_history)[::2]
    assert len(games) > 100
    for game in games:
        assert_same(game)
