"""A game's three fact tables at once, as the audit stores them for each file.

``file_facts`` gives what ``stats.facts.hand_facts``, ``stats.game_facts.game_facts``
and ``stats.game_facts.score_history`` give (``py_file_facts``, the reference), from
one call into the compiled core (``_core.file_facts``, ``src/core/file_facts.cpp``),
which walks the hands once for the three and writes each hand's label once.  The
game's identity (rules, game type, player keys) is looked up once here instead of
once per table.  ``tests/test_core_file_facts.py`` holds the two equal, row for row
and key for key, over the shared corpus.

Must not: aggregate, read files or render.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from replay_audit.model.events import ABORTIVE_KINDS, Game, HandLog
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.native import _core
from replay_audit.stats.facts import _KEYS, _ROW, _facts_for_hand, hand_facts
from replay_audit.stats.game_facts import _SCORE_KEYS, final_scores, game_facts, score_history
from replay_audit.stats.identity import (
    ANONYMOUS_NAMES,
    game_rules,
    game_type,
    lobby,
    platform,
    player_key,
)
from replay_audit.stats.scan import EVENT_CLASSES, MELD_KINDS
from replay_audit.stats.tenhou_rank import RATE_FACTOR, RATE_PLACE_SCORES

Rows = list[dict[str, Any]]

GAME_KEYS = (
    "file",
    "log_id",
    "date",
    "game_type",
    "platform",
    "rules",
    "players",
    "hanchan",
    "hands",
    "complete",
    "seat",
    "name",
    "final_score",
    "final_points",
    "place",
    "bust",
    "lobby",
    "dealer_streak",
    "rate",
    "rate_change",
)
"""The game facts' columns, in ``game_facts``' order (the core checks them): the one
list of them here, ``file_facts``' per-game row is a copy of ``_GAME_ROW``."""

_GAME_ROW: dict[str, Any] = dict.fromkeys(GAME_KEYS)
"""A game row with every column ``None``, in ``GAME_KEYS``' order: ``file_facts``
copies it and sets the game's own columns; the per-seat ones are the core's."""

CORE_FACTS: Callable[..., tuple[Rows, Rows, Rows] | None] | None = (
    getattr(_core, "file_facts", None) if _core is not None else None
)
"""The core's ``file_facts`` (None: a stale build, no core, or switched off by a test)."""


_IDENTITIES: dict[tuple[object, ...], tuple[RuleSet, str, str, str | None]] = {}
"""``_identity``'s answers for Tenhou XML logs, by what they read of the log."""


def _identity(game: Game) -> tuple[RuleSet, str, str, str | None]:
    """``game_rules``, ``game_type``, ``platform`` and ``lobby`` of ``game``: for an XML
    log, remembered by its GO type, lobby, players and length (all that the four read
    of it), as the games of one lobby share them; worked out every time for JSON."""
    meta = game.meta
    key = None
    if meta.format == "tenhou-xml":
        key = (meta.go_type, meta.lobby, meta.players, meta.hanchan)
        found = _IDENTITIES.get(key)
        if found is not None:
            return found
    rules = game_rules(game)
    found = (rules, game_type(game, rules), platform(game, rules), lobby(game, rules))
    if key is not None:
        if len(_IDENTITIES) >= 256:
            _IDENTITIES.clear()
        _IDENTITIES[key] = found
    return found


def py_file_facts(game: Game) -> tuple[Rows, Rows, Rows]:
    """The reference: ``(hand_facts(game), game_facts(game), score_history(game))``."""
    return hand_facts(game), game_facts(game), score_history(game)


def _names(game: Game, n: int) -> tuple[str, ...]:
    """``player_key`` of each seat: a seat's own name unless it is anonymous (or the
    seat has no player), which only ``player_key`` itself then answers."""
    players = game.players
    if len(players) >= n:
        names = tuple([p.name for p in players[:n]])
        if ANONYMOUS_NAMES.isdisjoint(map(str.strip, names)):  # (no list of them)
            return names
    return tuple([player_key(game, s) for s in range(n)])


