"""The compiled core's scoring (``replay_audit._core``, C++) against the Python engine.

``replay_audit.scoring_core.score_win`` / ``score_wins`` / ``win_deltas`` must return exactly
what ``replay_audit.scoring.hand.score_win`` and ``replay_audit.scoring.payments.win_deltas``
return: the same ``WinValue`` (yaku, yakuman, han, fu, fu items in order, limit, points,
payments, error) and the same deltas.  Three ways of holding them together:

1. every win of the shared corpus, each log read with ``replay_audit``'s readers (XML:
   the recorded hand; tenhou.net/6 JSON, which records no hand: the replayer's context),
   under the log's own rules and under rule variants that move every ``RuleSet`` field
   the scoring reads, with the deltas of each win;
2. the scoring golden tests (``test_scoring_*.py``, ``test_payments.py``, the seeds'
   worked hands, three-player and rule-variant fixtures, multiple yakuman, Toutenkou's
   fallback) run a second time with the core as the engine (``core_engine_plugin.py``);
3. hypothesis: random winning hands (regular, seven pairs, kokushi; calls, kita, red
   fives), random non-winning tiles, random situations and rule sets, random deltas.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay_audit.io import read_log
from replay_audit.model.events import Game, RecordedWin, RiichiAccept
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules import (
    MAJSOUL_3P,
    MAJSOUL_4P,
    PRESETS,
    TENHOU_3P,
    TENHOU_4P,
    RuleSet,
    rules_for_csrule,
    rules_for_disp,
    rules_for_go_type,
    with_overrides,
)
from replay_audit.model.rules.eras import rules_of_date
from replay_audit.native import _core
from replay_audit.scoring import core as scoring_core
from replay_audit.scoring import hand as py_hand
from replay_audit.scoring import payments as py_payments
from replay_audit.scoring.context import WinContext, WinValue
from tests.conftest import CORPUS, ROOT, core_built, need

needs_core = core_built()

# The Python engine, bound now: the golden-test run swaps the module attributes.
PY_SCORE_WIN = py_hand.score_win
PY_WIN_DELTAS = py_payments.win_deltas

FLAG_IDS = {
    1: "riichi",
    21: "double_riichi",
    2: "ippatsu",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    37: "tenhou",
    38: "chiihou",
}
"""Situational yaku ids -> WinContext flags (as ``test_scoring_corpus.py`` reads them)."""

VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"yakuman": "full", "pao_scope": "yakuman_only", "kazoe": "multiple", "renhou": "yakuman"},
    {"kiriage": True, "kuitan": False, "double_wind_fu": 2, "renhou": "mangan"},
    {"kazoe": "sanbaiman", "rinshan_tsumo_fu": 0, "open_pinfu_fu": 20, "aka": 0},
    {"yakuman": "single", "kazoe": "none", "honba_ron": 500, "honba_tsumo": 200},
    {"riichi_cost": 1500, "red_fives": (16, 17, 52, 88), "aka": 4, "pao_yakuman": (39, 49, 51)},
)
"""Overrides applied to each log's rules: every RuleSet field the scoring and the
payments read takes another value in at least one of them (``tsumo_loss`` is flipped
separately)."""


def _rules_for_game(game: Game) -> RuleSet:
    """The rules a game is audited under (as ``audit.rules_for_game`` picks them)."""
    meta = game.meta
    if meta.format == "tenhou-xml":
        rules = rules_for_go_type(meta.go_type, meta.lobby)
    else:
        rules = rules_for_disp(meta.rule_disp, meta.aka, meta.players)
    csrule = dict(meta.extra).get("csrule")
    if csrule:
        rules = rules_for_csrule(rules, csrule)
    return rules_of_date(rules, game)


@dataclasses.dataclass(frozen=True, slots=True)
class Win:
    """One recorded win as both engines get it: the context and the deltas' arguments."""

    where: str
    ctx: WinContext
    rules: RuleSet
    deltas_args: dict[str, Any]


def _replayed_contexts(game: Game, rules: RuleSet) -> dict[int, WinContext]:
    """``id(recorded win)`` -> the context the replayer builds from the moves: a
    tenhou.net/6 JSON win does not record the winner's hand, only the moves do."""
    from replay_audit.replay import replay_game

    replay = replay_game(game, rules, use_wall=False)
    return {
        id(result.result): result.win
        for hand in replay.hands
        for result in hand.results
        if result.win is not None
    }


