"""The ``replay-audit`` argument parser: every command and option, nothing else.

Owns ``build_parser``.

Must not: act on the arguments.
"""

from __future__ import annotations

import argparse

from replay_audit._version import __version__
from replay_audit.cli.common import TERMINAL_TOP, _add_common, _at_least


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
