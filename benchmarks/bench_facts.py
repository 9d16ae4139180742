"""What the per-player facts cost in an audit: ``hand_facts``, ``game_facts`` and
``score_history`` timed game by game, each right after the game's audit (as
``audit_file`` runs them: the replay has just filled the riichi-wait memo the facts
read), plus the one-time import of the fact modules.

CPU time (``time.process_time``), the garbage collector off, best of ``--repeat``.
The script also prints a digest of the rows (their ``repr``, so types and column
order count), so two checkouts can be compared for identical output.  Nothing is
asserted.

Usage (from the project root)::

    python benchmarks/bench_facts.py                  # the first 500 Phoenix files
    python benchmarks/bench_facts.py --limit 200 --repeat 5
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", nargs="?", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from replay_audit.auditing.auditor import _parse
    from replay_audit.auditing.game import audit_game
    from replay_audit.io.read import read_bytes
    from replay_audit.parsers.sniff import sniff_format

    start = time.process_time()
    from replay_audit.stats.facts import hand_facts
    from replay_audit.stats.game_facts import game_facts, score_history

    imported = time.process_time() - start
    files = sorted(p for p in args.input.iterdir() if p.is_file())[: args.limit]
    data = [(str(p), read_bytes(p)) for p in files]
    gc.disable()
    best: tuple[float, float, float] | None = None
    digest = ""
    for run in range(args.repeat):
        spent = [0.0, 0.0, 0.0]
        h = hashlib.sha256()
        for source, raw in data:
            game = _parse(raw, source, sniff_format(raw), False)
            audit_game(game, None)
            t0 = time.process_time()
            hands = hand_facts(game)
            t1 = time.process_time()
            games = game_facts(game)
            t2 = time.process_time()
            history = score_history(game)
            t3 = time.process_time()
            spent[0] += t1 - t0
            spent[1] += t2 - t1
            spent[2] += t3 - t2
            if run == 0:
                h.update(repr((hands, games, history)).encode())
        if best is None or sum(spent) < sum(best):
            best = (spent[0], spent[1], spent[2])
        if run == 0:
            digest = h.hexdigest()[:16]
    assert best is not None
    print(
        f"{len(files)} files: facts {sum(best):.3f} s (hand_facts {best[0]:.3f}, "
        f"game_facts {best[1]:.3f}, score_history {best[2]:.3f}); import of the fact "
        f"modules {imported:.3f} s; pandas imported: {'pandas' in sys.modules}; "
        f"rows digest {digest}"
    )


if __name__ == "__main__":
    main()