def _wins_of(game: Game, where: str) -> Iterator[Win]:
    rules = _rules_for_game(game)
    players = game.meta.players
    replayed = _replayed_contexts(game, rules) if game.meta.format != "tenhou-xml" else {}
    for hand in game.hands:
        sticks = hand.sticks
        first = True
        for ev in hand.events:
            if isinstance(ev, RiichiAccept):
                sticks += 1
                continue
            if not isinstance(ev, RecordedWin):
                continue
            ctx = replayed.get(id(ev))
            if ctx is None:
                if ev.win_tile is None:
                    continue
                ids = {y for y, _ in ev.yaku} | set(ev.yakuman)
                flags = {name: yid in ids for yid, name in FLAG_IDS.items()}
                riichi = flags["riichi"] or flags["double_riichi"]
                ctx = WinContext(
                    tiles=ev.hand,
                    melds=ev.melds,
                    win_tile=ev.win_tile,
                    tsumo=ev.tsumo,
                    seat=ev.seat,
                    dealer=hand.dealer,
                    round_wind=hand.round_wind,
                    players=players,
                    dora_indicators=ev.dora,
                    ura_indicators=ev.ura if riichi else (),
                    **flags,
                )
            args = {
                "winner": ev.seat,
                "from_seat": ev.from_seat,
                "dealer": hand.dealer,
                "players": players,
                "honba": hand.honba,
                "sticks": sticks,
                "first_winner": first,
                "pao_seat": ev.pao_seat,
            }
            first = False
            yield Win(f"{where} seq {ev.seq}", ctx, rules, args)


def _corpus_wins(games: dict[Path, Game]) -> list[Win]:
    wins: list[Win] = []
    for path, game in games.items():
        wins.extend(_wins_of(game, str(path.relative_to(CORPUS))))
    for path in sorted(CORPUS.rglob("*.json")):
        wins.extend(_wins_of(read_log(path), str(path.relative_to(CORPUS))))
    return wins


def _variant(rules: RuleSet, index: int, memo: dict[tuple[int, int], RuleSet]) -> RuleSet:
    """``rules`` under ``VARIANTS[index]`` (one RuleSet per rules and variant)."""
    key = (id(rules), index)
    got = memo.get(key)
    if got is None:
        overrides = dict(VARIANTS[index])
        if index % 2:
            overrides["tsumo_loss"] = not rules.tsumo_loss
        got = memo[key] = with_overrides(rules, overrides) if overrides else rules
    return got


def _deltas_both(value: WinValue, rules: RuleSet, args: dict[str, Any]) -> tuple[Any, Any]:
    """Both engines' deltas for the same arguments (an exception is compared too)."""
    out: list[Any] = []
    for fn in (PY_WIN_DELTAS, scoring_core.win_deltas):
        try:
            out.append(fn(value, rules=rules, **args))
        except Exception as exc:  # the same error is part of the contract
            out.append((type(exc), str(exc)))
    return out[0], out[1]


@needs_core
@pytest.mark.corpus
def test_every_corpus_win_scores_and_pays_the_same_in_both_engines(
    corpus_games: dict[Path, Game],
) -> None:
    need(CORPUS)
    wins = _corpus_wins(corpus_games)
    json_wins = sum(1 for w in wins if w.where.split(" ")[0].endswith(".json"))
    assert len(wins) > 24_000
    assert json_wins > 50, json_wins  # the JSON logs' wins, through the replayer
    memo: dict[tuple[int, int], RuleSet] = {}
    differ: list[str] = []
    checked = 0
    for index in range(len(VARIANTS)):
        # per rules: the wins and their Python values, which the batch is held to below
        # (the Python engine's answer is computed once per win and variant, not twice)
        by_rules: dict[int, tuple[RuleSet, list[tuple[Win, WinValue]]]] = {}
        for win in wins:
            rules = _variant(win.rules, index, memo)
            checked += 1
            python = PY_SCORE_WIN(win.ctx, rules)
            core = scoring_core.score_win(win.ctx, rules)
            if core != python:
                differ.append(f"{win.where} rules {index}: {python} != {core}")
            by_rules.setdefault(id(rules), (rules, []))[1].append((win, python))
            if python.ok:
                for value in (
                    python,
                    dataclasses.replace(
                        python, ron_payment=0, tsumo_dealer_payment=0, tsumo_other_payment=0
                    ),
                ):
                    a, b = _deltas_both(value, rules, win.deltas_args)
                    if a != b:
                        differ.append(f"{win.where} rules {index} deltas: {a} != {b}")
        # the batch form: the same values, many wins per call
        for rules, group in by_rules.values():
            batch = scoring_core.score_wins([w.ctx for w, _ in group], rules)
            for (win, python), value in zip(group, batch, strict=True):
                if value != python:
                    differ.append(f"{win.where} rules {index} (batch): {value}")
        assert not differ, f"{len(differ)} differ, e.g. {differ[:3]}"
    assert checked == len(wins) * len(VARIANTS)


