"""Shanten (向聴数): how many tiles a hand is from tenpai, on 34-count lists.

``shanten(counts)`` is the minimum over the three hand shapes: four groups and
a pair, seven pairs (seven *different* kinds), thirteen orphans.  ``0`` is
tenpai, ``-1`` a complete hand.

Why a module of its own: the statistics need the shanten of every dealt hand
(起手向聴, stats.md §1.3), and the facts run in every audit, so the function
must be cheap.  The regular shape is the expensive one; it is computed per
*suit*: each suit's tiles (and the honors) are decomposed once into a small
set of best (groups, partial groups, pair) triples, memoized by the suit's own
count pattern.  A dealt hand is then four cache look-ups and a tiny product,
and the suit patterns repeat across hands far more than whole hands do.

The regular formula is the usual one: with ``G`` groups needed (4 for 13 or
14 tiles), ``m`` complete groups, ``t`` partial groups (two tiles of a group,
or a pair not used as the head) and ``h`` = 1 when a pair serves as the head,
the shanten is ``2G - 2m - min(t, G - m) - h``.  Three corrections make it
count only waits that exist (there is no fifth copy of a tile):

- a honor held four times is a triplet plus a tile that can never pair or
  join a group: the hand needs at least one exchange per such honor;
- a pair of a kind held four times can be the head but not a partial group
  (its third tile would be a fifth copy);
- when no pair is used at all and every leftover single is a kind held four
  times, the head still needs two new tiles (one more step).

These are the cases the ``mahjong`` package's ``Shanten`` also handles.  Dropping a
head-less option that an option with a head matches (``_pareto``, ``_plain_options``)
loses nothing although two heads cannot combine: where another part has the head, the
same split with its head pair as a partial (or, for a kind held four times, as two
dead singles, which count only when no part has a head) scores as well; where none
has, the option with the head scores at least as well.  Checked once (round 11):
equal to ``mahjong`` on every one-suit hand of up to 14 tiles, on 1.5 million sampled
two-part hands and on 2 million random 13- and 14-tile hands.
``tests/test_shanten_mahjong.py`` keeps the core equal to ``mahjong`` on a fixed sample
of those shapes, ``tests/test_stats_more.py`` on random hands.

``shanten`` asks the compiled core (``_core.shanten``, ``src/core/shanten.cpp``: the
same algorithm, for the statistics' ~113,000 dealt hands a corpus, seconds in Python)
when the install has it; ``_py_shanten`` is the reference it is held equal to
(``tests/test_core_shanten.py``), and answers without the core or when it declines.

Must not: know about seats, tables or rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product

from replay_audit.model.tiles import Kind
from replay_audit.native import _core

CORE_SHANTEN: Callable[[Sequence[int]], int | None] | None = getattr(_core, "shanten", None)
"""The core's ``shanten`` (None: no core, a stale build, or switched off by a test)."""

_TERMINALS_AND_HONORS: tuple[Kind, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

_Option = tuple[int, int, int, int, int, int]
"""One way to split a part (a suit or the honors): ``(groups, partials, head,
pair_partial, live_single, dead_single)``, the last three 0/1 flags: a pair
was used as a partial group; a single is left whose kind is held fewer than
four times (it can become the head); a single is left whose kind is held four
times (it cannot)."""

_BETTER = (1, 1, 1, 1, 1, -1)
"""Direction of each option field: every field but ``dead_single`` only helps."""


def _pareto(options: set[_Option]) -> tuple[_Option, ...]:
    """Drop options another option matches or beats on every field: the final
    formula only improves with each (see ``_BETTER``)."""

    def beats(p: _Option, o: _Option) -> bool:
        return p != o and all((a - b) * d >= 0 for a, b, d in zip(p, o, _BETTER, strict=True))

    return tuple(sorted(o for o in options if not any(beats(p, o) for p in options)))


@lru_cache(maxsize=1 << 16)
def _part_options(counts: tuple[int, ...], honors: bool) -> tuple[_Option, ...]:
    """Every useful way to split one suit (9 counts) or the honors (7 counts).

    Which kinds are held four times matters (see the module notes), so each
    position is coded as ``count + 5`` when its kind is held four times."""
    coded = tuple(c + 5 if c == 4 else c for c in counts)
    return _split(coded, honors)


def _add(a: _Option, b: _Option) -> _Option:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] | b[3], a[4] | b[4], a[5] | b[5])


@lru_cache(maxsize=1 << 17)
def _split(coded: tuple[int, ...], honors: bool) -> tuple[_Option, ...]:
    """The best splits of what is left of a part, ``coded`` as in
    ``_part_options``: the lowest kind still held forms a triplet, a run, a
    pair (head or partial), a two-tile partial run, or is left as a single,
    and the rest is split recursively.  Memoized on the remainder, so parts
    that end alike share their work."""
    i = 0
    n = len(coded)
    while i < n and coded[i] in (0, 5):
        i += 1
    if i >= n:
        return ((0, 0, 0, 0, 0, 0),)
    c = list(coded)
    here = c[i] % 5
    four = c[i] >= 5
    found: set[_Option] = set()

    def rest(unit: _Option, take: tuple[tuple[int, int], ...]) -> None:
        for k, m in take:
            c[k] -= m
        for o in _split(tuple(c), honors):
            found.add(_add(unit, o))
        for k, m in take:
            c[k] += m

    if here >= 3:
        rest((1, 0, 0, 0, 0, 0), ((i, 3),))
    if not honors and i + 2 < n and c[i + 1] % 5 and c[i + 2] % 5:
        rest((1, 0, 0, 0, 0, 0), ((i, 1), (i + 1, 1), (i + 2, 1)))
    if here >= 2 and not (honors and four):
        rest((0, 0, 1, 0, 0, 0), ((i, 2),))
        if not four:  # a partial pair of a four-held kind waits on a fifth copy
            rest((0, 1, 0, 1, 0, 0), ((i, 2),))
    if not honors:
        for d in (1, 2):
            if i + d < n and c[i + d] % 5:
                rest((0, 1, 0, 0, 0, 0), ((i, 1), (i + d, 1)))
    rest((0, 0, 0, 0, 0, 1) if four else (0, 0, 0, 0, 1, 0), ((i, 1),))
    return _pareto({o for o in found if o[2] <= 1})


