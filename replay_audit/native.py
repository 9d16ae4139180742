"""The compiled core (``replay_audit._core``, C++), and the Python API over it.

``pip install .`` and ``pip install -e .`` compile the core from ``src/core`` (see
``setup.py``).  An install made on purpose without it (``REPLAY_AUDIT_PURE_PYTHON=1``)
runs the pure-Python implementation, which gives the same results more slowly;
without that variable, importing the package without its core warns once
(``CoreMissingWarning``): the install is stale or incomplete (an editable install
made before the core existed needs ``pip install -e .`` again).

So far the core rebuilds walls from the seed.  The functions here return exactly
what ``replay_audit.wall`` returns for the same arguments (the same ``Wall`` values,
the same ``ValueError`` messages): the core answers the canonical seed texts that
real logs hold, and any other input (a malformed seed, a hex word written ``0x1f``)
goes to ``replay_audit.wall``.  ``tests/test_core_wall.py`` checks that on every
seeded game of the shared corpus and on random seeds.  The replayer does not use
them yet.

>>> from replay_audit import wall
>>> walls = walls_from_seed(wall._EXAMPLE_SEED, hands=2)
>>> walls == wall.walls_from_seed(wall._EXAMPLE_SEED, hands=2)
True
"""

from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from replay_audit.wall import Wall

try:
    from replay_audit import _core
except ImportError:  # an install without the compiled core
    _core = None  # type: ignore[assignment]

__all__ = [
    "HAVE_CORE",
    "PURE_PYTHON_ENV",
    "CoreMissingWarning",
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
        stacklevel=2,
    )


def walls_from_seed(seed: str, players: int = 4, *, hands: int) -> list[Wall]:
    """``replay_audit.wall.walls_from_seed``, by the compiled core when it can."""
    from replay_audit import wall  # lazy, as everywhere: import replay_audit stays cheap

    if _core is not None and seed.isascii():
        try:
            records = _core.walls(seed, players, hands)
        except ValueError:
            pass  # declined: replay_audit.wall rebuilds it or says why not
        else:
            flipped = wall.seed_format(seed) == wall.FORMAT_HEX
            return [_record_wall(wall.Wall, r, flipped) for r in records]
    return wall.walls_from_seed(seed, players, hands=hands)


def wall_from_init_shuffle(shuffle: str, players: int = 4) -> Wall:
    """``replay_audit.wall.wall_from_init_shuffle``, by the compiled core when it can."""
    from replay_audit import wall

    if _core is not None and shuffle.isascii():
        try:
            record = _core.init_shuffle_wall(shuffle, players)
        except ValueError:
            pass
        else:
            return _record_wall(wall.Wall, record, flipped=True)
    return wall.wall_from_init_shuffle(shuffle, players)


def _record_wall(cls: type[Wall], record: bytes, flipped: bool) -> Wall:
    """A core wall record (tiles in draw order, then the two dice) as a ``Wall``."""
    n = len(record) - 2
    return cls(tuple(record[:n]), (record[n], record[n + 1]), flipped)
