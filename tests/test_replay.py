"""Replayer unit tests on hand-made hands: one test per legality rule and per flag.

The ``Script`` builder writes hands so tests read like a game.  Tiles are named
in ``tiles`` notation (``"5m"``, ``"0p"`` red, ``"1z"`` East); the builder hands
out distinct copies and keeps each seat's tiles only to find the id a named
discard or call refers to.  It knows no rules: it writes the events a test asks
for, legal or not, and the replayer judges them.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.model.events import (
    Call,
    Discard,
    Draw,
    Event,
    Game,
    GameMeta,
    HandLog,
    NewDora,
    Player,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.presets import TENHOU_3P, TENHOU_4P, load_rules
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import counts34, parse_tiles
from replay_audit.replay.table import replay_game
from replay_audit.replay.values import GameReplay
from replay_audit.replay.waits import _waits
from replay_audit.scoring.agari import waits as agari_waits


def _filler_kinds(i: int) -> list[int]:
    """Spread-out kinds for the ``i``-th seat a test does not specify: one suit
    pattern (147, 258 or 369) and four honors, then anything as a fallback."""
    first = [k for k in range(27) if k % 9 % 3 == i % 3]
    first += [27 + (4 * i + j) % 7 for j in range(4)]
    return first + [k for k in range(34) if k not in first]


def _kind_name(k: int) -> str:
    return f"{k % 9 + 1}{'mps'[k // 9]}" if k < 27 else f"{k - 26}z"


ALL = "123456789m123456789p123456789s1234567z"
"""Every kind, for draws that only need to be distinct tiles."""


class Script:
    def __init__(
        self,
        hands: dict[int, str],
        *,
        dealer: int = 0,
        players: int = 4,
        dora: str = "9p",
        scores: tuple[int, ...] | None = None,
        round_index: int = 0,
        honba: int = 0,
        sticks: int = 0,
        fmt: str = "tenhou-xml",
    ) -> None:
        self.used: set[int] = set()
        self.players = players
        self.dealer = dealer
        self.round_index = round_index
        self.honba = honba
        self.sticks = sticks
        self.fmt = fmt
        self.scores = scores or ((25000,) * 4 if players == 4 else (35000, 35000, 35000, 0))
        self.dora = self.tile(dora)
        self.held: list[list[int]] = [[] for _ in range(4)]
        for seat in range(players):
            if seat in hands:
                self.held[seat] = [self.tile(n) for n in _names(hands[seat])]
        avoid = {t // 4 for h in self.held for t in h}
        short = [s for s in range(players) if len(self.held[s]) < 13]
        for i, seat in enumerate(short):
            for k in _filler_kinds(i):
                if len(self.held[seat]) == 13:
                    break
                if k not in avoid and (t := self.free(_kind_name(k))) is not None:
                    self.held[seat].append(t)
        self.haipai = tuple(tuple(h) for h in self.held)
        self.events: list[Event] = []
        self.seq = 0

    # -------------------------------------------------------------- tiles

    def free(self, name: str) -> int | None:
        """An unused copy of ``name`` (red five only for ``0``), or None."""
        (base,) = parse_tiles(name)
        k = base // 4
        red = name[0] == "0"
        copies = (0,) if red else ((1, 2, 3, 0) if k < 27 and k % 9 == 4 else (0, 1, 2, 3))
        for c in copies:
            t = 4 * k + c
            if t not in self.used:
                self.used.add(t)
                return t
        return None

    def tile(self, name: str) -> int:
        t = self.free(name)
        if t is None:
            raise ValueError(f"no copy of {name} left")
        return t

    def any_free(self) -> int:
        t = next(t for t in range(135, -1, -1) if t not in self.used)
        self.used.add(t)
        return t

    def held_id(self, seat: int, name: str | int) -> int:
        if isinstance(name, int):
            return name
        (base,) = parse_tiles(name)
        red = name[0] == "0"
        for t in self.held[seat]:
            if t // 4 == base // 4 and (t in (16, 52, 88)) == red:
                return t
        # Not held: a fresh copy (tests of illegal moves need one).
        return self.tile(name)

    # -------------------------------------------------------------- moves

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    def draw(self, seat: int, name: str | int) -> int:
        t = name if isinstance(name, int) else self.tile(name)
        self.held[seat].append(t)
        self.events.append(Draw(self._next(), seat, t))
        return t

    def discard(self, seat: int, name: str | int, tsumogiri: bool = False) -> int:
        t = self.held_id(seat, name)
        if t in self.held[seat]:
            self.held[seat].remove(t)
        self.events.append(Discard(self._next(), seat, t, tsumogiri))
        return t

    def turn(self, seat: int, draw: str, discard: str | None = None) -> int:
        """Draw then discard (the drawn tile when ``discard`` is None)."""
        t = self.draw(seat, draw)
        return self.discard(seat, t if discard is None else discard, discard is None)

    def call(
        self,
        seat: int,
        kind: MeldKind,
        names: list[str | int],
        called: int | None = None,
        from_seat: int | None = None,
        added: int | None = None,
    ) -> Meld:
        tiles = []
        for n in names:
            t = self.held_id(seat, n)
            if t in self.held[seat]:
                self.held[seat].remove(t)
            tiles.append(t)
        all_tiles = tiles + ([called] if called is not None and kind is not MeldKind.KAKAN else [])
        if added is not None:
            all_tiles.append(added)
        meld = Meld(kind, tuple(sorted(all_tiles)), called, from_seat, added)
        self.events.append(Call(self._next(), seat, meld))
        return meld

    def kakan(self, seat: int, pon: Meld, name: str | int) -> Meld:
        t = self.held_id(seat, name)
        if t in self.held[seat]:
            self.held[seat].remove(t)
        meld = Meld(MeldKind.KAKAN, tuple(sorted((*pon.tiles, t))), pon.called, pon.from_seat, t)
        self.events.append(Call(self._next(), seat, meld))
        return meld

    def riichi(self, seat: int) -> None:
        self.events.append(RiichiDeclare(self._next(), seat))

    def accept(self, seat: int) -> None:
        self.events.append(RiichiAccept(self._next(), seat))

    def new_dora(self, name: str | None = None) -> int:
        t = self.any_free() if name is None else self.tile(name)
        self.events.append(NewDora(self._next(), t))
        return t

    def win(self, seat: int, from_seat: int, **recorded: object) -> None:
        self.events.append(RecordedWin(self._next(), seat, from_seat, **recorded))  # type: ignore[arg-type]

    def ryuukyoku(self, kind: str = "exhaustive", shown: tuple | None = ()) -> None:
        self.events.append(RecordedDraw(self._next(), kind, shown=shown))

    def pass_round(self, first: int, count: int, names: str = ALL) -> None:
        """``count`` turns of draw + tsumogiri from seat ``first`` on, with spread tiles."""
        pool = iter(_names(names * 6))
        seat = first
        for _ in range(count):
            t = None
            while t is None:
                t = self.free(next(pool))
            self.turn(seat, t)
            seat = (seat + 1) % self.players

    # -------------------------------------------------------------- build

    def hand(self) -> HandLog:
        return HandLog(
            index=0,
            seq=0,
            round_index=self.round_index,
            honba=self.honba,
            sticks=self.sticks,
            dealer=self.dealer,
            scores=self.scores,
            haipai=self.haipai,
            dora_indicator=self.dora,
            events=tuple(self.events),
        )

    def game(self) -> Game:
        meta = GameMeta(
            source="built.xml",
            log_id="test",
            format=self.fmt,
            players=self.players,  # type: ignore[arg-type]
        )
        return Game(meta, tuple(Player(f"p{i}") for i in range(4)), (self.hand(),))


def _names(text: str) -> list[str]:
    out: list[str] = []
    digits: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(ch)
        else:
            out.extend(d + ch for d in digits)
            digits = []
    return out


# ======================================================================= tests

NO_1M = ALL[1:]
"""Draw pool that leaves the 1m for a test's winning tile."""
WAIT_14M = "23m456p789s567s11z"
"""Waits on 1m-4m."""


