"""The compiled core's share of a hand's end (``_core.win_checks``: a win's own checks
when they find nothing) and of its values (``_core.make_value``: the replay's frozen
values made without their ``__init__``) against the Python they replace.

``tests/test_core_replay.py`` holds the whole replay with the core equal to the replay
without it over the shared corpus (its ``_both`` switches off these two as well); here
each share is held to its reference on its own, and each comparison is shown to fail
for a core that gets it wrong.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from replay_audit.model.events import Game, RecordedWin
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.replay import results, values
from replay_audit.replay.table import replay_game
from replay_audit.replay.values import GameReplay, HandReplay, ResultReplay
from replay_audit.replay.walls import _HandWall
from replay_audit.scoring.context import DrawContext, WinContext
from tests.replay_games import first_phoenix_game

make_value = getattr(values._core, "make_value", None) if values._core is not None else None
pytestmark = pytest.mark.skipif(
    make_value is None or results.CORE_WIN_CHECKS is None, reason="no compiled core"
)


def _reference(game: Game, monkeypatch: pytest.MonkeyPatch) -> GameReplay:
    rules = rules_for_go_type(game.meta.go_type)
    with monkeypatch.context() as m:
        m.setattr(results, "CORE_WIN_CHECKS", None)
        m.setattr(values, "MAKE", values._py_make)
        return replay_game(game, rules)


# ------------------------------------------------------------------ make_value


def _sample(cls: type) -> tuple[object, ...]:
    """A distinct value per field (so a field set in another's place shows)."""
    return tuple((i, f.name) for i, f in enumerate(dataclasses.fields(cls)))


@pytest.mark.parametrize(
    "cls", [WinContext, DrawContext, ResultReplay, HandReplay, GameReplay, _HandWall]
)
def test_make_value_gives_what_the_class_gives(cls: type) -> None:
    assert make_value is not None
    fields = _sample(cls)
    made = make_value(cls, *fields)
    want = cls(*fields)
    assert type(made) is cls
    assert made == want and hash(made) == hash(want) and repr(made) == repr(want)
    assert all(
        getattr(made, f.name) is v for f, v in zip(dataclasses.fields(cls), fields, strict=True)
    )


def test_the_replay_gives_every_field_in_the_class_order() -> None:
    """The replay calls ``MAKE`` positionally: these are the orders it was written for
    (a field added or moved in these classes must be added to its calls too)."""
    names = {cls: [f.name for f in dataclasses.fields(cls)] for cls in (WinContext, HandReplay)}
    assert names[WinContext] == [
        "tiles", "melds", "win_tile", "tsumo", "seat", "dealer", "round_wind", "players",
        "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan",
        "tenhou", "chiihou", "renhou", "dora_indicators", "ura_indicators", "honba",
        "gari_seen",
    ]  # fmt: skip
    assert names[HandReplay] == [
        "hand", "results", "findings", "riichi_accepted", "dora_indicators", "ura_source",
        "sticks", "scores",
    ]  # fmt: skip
    assert [f.name for f in dataclasses.fields(ResultReplay)] == [
        "result", "win", "draw", "abort_ok", "pao",
    ]  # fmt: skip
    assert [f.name for f in dataclasses.fields(DrawContext)] == [
        "tenpai", "nagashi", "dealer", "players",
    ]  # fmt: skip


def test_make_value_refuses_what_it_cannot_make_as_init_would() -> None:
    assert make_value is not None

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            raise ValueError

    @dataclasses.dataclass(frozen=True, slots=True)
    class KeywordOnly:
        a: int
        b: int = dataclasses.field(default=0, kw_only=True)

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    class Plain:
        __slots__ = ("a",)

    for cls in (Checked, KeywordOnly, NoSlots, Plain, int):
        with pytest.raises(TypeError):
            make_value(cls, 1)
    with pytest.raises(TypeError):
        make_value(DrawContext, (), ())  # every field, not the defaults
    with pytest.raises(TypeError):
        make_value(DrawContext, (), (), 0, 4, 5)
    with pytest.raises(TypeError):
        make_value()  # type: ignore[call-arg]


def test_the_comparison_fails_for_a_maker_that_swaps_two_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = first_phoenix_game()
    want = _reference(game, monkeypatch)
    real = values.MAKE

    def swapping(cls: Any, *fields: Any) -> Any:
        if cls is WinContext:
            fields = (*fields[:4], fields[5], fields[4], *fields[6:])  # seat, dealer
        return real(cls, *fields)

    monkeypatch.setattr(values, "MAKE", swapping)
    got = replay_game(game, rules_for_go_type(game.meta.go_type))
    assert got.hands != want.hands


# ------------------------------------------------------------------ win_checks


def test_win_checks_say_clean_only_where_the_python_finds_nothing(
    corpus_games: dict[Any, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On every win of the corpus, and on each with its shown hand, winning tile or
    dora changed: the core says clean exactly where the Python checks it replaces
    (furiten, completeness, ``_check_win``) find nothing, and it says clean for nearly
    every real win (else it would save nothing)."""
    checks = results.CORE_WIN_CHECKS
    assert checks is not None
    seen = {"clean": 0, "wins": 0, "damaged": 0}

    def python(table: Any, args: tuple[Any, ...]) -> bool:
        """Whether the Python checks find nothing (the findings are taken back)."""
        s, tiles, win_tile, ron, win, melds, dora, ura, riichi, _ = args
        before = len(table.findings)
        if ron:
            table._check_furiten(s, win.seq, [*tiles][:-1])
        if not results.is_complete_tiles(list(tiles)):
            table.findings.append("incomplete")
        table._check_win(win, list(tiles), melds, win_tile, dora, ura, riichi)
        found = len(table.findings) > before
        del table.findings[before:]
        return not found

    def both(table: Any, *args: Any) -> bool:
        said = checks(table, *args)
        assert said == python(table, args), (table.game.meta.source, table.hand.label)
        seen["wins"] += 1
        seen["clean"] += said
        win = args[4]
        for other in (
            dataclasses.replace(win, hand=(*win.hand[:-1], (win.hand[-1] + 1) % 136)),
            dataclasses.replace(win, win_tile=(args[2] + 4) % 136),
            dataclasses.replace(win, dora=(*win.dora, 0)),
        ):
            if other.hand and other.dora and other.win_tile is not None:
                changed = (*args[:4], other, *args[5:])
                assert checks(table, *changed) == python(table, changed)
                seen["damaged"] += 1
        return said

    monkeypatch.setattr(results, "CORE_WIN_CHECKS", both)
    for game in corpus_games.values():
        replay_game(game, rules_for_go_type(game.meta.go_type))
    assert seen["wins"] > 20000
    assert seen["clean"] > seen["wins"] * 0.99
    assert seen["damaged"] > 60000


def test_the_comparison_fails_for_win_checks_that_pass_every_win(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A core that calls every win clean is caught on a game whose first win shows
    another hand than the moves made."""
    game = first_phoenix_game()
    h, i = next(
        (h, i)
        for h, hand in enumerate(game.hands)
        for i, ev in enumerate(hand.events)
        if type(ev) is RecordedWin
    )
    hand = game.hands[h]
    win: Any = hand.events[i]
    shown = (*win.hand[:-1], (win.hand[-1] + 4) % 136)
    events = (*hand.events[:i], dataclasses.replace(win, hand=shown), *hand.events[i + 1 :])
    hands = list(game.hands)
    hands[h] = dataclasses.replace(hand, events=events)
    game = dataclasses.replace(game, hands=tuple(hands))
    want = _reference(game, monkeypatch)
    assert any(f.field == "hand" for f in want.findings)
    assert replay_game(game, rules_for_go_type(game.meta.go_type)).findings == want.findings
    monkeypatch.setattr(results, "CORE_WIN_CHECKS", lambda *args: True)
    got = replay_game(game, rules_for_go_type(game.meta.go_type))
    assert got.findings != want.findings
