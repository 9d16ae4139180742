"""The core's lazy events (``_core.HandEvents``): what the audit's parse gives each hand.

``game_from_core(..., lazy=True)`` keeps a hand's draws and discards as records and
makes their objects only when read; every reader must see what the eager build's tuple
holds.  Checked over every mjlog XML of the shared corpus (item by item and as a whole,
hashes and what pickles take), and the sequence protocol on a fixture.  The corpus tests
run in shards (``conftest.shard``) that together read every file.
"""

from __future__ import annotations

import gzip
import pickle
from pathlib import Path

import pytest

from replay_audit.model.events import Discard, Draw, Game
from replay_audit.parsers.tenhou_xml.from_columns import game_from_core
from tests.conftest import CORPUS, FIXTURES, need, shard

try:
    from replay_audit import _core
except ImportError:  # pragma: no cover - the pure-Python install
    _core = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _core is None or not hasattr(_core, "HandEvents"), reason="replay_audit._core is not built"
)


def _both(data: bytes, source: str) -> tuple[Game, Game] | None:
    eager = game_from_core(data, source)
    lazy = game_from_core(data, source, lazy=True)
    if eager is None:
        assert lazy is None
        return None
    assert lazy is not None
    return eager, lazy


def _same_hands(eager: Game, lazy: Game) -> None:
    assert lazy.pre_game == eager.pre_game
    assert type(lazy.pre_game) is tuple
    assert len(lazy.hands) == len(eager.hands)
    for k, (he, hl) in enumerate(zip(eager.hands, lazy.hands, strict=True)):
        want, got = he.events, hl.events
        assert type(got) is _core.HandEvents
        assert len(got) == len(want)
        for i, item in enumerate(want):
            seen = got[i]
            assert type(seen) is type(item)
            assert seen == item
        assert got == want and want == got
        assert (got != want) is False and (want != got) is False
        assert list(got) == list(want)
        assert hash(got) == hash(want)
        # pickle (and copy) take what ``__reduce__`` gives: the tuple, checked on every
        # hand; the round trip itself (most of this test's time, in the events'
        # dataclass pickling, not in the core) on each game's first hand
        rebuild, args = got.__reduce__()
        assert rebuild is tuple and args == (want,) and type(args[0]) is tuple
        if k == 0:
            assert pickle.loads(pickle.dumps(got)) == want
        assert hl.results == he.results and hl.moves == he.moves
    assert lazy == eager


def _corpus_paths() -> list[Path]:
    return sorted((CORPUS / "tenhou-xml").rglob("*.xml.gz")) + sorted(
        (CORPUS / "pairs").glob("*.xml.gz")
    )


_SHARDS = 4
"""The corpus tests' shards: each reads every ``_SHARDS``-th file."""


@pytest.mark.parametrize("part", range(_SHARDS))
def test_lazy_events_equal_the_eager_tuples_over_the_corpus(part: int) -> None:
    need(CORPUS)
    built = 0
    for path in shard(_corpus_paths(), part, _SHARDS):
        both = _both(gzip.decompress(path.read_bytes()), path.name)
        if both is not None:
            _same_hands(*both)
            built += 1
    assert built > 0


@pytest.fixture(scope="module")
def game_pair() -> tuple[Game, Game]:
    for path in sorted(FIXTURES.rglob("*.xml")):
        both = _both(path.read_bytes(), path.name)
        if both is not None and any(
            isinstance(e, Discard) for h in both[0].hands for e in h.events
        ):
            return both
    pytest.skip("no fixture the core builds")


def test_sequence_protocol(game_pair: tuple[Game, Game]) -> None:
    eager, lazy = game_pair
    want, got = eager.hands[0].events, lazy.hands[0].events
    n = len(want)
    assert got[-1] == want[-1] and got[-n] == want[0]
    for bad in (n, -n - 1, 10**6):
        with pytest.raises(IndexError):
            got[bad]
    with pytest.raises(TypeError):
        got["a"]  # type: ignore[call-overload]
    for part in (slice(None), slice(2, 9), slice(None, None, -1), slice(1, -1, 3), slice(5, 2)):
        assert got[part] == want[part]
        assert type(got[part]) is tuple
    assert repr(got) == repr(want)
    assert got.materialize() == want and type(got.materialize()) is tuple
    assert got.materialize() is got.materialize()
    assert got.count(want[0]) == want.count(want[0]) and got.index(want[1]) == 1
    assert want[1] in got
    assert type(pickle.loads(pickle.dumps(got))) is tuple
    kinds = {type(e) for e in got}
    assert Draw in kinds and Discard in kinds