def run(sc: Script, rules: RuleSet = TENHOU_4P) -> GameReplay:
    return replay_game(sc.game(), rules)


def codes(rep: GameReplay) -> list[str]:
    return sorted(f.field for f in rep.findings)


def only_result(rep: GameReplay):
    (hand,) = rep.hands
    (res,) = hand.results
    return res


def test_clean_ron_renhou_and_recorded_match() -> None:
    sc = Script({1: WAIT_14M})
    t = sc.turn(0, "1m")
    hand = tuple(sorted((*sc.held[1], t)))
    sc.win(1, 0, hand=hand, win_tile=t, dora=(sc.dora,))
    rep = run(sc)
    assert codes(rep) == []
    ctx = only_result(rep).win
    assert ctx is not None
    assert ctx.win_tile == t and not ctx.tsumo and sorted(ctx.tiles) == list(hand)
    assert ctx.renhou and not ctx.riichi and ctx.dora_indicators == (sc.dora,)


def test_recorded_mismatches_are_findings() -> None:
    sc = Script({1: WAIT_14M})
    t = sc.turn(0, "1m")
    wrong = tuple(sorted((*sc.held[1][:-1], t, sc.tile("9m"))))
    sc.win(1, 0, hand=wrong, win_tile=t + 1, dora=(sc.dora + 1,), melds=())
    rep = run(sc)
    assert codes(rep) == ["dora", "hand", "win_tile"]
    f = next(f for f in rep.findings if f.field == "hand")
    assert (f.category, f.file, f.log_id, f.hand, f.hand_index, f.seat) == (
        "replay",
        "built.xml",
        "test",
        "E1-0",
        0,
        1,
    )


