"""The Dask engine: the same per-file audit on a Dask cluster (``engine="dask"``).

The paths to audit form a ``dask.bag``; each bag partition is one chunk that a
Dask worker audits with ``audit_file`` and writes as Arrow parts itself (the
same ``run.chunk.audit_chunk`` and on-disk layout as the local engine, so ``out``
must be a folder every worker can reach). The client receives only index
entries, appending them as partitions finish so a killed run resumes like a
local one; the run's totals are reduced on the cluster from those entries.

Dask is optional: ``pip install "dask[bag]" distributed``.

Must not: plan or store differently from the local engine, or import it
(both share ``run.plan``, ``run.chunk`` and ``report.store``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay_audit.auditing.auditor import audit_file
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.report.audit_report import AuditReport
from replay_audit.report.stored import StoredAuditReport
from replay_audit.run.chunk import ChunkResult, ChunkTask, audit_chunk
from replay_audit.run.keys import Worker
from replay_audit.run.plan import Plan, part_size, plan_run


def _audit_partition(
    paths: Sequence[str],
    rules: RuleSet | None,
    strict: bool,
    out: str,
    run: str,
    worker: Worker,
) -> list[dict[str, Any]]:
    """One bag partition: audit its files, write its parts, return index entries.

    The part name comes from the partition's first path, which is unique within
    a run (each path is in one partition), so workers never need to coordinate.
    """
    paths = list(paths)
    if not paths:
        return []
    import hashlib

    tag = hashlib.sha256(paths[0].encode()).hexdigest()[:12]
    task = ChunkTask(tuple(paths), rules, strict, out, f"{run}-{tag}", worker)
    return audit_chunk(task).entries


def _count(entries: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Per-partition totals (the map side of the cluster reduction)."""
    total = {"files": 0, "games": 0, "hands": 0, "results": 0, "findings": 0}
    for e in entries:
        row = e["file_row"]
        total["files"] += 1
        total[f"status_{row['status']}"] = total.get(f"status_{row['status']}", 0) + 1
        for k in ("games", "hands", "results", "findings"):
            total[k] += int(row.get(k) or 0)
    return total


def _merge(parts: Sequence[dict[str, int]]) -> dict[str, int]:
    """The reduce side: add the per-partition totals key by key."""
    out: dict[str, int] = {}
    for part in parts:
        for k, v in part.items():
            out[k] = out.get(k, 0) + v
    return out


def run_dask(
    files: Sequence[str | Path],
    rules: RuleSet | None = None,
    *,
    scheduler: str | None = None,
    jobs: int | None = None,
    strict: bool = False,
    progress: bool = False,
    out: str | Path | None = None,
    resume: bool = True,
    worker: Worker = audit_file,
    files_per_part: int | None = None,
) -> AuditReport:
    """Audit ``files`` on a Dask cluster and return the report.

    ``scheduler`` is a scheduler address (``tcp://host:8786``) or None to start a
    ``LocalCluster`` of ``jobs`` single-threaded worker processes for this run.
    Without ``out`` the parts go to a temporary folder and the report is loaded
    into memory before the folder is removed.
    """
    started = time.perf_counter()
    tmp: str | None = None
    if out is None:
        tmp = tempfile.mkdtemp(prefix="replay-audit-dask-")
        out = tmp
    try:
        plan = plan_run([str(f) for f in files], rules, out, resume, worker)
        report = _run(
            plan,
            rules,
            scheduler=scheduler,
            jobs=jobs,
            strict=strict,
            progress=progress,
            worker=worker,
            files_per_part=files_per_part,
            started=started,
        )
        if tmp is not None:
            return report.load()
        return report
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(
    plan: Plan,
    rules: RuleSet | None,
    *,
    scheduler: str | None,
    jobs: int | None,
    strict: bool,
    progress: bool,
    worker: Worker,
    files_per_part: int | None,
    started: float,
) -> StoredAuditReport:
    import dask.bag as db
    from distributed import Client, LocalCluster, as_completed, futures_of

    assert plan.store is not None
    store = plan.store
    cluster_totals: dict[str, int] = {}
    if plan.todo:
        n_workers = jobs or os.cpu_count() or 1
        cluster = None
        if scheduler is None:
            cluster = LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                # any free port: None still takes 8787, and a second run at the same
                # time (or a test beside it) would warn that it is in use
                dashboard_address=":0",
            )
            client = Client(cluster)
        else:
            client = Client(scheduler)
        try:
            workers = max(1, len(client.scheduler_info().get("workers", {})) or n_workers)
            size = files_per_part or part_size(len(plan.todo), workers)
            bag = db.from_sequence(plan.todo, partition_size=size)
            indexed = bag.map_partitions(
                _audit_partition, rules, strict, str(store.root), plan.run, worker
            )
            indexed = client.persist(indexed)
            totals = client.compute(indexed.reduction(_count, _merge))
            bar = _bar(len(plan.todo), progress)
            hands = 0
            try:
                for fut in as_completed(futures_of(indexed)):
                    got = fut.result()
                    plan.index(got)
                    hands += ChunkResult(got).hands
                    if bar is not None:
                        bar.set_postfix(hands=hands, refresh=False)
                        bar.update(len(got))
            finally:
                if bar is not None:
                    bar.close()
            cluster_totals = totals.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    stats = {
        "files": len(plan.todo) + len(plan.reused),
        "audited": len(plan.todo),
        "skipped": len(plan.reused),
        "seconds": round(time.perf_counter() - started, 3),
        "run": plan.run,
        "cluster_totals": cluster_totals,
    }
    return plan.report(rules.name if rules else "auto", stats)


def _bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    import sys

    from tqdm import tqdm

    return tqdm(total=total, unit="file", dynamic_ncols=True, file=sys.stderr)
