"""The unit of work of a run: audit a chunk of files, write their parts.

Owns ``ChunkTask`` (picklable: it crosses to worker processes and Dask workers),
``ChunkResult`` and ``audit_chunk``, the function every engine runs.

Must not: plan a run, schedule tasks, or hold results of other chunks.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay_audit.auditing.auditor import audit_file, display_name, validate_file
from replay_audit.auditing.rows import SCHEMA_VERSION, FileAudit
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.report.part_rows import PartRows
from replay_audit.report.store import ROW_TABLES, Store
from replay_audit.run.keys import Worker, file_sha256, rules_key, work_key

# ------------------------------------------------------------------ the chunk task


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """One unit of work: audit these files, write their rows as part ``part``."""

    paths: tuple[str, ...]
    rules: RuleSet | None
    strict: bool
    out: str | None
    part: str
    worker: Worker = audit_file


_PART_TABLES = ("files", *ROW_TABLES)
"""A part's tables: one ``file_row()`` per file, then the ``FileAudit``'s rows."""


def _categories(fa: FileAudit) -> dict[str, int]:
    """Findings per category, kept in the index so a summary needs no table."""
    out: dict[str, int] = {}
    for f in fa.findings:
        out[f["category"]] = out.get(f["category"], 0) + 1
    return out


@dataclass(slots=True)
class ChunkResult:
    entries: list[dict[str, Any]]
    """One index entry per file (its ``file_row`` included)."""
    audits: list[FileAudit] = field(default_factory=list)
    """The audits themselves, only when there is no ``out`` to write to."""

    @property
    def hands(self) -> int:
        return sum(int(e["file_row"].get("hands") or 0) for e in self.entries)


def audit_chunk(task: ChunkTask) -> ChunkResult:
    """Audit the files of one chunk; with ``out``, write their parts and return the
    index entries only (that is what keeps the parent's memory flat).

    The cyclic garbage collector is held for the whole chunk, as ``audit_file``
    holds it for one file: a chunk's rows are a few hundred thousand dicts with no
    cycles, kept alive until their parts are written (without the compiled core,
    or without ``out``; with both, ``report.part_rows`` takes each file's rows and
    its dicts go with the file), and the collector otherwise walks them again and
    again between files and while the parts are built (about a sixth of the
    runner's own time, measured over 500 Phoenix files) to free nothing.  The
    rows are gone when ``_audit_chunk`` returns, before collection
    resumes; any cycle left in between (an error's traceback) is freed then.  If
    the caller has the collector off, it stays off.
    """
    if not gc.isenabled():
        return _audit_chunk(task)
    gc.disable()
    try:
        return _audit_chunk(task)
    finally:
        gc.enable()


_DIGESTING: tuple[Worker, ...] = (audit_file, validate_file)
"""The workers that take ``stored_digest=True`` and then give the stored bytes'
digest (``FileAudit.stored_sha256``) from their own read; any other worker is
called as ``Worker`` says, and its files are hashed here (``_stored_sha256``)."""


def _stored_sha256(path: str, fa: FileAudit) -> str | None:
    """The content half of the file's resume key: the digest the worker took of the
    bytes it read (``FileAudit.stored_sha256``, asked of ``_DIGESTING``'s workers),
    so a file is read once; else (another worker, or a file it could not read)
    ``file_sha256``, None when the file cannot be read (the worker reports that
    itself)."""
    if fa.stored_sha256 is not None:
        return fa.stored_sha256
    try:
        return file_sha256(path)
    except OSError:
        return None


def _audit_chunk(task: ChunkTask) -> ChunkResult:
    name, fingerprint = rules_key(task.rules)
    code = work_key(task.worker)
    part = task.part if task.out is not None else None
    audits: list[FileAudit] = []
    entries: list[dict[str, Any]] = []
    # with ``out``, each file's rows go to their part's table as soon as the file is
    # audited, and the file's dicts are freed with it (``report.part_rows``); its
    # ``files`` row too (also the index entry's ``file_row``, the same dict)
    tables = PartRows(_PART_TABLES) if task.out is not None else None
    worker, rules, strict = task.worker, task.rules, task.strict
    digesting = worker in _DIGESTING
    # audit_file's facts go straight into the part's tables where the core can write
    # them (no dict per row: report.part_rows.FactsSink); the FileAudit's two lists of
    # them are then empty, and ``tables.counts`` has them; the ``hands`` rows of a game
    # the core audits in one call likewise (``HandsSink``; ``FileAudit.hands_written``)
    sinking = tables is not None and worker is audit_file and tables.facts_sink() is not None
    for path in task.paths:
        if sinking:
            assert tables is not None
            fa = audit_file(
                path,
                rules,
                strict=strict,
                stored_digest=True,
                facts_sink=tables.facts_sink(),
                hands_sink=tables.hands_sink(display_name(path)),
            )
        elif digesting:
            fa = worker(path, rules, strict=strict, stored_digest=True)
        else:
            fa = worker(path, rules, strict=strict)
        file_row = fa.file_row()
        entries.append(
            {
                "path": path,
                "sha256": _stored_sha256(path, fa),
                "rules": name,
                "rules_fingerprint": fingerprint,
                "schema": SCHEMA_VERSION,
                "code": code,
                "part": part,
                "file_row": file_row,
                "categories": _categories(fa),
            }
        )
        if tables is None:
            audits.append(fa)
            continue
        tables.add([[file_row], *[getattr(fa, t) for t in ROW_TABLES]], fa.path)
        del fa
    if tables is None:
        return ChunkResult(entries, audits)
    assert task.out is not None  # ``tables`` is made only with ``out``
    store = Store(Path(task.out))
    for table, count in zip(_PART_TABLES, tables.counts, strict=True):
        if count or table == "files":  # (a part always has its files table)
            store.write_table(table, task.part, tables.table(table))
    return ChunkResult(entries)
