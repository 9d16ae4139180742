"""``replay-audit audit`` and ``replay-audit validate``: run, print, exit code.

Owns the audit and validate commands: calling ``run.run_audit`` with the options,
the progress and phase lines, the summary and the list of unreadable files.

Must not: audit, plan or write a report itself (``run``, ``report``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay_audit.cli import common
from replay_audit.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_MISMATCH,
    SHOWN_PROBLEMS,
    _archive_note,
    _check_paths,
    _formats,
    _nothing_found,
    _overrides,
    _plural,
    _rules_from_args,
)


def _report_phase(args: argparse.Namespace, out: Path, formats: Sequence[str]) -> Any:
    """The ``on_format`` of ``AuditReport.write``: after the progress bar, say that
    the report is being written and which format is under way (minutes on a corpus)."""
    import time

    if args.quiet or not common._on_terminal():
        return None
    started = time.perf_counter()
    print(f"writing the report to {out}/: {', '.join(formats)}", file=sys.stderr)

    def on_format(fmt: str) -> None:
        print(f"  {fmt} ({time.perf_counter() - started:.1f} s)", file=sys.stderr)

    return on_format


def _resumed(args: argparse.Namespace, report: Any, out: Path) -> None:
    stats = getattr(report, "run_stats", {}) or {}
    reused = int(stats.get("skipped") or 0)
    if reused and not args.quiet:
        print(
            f"resumed: {_plural(reused, 'file')} reused from the report in {out}/ (same "
            f"content, rules and auditor); {_plural(int(stats.get('audited') or 0), 'file')} "
            "audited now (--no-resume audits all again)",
            file=sys.stderr,
        )


def _list_unreadable(report: Any) -> None:
    """Each unreadable file and its first reason on stderr, a few then a count."""
    shown = more = 0
    for chunk in report.table_chunks("files"):
        if "status" not in chunk:
            continue
        for _, row in chunk[chunk["status"] == "error"].iterrows():
            if shown < SHOWN_PROBLEMS:
                error = row.get("error")
                reason = error if isinstance(error, str) and error else f"{row['file']}: unreadable"
                print(f"unreadable: {reason}", file=sys.stderr)
                shown += 1
            else:
                more += 1
    if more:
        print(
            f"unreadable: {_plural(more, 'more file')} (files.csv lists each with its error)",
            file=sys.stderr,
        )


def _cmd_audit(args: argparse.Namespace) -> int:
    from replay_audit.run.api import run_audit

    _check_paths(args.paths)
    rules = _rules_from_args(args)
    formats = _formats(args.format)
    out = Path(args.out) if args.out else Path("reports") / "audit"
    report = run_audit(
        args.paths,
        rules,
        jobs=args.jobs,
        strict=args.strict,
        progress=not args.quiet and common._on_terminal(),
        engine=args.engine,
        scheduler=args.scheduler,
        out=out,
        resume=not args.no_resume,
        on_archive=_archive_note(args),
    )
    s = report.summary()
    if s["files"] == 0:
        raise _nothing_found(args.paths)
    _resumed(args, report, out)
    report.rule_overrides = _overrides(args)
    written = report.write(out, formats, on_format=_report_phase(args, out, formats))
    print(report.summary_text())
    print(f"report:   {out}/ ({', '.join(p.name for p in written)})")
    if s["files_error"]:
        _list_unreadable(report)
        return EXIT_ERROR
    return EXIT_MISMATCH if s["findings"] else EXIT_CLEAN


def _cmd_validate(args: argparse.Namespace) -> int:
    from replay_audit.auditing.auditor import validate_file
    from replay_audit.report.stored import StoredAuditReport
    from replay_audit.run.api import run_audit

    _check_paths(args.paths)
    with tempfile.TemporaryDirectory(prefix="replay-audit-validate-") as tmp:
        report = run_audit(  # stored: a million files keep the memory flat
            args.paths,
            _rules_from_args(args),
            jobs=args.jobs,
            strict=args.strict,
            progress=not args.quiet and common._on_terminal(),
            out=Path(args.out) if args.out else Path(tmp),
            resume=bool(args.out),
            worker=validate_file,
            on_archive=_archive_note(args),
        )
        assert isinstance(report, StoredAuditReport)  # it has an ``out`` folder
        if report.summary()["files"] == 0:
            raise _nothing_found(args.paths)
        bad = 0
        for chunk in report.typed_chunks("findings"):
            for file, group in chunk.groupby("file", sort=False):
                print(f"{file}: {_first_problem(group)}")
                bad += 1
        s = report.summary()
        if args.out:
            report.write(args.out, ["csv"])
    print(
        f"{_plural(s['files'], 'file')}, {_plural(s['hands'], 'hand')}: "
        f"{s['files'] - bad} whole, {bad} with problems",
        file=sys.stderr,
    )
    if s["files_error"]:
        return EXIT_ERROR
    return EXIT_MISMATCH if bad else EXIT_CLEAN


def _first_problem(findings: Any) -> str:
    """One file's first finding, where it is, and how many more there are."""
    import pandas as pd

    first = findings.iloc[0]
    where = ", ".join(
        f"{k} {first[k] if k == 'hand' else int(first[k])}"
        for k in ("hand", "seq")
        if k in first and pd.notna(first[k])
    )
    more = f" (+{len(findings) - 1} more)" if len(findings) > 1 else ""
    return (
        f"{first['category']} {first['field']}: {first['message']}"
        + (f" [{where}]" if where else "")
        + more
    )
