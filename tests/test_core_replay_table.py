"""A hand's replay table built by the compiled core (``_core.new_table``) is the table
``_TableState.__init__`` builds (slot by slot, the lists the core plays on shared the
same way), on every hand of the shared corpus; and a game's hands replayed in one core
call (``_core.run_game``) give exactly what ``replay_game``'s own loop (``_set_table``
then ``run_hand``, a hand at a time) gives: on the corpus, on the fixtures, and on corpus
games whose deals, moves, riichi, calls and wins were damaged at random (so the core
meets the deals it declines and the hands whose wall is missing, which it leaves to
``_set_table``).  Both comparisons are shown to fail for a planted difference.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Game, HandLog
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.replay import state, table, walls
from replay_audit.replay.state import _TableState
from replay_audit.replay.table import replay_game
from tests import test_core_replay as core_replay
from tests.replay_games import first_phoenix_game, fixture_xml_games
from tests.test_core_replay import _damage, _damage_riichi
from tests.test_core_replay_hand import _damage_wins

pytestmark = pytest.mark.skipif(
    state.CORE_TABLE is None or table.CORE_GAME is None or table.CORE_RUN is None,
    reason="no compiled core",
)

_GAME = ((table, "CORE_GAME", None),)
"""The share held here: the core's game loop, against ``replay_game``'s Python loop over
the hands (which still runs each hand in the core's ``run_hand``)."""

_CORE_LIST_SLOTS = (
    "seen",
    "concealed",
    "last_draw",
    "riichi",
    "ippatsu",
    "discards",
    "disc_mask",
    "nagashi",
    "last_disc_pos",
    "offer_seats",
    "offer_kinds",
    "discarded",
    "riichi_pos",
    "riichi_double",
    "scores",
    "riichi_accepted",
    "melds",
)
"""``core_lists``' slots in order (``state._TableState.__init__``)."""


_UNSET = object()
"""What ``_slots`` gives for a slot left unset."""


def _slots(t: _TableState) -> dict[str, Any]:
    """Every slot's value (``_UNSET`` for one left unset)."""
    return {name: getattr(t, name, _UNSET) for name in _TableState.__slots__}


def _assert_same_table(core: _TableState, reference: _TableState) -> None:
    """The same class, the same slot values, the same slots unset, and the same sharing:
    ``core_lists`` holds the table's own lists (the core plays on them in place), and no
    two per-seat lists are one object (a move on one seat must not reach another)."""
    assert type(core) is type(reference)
    got, want = _slots(core), _slots(reference)
    assert got.keys() == want.keys()
    for name in want:
        assert type(got[name]) is type(want[name]), name
        assert got[name] == want[name], name
    for j, name in enumerate(_CORE_LIST_SLOTS):
        assert core.core_lists[j] is getattr(core, name), name
    lists = [v for v in got.values() if type(v) is list]
    inner = [x for v in lists for x in v if type(x) is list]
    everything = [*lists, *inner, core.seen]
    assert len({id(v) for v in everything}) == len(everything)


def _tables(game: Game, rules: RuleSet) -> list[tuple[HandLog, _TableState, _TableState]]:
    """Each hand's table by the core and by ``__init__``, with its wall (as replay_game
    finds them), for the hands the core does not decline."""
    source = walls._WallSource(game)
    consts = state._core_constants(game, rules)
    assert consts is not None
    new_table = state.CORE_TABLE
    assert new_table is not None
    out = []
    for hand, wall in zip(game.hands, source.for_hands(game.hands), strict=True):
        core = new_table(table._Table, hand, wall, consts)
        if core is not None:
            out.append((hand, core, table._Table(game, hand, rules, wall)))
    return out


def test_the_core_table_is_the_init_s_on_every_hand_of_the_corpus(
    corpus_games: dict[Path, Game],
) -> None:
    hands = 0
    for game in corpus_games.values():
        rules = rules_for_go_type(game.meta.go_type)
        for hand, core, reference in _tables(game, rules):
            try:
                _assert_same_table(core, reference)
            except AssertionError as exc:
                raise AssertionError((game.meta.source, hand.index)) from exc
            hands += 1
    assert hands > 27_000


@pytest.mark.parametrize("how", ["three seats", "five seats", "no wall", "toutenkou"])
def test_the_core_table_is_the_init_s_for_the_rarer_shapes(how: str) -> None:
    """Deals of other sizes, a hand without a wall, another scoring's live wall."""
    game = first_phoenix_game()
    rules = rules_for_go_type(game.meta.go_type)
    hand = game.hands[0]
    wall = walls._WallSource(game).for_hand(hand)
    assert wall is not None
    if how == "three seats":
        hand = dataclasses.replace(hand, haipai=hand.haipai[:3])
        game = dataclasses.replace(game, meta=dataclasses.replace(game.meta, players=3))
    elif how == "five seats":
        hand = dataclasses.replace(hand, haipai=(*hand.haipai, ()))
    elif how == "no wall":
        wall = None
    else:
        rules = dataclasses.replace(rules, scoring="toutenkou")
    consts = state._core_constants(game, rules)
    assert consts is not None and state.CORE_TABLE is not None
    core = state.CORE_TABLE(table._Table, hand, wall, consts)
    assert core is not None
    _assert_same_table(core, table._Table(game, hand, rules, wall))


def test_the_core_declines_a_deal_with_a_repeat_and_json_logs_get_no_constants() -> None:
    game = first_phoenix_game()
    rules = rules_for_go_type(game.meta.go_type)
    h0, h1, *rest = game.hands[0].haipai
    hand = dataclasses.replace(game.hands[0], haipai=(h0, (h0[0], *h1[1:]), *rest))
    consts = state._core_constants(game, rules)
    assert state.CORE_TABLE is not None
    assert state.CORE_TABLE(table._Table, hand, None, consts) is None
    json = dataclasses.replace(game, meta=dataclasses.replace(game.meta, format="tenhou-json"))
    assert state._core_constants(json, rules) is None


def test_the_table_comparison_fails_for_a_planted_difference() -> None:
    """``_assert_same_table`` can fail: constants with the red fives' flag flipped give
    a table whose ``aka`` differs, and one whose live wall is one tile short."""
    game = first_phoenix_game()
    rules = rules_for_go_type(game.meta.go_type)
    consts = state._core_constants(game, rules)
    assert consts is not None and state.CORE_TABLE is not None
    hand = game.hands[0]
    reference = table._Table(game, hand, rules, None)
    for planted in (
        dataclasses.replace(consts, aka=not consts.aka),
        dataclasses.replace(consts, live=consts.live - 1),
    ):
        core = state.CORE_TABLE(table._Table, hand, None, planted)
        assert core is not None
        with pytest.raises(AssertionError):
            _assert_same_table(core, reference)


def test_the_core_game_loop_replays_as_the_python_loop_on_the_whole_corpus(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(corpus_games) > 2000
    for game in corpus_games.values():
        core_replay._same(game, monkeypatch, _GAME)


def test_the_core_game_loop_replays_as_the_python_loop_on_the_fixtures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for game in fixture_xml_games():
        core_replay._same(game, monkeypatch, _GAME)


def _damage_deals(game: Game, rng: random.Random) -> Game:
    """The game with some deals damaged: a tile dealt twice (the core declines the deal),
    two seats' tiles swapped (no wall matches it: ``_set_table`` owes a finding), or the
    dora indicator changed."""
    hands = []
    for hand in game.hands:
        how = rng.randrange(4)
        h0, h1, *rest = hand.haipai
        if how == 0:
            hand = dataclasses.replace(hand, haipai=(h0, (h0[0], *h1[1:]), *rest))
        elif how == 1:
            hand = dataclasses.replace(hand, haipai=((h1[0], *h0[1:]), (h0[0], *h1[1:]), *rest))
        elif how == 2:
            hand = dataclasses.replace(hand, dora_indicator=(hand.dora_indicator + 1) % 136)
        hands.append(hand)
    return dataclasses.replace(game, hands=tuple(hands))


def test_the_core_game_loop_replays_damaged_games_as_the_python_loop(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(22)
    games = list(corpus_games.values())[6::9]
    fields: set[str] = set()
    for game in games:
        for damage in (_damage_deals, _damage, _damage_riichi, _damage_wins):
            got, want = core_replay._both(damage(game, rng), monkeypatch, _GAME)
            assert got.findings == want.findings, game.meta.source
            assert got.hands == want.hands, game.meta.source
            fields.update(f.field for f in want.findings)
    assert {"tile_duplicate", "wall"} <= fields  # the declined deals and missing walls


def test_the_core_game_loop_is_used_and_builds_every_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a clean game no table is left to ``_set_table``, nor to ``__init__``."""
    game = first_phoenix_game()
    made: list[int] = []
    python_set_table = table._set_table

    def counting(*args: Any) -> Any:
        made.append(args[1].index)
        return python_set_table(*args)

    monkeypatch.setattr(table, "_set_table", counting)
    done = replay_game(game, rules_for_go_type(game.meta.go_type))
    assert len(done.hands) == len(game.hands) > 5
    assert made == []


def test_the_game_comparison_fails_for_a_core_table_with_a_planted_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The equality tests above can fail: tables built with the live wall twenty tiles
    short (so a long hand's late draws find it empty) are caught on the first Phoenix
    game."""
    game = first_phoenix_game()
    real = state._core_constants

    def short(game: Game, rules: RuleSet) -> state.TableConstants | None:
        consts = real(game, rules)
        assert consts is not None
        return dataclasses.replace(consts, live=consts.live - 20)

    monkeypatch.setattr(table, "_core_constants", short)
    with pytest.raises(AssertionError):
        core_replay._same(game, monkeypatch, _GAME)


def test_arguments_the_core_game_loop_cannot_use_are_an_error_not_a_crash() -> None:
    run = table.CORE_GAME
    new_table = state.CORE_TABLE
    assert run is not None and new_table is not None
    game = first_phoenix_game()
    consts = state._core_constants(game, rules_for_go_type(game.meta.go_type))
    args: list[Any] = [table._Table, game.hands, [None] * len(game.hands), None]
    rest: list[Any] = [
        None,
        consts,
        table.RunArgs(None, None, None, table._RUN_CLASSES, 1000, True),
    ]  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        run(*args[:2], [None], *args[3:], *rest)  # walls not one per hand
    with pytest.raises(TypeError):
        run(*args, *rest[:-1], table.RunArgs(None, None, None, (), 1000, True))  # type: ignore[arg-type]  # classes
    with pytest.raises(TypeError):
        run(*args)
    with pytest.raises(TypeError):
        new_table(table._Table, game.hands[0], None, ())
    assert new_table(object, game.hands[0], None, consts) is None  # not a table class
