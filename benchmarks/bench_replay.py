"""Parse + replay of the phoenix-2024 corpus against a bare lxml parse.

The replay loop runs on a million games, so its cost is measured against the
floor any reader pays: decompress, ``etree.fromstring`` and iterate every
element.  Both run in the same process on the same files (bytes read once, up
front); the ratio ``(parse + replay) / bare`` is printed.  Target: <= 3x.
Each figure is the best of ``--repeat`` runs (default 3): on a shared machine
the minimum is the run least disturbed by other processes.  ``--clock cpu``
times with this process's CPU time instead of the wall clock: steadier when
other processes compete for the cores (it leaves out time spent waiting).

    python benchmarks/bench_replay.py [folder] [--limit N] [--repeat N] [--clock cpu]
"""

from __future__ import annotations

import argparse
import gzip
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.replay.table import replay_game

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared/corpus/tenhou-xml/phoenix-2024"

Timing = tuple[float, int, int]
"""(seconds, and two counts the run reports)."""

Clock = Callable[[], float]
"""``time.perf_counter`` or ``time.process_time`` (``--clock``)."""


def best_of(repeat: int, run: Callable[[], Timing]) -> Timing:
    """The fastest of ``repeat`` runs."""
    return min((run() for _ in range(max(1, repeat))), key=lambda r: r[0])


def bare(blobs: list[bytes], clock: Clock) -> Timing:
    start = clock()
    n = 0
    for blob in blobs:
        root = etree.fromstring(gzip.decompress(blob))
        for _el in root.iter():
            n += 1
    return clock() - start, n, 0


def parse_only(blobs: list[tuple[str, bytes]], clock: Clock) -> Timing:
    start = clock()
    hands = 0
    for name, blob in blobs:
        hands += len(parse_tenhou_xml(gzip.decompress(blob), name).hands)
    return clock() - start, hands, 0


def parse_and_replay(blobs: list[tuple[str, bytes]], use_wall: bool, clock: Clock) -> Timing:
    start = clock()
    hands = findings = 0
    for name, blob in blobs:
        game = parse_tenhou_xml(gzip.decompress(blob), name)
        rep = replay_game(game, rules_for_go_type(game.meta.go_type), use_wall=use_wall)
        hands += len(rep.hands)
        findings += len(rep.findings)
    return clock() - start, hands, findings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock (default) or this process's CPU time (steadier under load)",
    )
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    files = sorted(args.folder.glob("*.xml.gz"))
    if args.limit:
        files = files[: args.limit]
    blobs = [(str(p), p.read_bytes()) for p in files]
    n = args.repeat
    raw = [b for _, b in blobs]
    t_bare, _, _ = best_of(n, lambda: bare(raw, clock))
    t_parse, _, _ = best_of(n, lambda: parse_only(blobs, clock))
    t_all, hands, findings = best_of(n, lambda: parse_and_replay(blobs, use_wall=True, clock=clock))
    t_nowall, _, _ = best_of(n, lambda: parse_and_replay(blobs, use_wall=False, clock=clock))
    print(
        f"{len(blobs)} files, {hands} hands, {findings} findings (best of {n}, {args.clock} clock)"
    )
    print(f"bare lxml parse+iterate   : {t_bare:7.2f} s")
    print(f"parse only                : {t_parse:7.2f} s  ({t_parse / t_bare:.2f}x bare)")
    print(f"parse + replay            : {t_all:7.2f} s  ({t_all / t_bare:.2f}x bare)")
    print(f"parse + replay, no wall   : {t_nowall:7.2f} s  ({t_nowall / t_bare:.2f}x bare)")
    print(
        f"replay alone (approx.)    : {t_all - t_parse:7.2f} s  ({(t_all - t_parse) / t_bare:.2f}x bare)"
    )
    print(
        f"replay alone, no wall     : {t_nowall - t_parse:7.2f} s  ({(t_nowall - t_parse) / t_bare:.2f}x bare)"
    )


if __name__ == "__main__":
    main()
