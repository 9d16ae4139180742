"""``run_audit``: expand the paths, pick an engine, return the report.

Owns the choice between the local engine (``run.local``) and the Dask engine
(``run.dask_engine``); the one entry point the CLI calls.

Must not: audit, plan or store anything itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from replay_audit.auditing.auditor import audit_file
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.report.audit_report import AuditReport
from replay_audit.run.keys import Worker
from replay_audit.run.local import audit_files

if TYPE_CHECKING:
    from replay_audit.io.archive import ArchiveListing


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
    worker: Worker = audit_file,
    on_archive: Callable[[ArchiveListing], None] | None = None,
) -> AuditReport:
    """Audit every log under ``paths`` (files, folders, globs) and gather one report.

    ``engine`` is ``local`` (process pool of ``jobs`` workers, default all cores) or
    ``dask`` (``scheduler`` = a scheduler address, or None for a local cluster).
    With ``out``, rows stream to Arrow parts under ``out/parts`` and the report
    loads them lazily; with ``resume`` a rerun skips files already audited with the
    same content and rules.  ``worker`` audits one file (``auditing.validate_file``
    for a parse-and-replay check; resume then needs its own ``out`` folder).
    ``on_archive`` gets the listing of each SQLite archive met (``io.iter_log_paths``).
    """
    from replay_audit.io.paths import iter_log_paths

    files = [str(p) for p in iter_log_paths(paths, on_archive=on_archive)]
    if engine == "dask":
        from replay_audit.run.dask_engine import run_dask

        return run_dask(
            files,
            rules,
            scheduler=scheduler,
            jobs=jobs,
            strict=strict,
            progress=progress,
            out=out,
            resume=resume,
            worker=worker,
        )
    if engine != "local":
        raise ValueError(f"unknown engine {engine!r}; choose 'local' or 'dask'")
    return audit_files(
        files,
        rules,
        jobs=jobs,
        strict=strict,
        progress=progress,
        out=out,
        resume=resume,
        worker=worker,
    )
