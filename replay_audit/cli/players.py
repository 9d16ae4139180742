"""``replay-audit players``: per-player statistics from logs or written reports.

Owns the players command: reading stored reports or auditing logs, filters,
and printing or writing the table.

Must not: compute a statistic (``stats``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay_audit.cli import common
from replay_audit.cli.common import (
    EXIT_CLEAN,
    PLAYERS_SUFFIXES,
    TERMINAL_PLAYER_COLUMNS,
    TERMINAL_TOP,
    NothingFoundError,
    _archive_note,
    _check_paths,
    _nothing_found,
    _plural,
    _rules_from_args,
    text_table,
)


class _StoredReports:
    """Several stored reports read as one statistics source, part by part."""

    def __init__(self, reports: Sequence[Any]) -> None:
        self.reports = reports

    def fact_chunks(self) -> Any:
        for r in self.reports:
            yield from r.fact_chunks()


def _players_out(text: str | None) -> Path | None:
    """``--out`` of ``players``, checked before any audit: a file named ``.csv``,
    ``.parquet`` or ``.html`` (not a folder, not another type written as CSV)."""
    if text is None:
        return None
    out = Path(text)
    if text.endswith(("/", os.sep)) or out.is_dir():
        raise ValueError(
            f"--out {text}: a folder; players writes one file, e.g. {Path(text) / 'players.csv'}"
        )
    if out.suffix.lower() not in PLAYERS_SUFFIXES:
        raise ValueError(
            f"--out {text}: unknown file type {out.suffix or '(none)'}; "
            f"choose {', '.join(PLAYERS_SUFFIXES)}"
        )
    return out


def _cmd_players(args: argparse.Namespace) -> int:
    from replay_audit import stats
    from replay_audit.report.store import INDEX_NAME, PARTS_DIR
    from replay_audit.report.stored import StoredAuditReport

    _check_paths(args.paths)
    out = _players_out(args.out)
    options = {  # checked before any audit: a bad date must not cost a long run
        "by_lobby": args.by_lobby,
        "min_games": args.min_games,
        "since": stats.log_day(args.since) if args.since else None,
        "until": stats.log_day(args.until) if args.until else None,
    }
    rules = _rules_from_args(args)
    stored = [p for p in args.paths if (Path(p) / PARTS_DIR / INDEX_NAME).is_file()]
    if stored:  # report folders of earlier `audit` runs: no need to audit again
        if len(stored) != len(args.paths):
            raise ValueError("give either logs or report folders of earlier audits, not both")
        source: Any = _StoredReports([StoredAuditReport.open(p) for p in stored])
        table = stats.players(source, **options)
    else:  # (the audit's modules imported only here: a stored run does not need them)
        from replay_audit.run.api import run_audit

        with tempfile.TemporaryDirectory(prefix="replay-audit-players-") as tmp:
            report = run_audit(  # stored, so the statistics are summed part by part
                args.paths,
                rules,
                jobs=args.jobs,
                strict=args.strict,
                progress=not args.quiet and common._on_terminal(),
                out=Path(tmp),
                resume=False,
                on_archive=_archive_note(args),
            )
            if report.summary()["files"] == 0:
                raise _nothing_found(args.paths)
            table = stats.players(report, **options)
    table = stats.integer_counts(_select_players(table, args.player))
    if table.empty:
        raise NothingFoundError(
            "no player rows: no finished game in the input"
            + (
                " within the filters (--player, --since, --until, --min-games)"
                if _filtered(args)
                else ""
            )
        )
    if out is not None:
        from replay_audit.report.html import render_players_page

        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix.lower() == ".parquet":
            table.to_parquet(out, index=False)
        elif out.suffix.lower() == ".html":
            out.write_text(render_players_page(table), encoding="utf-8")
        else:
            table.to_csv(out, index=False)
        print(f"{_plural(len(table), 'player row')} written to {out}")
        return EXIT_CLEAN
    top = args.top if args.top is not None else (TERMINAL_TOP if sys.stdout.isatty() else 0)
    main = [c for c in TERMINAL_PLAYER_COLUMNS if c in table.columns]
    shown = table[main] if not top else table[main].head(top)
    print(text_table(shown))
    rest = len(table) - len(shown)
    if rest:
        print(
            f"(the top {len(shown)} of {_plural(len(table), 'player row')}, most games first; "
            "all of them: --top 0, or --out players.csv / .html with every statistic)"
        )
    else:
        print("(every statistic and its counts: --out players.csv or players.html)")
    return EXIT_CLEAN


def _filtered(args: argparse.Namespace) -> bool:
    return bool(args.player or args.since or args.until or args.min_games)


def _select_players(table: Any, names: Sequence[str] | None) -> Any:
    """The named players' rows.  Filtering the finished table is exact: each row's
    counters are its own player's, whoever else is in the input."""
    if not names:
        return table
    missing = sorted(set(names) - set(table["player"]))
    if missing:
        print(f"replay-audit: no games of {', '.join(missing)}", file=sys.stderr)
    return table[table["player"].isin(names)].reset_index(drop=True)
