"""tenhou.net/6 JSON logs -> the normalized event model.

The JSON keeps no timeline: each seat has a column of takes (draws and calls on
other players' discards) and a column of discards (including kans and kita).
This module re-simulates the table to merge the columns back into one global
move order (formats.md §4.7), so a game read from JSON yields the same events
as the same game read from mjlog XML, compared by tile kind and redness.

Tile copies: JSON codes name a kind (and redness), not one of the four copies.
Every wall tile (haipai, dora and ura indicators, drawn tiles) gets a copy
number up front, deterministically, from a per-hand pool: red codes take the
game's red copies of their five (copy 0; copies 0 and 1 of 5p where ``rule`` says
``aka52: 2``, Tenhou's 2006 set: ``model.rules.reds``), plain fives the others
(copy 0 last in games without aka), and no id repeats inside a hand.  The simulation then moves those ids between hands,
rivers and melds, so a discard or call always names a tile the seat really
holds and the replayer can work with ids.

The "confusing nakis" ambiguity (a seat discards the same tile twice before the
caller draws, and the JSON cannot say which one was called) is resolved by
backtracking: every alternative that later runs into an impossibility (a
discard of a tile not held, a column left unused, a result that does not fit
the last move) is abandoned.

The package: ``document`` (safe loading) <- ``game`` (``parse_tenhou_json``: meta,
players, the final line) <- ``hand`` (one hand's columns) <- ``merge`` (the
global move order, by simulation) over ``calls`` (call strings, tile pools, the
simulation's state) and ``results`` (result strings); ``names`` holds the fixed
vocabulary and ``compare`` the cross-format comparison.  The old module's names are
re-exported here.

Must not: score, replay or audit; the parser only reads what the log says.

>>> import json
>>> hand = [[0, 0, 0], [25000] * 4, [21], [],
...     [11, 11, 11, 12, 13, 14, 15, 16, 17, 18, 19, 19, 19], [45], [],
...     [21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34], [], [],
...     [21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34], [], [],
...     [35, 36, 37, 38, 39, 41, 41, 42, 42, 43, 43, 44, 44], [], [],
...     ["九種九牌"]]
>>> game = parse_tenhou_json(json.dumps({"log": [hand]}).encode())
>>> [type(e).__name__ for e in game.hands[0].events]
['Draw', 'RecordedDraw']
>>> game.hands[0].results[0].kind
'yao9'
"""

from __future__ import annotations

from replay_audit.parsers.tenhou_json.calls import parse_call_string, source_seat
from replay_audit.parsers.tenhou_json.compare import comparable
from replay_audit.parsers.tenhou_json.document import (
    MAX_DEPTH,
    MAX_INPUT_BYTES,
    check_depth,
    load_document,
)
from replay_audit.parsers.tenhou_json.game import parse_tenhou_json
from replay_audit.parsers.tenhou_json.names import (
    DRAW_KINDS,
    KAN_PLACEHOLDER,
    LIMIT_NAMES,
    MAX_SIM_STEPS,
    TSUMOGIRI,
    WIN_STRING,
    dan_index,
    is_chip_room,
)
from replay_audit.parsers.tenhou_json.results import PointString, parse_point_string

__all__ = [
    "DRAW_KINDS",
    "KAN_PLACEHOLDER",
    "LIMIT_NAMES",
    "MAX_DEPTH",
    "MAX_INPUT_BYTES",
    "MAX_SIM_STEPS",
    "TSUMOGIRI",
    "WIN_STRING",
    "PointString",
    "check_depth",
    "comparable",
    "dan_index",
    "is_chip_room",
    "load_document",
    "parse_call_string",
    "parse_point_string",
    "parse_tenhou_json",
    "source_seat",
]
