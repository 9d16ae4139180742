"""Shared test helpers: where the real-log corpus lives (tests skip without it)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


@pytest.fixture(scope="session")
def corpus_audit():
    """The whole corpus audited once in this process (one job, in memory): the
    reference the parallel and Dask runs are compared with."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    from replay_audit.runner import run_audit

    return run_audit([CORPUS], jobs=1)
