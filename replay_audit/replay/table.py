"""The replayer: a table state machine that rebuilds every hand from its moves.

``replay_game(game, rules)`` walks each hand's events in order and keeps the
table the way the server kept it: concealed tiles per seat (tile ids), melds in
calling order, rivers (called or not, tsumogiri, riichi tile), the live wall
count and rinshan draws, dora indicators with Tenhou's kan-dora timing, riichi
/ ippatsu / double riichi, furiten and the first-go-around flags.  From that it
builds what the scorer needs for every result (``WinContext`` /
``DrawContext``) and says whether an abortive draw's condition really held.

Why a separate, honest account: the auditor compares what the log *recorded*
against what the moves *imply*.  So nothing here reads a recorded value to
decide anything.  From a result the replayer takes only the moves it stands
for (who won, from whom); everything else in a ``RecordedWin`` /
``RecordedDraw`` (hand, melds, machi, dora, ura, shown hands) is used only to
*check* the replay, never to build a context.  The one exception is documented:
ura indicators are not moves, so when the wall cannot be rebuilt from the
SHUFFLE seed they are taken from the log (``ura_source == "log"``).

Every broken rule becomes a ``Finding(category="replay")`` with its place
(file, log id, hand label, hand index, event seq, seat); the replay goes on
(lenient, best effort), because one bad move should not hide the rest of the
game.  Field codes:

=========================  ==================================================
``draw_out_of_turn``       a draw by a seat that is not next
``draw_empty_wall``        a live-wall draw with no live tile left
``discard_out_of_turn``    a discard by a seat that has not drawn / called
``discard_not_held``       a discarded tile the seat does not hold
``call_not_last_discard``  chi/pon/daiminkan of a tile that was not just discarded
``chi_not_left``           chi from anyone but the left player
``chi_not_allowed``        chi in a game without chi (three-player)
``call_not_held``          chi/pon/kan/kita tiles the caller does not hold
``call_out_of_turn``       ankan/kakan/kita outside the caller's own turn
``call_after_riichi``      chi/pon/kan (other than a legal ankan) after riichi
``riichi_hand_changed``    a discard (or kita) after riichi other than the drawn tile
``riichi_open``            riichi with an open hand
``riichi_points``          riichi with less than the riichi cost
``riichi_not_tenpai``      the riichi discard leaves a hand that is not tenpai
``riichi_late``            riichi with fewer than 4 live tiles left
``riichi_out_of_turn``     riichi outside the declarer's turn / twice
``kan_empty_wall``         a kan (or kita) with no live tile left
``fifth_kan``              a fifth kan
``kita_not_allowed``       kita in a game without nukidora, or a non-North
``dora_timing``            a DORA event where Tenhou's timing has none, or none
                           where it has one
``tile_duplicate``         a tile id seen twice (XML logs)
``win_out_of_turn``        a tsumo not right after the winner's draw
``ron_no_discard``         a ron with no discard/kakan/kita from ``from_seat``
``ron_furiten``            a ron while furiten (own discards, passed, riichi)
``kita_ron_not_allowed``   a ron on a set-aside North where the rules forbid it
``win_incomplete``         the winner's hand is not complete
``hand`` ``melds``         the replayed winner's tiles / melds differ from the log
``win_tile``               the replayed winning tile differs from ``machi``
``dora`` ``ura``           replayed (or wall) indicators differ from the log
``ura_count``              a riichi win whose log-given ura indicators are not one
                           per dora indicator (no wall to take them from)
``wall``                   the rebuilt wall disagrees with the log's INIT/DORA
``draw_wall_not_empty``    an exhaustive draw with live tiles left
``seed``                   the game's SHUFFLE seed cannot be used (cut short or
                           damaged; an unknown generator's is a note): once
                           per game, and the walls are then not rebuilt
=========================  ==================================================

At exhaustive draws the computed tenpai seats are compared with the shown
hands (XML only) as ``Finding(category="draw", field="tenpai")``.

The loop is the hot path (a million games): integer tiles, plain lists per
seat, no dict churn and no copies; dispatch is a ``type(ev) is X`` chain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    Game,
    HandLog,
    NewDora,
    Reconnect,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.findings import Finding
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import RED_FIVES, TERMINALS_AND_HONORS, counts34, to_notation
from replay_audit.scoring.agari import is_complete, is_regular_complete
from replay_audit.scoring.context import DrawContext, WinContext
from replay_audit.scoring.hand import GARI_KINDS

if TYPE_CHECKING:  # the wall module stays an optional, lazy import at run time
    from replay_audit.wall import Wall

__all__ = [
    "GameReplay",
    "HandReplay",
    "ResultReplay",
    "replay_game",
    "replay_hand",
]


_NORTH = 30
_KITA_KINDS = frozenset((_NORTH,))
_DRAGON_KINDS = frozenset((31, 32, 33))
_WIND_KINDS = frozenset((27, 28, 29, 30))
_KAN_KINDS = frozenset((MeldKind.DAIMINKAN, MeldKind.ANKAN, MeldKind.KAKAN))
_DAISANGEN, _DAISUUSHII, _SUUKANTSU = 39, 49, 51
"""Tenhou yakuman ids that can carry pao (``RuleSet.pao_yakuman`` picks among them)."""
_PAO_SETS = ((_DRAGON_KINDS, 3, _DAISANGEN), (_WIND_KINDS, 4, _DAISUUSHII))
"""(kinds, sets of them that make the yakuman, its id): pao by completing sets."""
"""What a kita may set aside outside Toutenkou (there ``GARI_KINDS``: 1m, 5m, 9m, North)."""
_TH_MASK = sum(1 << k for k in TERMINALS_AND_HONORS)
"""Bit mask of the terminal and honor kinds, for nagashi and kyuushu checks."""

# Offer kinds: what a ron can be made on.
_OFFER_DISCARD, _OFFER_KAKAN, _OFFER_KITA, _OFFER_ANKAN = 0, 1, 2, 3


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ResultReplay:
    """One result of a hand with what the moves say about it.

    ``win`` is set for a win, ``draw`` for an exhaustive draw or nagashi
    (``"nm"``), ``abort_ok`` for an abortive draw (did its condition hold?).
    ``win`` is ``None`` when the replay could not tell the winning tile (a ron
    with no discard to ron).  ``pao`` lists the winner's liabilities the calls
    created, as ``(yakuman id, liable seat)``: the seat whose discard completed
    the third dragon set (39), the fourth wind set (49) or, by daiminkan, the
    fourth kan (51); the auditor keeps those its rules give pao for and holds
    the result against the log's ``paoWho``.
    """

    result: RecordedWin | RecordedDraw
    win: WinContext | None = None
    draw: DrawContext | None = None
    abort_ok: bool | None = None
    pao: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A replayed hand.

    ``riichi_accepted`` lists the seats whose riichi stick was placed, in
    order; ``dora_indicators`` are those revealed by the end of the hand (Tenhou
    timing); ``ura_source`` says where ura indicators came from: ``"wall"`` (the
    wall rebuilt from the SHUFFLE seed), ``"log"`` (the win's recorded
    ``doraHaiUra``, the only other source there is) or ``None`` (no riichi win).
    """

    hand: HandLog
    results: tuple[ResultReplay, ...]
    findings: tuple[Finding, ...]
    riichi_accepted: tuple[int, ...]
    dora_indicators: tuple[int, ...]
    ura_source: str | None
    sticks: int = 0
    """Riichi sticks on the table at the end of the hand (carried + this hand's)."""
    scores: tuple[int, ...] = ()
    """Scores after this hand's riichi deposits, before any result is paid."""


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A replayed game; ``findings`` holds every hand's findings in order."""

    game: Game
    hands: tuple[HandReplay, ...]
    findings: tuple[Finding, ...]


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


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where things sit in a wall's draw order, for one (size, flipped, dealer).

    Found by asking ``replay_audit.wall`` about a wall whose tiles are their own
    positions, so the layout stays that module's knowledge; cached, because
    calling its methods for every hand costs more than the replay itself."""

    dora: tuple[int, ...]
    ura: tuple[int, ...]
    live: slice
    rinshan: tuple[int, ...]
    deal: tuple[frozenset[int], ...]
    take_dora: Callable[[Sequence[int]], tuple[int, ...]]
    """``itemgetter`` over ``dora`` (and below ``ura``, ``rinshan``, each seat's
    ``deal``): gathers the positions in one C call, per hand."""
    take_ura: Callable[[Sequence[int]], tuple[int, ...]]
    take_rinshan: Callable[[Sequence[int]], tuple[int, ...]]
    take_deal: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]


_LAYOUTS: dict[tuple[int, bool, int], _Layout | None] = {}


def _layout(wall: Wall, dealer: int) -> _Layout | None:
    key = (len(wall.tiles), bool(getattr(wall, "flipped", False)), dealer)
    if key in _LAYOUTS:
        return _LAYOUTS[key]
    try:
        probe = type(wall)(tuple(range(key[0])), wall.dice, key[1])
        deal_size = probe.deal_size
        dora = tuple(probe.dora_indicator(k) for k in range(5))
        ura = tuple(probe.ura_indicator(k) for k in range(5))
        rinshan = tuple(probe.rinshan_tile(i) for i in range(probe.replacement_count))
        deal = tuple(frozenset(h) for h in probe.haipai(dealer))
        lay: _Layout | None = _Layout(
            dora=dora,
            ura=ura,
            live=slice(deal_size, deal_size + probe.live_count(0)),
            rinshan=rinshan,
            deal=deal,
            take_dora=_taker(dora),
            take_ura=_taker(ura),
            take_rinshan=_taker(rinshan),
            take_deal=tuple(_taker(tuple(sorted(h))) for h in deal),
        )
    except (ValueError, IndexError, TypeError, AttributeError):
        lay = None
    _LAYOUTS[key] = lay
    return lay


def _hand_wall(wall: Wall, hand: HandLog) -> _HandWall | None:
    """The wall's indicators and draws if its deal matches the hand's INIT."""
    lay = _layout(wall, hand.dealer)
    if lay is None:
        return None
    tiles = wall.tiles
    if tiles[lay.dora[0]] != hand.dora_indicator:
        return None
    for take, dealt in zip(lay.take_deal, hand.haipai, strict=False):
        if set(take(tiles)) != set(dealt):
            return None
    return _HandWall(
        dora=lay.take_dora(tiles),
        ura=lay.take_ura(tiles),
        live=tuple(tiles[lay.live]),
        rinshan=lay.take_rinshan(tiles),
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
    """

    SEARCH_LIMIT = 40

    __slots__ = ("cache", "damage", "it", "mod", "players", "usable")

    def __init__(self, game: Game) -> None:
        self.players = game.meta.players
        self.cache: list[Wall] = []
        self.it: Iterator[Wall] | None = None
        self.mod: Any = None  # the optional ``replay_audit.wall`` module, once imported
        self.usable = False
        self.damage: tuple[str, str] | None = None
        """(category, message) when the game's seed cannot be used: one finding for
        the game, not one per hand."""
        try:
            from replay_audit import wall as wall_mod  # optional, lazy
        except ImportError:
            return
        self.mod = wall_mod
        seed = game.meta.seed
        if seed:
            try:
                self.it = wall_mod.iter_walls(seed, self.players)
            except (ValueError, AttributeError) as exc:
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
        shuffle = _init_shuffle(hand)
        if shuffle is not None:
            try:
                wall = self.mod.wall_from_init_shuffle(shuffle, self.players)
            except (ValueError, AttributeError):
                return None
            return _hand_wall(wall, hand)
        if self.it is None:
            return None
        i = hand.index
        while len(self.cache) <= i and self._more():
            pass
        if i < len(self.cache) and (found := _hand_wall(self.cache[i], hand)) is not None:
            return found
        j = 0
        while j < self.SEARCH_LIMIT:
            if j >= len(self.cache) and not self._more():
                break
            if j != i and (found := _hand_wall(self.cache[j], hand)) is not None:
                return found
            j += 1
        return None

    def _more(self) -> bool:
        if self.it is None or len(self.cache) >= self.SEARCH_LIMIT + 64:
            return False
        self.cache.append(next(self.it))
        return True


