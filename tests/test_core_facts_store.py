"""The core's fact rows are whole dicts, not only equal ones: on CPython 3.11 the core
writes a row's values straight into its entries (``store`` in
``src/core/facts_scan.hpp``) instead of through ``PyDict_SetItem``, so the rows are held
here to what a dict built by Python gives beyond equal items (which
``tests/test_core_file_facts.py`` checks): a lookup by key finds the value iteration
shows, the garbage collector tracks the row as it tracks the reference's, and the row
survives a copy and a pickle round trip.  A row whose value reached the wrong entry,
or one left untracked while holding a tracked value, fails here.
"""

from __future__ import annotations

import gc
import pickle
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Game
from replay_audit.stats import file_facts
from tests.test_core_file_facts import _reference

pytestmark = pytest.mark.skipif(file_facts.CORE_FACTS is None, reason="no compiled core")


def _check_row(row: dict[str, Any], want: dict[str, Any]) -> None:
    assert type(row) is dict
    assert list(row.items()) == list(want.items())
    for key, value in row.items():
        assert row[key] is value  # the hash index points at the entry iteration shows
        assert key in row and row.get(key, object()) is value
    assert gc.is_tracked(row) == gc.is_tracked(want)
    assert dict(row) == row == row.copy() == pickle.loads(pickle.dumps(row))
    moved = row.copy()
    moved["file"] = "elsewhere"  # the copy is a dict of its own
    assert row["file"] == want["file"]


def test_the_core_rows_are_dicts_as_python_builds_them(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [g for p, g in sorted(corpus_games.items()) if "phoenix" in str(p)][:40]
    assert games
    for game in games:
        got = file_facts.file_facts(game)
        want = _reference(game, monkeypatch)
        for rows, wanted in zip(got, want, strict=True):
            assert len(rows) == len(wanted)
            for row, w in zip(rows, wanted, strict=True):
                _check_row(row, w)


def test_a_tracked_value_keeps_the_row_tracked(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player name that the garbage collector tracks (a str subclass with a
    ``__dict__``) reaches the rows through the general path: the rows are tracked,
    as Python's are, and equal to them."""

    class Name(str):
        pass

    game = next(g for p, g in sorted(corpus_games.items()) if "phoenix" in str(p))
    names = tuple(Name(p.name) for p in game.players)
    monkeypatch.setattr(file_facts, "_names", lambda g, n: names[:n])
    hands, games, scores = file_facts.file_facts(game)
    want = _reference(game, monkeypatch)
    assert gc.is_tracked(names[0])
    for rows, wanted in zip((hands, games, scores), want, strict=True):
        assert rows
        for row in rows:
            assert gc.is_tracked(row)
            assert row["name"] in names
        assert [list(r) for r in rows] == [list(r) for r in wanted]
