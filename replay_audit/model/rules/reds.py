"""Red-five sets as a tenhou.net/6 ``rule`` object states them: ``aka51``/``aka52``/``aka53``.

Tenhou's own JSON writes each flag as 0 or 1 (one red five per suit: copy 0,
ids 16, 52, 88), and a red five is one code per suit (51/52/53), so a set with a
second red copy of a five can only be told by the flag.  The format has one
established larger value: tensoul writes ``aka52: 2`` for a Mahjong Soul room
with four red fives (two red 5p) and writes both as code 52; mjai-reviewer reads
the flags as small integers and only asks whether their sum is non-zero, so such
a file still reads as "aka on" there.  We read a flag as the number of red
copies of that five: ``n`` of 2 to 4 makes copies ``0 .. n-1`` red, and 0 or 1
keeps copy 0 (whether the game has red fives at all is the flags' sum, read by
the JSON parser as before).  Tenhou's 2006 set (16, 52, 53, 88;
``model.rules.eras``) is therefore ``aka51: 1, aka52: 2, aka53: 1``.

>>> declared_red_fives({"disp": "般東喰赤", "aka53": 1, "aka52": 2, "aka51": 1})
(16, 52, 53, 88)
>>> declared_red_fives({"aka": 1}), rule_flags((16, 52, 53, 88))
((16, 52, 88), {'aka53': 1, 'aka52': 2, 'aka51': 1})

Must not: read a log's moves or score; it maps the flags to tile ids and back.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Final

from replay_audit.model.events import GameMeta
from replay_audit.model.tiles import RED_FIVES, Tile

FLAGS: Final = (("aka51", 16), ("aka52", 52), ("aka53", 88))
"""Each flag and the id of its five's copy 0 (5m, 5p, 5s)."""
TODAYS: Final = tuple(sorted(RED_FIVES))


def red_count(key: str, value: object) -> int:
    """The red copies one flag asks for: an integer 2-4 as it is, anything else
    (0, 1, a string, a missing flag) one; ``ValueError`` above four (a five has
    four copies)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 2:
        return 1
    if value > 4:
        raise ValueError(f"rule {key} is {value}: a five has four copies")
    return value


def declared_red_fives(rule: Mapping[str, object]) -> tuple[Tile, ...]:
    """The ids that are red in a game with red fives whose ``rule`` object is
    ``rule``: copy 0 of each five, and more copies where a flag says 2-4."""
    out: list[Tile] = []
    for key, first in FLAGS:
        out.extend(range(first, first + red_count(key, rule.get(key))))
    return tuple(out)


def rule_flags(red_fives: Collection[Tile]) -> dict[str, int]:
    """The flags a writer puts in ``rule`` for a game with these red fives, in
    Tenhou's key order (``aka53``, ``aka52``, ``aka51``); ``{}`` of ids gives 0s."""
    flags = {key: sum(1 for t in red_fives if t >> 2 == first >> 2) for key, first in FLAGS}
    return {key: flags[key] for key in ("aka53", "aka52", "aka51")}


def kept_red_fives(meta: GameMeta) -> tuple[Tile, ...] | None:
    """The red fives a JSON game's kept ``rule`` object declares (``()`` without
    aka); ``None`` for a game of another format or without a kept rule."""
    kept = dict(meta.extra).get("rule") if meta.format == "tenhou-json" else None
    if kept is None:
        return None
    if not meta.aka:
        return ()
    rule = json.loads(kept)
    return declared_red_fives(rule) if isinstance(rule, dict) else TODAYS