def _init_shuffle(hand: HandLog) -> str | None:
    for key, value in hand.extra:
        if key == "shuffle":
            return value
    return None


# --------------------------------------------------------------------------- replay


def replay_game(game: Game, rules: RuleSet, *, use_wall: bool = True) -> GameReplay:
    """Replay every hand of ``game`` under ``rules``; never raises on bad moves.

    With ``use_wall`` (the default) the wall is rebuilt from the SHUFFLE seed:
    every draw and dora indicator is checked against it and ura indicators come
    from it.  Rebuilding costs about a third of the replay time; batch runs that
    only need the log's own ura can turn it off.

    >>> from replay_audit.model.events import GameMeta
    >>> g = Game(GameMeta("x.xml", None, "tenhou-xml", 4), (), ())
    >>> replay_game(g, RuleSet()).hands
    ()
    """
    walls = _WallSource(game) if use_wall else None
    hands = tuple(replay_hand(game, hand, rules, walls) for hand in game.hands)
    findings = tuple(f for h in hands for f in h.findings)
    if walls is not None and walls.damage is not None:
        category, message = walls.damage
        seed = Finding(
            category=category,
            field="seed",
            message=f"{message}: no wall is rebuilt, so draws, dora and ura are checked "
            "against the log alone; the rest of the audit goes on",
            file=game.meta.source,
            log_id=game.meta.log_id,
            recorded=len(game.meta.seed or ""),
        )
        findings = (seed, *findings)
    return GameReplay(game, hands, findings)