def test_draw_out_of_turn() -> None:
    sc = Script({})
    sc.turn(1, "1m")
    assert "draw_out_of_turn" in codes(run(sc))


def test_draw_from_empty_wall_and_exhaustive_draw() -> None:
    sc = Script({})
    sc.pass_round(0, 70)
    sc.ryuukyoku()
    res = only_result(run(sc))
    assert res.draw is not None and res.draw.tenpai == (False,) * 4
    sc.events.pop()
    sc.draw(2, sc.any_free())
    assert codes(run(sc)) == ["draw_empty_wall"]


def test_exhaustive_draw_with_tiles_left() -> None:
    sc = Script({})
    sc.pass_round(0, 20)
    sc.ryuukyoku()
    assert codes(run(sc)) == ["draw_wall_not_empty"]


def test_discard_not_held_and_out_of_turn() -> None:
    sc = Script({})
    sc.draw(0, "1m")
    sc.discard(0, sc.tile("9m"))
    assert codes(run(sc)) == ["discard_not_held"]
    sc = Script({1: WAIT_14M})
    sc.discard(1, "2m")
    assert codes(run(sc)) == ["discard_out_of_turn"]


def test_pon_of_a_tile_not_just_discarded() -> None:
    sc = Script({2: "55z" + "123m456p789s1z"})
    t = sc.turn(0, "5z")
    sc.turn(1, "9m")
    sc.call(2, MeldKind.PON, ["5z", "5z"], called=t, from_seat=0)
    assert "call_not_last_discard" in codes(run(sc))


def test_chi_only_from_the_left_and_only_with_chi() -> None:
    sc = Script({2: "23m" + "456p789s1234z11p"})
    t = sc.turn(0, "1m")
    sc.call(2, MeldKind.CHI, ["2m", "3m"], called=t, from_seat=0)
    sc.discard(2, "1z")
    assert codes(run(sc)) == ["chi_not_left"]
    sc = Script({1: "23m" + "456p789s1234z11p"})
    t = sc.turn(0, "1m")
    sc.call(1, MeldKind.CHI, ["2m", "3m"], called=t, from_seat=0)
    sc.discard(1, "1z")
    assert codes(run(sc)) == []
    assert codes(run(sc, dataclasses.replace(TENHOU_4P, chi=False))) == ["chi_not_allowed"]


