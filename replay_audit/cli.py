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

from replay_audit._version import __version__
from replay_audit.model.errors import ReplayAuditError, RulesError
from replay_audit.model.rules.ruleset import PRESETS, RuleSet, load_rules

EXIT_CLEAN, EXIT_MISMATCH, EXIT_ERROR = 0, 1, 2
SHOWN_PROBLEMS = 5
"""Unreadable files listed on stderr after an audit (then a count of the rest)."""
TERMINAL_TOP = 20
"""Player rows printed on a terminal (``--top`` changes it; piped output has all)."""
PLAYERS_SUFFIXES = (".csv", ".parquet", ".html")
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


class NothingFoundError(ReplayAuditError):
    """The input held nothing to work on: a run over nothing is not a clean run."""


def _overrides(args: argparse.Namespace) -> dict[str, str]:
    overrides: dict[str, str] = {}
    for item in args.rule or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--rule takes KEY=VALUE, got {item!r}")
        overrides[key.strip()] = value.strip()
    return overrides


def _rules_from_args(args: argparse.Namespace) -> RuleSet | None:
    """The rules of ``--rules`` and ``--rule``, every value checked
    (``rules.check_values``) before any file is read."""
    overrides = _overrides(args)
    if args.rules is None and not overrides:
        return None
    return load_rules(args.rules or "tenhou-4p", overrides or None)