def replay_hand(
    game: Game, hand: HandLog, rules: RuleSet, walls: _WallSource | None = None
) -> HandReplay:
    """Replay one hand; ``walls`` is the game's wall source (``replay_game`` makes
    one; without it the hand is replayed with no wall)."""
    wall = walls.for_hand(hand) if walls is not None else None
    table = _Table(game, hand, rules, wall)
    if wall is None and walls is not None and walls.usable and walls.seeded(hand):
        table._find(
            "wall", "no wall rebuilt from the seed matches this hand's deal", hand.seq, None
        )
    return table.run()


class _Table:
    """Mutable per-hand state.  Private: only ``run`` leaves it, as frozen values."""

    __slots__ = (
        "after_call",
        "aka",
        "concealed",
        "dead_ura",
        "dealer",
        "disc_mask",
        "discarded",
        "discards",
        "dora_due",
        "dora_pending",
        "drawn_rinshan",
        "findings",
        "game",
        "hand",
        "indicators",
        "ippatsu",
        "ippatsu_before_kakan",
        "json",
        "kan_dora_now",
        "kan_seats",
        "kans",
        "last_disc_pos",
        "last_draw",
        "last_offer",
        "live",
        "live_drawn",
        "melds",
        "n",
        "nagashi",
        "offer_kinds",
        "offer_seats",
        "pao",
        "results",
        "riichi",
        "riichi_accepted",
        "riichi_declared",
        "riichi_double",
        "riichi_pos",
        "rinshan_drawn",
        "rinshan_due",
        "rinshan_from_live",
        "rules",
        "scores",
        "seen",
        "sticks",
        "to_act",
        "to_draw",
        "uninterrupted",
        "wall",
        "wall_dora",
        "wall_ok",
    )

    def __init__(
        self,
        game: Game,
        hand: HandLog,
        rules: RuleSet,
        wall: _HandWall | None,
    ) -> None:
        self.game = game
        self.hand = hand
        self.rules = rules
        n = 3 if game.meta.players == 3 else 4
        self.n = n
        self.json = game.meta.format == "tenhou-json"
        self.aka = game.meta.aka
        # Chip (祝儀) rooms reveal every kan dora at once (observed in the corpus chip
        # log); a RuleSet field would be better, until then the chip flag says it.
        self.kan_dora_now = rules.kan_dora_immediate
        seats = max(4, len(hand.haipai))
        self.concealed: list[list[int]] = [list(t) for t in hand.haipai]
        while len(self.concealed) < seats:
            self.concealed.append([])
        self.melds: list[list[Meld]] = [[] for _ in range(seats)]
        self.discards: list[list[int]] = [[] for _ in range(seats)]
        self.disc_mask = [0] * seats
        self.discarded = [False] * seats
        self.nagashi = [True] * seats
        # Live wall: 136 - 14 dead - 13 * 4 dealt (three-player: 108 - 14 - 13 * 3, 55
        # draws: a real sanma hand with three kita drew 52 live tiles before its
        # exhaustive draw); every draw, rinshan too, takes one: the dead wall keeps
        # its size by taking from the live wall.
        self.live = 136 - 14 - 52 if n == 4 else 108 - 14 - 39
        self.rinshan_from_live = True
        if rules.scoring == "toutenkou":
            # Toutenkou (decided here, unverified: no real log exists): 112 tiles with
            # 20 rinshan tiles set apart for gari and kans plus 10 indicator tiles, and
            # the hand ends when no tile is left before the indicators (riichi.wiki,
            # scoring-rules.md §15); so 112 - 30 - 39 = 43 live tiles, and a
            # replacement draw comes from the 20 without shortening the live wall.
            self.live = 112 - 30 - 39
            self.rinshan_from_live = False
        self.to_draw = hand.dealer
        self.to_act = -1
        self.after_call = False
        self.last_draw = [-1] * seats
        self.drawn_rinshan = False
        self.rinshan_due = -1
        self.last_offer: tuple[int, int, int] | None = None
        self.offer_seats: list[int] = []
        self.offer_kinds: list[int] = []
        self.last_disc_pos = [-1] * seats
        self.riichi_pos = [-1] * seats
        self.riichi_declared = -1
        self.riichi = [False] * seats
        self.riichi_double = [False] * seats
        self.ippatsu = [False] * seats
        self.ippatsu_before_kakan: list[bool] | None = None
        self.pao: list[list[tuple[int, int]]] = [[] for _ in range(seats)]
        self.riichi_accepted: list[int] = []
        self.scores = list(hand.scores)
        self.sticks = hand.sticks
        self.uninterrupted = True
        self.kans = 0
        self.kan_seats = 0
        self.dora_due = 1
        self.dora_pending = 0
        self.indicators = [hand.dora_indicator]
        self.wall = wall
        self.wall_dora = wall.dora if wall else None
        self.dead_ura = wall.ura if wall else None
        self.live_drawn = 0
        self.rinshan_drawn = 0
        self.wall_ok = True
        self.findings: list[Finding] = []
        self.results: list[ResultReplay] = []
        # Tile ids met so far (XML logs carry copy numbers, so a repeat is a
        # fifth copy).  A set: one hashed add per draw costs less than the big
        # integer mask it replaced (~8% of the replay, measured on the corpus).
        seen: set[int] = set()
        if not self.json:
            dealt = [*chain.from_iterable(hand.haipai), hand.dora_indicator]
            seen = set(dealt)
            if len(seen) != len(dealt):  # a tile twice: name each repeat
                seen = set()
                for t in dealt:
                    if t in seen:
                        self._find("tile_duplicate", f"tile {t} dealt twice", hand.seq, None)
                    seen.add(t)
        self.seen = seen

    # ------------------------------------------------------------------ plumbing

    def _find(
        self,
        code: str,
        message: str,
        seq: int | None,
        seat: int | None,
        recorded: object = None,
        computed: object = None,
        category: str = "replay",
    ) -> None:
        h = self.hand
        self.findings.append(
            Finding(
                category=category,
                field=code,
                message=message,
                file=self.game.meta.source,
                log_id=self.game.meta.log_id,
                hand=h.label,
                hand_index=h.index,
                seq=seq,
                seat=seat,
                recorded=recorded,
                computed=computed,
            )
        )

    def _take(self, seat: int, tile: int) -> bool:
        """Remove ``tile`` from the seat's concealed tiles; JSON logs have no copy
        numbers, so there any copy of the same kind and redness will do."""
        hand = self.concealed[seat]
        if tile in hand:
            hand.remove(tile)
            return True
        if self.json:
            k = tile >> 2
            red = tile in RED_FIVES
            for t in hand:
                if t >> 2 == k and (t in RED_FIVES) == red:
                    hand.remove(t)
                    return True
        return False

    def _see(self, tile: int, seq: int) -> None:
        if self.json:
            return
        if tile in self.seen:
            self._find("tile_duplicate", f"tile {tile} appears twice", seq, None)
        self.seen.add(tile)

    def _reveal_pending(self) -> None:
        if self.dora_pending:
            self.dora_due += self.dora_pending
            self.dora_pending = 0

    def _break_ippatsu(self) -> None:
        ipp = self.ippatsu
        for s in range(len(ipp)):
            ipp[s] = False

    # ------------------------------------------------------------------ main loop

    def run(self) -> HandReplay:
        for ev in self.hand.events:
            t = type(ev)
            if t is Draw:
                self._draw(ev)  # type: ignore[arg-type]  # t is Draw
            elif t is Discard:
                self._discard(ev)  # type: ignore[arg-type]  # t is Discard
            elif t is Call:
                self._call(ev)  # type: ignore[arg-type]  # t is Call
            elif t is RiichiDeclare:
                self._riichi_declare(ev)  # type: ignore[arg-type]  # t is RiichiDeclare
            elif t is RiichiAccept:
                self._riichi_accept(ev)  # type: ignore[arg-type]  # t is RiichiAccept
            elif t is NewDora:
                self._new_dora(ev)  # type: ignore[arg-type]  # t is NewDora
            elif t is RecordedWin:
                self.results.append(self._win(ev))  # type: ignore[arg-type]  # t is RecordedWin
            elif t is RecordedDraw:
                self.results.append(self._draw_result(ev))  # type: ignore[arg-type]  # t is RecordedDraw
            elif t is Disconnect or t is Reconnect:
                continue
        self._check_wall_dora()
        ura_source: str | None = None
        if any(r.win is not None and r.win.riichi for r in self.results):
            ura_source = "wall" if self.dead_ura is not None else "log"
        return HandReplay(
            hand=self.hand,
            results=tuple(self.results),
            findings=tuple(self.findings),
            riichi_accepted=tuple(self.riichi_accepted),
            dora_indicators=self._dora(),
            ura_source=ura_source,
            sticks=self.sticks,
            scores=tuple(self.scores),
        )

    def _dora(self) -> tuple[int, ...]:
        due = self.dora_due
        if self.wall_dora is not None:
            return tuple(self.wall_dora[:due])
        return tuple(self.indicators[:due])

    def _check_wall_dora(self) -> None:
        wd = self.wall_dora
        if wd is None:
            return
        got = tuple(self.indicators)
        if got != tuple(wd[: len(got)]):
            self._find(
                "wall",
                "dora indicators in the log differ from the wall rebuilt from the seed",
                None,
                None,
                recorded=got,
                computed=tuple(wd[: len(got)]),
            )

    # ------------------------------------------------------------------ moves

    def _draw(self, ev: Draw) -> None:
        # Hot path (a third of all events): every state field is read once and
        # the rare cases (findings, rinshan) branch off.
        s = ev.seat
        tile = ev.tile
        if s != self.to_draw:
            self._find(
                "draw_out_of_turn", f"seat {s} draws, seat {self.to_draw} is next", ev.seq, s
            )
        rinshan = self.rinshan_due == s
        if rinshan:
            self.rinshan_due = -1
            self.ippatsu_before_kakan = None
            if self.rinshan_from_live:
                self.live -= 1
        else:
            if self.live <= 0:
                self._find("draw_empty_wall", "draw from an empty live wall", ev.seq, s)
            self.live -= 1
            self.rinshan_due = -1
        if not self.json:
            seen = self.seen
            if tile in seen:
                self._find("tile_duplicate", f"tile {tile} appears twice", ev.seq, None)
            seen.add(tile)
        wall = self.wall
        if rinshan:
            i = self.rinshan_drawn
            self.rinshan_drawn = i + 1
            if wall is not None and self.wall_ok:
                expect = wall.rinshan[i] if i < len(wall.rinshan) else -1
                if tile != expect:
                    self._wall_mismatch(ev, expect)
        else:
            i = self.live_drawn
            self.live_drawn = i + 1
            if wall is not None and self.wall_ok:
                expect = wall.live[i] if i < len(wall.live) else -1
                if tile != expect:
                    self._wall_mismatch(ev, expect)
        self.concealed[s].append(tile)
        self.last_draw[s] = tile
        self.drawn_rinshan = rinshan
        self.to_draw = -1
        self.to_act = s
        self.after_call = False
        self.last_offer = None

    def _wall_mismatch(self, ev: Draw, expect: int) -> None:
        self.wall_ok = False
        self._find(
            "wall",
            "the drawn tile differs from the wall rebuilt from the seed",
            ev.seq,
            ev.seat,
            recorded=ev.tile,
            computed=expect,
        )

    def _discard(self, ev: Discard) -> None:
        # Hot path (a third of all events), like ``_draw``.
        s = ev.seat
        tile = ev.tile
        riichi = self.riichi[s]
        if s != self.to_act:
            self._find("discard_out_of_turn", f"seat {s} discards out of turn", ev.seq, s)
        if riichi and (self.after_call or tile != self.last_draw[s]):
            self._find(
                "riichi_hand_changed",
                "after riichi only the drawn tile may be discarded",
                ev.seq,
                s,
                computed=self.last_draw[s],
                recorded=tile,
            )
        try:
            self.concealed[s].remove(tile)
        except ValueError:
            if not self._take(s, tile):
                self._find("discard_not_held", f"tile {tile} is not in the hand", ev.seq, s)
        k = tile >> 2
        kinds = self.offer_kinds
        if self.riichi_declared == s:
            if not _has_wait(counts34(self.concealed[s])):
                self._find("riichi_not_tenpai", "the riichi discard leaves no wait", ev.seq, s)
            self.riichi_pos[s] = len(kinds)
            self.riichi_double[s] = self.uninterrupted and not self.discarded[s]
        if riichi:
            self.ippatsu[s] = False
        if self.dora_pending:
            self._reveal_pending()
        if len(self.indicators) != self.dora_due:
            self._discard_dora(ev)
        self.discards[s].append(tile)
        self.disc_mask[s] |= 1 << k
        if not _TH_MASK >> k & 1:
            self.nagashi[s] = False
        self.last_disc_pos[s] = len(kinds)
        self.offer_seats.append(s)
        kinds.append(k)
        self.last_offer = (s, tile, _OFFER_DISCARD)
        self.discarded[s] = True
        self.to_act = -1
        self.after_call = False
        self.to_draw = (s + 1) % self.n

    def _discard_dora(self, ev: Discard) -> None:
        """A discard closes the kan-dora window: what is due must be shown."""
        if len(self.indicators) < self.dora_due:
            self._find(
                "dora_timing",
                "kan dora not revealed before the discard",
                ev.seq,
                ev.seat,
                recorded=len(self.indicators),
                computed=self.dora_due,
            )
        self.dora_due = len(self.indicators)

    def _call(self, ev: Call) -> None:
        m = ev.meld
        kind = m.kind
        if kind is MeldKind.CHI or kind is MeldKind.PON or kind is MeldKind.DAIMINKAN:
            self._open_call(ev, m)
        elif kind is MeldKind.ANKAN:
            self._ankan(ev, m)
        elif kind is MeldKind.KAKAN:
            self._kakan(ev, m)
        else:
            self._kita(ev, m)

    def _own_turn(self, ev: Call) -> bool:
        s = ev.seat
        if s != self.to_act or self.after_call:
            self._find("call_out_of_turn", f"{ev.meld.kind} outside seat {s}'s turn", ev.seq, s)
            return False
        return True

    def _open_call(self, ev: Call, m: Meld) -> None:
        s = ev.seat
        lo = self.last_offer
        if (
            lo is None
            or lo[2] != _OFFER_DISCARD
            or lo[0] != m.from_seat
            or lo[0] == s
            or (lo[1] != m.called if not self.json else not _same_tile(lo[1], m.called))
        ):
            self._find(
                "call_not_last_discard",
                f"{m.kind} of a tile that was not just discarded",
                ev.seq,
                s,
                recorded=m.called,
                computed=lo[1] if lo else None,
            )
        if m.kind is MeldKind.CHI:
            if not self.rules.chi:
                self._find("chi_not_allowed", "chi in a game without chi", ev.seq, s)
            elif m.from_seat != (s - 1) % self.n:
                self._find("chi_not_left", "chi from someone other than the left player", ev.seq, s)
        if self.riichi[s] or self.riichi_declared == s:
            self._find("call_after_riichi", f"{m.kind} after riichi", ev.seq, s)
        if not _meld_shape_ok(m):
            self._find("call_not_held", f"{m.kind} tiles do not form the meld", ev.seq, s)
        called_seen = False
        for t in m.tiles:
            if not called_seen and (t == m.called or (self.json and _same_tile(t, m.called))):
                called_seen = True
                continue
            if not self._take(s, t):
                self._find("call_not_held", f"{m.kind}: tile {t} is not in the hand", ev.seq, s)
        if m.from_seat is not None and 0 <= m.from_seat < len(self.nagashi):
            self.nagashi[m.from_seat] = False
        self.melds[s].append(m)
        if m.kind is not MeldKind.CHI and m.from_seat is not None:
            self._liability(s, m)
        self.uninterrupted = False
        self._break_ippatsu()
        self.last_offer = None
        self.to_draw = -1
        if m.kind is MeldKind.DAIMINKAN:
            self._kan_declared(ev, s)
            self._open_kan_dora()
            self.to_act = -1
            self.to_draw = s
            self.rinshan_due = s
        else:
            self.to_act = s
            self.after_call = True

    def _liability(self, s: int, m: Meld) -> None:
        """Pao: a pon or daiminkan that completes the seat's third dragon set,
        fourth wind set, or (daiminkan) fourth kan makes the discarder liable.
        Sets already declared count whatever their kind (an ankan of one dragon
        and pons of the other two: the last pon completes the three)."""
        k = m.tiles[0] >> 2 if m.tiles else -1
        melds = self.melds[s]
        liable = m.from_seat if m.from_seat is not None else -1
        for kinds, needed, yakuman in _PAO_SETS:
            if k in kinds and _sets_of(melds, kinds) == needed:
                self.pao[s].append((yakuman, liable))
        if m.kind is MeldKind.DAIMINKAN and sum(1 for x in melds if x.kind in _KAN_KINDS) == 4:
            self.pao[s].append((_SUUKANTSU, liable))

    def _kan_declared(self, ev: Call, s: int) -> None:
        if self.live <= 0:
            self._find("kan_empty_wall", "kan with no live tile left", ev.seq, s)
        self.kans += 1
        self.kan_seats |= 1 << s
        if self.kans > 4:
            self._find("fifth_kan", "a fifth kan", ev.seq, s)
        self._reveal_pending()

    def _open_kan_dora(self) -> None:
        """Daiminkan/kakan: Tenhou shows the dora after the replacement draw (at
        once in chip rooms)."""
        if self.kan_dora_now:
            self.dora_due += 1
        else:
            self.dora_pending += 1

    def _ankan(self, ev: Call, m: Meld) -> None:
        s = ev.seat
        self._own_turn(ev)
        k = m.tiles[0] >> 2 if m.tiles else -1
        if len(m.tiles) != 4 or any(t >> 2 != k for t in m.tiles):
            self._find("call_not_held", "ankan tiles are not four of a kind", ev.seq, s)
        if self.riichi[s]:
            self._check_riichi_ankan(ev, s, k)
        elif self.riichi_declared == s:
            self._find("call_after_riichi", "ankan between riichi and its discard", ev.seq, s)
        for t in m.tiles:
            if not self._take(s, t):
                self._find("call_not_held", f"ankan: tile {t} is not in the hand", ev.seq, s)
        self.melds[s].append(m)
        self._kan_declared(ev, s)
        self.dora_due += 1
        self.uninterrupted = False
        self._break_ippatsu()
        self.last_offer = (s, m.tiles[0] if m.tiles else -1, _OFFER_ANKAN)
        self.to_act = -1
        self.to_draw = s
        self.rinshan_due = s

    def _check_riichi_ankan(self, ev: Call, s: int, k: int) -> None:
        """Tenhou allows an ankan in riichi only of the drawn tile's kind and only
        when it leaves the waits unchanged."""
        hand = self.concealed[s]
        drawn = self.last_draw[s]
        ok = not self.after_call and drawn >= 0 and drawn >> 2 == k
        if ok:
            before = counts34(hand)
            before[drawn >> 2] -= 1
            after = counts34(hand)
            after[k] = max(0, after[k] - 4)
            ok = bool(_waits(before)) and _waits(before) == _waits(after)
        if not ok:
            self._find("call_after_riichi", "ankan in riichi that changes the hand", ev.seq, s)

    def _kakan(self, ev: Call, m: Meld) -> None:
        s = ev.seat
        self._own_turn(ev)
        if self.riichi[s] or self.riichi_declared == s:
            self._find("call_after_riichi", "kakan after riichi", ev.seq, s)
        k = m.tiles[0] >> 2 if m.tiles else -1
        melds = self.melds[s]
        for i, old in enumerate(melds):
            if old.kind is MeldKind.PON and old.tiles and old.tiles[0] >> 2 == k:
                melds[i] = m
                break
        else:
            self._find("call_not_held", "kakan without a pon of that kind", ev.seq, s)
            melds.append(m)
        added = m.added if m.added is not None else -1
        if not self._take(s, added):
            self._find("call_not_held", f"kakan: tile {added} is not in the hand", ev.seq, s)
        self._kan_declared(ev, s)
        self._open_kan_dora()
        self.uninterrupted = False
        # Robbing this kan (chankan) keeps the robber's ippatsu on Tenhou: the kan
        # never happened.  The flags are kept until the replacement draw completes it.
        self.ippatsu_before_kakan = list(self.ippatsu)
        self._break_ippatsu()
        self.offer_seats.append(s)
        self.offer_kinds.append(added >> 2)
        self.last_offer = (s, added, _OFFER_KAKAN)
        self.to_act = -1
        self.to_draw = s
        self.rinshan_due = s

    def _kita(self, ev: Call, m: Meld) -> None:
        s = ev.seat
        self._own_turn(ev)
        tile = m.tiles[0] if m.tiles else -1
        allowed = GARI_KINDS if self.rules.scoring == "toutenkou" else _KITA_KINDS
        if not self.rules.nukidora or tile >> 2 not in allowed:
            self._find("kita_not_allowed", "kita without nukidora or of a non-North", ev.seq, s)
        if self.riichi[s] and tile != self.last_draw[s]:
            self._find(
                "riichi_hand_changed",
                "after riichi only a just-drawn North can be set aside",
                ev.seq,
                s,
                computed=self.last_draw[s],
                recorded=tile,
            )
        if not self._take(s, tile):
            self._find("call_not_held", f"kita: tile {tile} is not in the hand", ev.seq, s)
        if self.live <= 0:
            self._find("kan_empty_wall", "kita with no live tile left", ev.seq, s)
        self.melds[s].append(m)
        # A kita always ends the first uninterrupted go-around (double riichi,
        # tenhou/chiihou, kyuushu); whether it ends ippatsu is a rule
        # (``scoring-rules.md`` §13: on Tenhou it does).
        self.uninterrupted = False
        if self.rules.kita_breaks_ippatsu:
            self._break_ippatsu()
        self.offer_seats.append(s)
        self.offer_kinds.append(tile >> 2)
        self.last_offer = (s, tile, _OFFER_KITA)
        self.to_act = -1
        self.to_draw = s
        self.rinshan_due = s

    def _riichi_declare(self, ev: RiichiDeclare) -> None:
        s = ev.seat
        if s != self.to_act or self.after_call or self.riichi[s] or self.riichi_declared >= 0:
            self._find("riichi_out_of_turn", "riichi outside the declarer's turn", ev.seq, s)
        if any(m.opened for m in self.melds[s]):
            self._find("riichi_open", "riichi with an open hand", ev.seq, s)
        if self.scores and s < len(self.scores) and self.scores[s] < self.rules.riichi_cost:
            self._find(
                "riichi_points",
                "riichi with less than the riichi cost",
                ev.seq,
                s,
                computed=self.scores[s],
            )
        if self.live < 4:
            self._find("riichi_late", "riichi with fewer than 4 live tiles", ev.seq, s)
        self.riichi_declared = s

    def _riichi_accept(self, ev: RiichiAccept) -> None:
        s = ev.seat
        if self.riichi_declared != s:
            self._find("riichi_out_of_turn", "riichi stick without a declaration", ev.seq, s)
        self.riichi_declared = -1
        if self.riichi[s]:
            return
        self.riichi[s] = True
        self.ippatsu[s] = True
        self.riichi_accepted.append(s)
        self.sticks += 1
        if s < len(self.scores):
            self.scores[s] -= self.rules.riichi_cost

    def _new_dora(self, ev: NewDora) -> None:
        self._see(ev.indicator, ev.seq)
        self.indicators.append(ev.indicator)
        if len(self.indicators) <= self.dora_due:
            return
        # Tenhou shows a daiminkan/kakan dora after the replacement draw.
        if self.dora_pending and self.rinshan_due < 0 and self.to_act >= 0:
            self.dora_pending -= 1
            self.dora_due += 1
            return
        self._find("dora_timing", "a new dora indicator with no kan due", ev.seq, None)

    # ------------------------------------------------------------------ results

    def _win(self, r: RecordedWin) -> ResultReplay:
        s = r.seat
        seq = r.seq
        tsumo = r.seat == r.from_seat
        hand = self.concealed[s]
        chankan = rinshan = haitei = houtei = tenhou = chiihou = renhou = False
        ippatsu_now = self.ippatsu[s]
        if tsumo:
            if s != self.to_act or self.after_call:
                self._find("win_out_of_turn", "tsumo outside the winner's draw", seq, s)
            win_tile = self.last_draw[s]
            tiles = list(hand)
            rinshan = self.drawn_rinshan
            haitei = self.live == 0 and not rinshan
            if self.uninterrupted and not self.discarded[s]:
                tenhou = s == self.hand.dealer
                chiihou = not tenhou
        else:
            lo = self.last_offer
            if lo is None or lo[0] != r.from_seat or lo[0] == s:
                self._find("ron_no_discard", f"ron with no tile from seat {r.from_seat}", seq, s)
                return ResultReplay(r)
            win_tile = lo[1]
            if lo[2] == _OFFER_ANKAN and not self.rules.kokushi_ankan_ron:
                self._find("ron_no_discard", "ron on an ankan", seq, s)
            if lo[2] == _OFFER_KITA and not self.rules.kita_ron:
                self._find("kita_ron_not_allowed", "ron on a set-aside North", seq, s)
            chankan = lo[2] == _OFFER_KAKAN or lo[2] == _OFFER_ANKAN
            if lo[2] == _OFFER_KAKAN and self.ippatsu_before_kakan is not None:
                ippatsu_now = self.ippatsu_before_kakan[s]
            houtei = self.live == 0 and lo[2] == _OFFER_DISCARD
            renhou = self.uninterrupted and not self.discarded[s]
            tiles = [*hand, win_tile]
            self._check_furiten(s, seq, hand)
        counts = counts34(tiles)
        if not is_complete(counts):
            self._find(
                "win_incomplete",
                "the winning hand is not complete",
                seq,
                s,
                computed=to_notation(tiles, self.aka),
            )
        melds = tuple(self.melds[s])
        riichi = self.riichi[s]
        dora = self._dora()
        ura: tuple[int, ...] = ()
        if riichi:
            ura = tuple(self.dead_ura[: len(dora)]) if self.dead_ura is not None else r.ura
        self._check_win(r, tiles, melds, win_tile, dora, ura, riichi)
        ctx = WinContext(
            tiles=tuple(tiles),
            melds=melds,
            win_tile=win_tile,
            tsumo=tsumo,
            seat=s,
            dealer=self.hand.dealer,
            round_wind=self.hand.round_wind,
            players=self.n,
            riichi=riichi,
            double_riichi=riichi and self.riichi_double[s],
            ippatsu=riichi and ippatsu_now,
            haitei=haitei,
            houtei=houtei,
            rinshan=rinshan,
            chankan=chankan,
            tenhou=tenhou,
            chiihou=chiihou,
            renhou=renhou,
            dora_indicators=dora,
            ura_indicators=ura,
            honba=self.hand.honba,
            gari_seen=self._gari_seen(s, tiles, melds),
        )
        return ResultReplay(r, win=ctx, pao=tuple(self.pao[s]))

    def _gari_seen(self, s: int, tiles: list[int], melds: tuple[Meld, ...]) -> bool:
        """Toutenkou karasu needs a winner who never had a gari tile: none in the
        final hand, its calls and set-asides, or its discards.  Everything a seat
        ever held ends in one of those (discards stay listed when called), so the
        end state answers it.  Outside Toutenkou the flag is unused: True."""
        if self.rules.scoring != "toutenkou":
            return True
        held = [*tiles, *self.discards[s]]
        held += [t for m in melds for t in m.tiles]
        return any(t >> 2 in GARI_KINDS for t in held)

    def _check_furiten(self, s: int, seq: int, hand: list[int]) -> None:
        """Furiten by own discards, by a passed winning tile since the seat's last
        discard (temporary) and since its riichi discard (riichi furiten)."""
        w = _waits(counts34(hand))
        if not w:
            return
        mask = 0
        for k in w:
            mask |= 1 << k
        why = ""
        if self.disc_mask[s] & mask:
            why = "a wait is in the seat's own discards"
        else:
            end = len(self.offer_kinds) - 1
            seats = self.offer_seats
            kinds = self.offer_kinds
            start = self.last_disc_pos[s] + 1
            if self.riichi[s] and self.riichi_pos[s] >= 0:
                start = min(start, self.riichi_pos[s] + 1)
            for i in range(start, end):
                if seats[i] != s and mask >> kinds[i] & 1:
                    why = "a winning tile was passed"
                    break
        if why:
            self._find("ron_furiten", f"ron while furiten: {why}", seq, s)

    def _check_win(
        self,
        r: RecordedWin,
        tiles: list[int],
        melds: tuple[Meld, ...],
        win_tile: int,
        dora: tuple[int, ...],
        ura: tuple[int, ...],
        riichi: bool,
    ) -> None:
        s, seq, aka = r.seat, r.seq, self.aka
        key = _json_key if self.json else _xml_key
        if r.hand and key(tiles) != key(r.hand):
            self._find(
                "hand",
                "replayed concealed tiles differ from the recorded hand",
                seq,
                s,
                recorded=to_notation(r.hand, aka),
                computed=to_notation(tiles, aka),
            )
        if (r.hand or r.melds) and _melds_key(melds, self.json) != _melds_key(r.melds, self.json):
            self._find(
                "melds",
                "replayed melds differ from the recorded melds",
                seq,
                s,
                recorded=[_meld_text(m, aka) for m in r.melds],
                computed=[_meld_text(m, aka) for m in melds],
            )
        if r.win_tile is not None and key([win_tile]) != key([r.win_tile]):
            self._find(
                "win_tile",
                "replayed winning tile differs from the recorded machi",
                seq,
                s,
                recorded=r.win_tile,
                computed=win_tile,
            )
        if r.dora and key(dora) != key(r.dora):
            self._find(
                "dora",
                "dora indicators differ from the recorded doraHai",
                seq,
                s,
                recorded=tuple(r.dora),
                computed=dora,
            )
        if r.dora and riichi and self.dead_ura is None and len(r.ura) != len(dora):
            self._find(
                "ura_count",
                "the log gives a riichi win one ura indicator per dora indicator; this one does not",
                seq,
                s,
                recorded=len(r.ura),
                computed=len(dora),
            )
        elif r.dora and (riichi or r.ura) and key(ura) != key(r.ura):
            self._find(
                "ura",
                "ura indicators differ from the recorded doraHaiUra",
                seq,
                s,
                recorded=tuple(r.ura),
                computed=ura,
            )

    def _draw_result(self, r: RecordedDraw) -> ResultReplay:
        kind = r.kind
        n = self.n
        seats = len(self.concealed)
        if kind == "exhaustive" or kind == "nm":
            if self.live != 0:
                self._find(
                    "draw_wall_not_empty",
                    "exhaustive draw with live tiles left",
                    r.seq,
                    None,
                    computed=self.live,
                )
            tenpai = tuple(s < n and _has_wait(counts34(self.concealed[s])) for s in range(seats))
            nagashi = tuple(s < n and self.nagashi[s] for s in range(seats))
            if r.shown is not None:
                shown = set(r.shown_seats)
                for s in range(n):
                    if (s in shown) != tenpai[s]:
                        self._find(
                            "tenpai",
                            f"seat {s} is {'tenpai' if tenpai[s] else 'noten'} but the log "
                            f"{'does not show' if tenpai[s] else 'shows'} its hand",
                            r.seq,
                            s,
                            recorded=int(s in shown),
                            computed=int(tenpai[s]),
                            category="draw",
                        )
            ctx = DrawContext(tenpai=tenpai, nagashi=nagashi, dealer=self.hand.dealer, players=n)
            return ResultReplay(r, draw=ctx)
        return ResultReplay(r, abort_ok=self._abort_ok(r))

    def _abort_ok(self, r: RecordedDraw) -> bool:
        kind = r.kind
        if kind == "yao9":
            s = self.to_act
            if s < 0 or self.after_call or not self.uninterrupted or self.discarded[s]:
                return False
            kinds = {t >> 2 for t in self.concealed[s]}
            return len(self.concealed[s]) == 14 and sum(_TH_MASK >> k & 1 for k in kinds) >= 9
        if kind == "reach4":
            return len(self.riichi_accepted) == 4
        if kind == "kaze4":
            offers = self.offer_kinds
            return (
                self.uninterrupted
                and len(offers) == 4
                and len(set(self.offer_seats)) == 4
                and 27 <= offers[0] <= 30
                and offers.count(offers[0]) == 4
            )
        if kind == "kan4":
            return self.kans == 4 and self.kan_seats & (self.kan_seats - 1) != 0
        if kind == "ron3":
            lo = self.last_offer
            if lo is None:
                return False
            cand = r.shown_seats if r.shown is not None else range(self.n)
            winners = [
                s for s in cand if s != lo[0] and is_complete(counts34([*self.concealed[s], lo[1]]))
            ]
            return len(winners) == 3
        return False


