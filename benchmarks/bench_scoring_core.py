"""Scoring speed of the compiled core (C++) next to our Python engine, ``mahjong`` and riichienv.

Usage: ``python benchmarks/bench_scoring_core.py [corpus_dir] [--rounds N]``.

The wins and their preparation are those of ``bench_scoring.py`` and
``bench_scoring_riichienv.py`` (every AGARI of the shared corpus, the engine-isolation
contexts of ``tests/test_scoring_corpus.py``; each engine's inputs built before the
clock), measured in one run, the engines taking turns, best of ``--rounds`` passes
(garbage collector on, as in real use):

* **core, batch kernel**: ``_core.WinBatch.score()`` over the wins already read into
  batches (one batch per rule set, the contexts added before the clock, as
  riichienv's and ``mahjong``'s inputs are built before it); results stay as numbers
  in the batch (``columns()`` gives them as int64 columns);
* **core, batch from contexts**: the same, reading the ``WinContext`` objects in the
  clock (``WinBatch(...)``, ``add`` each, ``score``, ``columns``);
* **core, ``scoring_core.score_win``**: one call per win, each returning a ``WinValue``
  (the Python object our engine returns; kept in a list);
* **core, ``scoring_core.score_wins``**: the batch form returning ``WinValue`` objects;
* **Python** ``score_win``, cold (run-time memos cleared) and warm;
* ``mahjong`` 2.1.0 ``HandCalculator.estimate_hand_value`` (as in ``bench_scoring.py``);
* riichienv 0.4.11 ``HandEvaluator(tiles, melds).calc(...)`` (as in
  ``bench_scoring_riichienv.py``), when it is installed (``pip install -e '.[bench]'``).

It prints wins/s, the ratios to ``mahjong`` and riichienv / core, and checks that the
core's values equal the Python engine's on every win.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_scoring import ROOT, _clear_caches, _load_corpus_reader, _mahjong_inputs

from replay_audit import _core
from replay_audit.scoring import core as scoring_core
from replay_audit.scoring.hand import score_win


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("corpus", nargs="?", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--rounds", type=int, default=5, help="best of N passes (default 5)")
    args = ap.parse_args()

    from mahjong.hand_calculating.hand import HandCalculator

    try:
        import riichienv._riichienv as rt
        from bench_scoring_riichienv import _riichienv_inputs
    except ImportError:
        rt = None
        print("riichienv is not installed (pip install riichienv==0.4.11): not measured")

    reader = _load_corpus_reader()
    jobs = [(w.ctx, w.rules) for w in reader.corpus_wins(args.corpus)]
    n = len(jobs)
    mj_jobs = [_mahjong_inputs(ctx, rules) for ctx, rules in jobs]
    re_jobs = [_riichienv_inputs(ctx, rt) for ctx, _ in jobs] if rt is not None else []
    groups: dict[int, tuple[Any, list[Any]]] = {}
    for ctx, rules in jobs:
        groups.setdefault(id(rules), (rules, []))[1].append(ctx)
    core_groups = [(scoring_core.core_rules(rules), ctxs) for rules, ctxs in groups.values()]
    assert all(r is not None for r, _ in core_groups), "a rule set the core leaves to Python"

    def prepared_batches() -> list[Any]:
        batches = []
        for rules, ctxs in core_groups:
            batch = _core.WinBatch(rules)
            for ctx in ctxs:
                batch.add(ctx)
            batches.append(batch)
        return batches

    batches = prepared_batches()

    def kernel() -> None:
        for batch in batches:
            batch.score()

    def from_contexts() -> list[bytes]:
        out = []
        for rules, ctxs in core_groups:
            batch = _core.WinBatch(rules)
            for ctx in ctxs:
                batch.add(ctx)
            batch.score()
            out.append(batch.columns())
        return out

    def per_call() -> list[Any]:
        return [scoring_core.score_win(ctx, rules) for ctx, rules in jobs]

    def batch_values() -> list[Any]:
        out: list[Any] = []
        for rules, ctxs in groups.values():
            out.extend(scoring_core.score_wins(ctxs, rules))
        return out

    def python_cold() -> list[Any]:
        _clear_caches()
        return [score_win(ctx, rules) for ctx, rules in jobs]

    def python_warm() -> list[Any]:
        return [score_win(ctx, rules) for ctx, rules in jobs]

    def mahjong() -> list[Any]:
        return [
            HandCalculator.estimate_hand_value(
                tiles, win, melds=melds, dora_indicators=dora, config=cfg, ura_dora_indicators=ura
            )
            for tiles, win, melds, dora, cfg, ura in mj_jobs
        ]

    def riichienv() -> list[Any]:
        return [
            evaluator(tiles, melds).calc(win, dora, ura, cond)
            for evaluator, tiles, melds, win, dora, ura, cond in re_jobs
        ]

    engines: dict[str, tuple[str, Callable[[], Any]]] = {
        "kernel": ("core, batch kernel (WinBatch.score)", kernel),
        "contexts": ("core, batch from WinContexts", from_contexts),
        "per_call": ("core, scoring_core.score_win -> WinValue", per_call),
        "batch_values": ("core, scoring_core.score_wins -> WinValue", batch_values),
        "cold": ("Python score_win, cold caches", python_cold),
        "warm": ("Python score_win, warm caches", python_warm),
        "mahjong": ("mahjong 2.1.0", mahjong),
    }
    if rt is not None:
        engines["riichienv"] = ("riichienv 0.4.11 (Rust)", riichienv)
    times: dict[str, list[float]] = {key: [] for key in engines}
    results: dict[str, Any] = {}
    for _ in range(args.rounds):
        for key, (_, fn) in engines.items():
            seconds, results[key] = _timed(fn)
            times[key].append(seconds)

    ours = results["warm"]
    same = sum(a == b for a, b in zip(results["per_call"], ours, strict=True))
    grouped = [score_win(ctx, rules) for rules, ctxs in groups.values() for ctx in ctxs]
    same_batch = sum(a == b for a, b in zip(results["batch_values"], grouped, strict=True))
    rate = {key: n / min(v) for key, v in times.items()}
    print(f"wins: {n}  (best of {args.rounds} passes each, engines taking turns)")
    for key, (label, _) in engines.items():
        print(
            f"{label:38} {min(times[key]):7.3f} s  {rate[key]:>11,.0f} wins/s"
            f"  {rate[key] / rate['mahjong']:6.1f}x mahjong"
        )
    for key in ("kernel", "contexts", "per_call", "batch_values"):
        line = f"{engines[key][0]:38} {rate[key] / rate['cold']:6.1f}x Python (cold)"
        if rt is not None:
            line += f"  riichienv / core: {rate['riichienv'] / rate[key]:.2f}x"
        print(line)
    print(f"core == Python engine: {same}/{n} (per call), {same_batch}/{n} (batch)")


if __name__ == "__main__":
    main()
