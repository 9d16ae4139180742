"""``tile_duplicate``: the replayer's record of the tile ids met so far.

XML logs carry copy numbers, so an id that comes back (dealt twice, drawn after
it was dealt or drawn, shown again as a dora indicator) is a fifth copy.  The
record is a byte per tile id (it was a bit mask, then a set); these tests pin what
it reports: one finding per repeat, in log order, with its place, and nothing
for JSON logs (no copy numbers there).
"""

from __future__ import annotations

from replay_audit.model.events import Discard, Draw, Game, GameMeta, HandLog, NewDora, RecordedDraw
from replay_audit.model.rules.presets import TENHOU_4P
from replay_audit.replay.table import replay_game

HAIPAI = tuple(tuple(range(13 * s, 13 * s + 13)) for s in range(4))
DORA = 60


def _game(events: tuple, haipai=HAIPAI, fmt: str = "tenhou-xml") -> Game:
    hand = HandLog(
        index=0,
        seq=4,
        round_index=0,
        honba=0,
        sticks=0,
        dealer=0,
        scores=(25000,) * 4,
        haipai=haipai,
        dora_indicator=DORA,
        events=(*events, RecordedDraw(seq=99, kind="yao9")),
    )
    return Game(GameMeta("t.xml", None, fmt, 4), (), (hand,))


def _duplicates(game: Game) -> list[tuple[str, int | None]]:
    findings = replay_game(game, TENHOU_4P, use_wall=False).findings
    return [(f.message, f.seq) for f in findings if f.field == "tile_duplicate"]


def test_a_clean_hand_has_no_duplicate() -> None:
    assert _duplicates(_game((Draw(5, 0, 52), Discard(6, 0, 52, True)))) == []


def test_a_draw_of_a_dealt_tile() -> None:
    game = _game((Draw(5, 0, 14), Discard(6, 0, 14, True)))
    assert _duplicates(game) == [("tile 14 appears twice", 5)]


def test_a_draw_of_the_dora_indicator_and_a_tile_drawn_before() -> None:
    events = (
        Draw(5, 0, 52),
        Discard(6, 0, 52, True),
        Draw(7, 1, DORA),
        Discard(8, 1, DORA, True),
        Draw(9, 2, 52),
        Discard(10, 2, 52, True),
    )
    assert _duplicates(_game(events)) == [
        (f"tile {DORA} appears twice", 7),
        ("tile 52 appears twice", 9),
    ]


def test_a_new_dora_indicator_already_seen() -> None:
    game = _game((Draw(5, 0, 52), NewDora(6, 52), Discard(7, 0, 52, True)))
    assert ("tile 52 appears twice", 6) in _duplicates(game)


def test_each_repeat_in_the_deal_is_named_once() -> None:
    haipai = (HAIPAI[0], (0, *HAIPAI[1][1:]), (1, *HAIPAI[2][1:]), (0, *HAIPAI[3][1:]))
    assert _duplicates(_game((), haipai)) == [
        ("tile 0 dealt twice", 4),
        ("tile 1 dealt twice", 4),
        ("tile 0 dealt twice", 4),
    ]


def test_ids_outside_the_deal_range_are_tracked_too() -> None:
    # The record holds any id (the mask it replaced did too, for non-negative ids).
    events = (Draw(5, 0, 200), Discard(6, 0, 200, True), Draw(7, 1, 200))
    assert _duplicates(_game(events)) == [("tile 200 appears twice", 7)]


def test_json_logs_have_no_copy_numbers() -> None:
    game = _game((Draw(5, 0, 14), Discard(6, 0, 14, True)), fmt="tenhou-json")
    assert _duplicates(game) == []
