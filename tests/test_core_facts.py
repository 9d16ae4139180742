"""The compiled core's hand scan for the statistics (``_core.hand_scan``) gives the
values the reference (``stats.scan.py_scan_hand``) gives, on every hand of the
shared corpus, on the JSON fixtures, and on corpus games whose events were damaged
at random (dropped, repeated, moved to another seat, given another tile: so the
core meets the cases it declines and the riichi waits it cannot rebuild); and the
facts are the same rows with the core and without it.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from pathlib import Path
from typing import Any

import pytest

from replay_audit.model.events import (
    ABORTIVE_KINDS,
    Call,
    Discard,
    Draw,
    Game,
    GameMeta,
    HandLog,
    RecordedDraw,
    RiichiDeclare,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.parsers.tenhou_json import parse_tenhou_json
from replay_audit.stats import facts, scan
from replay_audit.stats.facts import hand_facts
from tests.conftest import FIXTURES

# the module, not the function ``replay_audit.stats`` re-exports under its name
game_facts_module = importlib.import_module("replay_audit.stats.game_facts")

pytestmark = pytest.mark.skipif(
    scan.CORE_SCAN is None or facts.CORE_ROWS is None, reason="no compiled core"
)
_SCAN_ARGS = (scan.EVENT_CLASSES, scan.MELD_KINDS)


def _core(hand: HandLog, n: int) -> scan.HandScan | None:
    core = scan.CORE_SCAN
    assert core is not None
    return core(hand.events, n, hand.haipai, scan._CLASSES, scan._KINDS)


def _same(game: Game) -> int:
    """Check every hand of ``game``; the number of hands the core declined."""
    n = game.meta.players
    declined = 0
    for hand in game.hands:
        got = _core(hand, n)
        if got is None:
            declined += 1
            continue
        assert got == scan.py_scan_hand(hand, n), (game.meta.source, hand.index)
    return declined


def _damage(game: Game, rng: random.Random) -> Game:
    """The game with a few events of each hand damaged: any event dropped or
    repeated elsewhere, a seat moved on, a tile changed (a copy of the same kind,
    or any id)."""
    hands = []
    for hand in game.hands:
        events: list[Any] = list(hand.events)
        for _ in range(rng.randrange(5)):
            if not events:
                break
            i = rng.randrange(len(events))
            ev = events[i]
            how = rng.randrange(5)
            if how == 0:
                del events[i]
            elif how == 1:
                events.insert(rng.randrange(len(events) + 1), ev)
            elif how == 2 and hasattr(ev, "seat"):
                events[i] = dataclasses.replace(ev, seat=(ev.seat + 1) % 4)
            elif how == 3 and hasattr(ev, "tile"):
                events[i] = dataclasses.replace(ev, tile=ev.tile ^ rng.randrange(1, 4))
            elif how == 4 and hasattr(ev, "tile"):
                events[i] = dataclasses.replace(ev, tile=rng.randrange(136))
        hands.append(dataclasses.replace(hand, events=tuple(events)))
    return dataclasses.replace(game, hands=tuple(hands))


def _facts_without_core(game: Game, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    with monkeypatch.context() as m:
        m.setattr(scan, "CORE_SCAN", None)
        m.setattr(facts, "CORE_ROWS", None)
        return hand_facts(game)


def _items(rows: list[dict[str, Any]]) -> list[list[tuple[str, Any, type]]]:
    """The rows as their (key, value, type) in order: equal rows with a key moved,
    or a True where 1 was, differ here."""
    return [[(k, v, type(v)) for k, v in r.items()] for r in rows]


def _ctx(n: int) -> tuple[Any, ...]:
    """A ``game_rows`` context for a table of ``n`` seats named a, b, c, d."""
    return (facts._ROW, ("a", "b", "c", "d")[:n], 1000, *_SCAN_ARGS, facts._KEYS, ABORTIVE_KINDS)


def _rows_declined(game: Game) -> int:
    """How many hands of ``game`` the core's ``game_rows`` declines."""
    core = facts.CORE_ROWS
    assert core is not None
    declined: list[HandLog] = []
    core(game.hands, game.meta.players, _ctx(game.meta.players), lambda h: declined.append(h) or [])
    return len(declined)