def test_pon_with_tiles_not_held() -> None:
    sc = Script({0: "555z" + "19m19p19s1234z", 2: "123m456p789s1234z"})
    sc.draw(0, sc.any_free())
    five = [t for t in sc.held[0] if t // 4 == 31]
    t = sc.discard(0, five[0])
    sc.call(2, MeldKind.PON, five[1:], called=t, from_seat=0)
    assert codes(run(sc)).count("call_not_held") == 2


def _riichi_script() -> Script:
    """Seat 1 declares riichi on its first discard, waiting 1m-4m."""
    sc = Script({1: WAIT_14M[:-3] + "1z9p", 2: "99m" + "123p456p789p1z2z"})
    sc.turn(0, "8m")
    sc.draw(1, "1z")
    sc.riichi(1)
    sc.discard(1, "9p")
    sc.accept(1)
    return sc


def test_riichi_bookkeeping_double_riichi_and_ippatsu_tsumo() -> None:
    sc = _riichi_script()
    sc.turn(2, "2s")
    sc.turn(3, "3s")
    sc.turn(0, "4s")
    t = sc.draw(1, "4m")
    sc.win(1, 1)
    rep = run(sc)
    assert codes(rep) == []
    hand = rep.hands[0]
    assert hand.riichi_accepted == (1,) and hand.sticks == 1
    assert hand.ura_source == "log"  # no seed, so no wall: the log is the only source
    assert hand.scores[1] == 24000
    ctx = hand.results[0].win
    assert ctx is not None and ctx.tsumo and ctx.win_tile == t
    assert ctx.riichi and ctx.double_riichi and ctx.ippatsu
    assert not ctx.chiihou and not ctx.haitei and not ctx.rinshan


def test_a_call_breaks_ippatsu() -> None:
    sc = _riichi_script()
    t = sc.turn(2, "9m")
    sc.turn(3, "3s")
    sc.turn(0, "4s")
    sc.draw(1, "4m")
    sc.win(1, 1)
    assert only_result(run(sc)).win.ippatsu  # type: ignore[union-attr]
    sc = _riichi_script()
    t = sc.draw(2, "9m")
    sc.discard(2, "1z")
    t = sc.turn(3, "9m")
    sc.call(2, MeldKind.PON, ["9m", "9m"], called=t, from_seat=3)
    sc.discard(2, "2z")
    sc.turn(3, "3s")
    sc.turn(0, "4s")
    sc.draw(1, "4m")
    sc.win(1, 1)
    rep = run(sc)
    assert codes(rep) == []
    assert not only_result(rep).win.ippatsu  # type: ignore[union-attr]


def test_call_after_riichi_and_hand_change_after_riichi() -> None:
    sc = _riichi_script()
    sc.turn(2, "5s")
    t = sc.turn(3, "3m")
    sc.call(1, MeldKind.CHI, ["2m", "4m"], called=t, from_seat=0)
    assert "call_after_riichi" in codes(run(sc))
    sc = _riichi_script()
    sc.turn(2, "5s")
    sc.turn(3, "3s")
    sc.turn(0, "4s")
    sc.draw(1, "9s")
    sc.discard(1, "2m")
    assert codes(run(sc)) == ["riichi_hand_changed"]


def test_ankan_in_riichi_legal_only_when_waits_stay() -> None:
    # 111p 23m 456s 789s 5z5z: waits 1m-4m; a fourth 1p keeps the waits.
    sc = Script({1: "111p23m456s789s55z"})
    sc.turn(0, "8m")
    sc.draw(1, "9p")
    sc.riichi(1)
    sc.discard(1, "9p")
    sc.accept(1)
    sc.pass_round(2, 3)
    sc.draw(1, "1p")
    sc.call(1, MeldKind.ANKAN, ["1p", "1p", "1p", "1p"])
    sc.new_dora("3z")
    sc.turn(1, "7z")
    assert codes(run(sc)) == []
    # 123p 111s 23m ...: kanning 1s would break the 123s reading of 1112s.
    sc = Script({1: "1112s23m456p789p55z"})
    sc.turn(0, "8m")
    sc.draw(1, "9s")
    sc.riichi(1)
    sc.discard(1, "9s")
    sc.accept(1)
    sc.pass_round(2, 3)
    sc.draw(1, "1s")
    sc.call(1, MeldKind.ANKAN, ["1s", "1s", "1s", "1s"])
    sc.new_dora("3z")
    assert "call_after_riichi" in codes(run(sc))


def test_riichi_open_points_late_and_not_tenpai() -> None:
    sc = Script({1: "55z" + "23m456p789s11z9p"})
    t = sc.turn(0, "5z")
    sc.call(1, MeldKind.PON, ["5z", "5z"], called=t, from_seat=0)
    sc.discard(1, "9p")
    sc.pass_round(2, 3)
    sc.draw(1, "1z")
    sc.riichi(1)
    sc.discard(1, "1z")
    assert "riichi_open" in codes(run(sc))

    sc = Script({1: WAIT_14M[:-3] + "1z9p"}, scores=(25000, 900, 25000, 25000))
    sc.turn(0, "8m")
    sc.draw(1, "1z")
    sc.riichi(1)
    sc.discard(1, "9p")
    assert codes(run(sc)) == ["riichi_points"]

    sc = Script({1: WAIT_14M[:-3] + "1z9p"})
    sc.turn(0, "8m")
    sc.draw(1, "7z")
    sc.riichi(1)
    sc.discard(1, "1z")
    assert codes(run(sc)) == ["riichi_not_tenpai"]

    for passed, found in ((65, []), (69, ["riichi_late"])):
        sc = Script({1: WAIT_14M[:-3] + "1z9p"})
        sc.pass_round(0, passed, names=ALL.replace("1234567z", "234567z"))
        sc.draw(1, "1z")
        sc.riichi(1)
        sc.discard(1, "9p")
        assert codes(run(sc)) == found  # four live tiles left is still fine


def test_ron_furiten_by_own_discard() -> None:
    sc = Script({1: WAIT_14M[:-3] + "1z4m"})
    sc.turn(0, "8m")
    sc.draw(1, "1z")
    sc.discard(1, "4m")
    sc.turn(2, "5s")
    sc.turn(3, "3s")
    t = sc.turn(0, "1m")
    sc.win(1, 0)
    rep = run(sc)
    assert codes(rep) == ["ron_furiten"]
    assert only_result(rep).win.win_tile == t  # type: ignore[union-attr]


def test_temporary_and_riichi_furiten() -> None:
    # Seat 1 passes a 4m from seat 2, then rons a 1m from seat 3 in the same go-around.
    sc = Script({1: WAIT_14M})
    sc.turn(0, "8m")
    sc.turn(1, "9s")
    sc.turn(2, "4m")
    sc.turn(3, "1m")
    sc.win(1, 3)
    assert codes(run(sc)) == ["ron_furiten"]
    # After its own next discard the temporary furiten is over.
    sc = Script({1: WAIT_14M})
    sc.turn(0, "8m")
    sc.turn(1, "9s")
    sc.turn(2, "4m")
    sc.turn(3, "6z")
    sc.turn(0, "5z")
    sc.turn(1, "9p")
    sc.turn(2, "1m")
    sc.win(1, 2)
    assert codes(run(sc)) == []
    # In riichi it lasts for the rest of the hand.
    sc = _riichi_script()
    sc.turn(2, "4m")
    sc.turn(3, "6z")
    sc.turn(0, "5z")
    sc.turn(1, "9p")
    sc.turn(2, "1m")
    sc.win(1, 2)
    assert codes(run(sc)) == ["ron_furiten"]


def test_win_incomplete_and_ron_without_discard() -> None:
    sc = Script({1: WAIT_14M})
    sc.turn(0, "7m")
    sc.win(1, 0)
    assert codes(run(sc)) == ["win_incomplete"]
    sc = Script({1: WAIT_14M})
    sc.turn(0, "1m")
    sc.draw(1, "9s")
    sc.win(2, 0)
    rep = run(sc)
    assert codes(rep) == ["ron_no_discard"]
    assert only_result(rep).win is None


def test_houtei_and_haitei() -> None:
    sc = Script({1: WAIT_14M})
    sc.pass_round(0, 69, names=NO_1M)
    assert sc.events[-1].seat == 0  # type: ignore[union-attr]
    t = sc.draw(1, "1m")
    sc.win(1, 1)
    ctx = only_result(run(sc)).win
    assert ctx is not None and ctx.haitei and ctx.win_tile == t and not ctx.houtei
    sc = Script({1: WAIT_14M}, dealer=1)
    sc.pass_round(1, 69, names=NO_1M)
    sc.turn(2, "1m")
    sc.win(1, 2)
    rep = run(sc)
    assert codes(rep) == []
    assert only_result(rep).win.houtei  # type: ignore[union-attr]


def test_tenhou_and_chiihou() -> None:
    sc = Script({0: "123m456p789s1122z"})
    sc.draw(0, "1z")
    sc.win(0, 0)
    ctx = only_result(run(sc)).win
    assert ctx is not None and ctx.tenhou and not ctx.chiihou
    sc = Script({1: "123m456p789s1122z"})
    sc.turn(0, "9m")
    sc.draw(1, "2z")
    sc.win(1, 1)
    ctx = only_result(run(sc)).win
    assert ctx is not None and ctx.chiihou and not ctx.tenhou


def test_daiminkan_dora_after_replacement_and_rinshan() -> None:
    sc = Script({1: "555z" + "123m456p789s1z"})
    t = sc.turn(0, "5z")
    sc.call(1, MeldKind.DAIMINKAN, ["5z", "5z", "5z"], called=t, from_seat=0)
    sc.draw(1, "1z")
    sc.win(1, 1)
    rep = run(sc)
    assert codes(rep) == []
    ctx = only_result(rep).win
    assert ctx is not None and ctx.rinshan and ctx.dora_indicators == (sc.dora,)
    # Without the win: DORA after the replacement draw, before the discard.
    sc = Script({1: "555z" + "123m456p789s1z"})
    t = sc.turn(0, "5z")
    sc.call(1, MeldKind.DAIMINKAN, ["5z", "5z", "5z"], called=t, from_seat=0)
    sc.draw(1, "9m")
    d = sc.new_dora("3z")
    sc.discard(1, "9m")
    rep = run(sc)
    assert codes(rep) == [] and rep.hands[0].dora_indicators == (sc.dora, d)
    # DORA before the replacement draw is the chip-room timing, not the usual one.
    sc = Script({1: "555z" + "123m456p789s1z"})
    t = sc.turn(0, "5z")
    sc.call(1, MeldKind.DAIMINKAN, ["5z", "5z", "5z"], called=t, from_seat=0)
    sc.new_dora("3z")
    sc.turn(1, "9m")
    assert codes(run(sc)) == ["dora_timing"]
    assert codes(run(sc, dataclasses.replace(TENHOU_4P, kan_dora_immediate=True))) == []
    # No DORA at all before the discard.
    sc = Script({1: "555z" + "123m456p789s1z"})
    t = sc.turn(0, "5z")
    sc.call(1, MeldKind.DAIMINKAN, ["5z", "5z", "5z"], called=t, from_seat=0)
    sc.turn(1, "9m")
    assert codes(run(sc)) == ["dora_timing"]


def test_chankan_on_kakan_and_pending_dora() -> None:
    sc = Script({1: "55z" + "123m456p789s1z", 3: "46m" + "123p456p789p11z"})
    t = sc.turn(0, "5z")
    pon = sc.call(1, MeldKind.PON, ["5z", "5z"], called=t, from_seat=0)
    sc.discard(1, "1z")
    sc.turn(2, "9m")
    sc.turn(3, "9s")
    sc.turn(0, "8s")
    sc.draw(1, "5z")
    kakan = sc.kakan(1, pon, "5z")
    sc.win(3, 1)
    rep = run(sc)
    assert codes(rep) == ["win_incomplete"]  # 46m waits on 5m, not on 5z
    sc = Script({1: "55m" + "123m456p789s1z", 3: "46m" + "123p456p789p11z"})
    t = sc.turn(0, "5m")
    pon = sc.call(1, MeldKind.PON, ["5m", "5m"], called=t, from_seat=0)
    sc.discard(1, "1z")
    sc.turn(2, "9m")
    sc.turn(3, "9s")
    sc.turn(0, "8s")
    sc.draw(1, "0m")
    kakan = sc.kakan(1, pon, "0m")
    sc.win(3, 1)
    rep = run(sc)
    assert codes(rep) == []
    ctx = only_result(rep).win
    assert ctx is not None and ctx.chankan and ctx.win_tile == kakan.added
    assert ctx.dora_indicators == (sc.dora,)


def test_fifth_kan() -> None:
    """Seat 0 makes four ankans (legal: one player), seat 1 then calls a fifth kan."""
    sc = Script({0: "1111m2222m3333m4m", 1: "555z" + "9m19p19s12346z"})
    sc.draw(0, "4m")
    for k in "1234":
        sc.call(0, MeldKind.ANKAN, [k + "m"] * 4)
        sc.new_dora()
        sc.draw(0, "4m" if k in "12" else "5z" if k == "3" else "9s")
    assert codes(run(sc)) == []
    t = sc.discard(0, "5z")
    sc.call(1, MeldKind.DAIMINKAN, ["5z"] * 3, called=t, from_seat=0)
    assert codes(run(sc)) == ["fifth_kan"]


def test_tenpai_at_exhaustive_draw_and_four_held_wait() -> None:
    # Seat 1 tenpai; seat 2 "waits" only on a fifth 1z (1111z in hand): noten on Tenhou.
    sc = Script({1: WAIT_14M.replace("11z", "22z"), 2: "1111z" + "123m456p789s"})
    sc.pass_round(0, 70)
    sc.ryuukyoku(shown=((1, tuple(sc.haipai[1])),))
    rep = run(sc)
    assert codes(rep) == []
    assert only_result(rep).draw.tenpai == (False, True, False, False)  # type: ignore[union-attr]
    sc = Script({1: WAIT_14M})
    sc.pass_round(0, 70)
    sc.ryuukyoku(shown=())
    rep = run(sc)
    (f,) = rep.findings
    assert (f.category, f.field, f.seat, f.recorded, f.computed) == ("draw", "tenpai", 1, 0, 1)


TH_NAMES = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def _first_free(sc: Script, names: list[str]) -> int:
    for nm in names:
        if (t := sc.free(nm)) is not None:
            return t
    return sc.any_free()


def test_nagashi_eligibility() -> None:
    """Seat 2 discards only terminals and honors; a call on one of them voids it."""
    sc = Script({})
    for i in range(70):
        seat = i % 4
        sc.turn(seat, _first_free(sc, TH_NAMES if seat == 2 else ALL_NAMES))
    res = only_result_after(sc, "nm")
    assert res.draw.nagashi == (False, False, True, False)  # type: ignore[union-attr]
    sc = Script({3: "11z" + "23456m23456p2s"})
    sc.turn(0, "2s")
    sc.turn(1, "3s")
    t = sc.turn(2, "1z")
    sc.call(3, MeldKind.PON, ["1z", "1z"], called=t, from_seat=2)
    sc.discard(3, "2m")
    for i in range(67):
        seat = i % 4
        sc.turn(seat, _first_free(sc, TH_NAMES if seat == 2 else ALL_NAMES))
    res = only_result_after(sc, "nm")
    assert res.draw.nagashi == (False, False, False, False)  # type: ignore[union-attr]


ALL_NAMES = [f"{n}{s}" for s in "mps" for n in range(2, 9)] + ["3z", "4z", "5z", "6z", "7z"]


def only_result_after(sc: Script, kind: str):
    sc.ryuukyoku(kind, shown=None)
    rep = run(sc)
    assert [f.field for f in rep.findings] == []
    return only_result(rep)


def test_abortive_draw_conditions() -> None:
    sc = Script({0: "19m19p19s1234567z"})
    sc.draw(0, "5m")
    sc.ryuukyoku("yao9")
    assert only_result(run(sc)).abort_ok is True
    sc = Script({0: "19m19p19s12m3456p"})
    sc.draw(0, "5m")
    sc.ryuukyoku("yao9")
    assert only_result(run(sc)).abort_ok is False
    sc = Script(dict.fromkeys(range(4), "4z"))
    for seat in range(4):
        sc.turn(seat, sc.any_free(), "4z")
    sc.ryuukyoku("kaze4")
    assert only_result(run(sc)).abort_ok is True
    sc = Script(dict.fromkeys(range(4), "4z"))
    for seat in range(3):
        sc.turn(seat, sc.any_free(), "4z")
    sc.turn(3, "2z")
    sc.ryuukyoku("kaze4")
    assert only_result(run(sc)).abort_ok is False
    sc = Script({1: WAIT_14M, 2: "23m456p789s678s22z", 3: "23m" + "123p456p789p33z"})
    sc.turn(0, "1m")
    sc.ryuukyoku("ron3", shown=((1, ()), (2, ()), (3, ())))
    assert only_result(run(sc)).abort_ok is True
    sc.events.pop()
    sc.ryuukyoku("reach4")
    assert only_result(run(sc)).abort_ok is False


def test_three_player_kita_rinshan_and_kita_ron() -> None:
    sc = Script({0: "123p456p789s112z4z"}, players=3, dora="9s")
    sc.draw(0, "2z")
    sc.call(0, MeldKind.KITA, ["4z"])
    sc.draw(0, "1z")
    sc.win(0, 0)
    rep = run(sc, TENHOU_3P)
    assert codes(rep) == []
    ctx = only_result(rep).win
    assert ctx is not None and ctx.rinshan and ctx.players == 3 and ctx.kita == 1
    sc = Script({0: "4z" + "1199m1199p119s7z", 1: "123p456p789s1122z"}, players=3, dora="9s")
    sc.draw(0, "4z")
    sc.call(0, MeldKind.KITA, ["4z"])
    sc.win(1, 0)
    rep = run(sc, TENHOU_3P)
    assert codes(rep) == ["win_incomplete"]
    sc = Script({0: "4z" + "1199m1199p119s7z", 1: "123p456p789s111z4z"}, players=3, dora="9s")
    sc.draw(0, "7z")
    sc.call(0, MeldKind.KITA, ["4z"])
    sc.win(1, 0)
    rep = run(sc, TENHOU_3P)
    assert codes(rep) == []
    ctx = only_result(rep).win
    assert ctx is not None and not ctx.chankan and not ctx.tsumo
    assert codes(run(sc, TENHOU_4P)) == ["kita_not_allowed"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=0, max_size=70))
