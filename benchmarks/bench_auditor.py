"""Benchmark the auditor's own Python after the replay: hands, wins, transitions, the end.

For each file, in the order ``audit_file`` works: read and parse, replay (not
timed, so the game is as warm in the caches as it is in a real audit), then
``audit_game`` with that replay handed over, timed, and inside it the time of
three parts of ``_GameAuditor``:

* ``_audit_hand``        -- each hand's results: rows, wins (the scorer's value,
                            yaku, points, payments), draws, sticks and honba;
* ``_check_transition``  -- each hand's start against where the previous one leads;
* ``_check_game_end``    -- the end of the game and the final settlement.

CPU time (``time.process_time``), the garbage collector off as ``audit_file``
has it; the first pass warms up, the best of ``--repeat`` passes is printed.
Run it with two installs taking turns (before and after a change), since other
processes on the machine move every figure.  Nothing is asserted.

Usage (from the project root)::

    python benchmarks/bench_auditor.py --limit 500 --repeat 3
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"
PARTS = ("_audit_hand", "_check_transition", "_check_game_end")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", nargs="?", type=Path, default=DEFAULT_INPUT)
    ap.add_argument("--limit", type=int, default=500, help="first N files (sorted)")
    ap.add_argument("--repeat", type=int, default=3, help="timed passes; the best is kept")
    args = ap.parse_args()

    from replay_audit.auditing import base
    from replay_audit.auditing.auditor import _parse
    from replay_audit.auditing.game import _GameAuditor, audit_game, rules_for_game
    from replay_audit.io.read import read_bytes
    from replay_audit.parsers.sniff import sniff_format
    from replay_audit.replay.table import replay_game

    files = sorted(p for p in args.input.iterdir() if p.is_file())[: args.limit]
    data = [read_bytes(f) for f in files]
    replays: dict[int, Any] = {}

    def handed_over(self: Any) -> Any:
        replay = replays[id(self.game)]
        self.findings.extend(replay.findings)
        return replay

    base._AuditorBase.replay = handed_over  # type: ignore[method-assign]
    spent = dict.fromkeys(PARTS, 0.0)

    def timed(name: str) -> None:
        inner: Callable[..., Any] = getattr(_GameAuditor, name)

        def part(self: Any, *a: Any, **kw: Any) -> Any:
            start = time.process_time()
            try:
                return inner(self, *a, **kw)
            finally:
                spent[name] += time.process_time() - start

        setattr(_GameAuditor, name, part)

    for name in PARTS:
        timed(name)
    gc.disable()
    best: dict[str, float] = {}
    for rep in range(args.repeat + 1):
        spent.update(dict.fromkeys(PARTS, 0.0))
        total = 0.0
        for path, raw in zip(files, data, strict=True):
            game = _parse(raw, str(path), sniff_format(raw), False)
            replays.clear()
            replays[id(game)] = replay_game(game, rules_for_game(game))
            start = time.process_time()
            audit_game(game)
            total += time.process_time() - start
        if rep == 0:
            continue  # warm-up
        for name, value in (("audit_game", total), *spent.items()):
            best[name] = min(best.get(name, value), value)
    three = sum(best[p] for p in PARTS)
    print(f"{len(files)} files, best of {args.repeat}, CPU s:")
    print(
        "  " + "  ".join(f"{k} {v:.3f}" for k, v in best.items()) + f"  (three parts {three:.3f})"
    )


if __name__ == "__main__":
    main()