# --------------------------------------------------------------------------- helpers


_KOKUSHI_KINDS = tuple(sorted(TERMINALS_AND_HONORS))


def _as_hand(part: tuple[int, ...], pair: bool) -> list[int]:
    """A 34-count hand holding ``part`` as its only suit (honors when it has 7
    kinds) and, when ``pair`` is False, a pair of some kind of another suit, so
    ``is_regular_complete`` answers "sets only" for ``part``."""
    counts = [0] * 34
    if len(part) == 7:
        counts[27:34] = part
        if not pair:
            counts[0] = 2
    else:
        counts[0:9] = part
        if not pair:
            counts[27] = 2
    return counts


@lru_cache(maxsize=1 << 16)
def _suit_ok(part: tuple[int, ...], pair: bool) -> bool:
    """Can this one suit be split into sets (plus one pair when ``pair``)?"""
    return is_regular_complete(_as_hand(part, pair))


@lru_cache(maxsize=1 << 16)
def _suit_waits(part: tuple[int, ...], pair: bool) -> int:
    """Bit mask of the positions in this suit whose tile makes it split into
    sets (plus a pair when ``pair``); positions held four times are left out."""
    mask = 0
    c = list(part)
    for i in range(len(c)):
        if c[i] >= 4:
            continue
        c[i] += 1
        if _suit_ok(tuple(c), pair):
            mask |= 1 << i
        c[i] -= 1
    return mask