def _at_least(low: int, what: str) -> Any:
    """An argparse type: an integer of at least ``low`` (``-j 0`` is refused)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{what} is {low} or more, not {value}")
        return value

    return parse


def _on_terminal() -> bool:
    """Progress and phase lines go to a terminal only (tests patch this)."""
    return sys.stderr.isatty()


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


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
        "-j",
        "--jobs",
        type=_at_least(1, "-j"),
        default=None,
        help="worker processes, 1 or more (default: all cores; one for a few files)",
    )
    p.add_argument("--strict", action="store_true", help="stop with an error at the first problem")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="replay-audit",
        description="Audit Riichi Mahjong game logs: recompute every hand and payment, report every mismatch.",
    )
    parser.add_argument("--version", action="version", version=f"replay-audit {__version__}")
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
    pl.add_argument(
        "--out", default=None, help="write the table to this .csv, .parquet or .html file"
    )
    pl.add_argument(
        "--top",
        type=_at_least(0, "--top"),
        default=None,
        metavar="N",
        help=f"rows printed without --out (default: {TERMINAL_TOP} on a terminal, all when "
        "piped; 0 = all)",
    )
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
        type=_at_least(0, "--min-games"),
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

    sc = sub.add_parser(
        "score",
        help="score one hand from notation",
        description="Score one winning hand: yaku, han, fu item by item, limit and payments. "
        "HAND is every concealed tile, the winning tile included (123m406p789s11z222z: 0 = red "
        "five, 1z-7z = East South West North Haku Hatsu Chun).",
    )
    sc.add_argument("hand", help="the concealed tiles, winning tile included")
    sc.add_argument("--win", default=None, help="the winning tile (default: the last written)")
    sc.add_argument(
        "--meld",
        action="append",
        default=[],
        metavar="KIND:TILES",
        help="a call: pon:555m, chi:678s, kan:9999p, kakan:2222s, ankan:1111z, kita:4z "
        "(repeatable)",
    )
    sc.add_argument("--tsumo", action="store_true", help="won by self-draw (default: ron)")
    for flag, what in (
        ("riichi", "riichi declared"),
        ("double-riichi", "double riichi"),
        ("ippatsu", "won within the riichi's first go-around"),
        ("haitei", "tsumo on the last tile"),
        ("houtei", "ron on the last discard"),
        ("rinshan", "tsumo on a kan replacement tile"),
        ("chankan", "ron on a kan"),
        ("tenhou", "dealer's dealt hand wins"),
        ("chiihou", "non-dealer's first draw wins"),
        ("renhou", "ron before one's first draw"),
    ):
        sc.add_argument(f"--{flag}", action="store_true", help=what)
    sc.add_argument("--dora", default="", help="dora indicators, e.g. 3m7z")
    sc.add_argument("--ura", default="", help="ura dora indicators (riichi only)")
    sc.add_argument("--seat", default="S", help="seat wind E S W N (default S; E = dealer)")
    sc.add_argument("--round", default="E", help="round wind (default E)")
    sc.add_argument("--discarder", default=None, help="ron: the seat wind that dealt in")
    sc.add_argument("--honba", type=_at_least(0, "--honba"), default=0)
    sc.add_argument("--sticks", type=_at_least(0, "--sticks"), default=0, help="riichi sticks")
    sc.add_argument("--rules", default="tenhou-4p", help="rule preset or TOML file")
    sc.add_argument("--rule", action="append", metavar="KEY=VALUE")
    sc.add_argument("--json", action="store_true", help="print the result as JSON")
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
        if args.command == "score":
            return _cmd_score(args)
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

    from replay_audit.io.archive import split_member

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


def _formats(text: str) -> list[str]:
    """``--format`` checked before the run: a typo must not cost a long audit."""
    from replay_audit.report.tables import FORMATS

    formats = [f.strip() for f in text.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise ValueError(
            f"unknown report format {', '.join(bad) or text!r}; choose from {', '.join(FORMATS)}"
        )
    return formats


def _nothing_found(paths: Sequence[str]) -> NothingFoundError:
    """What each path held, when none held a log: the user may have given the wrong
    folder, or logs under names a walk does not take (then their content is sniffed,
    so this means none of them is a log)."""
    import glob

    from replay_audit.io.read import LOG_SUFFIXES

    said = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            n = sum(1 for f in path.rglob("*") if f.is_file())
            said.append(
                f"{p}: an empty folder"
                if n == 0
                else f"{p}: {_plural(n, 'file')}, none of them a log (by name: "
                f"{' '.join(LOG_SUFFIXES)}; or by content)"
            )
        elif not path.exists() and not glob.glob(p):
            said.append(f"{p}: matches no file")
        else:
            said.append(f"{p}: no logs in it")
    return NothingFoundError("no logs found: " + "; ".join(said))


def _report_phase(args: argparse.Namespace, out: Path, formats: Sequence[str]) -> Any:
    """The ``on_format`` of ``AuditReport.write``: after the progress bar, say that
    the report is being written and which format is under way (minutes on a corpus)."""
    import time

    if args.quiet or not _on_terminal():
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
        progress=not args.quiet and _on_terminal(),
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
            progress=not args.quiet and _on_terminal(),
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
    from replay_audit.run.api import run_audit

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
    else:
        with tempfile.TemporaryDirectory(prefix="replay-audit-players-") as tmp:
            report = run_audit(  # stored, so the statistics are summed part by part
                args.paths,
                rules,
                jobs=args.jobs,
                strict=args.strict,
                progress=not args.quiet and _on_terminal(),
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


def _width(text: str) -> int:
    """Columns a string takes on a terminal: East Asian wide and full-width
    characters (kanji, kana, full-width letters) take two."""
    import unicodedata

    return sum(
        0
        if unicodedata.combining(ch)
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


def text_table(df: Any) -> str:
    """``df`` as aligned text for a terminal: text left, numbers right, floats to 3
    places, a missing value empty; widths count wide characters twice, so a column
    of Japanese names lines up.

    >>> import pandas as pd
    >>> print(text_table(pd.DataFrame({"player": ["天鳳", "Bob"], "games": [12, 3]})))
    player  games
    天鳳       12
    Bob         3
    """
    import pandas as pd

    cols = list(df.columns)
    cells: list[list[str]] = []
    numeric = [pd.api.types.is_numeric_dtype(df[c].dtype) for c in cols]
    for row in df.itertuples(index=False):
        line = []
        for v in row:
            if v is None or v is pd.NA or (isinstance(v, float) and v != v):
                line.append("")
            elif isinstance(v, float):
                line.append(f"{v:.3f}")
            else:
                line.append(str(v))
        cells.append(line)
    widths = [max([_width(str(c)), *(_width(r[i]) for r in cells)]) for i, c in enumerate(cols)]

    def fmt(values: list[str]) -> str:
        parts = []
        for i, v in enumerate(values):
            pad = " " * (widths[i] - _width(v))
            parts.append(pad + v if numeric[i] else v + pad)
        return "  ".join(parts).rstrip()

    return "\n".join([fmt([str(c) for c in cols]), *(fmt(r) for r in cells)])


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
    from replay_audit.io.read import read_log

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
    from replay_audit.auditing.game import rules_for_game
    from replay_audit.io.archive import split_member
    from replay_audit.io.read import read_log
    from replay_audit.replay.table import replay_game
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
    hands = [hr for hr in replay.hands if args.hand in (None, hr.hand.label, str(hr.hand.index))]
    if args.hand is not None and not hands:
        labels = ", ".join(hr.hand.label for hr in replay.hands) or "none"
        raise NothingFoundError(f"no hand {args.hand} in {args.log}; its hands: {labels}")
    shown = 0
    for hr in hands:
        for rr in hr.results:
            if rr.win is None:
                continue
            value = score_win(rr.win, rules)
            print(f"{hr.hand.label} seat {rr.win.seat}:")
            print(explain(rr.win, value))
            print()
            shown += 1
    if not shown:
        where = f"hand {args.hand} of {args.log}" if args.hand else args.log
        raise NothingFoundError(f"no win to explain in {where} (draws only)")
    return EXIT_CLEAN


def _cmd_score(args: argparse.Namespace) -> int:
    import json

    from replay_audit.scoring.hand_api import score_hand

    overrides = _overrides(args)
    rules = load_rules(args.rules, overrides or None)
    result = score_hand(
        args.hand,
        args.win,
        melds=args.meld,
        tsumo=args.tsumo,
        riichi=args.riichi,
        double_riichi=args.double_riichi,
        ippatsu=args.ippatsu,
        haitei=args.haitei,
        houtei=args.houtei,
        rinshan=args.rinshan,
        chankan=args.chankan,
        tenhou=args.tenhou,
        chiihou=args.chiihou,
        renhou=args.renhou,
        dora=args.dora,
        ura=args.ura,
        seat_wind=args.seat,
        round_wind=args.round,
        discarder=args.discarder,
        honba=args.honba,
        sticks=args.sticks,
        rules=rules,
    )
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        print(result.explain())
    return EXIT_CLEAN if result.ok else EXIT_MISMATCH


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
