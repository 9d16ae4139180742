"""The compiled core (``replay_audit._core``, C++), and the Python API over it.

``pip install .`` and ``pip install -e .`` compile the core from ``src/core`` (see
``setup.py``).  An install made on purpose without it (``REPLAY_AUDIT_PURE_PYTHON=1``)
runs the pure-Python implementation, which gives the same results more slowly;
without that variable, importing the package without its core warns once
(``CoreMissingWarning``): the install is stale or incomplete (an editable install
made before the core existed needs ``pip install -e .`` again).

The core rebuilds walls from the seed (here), reads mjlog XML into columns
(``replay_audit.parsers.tenhou_xml.columns`` and ``from_columns``) and scores wins
(``replay_audit.scoring.core``); each of those modules says what it leaves to Python.

Walls: the functions here return exactly what ``replay_audit.wall`` returns for the
same arguments (the same ``Wall`` values, the same ``ValueError`` messages): the core
answers the canonical seed texts that real logs hold, and any other input (a
malformed seed, a hex word written ``0x1f``) goes to ``replay_audit.wall``.
``tests/test_core_wall.py`` checks that on every seeded game of the shared corpus and
on random seeds.

Must not: import anything above the model layer (the scoring and reader bridges
live in their own layers and import ``_core`` from here).

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
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from replay_audit.wall import Wall

try:
    from replay_audit import _core as _core  # re-exported to the core's bridges
except ImportError:  # an install without the compiled core
    _core = None  # type: ignore[assignment]

__all__ = [
    "HAVE_CORE",
    "PURE_PYTHON_ENV",
    "CoreMissingWarning",
    "iter_wall_tiles",
    "iter_walls",
    "wall_from_init_shuffle",
    "walls_from_seed",
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
    stream = _core_stream(seed, players)
    if stream is not None:
        return _stream_walls(wall.Wall, stream)
    result: Iterator[Wall] = wall.iter_walls(seed, players)
    return result


def _core_stream(seed: str, players: int) -> _core.WallStream | None:
    """The core's wall stream for ``seed``, or None where the core is absent or
    declines the seed (``replay_audit.wall`` then rebuilds it, or says why not)."""
    if _core is None or not seed.isascii():
        return None
    try:
        return _core.WallStream(seed, players)
    except ValueError:
        return None


def _stream_walls(cls: type[Wall], stream: _core.WallStream) -> Iterator[Wall]:
    flipped = stream.flipped
    for record in stream:
        yield _record_wall(cls, record, flipped)


def iter_wall_tiles(seed: str, players: int = 4) -> tuple[bool, int, Iterator[Sequence[int]]]:
    """``iter_walls`` for the replay's hot path, without a ``Wall`` per hand:
    (``Wall.flipped``, tiles per wall, and each wall's tiles in draw order).

    From the core each wall is its record as it comes (the tiles, then the two
    dice); from ``replay_audit.wall`` it is ``Wall.tiles`` then ``Wall.dice``, the
    same.  A bad seed raises ``ValueError`` here, as ``iter_walls``."""
    stream = _core_stream(seed, players)
    if stream is not None:  # before importing the wall module: once a game, hot
        return stream.flipped, 108 if players == 3 else 136, stream
    wall = _wall_module()
    walls: Iterator[Wall] = wall.iter_walls(seed, players)  # players is 3 or 4 past here
    flipped = wall.seed_format(seed) == wall.FORMAT_HEX
    return flipped, 108 if players == 3 else 136, (w.tiles + w.dice for w in walls)


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
