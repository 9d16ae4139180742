"""Scoring speed: every corpus win scored by our engine and by the ``mahjong`` package.

Usage: ``python benchmarks/bench_scoring.py [corpus_dir]``.

Both engines get the same hands (the engine-isolation contexts of
``tests/test_scoring_corpus.py``: recorded tiles, situational flags from the
recorded yaku ids), prepared before the clock starts, so only scoring is timed.
``mahjong`` 2.1.0 is configured for Tenhou as in ``anchors.md`` §4.2.  Our
engine's run-time memos (suit-pattern tables, han/fu -> payment values) are
cleared before its timed pass, so the cold figure, the honest one, includes
filling them once; a second (warm) pass is printed too.  Timings are wall-clock
best-of-N with the garbage collector on for both engines, as in real use.  The script also counts
hands where the two engines disagree on han, fu or points, as a cross-check.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

from replay_audit.model.meld import MeldKind
from replay_audit.scoring import decompose, points
from replay_audit.scoring.context import WinContext
from replay_audit.scoring.hand import score_win

ROOT = Path(__file__).resolve().parents[1]


def _load_corpus_reader() -> Any:
    spec = importlib.util.spec_from_file_location(
        "_scoring_corpus", ROOT / "tests" / "test_scoring_corpus.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _mahjong_inputs(ctx: WinContext, rules: Any) -> tuple[Any, ...]:
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld as MjMeld

    kinds = {
        MeldKind.CHI: MjMeld.CHI,
        MeldKind.PON: MjMeld.PON,
        MeldKind.DAIMINKAN: MjMeld.KAN,
        MeldKind.ANKAN: MjMeld.KAN,
        MeldKind.KAKAN: MjMeld.SHOUMINKAN,
    }
    melds = [
        MjMeld(kinds[m.kind], tiles=list(m.tiles), opened=m.kind != MeldKind.ANKAN)
        for m in ctx.melds
        if m.kind != MeldKind.KITA
    ]
    tiles = list(ctx.tiles) + [t for m in melds for t in m.tiles]
    options = OptionalRules(
        has_open_tanyao=rules.kuitan,
        has_aka_dora=rules.aka > 0,
        has_double_yakuman=False,
        kazoe_limit=0,
        kiriage=rules.kiriage,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        is_three_player=ctx.players == 3,
    )
    config = HandConfig(
        is_tsumo=ctx.tsumo,
        is_riichi=ctx.riichi,
        is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan,
        is_haitei=ctx.haitei,
        is_houtei=ctx.houtei,
        is_daburu_riichi=ctx.double_riichi,
        is_tenhou=ctx.tenhou,
        is_chiihou=ctx.chiihou,
        player_wind=EAST + ctx.seat_wind,
        round_wind=EAST + ctx.round_wind,
        options=options,
        num_nuki_dora=ctx.kita,
    )
    return (
        tiles,
        ctx.win_tile,
        melds or None,
        list(ctx.dora_indicators),
        config,
        list(ctx.ura_indicators) or None,
    )


def _clear_caches() -> None:
    """Empty every memo the scoring engine fills at run time (suit tables, values)."""
    decompose.clear_caches()
    points.clear_caches()


def main(corpus: Path, rounds: int = 3) -> None:
    """Best of ``rounds`` timed passes per engine (the machine is shared; the
    minimum is the least disturbed figure), alternating the two engines."""
    from mahjong.hand_calculating.hand import HandCalculator

    reader = _load_corpus_reader()
    wins = list(reader.corpus_wins(corpus))
    jobs = [(w.ctx, w.rules) for w in wins]
    mj_jobs = [_mahjong_inputs(ctx, rules) for ctx, rules in jobs]
    n = len(jobs)

    cold: list[float] = []
    warm: list[float] = []
    mj: list[float] = []
    ours: list[Any] = []
    theirs: list[Any] = []
    for _ in range(rounds):
        _clear_caches()
        t0 = time.perf_counter()
        ours = [score_win(ctx, rules) for ctx, rules in jobs]
        cold.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for ctx, rules in jobs:
            score_win(ctx, rules)
        warm.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        theirs = [
            HandCalculator.estimate_hand_value(
                tiles, win, melds=melds, dora_indicators=dora, config=cfg, ura_dora_indicators=ura
            )
            for tiles, win, melds, dora, cfg, ura in mj_jobs
        ]
        mj.append(time.perf_counter() - t0)

    differ = 0
    for a, b in zip(ours, theirs, strict=True):
        if (a.error is None) != (b.error is None) or (
            a.ok
            and (a.han != b.han or a.points != b.cost["total"] or (not a.yakuman and a.fu != b.fu))
        ):
            differ += 1
    rate_cold, rate_warm, rate_mj = n / min(cold), n / min(warm), n / min(mj)
    print(f"hands: {n}  (best of {rounds} passes each)")
    print(f"replay_audit (cold caches): {min(cold):.3f} s  {rate_cold:,.0f} hands/s")
    print(f"replay_audit (warm caches): {min(warm):.3f} s  {rate_warm:,.0f} hands/s")
    print(f"mahjong 2.1.0:              {min(mj):.3f} s  {rate_mj:,.0f} hands/s")
    print(f"ratio cold: {rate_cold / rate_mj:.1f}x   ratio warm: {rate_warm / rate_mj:.1f}x")
    print(f"han/fu/points disagreements with mahjong: {differ}/{n}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "corpus")
