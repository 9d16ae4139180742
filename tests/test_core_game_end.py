"""The game's end checked by the core in the game's one call (``_core.audit_hands``)
against its Python reference, ``auditing.chain._check_game_end``.

Where the log has one reading of its final points, the core says whether the game's
end is settled: the rules end the game after its last hand, and the final line agrees
with the last scores plus the leftover sticks and with the reading's uma and oka
(``src/core/game_end.cpp``).  Where it is, ``_check_game_end`` is not asked.  Held
together here: the core's final points are ``scoring.final.final_points``'s; over the
whole shared corpus each game's verdict is the Python's (settled exactly where
``_check_game_end`` finds nothing to report) and the audit is the same with and
without it; and a damaged game (a final score, a final point, no owari, a lost last
hand) is not settled, and the Python reports the damage.
"""

from __future__ import annotations

import dataclasses
import gzip
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.auditing import engine as engine_module
from replay_audit.auditing import game
from replay_audit.auditing.auditor import audit_file
from replay_audit.model.events import Game, Owari
from replay_audit.model.findings import INFO
from replay_audit.model.rules.presets import PRESETS
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.native import _core
from replay_audit.scoring.final import Reading, final_points
from replay_audit.scoring.final_core import FinalRule, final_rule
from tests.conftest import core_built
from tests.test_core_win_audit import _differences, _paths

needs_core = core_built("final_points")

FLOATING = dataclasses.replace(
    PRESETS["tenhou-4p"],
    name="floating-uma",
    uma_rows=((0, 0, 0, 0), (12, -1, -3, -8), (8, 4, -4, -8), (8, 3, 1, -12), (0, 0, 0, 0)),
)
"""A rule with a floating uma (a row per number of seats below the return, as a
``csrule`` lobby sets it)."""
RULES: tuple[RuleSet, ...] = (
    PRESETS["tenhou-4p"],
    PRESETS["tenhou-3p"],
    PRESETS["majsoul-4p"],
    PRESETS["majsoul-3p"],
    PRESETS["tenhou-ratio"],
    FLOATING,
)


# ------------------------------------------------------------------ the final points


@needs_core
@settings(max_examples=600, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    era=st.sampled_from(("exact", "era1")),
    # hundreds, as Tenhou's scores are, and some ties and negatives among them
    scores=st.lists(st.integers(-300, 1200).map(lambda x: x * 100), min_size=4, max_size=4),
    sticks=st.integers(0, 6),
)
def test_the_core_final_points_are_pythons(
    rules: RuleSet, era: str, scores: list[int], sticks: int
) -> None:
    final = final_rule(Reading("", rules, era))  # type: ignore[arg-type]
    assert final is not None
    players = rules.players
    seated = tuple(scores[:players])
    raw, points = final_points(seated, sticks, rules, era=era)  # type: ignore[arg-type]
    assert _core.final_points(seated, sticks, final) == (raw[:players], points[:players])


def test_rules_the_core_does_not_count_are_left_to_python() -> None:
    """Split ties and a fractional oka are ``final_points``' other counts: no rule."""
    split = dataclasses.replace(PRESETS["tenhou-4p"], ties="split")
    fraction = dataclasses.replace(PRESETS["tenhou-4p"], oka=12.5)  # type: ignore[arg-type]
    assert final_rule(Reading("", split, "exact")) is None
    assert final_rule(Reading("", fraction, "exact")) is None
    assert isinstance(final_rule(Reading("", PRESETS["tenhou-4p"], "era1")), FinalRule)


@needs_core
def test_the_core_declines_what_is_not_a_plain_int() -> None:
    final = final_rule(Reading("", PRESETS["tenhou-4p"], "exact"))
    assert _core.final_points((25000, 25000, 25000, 25000), 0, final) is not None
    assert _core.final_points((25000.0, 25000, 25000, 25000), 0, final) is None
    assert _core.final_points((25000, 25000, 25000, 2**50), 0, final) is None
    assert _core.final_points((25000, 25000, 25000), 0, final) is None  # a seat short
    with pytest.raises(TypeError):
        _core.final_points((25000, 25000, 25000, 25000), 0, object())


# ---------------------------------------------------------------- the corpus verdicts


@contextmanager
def _one_call(audit_hands: Callable[..., Any]) -> Iterator[None]:
    """``engine().audit_hands`` set to ``audit_hands`` for the block."""
    eng = dataclasses.replace(engine_module.engine(), audit_hands=audit_hands)
    saved = game.engine
    game.engine = lambda: eng  # type: ignore[assignment]
    try:
        yield
    finally:
        game.engine = saved  # type: ignore[assignment]