def wait_mask(counts: list[int]) -> int:
    """Bit mask of the kinds that complete the hand, as ``agari.waits`` finds
    them (kinds held four times left out), computed suit by suit.

    This is the hot part of the replay (riichi, furiten, exhaustive draws).
    A regular hand of 3n+1 tiles waits either in its one suit of 3m+1 tiles
    (that suit must take a pair, the others only sets) or in one of its two
    suits of 3m+2 tiles (that one must become sets, the other holds the
    pair).  Each suit's answer depends on its own counts only, so it is
    memoized per suit pattern: a few dict lookups instead of one full
    ``is_complete`` per candidate kind.  Seven pairs and kokushi are checked
    with ``is_complete`` on their (at most 13) candidates.
    """
    parts = (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )
    ones = []
    twos = []
    for s in range(4):
        r = sum(parts[s]) % 3
        if r == 1:
            ones.append(s)
        elif r == 2:
            twos.append(s)
    mask = 0
    if len(ones) == 1 and not twos:
        w = ones[0]
        if all(_suit_ok(parts[s], False) for s in range(4) if s != w):
            mask = _suit_waits(parts[w], True) << 9 * w
    elif len(twos) == 2 and not ones:
        a, b = twos
        if all(_suit_ok(parts[s], False) for s in range(4) if s != a and s != b):
            if _suit_ok(parts[b], True):
                mask |= _suit_waits(parts[a], False) << 9 * a
            if _suit_ok(parts[a], True):
                mask |= _suit_waits(parts[b], False) << 9 * b
    if sum(counts) == 13:
        mask |= _special_waits(counts)
    return mask


