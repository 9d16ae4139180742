"""``scoring.flow.MAKE_STATE`` (the core's ``make_value``, a ``HandState`` made without
its dataclass ``__init__``) against its reference, the class itself (``_py_state``).

``next_hand_from`` makes the next hand's state at every hand of the audit: over the
whole shared corpus every state it makes is checked, as it is made, against the one
the class makes of the same fields (equal, same hash and repr, each field the very
object given: what the audit reads of a state is then the reference's, so a second
audit with the reference in its place, as this test once ran, cannot differ).  The
check is shown to fail for a maker that gets one field wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from replay_audit.auditing import engine as engine_module
from replay_audit.auditing import game
from replay_audit.auditing.auditor import audit_file
from replay_audit.model.rules.presets import PRESETS
from replay_audit.scoring import flow
from replay_audit.scoring.flow import HandState
from tests.conftest import CORPUS, need

needs_core = pytest.mark.skipif(
    flow.MAKE_STATE is flow._py_state, reason="replay_audit._core.make_value is not built"
)


def _differences(made: object, fields: tuple[object, ...]) -> list[str]:
    """How ``made`` differs from ``HandState(*fields)`` (empty: not at all)."""
    want = HandState(*fields)  # type: ignore[arg-type]  # the fields of a HandState
    out = []
    if type(made) is not HandState:
        out.append(f"type {type(made).__name__}")
    if made != want or repr(made) != repr(want) or hash(made) != hash(want):
        out.append(f"{made!r} != {want!r}")
    for f, v in zip(dataclasses.fields(HandState), fields, strict=True):
        if getattr(made, f.name) is not v:
            out.append(f"field {f.name}")
    return out


def _checked(
    make: Callable[..., HandState], seen: list[str], count: list[int]
) -> Callable[..., HandState]:
    """``make``, each state it makes compared with the class's as it is made."""

    def checked(cls: type[HandState], /, *fields: object) -> HandState:
        made = make(cls, *fields)
        seen.extend(_differences(made, fields))
        count[0] += 1
        return made

    return checked


def _paths() -> list[Path]:
    need(CORPUS)
    return sorted(CORPUS.rglob("*.xml.gz")) + sorted(CORPUS.rglob("*.json"))


@needs_core
def test_every_state_of_the_corpus_is_the_class_s(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _paths()
    seen: list[str] = []
    count = [0]
    # every hand's next state by ``next_hand_from`` (not in the core's one call per
    # game, ``_core.audit_hands``, which ``tests/test_core_hand_audit.py`` holds)
    eng = dataclasses.replace(engine_module.engine(), audit_hands=None)
    monkeypatch.setattr(game, "engine", lambda: eng)
    monkeypatch.setattr(flow, "MAKE_STATE", _checked(flow.MAKE_STATE, seen, count))
    audits = [audit_file(p) for p in paths]
    assert count[0] > 20_000  # a state per hand but the last of each game
    assert seen == []
    assert all(a.status == "ok" for a in audits if "confusing_nakis" not in a.path)


def test_a_wrong_state_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A maker that swaps honba and sticks is caught at the first hand it changes."""

    def swapped(cls: type[HandState], /, *fields: object) -> HandState:
        r, honba, sticks, dealer, scores = fields
        return flow._py_state(cls, r, sticks, honba, dealer, scores)

    seen: list[str] = []
    count = [0]
    monkeypatch.setattr(flow, "MAKE_STATE", _checked(swapped, seen, count))
    made = flow.next_hand_from(
        0,
        2,
        0,
        0,
        (25000, 25000, 25000, 25000),
        flow.HandOutcome(),
        PRESETS["tenhou-4p"],
        "hanchan",
    )
    assert made is not None and count[0] == 1
    assert seen and any("field honba" in s for s in seen)


@needs_core
def test_the_core_state_checks_as_the_class_s() -> None:
    fields: tuple[object, ...] = (5, 1, 2, 3, (1000, 2000, 3000, 0))
    assert _differences(flow.MAKE_STATE(HandState, *fields), fields) == []
    assert _differences(HandState(6, 1, 2, 3, (1000, 2000, 3000, 0)), fields)
