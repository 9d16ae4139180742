"""The auditor's hands of a game in one call to the core (``_core.audit_hands``)
against their Python reference.

``auditing.game._GameAuditor.run`` hands a game in which nothing is to be reported
to the core, which walks its hands (riichi sticks, each result's row, the sticks and
honba, the draws' payments, the next hand's start) and returns the rows, or declines
and leaves the game to ``run``'s own loop, the reference.  Held together here: the
whole shared corpus audited with the one call and without it gives the same rows,
findings and games; a row the core filled differently (a planted difference) is
seen; and a game whose log disagrees with what the core computes (a riichi stick of
another cost, another noten pool, a next hand that should not be) is declined.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from replay_audit.auditing import engine as engine_module
from replay_audit.auditing import game
from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit
from replay_audit.native import _core
from tests.conftest import core_built
from tests.logedit import edited
from tests.test_core_win_audit import _differences, _paths

needs_core = core_built("audit_hands")


def _audits(paths: list[Path], audit_hands: Callable[..., Any] | None) -> list[FileAudit]:
    """``audit_file`` of every path with ``engine().audit_hands`` set to ``audit_hands``
    (``None``: every game through ``run``'s loop)."""
    eng = dataclasses.replace(engine_module.engine(), audit_hands=audit_hands)
    saved = game.engine
    game.engine = lambda: eng  # type: ignore[assignment]
    try:
        return [audit_file(p) for p in paths]
    finally:
        game.engine = saved  # type: ignore[assignment]


@needs_core
@pytest.mark.corpus
def test_the_corpus_audit_is_the_same_with_and_without_the_one_call_game() -> None:
    paths = _paths()
    assert len(paths) > 2700
    counted: list[bool] = []

    def counting(*args: Any) -> Any:
        got = _core.audit_hands(*args)
        counted.append(got is not None)
        return got

    with_it = _audits(paths, counting)
    python = _audits(paths, None)
    assert not _differences(with_it, python)
    # nearly every game goes through the core; the rest (findings, notes, pao,
    # nagashi, 2006 logs' readings, other rules) through Python
    assert len(counted) > 2700 and sum(counted) > 0.9 * len(counted)


@needs_core
@pytest.mark.corpus
def test_a_planted_difference_in_the_rows_is_seen() -> None:
    """The comparison above fails where the core's rows differ in one cell."""

    def off_by_a_stick(*args: Any) -> Any:
        got = _core.audit_hands(*args)
        if got is not None and got[0]:
            got[0][-1]["sticks"] += 1
        return got

    paths = _paths(step=50)
    assert _differences(_audits(paths, off_by_a_stick), _audits(paths, None))


@needs_core
@pytest.mark.corpus
def test_a_game_that_disagrees_with_the_core_is_declined() -> None:
    """The arguments ``run`` gives the core for a game it takes, then the same game
    under a riichi stick, a noten pool or a last hand other than the log's: each
    declined (None), and the Python code reports the difference."""
    from replay_audit.model.events import RecordedDraw, RiichiAccept

    taken: list[tuple[Any, ...]] = []

    def keeping(*args: Any) -> Any:
        got = _core.audit_hands(*args)
        if got is not None:
            taken.append(args)
        return got

    _audits(_paths(step=25), keeping)
    assert taken

    def has(played: list[Any], kind: type) -> bool:
        return any(type(ev) is kind for hand, _ in played for ev in hand.events)

    def draws(played: list[Any]) -> bool:
        return any(
            type(ev) is RecordedDraw and ev.kind == "exhaustive" and any(ev.deltas)
            for hand, _ in played
            for ev in hand.events
        )

    riichi = next(a for a in taken if has(a[0], RiichiAccept))
    drawn = next(a for a in taken if draws(a[0]))
    long_game = next(a for a in taken if len(a[0]) > 4)
    for args in (riichi, drawn, long_game):
        assert _core.audit_hands(*args) is not None
    ctx = dataclasses.replace(riichi[3], riichi_cost=riichi[3].riichi_cost + 100)
    assert _core.audit_hands(*riichi[:3], ctx, *riichi[4:]) is None
    ctx = dataclasses.replace(drawn[3], noten_pool=drawn[3].noten_pool + 1500)
    assert _core.audit_hands(*drawn[:3], ctx, *drawn[4:]) is None
    # max_hands: the game should have ended after its second hand
    ctx = dataclasses.replace(long_game[3], max_hands=2)
    assert _core.audit_hands(*long_game[:3], ctx, *long_game[4:]) is None
    # a result the replay did not rebuild is left to Python
    hand, hr = long_game[0][0]
    if hr.results:
        lost = dataclasses.replace(hr, results=())
        assert _core.audit_hands([(hand, lost)], *long_game[1:]) is None


_DOUBLE_RON = next(
    (Path(__file__).resolve().parents[1] / "fixtures").glob("4p_riichi_double_ron.*")
)


@pytest.mark.parametrize(
    ("ba", "field", "recorded", "computed"),
    [('ba="2,0"', "ba_honba", "2", "1"), ('ba="1,1"', "ba_sticks", "1", "0")],
)
@pytest.mark.parametrize("one_call", [True, False])
def test_a_double_ron_later_winners_ba_is_checked(
    tmp_path: Path, one_call: bool, ba: str, field: str, recorded: str, computed: str
) -> None:
    """The second AGARI of a double ron shows the hand's honba and no sticks (formats.md
    §6.3: all 144 such tags of the corpus do): either written otherwise is a finding on
    both paths, not a value taken on trust."""
    if one_call and _core is None:
        pytest.skip("no compiled core")
    path = edited(_DOUBLE_RON, 'ba="1,0"', ba, tmp_path)  # (the second AGARI's alone)
    clean = _audits([_DOUBLE_RON], _core.audit_hands if one_call else None)[0]
    assert clean.status == "ok" and not clean.findings
    fa = _audits([path], _core.audit_hands if one_call else None)[0]
    found = [(f["field"], f["hand"], f["recorded"], f["computed"]) for f in fa.findings]
    assert found == [(field, "E1-1", recorded, computed)]
    assert fa.status == "mismatch"
