"""A tenhou.net/6 log's declared red fives reach the rules it is audited under
(``auditing.game._declared_reds``): a Mahjong Soul room with four red fives
(tensoul's ``aka52: 2``) counts its second red 5p; Tenhou's rules keep the era's
reading, and the usual flags change nothing."""

from __future__ import annotations

import json

import pytest

from replay_audit.auditing.game import rules_for_game
from replay_audit.model.events import Game, GameMeta

REF = "231014-84c11a6f-b3f7-4363-966e-25f37886cfbf"  # a Mahjong Soul game id


def _game(rule: dict[str, object], players: int = 4, ref: str = REF, aka: bool = True) -> Game:
    extra = (("rule", json.dumps(rule, ensure_ascii=False)),)
    return Game(GameMeta("m.json", ref, "tenhou-json", players, aka=aka, extra=extra), (), ())


@pytest.mark.parametrize(
    ("rule", "players", "fives"),
    [
        ({"disp": "", "aka51": 1, "aka52": 2, "aka53": 1}, 4, (16, 52, 53, 88)),
        ({"disp": "铜之间 四人东", "aka51": 1, "aka52": 1, "aka53": 1}, 4, (16, 52, 88)),
        ({"disp": "", "aka": 1}, 4, (16, 52, 88)),
        ({"disp": "", "aka51": 0, "aka52": 2, "aka53": 1}, 3, (16, 52, 53, 88)),
        ({"disp": "", "aka51": 0, "aka52": 1, "aka53": 1}, 3, (16, 52, 88)),
    ],
)
def test_majsoul_rules_take_the_declared_red_fives(
    rule: dict[str, object], players: int, fives: tuple[int, ...]
) -> None:
    """Three-player rules keep their count of two (no red 5m there) plus the added copy."""
    rules = rules_for_game(_game(rule, players))
    assert rules.name.startswith("majsoul")
    assert rules.red_fives == fives
    assert rules.aka == len(fives) - (players == 3)


def test_no_red_fives_stays_none() -> None:
    rules = rules_for_game(_game({"disp": "", "aka51": 0, "aka52": 2}, aka=False))
    assert rules.aka == 0


def test_tenhou_rules_leave_the_set_to_the_era() -> None:
    """A Tenhou JSON log declaring the 2006 set: ``rules_of_date`` reads it (helper
    E's era rule), not the Mahjong Soul path; today's flags give today's set."""
    old = rules_for_game(_game({"disp": "四般東喰赤", "aka52": 2}, ref="2006101500gm-0001-0000-x"))
    assert old.red_fives == (16, 52, 53, 88)
    new = rules_for_game(_game({"disp": "四般東喰赤", "aka52": 1}, ref="2024101500gm-0001-0000-x"))
    assert new.red_fives == (16, 52, 88)