def test_any_draw_discard_sequence_is_legal(choices: list[int]) -> None:
    """Drawing in turn and discarding any held tile never breaks a rule, and the
    live wall ends at exactly 70 - draws."""
    sc = Script({})
    names = [f"{d}{s}" for s in "mpsz" for d in "123456789" if not (s == "z" and d in "89")]
    seat = 0
    for c in choices:
        t = next(t for nm in names * 4 if (t := sc.free(nm)) is not None)
        sc.draw(seat, t)
        held = sorted(sc.held[seat])
        sc.discard(seat, held[c % len(held)])
        seat = (seat + 1) % 4
    rep = run(sc)
    assert codes(rep) == []
    if len(choices) == 70:
        sc.ryuukyoku(shown=None)
        assert codes(run(sc)) == []


@pytest.mark.parametrize("fmt", ["tenhou-json"])
def test_json_logs_match_copies_by_kind_and_redness(fmt: str) -> None:
    sc = Script({1: WAIT_14M}, fmt=fmt)
    sc.draw(0, "9m")
    other = next(t for t in range(32, 36) if t not in sc.used)  # another copy of 9m
    sc.used.add(other)
    sc.events.append(Discard(sc._next(), 0, other, False))
    assert codes(run(sc)) == []
    sc.fmt = "tenhou-xml"
    assert codes(run(sc)) == ["discard_not_held"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=13))