@needs_core
def test_the_core_answers_hanfu_rules_and_leaves_toutenkou_to_python() -> None:
    # the core makes WinValue objects slot by slot: only while it knows every field
    assert scoring_core._Python.load().core
    assert tuple(f.name for f in dataclasses.fields(WinValue)) == scoring_core._VALUE_FIELDS
    for rules in (TENHOU_4P, TENHOU_3P, MAJSOUL_4P, MAJSOUL_3P):
        assert scoring_core.core_rules(rules) is not None, rules.name
    assert scoring_core.core_rules(PRESETS["toutenkou"]) is None
    ctx = py_hand.context_from_notation("123m456p789s11s44z", "4z", tsumo=True)
    assert _core.score_win(ctx, scoring_core.core_rules(TENHOU_4P)) is not None


@needs_core
def test_batch_columns_match_the_values() -> None:
    ctxs = [
        py_hand.context_from_notation("234m345p456s2267s", "8s", tsumo=True),
        py_hand.context_from_notation("1122334455667z", "7z"),  # tsuuiisou chiitoitsu
        py_hand.context_from_notation("123456789m1122p", "3p"),  # not complete
        py_hand.context_from_notation("555p555s22p99s", "2p", melds=["pon:555m"]),  # no yaku
    ]
    batch = _core.WinBatch(scoring_core.core_rules(TENHOU_4P))
    for ctx in ctxs:
        assert batch.add(ctx)
    batch.score()
    columns = memoryview(batch.columns()).cast("q").tolist()
    for i, (ctx, fields) in enumerate(zip(ctxs, batch.values(), strict=True)):
        value = PY_SCORE_WIN(ctx, TENHOU_4P)
        assert WinValue(*fields) == value
        error = {None: 0, "not_complete": 1, "no_yaku": 2}[value.error]
        expected = [
            error,
            value.han,
            value.fu,
            value.points,
            value.limit,
            value.yakuman_count,
            value.base,
            value.ron_payment,
            value.tsumo_dealer_payment,
            value.tsumo_other_payment,
        ]
        assert columns[10 * i : 10 * i + 10] == expected


@needs_core
def test_declined_contexts_fall_back_to_python() -> None:
    ctx = py_hand.context_from_notation("234m345p456s2267s", "8s", tsumo=True)
    odd = [
        dataclasses.replace(ctx, tiles=(*ctx.tiles[:-1], 136)),  # no such tile
        dataclasses.replace(ctx, round_wind=5),
        dataclasses.replace(ctx, melds=(Meld(MeldKind.PON, ()),)),
    ]
    rules = scoring_core.core_rules(TENHOU_4P)
    for bad in odd:
        assert _core.score_win(bad, rules) is None
        try:
            expected: object = PY_SCORE_WIN(bad, TENHOU_4P)
        except Exception as exc:
            with pytest.raises(type(exc)):
                scoring_core.score_win(bad, TENHOU_4P)
        else:
            assert scoring_core.score_win(bad, TENHOU_4P) == expected
    value = PY_SCORE_WIN(ctx, TENHOU_4P)
    args = {
        "winner": 5,
        "from_seat": 1,
        "dealer": 0,
        "players": 4,
        "honba": 0,
        "sticks": 0,
        "first_winner": True,
        "pao_seat": None,
    }
    with pytest.raises(ValueError, match="outside 4 players"):
        scoring_core.win_deltas(value, rules=TENHOU_4P, **args)


# ------------------------------------------------------------- the golden tests, twice

