"""Who and what a game is, for the statistics: player keys, game type,
platform, lobby, and the dealt hand's shanten.

Owns ``player_key`` (a name, or an anonymous seat of one log), ``game_rules``,
``game_type``, ``platform``, ``lobby``, ``start_shanten`` and ``seats``.

Must not: build fact rows (``stats.facts``, ``stats.game_facts``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from replay_audit.model.events import (
    Game,
)
from replay_audit.model.rules.detect import rules_for_disp, rules_for_go_type
from replay_audit.model.rules.presets import MAJSOUL_3P, MAJSOUL_4P, TENHOU_3P, TENHOU_4P
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.native import _core
from replay_audit.scoring.shanten import _py_shanten
from replay_audit.stats.tenhou_rank import lobby_of_disp, lobby_of_go_type

ANONYMOUS_NAMES = frozenset({"", "NoName"})
"""Tenhou shows guests as ``NoName``; such names say nothing about who played,
so each anonymous seat becomes its own player (see ``player_key``)."""

CORE_START_SHANTEN: Callable[[str | bytes | tuple[int, ...]], int | None] | None = getattr(
    _core, "start_shanten", None
)
"""The core's ``start_shanten`` (None: no core, a stale build, or switched off by a test)."""


# ----------------------------------------------------------------------- identity


def player_key(game: Game, seat: int) -> str:
    """The name statistics group a seat under.

    Real names group across games; anonymous seats (``NoName`` or empty) get a
    name unique to the game and seat, so two guests are never merged into one
    fictitious player.

    >>> from replay_audit.model.events import GameMeta, Player
    >>> g = Game(GameMeta("x.xml", "2024-abc", "tenhou-xml", 4), (Player("NoName"),), ())
    >>> player_key(g, 0), player_key(g, 1)
    ('NoName@2024-abc#0', 'NoName@2024-abc#1')
    """
    name = game.players[seat].name if seat < len(game.players) else ""
    if name.strip() in ANONYMOUS_NAMES:
        where = game.meta.log_id or Path(game.meta.source).name
        return f"NoName@{where}#{seat}"
    return name


def game_rules(game: Game) -> RuleSet:
    """The rule preset the game's own metadata implies (GO type or ``rule.disp``),
    forced to the game's player count when the metadata is silent about it."""
    meta = game.meta
    if meta.format == "tenhou-xml":
        rules = rules_for_go_type(meta.go_type)
    else:
        rules = rules_for_disp(meta.rule_disp, meta.aka, ref=meta.log_id)
    if rules.players != meta.players:
        majsoul = rules.name.startswith("majsoul")
        if meta.players == 3:
            rules = MAJSOUL_3P if majsoul else TENHOU_3P
        else:
            rules = MAJSOUL_4P if majsoul else TENHOU_4P
    return rules


def game_type(game: Game, rules: RuleSet | None = None) -> str:
    """Group key for statistics: preset name plus length, e.g. ``tenhou-4p-hanchan``,
    ``tenhou-4p-tonpuu``, ``tenhou-3p-hanchan``, ``majsoul-4p-hanchan``.

    Hanchan, tonpuusen and sanma (and the special presets: Toutenkou, ratio
    tables) must never be pooled (stats.md §1.4.7).  ``rules``: the game's
    ``game_rules``, when the caller has them already (they are looked up again
    otherwise); the same for ``platform`` and ``lobby``."""
    length = "hanchan" if game.meta.hanchan else "tonpuu"
    return f"{(rules or game_rules(game)).name}-{length}"


def platform(game: Game, rules: RuleSet | None = None) -> str:
    return "majsoul" if (rules or game_rules(game)).name.startswith("majsoul") else "tenhou"


def lobby(game: Game, rules: RuleSet | None = None) -> str | None:
    """Tenhou's ranked lobby (``ippan``/``joukyuu``/``tokujou``/``houou``),
    ``private`` for a private lobby (GO ``lobby`` > 0), None when the log does
    not say or is not a Tenhou game.  Picks the stable-dan pt table
    (``tenhou_rank``)."""
    meta = game.meta
    if platform(game, rules) != "tenhou":
        return None
    if meta.lobby:
        return "private"
    if meta.format == "tenhou-xml":
        return lobby_of_go_type(meta.go_type)
    return lobby_of_disp(meta.rule_disp)


def start_shanten(dealt: str | bytes | tuple[int, ...]) -> int | None:
    """Shanten of a dealt hand: the 13 tiles the seat was dealt (INIT), for the
    dealer too.  The dealer's 14th tile is the first draw; counting it would
    make dealers look half a step closer (amae-koromo#95).  ``dealt`` is the
    hand facts' ``dealt`` hex string (or the tile ids).  None unless the seat
    was dealt exactly 13 tiles (a 3-player placeholder, a fixture).

    The core's answer when it gives one (``_core.start_shanten``: the statistics ask
    for every dealt hand of a corpus), else ``_py_start_shanten``'s.

    >>> start_shanten(bytes(range(0, 52, 4)).hex())  # 1-9m 1-4p, one tile each
    0
    """
    core = CORE_START_SHANTEN
    if core is not None:
        value = core(dealt)
        if value is not None:
            return value
    return _py_start_shanten(dealt)


def _py_start_shanten(dealt: str | bytes | tuple[int, ...]) -> int | None:
    """``start_shanten`` in Python (with ``_py_shanten``): the reference the core is
    held equal to, and the answer where the core gives None (not 13 tiles) or declines.

    >>> _py_start_shanten(bytes(range(0, 52, 4)).hex()), _py_start_shanten("00" * 12)
    (0, None)
    """
    tiles = bytes.fromhex(dealt) if isinstance(dealt, str) else dealt
    if len(tiles) != 13:
        return None
    counts = [0] * 34
    for t in tiles:
        counts[t >> 2] += 1
    return _py_shanten(counts)


def seats(game: Game) -> range:
    """The seats that hold a player (three-player logs carry a 4th placeholder)."""
    return range(game.meta.players)
