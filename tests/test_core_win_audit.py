"""The auditor's one-call win (``_core.score_and_pay``) against the Python engine.

``auditing.wins`` scores a win and computes its payments in one call to the core
where no pao seat and no other reading of the rules can weigh in.  It must give
exactly what ``scoring.hand.score_win`` and ``scoring.payments.win_deltas`` (the
Python reference) give: held equal here on every win of the shared corpus, under
the log's own rules and with tsumo loss turned over; a planted difference (one
honba more) shows the comparison does fail; and auditing games with the one-call
path switched off gives the same findings and rows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Game
from replay_audit.model.rules import RuleSet
from replay_audit.scoring import core as scoring_core
from tests.conftest import CORPUS, need
from tests.test_core_scoring import (
    PY_SCORE_WIN,
    PY_WIN_DELTAS,
    Win,
    _corpus_wins,
    _variant,
    needs_core,
)

try:
    from replay_audit import _core
except ImportError:  # test_core_wall.py::test_core_is_built says why; these skip
    _core = None  # type: ignore[assignment]

Pay = Callable[..., Any]


def _differences(wins: list[Win], variant: int, pay: Pay, limit: int = 5) -> list[str]:
    """Where ``pay`` (``_core.score_and_pay``'s signature) and the Python reference
    disagree, for ``wins`` under ``_variant(rules, variant)``."""
    memo: dict[tuple[int, int], RuleSet] = {}
    differ: list[str] = []
    for win in wins:
        rules = _variant(win.rules, variant, memo)
        core_rules = scoring_core._core_rules(rules)
        if core_rules is None:
            continue
        a = win.deltas_args
        got = pay(
            win.ctx,
            core_rules,
            a["winner"],
            a["from_seat"],
            a["dealer"],
            a["players"],
            a["honba"],
            a["sticks"],
            a["first_winner"],
        )
        if got is None:  # declined: only where the core's scoring declines too
            if _core.score_win_value(win.ctx, core_rules) is not None:
                differ.append(f"{win.where}: declined")
            continue
        value, deltas = got
        python = PY_SCORE_WIN(win.ctx, rules)
        if value != python:
            differ.append(f"{win.where}: {value} != {python}")
        elif not python.ok:
            if deltas is not None:
                differ.append(f"{win.where}: deltas {deltas} for no legal win")
        else:
            args = {**a, "pao_seat": None}
            try:
                expected: Any = PY_WIN_DELTAS(python, rules=rules, **args)
            except Exception as exc:  # the core declines what Python refuses
                expected = (type(exc), str(exc))
            if deltas is None:  # declined: only where win_deltas declines too
                if _core.win_deltas(python, rules=core_rules, **args) is not None:
                    differ.append(f"{win.where}: deltas declined")
            elif deltas != expected:
                differ.append(f"{win.where}: deltas {deltas} != {expected}")
        if len(differ) >= limit:
            break
    return differ


@pytest.fixture(scope="module")
def corpus_wins(corpus_games: dict[Path, Game]) -> list[Win]:
    need(CORPUS)
    return _corpus_wins(corpus_games)


@needs_core
@pytest.mark.corpus
@pytest.mark.parametrize("variant", [0, 1])
def test_every_corpus_win_scores_and_pays_as_the_python_engine(
    corpus_wins: list[Win], variant: int
) -> None:
    assert len(corpus_wins) > 24_000
    differ = _differences(corpus_wins, variant, _core.score_and_pay)
    assert not differ, differ


@needs_core
@pytest.mark.corpus
def test_a_planted_difference_is_found(corpus_wins: list[Win]) -> None:
    """One honba more in the core's call: its payments differ, and it is seen."""

    def off_by_a_honba(ctx: Any, rules: Any, *args: Any) -> Any:
        *seats, honba, sticks, first = args
        return _core.score_and_pay(ctx, rules, *seats, honba + 1, sticks, first)

    differ = _differences(corpus_wins[:2000], 0, off_by_a_honba)
    assert differ and all("deltas" in d for d in differ), differ


@needs_core
@pytest.mark.corpus
def test_the_audit_is_the_same_without_the_one_call_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """The auditor's findings and rows with ``score_and_pay`` switched off (two calls
    per win, as before it) are the same, on a few hundred corpus games."""
    need(CORPUS)
    from replay_audit.auditing import engine as engine_module
    from replay_audit.auditing import wins
    from replay_audit.auditing.auditor import audit_file

    paths = sorted((CORPUS / "tenhou-xml").rglob("*.xml.gz"))[::10]
    assert len(paths) > 200
    with_it = [audit_file(p) for p in paths]
    slow = dataclasses.replace(engine_module.engine(), score_and_pay=None)
    monkeypatch.setattr(wins, "engine", lambda: slow)
    without = [audit_file(p) for p in paths]
    for a, b in zip(with_it, without, strict=True):
        assert (a.hands, a.findings, a.games) == (b.hands, b.findings, b.games), a.path