def _special_waits(counts: list[int]) -> int:
    """Seven-pairs and kokushi waits of a 13-tile hand (their only candidates:
    the single kind of six pairs and a single; the terminals and honors)."""
    cand: tuple[int, ...] = ()
    if counts.count(2) == 6 and counts.count(1) == 1:
        cand = (counts.index(1),)
    elif all(counts[k] == 0 for k in range(34) if not _TH_MASK >> k & 1):
        cand = _KOKUSHI_KINDS
    mask = 0
    for k in cand:
        if counts[k] < 4:
            counts[k] += 1
            if is_complete(counts):
                mask |= 1 << k
            counts[k] -= 1
    return mask


def _waits(counts: list[int]) -> set[int]:
    """``agari.waits`` (the same answer, computed suit by suit: ``wait_mask``)."""
    mask = wait_mask(counts)
    return {k for k in range(34) if mask >> k & 1}


def _has_wait(counts: list[int]) -> bool:
    """Tenpai (Tenhou's way): some wait not held four times."""
    return wait_mask(counts) != 0


def _sets_of(melds: Sequence[Meld], kinds: frozenset[int]) -> int:
    """How many of ``melds`` are pons or kans of one of ``kinds``."""
    return sum(
        1
        for x in melds
        if x.kind is not MeldKind.CHI
        and x.kind is not MeldKind.KITA
        and x.tiles
        and x.tiles[0] >> 2 in kinds
    )


