"""The ``replay-audit`` command: argument parsing and printing only.

Exit codes: 0 clean, 1 mismatches found, 2 usage or input errors (an input
that could not be read, a bad option, an unknown rule preset).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay_audit.errors import ReplayAuditError, RulesError
from replay_audit.rules import PRESETS, RuleSet, load_rules

EXIT_CLEAN, EXIT_MISMATCH, EXIT_ERROR = 0, 1, 2
TERMINAL_PLAYER_COLUMNS = (
    "player",
    "game_type",
    "games",
    "avg_place",
    "rate_1",
    "rate_4",
    "avg_final_points",
    "hands",
    "win_rate",
    "deal_in_rate",
    "riichi_rate",
    "call_rate",
    "avg_win_hand_value",
    "stable_dan",
)


def _rules_from_args(args: argparse.Namespace) -> RuleSet | None:
    overrides: dict[str, Any] = {}
    for item in args.rule or ():
        key, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"--rule takes KEY=VALUE, got {item!r}")
        overrides[key.strip()] = value.strip()
    if args.rules is None and not overrides:
        return None
    return load_rules(args.rules or "tenhou-4p", overrides or None)


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        help="log files, folders (searched recursively) or globs; a phoenix-logs SQLite "
        "database stands for all its logs, DB::LOG_ID for one of them",
    )
    p.add_argument(
        "--rules",
        help=f"rule preset ({', '.join(PRESETS)}) or a TOML rule file; default: detected per log",
    )
    p.add_argument(
        "--rule",
        action="append",
        metavar="KEY=VALUE",
        help="override one rule field, e.g. --rule yakuman=full (repeatable)",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=0, help="worker processes (default: all cores)"
    )
    p.add_argument("--strict", action="store_true", help="stop with an error at the first problem")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="replay-audit",
        description="Audit Riichi Mahjong game logs: recompute every hand and payment, report every mismatch.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    a = sub.add_parser("audit", help="audit logs and write a report")
    _add_common(a)
    a.add_argument("--out", default=None, help="report folder (default: reports/audit)")
    a.add_argument(
        "--format",
        default="csv",
        help="comma-separated report formats: csv, parquet, json, jsonl (a file per table, a "
        "record per line), html (default: csv)",
    )
    a.add_argument("--engine", choices=("local", "dask"), default="local")
    a.add_argument("--scheduler", default=None, help="Dask scheduler address (with --engine dask)")
    a.add_argument(
        "--no-resume", action="store_true", help="re-audit files already in the report folder"
    )

    v = sub.add_parser(
        "validate",
        help="parse and replay logs without scoring: list the broken or inconsistent ones",
        description="Read, parse and replay every log (moves, wall, hands), without scoring "
        "or payments: a quick check of a download. Prints one line per file with a problem "
        "(its first finding and how many there are); exit 0 when every file is whole.",
    )
    _add_common(v)
    v.add_argument(
        "--out", default=None, help="also write the files and findings tables as CSV here"
    )

    pl = sub.add_parser("players", help="per-player statistics")
    _add_common(pl)
    pl.add_argument("--out", default=None, help="write the table to this .csv/.parquet/.html file")
    pl.add_argument(
        "--by-lobby",
        action="store_true",
        help="split Tenhou game types by ranked lobby (each stable dan uses its lobby's pt table)",
    )
    pl.add_argument(
        "--player",
        action="append",
        metavar="NAME",
        help="only this player's rows, by exact name (repeatable)",
    )
    pl.add_argument("--since", metavar="YYYY-MM-DD", help="only games of this day or later")
    pl.add_argument("--until", metavar="YYYY-MM-DD", help="only games of this day or earlier")
    pl.add_argument(
        "--min-games",
        type=int,
        default=0,
        metavar="N",
        help="only rows of N games or more (rates over few games are noise)",
    )

    c = sub.add_parser("convert", help="convert a log to tenhou.net/6 JSON or mjai JSON lines")
    c.add_argument("log")
    c.add_argument("--to", choices=("tenhou6", "mjai"), required=True)
    c.add_argument("-o", "--output", default=None, help="output file (default: standard output)")

    e = sub.add_parser(
        "explain",
        help="score the wins of a log and explain them, or define a statistic",
        description="With a log: score its wins and explain each one. With the key of a "
        "statistic (e.g. deal_in_rate): its definition. With nothing: every definition.",
    )
    e.add_argument("log", nargs="?", help="a log file (or DB::LOG_ID), or a statistic's key")
    e.add_argument("--hand", default=None, help="hand label (E1-0) or index; default: every win")
    e.add_argument("--rules", default=None)
    e.add_argument("--rule", action="append", metavar="KEY=VALUE")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "audit":
            return _cmd_audit(args)
        if args.command == "validate":
            return _cmd_validate(args)
        if args.command == "players":
            return _cmd_players(args)
        if args.command == "convert":
            return _cmd_convert(args)
        if args.command == "explain":
            return _cmd_explain(args)
    except ReplayAuditError as exc:
        print(f"replay-audit: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # `replay-audit players ... | head`: the reader had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLEAN
    except (OSError, ValueError) as exc:  # a missing input, an --out that is a file, ...
        print(f"replay-audit: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    parser.error(f"unknown command {args.command}")
    return EXIT_ERROR


def _check_paths(paths: Sequence[str]) -> None:
    import glob

    from replay_audit.archive import split_member

    for p in paths:
        if not Path(p).exists() and not glob.glob(p) and split_member(p) is None:
            raise FileNotFoundError(f"no such file, folder or glob: {p}")


def _archive_note(args: argparse.Namespace) -> Any:
    """What to do with each SQLite archive the paths expand into: say on stderr how
    many logs it holds and how many rows it skipped (nothing with ``-q``)."""

    def note(listing: Any) -> None:
        if not args.quiet:
            print(listing.describe(), file=sys.stderr)

    return note


def _cmd_audit(args: argparse.Namespace) -> int:
    from replay_audit.runner import run_audit

    _check_paths(args.paths)
    rules = _rules_from_args(args)
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    out = Path(args.out) if args.out else Path("reports") / "audit"
    report = run_audit(
        args.paths,
        rules,
        jobs=args.jobs or None,
        strict=args.strict,
        progress=not args.quiet and sys.stderr.isatty(),
        engine=args.engine,
        scheduler=args.scheduler,
        out=out,
        resume=not args.no_resume,
        on_archive=_archive_note(args),
    )
    written = report.write(out, formats)
    print(report.summary_text())
    print(f"report:   {out}/ ({', '.join(p.name for p in written)})")
    s = report.summary()
    if s["files_error"]:
        return EXIT_ERROR
    return EXIT_MISMATCH if s["findings"] else EXIT_CLEAN


def _cmd_validate(args: argparse.Namespace) -> int:
    from replay_audit.audit import validate_file
    from replay_audit.runner import StoredAuditReport, run_audit

    _check_paths(args.paths)
    with tempfile.TemporaryDirectory(prefix="replay-audit-validate-") as tmp:
        report = run_audit(  # stored: a million files keep the memory flat
            args.paths,
            _rules_from_args(args),
            jobs=args.jobs or None,
            strict=args.strict,
            progress=not args.quiet and sys.stderr.isatty(),
            out=Path(args.out) if args.out else Path(tmp),
            resume=bool(args.out),
            worker=validate_file,
            on_archive=_archive_note(args),
        )
        assert isinstance(report, StoredAuditReport)  # it has an ``out`` folder
        bad = 0
        for chunk in report.typed_chunks("findings"):
            for file, group in chunk.groupby("file", sort=False):
                print(f"{file}: {_first_problem(group)}")
                bad += 1
        s = report.summary()
        if args.out:
            report.write(args.out, ["csv"])
    print(
        f"{s['files']} files, {s['hands']} hands: {s['files'] - bad} whole, {bad} with problems",
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


class _StoredReports:
    """Several stored reports read as one statistics source, part by part."""

    def __init__(self, reports: Sequence[Any]) -> None:
        self.reports = reports

    def fact_chunks(self) -> Any:
        for r in self.reports:
            yield from r.fact_chunks()


def _cmd_players(args: argparse.Namespace) -> int:
    from replay_audit import stats
    from replay_audit.runner import INDEX_NAME, PARTS_DIR, StoredAuditReport, run_audit

    _check_paths(args.paths)
    options = {  # checked before any audit: a bad date must not cost a long run
        "by_lobby": args.by_lobby,
        "min_games": args.min_games,
        "since": stats.log_day(args.since) if args.since else None,
        "until": stats.log_day(args.until) if args.until else None,
    }
    stored = [p for p in args.paths if (Path(p) / PARTS_DIR / INDEX_NAME).is_file()]
    if stored:  # report folders of earlier `audit` runs: no need to audit again
        if len(stored) != len(args.paths):
            raise ValueError("give either logs or report folders of earlier audits, not both")
        source: Any = _StoredReports([StoredAuditReport.open(p) for p in stored])
        table = stats.players(source, **options)
    else:
        with tempfile.TemporaryDirectory(prefix="replay-audit-players-") as tmp:
            report = run_audit(  # stored, so the statistics are summed part by part
                args.paths,
                _rules_from_args(args),
                jobs=args.jobs or None,
                strict=args.strict,
                progress=not args.quiet and sys.stderr.isatty(),
                out=Path(tmp),
                resume=False,
                on_archive=_archive_note(args),
            )
            table = stats.players(report, **options)
    table = _select_players(table, args.player)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix == ".parquet":
            table.to_parquet(out, index=False)
        elif out.suffix == ".html":
            out.write_text(table.to_html(index=False), encoding="utf-8")
        else:
            table.to_csv(out, index=False)
        print(f"{len(table)} player rows written to {out}")
    else:
        import pandas as pd

        main = [c for c in TERMINAL_PLAYER_COLUMNS if c in table.columns]
        shown = table[main].copy()
        for c in ("games", "hands"):
            if c in shown.columns:
                shown[c] = shown[c].astype("Int64")
        with pd.option_context("display.max_rows", 200, "display.width", 200):
            print(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        print("(every statistic and its counts: --out FILE.csv)")
    return EXIT_CLEAN


def _select_players(table: Any, names: Sequence[str] | None) -> Any:
    """The named players' rows.  Filtering the finished table is exact: each row's
    counters are its own player's, whoever else is in the input."""
    if not names:
        return table
    missing = sorted(set(names) - set(table["player"]))
    if missing:
        print(f"replay-audit: no games of {', '.join(missing)}", file=sys.stderr)
    return table[table["player"].isin(names)].reset_index(drop=True)


