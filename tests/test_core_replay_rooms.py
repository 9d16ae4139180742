"""The rooms the compiled core's hand loop (``_core.run_hand``, ``run_game``) makes
itself where they find nothing: an exhaustive or abortive draw
(``_Results._draw_result``; a triple ron stays the Python's), a chi, pon or daiminkan
outside the core's runs with its pao (``_Calls._open_call``), an ankan and a kakan
(``_ankan``, ``_kakan``), a kan dora indicator (``_Moves._new_dora``) and the
replacement draw after a kan (``_moves``, inside the core's ``play_moves``).  They give
exactly the replay that the Python rooms, their reference, give: on corpus games whose
draws, calls and dora indicators were damaged at random (so the core meets every case
it must leave to the room: a draw with live tiles, shown hands that are not the tenpai
ones or not the seat's own, another abortive kind, calls out of turn, of tiles not held
or of no discard, in riichi, a fifth kan, a dora indicator with no kan due or seen
before), and on the whole
corpus through ``tests/test_core_replay.py``.  Clean games make none of those Python
calls, and the comparison is shown to fail for a room that computes otherwise.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import Call, Game, NewDora, RecordedDraw
from replay_audit.model.meld import MeldKind
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.replay import calls, results, table
from replay_audit.replay.table import replay_game
from tests import test_core_replay as core_replay

pytestmark = pytest.mark.skipif(table.CORE_GAME is None, reason="no compiled core")

_KANS = (MeldKind.ANKAN, MeldKind.KAKAN)
_DRAW_KINDS = ("exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4")


def _rooms_game(corpus_games: dict[Path, Game]) -> Game:
    """The first corpus game with an exhaustive draw, an ankan and a kakan (four players)."""
    for game in corpus_games.values():
        events = [ev for h in game.hands for ev in h.events]
        kinds = {ev.meld.kind for ev in events if type(ev) is Call}
        draws = {ev.kind for ev in events if type(ev) is RecordedDraw}
        if "exhaustive" in draws and set(_KANS) <= kinds and game.meta.players == 4:
            return game
    pytest.skip("no corpus game with an exhaustive draw, an ankan and a kakan")


def _phoenix_games(corpus_games: dict[Path, Game]) -> list[Game]:
    """The clean Phoenix games of the corpus (four players, no finding expected)."""
    games = [g for p, g in corpus_games.items() if "phoenix" in str(p)]
    if len(games) < 100:
        pytest.skip("the Phoenix games of the shared corpus are needed")
    return games


def test_clean_games_make_their_draws_calls_and_kan_dora_in_the_core(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On clean games no draw result, call, kan dora indicator or plain move goes to
    its Python room: the core made them all (and the games hold every kind of them)."""
    games = _phoenix_games(corpus_games)[:400]
    called: list[str] = []
    python = {n: getattr(table._Table, n) for n in ("_draw_result", "_call", "_new_dora", "_moves")}

    def draw_result(self: Any, r: RecordedDraw) -> Any:
        called.append(f"draw {r.kind}")
        return python["_draw_result"](self, r)

    def call(self: Any, ev: Call) -> None:
        called.append(f"call {ev.meld.kind}")
        python["_call"](self, ev)

    def new_dora(self: Any, ev: NewDora) -> None:
        called.append("new dora")
        python["_new_dora"](self, ev)

    def moves(self: Any, *args: Any) -> int:
        called.append("moves")
        got: int = python["_moves"](self, *args)
        return got

    monkeypatch.setattr(table._Table, "_draw_result", draw_result)
    monkeypatch.setattr(table._Table, "_call", call)
    monkeypatch.setattr(table._Table, "_new_dora", new_dora)
    monkeypatch.setattr(table._Table, "_moves", moves)
    met: set[str] = set()
    for game in games:
        done = replay_game(game, rules_for_go_type(game.meta.go_type))
        assert done.findings == (), game.meta.source
        for ev in (ev for h in game.hands for ev in h.events):
            if type(ev) is Call:
                met.add(str(ev.meld.kind))
            elif type(ev) is RecordedDraw:
                met.add(ev.kind)
            elif type(ev) is NewDora:
                met.add("new dora")
    assert {"chi", "pon", "daiminkan", "ankan", "kakan", "exhaustive", "yao9", "new dora"} <= met
    assert called == []


def _is_room(ev: object) -> bool:
    """Whether ``ev`` goes to one of the rooms the core now makes (a chi or pon also
    inside the core's runs)."""
    return type(ev) in (NewDora, RecordedDraw, Call)


