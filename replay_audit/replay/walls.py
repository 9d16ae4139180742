"""The wall a hand was dealt from, rebuilt from the game's seed.

Owns ``_WallSource`` (a game's walls, rebuilt lazily by the compiled core through
``replay_audit.native``, or by ``replay_audit.wall`` where the core declines) and
``_HandWall`` (one hand's dora, ura, live and rinshan tiles in draw order), with
the position layouts they are read through.

Must not: play moves or judge them; the table checks draws against what this gives.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import is_, itemgetter

from replay_audit import native
from replay_audit.model.events import (
    Game,
    HandLog,
)
from replay_audit.replay import values

CORE_HAND_WALL = getattr(native._core, "hand_wall", None) if native._core is not None else None
"""The core's ``hand_wall`` (None: a stale build, no core, or switched off by a test):
``_hand_wall`` on a core record whose deal is the hand's as dealt; ``_hand_wall``'s own
lines are its reference (``tests/test_replay_walls.py`` holds them equal)."""

CORE_HAND_WALLS = getattr(native._core, "hand_walls", None) if native._core is not None else None
"""The core's ``hand_walls`` (None: a stale build, no core, or switched off by a test):
``for_hands``' usual case in one call a game; ``for_hand`` decides every hand it leaves,
and is its reference (``tests/test_core_replay_hand.py`` holds them equal)."""

# --------------------------------------------------------------------------- wall


@dataclass(frozen=True, slots=True)
class _HandWall:
    """What the replay needs of one rebuilt wall, as plain tuples (hot path)."""

    dora: tuple[int, ...]
    """The five dora indicators, INIT's first."""
    ura: tuple[int, ...]
    live: tuple[int, ...]
    """Live draws in order."""
    rinshan: tuple[int, ...]
    """Replacement draws in order."""
    dice: tuple[int, ...] | None
    """The two dice (1-6) the seed rolled for the hand, which INIT writes less one
    (None where the wall came without them)."""


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where things sit in a wall's draw order, for one (size, flipped, dealer).

    Found by asking ``replay_audit.wall`` about a wall whose tiles are their own
    positions, so the layout stays that module's knowledge; cached, because
    calling its methods for every hand costs more than the replay itself."""

    first_dora: int
    """Where INIT's dora indicator sits."""
    live: slice
    take_dora: Callable[[Sequence[int]], tuple[int, ...]]
    """``itemgetter`` over the dora positions (and below ura, rinshan, each seat's
    deal in the order dealt): gathers the positions in one C call, per hand."""
    take_ura: Callable[[Sequence[int]], tuple[int, ...]]
    take_rinshan: Callable[[Sequence[int]], tuple[int, ...]]
    take_deal: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]
    plan: tuple[object, ...] | None = None
    """The same positions for ``_core.hand_wall``: (first dora, each seat's deal, dora,
    ura, live start, live stop, rinshan), each list of positions a bytes; None when a
    position does not fit in a byte (then the Python path reads every wall)."""


_LAYOUTS: dict[tuple[int, bool, int], _Layout | None] = {}


def _layout(size: int, flipped: bool, dealer: int) -> _Layout | None:
    """The layout of a wall of ``size`` tiles (``flipped`` as ``Wall.flipped``)."""
    from replay_audit.wall import Wall  # optional, lazy; once per layout

    try:
        probe = Wall(tuple(range(size)), (1, 1), flipped)
        deal_size = probe.deal_size
        dora = tuple(probe.dora_indicator(k) for k in range(5))
        ura = tuple(probe.ura_indicator(k) for k in range(5))
        rinshan = tuple(probe.rinshan_tile(i) for i in range(probe.replacement_count))
        deal = probe.haipai(dealer)
        live = slice(deal_size, deal_size + probe.live_count(0))
        plan: tuple[object, ...] | None = None
        if size <= 256:
            plan = (dora[0], tuple(map(bytes, deal)), bytes(dora), bytes(ura))
            plan += (live.start, live.stop, bytes(rinshan))
        lay: _Layout | None = _Layout(
            first_dora=dora[0],
            live=live,
            take_dora=_taker(dora),
            take_ura=_taker(ura),
            take_rinshan=_taker(rinshan),
            take_deal=tuple(_taker(h) for h in deal),
            plan=plan,
        )
    except (ValueError, IndexError, TypeError, AttributeError):
        lay = None
    _LAYOUTS[size, flipped, dealer] = lay
    return lay


def _hand_wall(tiles: Sequence[int], size: int, flipped: bool, hand: HandLog) -> _HandWall | None:
    """The wall's indicators and draws if its deal matches the hand's INIT.

    ``tiles`` is a wall's tiles in draw order (``size`` of them), then its two dice
    (a core record has them there; ``_WallSource`` adds them to a ``Wall``'s tiles)."""
    key = (size, flipped, hand.dealer)
    try:  # one lookup; try costs nothing when it does not raise
        lay = _LAYOUTS[key]
    except KeyError:
        lay = _layout(*key)
    if lay is None:
        return None
    core = CORE_HAND_WALL
    if core is not None and type(tiles) is bytes and lay.plan is not None:
        # The core's answer when the deal is as dealt (the usual), else the lines below.
        found = core(tiles, lay.plan, hand.dora_indicator, hand.haipai)
        if found is None:
            return None
        if found is not NotImplemented:
            return values.MAKE(_HandWall, *found)
    if tiles[lay.first_dora] != hand.dora_indicator:
        return None
    for take, dealt in zip(lay.take_deal, hand.haipai, strict=False):
        got = take(tiles)
        # Logs list each seat's tiles in the order dealt: equal as dealt is the
        # common case, and the same tiles in another order still match.
        if got != dealt and set(got) != set(dealt):
            return None
    # values.MAKE: a frozen dataclass's own __init__ costs more than the slicing.
    return values.MAKE(
        _HandWall,
        lay.take_dora(tiles),
        lay.take_ura(tiles),
        tuple(tiles[lay.live]),
        lay.take_rinshan(tiles),
        tuple(tiles[size : size + 2]) if len(tiles) >= size + 2 else None,
    )


