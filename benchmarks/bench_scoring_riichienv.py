"""Scoring speed next to riichienv's Rust calculator: the wins of ``bench_scoring.py``.

Issue 19 asks our scoring to reach 10x ``mahjong``'s wins per second and to come within
2x of riichienv 0.4.11 (``pip install riichienv==0.4.11``, in the ``bench`` extras).  Same
wins, same preparation as ``bench_scoring.py`` (every AGARI of the shared corpus, the
engine-isolation contexts of ``tests/test_scoring_corpus.py``), each engine's inputs
built before the clock starts, best of ``--rounds`` passes, the engines taking turns:

* ours, cold (run-time memos cleared first) and warm;
* ``mahjong`` 2.1.0 ``HandCalculator.estimate_hand_value`` (as in ``bench_scoring.py``);
* riichienv: ``HandEvaluator(tiles, melds).calc(win, dora, ura, Conditions)`` (three-player
  wins: ``HandEvaluator3P``), the evaluator built per win as ``anchors.md`` §6 measured
  it; its ``Meld`` and ``Conditions`` objects are built before the clock, as
  ``mahjong``'s ``HandConfig`` is.

It also counts the wins where riichienv and our engine disagree on han, fu or points
(riichienv scores suuankou tanki as a double yakuman, which Tenhou does not).

    python benchmarks/bench_scoring_riichienv.py [corpus_dir] [--rounds N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from bench_scoring import ROOT, _clear_caches, _load_corpus_reader, _mahjong_inputs

from replay_audit.model.meld import MeldKind
from replay_audit.scoring.context import WinContext
from replay_audit.scoring.hand import score_win


def _riichienv_inputs(ctx: WinContext, rt: Any) -> tuple[Any, ...]:
    kinds = {
        MeldKind.CHI: rt.MeldType.Chi,
        MeldKind.PON: rt.MeldType.Pon,
        MeldKind.DAIMINKAN: rt.MeldType.Daiminkan,
        MeldKind.ANKAN: rt.MeldType.Ankan,
        MeldKind.KAKAN: rt.MeldType.Kakan,
    }
    melds = [
        rt.Meld(kinds[m.kind], list(m.tiles), m.kind != MeldKind.ANKAN)
        for m in ctx.melds
        if m.kind != MeldKind.KITA
    ]
    winds = (rt.Wind.East, rt.Wind.South, rt.Wind.West, rt.Wind.North)
    conditions = rt.Conditions(
        tsumo=ctx.tsumo,
        riichi=ctx.riichi,
        double_riichi=ctx.double_riichi,
        ippatsu=ctx.ippatsu,
        haitei=ctx.haitei,
        houtei=ctx.houtei,
        rinshan=ctx.rinshan,
        chankan=ctx.chankan,
        tsumo_first_turn=ctx.tenhou or ctx.chiihou,
        player_wind=winds[ctx.seat_wind],
        round_wind=winds[ctx.round_wind],
        kita_count=ctx.kita,
        is_sanma=ctx.players == 3,
        num_players=ctx.players,
    )
    evaluator = rt.HandEvaluator3P if ctx.players == 3 else rt.HandEvaluator
    return (
        evaluator,
        list(ctx.tiles),
        melds,
        ctx.win_tile,
        list(ctx.dora_indicators),
        list(ctx.ura_indicators),
        conditions,
    )


def _riichienv_points(result: Any, ctx: WinContext) -> int:
    """Our ``points``: the ron payment, or the tsumo total after tsumo loss."""
    if not ctx.tsumo:
        return int(result.ron_agari)
    if ctx.is_dealer:
        return int(result.tsumo_agari_ko) * (ctx.players - 1)
    return int(result.tsumo_agari_oya) + int(result.tsumo_agari_ko) * (ctx.players - 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("corpus", nargs="?", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--rounds", type=int, default=3, help="best of N passes (default 3)")
    args = ap.parse_args()

    import riichienv._riichienv as rt
    from mahjong.hand_calculating.hand import HandCalculator

    reader = _load_corpus_reader()
    jobs = [(w.ctx, w.rules) for w in reader.corpus_wins(args.corpus)]
    mj_jobs = [_mahjong_inputs(ctx, rules) for ctx, rules in jobs]
    re_jobs = [_riichienv_inputs(ctx, rt) for ctx, _ in jobs]
    n = len(jobs)

    times: dict[str, list[float]] = {"cold": [], "warm": [], "mahjong": [], "riichienv": []}
    ours: list[Any] = []
    theirs: list[Any] = []
    for _ in range(args.rounds):
        _clear_caches()
        t0 = time.perf_counter()
        ours = [score_win(ctx, rules) for ctx, rules in jobs]
        times["cold"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for ctx, rules in jobs:
            score_win(ctx, rules)
        times["warm"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for tiles, win, melds, dora, cfg, ura in mj_jobs:
            HandCalculator.estimate_hand_value(
                tiles, win, melds=melds, dora_indicators=dora, config=cfg, ura_dora_indicators=ura
            )
        times["mahjong"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        theirs = [
            evaluator(tiles, melds).calc(win, dora, ura, cond)
            for evaluator, tiles, melds, win, dora, ura, cond in re_jobs
        ]
        times["riichienv"].append(time.perf_counter() - t0)

    differ = 0
    for (ctx, _), a, b in zip(jobs, ours, theirs, strict=True):
        if (a.error is None) != bool(b.is_win) or (
            a.ok
            and (
                a.han != b.han
                or a.points != _riichienv_points(b, ctx)
                or (not a.yakuman and a.fu != b.fu)
            )
        ):
            differ += 1
    rate = {k: n / min(v) for k, v in times.items()}
    print(f"wins: {n}  (best of {args.rounds} passes each)")
    labels = {
        "cold": "replay_audit (cold caches)",
        "warm": "replay_audit (warm caches)",
        "mahjong": "mahjong 2.1.0",
        "riichienv": "riichienv 0.4.11 (Rust)",
    }
    for key, label in labels.items():
        print(
            f"{label:28} {min(times[key]):7.3f} s  {rate[key]:>9,.0f} wins/s"
            f"  {rate[key] / rate['mahjong']:5.1f}x mahjong"
        )
    print(
        f"riichienv / ours: {rate['riichienv'] / rate['cold']:.1f}x (cold),"
        f" {rate['riichienv'] / rate['warm']:.1f}x (warm)"
    )
    print(f"han/fu/points disagreements riichienv vs ours: {differ}/{n}")


if __name__ == "__main__":
    main()
