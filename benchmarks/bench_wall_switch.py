"""What switching the replayer to the compiled wall would save, in ``bench_replay.py`` terms.

The replayer still rebuilds walls with ``replay_audit.wall``.  This script times, in one
process over the same bytes, parse + replay as ``bench_replay.py`` does, three ways:

* with the walls of ``replay_audit.wall`` (today);
* with the walls of the compiled core: ``replay_audit.native.iter_walls`` and
  ``wall_from_init_shuffle``, handed to the replayer's wall source in place of the
  module's (it imports ``replay_audit.wall`` when it starts a game; for the timed runs
  the package attribute ``replay_audit.wall`` is a copy of that module with those two
  functions swapped, nothing in the package is changed);
* with no wall (``use_wall=False``);

each against a bare lxml parse of the same files, best of ``--repeat`` rounds, the four
runs taking turns within a round (the machine is shared: a load that comes and goes
then hits all of them alike; ``--clock cpu`` is steadier still).  Before timing,
every game's replay with the core's walls is checked equal to the replay with the
module's (hands and findings).

    python benchmarks/bench_wall_switch.py [folder] [--limit N] [--repeat N] [--clock cpu]
"""

from __future__ import annotations

import argparse
import gzip
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench_replay import DEFAULT, Timing, bare, best_of  # this folder is on sys.path

import replay_audit
from replay_audit import native, wall
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.replay.table import replay_game

_CORE_WALL = types.ModuleType("replay_audit.wall")
_CORE_WALL.__dict__.update(vars(wall))
_CORE_WALL.iter_walls = native.iter_walls  # type: ignore[attr-defined]
_CORE_WALL.wall_from_init_shuffle = native.wall_from_init_shuffle  # type: ignore[attr-defined]


@contextmanager
def core_walls() -> Iterator[None]:
    """``from replay_audit import wall`` gives the copy with the core's functions."""
    replay_audit.wall = _CORE_WALL  # type: ignore[attr-defined]
    try:
        yield
    finally:
        replay_audit.wall = wall  # type: ignore[attr-defined]


def parse_and_replay(
    blobs: list[tuple[str, bytes]], use_wall: bool, clock: Callable[[], float]
) -> Timing:
    start = clock()
    hands = findings = 0
    for name, blob in blobs:
        game = parse_tenhou_xml(gzip.decompress(blob), name)
        rep = replay_game(game, rules_for_go_type(game.meta.go_type), use_wall=use_wall)
        hands += len(rep.hands)
        findings += len(rep.findings)
    return clock() - start, hands, findings


def check_same(blobs: list[tuple[str, bytes]]) -> int:
    """Every game replays to the same hands and findings with either wall; returns the
    number of walls the core built (so the swap is known to have taken effect)."""
    built = 0
    original = native.iter_walls

    def counting(seed: str, players: int = 4) -> Iterator[Any]:
        nonlocal built
        for w in original(seed, players):
            built += 1
            yield w

    _CORE_WALL.iter_walls = counting  # type: ignore[attr-defined]
    try:
        for name, blob in blobs:
            game = parse_tenhou_xml(gzip.decompress(blob), name)
            rules = rules_for_go_type(game.meta.go_type)
            ours = replay_game(game, rules)
            with core_walls():
                theirs = replay_game(game, rules)
            assert ours.hands == theirs.hands and ours.findings == theirs.findings, name
    finally:
        _CORE_WALL.iter_walls = original  # type: ignore[attr-defined]
    return built


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    files = sorted(args.folder.glob("*.xml.gz"))
    if args.limit:
        files = files[: args.limit]
    blobs = [(str(p), p.read_bytes()) for p in files]
    built = check_same(blobs)
    n = args.repeat
    raw = [b for _, b in blobs]

    def with_core() -> Timing:
        with core_walls():
            return parse_and_replay(blobs, True, clock)

    runs: dict[str, Callable[[], Timing]] = {
        "bare": lambda: bare(raw, clock),
        "python": lambda: parse_and_replay(blobs, True, clock),
        "core": with_core,
        "none": lambda: parse_and_replay(blobs, False, clock),
    }
    best: dict[str, Timing] = {}
    for _ in range(n):
        for key, run in runs.items():
            best[key] = min(best.get(key, (float("inf"), 0, 0)), best_of(1, run))
    t_bare, t_core, t_none = best["bare"][0], best["core"][0], best["none"][0]
    t_py, hands, findings = best["python"]
    print(
        f"{len(blobs)} files, {hands} hands, {findings} findings, {built} walls built by the"
        f" core in the check run (best of {n}, {args.clock} clock); replays identical"
    )
    print(f"bare lxml parse+iterate        : {t_bare:7.2f} s")
    for label, t in [
        ("parse + replay, python wall", t_py),
        ("parse + replay, core wall", t_core),
        ("parse + replay, no wall", t_none),
    ]:
        print(f"{label:31}: {t:7.2f} s  ({t / t_bare:.2f}x bare)")
    print(
        f"switching saves                : {t_py - t_core:7.2f} s  ({(t_py - t_core) / t_bare:.2f}x"
        f" bare, {100 * (t_py - t_core) / t_py:.1f}% of parse + replay;"
        f" the wall's whole cost was {(t_py - t_none) / t_bare:.2f}x bare)"
    )


if __name__ == "__main__":
    main()
