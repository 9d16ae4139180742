"""What the auditor remembers from game to game gives what it would work out anew.

``auditing.game._detected`` keeps a game's rules and era by the fields of the log
they are read from (``_detected_key``), and ``auditing.chain._readings`` keeps the
final line's readings by rules, window and hanchan.  On every game of the shared
corpus both give what ``rules_for_game``, ``era_of`` and ``readings`` give; a game
whose date moves across a dated rule gets other rules, not the remembered ones.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from replay_audit.auditing.chain import _readings
from replay_audit.auditing.game import _detected, _detected_key, rules_for_game
from replay_audit.io import read_log
from replay_audit.model.dating import log_window
from replay_audit.model.events import Game
from replay_audit.model.rules.eras import era_of
from replay_audit.scoring.final import readings
from tests.conftest import CORPUS, need


def _games(corpus_games: dict[Path, Game]) -> list[Game]:
    return list(corpus_games.values()) + [read_log(p) for p in sorted(CORPUS.rglob("*.json"))]


def test_remembered_rules_and_era_are_the_ones_read_anew(
    corpus_games: dict[Path, Game],
) -> None:
    need(CORPUS)
    games = _games(corpus_games)
    keyed = 0
    for game in games:
        rules = rules_for_game(game)
        era = era_of(game, rules)
        assert _detected(game) == (rules, era), game.meta.source
        assert _detected(game) == (rules, era), game.meta.source  # remembered now
        keyed += _detected_key(game) is not None
        window = log_window(game)
        assert _readings(rules, window, game.meta.hanchan) == readings(
            rules, window, game.meta.hanchan
        )
    assert keyed > 2000  # the dated logs: nearly all of them


def test_a_game_of_another_date_is_not_given_the_remembered_rules(
    corpus_games: dict[Path, Game],
) -> None:
    need(CORPUS)
    game = next(g for g in corpus_games.values() if g.meta.go_type == 169)
    _detected(game)
    # the same lobby in 2009, before the tenpai-yame change: older rules
    old_id = "2009082700gm-00a9-0000-00000000"
    old = dataclasses.replace(game, meta=dataclasses.replace(game.meta, log_id=old_id))
    rules = rules_for_game(old)
    assert _detected(old) == (rules, era_of(old, rules))
    assert _detected(old)[0] != _detected(game)[0]
