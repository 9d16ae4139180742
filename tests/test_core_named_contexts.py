"""The contexts the Python hands the compiled core, read there by field name: the
game's ``auditing.game.HandsContext`` (``_core.audit_hands``), the replay's
``replay.table.RunArgs`` and its ``RunClasses`` (``_core.run_hand``, ``run_game``) and a game's
``replay.state.TableConstants`` (``_core.new_table``, ``run_game``).  A context lacking
a field, or leaving one unset, is a TypeError naming the field, never a read at a
wrong offset; the classes' fields are the ones the core reads."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from replay_audit.auditing.game import HandsContext
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.native import _core
from replay_audit.replay import state, table
from replay_audit.replay.state import TableConstants
from replay_audit.replay.table import RunArgs, RunClasses
from tests.replay_games import first_phoenix_game

needs_core = pytest.mark.skipif(
    _core is None or not hasattr(_core, "run_game"), reason="replay_audit._core is not built"
)


def _without(cls: type, name: str) -> type:
    """A frozen dataclass with slots like ``cls`` but lacking the field ``name``."""
    fields = [(f.name, Any) for f in dataclasses.fields(cls) if f.name != name]
    assert len(fields) == len(dataclasses.fields(cls)) - 1
    return dataclasses.make_dataclass(f"{cls.__name__}Short", fields, frozen=True, slots=True)


def _like(value: object, name: str) -> Any:
    """``value``'s fields copied into an instance of its class lacking ``name``."""
    short = _without(type(value), name)
    kept = {f.name: getattr(value, f.name) for f in dataclasses.fields(short)}
    return short(**kept)


def _run_args(classes: object) -> RunArgs:
    """``run_hand``'s arguments with ``classes`` (the others are not read: the fields
    are checked first)."""
    return RunArgs(None, None, None, classes, 1000, True)  # type: ignore[arg-type]


def _hands_context() -> HandsContext:
    """A context of the shape ``_hands_context`` makes (the values are not read: the
    fields are checked first)."""
    return HandsContext(*[None] * len(dataclasses.fields(HandsContext)))


_GAME = ("game.xml", None, None)
"""``audit_hands``' arguments of the game's own after the context: file, log id, owari."""


@needs_core
@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(HandsContext)])
def test_a_hands_context_lacking_a_field_is_a_type_error(name: str) -> None:
    assert _core is not None
    with pytest.raises(TypeError, match=f"'{name}'"):
        _core.audit_hands([], None, (), _like(_hands_context(), name), *_GAME)


@needs_core
def test_a_context_that_is_not_one_or_left_unset_is_a_type_error() -> None:
    assert _core is not None
    with pytest.raises(TypeError, match="'win_row'"):
        _core.audit_hands([], None, (), tuple(range(26)), *_GAME)  # the old positional shape
    with pytest.raises(TypeError, match="unset"):
        _core.audit_hands([], None, (), object.__new__(HandsContext), *_GAME)
    run = table.CORE_RUN
    assert run is not None
    with pytest.raises(TypeError, match="unset"):
        run(object(), (), object.__new__(RunArgs))
    with pytest.raises(TypeError, match="unset"):
        run(object(), (), _run_args(object.__new__(RunClasses)))


@needs_core
@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(RunClasses)])
def test_run_classes_lacking_a_field_are_a_type_error(name: str) -> None:
    run = table.CORE_RUN
    assert run is not None
    with pytest.raises(TypeError, match=f"'{name}'"):
        run(object(), (), _run_args(_like(table._RUN_CLASSES, name)))


@needs_core
@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(RunArgs)])
def test_run_args_lacking_a_field_are_a_type_error(name: str) -> None:
    run = table.CORE_RUN
    assert run is not None
    with pytest.raises(TypeError, match=f"'{name}'"):
        run(object(), (), _like(_run_args(table._RUN_CLASSES), name))


@needs_core
@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(TableConstants)])
def test_table_constants_lacking_a_field_are_a_type_error(name: str) -> None:
    new_table, run_game = state.CORE_TABLE, table.CORE_GAME
    assert new_table is not None and run_game is not None
    game = first_phoenix_game()
    consts = state._core_constants(game, rules_for_go_type(game.meta.go_type))
    assert consts is not None
    short = _like(consts, name)
    hand = game.hands[0]
    with pytest.raises(TypeError, match=f"'{name}'"):
        new_table(table._Table, hand, None, short)
    walls_of: list[Any] = [None] * len(game.hands)
    run = _run_args(table._RUN_CLASSES)
    with pytest.raises(TypeError, match=f"'{name}'"):
        run_game(table._Table, game.hands, walls_of, None, table._set_table, short, run)
    # the whole context is read as before
    assert new_table(table._Table, hand, None, consts) is not None
