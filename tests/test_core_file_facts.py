"""The compiled core's ``file_facts`` (a game's hand facts, game facts and score
history from one walk over its hands, ``src/core/file_facts.cpp``) gives the rows of
the reference, ``stats.file_facts.py_file_facts`` run without any core: the same keys
in the same order, the same values of the same types, for every game of the shared
corpus, for the JSON fixtures, and for games whose metadata takes the rarer branches
(unfinished, unrated, anonymous seats); and the comparison catches a core that
writes differently.
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Game, Owari, Player
from replay_audit.parsers.tenhou_json import parse_tenhou_json
from replay_audit.stats import facts, file_facts, scan
from tests.conftest import FIXTURES

# the module, not the function ``replay_audit.stats`` re-exports under its name
game_facts_module = importlib.import_module("replay_audit.stats.game_facts")

pytestmark = pytest.mark.skipif(file_facts.CORE_FACTS is None, reason="no compiled core")

Tables = tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]


def _reference(game: Game, monkeypatch: pytest.MonkeyPatch) -> Tables:
    """``py_file_facts`` with every core of the facts switched off."""
    with monkeypatch.context() as m:
        m.setattr(scan, "CORE_SCAN", None)
        m.setattr(facts, "CORE_ROWS", None)
        m.setattr(game_facts_module, "CORE_SCORES", None)
        return file_facts.py_file_facts(game)


def _items(tables: Tables) -> list[list[list[tuple[str, Any, type]]]]:
    """Each table's rows as their (key, value, type) in order: equal rows with a key
    moved, or a True where 1 was, differ here."""
    return [[[(k, v, type(v)) for k, v in r.items()] for r in rows] for rows in tables]


def _core_answers(game: Game) -> bool:
    """Does the core take ``game`` (rather than leave the three tables to Python)?"""
    core = file_facts.CORE_FACTS
    assert core is not None
    taken: list[bool] = []

    def spy(*args: Any) -> Any:
        got = core(*args)
        taken.append(got is not None)
        return got

    file_facts.CORE_FACTS = spy
    try:
        file_facts.file_facts(game)
    finally:
        file_facts.CORE_FACTS = core
    return taken == [True]


def test_the_core_writes_the_three_tables_of_the_reference_on_the_whole_corpus(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(corpus_games) > 2000
    declined = 0
    for path, game in corpus_games.items():
        got = file_facts.file_facts(game)
        assert _items(got) == _items(_reference(game, monkeypatch)), path
        assert [list(r) for r in got[1]] == [list(file_facts.GAME_KEYS)] * game.meta.players
        declined += not _core_answers(game)
    assert declined == 0  # the core does take every game of the corpus


def _variants(game: Game) -> list[Game]:
    """``game`` with its metadata's rarer branches: no final scores, a seat
    without a rate, anonymous names, tied final scores, a dealer past the table."""
    assert game.owari is not None
    players = game.players
    tied = game.owari.scores[0]
    return [
        dataclasses.replace(game, owari=None),
        dataclasses.replace(
            game, players=(dataclasses.replace(players[0], rate=None), *players[1:])
        ),
        dataclasses.replace(game, players=tuple(Player("NoName") for _ in players)),
        dataclasses.replace(game, players=players[:2]),
        dataclasses.replace(
            game,
            owari=Owari(
                (tied,) * len(game.owari.scores), tuple(float(p) for p in game.owari.points)
            ),
        ),
        dataclasses.replace(game, owari=Owari((-100, 50100, 25000, 25000), (-45, 60, 5, -20))),
        dataclasses.replace(
            game, hands=tuple(dataclasses.replace(h, dealer=h.dealer + 4) for h in game.hands)
        ),
    ]


def test_the_core_takes_the_rarer_branches_as_the_reference(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = next(g for p, g in corpus_games.items() if "phoenix" in str(p))
    for variant in _variants(game):
        want = _items(_reference(variant, monkeypatch))
        assert _items(file_facts.file_facts(variant)) == want


def test_the_json_fixtures_give_the_reference_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(FIXTURES.glob("json_*.json"))
    assert paths
    for p in paths:
        game = parse_tenhou_json(p.read_bytes(), str(p))
        got = file_facts.file_facts(game)
        assert _items(got) == _items(_reference(game, monkeypatch)), p


def test_the_comparison_fails_for_a_core_that_writes_differently(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The equality above can fail: a core that writes a place as a float (equal,
    another type), drops a score-history row, or moves a hand fact's column to the
    end, is caught on the first phoenix game."""
    game = next(g for p, g in corpus_games.items() if "phoenix" in str(p))
    core = file_facts.CORE_FACTS
    assert core is not None
    want = _items(_reference(game, monkeypatch))

    def floats(*args: Any) -> Any:
        hands, games, scores = core(*args)
        return hands, [{**r, "place": float(r["place"])} for r in games], scores

    def short(*args: Any) -> Any:
        hands, games, scores = core(*args)
        return hands, games, scores[:-1]

    def moved(*args: Any) -> Any:
        hands, games, scores = core(*args)
        for r in hands:
            r["chased"] = r.pop("chased")
        return hands, games, scores

    for wrong in (floats, short, moved):
        with monkeypatch.context() as m:
            m.setattr(file_facts, "CORE_FACTS", wrong)
            assert _items(file_facts.file_facts(game)) != want


def test_the_core_refuses_a_context_of_another_shape() -> None:
    core = file_facts.CORE_FACTS
    assert core is not None
    ctx = (facts._ROW, ("a",) * 4, 1000, scan.EVENT_CLASSES, scan.MELD_KINDS, facts._KEYS, ())
    keys = list(file_facts.GAME_KEYS)
    keys[1], keys[2] = keys[2], keys[1]
    game_ctx: tuple[Any, ...] = (game_facts_module._SCORE_KEYS, {}, tuple(keys), *(None,) * 7)
    with pytest.raises(TypeError, match="game column 1"):
        core((), 4, ctx, lambda h: [], game_ctx)
    with pytest.raises(TypeError, match="10-tuple"):
        core((), 4, ctx, lambda h: [], game_ctx[:9])
