"""``stats.derive`` on the counters' arrays equals ``derive_by_frame``, a statistic at a time.

``derive`` computes every statistic of the registry on the counter columns' float
arrays and joins them to the table at once; ``derive_by_frame`` sets them one by one
on the frame through pandas (the reference).  Held equal here, every bit of every
float (a ``-0.0`` and a ``NaN`` where the other has them), on the fixtures' counters,
on drawn counters (zero and negative denominators, gaps in the maxima, unknown game
types), on an empty table and on the shared corpus sample's counters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.report.stored import StoredAuditReport
from replay_audit.stats import aggregate
from replay_audit.stats.definitions import COUNTERS


def assert_same(counts: pd.DataFrame) -> None:
    got = aggregate.derive(counts)
    want = aggregate.derive_by_frame(counts)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    for c in got.columns:
        a, b = got[c].to_numpy(), want[c].to_numpy()
        if a.dtype.kind == "f":
            assert np.array_equal(np.signbit(a), np.signbit(b)), c
            assert np.array_equal(np.isnan(a), np.isnan(b)), c


def _counts(report: Any, by_lobby: bool = False) -> pd.DataFrame:
    options: aggregate.CountOptions = {
        "double_ron": "per_winner",
        "count_abortive_as_hands": True,
        "closed_kan_is_call": False,
    }
    return aggregate._combine_stream(
        aggregate._grouped_counters(hf, gf, True, by_lobby, options)
        for hf, gf in aggregate._batched(report.fact_chunks())
    )


def test_fixture_counters(fixtures_in_parts: Path) -> None:
    report = StoredAuditReport.open(fixtures_in_parts)
    for by_lobby in (False, True):
        counts = _counts(report, by_lobby)
        assert len(counts) > 10
        assert_same(counts)


def test_empty_counters() -> None:
    assert_same(aggregate.combine([]))


_GAME_TYPES = ["tenhou-4p-hanchan", "tenhou-3p-tonpuu", "majsoul-4p-hanchan", "other"]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(1, 6))
def test_drawn_counters(data: st.DataObject, n: int) -> None:
    """Counters of any size and sign, zeros (a rate's gap) and gaps in the maxima."""
    columns: dict[str, Any] = {
        "name": [f"p{i}" for i in range(n)],
        "game_type": data.draw(st.lists(st.sampled_from(_GAME_TYPES), min_size=n, max_size=n)),
    }
    for c in COUNTERS:
        if c.reduce == "max":
            cell = st.none() | st.integers(0, 9)
            columns[c.key] = pd.array(
                data.draw(st.lists(cell, min_size=n, max_size=n)), dtype="float64"
            )
        else:
            cell = st.integers(-3, 40) | st.sampled_from([0, 0.0, -0.0, 42.6])
            values = data.draw(st.lists(cell, min_size=n, max_size=n))
            columns[c.key] = values
    assert_same(pd.DataFrame(columns))


@pytest.mark.corpus
def test_corpus_sample_counters(corpus_sample_stored: Path) -> None:
    assert_same(_counts(StoredAuditReport.open(corpus_sample_stored)))