def file_facts(game: Game) -> tuple[Rows, Rows, Rows]:
    """``(hand facts, game facts, score history)`` of ``game``: ``py_file_facts``'
    rows (the same dicts, keys in the same order), from the core when it takes the
    game (its hands that the core declines are written by ``_facts_for_hand``)."""
    args = _core_args(game)
    if args is None:
        return py_file_facts(game)
    got = cast("Callable[..., tuple[Rows, Rows, Rows] | None]", CORE_FACTS)(*args)
    return got if got is not None else py_file_facts(game)


FactsSink = tuple[Any, int, int, str]
"""Where ``file_facts_into`` writes: ``(a _core.PartRows, the hand facts' table, the
score history's table, the file as the part's source)`` (``report.part_rows``)."""


def file_facts_into(game: Game, sink: FactsSink) -> tuple[int, Rows, int] | None:
    """``file_facts(game)`` with its hand facts and score history written by the core
    straight into two tables of the runner's part, cell by cell: a table is then what
    ``_core.PartRows.add`` makes of ``file_facts``' dicts (no dict is made per row:
    making them and taking them apart again was about a seventh of the runner's time).
    ``(hand facts' rows, game facts, score history's rows)``; None, nothing written,
    when the core does not take the game (then ``file_facts`` is the way).  An error
    leaves the tables as they were."""
    args = _core_args(game)
    if args is None:
        return None
    return cast("Callable[..., tuple[int, Rows, int] | None]", CORE_FACTS)(*args, sink)


def _core_args(game: Game) -> tuple[Any, ...] | None:
    """The core's ``file_facts`` arguments for ``game``, None where the core is not to
    be asked (no core, or a table of a size the rates do not know).

    Its own work per game (the context the core takes) is kept to plain lookups: at
    ~2,800 games a run, a microsecond here is a few milliseconds there."""
    meta = game.meta
    n = meta.players
    if CORE_FACTS is None or n not in RATE_PLACE_SCORES:
        return None
    rules, gtype, plat, lobby_name = _identity(game)
    names = _names(game, n)
    cost = rules.riichi_cost
    source = meta.source
    log_id = meta.log_id
    base = _ROW.copy()  # (a copy set by name: a ``{**_ROW, ...}`` display is slower)
    base["file"] = source
    base["log_id"] = log_id
    base["game_type"] = gtype
    owari = game.owari
    complete = owari is not None and len(owari.scores) >= n
    rates = tuple([p.rate for p in game.players[:n]])
    # as game_facts: rated when complete and every seat has a rate; the average as
    # tenhou_rank.rate_change takes it (the same sum, in the same order)
    average = None
    if complete and len(rates) == n and None not in rates:
        average = sum(cast("tuple[float, ...]", rates)) / n
    # the seat, name and other per-seat columns: the core's.  A copy of the template
    # with its columns set by name (a ``{**_GAME_ROW, ...}`` display merged a second
    # dict of them into it, two-thirds as slow again)
    row = _GAME_ROW.copy()
    row["file"] = source
    row["log_id"] = log_id
    row["date"] = meta.date
    row["game_type"] = gtype
    row["platform"] = plat
    row["rules"] = rules.name
    row["players"] = n
    row["hanchan"] = meta.hanchan
    row["hands"] = len(game.hands)
    row["complete"] = complete
    row["lobby"] = lobby_name
    game_ctx = (
        _SCORE_KEYS,
        row,
        GAME_KEYS,
        owari.scores if complete and owari else None,
        owari.points if complete and owari else None,
        rates,
        average,
        RATE_PLACE_SCORES[n],
        RATE_FACTOR,
        final_scores(game),
    )

    def fallback(hand: HandLog) -> Rows:
        return _facts_for_hand(hand, n, base, list(names), cost)

    ctx = (base, names, cost, EVENT_CLASSES, MELD_KINDS, _KEYS, ABORTIVE_KINDS)
    return (game.hands, n, ctx, fallback, game_ctx)
