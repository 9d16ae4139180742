"""The compiled mjlog reader against a bare lxml parse of the same bytes.

Over the Phoenix files of the shared corpus, in one process, CPU time
(``time.process_time``), bytes read and gunzipped before the clock starts, best of
``--repeat`` rounds with the variants taking turns within each round:

- **bare lxml**: ``etree.fromstring`` + iterate every element (the reference of
  ``bench_floor.py`` and ``bench_audit.py``, here without the gunzip, timed apart);
- **Python reader**: ``parsers.tenhou_xml.parse_tenhou_xml``, the ``Game`` of events;
- **core to arrays**: ``_core.read_mjlog``, the columns as numpy arrays;
- **core to Arrow events table**: ``columns.mjlog_events``;
- **core + Game**: ``from_columns.game_from_core``, the same ``Game`` as the Python reader.

It checks first that the core reads every file and builds the Python reader's Game.

    python benchmarks/bench_mjlog_core.py [folder] [--limit N] [--repeat N]
"""

from __future__ import annotations

import argparse
import gzip
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from replay_audit import _core
from replay_audit.parsers.tenhou_xml import columns, from_columns, parse_tenhou_xml

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared/corpus/tenhou-xml/phoenix-2024"


def run_gunzip(blobs: list[bytes], _docs: list[tuple[str, bytes]]) -> int:
    return sum(len(gzip.decompress(b)) for b in blobs)


def run_lxml(_blobs: list[bytes], docs: list[tuple[str, bytes]]) -> int:
    elements = 0
    for _, data in docs:
        for _el in etree.fromstring(data).iter():
            elements += 1
    return elements


def run_python(_blobs: list[bytes], docs: list[tuple[str, bytes]]) -> int:
    return sum(len(parse_tenhou_xml(data, name).hands) for name, data in docs)


def run_core_arrays(_blobs: list[bytes], docs: list[tuple[str, bytes]]) -> int:
    events = 0
    for _, data in docs:
        cols = _core.read_mjlog(data)
        assert cols is not None
        events += len(cols["events"]["seq"])
    return events


def run_core_arrow(_blobs: list[bytes], docs: list[tuple[str, bytes]]) -> int:
    rows = 0
    for _, data in docs:
        table = columns.mjlog_events(data)
        assert table is not None
        rows += table.num_rows
    return rows


def run_core_game(_blobs: list[bytes], docs: list[tuple[str, bytes]]) -> int:
    hands = 0
    for name, data in docs:
        game = from_columns.game_from_core(data, name)
        assert game is not None
        hands += len(game.hands)
    return hands


VARIANTS: dict[str, Callable[[list[bytes], list[tuple[str, bytes]]], int]] = {
    "gunzip (not in the others)": run_gunzip,
    "bare lxml parse + iterate": run_lxml,
    "Python reader (Game)": run_python,
    "core to arrays": run_core_arrays,
    "core to Arrow events table": run_core_arrow,
    "core + Game": run_core_game,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5, help="best of N rounds (default 5)")
    args = ap.parse_args()
    paths = sorted(args.folder.glob("*.xml.gz"))
    if args.limit:
        paths = paths[: args.limit]
    blobs = [p.read_bytes() for p in paths]
    docs = [(str(p), gzip.decompress(b)) for p, b in zip(paths, blobs, strict=True)]
    for name, data in docs:  # the same answers, or the timing means nothing
        assert from_columns.game_from_core(data, name) == parse_tenhou_xml(data, name), name

    best = dict.fromkeys(VARIANTS, float("inf"))
    counts: dict[str, int] = {}
    for _ in range(max(1, args.repeat)):
        for label, run in VARIANTS.items():
            start = time.process_time()
            counts[label] = run(blobs, docs)
            best[label] = min(best[label], time.process_time() - start)

    ref = best["bare lxml parse + iterate"]
    size = sum(len(d) for _, d in docs)
    print(
        f"{len(docs)} files, {size / 1e6:.1f} MB of XML, {counts['Python reader (Game)']:,} hands, "
        f"{counts['core to arrays']:,} events; CPU time, best of {args.repeat}"
    )
    for label, seconds in best.items():
        per_file = 1e6 * seconds / max(len(docs), 1)
        print(f"{label:<28} {seconds:7.3f} s  {seconds / ref:5.2f}x lxml  {per_file:7.1f} us/file")
    py, game = best["Python reader (Game)"], best["core + Game"]
    print(
        f"core to arrays is {py / best['core to arrays']:.1f}x faster than the Python reader; "
        f"core + Game {py / game:.2f}x"
    )


if __name__ == "__main__":
    main()
