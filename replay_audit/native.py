"""The compiled core (``replay_audit._core``, C++), and the Python API over it.

``pip install .`` and ``pip install -e .`` compile the core from ``src/core`` (see
``setup.py``).  An install made on purpose without it (``REPLAY_AUDIT_PURE_PYTHON=1``)
runs the pure-Python implementation, which gives the same results more slowly;
without that variable, importing the package without its core warns once
(``CoreMissingWarning``): the install is stale or incomplete (an editable install
made before the core existed needs ``pip install -e .`` again).

The core rebuilds walls from the seed, and scores wins.  The wall functions return exactly
what ``replay_audit.wall`` returns for the same arguments (the same ``Wall`` values,
the same ``ValueError`` messages): the core answers the canonical seed texts that
real logs hold, and any other input (a malformed seed, a hex word written ``0x1f``)
goes to ``replay_audit.wall``.  ``tests/test_core_wall.py`` checks that on every
seeded game of the shared corpus and on random seeds.

The scoring functions (``score_win``, ``score_wins``, ``win_deltas``) return exactly
what ``replay_audit.scoring.hand.score_win`` and ``replay_audit.scoring.payments.win_deltas``
return for the same arguments.  What goes where:

- the core scores han-and-fu wins (``RuleSet.scoring == "hanfu"``) under any rule set
  (every rule it applies is read from the ``RuleSet``: red fives, kuitan, kiriage, the
  fu values, renhou, yakuman and kazoe conventions, tsumo loss, honba, sticks, pao);
- Python answers Toutenkou (``scoring == "toutenkou"``, points instead of han and fu),
  and any context or value the core declines as unusual: tile ids outside 0-135, more
  than 14 concealed tiles, 8 calls or 16 indicators, a call kind that is not a
  ``MeldKind``, ``players`` other than 3 or 4, a round wind outside 0-3, numbers beyond
  2**40, seats outside the table (where Python raises, it raises the same error).

``tests/test_core_scoring.py`` checks both give the same values on every win of the
shared corpus (under several rule sets), on the scoring golden tests and on random
hands.  The replayer and the auditor do not use them yet.

>>> from replay_audit import wall
>>> walls = walls_from_seed(wall._EXAMPLE_SEED, hands=2)
>>> walls == wall.walls_from_seed(wall._EXAMPLE_SEED, hands=2)
True
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from replay_audit.rules import RuleSet
    from replay_audit.scoring.context import WinContext, WinValue
    from replay_audit.wall import Wall

try:
    from replay_audit import _core
except ImportError:  # an install without the compiled core
    _core = None  # type: ignore[assignment]

__all__ = [
    "HAVE_CORE",
    "PURE_PYTHON_ENV",
    "CoreMissingWarning",
    "iter_walls",
    "score_win",
    "score_wins",
    "wall_from_init_shuffle",
    "walls_from_seed",
    "win_deltas",
]

PURE_PYTHON_ENV: Final = "REPLAY_AUDIT_PURE_PYTHON"
"""Set to ``1`` at install time to skip the core, and at run time to silence the warning."""
HAVE_CORE: Final = _core is not None
"""Whether this install has its compiled core."""


class CoreMissingWarning(RuntimeWarning):
    """``replay_audit._core`` is not built: the pure-Python code runs instead."""


if not HAVE_CORE and os.environ.get(PURE_PYTHON_ENV) != "1":
    warnings.warn(
        "replay_audit's compiled core (replay_audit._core) is not built, so the slower "
        "pure-Python implementation runs (same results).  Reinstall with a C++ compiler "
        f"(pip install . or pip install -e .), or set {PURE_PYTHON_ENV}=1 to run without it "
        "and silence this warning.",
        CoreMissingWarning,
        stacklevel=1,  # the importer is importlib (replay_audit/__init__.py): point here
    )


def _wall_module() -> ModuleType:
    """``replay_audit.wall``, imported when first needed (``import replay_audit`` stays
    cheap), and always the module itself, whatever the package attribute holds."""
    return importlib.import_module("replay_audit.wall")


def iter_walls(seed: str, players: int = 4) -> Iterator[Wall]:
    """``replay_audit.wall.iter_walls``, by the compiled core when it can: a game's
    walls hand after hand, without end; a bad seed raises ``ValueError`` here."""
    wall = _wall_module()
    if _core is not None and seed.isascii():
        try:
            stream = _core.WallStream(seed, players)
        except ValueError:
            pass
        else:
            return _stream_walls(wall.Wall, stream)
    result: Iterator[Wall] = wall.iter_walls(seed, players)
    return result


def _stream_walls(cls: type[Wall], stream: _core.WallStream) -> Iterator[Wall]:
    flipped = stream.flipped
    for record in stream:
        yield _record_wall(cls, record, flipped)


def walls_from_seed(seed: str, players: int = 4, *, hands: int) -> list[Wall]:
    """``replay_audit.wall.walls_from_seed``, by the compiled core when it can."""
    wall = _wall_module()
    if _core is not None and seed.isascii():
        try:
            records = _core.walls(seed, players, hands)
        except ValueError:
            pass  # declined: replay_audit.wall rebuilds it or says why not
        else:
            flipped = wall.seed_format(seed) == wall.FORMAT_HEX
            return [_record_wall(wall.Wall, r, flipped) for r in records]
    result: list[Wall] = wall.walls_from_seed(seed, players, hands=hands)
    return result


def wall_from_init_shuffle(shuffle: str, players: int = 4) -> Wall:
    """``replay_audit.wall.wall_from_init_shuffle``, by the compiled core when it can."""
    wall = _wall_module()
    if _core is not None and shuffle.isascii():
        try:
            record = _core.init_shuffle_wall(shuffle, players)
        except ValueError:
            pass
        else:
            return _record_wall(wall.Wall, record, flipped=True)
    result: Wall = wall.wall_from_init_shuffle(shuffle, players)
    return result


def _record_wall(cls: type[Wall], record: bytes, flipped: bool) -> Wall:
    """A core wall record (tiles in draw order, then the two dice) as a ``Wall``."""
    n = len(record) - 2
    return cls(tuple(record[:n]), (record[n], record[n + 1]), flipped)


# ------------------------------------------------------------------ scoring


_VALUE_FIELDS: Final = (
    "han",
    "fu",
    "points",
    "limit",
    "yaku",
    "yakuman",
    "yakuman_count",
    "base",
    "ron_payment",
    "tsumo_dealer_payment",
    "tsumo_other_payment",
    "fu_items",
    "error",
)
"""The ``WinValue`` fields, in the order the core gives them."""


class _Python:
    """The pure-Python scoring functions, bound once on first use (``import
    replay_audit`` stays cheap).  Held here rather than looked up on each call, so a
    caller that swaps ``replay_audit.scoring.hand.score_win`` for this module's
    ``score_win`` (the golden tests run against both engines that way) still falls
    back to the Python code.  ``core`` says whether the core may score: it makes
    ``WinValue`` objects itself, so only while their fields are the ones it knows."""

    score_win: Any = None
    win_deltas: Any = None
    core = False

    @classmethod
    def load(cls) -> type[_Python]:
        if cls.score_win is None:
            import dataclasses

            from replay_audit.scoring import hand, payments
            from replay_audit.scoring.context import WinValue

            cls.score_win = hand.score_win
            cls.win_deltas = payments.win_deltas
            fields = tuple(f.name for f in dataclasses.fields(WinValue))
            if _core is not None and fields == _VALUE_FIELDS:
                _core.set_value_type(WinValue)
                cls.core = True
        return cls


_RULES: dict[int, tuple[RuleSet, _core.ScoreRules | None]] = {}
"""``id(rules)`` -> (the rules, their core form, or None when the core leaves them to
Python).  Keyed by identity, the entry holding the rules so the id stays theirs, as
``scoring.points`` memoises: hashing a whole ``RuleSet`` costs more than a win."""


def _core_rules(rules: RuleSet) -> _core.ScoreRules | None:
    """The core's form of ``rules``, or None for rules the core leaves to Python."""
    entry = _RULES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    found: _core.ScoreRules | None = None
    if _Python.load().core and rules.scoring == "hanfu":
        from replay_audit.rules import DOUBLE_YAKUMAN_PATTERNS

        try:
            found = _core.ScoreRules(
                players=rules.players,
                aka=rules.aka,
                red_fives=list(rules.red_fives),
                kuitan=rules.kuitan,
                kiriage=rules.kiriage,
                double_wind_fu=rules.double_wind_fu,
                rinshan_tsumo_fu=rules.rinshan_tsumo_fu,
                open_pinfu_fu=rules.open_pinfu_fu,
                renhou=rules.renhou,
                yakuman=rules.yakuman,
                kazoe=rules.kazoe,
                tsumo_loss=rules.tsumo_loss,
                honba_ron=rules.honba_ron,
                honba_tsumo=rules.honba_tsumo,
                riichi_cost=rules.riichi_cost,
                pao_yakuman=list(rules.pao_yakuman),
                pao_scope=rules.pao_scope,
                double_yakuman=list(DOUBLE_YAKUMAN_PATTERNS),
            )
        except (ValueError, TypeError):
            found = None
    if len(_RULES) >= 64:  # many short-lived RuleSets: stay bounded
        _RULES.clear()
    _RULES[id(rules)] = (rules, found)
    return found


