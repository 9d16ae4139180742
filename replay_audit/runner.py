"""Run the per-file audit over many files: in this process or on worker processes.

The worker is ``audit.audit_file``, a top-level function of plain arguments,
so it pickles to process pools (and Dask) unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from replay_audit.audit import FileAudit, audit_file
from replay_audit.report import AuditReport
from replay_audit.rules import RuleSet


def _progress(items: Iterator[FileAudit], total: int, enabled: bool) -> Iterator[FileAudit]:
    if not enabled:
        yield from items
        return
    from tqdm import tqdm

    hands = 0
    with tqdm(total=total, unit="file", dynamic_ncols=True) as bar:
        for fa in items:
            hands += len(fa.hands)
            bar.set_postfix(hands=hands, refresh=False)
            bar.update(1)
            yield fa


def run_audit(
    paths: Iterable[str | Path],
    rules: RuleSet | None = None,
    *,
    jobs: int | None = None,
    strict: bool = False,
    progress: bool = False,
    engine: str = "local",
    scheduler: str | None = None,
    out: Path | None = None,
    resume: bool = True,
) -> AuditReport:
    """Audit every log under ``paths`` and gather one report."""
    from replay_audit.io import iter_log_paths

    files = [str(p) for p in iter_log_paths(paths)]
    n_jobs = jobs or os.cpu_count() or 1
    if n_jobs <= 1 or len(files) <= 1 or strict:
        results: Iterator[FileAudit] = (audit_file(f, rules, strict=strict) for f in files)
        audits = list(_progress(results, len(files), progress))
    else:
        with ProcessPoolExecutor(max_workers=n_jobs) as pool:
            it = pool.map(_work, files, [rules] * len(files), chunksize=8)
            audits = list(_progress(it, len(files), progress))
    return AuditReport.from_file_audits(audits, rules=rules.name if rules else "auto")


def _work(path: str, rules: RuleSet | None) -> FileAudit:
    return audit_file(path, rules)