def _same_tile(a: int, b: int | None) -> bool:
    """Same kind and redness (JSON logs carry no copy numbers)."""
    return b is not None and a >> 2 == b >> 2 and (a in RED_FIVES) == (b in RED_FIVES)


def _xml_key(tiles: Sequence[int]) -> list[int]:
    return sorted(tiles)


def _json_key(tiles: Sequence[int]) -> list[tuple[int, bool]]:
    return sorted((t >> 2, t in RED_FIVES) for t in tiles)


def _melds_key(melds: Sequence[Meld], json: bool) -> list[object]:
    if json:
        return [(m.kind, _json_key(m.tiles)) for m in melds]
    return [(m.kind, tuple(sorted(m.tiles)), m.called, m.from_seat, m.added) for m in melds]


def _meld_text(m: Meld, aka: bool) -> str:
    return f"{m.kind}:{to_notation(m.tiles, aka)}"


def _meld_shape_ok(m: Meld) -> bool:
    ks = sorted(t >> 2 for t in m.tiles)
    if m.kind is MeldKind.CHI:
        return (
            len(ks) == 3
            and ks[2] < 27
            and ks[0] // 9 == ks[2] // 9
            and ks[1] == ks[0] + 1
            and ks[2] == ks[0] + 2
        )
    want = 3 if m.kind is MeldKind.PON else 4
    return len(ks) == want and ks[0] == ks[-1]