def _cmd_convert(args: argparse.Namespace) -> int:
    import json

    from replay_audit.export import to_mjai, to_tenhou6
    from replay_audit.io import read_log

    game = read_log(args.log)
    if args.to == "tenhou6":
        text = json.dumps(to_tenhou6(game), ensure_ascii=False, separators=(",", ":"))
    else:
        text = "\n".join(
            json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in to_mjai(game)
        )
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    return EXIT_CLEAN


def _cmd_explain(args: argparse.Namespace) -> int:
    from replay_audit import stats
    from replay_audit.archive import split_member
    from replay_audit.audit import rules_for_game
    from replay_audit.io import read_log
    from replay_audit.replay import replay_game
    from replay_audit.scoring.explain import explain
    from replay_audit.scoring.hand import score_win

    if args.log is None:  # the whole definition registry (stats.md: `explain [STAT]`)
        print(stats.explain())
        return EXIT_CLEAN
    if not Path(args.log).exists() and args.log in stats.STAT_KEYS:
        print(stats.explain(args.log))
        return EXIT_CLEAN
    if not Path(args.log).exists() and split_member(args.log) is None:
        raise FileNotFoundError(f"no such log file or statistic: {args.log}")
    game = read_log(args.log)
    rules = _rules_from_args(args) or rules_for_game(game)
    replay = replay_game(game, rules)
    for hr in replay.hands:
        if args.hand not in (None, hr.hand.label, str(hr.hand.index)):
            continue
        for rr in hr.results:
            if rr.win is None:
                continue
            value = score_win(rr.win, rules)
            print(f"{hr.hand.label} seat {rr.win.seat}:")
            print(explain(rr.win, value))
            print()
    return EXIT_CLEAN


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
