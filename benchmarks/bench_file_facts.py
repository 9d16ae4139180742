"""What ``stats.file_facts.file_facts`` (a game's three fact tables: the core's
``_core.file_facts`` and its Python wrapper) costs in an audit: each game parsed and
audited, then its facts timed, as ``audit_file`` runs them; the rows are kept until
the pass ends (as the audit keeps them), so freeing them is not counted.

CPU time (``time.process_time``), the garbage collector off, each pass printed (the
machine is shared: compare the best and the spread of several runs, two checkouts
taking turns).  A digest of the rows' ``repr`` (types and column order count) tells
whether two checkouts write the same rows.  Nothing is asserted.

For counts that do not move with the machine's load, run the facts alone under
callgrind with ``--toggle-collect=functools_reduce`` and ``--instructions``: the games
are parsed first, then only the facts run inside ``functools.reduce``.

Usage (from the project root)::

    python benchmarks/bench_file_facts.py                 # every Phoenix file, 3 passes
    python benchmarks/bench_file_facts.py --limit 300 --repeat 5
"""

from __future__ import annotations

import argparse
import functools
import gc
import hashlib
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", nargs="?", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--limit", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--instructions", action="store_true", help="facts only, for callgrind")
    args = parser.parse_args()

    from replay_audit.auditing.auditor import _parse
    from replay_audit.auditing.game import audit_game
    from replay_audit.io.read import read_bytes
    from replay_audit.parsers.sniff import sniff_format
    from replay_audit.stats.file_facts import file_facts

    files = sorted(p for p in args.input.iterdir() if p.is_file())[: args.limit]
    data = [(str(p), read_bytes(p)) for p in files]
    if args.instructions:
        games = [_parse(raw, source, sniff_format(raw), False) for source, raw in data]
        gc.collect()
        gc.disable()
        file_facts(games[0])  # first-call set-up (identity cache, slot offsets) outside
        out: list[Any] = []
        functools.reduce(lambda _, game: out.append(file_facts(game)), games, None)
        print(f"{len(games)} games: {sum(len(t[0]) for t in out)} hand rows")
        return
    gc.disable()
    passes: list[float] = []
    digest = ""
    for run in range(args.repeat):
        spent = 0.0
        kept: list[Any] = []
        h = hashlib.sha256()
        for source, raw in data:
            game = _parse(raw, source, sniff_format(raw), False)
            audit_game(game, None)
            t0 = time.process_time()
            tables = file_facts(game)
            spent += time.process_time() - t0
            kept.append(tables)
            if run == 0:
                h.update(repr(tables).encode())
        if run == 0:
            digest = h.hexdigest()[:16]
        kept.clear()
        gc.collect()
        passes.append(spent)
    shown = ", ".join(f"{p:.3f}" for p in passes)
    print(f"{len(data)} files: file_facts {min(passes):.3f} s best ({shown}); rows {digest}")


if __name__ == "__main__":
    main()
