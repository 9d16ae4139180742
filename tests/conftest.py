"""Shared test helpers: where the real-log corpus lives.

Tests that read ``../shared/corpus`` skip cleanly on a machine without it, so the
project's own tests still pass there.  In CI they must not: ``.ci/run`` sets
``REPLAY_AUDIT_REQUIRE_CORPUS=1``, and then a missing corpus is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"
CASES = ROOT.parent / "shared" / "cases"
REQUIRED = os.environ.get("REPLAY_AUDIT_REQUIRE_CORPUS") == "1"

T = TypeVar("T")


def shard(items: Sequence[T], index: int, count: int) -> list[T]:
    """Every ``count``-th item from ``index`` on.  A whole-corpus test parametrized
    over ``range(count)`` reads each item in exactly one of its shards, so together
    they still cover the whole corpus, and ``--dist worksteal`` runs the shards on
    whichever worker is free (one long test ends the run on one worker while the
    other idles)."""
    return list(items[index::count])


def one_suit_patterns(n: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every pattern of ``n`` counts (each 0-4) holding at most ``most`` tiles, in
    ``itertools.product``'s order; built count by count within the budget rather than
    by filtering all 5**n products (for a number suit, 1.95 million sums).  The
    exhaustive one-suit tests of the waits and of shanten walk them."""
    if n == 0:
        yield ()
        return
    for first in range(min(4, most) + 1):
        for rest in one_suit_patterns(n - 1, most - first):
            yield (first, *rest)


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


def replay_by(core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay the games by the core's hand loop (``core``; skipped where it is not
    built) or by the Python rooms alone, its reference: the two paths a check of the
    replay must find the same in."""
    from replay_audit.replay import table

    if core and table.CORE_GAME is None:
        pytest.skip("no compiled core")
    if not core:
        monkeypatch.setattr(table, "CORE_GAME", None)
        monkeypatch.setattr(table, "CORE_RUN", None)


def core_built(*names: str) -> pytest.MarkDecorator:
    """Skip the test where the compiled core is not built, or is built without one of
    ``names`` (an older build): ``test_core_wall.py::test_core_is_built`` says why.
    One mark for the core's test files, which each wrote the same import and skipif."""
    from replay_audit.native import _core

    missing = [n for n in names if _core is None or not hasattr(_core, n)]
    if _core is None or missing:
        what = f"replay_audit._core.{missing[0]}" if missing else "replay_audit._core"
        return pytest.mark.skipif(True, reason=f"{what} is not built")
    return pytest.mark.skipif(False, reason="the compiled core is built")


@pytest.fixture(scope="session")
def corpus_games():
    """Every mjlog XML of the corpus parsed once for the session (path -> Game) by
    ``parse_tenhou_xml``'s default reader: the compiled one (the Python reader where
    the core declines a document or is not built).  The parse-level corpus tests share
    it instead of each reading the files.  ``tests/test_core_mjlog.py`` holds it equal,
    file by file, to the Python reader's (``engine="python"``) Game, so these tests
    read what the Python reader reads; the fast reader makes the setup, paid on every
    pytest-xdist worker, about 5x cheaper (4 s of CPU instead of 21 s)."""
    need(CORPUS)
    import gzip

    from replay_audit.parsers.tenhou_xml import parse_tenhou_xml

    paths = sorted((CORPUS / "tenhou-xml").rglob("*.xml.gz")) + sorted(
        (CORPUS / "pairs").glob("*.xml.gz")
    )
    return {p: parse_tenhou_xml(gzip.decompress(p.read_bytes()), str(p)) for p in paths}