def test_the_core_scans_hands_as_the_reference_on_the_whole_corpus(
    corpus_games: dict[Path, Game],
) -> None:
    assert len(corpus_games) > 2000
    hands = sum(len(g.hands) for g in corpus_games.values())
    declined = sum(_same(game) for game in corpus_games.values())
    assert declined < hands * 0.05  # the core does scan (a riichi after a call: Python)


def test_the_core_scans_damaged_hands_as_the_reference(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(19)
    games = list(corpus_games.values())[::5]
    unknown_waits = 0
    for game in games:
        damaged = _damage(game, rng)
        _same(damaged)
        for hand in damaged.hands:
            seats = scan.py_scan_hand(hand, damaged.meta.players)[0]
            unknown_waits += sum(1 for f in seats if f is not None and f[0] and f[2] is None)
    assert unknown_waits > 0  # the damage did reach the rebuilt waits
    for game in games:
        damaged = _damage(game, rng)
        assert _items(hand_facts(damaged)) == _items(_facts_without_core(damaged, monkeypatch))


def test_the_core_writes_the_rows_of_the_reference_on_the_whole_corpus(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``_core.hand_rows`` gives ``_facts_for_hand``'s rows: the same keys in the same
    order, the same values of the same types, for every hand of the corpus."""
    assert len(corpus_games) > 2000
    hands = sum(len(g.hands) for g in corpus_games.values())
    declined = 0
    for path, game in corpus_games.items():
        assert _items(hand_facts(game)) == _items(_facts_without_core(game, monkeypatch)), path
        declined += _rows_declined(game)
    assert declined < hands * 0.05  # the core does write (a nagashi mangan: Python)


def test_the_facts_are_the_same_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(FIXTURES.glob("json_*.json"))
    assert paths
    for p in paths:
        game = parse_tenhou_json(p.read_bytes(), str(p))
        _same(game)
        got = hand_facts(game)
        want = _facts_without_core(game, monkeypatch)
        assert _items(got) == _items(want)


def _hand(events: tuple[Any, ...]) -> HandLog:
    deal = tuple(range(0, 52, 4))  # 1-9m 1-4p, one of each
    return HandLog(0, 0, 0, 0, 0, 0, (25000,) * 4, (deal,) * 4, 0, events=events)


def test_the_core_declines_what_python_must_answer() -> None:
    riichi = (Draw(0, 0, 52), RiichiDeclare(1, 0), Discard(2, 0, 48, False))
    # seat 0 declared first, after no discard, and waits on one kind (4p)
    want: scan.HandScan = (
        [(1, 1, 1, False, False, False, 0, None, False), None, None, None],
        1,
        [],
        [],
        [bytes(range(0, 52, 4)).hex()] * 4,
    )
    assert _core(_hand(riichi), 4) == want
    assert scan.py_scan_hand(_hand(riichi), 4) == want
    # a seat that is not a plain int, and a tile id outside 0-135: Python answers
    assert _core(_hand((Discard(0, -1, 4, False),)), 4) is None
    assert _core(_hand((Draw(0, 0, 136),)), 4) is None
    # a dealt tile id wider than a C long: declined, with no OverflowError left set
    wide = dataclasses.replace(_hand(()), haipai=((1 << 70, *range(12)),) * 4)
    assert _core(wide, 4) is None
    # an open call before the riichi discard: Python rebuilds the concealed tiles
    pon = Call(0, 0, Meld(MeldKind.PON, (0, 1, 2), 1, 1))
    assert _core(_hand((pon, *riichi)), 4) is None


def test_the_core_takes_an_ankan_or_kita_before_a_riichi() -> None:
    """The tiles of an ankan or a kita leave the seat's concealed tiles, in the core as in
    ``riichi_wait_kinds``: the waits after it counted, or unknown where the seat did not
    hold them (the core took neither before, and Python answered every such hand)."""
    deal = (0, 1, 2, 3, 4, 8, 12, 16, 20, 24, 28, 32, 36)  # 1111m 2345678m 9m 1p
    rest = tuple(range(40, 92, 4))
    kan = Call(1, 0, Meld(MeldKind.ANKAN, (0, 1, 2, 3), None, None))
    kita = Call(1, 0, Meld(MeldKind.KITA, (0,), None, None))
    after = (RiichiDeclare(3, 0), Discard(4, 0, 36, False))
    for meld, n in ((kan, 4), (kita, 3)):
        for tiles in (deal, rest):  # held, then not held (unknown: None)
            hand = dataclasses.replace(_hand(()), haipai=(tiles,) + (rest,) * 3)
            hand = dataclasses.replace(hand, events=(Draw(0, 0, 5), meld, Draw(2, 0, 9), *after))
            want = scan.py_scan_hand(hand, n)
            assert _core(hand, n) == want
            seat = want[0][0]
            assert seat is not None and (seat[2] is None) == (tiles is rest)
    # a meld kind that is not a MeldKind member: Python compares it
    odd = Call(0, 1, Meld("pon", (0, 1, 2), 0, 0))  # type: ignore[arg-type]  # on purpose
    assert _core(_hand((odd,)), 4) is None


def test_the_comparison_fails_for_a_core_that_scans_differently(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The equality tests above can fail: a core that counts one riichi
    declaration too few is caught on the first phoenix game."""
    game = next(g for p, g in corpus_games.items() if "phoenix" in str(p))
    core = scan.CORE_SCAN
    assert core is not None

    def short(*args: Any) -> Any:
        got = core(*args)
        if got is None:
            return None
        seats, declared, wins, draws, dealt = got
        return seats, max(0, declared - 1), wins, draws, dealt

    monkeypatch.setattr(scan, "CORE_SCAN", short)
    with pytest.raises(AssertionError):
        _same(game)


def test_the_comparison_fails_for_a_core_that_keeps_an_ankan_s_tiles(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus-wide equality reaches the hands with an ankan before a riichi, which
    the core now answers: a core that counts the waits after one as one more than
    Python (as keeping the kan's tiles could) is caught."""
    core = scan.CORE_SCAN
    assert core is not None

    def ankan_seats(events: tuple[Any, ...]) -> set[int]:
        return {ev.seat for ev in events if type(ev) is Call and ev.meld.kind is MeldKind.ANKAN}

    def off(events: tuple[Any, ...], *args: Any) -> Any:
        got = core(events, *args)
        if got is None:
            return None
        seats, *rest = got
        kan = ankan_seats(events)
        seats = [
            f if f is None or s not in kan or f[2] is None else (*f[:2], f[2] + 1, *f[3:])
            for s, f in enumerate(seats)
        ]
        return (seats, *rest)

    games = [
        g
        for g in corpus_games.values()
        if any(
            any(type(ev) is RiichiDeclare and ev.seat in ankan_seats(h.events) for ev in h.events)
            for h in g.hands
        )
    ]
    assert games  # the corpus has riichi hands with an ankan
    monkeypatch.setattr(scan, "CORE_SCAN", off)
    with pytest.raises(AssertionError):
        for game in games:
            _same(game)


def test_the_core_rows_decline_what_python_must_write() -> None:
    """A nagashi mangan and a draw without shown hands (JSON) are left to Python's
    rows (the fallback), and a wrong ``ctx`` is refused."""
    core = facts.CORE_ROWS
    assert core is not None
    moves = (Draw(0, 0, 52), Discard(1, 0, 52, False))

    def rows(*results: Any) -> list[Any] | None:
        return core((_hand((*moves, *results)),), 4, _ctx(4), lambda h: ["python"])

    got = rows()
    assert got is not None and [r["result"] for r in got] == ["none"] * 4
    assert rows(RecordedDraw(2, "nm")) == ["python"]
    assert rows(RecordedDraw(2, "exhaustive", shown=None)) == ["python"]
    drawn = rows(RecordedDraw(2, "exhaustive", shown=((1, ()),)))
    assert drawn is not None and [r["tenpai_at_draw"] for r in drawn] == [False, True, False, False]
    assert core((_hand(moves),), 5, _ctx(4), lambda h: ["python"]) is None  # 5 seats
    moved = list(facts._KEYS)
    moved[3], moved[4] = moved[4], moved[3]
    with pytest.raises(TypeError, match="column 3"):
        core((), 4, (*_ctx(4)[:5], tuple(moved), ABORTIVE_KINDS), lambda h: [])


def test_the_row_comparison_fails_for_a_core_that_writes_differently(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row equality above can fail: a core that writes ``won`` as an int (equal
    to the bool, another type) or moves ``chased`` to the end is caught."""
    game = next(g for p, g in corpus_games.items() if "phoenix" in str(p))
    core = facts.CORE_ROWS
    assert core is not None
    want = _items(_facts_without_core(game, monkeypatch))

    def typed(*args: Any) -> Any:
        rows = core(*args)
        for r in rows or ():
            r["won"] = int(r["won"])
        return rows

    def moved(*args: Any) -> Any:
        rows = core(*args)
        for r in rows or ():
            r["chased"] = r.pop("chased")
        return rows

    for wrong in (typed, moved):
        with monkeypatch.context() as m:
            m.setattr(facts, "CORE_ROWS", wrong)
            assert _items(hand_facts(game)) != want


def _history_without_core(game: Game, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    with monkeypatch.context() as m:
        m.setattr(game_facts_module, "CORE_SCORES", None)
        return game_facts_module.score_history(game)


def test_the_core_writes_the_score_history_of_the_reference_on_the_whole_corpus(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``_core.score_rows`` gives ``py_score_rows``' rows (keys, order, values, types)
    for every game of the corpus, and declines none of them."""
    core = game_facts_module.CORE_SCORES
    assert core is not None
    for path, game in corpus_games.items():
        got = game_facts_module.score_history(game)
        assert _items(got) == _items(_history_without_core(game, monkeypatch)), path
        keys = game_facts_module._SCORE_KEYS
        assert core(game.hands, "f", None, ("a",) * game.meta.players, keys) is not None


def test_the_score_history_comparison_fails_for_a_core_that_writes_differently(
    corpus_games: dict[Path, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A core that drops the last seat's rows, or writes a score as a float (equal,
    another type), is caught by the comparison above."""
    game = next(g for p, g in corpus_games.items() if "phoenix" in str(p))
    core = game_facts_module.CORE_SCORES
    assert core is not None
    want = _items(_history_without_core(game, monkeypatch))

    def short(*args: Any) -> Any:
        return [r for r in core(*args) if r["seat"] != 3]

    def floats(*args: Any) -> Any:
        return [{**r, "score": float(r["score"])} for r in core(*args)]

    for wrong in (short, floats):
        with monkeypatch.context() as m:
            m.setattr(game_facts_module, "CORE_SCORES", wrong)
            assert _items(game_facts_module.score_history(game)) != want


def test_the_core_labels_hands_as_the_model_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core writes a hand's label itself (``src/core/hand_label.hpp``): the same
    string as ``HandLog.label`` for every round of a 4-round game and honba counts of
    one and two digits, and the property's own answer for a round it does not take."""
    hands = tuple(
        dataclasses.replace(_hand(()), index=i, round_index=r, honba=h)
        for i, (r, h) in enumerate((r, h) for r in (*range(16), -1, 1 << 40) for h in (0, 7, 12))
    )
    game = Game(GameMeta("x.xml", "2024-x", "tenhou-xml", 4), (), hands)
    got = game_facts_module.score_history(game)
    assert {r["label"] for r in got} >= {"E1-0", "S4-7", "W2-12", "N4-12"}
    assert _items(got) == _items(_history_without_core(game, monkeypatch))
    assert _items(hand_facts(game)) == _items(_facts_without_core(game, monkeypatch))
