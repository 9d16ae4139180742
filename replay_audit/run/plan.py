"""Planning a run: which files to audit, which an earlier run already did, and
how to cut the work into chunk tasks.

Owns ``Plan``, ``plan_run`` and ``chunk_tasks``.

Must not: execute tasks (the engines do) or audit a file.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import SCHEMA_VERSION
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.report.store import IndexEntry, Store, Tally
from replay_audit.report.stored import StoredAuditReport
from replay_audit.run.chunk import ChunkTask
from replay_audit.run.keys import Worker, file_sha256, rules_key, work_key

# ------------------------------------------------------------------ planning


@dataclass(slots=True)
class Plan:
    """What a run must do: files to audit, and the files an earlier run already did."""

    todo: list[str]
    reused: list[str]
    run: str
    store: Store | None
    tally: Tally = field(default_factory=Tally)
    """Totals of the reused files (each new chunk adds its own as it is indexed)."""
    parts: dict[str, str | None] = field(default_factory=dict)
    """The part of each file reused or indexed so far: what the index says of them,
    handed to the report so it need not read the index again (parsing every line
    of it was a tenth of the CSV report's time over the Phoenix corpus)."""

    def index(self, entries: Sequence[dict[str, Any]]) -> None:
        """Record finished files: append their lines to the index, add to the totals."""
        if self.store is not None:
            self.store.append_index(entries)
        for e in entries:
            entry = IndexEntry.of(e)
            self.tally.add(entry)
            self.parts[e["path"]] = entry.part

    def report(self, rules: str, stats: dict[str, Any]) -> StoredAuditReport:
        assert self.store is not None
        return StoredAuditReport(
            self.store.root,
            [*self.reused, *self.todo],
            rules,
            stats,
            self.tally,
            parts=self.parts,
        )


def plan_run(
    files: Sequence[str],
    rules: RuleSet | None,
    out: str | Path | None,
    resume: bool,
    worker: Worker = audit_file,
) -> Plan:
    """Decide which files need auditing; with ``resume`` the rest come from the index."""
    unique = list(dict.fromkeys(str(f) for f in files))
    run = time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:6]
    if out is None:
        return Plan(unique, [], run, None)
    store = Store(Path(out))
    if not resume:
        store.clear()
        return Plan(unique, [], run, store)
    name, fingerprint = rules_key(rules)
    code = work_key(worker)
    index = store.read_index()
    plan = Plan([], [], run, store)
    for path in unique:
        entry = index.get(path)
        if (
            entry is not None
            and entry.key[1:] == (name, fingerprint, SCHEMA_VERSION, code)
            and entry.key[0] is not None
            and _same_content(path, entry.key[0])
        ):
            plan.reused.append(path)
            plan.tally.add(entry)
            plan.parts[path] = entry.part
        else:
            plan.todo.append(path)
    return plan


def _same_content(path: str, digest: str) -> bool:
    try:
        return file_sha256(path) == digest
    except OSError:
        return False


MAX_FILES_PER_PART = 128
"""Files of one chunk task, at most.  Each part costs a fixed amount whatever its
size (six or seven small Arrow files written, renamed and later read back, each
chunk typed and sorted by the report writers): over the 2,770 Phoenix files in one
job, 11 parts of about 256 took the runner 0.06-0.08 s less CPU than 22 of 128
(2-5% of the command line's time), but a chunk's rows are held until its part is
written (about 35 kB a file): the command line's peak RSS went from about 158 MB
to 174-187 MB at 256 (180 MB for the runner alone at 512, 215 at 1,024), and the
CSV report gets slower with larger chunks (sorted whole, they leave the cache).
Memory is what a batch of millions of logs runs short of first, so 128.  A killed
run loses well under a second of one worker's auditing."""


def part_size(files: int, workers: int) -> int:
    """Files per chunk task for ``files`` files over ``workers`` workers.

    At least four tasks per worker balance the load; at most ``MAX_FILES_PER_PART``
    files a part keep a worker's rows small and the parts frequent (the resume
    granularity); and as many tasks for every worker, of even sizes, so no worker
    is left alone with a last task (an odd count of tasks over 2 workers leaves one
    idle for a task's time at the end).
    """
    workers = max(workers, 1)
    tasks = max(workers * 4, math.ceil(files / MAX_FILES_PER_PART))
    tasks = math.ceil(tasks / workers) * workers
    return max(1, math.ceil(files / tasks))


def chunk_tasks(
    plan: Plan,
    rules: RuleSet | None,
    *,
    strict: bool,
    jobs: int,
    files_per_part: int | None = None,
    worker: Worker = audit_file,
) -> list[ChunkTask]:
    """Split the files to audit into tasks of ``part_size`` files (or
    ``files_per_part``)."""
    todo = plan.todo
    size = files_per_part or part_size(len(todo), jobs)
    out = str(plan.store.root) if plan.store is not None else None
    return [
        ChunkTask(
            paths=tuple(todo[i : i + size]),
            rules=rules,
            strict=strict,
            out=out,
            part=f"{plan.run}-{i // size:05d}",
            worker=worker,
        )
        for i in range(0, len(todo), size)
    ]