@contextmanager
def _python_end(ends: list[int], asked: list[bool]) -> Iterator[None]:
    """``_check_game_end`` counting in ``ends`` the findings it adds, game by game,
    where ``asked`` says the one call has just taken the game's hands (a game the
    core declines has its end checked by ``run``'s loop: not counted)."""
    real = game._GameAuditor._check_game_end

    def counting(self: Any, *args: Any) -> None:
        before = len(self.findings)
        real(self, *args)
        if asked[0]:
            ends.append(len(self.findings) - before)
            asked[0] = False

    game._GameAuditor._check_game_end = counting  # type: ignore[method-assign]
    try:
        yield
    finally:
        game._GameAuditor._check_game_end = real  # type: ignore[method-assign]


@needs_core
@pytest.mark.corpus
def test_the_core_settles_a_games_end_exactly_where_python_reports_nothing() -> None:
    """Every game the one call takes, its end asked of both: the core's verdict given
    (a reading) is True exactly where ``_check_game_end`` adds no finding or note,
    and False without a reading; then the audit with the verdicts is the audit
    without them."""
    paths = _paths()
    assert len(paths) > 2700
    verdicts: list[tuple[bool, bool]] = []  # (a reading given, settled)
    asked = [False]

    def asking(*args: Any) -> Any:
        got = _core.audit_hands(*args)
        asked[0] = got is not None
        if got is None:
            return None
        verdicts.append((args[3].final is not None, got[4]))
        return (*got[:4], False)  # Python checks every end too

    ends: list[int] = []
    with _one_call(asking), _python_end(ends, asked):
        python = [audit_file(p) for p in paths]
    assert len(verdicts) == len(ends) > 2700
    wrong = [
        i
        for i, ((given_, settled), added) in enumerate(zip(verdicts, ends, strict=True))
        if settled != (given_ and added == 0)
    ]
    assert not wrong
    # nearly every game is settled by the core; the rest have a note or finding at
    # their end, or a date allowing several readings
    assert sum(s for _, s in verdicts) > 0.9 * len(verdicts)
    assert any(added for added in ends)  # the corpus has ends Python reports
    with _one_call(_core.audit_hands):
        with_core = [audit_file(p) for p in paths]
    assert not _differences(with_core, python)


# --------------------------------------------------------------------- damaged games


def _settled_games(step: int) -> list[Game]:
    """Corpus games whose end the core settles (one in ``step`` of the corpus XML)."""
    from replay_audit.parsers.tenhou_xml import parse_tenhou_xml

    found: list[Game] = []
    for p in [p for p in _paths(step) if p.name.endswith(".xml.gz")]:
        g = parse_tenhou_xml(gzip.decompress(Path(p).read_bytes()), str(p))
        if _audit(g)[0] is True:
            found.append(g)
    return found


def _audit(g: Game) -> tuple[bool | None, set[tuple[str, str]]]:
    """The core's verdict on ``g``'s end (None: the one call declined the game) and
    the (category, field) of each finding of its audit."""
    seen: list[bool] = []

    def keeping(*args: Any) -> Any:
        got = _core.audit_hands(*args)
        if got is not None:
            seen.append(got[4])
        return got

    with _one_call(keeping):
        findings, _, _ = game.audit_game(g)
    return (seen[-1] if seen else None), {(f.category, f.field) for f in findings}


def _damaged(g: Game) -> Iterator[tuple[str, Game, tuple[str, str]]]:
    """Each damage done to ``g`` and the finding the Python reports for it."""
    assert g.owari is not None
    scores, points = list(g.owari.scores), list(g.owari.points)
    scores[1] += 100
    changed = Owari(tuple(scores), g.owari.points)
    yield "a final score", dataclasses.replace(g, owari=changed), ("final", "final_score")
    points[2] += 1.0
    changed = Owari(g.owari.scores, tuple(points))
    yield "a final point", dataclasses.replace(g, owari=changed), ("final", "final_points")
    yield "no owari", dataclasses.replace(g, owari=None), ("final", "owari_missing")
    yield "no last hand", dataclasses.replace(g, hands=g.hands[:-1]), ("transition", "game_over")


@needs_core
@pytest.mark.corpus
def test_a_damaged_end_is_not_settled_and_python_reports_it() -> None:
    games = _settled_games(step=150)
    assert len(games) >= 10
    for g in games:
        verdict, found = _audit(g)
        assert verdict is True and not {f for f in found if f[0] != INFO}
        for what, damaged, finding in _damaged(g):
            verdict, found = _audit(damaged)
            assert verdict is False, (g.meta.source, what)
            assert finding in found, (g.meta.source, what, found)