def test_pruned_waits_equal_agari_waits(kinds: list[int]) -> None:
    """The replayer's candidate pruning never changes the answer."""
    counts = [0] * 34
    for k in kinds:
        counts[k] = min(4, counts[k] + 1)
    assert _waits(list(counts)) == agari_waits(counts)


def test_pruned_waits_kokushi_thirteen_sided() -> None:
    counts = counts34(parse_tiles("19m19p19s1234567z"))
    assert _waits(counts) == agari_waits(counts) and len(_waits(counts)) == 13


def _kita_during_ippatsu() -> Script:
    """3-player: seat 1 riichis waiting on 9p/1z; seat 2 sets a North aside before
    seat 1's next draw wins."""
    sc = Script({1: "123p456p789s99p1z4z"}, players=3, dora="9s")
    sc.turn(0, "5s")
    sc.draw(1, "1z")
    sc.riichi(1)
    sc.discard(1, "4z")
    sc.accept(1)
    sc.draw(2, "4z")
    sc.call(2, MeldKind.KITA, ["4z"])
    sc.draw(2, "6s")
    sc.discard(2, "6s", tsumogiri=True)
    sc.turn(0, "3s")
    sc.draw(1, "9p")
    sc.win(1, 1)
    return sc


def test_kita_ends_ippatsu_on_tenhou_but_not_under_the_seed_site_rules() -> None:
    sc = _kita_during_ippatsu()
    rep = run(sc, TENHOU_3P)
    assert codes(rep) == []
    assert not only_result(rep).win.ippatsu  # type: ignore[union-attr]
    site = load_rules("sanma-site")
    rep = run(sc, site)
    assert codes(rep) == []
    assert only_result(rep).win.ippatsu  # type: ignore[union-attr]


