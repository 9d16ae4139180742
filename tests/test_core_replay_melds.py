"""The core's win checks (``_core.win_checks``) compare the replayed melds with the shown
ones field by field in C where the meld class's ``==`` is its dataclass's generated
``__eq__`` (``Meld``), and through Python's ``==`` for any other: on Phoenix wins with
melds, the answer is the Python checks' (``_check_win``, its reference) with the shown
melds as they are, with one field of one meld changed (each field in turn), and with
melds of a class whose own ``__eq__`` says otherwise than its fields.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Game
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.replay import results
from replay_audit.replay.table import replay_game

pytestmark = pytest.mark.skipif(results.CORE_WIN_CHECKS is None, reason="no compiled core")


@dataclasses.dataclass(frozen=True, slots=True)
class _LooseMeld:
    """A meld-like value whose own ``__eq__`` ignores every field but the kind: its
    fields must not be compared in C (the dataclass keeps a hand-written ``__eq__``)."""

    kind: MeldKind
    tiles: tuple[int, ...]
    called: int | None = None
    from_seat: int | None = None
    added: int | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _LooseMeld) and other.kind == self.kind

    def __hash__(self) -> int:
        return hash(self.kind)


def _changed(m: Meld, name: str) -> Meld:
    """``m`` with its field ``name`` changed (to a value of the same type)."""
    value = getattr(m, name)
    if name == "kind":
        new: Any = MeldKind.PON if value is not MeldKind.PON else MeldKind.CHI
    elif name == "tiles":
        new = (*value[:-1], (value[-1] + 1) % 136)
    else:
        new = 0 if value is None else None
    return dataclasses.replace(m, **{name: new})


def test_the_melds_compared_in_c_answer_as_the_python_checks(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = results.CORE_WIN_CHECKS
    assert checks is not None
    fields = [f.name for f in dataclasses.fields(Meld)]
    assert fields == ["kind", "tiles", "called", "from_seat", "added"]
    assert all(f.compare for f in dataclasses.fields(Meld))
    seen = {"wins": 0, "changed": 0, "loose": 0}

    def python(table: Any, args: tuple[Any, ...]) -> bool:
        """Whether ``_check_win`` finds nothing (its findings are taken back)."""
        _, tiles, win_tile, _, win, melds, dora, ura, riichi, _ = args
        before = len(table.findings)
        table._check_win(win, list(tiles), melds, win_tile, dora, ura, riichi)
        found = len(table.findings) > before
        del table.findings[before:]
        return not found

    def both(table: Any, *args: Any) -> bool:
        said = checks(table, *args)
        win = args[4]
        if not said or not win.melds:
            return said
        seen["wins"] += 1
        for j, m in enumerate(win.melds):
            for name in fields:
                shown = (*win.melds[:j], _changed(m, name), *win.melds[j + 1 :])
                changed = (*args[:4], dataclasses.replace(win, melds=shown), *args[5:])
                assert checks(table, *changed) is python(table, changed) is False
                seen["changed"] += 1
        loose = tuple(_LooseMeld(m.kind, ()) for m in args[5])
        shown = tuple(_LooseMeld(m.kind, m.tiles, m.called) for m in win.melds)
        changed = (*args[:4], dataclasses.replace(win, melds=shown), loose, *args[6:])
        assert checks(table, *changed) is python(table, changed) is True
        seen["loose"] += 1
        return said

    monkeypatch.setattr(results, "CORE_WIN_CHECKS", both)
    games = [g for p, g in corpus_games.items() if "phoenix" in str(p)][:300]
    for game in games:
        replay_game(game, rules_for_go_type(game.meta.go_type))
    assert seen["wins"] > 300
    assert seen["changed"] > seen["wins"] * 5
