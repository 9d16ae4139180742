"""The local engine: chunk tasks on a process pool, results gathered as they finish.

Owns ``audit_files`` (the local engine over an explicit file list), the bounded
submission window, the progress bar and ``collect`` (indexing finished chunks and
building the report).

Must not: expand paths (``run.api``) or know about Dask.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.report.audit_report import AuditReport
from replay_audit.run.chunk import ChunkResult, ChunkTask, audit_chunk
from replay_audit.run.keys import Worker
from replay_audit.run.plan import Plan, chunk_tasks, plan_run

# ------------------------------------------------------------------ executing


def _pool_context() -> multiprocessing.context.BaseContext | None:
    """The workers' start method: ``fork`` on Linux, else the platform's default.

    The runner was built and measured on forked workers, which start with the
    parent's modules already imported.  Python 3.14 makes ``forkserver`` the Linux
    default, whose workers import the package again: over 400 Phoenix files with two
    jobs, 2.7 s instead of 0.9 s, measured on 3.11 by asking for it.  Forking is safe
    where the parent runs one thread, as the command line does when it starts its
    pool (Python 3.12+ warns of a fork with threads; a corpus run on 3.13 with that
    warning made an error went through).  Elsewhere (macOS, Windows) the default
    stays: fork is not safe there."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return None


def _run_local(tasks: Sequence[ChunkTask], jobs: int) -> Iterator[ChunkResult]:
    """Results as tasks finish, with at most ``2 * jobs`` tasks in flight.

    A failed task is raised after every task finished before it has been yielded,
    so the caller indexes all completed work before the error propagates.
    """
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield audit_chunk(task)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=_pool_context())
    pending: set[Future[ChunkResult]] = set()
    try:
        queue = iter(tasks)
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < 2 * jobs:
                following = next(queue, None)
                if following is None:
                    exhausted = True
                else:
                    pending.add(pool.submit(audit_chunk, following))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            error: BaseException | None = None
            for fut in done:
                exc = fut.exception()
                if exc is not None:
                    error = error or exc
                else:
                    yield fut.result()
            if error is not None:
                raise error
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _progress(results: Iterator[ChunkResult], total: int, enabled: bool) -> Iterator[ChunkResult]:
    """A tqdm bar on stderr: files done, files/s, hands done and hands/s."""
    if not enabled:
        yield from results
        return
    import sys

    from tqdm import tqdm

    hands = 0
    start = time.perf_counter()
    with tqdm(total=total, unit="file", dynamic_ncols=True, file=sys.stderr) as bar:
        for res in results:
            hands += res.hands
            rate = hands / max(time.perf_counter() - start, 1e-9)
            bar.set_postfix(hands=hands, hands_s=f"{rate:.0f}", refresh=False)
            bar.update(len(res.entries))
            yield res


def collect(
    plan: Plan,
    results: Iterator[ChunkResult],
    rules_name: str,
    *,
    n_files: int,
    started: float,
) -> AuditReport:
    """Index every chunk as it arrives, then build the report (stored or in memory)."""
    audits: list[FileAudit] = []
    audited = 0
    for res in results:
        audited += len(res.entries)
        if plan.store is not None:
            plan.index(res.entries)
        else:
            audits.extend(res.audits)
    if plan.store is None:
        audits.sort(key=lambda fa: fa.path)
        return AuditReport.from_file_audits(audits, rules=rules_name)
    stats = {
        "files": n_files,
        "audited": audited,
        "skipped": len(plan.reused),
        "seconds": round(time.perf_counter() - started, 3),
        "run": plan.run,
    }
    return plan.report(rules_name, stats)


SMALL_RUN = 64
"""Fewer files than this are audited in this process unless ``jobs`` is given: a
log takes milliseconds, starting a pool of workers a good part of a second."""


def audit_files(
    files: Sequence[str | Path],
    rules: RuleSet | None = None,
    *,
    jobs: int | None = None,
    strict: bool = False,
    progress: bool = False,
    out: str | Path | None = None,
    resume: bool = True,
    worker: Worker = audit_file,
    files_per_part: int | None = None,
) -> AuditReport:
    """The local engine over an explicit list of files (``run_audit`` expands paths).

    ``strict`` runs in this process so the first error propagates unchanged.
    """
    started = time.perf_counter()
    plan = plan_run([str(f) for f in files], rules, out, resume, worker)
    n_jobs = 1 if strict else (jobs or os.cpu_count() or 1)
    if jobs is None and len(plan.todo) < SMALL_RUN:
        n_jobs = 1  # starting worker processes costs more than auditing a few logs
    tasks = chunk_tasks(
        plan, rules, strict=strict, jobs=n_jobs, files_per_part=files_per_part, worker=worker
    )
    results = _progress(_run_local(tasks, n_jobs), len(plan.todo), progress)
    return collect(
        plan,
        results,
        rules.name if rules else "auto",
        n_files=len(plan.todo) + len(plan.reused),
        started=started,
    )
