"""Shared test helpers: where the real-log corpus lives.

Tests that read ``../shared/corpus`` skip cleanly on a machine without it, so the
project's own tests still pass there.  In CI they must not: ``.ci/run`` sets
``REPLAY_AUDIT_REQUIRE_CORPUS=1``, and then a missing corpus is a failure.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"
CASES = ROOT.parent / "shared" / "cases"
REQUIRED = os.environ.get("REPLAY_AUDIT_REQUIRE_CORPUS") == "1"


def need(path: Path, what: str = "../shared/corpus") -> Path:
    """``path`` if it exists; else skip the test (fail it in CI)."""
    if not path.exists():
        message = f"{what} is absent ({path})"
        if REQUIRED:
            pytest.fail(f"REPLAY_AUDIT_REQUIRE_CORPUS=1 but {message}")
        pytest.skip(message)
    return path


@pytest.fixture
def corpus() -> Path:
    return need(CORPUS)


@pytest.fixture(scope="session")
def corpus_games():
    """Every mjlog XML of the corpus parsed once for the session (path -> Game) by
    the Python reader (``engine="python"``): the parse-level corpus tests share it
    instead of each reading the files, and the compiled reader is held equal to it."""
    need(CORPUS)
    import gzip

    from replay_audit.parsers.tenhou_xml import parse_tenhou_xml

    paths = sorted((CORPUS / "tenhou-xml").rglob("*.xml.gz")) + sorted(
        (CORPUS / "pairs").glob("*.xml.gz")
    )
    return {
        p: parse_tenhou_xml(gzip.decompress(p.read_bytes()), str(p), engine="python") for p in paths
    }


@pytest.fixture(scope="session")
def corpus_audit():
    """The whole corpus audited once in this process (one job, in memory): the
    reference the pin, the parallel and the Dask runs are compared with."""
    need(CORPUS)
    from replay_audit.run.api import run_audit

    return run_audit([CORPUS], jobs=1)