def once_per_run(factory: pytest.TempPathFactory, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, worked out once for the whole test run rather than once on each
    pytest-xdist worker: the first worker to ask computes it and pickles it to the
    run's temporary directory, which all workers share
    (``getbasetemp().parent``, a new ``pytest-N`` each run); a file lock makes the
    others wait for that file and load it.  Without xdist (``-n 0``: the parent is
    shared across runs, and could hand a run a stale value) or ``fcntl`` (Windows) it
    is simply computed here.  ``compute()`` must give a value that pickles."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return compute()
    if worker is None:
        return compute()
    import pickle

    shared = factory.getbasetemp().parent / "once_per_run"
    shared.mkdir(exist_ok=True)
    done = shared / f"{name}.pickle"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if done.exists():
                with open(done, "rb") as f:
                    return pickle.load(f)
            value = compute()
            part = done.with_name(f"{done.name}.{worker}")
            with open(part, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            part.replace(done)
            return value
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def corpus_audit(tmp_path_factory: pytest.TempPathFactory):
    """The whole corpus audited once for the run (one job, in memory; the workers
    share it, ``once_per_run``): the reference the pin, the parallel and the Dask runs
    are compared with."""
    need(CORPUS)
    from replay_audit.run.api import run_audit

    return once_per_run(tmp_path_factory, "corpus_audit", lambda: run_audit([CORPUS], jobs=1))


def corpus_sample(corpus: Path) -> list[str]:
    """A thirteenth of the corpus for the tests of how a run is carried out (one job or two,
    Dask, a stored report written part by part), whose content the whole-corpus tests
    already hold: every log outside ``phoenix-2024`` (the special logs, the excerpts with
    the corpus's findings and most of its notes, the JSON, the pairs) and every sixteenth
    Phoenix log, in the manifest's order."""
    lines = (corpus / "manifest.tsv").read_text(encoding="utf-8").splitlines()[1:]
    paths = [line.split("\t", 1)[0] for line in lines]
    phoenix = [p for p in paths if "/phoenix-2024/" in p]
    others = [p for p in paths if "/phoenix-2024/" not in p]
    return sorted(str(corpus / p) for p in [*others, *phoenix[::16]])


@pytest.fixture(scope="session")
def corpus_sample_audit(tmp_path_factory: pytest.TempPathFactory):
    """``corpus_sample`` audited once for the run (one job, in memory), the reference the
    sample's other runs are compared with."""
    need(CORPUS)
    from replay_audit.run.local import audit_files

    return once_per_run(
        tmp_path_factory, "corpus_sample_audit", lambda: audit_files(corpus_sample(CORPUS), jobs=1)
    )


@pytest.fixture(scope="session")
def fixtures_in_parts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every fixture log (the damaged and unreadable ones too) stored in parts of three
    files: the run the stored writers' tests (Parquet, JSON, the page's fact frames)
    hold to the pandas path.  Read only: a test writes its outputs elsewhere."""
    from replay_audit.io.paths import iter_log_paths
    from replay_audit.run.local import audit_files

    logs = [str(p) for p in iter_log_paths([FIXTURES])]
    out = tmp_path_factory.mktemp("fixtures_in_parts") / "o"
    audit_files(logs, jobs=1, out=out, files_per_part=3)
    return out


@pytest.fixture(scope="session")
def corpus_sample_stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``corpus_sample`` stored once for the run in parts of nine files (one job), for
    the tests that hold a stored run's writers (``report.json``, the page's fact
    frames) to the pandas path and to ``corpus_sample_audit``.  Read only."""
    need(CORPUS)
    from replay_audit.run.local import audit_files

    def store() -> str:
        out = tmp_path_factory.mktemp("corpus_sample_stored") / "o"
        audit_files(corpus_sample(CORPUS), jobs=1, out=out, files_per_part=9)
        return str(out)

    return Path(once_per_run(tmp_path_factory, "corpus_sample_stored", store))


@pytest.fixture
def start_shanten_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``stats.aggregate``'s ``start_shanten`` remembering every dealt hand it is given,
    for one test.  The core answers the corpus's ~113,000 dealt hands in about 0.15 s
    (``tests/test_core_shanten.py``), but without it the Python reference's cache
    (``scoring.shanten``'s ``lru_cache``) holds 16,384 of them, so a test that aggregates
    the corpus twice, to hold two ways of aggregating equal, computed every shanten
    twice (half such a test's time).  The shanten is a function of the hand alone, held
    to the ``mahjong`` package by ``tests/test_stats_more.py``; what these tests compare,
    the counters and the players' table, is still computed from it each time."""
    from replay_audit.stats import aggregate

    known: dict[str | bytes | tuple[int, ...], int | None] = {}
    compute = aggregate.start_shanten

    def remembered(dealt: str | bytes | tuple[int, ...]) -> int | None:
        if dealt not in known:
            known[dealt] = compute(dealt)
        return known[dealt]

    monkeypatch.setattr(aggregate, "start_shanten", remembered)


def draw_rows(
    draw: st.DrawFn,
    paths: list[str],
    kinds: dict[str, str],
    values: dict[str, st.SearchStrategy[Any]],
    *,
    one_per_path: bool = False,
    gaps: Sequence[str] = ("none", "missing"),
) -> list[tuple[str, dict[str, Any]]]:
    """Rows for ``paths`` as the stored writers' awkward-row tests draw them (Parquet,
    JSON, the page's fact frames): 0-3 rows a path (one with ``one_per_path``, as a
    ``files`` table has), each ``(path, row)``; each key of ``kinds`` a value of its
    kind (``values[kind]``) three times in four, else one of ``gaps``: ``None``, or
    the key left out (``"missing"``)."""
    rows = []
    for path in paths:
        for _ in range(1 if one_per_path else draw(st.integers(0, 3))):
            row: dict[str, Any] = {"file": path}
            for key, kind in kinds.items():
                how = draw(st.sampled_from(["value", "value", "value", *gaps]))
                if how == "none":
                    row[key] = None
                elif how == "value":
                    row[key] = draw(values[kind])
            rows.append((path, row))
    return rows
