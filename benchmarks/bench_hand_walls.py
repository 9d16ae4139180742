"""The walls of every hand of the Phoenix files: ``_core.hand_walls`` and the bare walls.

Item W of issue 19's fifth round asks for a hand's wall (288 MT19937 words, nine
SHA-512 digests of 128 bytes, the Fisher-Yates pass) to cost at least 30% less.  The
games are parsed before any clock starts; then, in each round:

* ``hand_walls`` -- each game's ``_WallSource.for_hands`` (the replay's call, which
  runs ``_core.hand_walls``: the walls from the stream, the deal check, the tuples);
  the source, and so the generator's seeding, is made outside the clock;
* ``walls``      -- ``_core.walls(seed, players, hands)`` less ``_core.walls(seed,
  players, 0)``: the walls' own cost, records only, without the seeding.

CPU time (``time.process_time``), best of ``--repeat`` rounds.  Run it with the
baseline's interpreter and with the branch's, taking turns (the machine is shared);
the checksum line is the same for both when the walls are.

    python benchmarks/bench_hand_walls.py [folder] [--limit N] [--repeat N]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import time
from pathlib import Path

from replay_audit import native
from replay_audit.model.events import Game
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.replay.walls import _WallSource

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared/corpus/tenhou-xml/phoenix-2024"


def load(folder: Path, limit: int) -> list[Game]:
    """The folder's games, parsed (outside every clock)."""
    paths = sorted(folder.glob("*.xml.gz"))
    if limit:
        paths = paths[:limit]
    return [parse_tenhou_xml(gzip.decompress(p.read_bytes()), p.name) for p in paths]


def time_hand_walls(games: list[Game]) -> tuple[float, int, str]:
    """CPU seconds in ``for_hands``, the hands with a wall, and a digest of the walls."""
    sources = [_WallSource(g) for g in games]
    digest = hashlib.sha256()
    spent = 0.0
    found = 0
    for game, src in zip(games, sources, strict=True):
        start = time.process_time()
        got = src.for_hands(game.hands)
        spent += time.process_time() - start
        for w in got:
            if w is not None:
                found += 1
                digest.update(bytes(w.live) + bytes(w.rinshan) + bytes(w.dora))
    return spent, found, digest.hexdigest()[:16]


def time_walls(games: list[Game]) -> tuple[float, int, str]:
    """CPU seconds of ``_core.walls`` for every hand less its seeding, walls, digest."""
    core = native._core
    assert core is not None, "the compiled core is needed"
    jobs = [(g.meta.seed, g.meta.players, len(g.hands)) for g in games if g.meta.seed]
    start = time.process_time()
    for seed, players, _ in jobs:
        core.walls(seed, players, 0)
    seeding = time.process_time() - start
    digest = hashlib.sha256()
    start = time.process_time()
    records = [core.walls(seed, players, hands) for seed, players, hands in jobs]
    spent = time.process_time() - start
    for game_records in records:
        for record in game_records:
            digest.update(record)
    return spent - seeding, sum(map(len, records)), digest.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    games = load(args.folder, args.limit)
    runs: dict[str, list[float]] = {"hand_walls": [], "walls": []}
    seen: dict[str, tuple[int, str]] = {}
    for _ in range(args.repeat):  # the two take turns
        for name, run in (("hand_walls", time_hand_walls), ("walls", time_walls)):
            spent, count, digest = run(games)
            runs[name].append(spent)
            seen[name] = (count, digest)
    for name, times in runs.items():
        count, digest = seen[name]
        per = min(times) / max(1, count) * 1e6
        spread = ", ".join(f"{t:.4f}" for t in sorted(times))
        print(f"{name:10s} best {min(times):.4f} s CPU ({spread}); {per:.2f} us a wall")
        print(f"{'':10s} {count} walls, digest {digest}")


if __name__ == "__main__":
    main()