def score_win(ctx: WinContext, rules: RuleSet) -> WinValue:
    """``replay_audit.scoring.hand.score_win``, by the compiled core when it can (see
    the module docstring for what goes to Python): the same ``WinValue``."""
    entry = _RULES.get(id(rules))
    core_rules = entry[1] if entry is not None and entry[0] is rules else _core_rules(rules)
    if core_rules is not None:
        value: WinValue | None = _core.score_win_value(ctx, core_rules)
        if value is not None:
            return value
    result: WinValue = _Python.load().score_win(ctx, rules)
    return result


def score_wins(contexts: Sequence[WinContext], rules: RuleSet) -> list[WinValue]:
    """``score_win`` of many wins under one rule set, the core scoring them all in one
    call (``_core.WinBatch``); what it declines is scored one by one in Python."""
    py = _Python.load()
    core_rules = _core_rules(rules)
    if core_rules is None:
        return [py.score_win(ctx, rules) for ctx in contexts]
    batch = _core.WinBatch(core_rules)
    for ctx in contexts:
        batch.add(ctx)
    batch.score()
    return [
        value if value is not None else py.score_win(ctx, rules)
        for ctx, value in zip(contexts, batch.win_values(), strict=True)
    ]


def win_deltas(
    value: WinValue,
    *,
    winner: int,
    from_seat: int,
    dealer: int,
    players: int,
    honba: int,
    sticks: int,
    first_winner: bool,
    pao_seat: int | None,
    rules: RuleSet,
) -> tuple[int, ...]:
    """``replay_audit.scoring.payments.win_deltas``, by the compiled core when it can:
    the same deltas, and the same ``ValueError`` for a seat outside the table."""
    core_rules = _core_rules(rules)
    if core_rules is not None and type(honba) is int and type(sticks) is int:
        try:
            got = _core.win_deltas(
                value,
                winner=winner,
                from_seat=from_seat,
                dealer=dealer,
                players=players,
                honba=honba,
                sticks=sticks,
                first_winner=bool(first_winner),
                pao_seat=pao_seat,
                rules=core_rules,
            )
        except (TypeError, OverflowError):  # not plain ints: Python decides
            got = None
        if got is not None:
            return got
    result: tuple[int, ...] = _Python.load().win_deltas(
        value,
        winner=winner,
        from_seat=from_seat,
        dealer=dealer,
        players=players,
        honba=honba,
        sticks=sticks,
        first_winner=first_winner,
        pao_seat=pao_seat,
        rules=rules,
    )
    return result