def regular_shanten(counts: Sequence[int]) -> int:
    """Shanten of the four-groups-and-a-pair shape (fewer groups for hands
    with called melds: ``G = tiles // 3``).

    >>> regular_shanten(_c("123456789m1234p"))
    0
    >>> regular_shanten(_c("19m19p19s1234567z"))
    8
    >>> regular_shanten(_c("1111z2222z3333z4z"))  # three dead honors must go
    3
    """
    key = tuple(counts)
    tiles = sum(key)
    groups = tiles // 3
    if 4 not in key:  # no four-held kind: no correction can apply
        return _plain_regular(key, groups)
    honor_quads = sum(1 for x in key[27:34] if x == 4)
    if honor_quads and tiles % 3 == 2:
        honor_quads -= 1  # a 14-tile hand discards one of them first
    parts = (
        _part_options(key[0:9], False),
        _part_options(key[9:18], False),
        _part_options(key[18:27], False),
        _part_options(key[27:34], True),
    )
    best = 2 * groups
    for combo in product(*parts):
        m = t = h = pt = live = dead = 0
        for o in combo:
            m += o[0]
            t += o[1]
            h += o[2]
            pt |= o[3]
            live |= o[4]
            dead |= o[5]
        if h > 1:
            continue
        value = 2 * groups - 2 * m - min(t, groups - m) - h
        if not h and not pt and not live and dead:
            value += 1  # the head's first tile must come from outside
        if value > -1:
            value = max(value, honor_quads)
        best = min(best, value)
    return best


@lru_cache(maxsize=1 << 16)
def _plain_options(counts: tuple[int, ...], honors: bool) -> tuple[tuple[int, int, int], ...]:
    """``_part_options`` without the correction flags, for parts with no
    four-held kind: ``(groups, partials, head)``, dominated ones dropped."""
    opts = {o[:3] for o in _part_options(counts, honors)}
    return tuple(
        o
        for o in opts
        if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in opts)
    )


def _plain_regular(key: tuple[int, ...], groups: int) -> int:
    """The regular formula when no kind is held four times (the common case,
    kept lean: it runs once per dealt hand)."""
    best = 2 * groups
    for m1, t1, h1 in _plain_options(key[0:9], False):
        for m2, t2, h2 in _plain_options(key[9:18], False):
            h12 = h1 + h2
            if h12 > 1:
                continue
            for m3, t3, h3 in _plain_options(key[18:27], False):
                if h12 + h3 > 1:
                    continue
                for m4, t4, h4 in _plain_options(key[27:34], True):
                    h = h12 + h3 + h4
                    if h > 1:
                        continue
                    m = m1 + m2 + m3 + m4
                    t = t1 + t2 + t3 + t4
                    value = 2 * groups - 2 * m - min(t, groups - m) - h
                    if value < best:
                        best = value
    return best


def chiitoitsu_shanten(counts: Sequence[int]) -> int:
    """Seven different pairs: ``6 - pairs + max(0, 7 - kinds)``.

    >>> chiitoitsu_shanten(_c("1122m3344p5566s7z"))
    0
    """
    pairs = sum(1 for x in counts if x >= 2)
    kinds = sum(1 for x in counts if x)
    return 6 - pairs + max(0, 7 - kinds)


def kokushi_shanten(counts: Sequence[int]) -> int:
    """Thirteen orphans: ``13 - orphan kinds held - (1 if one is paired)``.

    >>> kokushi_shanten(_c("19m19p19s1234567z"))
    0
    """
    held = [counts[k] for k in _TERMINALS_AND_HONORS]
    return 13 - sum(1 for x in held if x) - (1 if any(x >= 2 for x in held) else 0)


@lru_cache(maxsize=1 << 14)
def _shanten_key(key: tuple[int, ...]) -> int:
    best = regular_shanten(key)
    if sum(key) >= 13:
        best = min(best, chiitoitsu_shanten(key), kokushi_shanten(key))
    return best


def shanten(counts: Sequence[int]) -> int:
    """Minimum shanten over the regular shape, seven pairs and thirteen
    orphans (the last two only for closed 13/14-tile hands).

    ``counts`` is a 34-count list (``tiles.counts34``).  The core's answer
    when it gives one, else ``_py_shanten``'s (which raises as it does).

    >>> shanten(_c("1122m3344p5566s7z"))
    0
    >>> shanten(_c("147m258p369s1234z"))
    6
    """
    core = CORE_SHANTEN
    if core is not None:
        value = core(counts)
        if value is not None:
            return value
    return _py_shanten(counts)


def _py_shanten(counts: Sequence[int]) -> int:
    """``shanten`` in Python: the reference the core is held equal to.  Memoized.

    >>> _py_shanten(_c("1122m3344p5566s7z")), _py_shanten(_c("147m258p369s1234z"))
    (0, 6)
    """
    if len(counts) != 34:
        raise ValueError(f"shanten needs 34 counts, got {len(counts)}")
    return _shanten_key(tuple(counts))


def _c(text: str) -> list[int]:
    """``"123m44z"`` → 34 counts (for the doctests)."""
    out = [0] * 34
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = "mpsz".index(ch) * 9
            for d in digits:
                out[base + d - 1] += 1
            digits = []
    return out