def _damage_rooms(game: Game, rng: random.Random) -> Game:
    """The game with some of its draws, calls and dora indicators damaged: a draw moved
    before the move it followed (or earlier), its shown hands cut or given to another
    seat, a shown tile made another copy of its kind, or of another kind; a call given
    to another seat, moved, repeated, dropped, with a tile of another kind, (kakan)
    another added tile or from another seat; a dora indicator dropped, repeated, moved
    or of another tile."""
    hands = []
    for hand in game.hands:
        events = list(hand.events)
        rooms = [i for i, ev in enumerate(events) if _is_room(ev)]
        for i in sorted(rng.sample(rooms, min(len(rooms), rng.randrange(3))), reverse=True):
            ev: Any = events[i]
            if not _is_room(ev):  # (an event moved here by the damage before)
                continue
            how = rng.randrange(5)
            if how == 0 and i > 0:  # before the move it followed, or a few moves earlier
                events.insert(max(0, i - rng.choice((1, 5))), events.pop(i))
            elif type(ev) is RecordedDraw:
                shown = ev.shown or ()
                if how == 1:
                    events[i] = dataclasses.replace(ev, shown=shown[1:])
                elif how == 2:
                    events[i] = dataclasses.replace(ev, kind=rng.choice(_DRAW_KINDS))
                elif how == 3 or not shown or not shown[0][1]:
                    moved = tuple(((s + 1) % 4, tiles) for s, tiles in shown)
                    events[i] = dataclasses.replace(ev, shown=moved)
                else:  # a shown tile another copy of its kind
                    (s, tiles), *rest = shown
                    tiles = (tiles[0] ^ rng.choice((1, 2, 3)), *tiles[1:])
                    events[i] = dataclasses.replace(ev, shown=((s, tiles), *rest))
            elif type(ev) is NewDora:
                if how == 1:
                    del events[i]
                elif how == 2:
                    events.insert(i, ev)
                else:
                    events[i] = dataclasses.replace(ev, indicator=rng.randrange(136))
            elif how == 1:
                events[i] = dataclasses.replace(ev, seat=(ev.seat + 1) % 4)
            elif how == 2:
                events.insert(i, ev)
            elif how == 3:
                tiles = (ev.meld.tiles[0] ^ 4, *ev.meld.tiles[1:])
                added = rng.randrange(136) if ev.meld.added is not None else None
                frm = rng.choice((ev.meld.from_seat, rng.randrange(4)))
                meld = dataclasses.replace(ev.meld, tiles=tiles, added=added, from_seat=frm)
                events[i] = dataclasses.replace(ev, meld=meld)
            else:
                del events[i]
        hands.append(dataclasses.replace(hand, events=tuple(events)))
    return dataclasses.replace(game, hands=tuple(hands))


def test_the_core_rooms_play_damaged_draws_kans_and_dora_as_the_reference(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(23)
    games = list(corpus_games.values())[1::5]
    found: set[str] = set()
    for game in games:
        damaged = _damage_rooms(game, rng)
        got, want = core_replay._both(damaged, monkeypatch)
        assert got.findings == want.findings, game.meta.source
        assert got.hands == want.hands, game.meta.source
        found.update(f.field for f in want.findings)
    # the damage did reach each room's checks
    assert {"tenpai", "draw_wall_not_empty", "dora_timing", "tile_duplicate", "shown_hand"} <= found
    assert {"call_out_of_turn", "call_not_held", "call_not_last_discard"} <= found


def test_the_comparison_fails_for_a_draw_whose_tenpai_differs(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The draws the core makes are held to the reference: a reference room that finds
    every seat noten differs from the core's draws on a game with a tenpai seat."""
    game = _rooms_game(corpus_games)
    monkeypatch.setattr(results, "hands_tenpai", lambda hands: (False,) * len(hands))
    got, want = core_replay._both(game, monkeypatch)
    assert any(any(r.draw.tenpai) for h in got.hands for r in h.results if r.draw is not None)
    assert (got.hands, got.findings) != (want.hands, want.findings)


def test_the_comparison_fails_for_a_kan_whose_dora_differs(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kans the core makes are held to the reference: a reference whose kakan owes
    no kan dora differs from the core's kans on a game with a kakan."""
    game = _rooms_game(corpus_games)
    monkeypatch.setattr(calls._Calls, "_open_kan_dora", lambda self: None)
    got, want = core_replay._both(game, monkeypatch)
    assert (got.hands, got.findings) != (want.hands, want.findings)