GOLDEN = (
    "tests/test_scoring_rules.py",
    "tests/test_scoring_seeds.py",
    "tests/test_payments.py",
    "tests/test_toutenkou.py",
    "tests/test_variant_fixtures.py",
    "tests/test_first_hour.py",
)
"""Tests that pin the scorer's and the payments' answers: worked examples of the seed
documents, rule variants (three players, split tsumo, multiple yakuman, kazoe,
kiriage, renhou), pao and double ron, hand-made variant games audited clean, every
corpus payment, and Toutenkou (which the core leaves to Python).
``tests/test_scoring_corpus.py`` (the recorded values of every corpus win) is not run
again here: it builds each win's context from the recorded tiles and yaku flags, the
contexts ``test_every_corpus_win_scores_and_pays_the_same_in_both_engines`` holds the
two engines equal on (the game's own rules among its variants), so the core's answers
there are the Python engine's, which that file holds to Tenhou's."""


@needs_core
def test_golden_scoring_tests_pass_with_the_core_as_the_engine(tmp_path: Path) -> None:
    """Run the golden test files in a fresh pytest with ``core_engine_plugin``, which
    makes ``replay_audit.native``'s functions the scoring engine before they import it."""
    env = dict(os.environ, CORE_ENGINE_COUNTS=str(tmp_path / "counts"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.core_engine_plugin",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "--no-header",
            "-n",  # in this process: the plugin patches it and counts the calls here,
            "0",  # not in pytest-xdist's workers (addopts asks for -n auto)
            *GOLDEN,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    tail = (proc.stdout + proc.stderr)[-3000:]
    assert proc.returncode == 0, tail
    counts = dict(
        (key, int(value))
        for key, value in (line.split() for line in (tmp_path / "counts").read_text().splitlines())
    )
    # the core answered (not only the fallback), for scoring and for payments
    assert counts["score_win_core"] >= 100, counts  # the seeds', the rules' and variants' wins
    # the corpus's payments among them (the golden files' own alone without the corpus)
    assert counts["win_deltas_core"] >= (20_000 if CORPUS.is_dir() else 100), counts


# ------------------------------------------------------------------- random hands

_RULES_CHOICES = (
    TENHOU_4P,
    TENHOU_3P,
    MAJSOUL_4P,
    MAJSOUL_3P,
    *(with_overrides(TENHOU_4P, v) for v in VARIANTS[1:]),
    with_overrides(TENHOU_3P, {"tsumo_loss": False, "kazoe": "multiple"}),
)


@st.composite
def _winning_hand(draw: st.DrawFn) -> tuple[WinContext, RuleSet]:
    """A complete hand with random calls and a random situation (the flags need not be
    consistent: both engines must agree on any context)."""
    rules = draw(st.sampled_from(_RULES_CHOICES))
    players = draw(st.sampled_from((rules.players, 3, 4)))
    used = [0] * 34

    def take(kind: int, n: int) -> list[int] | None:
        if used[kind] + n > 4:
            return None
        ids = [4 * kind + used[kind] + i for i in range(n)]
        used[kind] += n
        return ids

    shape = draw(st.sampled_from(("regular", "regular", "closed", "chiitoitsu", "kokushi")))
    concealed: list[int] = []
    melds: list[Meld] = []
    if shape == "kokushi":
        kinds = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        for k in kinds:
            concealed += take(k, 1) or []
        concealed += take(draw(st.sampled_from(kinds)), 1) or []
    elif shape == "chiitoitsu":
        for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
            concealed += take(k, 2) or []
    else:
        pair = draw(st.integers(0, 33))
        concealed += take(pair, 2) or []
        placed = 0
        for _ in range(12):  # four sets, retrying a set whose tiles are used up
            if placed == 4:
                break
            form = draw(
                st.sampled_from(("run", "run", "triplet", "chi", "pon", "kan", "ankan", "kakan"))
                if shape == "regular"
                else st.sampled_from(("run", "run", "run", "triplet"))  # pinfu, iipeikou ...
            )
            if form in ("run", "chi"):
                start = draw(st.integers(0, 26).filter(lambda k: k % 9 <= 6))
                if any(used[start + i] >= 4 for i in range(3)):
                    continue
                ids = [t for i in range(3) for t in (take(start + i, 1) or [])]
                placed += 1
                if form == "run":
                    concealed += ids
                else:
                    melds.append(Meld(MeldKind.CHI, tuple(sorted(ids)), ids[0], 0))
                continue
            k = draw(st.integers(0, 33))
            n = 3 if form in ("triplet", "pon") else 4
            ids = take(k, n)
            if ids is None:
                continue
            placed += 1
            if form == "triplet":
                concealed += ids
            elif form == "pon":
                melds.append(Meld(MeldKind.PON, tuple(ids), ids[0], 0))
            elif form == "kan":
                melds.append(Meld(MeldKind.DAIMINKAN, tuple(ids), ids[0], 0))
            elif form == "ankan":
                melds.append(Meld(MeldKind.ANKAN, tuple(ids)))
            else:
                melds.append(Meld(MeldKind.KAKAN, tuple(ids), ids[0], 0, ids[-1]))
    if draw(st.booleans()) and players == 3:
        kita = take(30, 1)
        if kita:
            melds.append(Meld(MeldKind.KITA, tuple(kita)))
    if draw(st.booleans()):  # swap some copy for a red five, if the hand has that five
        concealed = [16 if t == 17 and used[4] < 4 else t for t in concealed]
    order = draw(st.permutations(melds))
    win_tile = draw(st.sampled_from(concealed))
    tiles = (*tuple(t for t in concealed if t != win_tile), win_tile)
    indicator = st.integers(0, 135)
    rare = st.sampled_from((True, *(False,) * 11))
    flags = draw(
        st.fixed_dictionaries(
            {
                name: st.booleans() if name in ("tsumo", "riichi") else rare
                for name in (
                    "tsumo",
                    "riichi",
                    "double_riichi",
                    "ippatsu",
                    "haitei",
                    "houtei",
                    "rinshan",
                    "chankan",
                    "tenhou",
                    "chiihou",
                    "renhou",
                )
            }
        )
    )
    ctx = WinContext(
        tiles=tiles,
        melds=tuple(order),
        win_tile=win_tile,
        seat=draw(st.integers(0, players - 1)),
        dealer=draw(st.integers(0, players - 1)),
        round_wind=draw(st.integers(0, 3)),
        players=players,
        dora_indicators=tuple(draw(st.lists(indicator, min_size=1, max_size=5))),
        ura_indicators=tuple(draw(st.lists(indicator, max_size=5))),
        **flags,
    )
    return ctx, rules


@needs_core
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_winning_hand())
def test_random_winning_hands_score_the_same(case: tuple[WinContext, RuleSet]) -> None:
    ctx, rules = case
    assert scoring_core.score_win(ctx, rules) == PY_SCORE_WIN(ctx, rules)


@needs_core
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 135), min_size=14, max_size=14, unique=True),
    st.booleans(),
    st.sampled_from(_RULES_CHOICES),
)
def test_random_tiles_score_the_same(tiles: list[int], tsumo: bool, rules: RuleSet) -> None:
    ctx = WinContext(
        tiles=tuple(tiles), melds=(), win_tile=tiles[-1], tsumo=tsumo, seat=1, dealer=0
    )
    assert scoring_core.score_win(ctx, rules) == PY_SCORE_WIN(ctx, rules)


@needs_core
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    _winning_hand(),
    st.integers(-1, 4),
    st.integers(-1, 4),
    st.integers(0, 8),
    st.integers(0, 8),
    st.booleans(),
    st.one_of(st.none(), st.integers(0, 3)),
    st.booleans(),
)
def test_random_deltas_are_the_same(
    case: tuple[WinContext, RuleSet],
    winner: int,
    from_seat: int,
    honba: int,
    sticks: int,
    first: bool,
    pao: int | None,
    own_split: bool,
) -> None:
    ctx, rules = case
    value = PY_SCORE_WIN(ctx, rules)
    if not own_split:
        value = dataclasses.replace(
            value, ron_payment=0, tsumo_dealer_payment=0, tsumo_other_payment=0
        )
    args = {
        "winner": winner,
        "from_seat": from_seat,
        "dealer": ctx.dealer,
        "players": ctx.players,
        "honba": honba,
        "sticks": sticks,
        "first_winner": first,
        "pao_seat": pao,
    }
    python, core = _deltas_both(value, rules, args)
    assert core == python