def test_equality_and_order_as_tuples(game_pair: tuple[Game, Game]) -> None:
    eager, lazy = game_pair
    a, b = lazy.hands[0].events, lazy.hands[1].events
    assert a == a and a == eager.hands[0].events and a != b and b != eager.hands[0].events
    with pytest.raises(TypeError):  # as the tuples (events do not order)
        a < b  # noqa: B015
    assert a != list(eager.hands[0].events)
    assert a != 3
    assert {a: 1}[eager.hands[0].events] == 1


def test_draws_are_new_objects_equal_to_the_eager_ones(game_pair: tuple[Game, Game]) -> None:
    eager, lazy = game_pair
    got = lazy.hands[0].events
    i = next(i for i, e in enumerate(got) if isinstance(e, Draw))
    assert got[i] == eager.hands[0].events[i] and got[i] is not got[i]
    assert got[i].seq == eager.hands[0].events[i].seq


@pytest.mark.parametrize("part", range(_SHARDS))
def test_the_audit_reads_lazy_events_as_the_tuples(part: int) -> None:
    """The core's readers (replay, hand audit, facts) and the Python fallbacks they
    call give, for every corpus game, the same audit from the lazy events as from the
    eager tuples: findings, hands rows, replay, validate's replay and the facts."""
    from replay_audit.auditing.game import audit_game
    from replay_audit.stats.file_facts import file_facts

    need(CORPUS)
    checked = 0
    for path in shard(sorted((CORPUS / "tenhou-xml").rglob("*.xml.gz")), part, _SHARDS):
        both = _both(gzip.decompress(path.read_bytes()), path.name)
        if both is None:
            continue
        eager, lazy = both
        assert audit_game(lazy) == audit_game(eager)
        assert audit_game(lazy, replay_only=True) == audit_game(eager, replay_only=True)
        assert file_facts(lazy) == file_facts(eager)
        checked += 1
    assert checked > 0


def test_the_core_scans_take_lazy_events(game_pair: tuple[Game, Game]) -> None:
    """``hand_scan`` and ``events_except`` answer a HandEvents as its tuple."""
    from replay_audit.auditing.hands import _PASSED_OVER
    from replay_audit.stats.scan import EVENT_CLASSES, MELD_KINDS

    eager, lazy = game_pair
    n = eager.meta.players
    for he, hl in zip(eager.hands, lazy.hands, strict=True):
        want = _core.hand_scan(he.events, n, he.haipai, EVENT_CLASSES, MELD_KINDS)
        assert want is not None
        assert _core.hand_scan(hl.events, n, hl.haipai, EVENT_CLASSES, MELD_KINDS) == want
        assert _core.events_except(hl.events, _PASSED_OVER) == _core.events_except(
            he.events, _PASSED_OVER
        )
        assert _core.events_except(hl.events, ()) == list(he.events)


def test_a_scan_given_other_draw_classes_reads_the_materialized_tuple(
    game_pair: tuple[Game, Game],
) -> None:
    """A reader whose Draw and Discard classes are not the lazy build's reads the
    materialized tuple (``EventSeq.read_as``): no record is taken for an event of
    another class, and it answers as the tuple does."""
    from replay_audit.stats.scan import EVENT_CLASSES, MELD_KINDS

    class OtherDraw(Draw):
        __slots__ = ()

    class OtherDiscard(Discard):
        __slots__ = ()

    other = {Draw: OtherDraw, Discard: OtherDiscard}
    classes = tuple(other.get(c, c) for c in EVENT_CLASSES)
    eager, lazy = game_pair
    n = eager.meta.players
    differs = 0
    for he, hl in zip(eager.hands, lazy.hands, strict=True):
        want = _core.hand_scan(he.events, n, he.haipai, classes, MELD_KINDS)
        assert _core.hand_scan(hl.events, n, hl.haipai, classes, MELD_KINDS) == want
        # the builder's own classes see the draws and discards, which the others do
        # not: so the answer above was the fallback's, not the records'
        differs += _core.hand_scan(hl.events, n, hl.haipai, EVENT_CLASSES, MELD_KINDS) != want
    assert differs > 0