def test_after_riichi_only_a_just_drawn_north_can_be_set_aside() -> None:
    def script(kita_from_hand: bool) -> Script:
        sc = Script({1: "123p456p789s111z9p"}, players=3, dora="9s")
        sc.turn(0, "5s")
        sc.draw(1, "4z")
        sc.riichi(1)
        sc.discard(1, "9p")  # riichi on a 4z tanki, the North kept in hand
        sc.accept(1)
        sc.turn(2, "6s")
        sc.turn(0, "3s")
        if kita_from_hand:
            sc.draw(1, "7s")
            sc.call(1, MeldKind.KITA, [sc.held_id(1, "4z")])  # not the tile just drawn
        else:
            sc.draw(1, "4z")
            sc.call(1, MeldKind.KITA, [sc.events[-1].tile])  # the North just drawn
        return sc

    assert codes(run(script(kita_from_hand=False), TENHOU_3P)) == []
    assert codes(run(script(kita_from_hand=True), TENHOU_3P)) == ["riichi_hand_changed"]


def test_kita_ron_is_allowed_on_tenhou_and_refused_under_the_seed_site_rules() -> None:
    sc = Script({0: "4z" + "1199m1199p119s7z", 1: "123p456p789s111z4z"}, players=3, dora="9s")
    sc.draw(0, "7z")
    sc.call(0, MeldKind.KITA, ["4z"])
    sc.win(1, 0)
    assert codes(run(sc, TENHOU_3P)) == []
    assert codes(run(sc, load_rules("sanma-site"))) == ["kita_ron_not_allowed"]
