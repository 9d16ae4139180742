"""``replay-audit convert``, ``explain`` and ``score``: one log or one hand.

Owns the three small commands: converting a log to tenhou.net/6 JSON or mjai,
explaining a statistic, and scoring a hand from its notation.

Must not: hold conversion or scoring logic (``export``, ``scoring.hand_api``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from replay_audit.cli.common import (
    EXIT_CLEAN,
    EXIT_MISMATCH,
    NothingFoundError,
    _overrides,
    _rules_from_args,
)
from replay_audit.model.rules.presets import load_rules


def _cmd_convert(args: argparse.Namespace) -> int:
    import json

    from replay_audit.export import to_mjai, to_tenhou6
    from replay_audit.io.read import read_log

    game = read_log(args.log)
    if args.to == "tenhou6":
        text = json.dumps(to_tenhou6(game), ensure_ascii=False, separators=(",", ":"))
    else:
        text = "\n".join(
            json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in to_mjai(game)
        )
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    return EXIT_CLEAN


def _cmd_explain(args: argparse.Namespace) -> int:
    from replay_audit import stats
    from replay_audit.auditing.game import rules_for_game
    from replay_audit.io.archive import split_member
    from replay_audit.io.read import read_log
    from replay_audit.replay.table import replay_game
    from replay_audit.scoring.explain import explain
    from replay_audit.scoring.hand import score_win

    if args.log is None:  # the whole definition registry (stats.md: `explain [STAT]`)
        print(stats.explain())
        return EXIT_CLEAN
    if not Path(args.log).exists() and args.log in stats.STAT_KEYS:
        print(stats.explain(args.log))
        return EXIT_CLEAN
    if not Path(args.log).exists() and split_member(args.log) is None:
        raise FileNotFoundError(f"no such log file or statistic: {args.log}")
    game = read_log(args.log)
    rules = _rules_from_args(args) or rules_for_game(game)
    replay = replay_game(game, rules)
    hands = [hr for hr in replay.hands if args.hand in (None, hr.hand.label, str(hr.hand.index))]
    if args.hand is not None and not hands:
        labels = ", ".join(hr.hand.label for hr in replay.hands) or "none"
        raise NothingFoundError(f"no hand {args.hand} in {args.log}; its hands: {labels}")
    shown = 0
    for hr in hands:
        for rr in hr.results:
            if rr.win is None:
                continue
            value = score_win(rr.win, rules)
            print(f"{hr.hand.label} seat {rr.win.seat}:")
            print(explain(rr.win, value))
            print()
            shown += 1
    if not shown:
        where = f"hand {args.hand} of {args.log}" if args.hand else args.log
        raise NothingFoundError(f"no win to explain in {where} (draws only)")
    return EXIT_CLEAN


def _cmd_score(args: argparse.Namespace) -> int:
    import json

    from replay_audit.scoring.hand_api import score_hand

    overrides = _overrides(args)
    rules = load_rules(args.rules, overrides or None)
    result = score_hand(
        args.hand,
        args.win,
        melds=args.meld,
        tsumo=args.tsumo,
        riichi=args.riichi,
        double_riichi=args.double_riichi,
        ippatsu=args.ippatsu,
        haitei=args.haitei,
        houtei=args.houtei,
        rinshan=args.rinshan,
        chankan=args.chankan,
        tenhou=args.tenhou,
        chiihou=args.chiihou,
        renhou=args.renhou,
        dora=args.dora,
        ura=args.ura,
        seat_wind=args.seat,
        round_wind=args.round,
        discarder=args.discarder,
        honba=args.honba,
        sticks=args.sticks,
        rules=rules,
    )
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        print(result.explain())
    return EXIT_CLEAN if result.ok else EXIT_MISMATCH
