"""The Dask engine on a real ``LocalCluster`` (two worker processes).

Skipped when dask/distributed are not installed. The fake worker here is
pickled by value (the cluster's spawned workers cannot import test modules).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from replay_audit.auditing.rows import FileAudit
from replay_audit.report.store import INDEX_NAME, PARTS_DIR
from replay_audit.report.stored import StoredAuditReport
from replay_audit.report.tables import TABLES
from replay_audit.run.local import audit_files
from tests.conftest import corpus_sample

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")


def small_worker(path: str, rules: Any = None, *, strict: bool = False) -> FileAudit:
    """Rows from a JSON spec, with a column mixing ints and strings."""
    raw = Path(path).read_bytes()
    spec = json.loads(raw)
    n, seed = int(spec["hands"]), int(spec["seed"])
    fa = FileAudit(path=path, format="fake", sha256=hashlib.sha256(raw).hexdigest())
    fa.games.append({"file": path, "log_id": Path(path).stem, "hands": n, "x": seed / 2})
    fa.hands.extend(
        {"file": path, "hand_index": i, "seq": i, "rec": i if seed % 2 else str(i)}
        for i in range(n)
    )
    if seed % 4 == 0:
        fa.status = "mismatch"
        fa.findings.append({"category": "payment", "field": "delta", "file": path, "seq": 0})
    return fa


@pytest.fixture(scope="module")
def cluster():
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as c:
        yield c


def _logs(folder: Path, n: int) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        p = folder / f"g{i:03d}.json"
        p.write_text(json.dumps({"hands": 1 + i % 4, "seed": i}), encoding="utf-8")
        out.append(str(p))
    return out


def _same(a: Any, b: Any) -> None:
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)
    assert a.summary() == b.summary()


def test_dask_matches_local_and_resumes(cluster: Any, tmp_path: Path) -> None:
    from replay_audit.run.dask_engine import run_dask

    files = _logs(tmp_path / "logs", 21)
    ref = audit_files(files, jobs=1, worker=small_worker)
    out = tmp_path / "o"
    got = run_dask(
        files, scheduler=cluster.scheduler_address, out=out, worker=small_worker, files_per_part=4
    )
    assert isinstance(got, StoredAuditReport)
    _same(ref, got)
    totals = got.run_stats["cluster_totals"]
    s = ref.summary()
    assert totals["files"] == s["files"] == 21
    assert totals["results"] == s["results"] and totals["findings"] == s["findings"]
    assert totals["status_mismatch"] == s["files_mismatch"]
    assert len((out / PARTS_DIR / INDEX_NAME).read_text().splitlines()) == 21
    # a rerun audits nothing; a changed file alone is audited again
    again = run_dask(files, scheduler=cluster.scheduler_address, out=out, worker=small_worker)
    assert again.run_stats["audited"] == 0 and again.run_stats["skipped"] == 21
    _same(ref, again)
    Path(files[3]).write_text(json.dumps({"hands": 9, "seed": 3}), encoding="utf-8")
    third = run_dask(files, scheduler=cluster.scheduler_address, out=out, worker=small_worker)
    assert third.run_stats["audited"] == 1
    _same(audit_files(files, jobs=1, worker=small_worker), third)


def test_dask_without_out_returns_an_in_memory_report(cluster: Any, tmp_path: Path) -> None:
    from replay_audit.run.dask_engine import run_dask

    files = _logs(tmp_path / "logs", 6)
    got = run_dask(files, scheduler=cluster.scheduler_address, worker=small_worker)
    assert not isinstance(got, StoredAuditReport)
    _same(audit_files(files, jobs=1, worker=small_worker), got)


@pytest.mark.corpus
def test_dask_real_audit_matches_local(
    cluster: Any, corpus: Path, corpus_sample_audit: Any, tmp_path: Path
) -> None:
    """The corpus sample (``tests.conftest.corpus_sample``) on the cluster gives the
    one-job report exactly."""
    pytest.importorskip("replay_audit.io")
    from replay_audit.run.api import run_audit

    files = corpus_sample(corpus)
    got = run_audit(files, engine="dask", scheduler=cluster.scheduler_address, out=tmp_path / "o")
    _same(corpus_sample_audit, got)
    assert got.summary()["files"] == len(files)