def _taker(positions: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``itemgetter(*positions)`` that always returns a tuple (also for 0 or 1)."""
    if len(positions) > 1:
        return itemgetter(*positions)
    return lambda tiles: tuple(tiles[i] for i in positions)


class _WallSource:
    """The walls of one game, rebuilt lazily from its seed by ``replay_audit.wall``.

    Imported lazily so the replayer keeps working without that module, and any
    seed it cannot reproduce (2006 logs have none; unknown generators) simply
    means "no wall": the replay then takes ura from the log and says so.  Hand
    ``i`` normally uses wall ``i``; trimmed excerpts start mid-game, so on a
    mismatch later walls are searched for the one whose deal matches INIT.

    The walls are kept as ``native.iter_wall_tiles`` gives them (the core's
    records as they come, no ``Wall`` object per hand): the replay only reads
    positions of them.
    """

    SEARCH_LIMIT = 40

    __slots__ = ("cache", "damage", "flipped", "it", "players", "size", "usable")

    def __init__(self, game: Game) -> None:
        self.players = game.meta.players
        self.cache: list[Sequence[int]] = []
        self.it: Iterator[Sequence[int]] | None = None
        self.flipped = False
        self.size = 0
        self.usable = False
        self.damage: tuple[str, str] | None = None
        """(category, message) when the game's seed cannot be used: one finding for
        the game, not one per hand."""
        if "replay_audit.wall" not in sys.modules:  # an import statement a game cost more
            try:
                import replay_audit.wall  # noqa: F401  # optional, lazy
            except ImportError:
                return
        seed = game.meta.seed
        if seed:
            try:
                self.flipped, self.size, self.it = native.iter_wall_tiles(seed, self.players)
            except (ValueError, AttributeError) as exc:
                from replay_audit import wall as wall_mod

                self.it = None
                form = wall_mod.seed_format(seed)
                if form in (wall_mod.FORMAT_BASE64, wall_mod.FORMAT_HEX):
                    self.damage = ("replay", f"the SHUFFLE seed is damaged ({exc})")
                else:
                    self.damage = ("info", f"the SHUFFLE seed is of an unknown generator ({exc})")
        self.usable = True

    def seeded(self, hand: HandLog) -> bool:
        """Whether this hand has a seed the wall module can reproduce."""
        return self.it is not None or _init_shuffle(hand) is not None

    def for_hand(self, hand: HandLog) -> _HandWall | None:
        if not self.usable:
            return None
        if hand.extra:
            shuffle = _init_shuffle(hand)
            if shuffle is not None:
                try:
                    wall = native.wall_from_init_shuffle(shuffle, self.players)
                except (ValueError, AttributeError):
                    return None
                return _hand_wall(wall.tiles + wall.dice, len(wall.tiles), wall.flipped, hand)
        it = self.it
        if it is None:
            return None
        i = hand.index
        cache = self.cache
        while len(cache) <= i and self._more():
            pass
        size = self.size
        flipped = self.flipped
        if i < len(cache) and (found := _hand_wall(cache[i], size, flipped, hand)) is not None:
            return found
        j = 0
        while j < self.SEARCH_LIMIT:
            if j >= len(cache) and not self._more():
                break
            if j != i and (found := _hand_wall(cache[j], size, flipped, hand)) is not None:
                return found
            j += 1
        return None

    def for_hands(self, hands: tuple[HandLog, ...]) -> list[_HandWall | None]:
        """``for_hand`` of each of a game's hands, in order: the usual ones by the core
        in one call (``_core.hand_walls``), the rest by ``for_hand``.  The walls are
        the stream's in order whoever reads them first, so the answers do not depend on
        the order the hands are asked in."""
        core = CORE_HAND_WALLS
        it = self.it
        if (
            core is None
            or CORE_HAND_WALL is None
            or it is None
            or not self.usable
            or type(hands) is not tuple
        ):
            return [self.for_hand(h) for h in hands]
        key = (self.size, self.flipped)
        plans = _PLANS[key] if key in _PLANS else _plans(*key)
        limit = self.SEARCH_LIMIT + 64
        got: list[_HandWall | None] = core(
            it, self.cache, hands, plans, limit, values.MAKE, _HandWall
        )
        if not any(map(is_, got, repeat(NotImplemented, len(got)))):  # the core took all
            return got
        return [
            self.for_hand(h) if w is NotImplemented else w for h, w in zip(hands, got, strict=True)
        ]

    def _more(self) -> bool:
        if self.it is None or len(self.cache) >= self.SEARCH_LIMIT + 64:
            return False
        self.cache.append(next(self.it))
        return True


_PLANS: dict[tuple[int, bool], tuple[tuple[object, ...] | None, ...]] = {}
"""``_plans`` by (size, flipped)."""


def _plans(size: int, flipped: bool) -> tuple[tuple[object, ...] | None, ...]:
    """Each dealer's ``_Layout.plan`` (None where it has none) for ``_core.hand_walls``,
    made once per kind of wall rather than looked up again at every game."""
    plans = []
    for dealer in range(4):
        key = (size, flipped, dealer)
        lay = _LAYOUTS[key] if key in _LAYOUTS else _layout(*key)
        plans.append(lay.plan if lay is not None else None)
    found = _PLANS[size, flipped] = tuple(plans)
    return found


def _init_shuffle(hand: HandLog) -> str | None:
    for key, value in hand.extra:
        if key == "shuffle":
            return value
    return None
