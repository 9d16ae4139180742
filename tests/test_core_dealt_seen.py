"""The tiles the replay has met (``replay.state._TableState.seen``, a byte per tile id)
as the core fills them at the deal (``_core.dealt_seen``) against the Python loop of
``_TableState.__init__``, the reference: the same bytes and findings on every hand of
the shared corpus, and on deals with a tile twice or an id that does not exist (the
core declines those and the loop names each repeat).  ``tests/test_core_replay.py``
holds the whole replay equal with the core's shares (this one among them) and without
them; here a core that marks one tile too many is shown to be caught by it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from replay_audit.model.events import Draw, Game, HandLog, NewDora
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.replay import state
from replay_audit.replay.state import _TableState
from replay_audit.replay.table import replay_game
from tests.replay_games import first_phoenix_game

pytestmark = pytest.mark.skipif(state.DEALT_SEEN is None, reason="no compiled core")


def _tables(game: Game, hand: HandLog, monkeypatch: pytest.MonkeyPatch) -> tuple[_TableState, ...]:
    """The hand's table set up with the core's deal and with the Python loop's."""
    rules = rules_for_go_type(game.meta.go_type)
    core = _TableState(game, hand, rules, None)
    with monkeypatch.context() as m:
        m.setattr(state, "DEALT_SEEN", None)
        reference = _TableState(game, hand, rules, None)
    return core, reference


def test_the_core_deal_is_the_reference_s_on_the_whole_corpus(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = 0
    for game in corpus_games.values():
        for hand in game.hands:
            core, reference = _tables(game, hand, monkeypatch)
            assert core.seen == reference.seen, (game.meta.source, hand.index)
            assert core.findings == reference.findings
            assert core.seen_other is None and reference.seen_other is None
            hands += 1
    assert hands > 20_000


@pytest.mark.parametrize(
    "change",
    ["tile dealt twice", "dora dealt", "id 136", "negative id", "a seat's two repeats"],
)
def test_a_bad_deal_is_left_to_the_loop_which_names_each_repeat(
    change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = first_phoenix_game()
    hand = game.hands[0]
    h0, h1, *rest = hand.haipai
    if change == "tile dealt twice":
        hand = dataclasses.replace(hand, haipai=(h0, (h0[0], *h1[1:]), *rest))
    elif change == "dora dealt":
        hand = dataclasses.replace(hand, dora_indicator=h1[3])
    elif change == "id 136":
        hand = dataclasses.replace(hand, haipai=((136, *h0[1:]), h1, *rest))
    elif change == "negative id":
        hand = dataclasses.replace(hand, haipai=((-1, *h0[1:]), h1, *rest))
    else:
        hand = dataclasses.replace(hand, haipai=(h0, (h0[0], h0[1], *h1[2:]), *rest))
    assert state.DEALT_SEEN is not None
    assert state.DEALT_SEEN(hand.haipai, hand.dora_indicator) is None
    core, reference = _tables(game, hand, monkeypatch)
    assert core.seen == reference.seen
    assert core.findings == reference.findings
    repeats = [f for f in core.findings if f.field == "tile_duplicate"]
    assert len(repeats) == (2 if change == "a seat's two repeats" else 0 if "id" in change else 1)


def test_an_id_outside_the_tiles_is_met_once_then_repeated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ``Game`` built by hand may hold an id outside 0-135: it is kept apart and a
    second meeting of it is a repeat, as any other tile's."""
    game = first_phoenix_game()
    hand = game.hands[0]
    events = (NewDora(seq=1, indicator=200), NewDora(seq=2, indicator=200), *hand.events)
    hand = dataclasses.replace(hand, events=events)
    game = dataclasses.replace(game, hands=(hand,))
    got = replay_game(game, rules_for_go_type(game.meta.go_type))
    repeats = [f for f in got.findings if f.field == "tile_duplicate"]
    assert [f.seq for f in repeats] == [2]


def test_the_replay_comparison_fails_for_a_deal_with_a_tile_too_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A core that marks one tile more than was dealt (the first tile the game draws):
    the replay then finds a repeat the reference does not, and
    ``tests/test_core_replay.py``'s comparison says so."""
    from tests.test_core_replay import _same

    game = first_phoenix_game()
    first = next(ev for ev in game.hands[0].events if type(ev) is Draw)
    real = state.DEALT_SEEN
    assert real is not None

    def one_too_many(haipai: tuple[tuple[int, ...], ...], dora: int) -> bytearray | None:
        seen = real(haipai, dora)
        if seen is not None:
            seen[first.tile] = 1
        return seen

    monkeypatch.setattr(state, "DEALT_SEEN", one_too_many)
    with pytest.raises(AssertionError):
        _same(game, monkeypatch)
