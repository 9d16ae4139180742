"""The table's state: everything one hand's replay keeps, and its plumbing.

Owns ``_TableState`` (the slots: concealed tiles, melds, rivers, wall counts, dora,
riichi and ippatsu flags, scores, findings) with the helpers every room of the
table uses (``_find`` records a replay finding with its place, ``_take``,
``_see``, the dora due), and the tile-kind constants of the replay.

Must not: handle a move (``replay.moves``, ``replay.calls``, ``replay.riichi``) or
a result (``replay.results``); read a recorded result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from itertools import chain

from replay_audit.model.events import (
    Game,
    HandLog,
)
from replay_audit.model.findings import Finding
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import RED_FIVES, TERMINALS_AND_HONORS_MASK
from replay_audit.native import _core
from replay_audit.replay import values
from replay_audit.replay.values import ResultReplay
from replay_audit.replay.walls import _HandWall

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
_TH_MASK = TERMINALS_AND_HONORS_MASK
"""Bit mask of the terminal and honor kinds, for nagashi and kyuushu checks."""
_PAO_KINDS = _DRAGON_KINDS | _WIND_KINDS
"""Every kind in ``_PAO_SETS``: a pon of another kind completes no pao set."""

DEALT_SEEN = getattr(_core, "dealt_seen", None) if _core is not None else None
"""The core's ``dealt_seen`` (None: a stale build, no core, or switched off by a test):
``seen`` filled from the deal and the dora indicator; the Python loop of
``_TableState.__init__`` is its reference, and names each repeat."""

CORE_TABLE = getattr(_core, "new_table", None) if _core is not None else None
"""The core's ``new_table`` (None: a stale build, no core, or switched off by a test): a
hand's table built as ``_TableState.__init__`` (its reference) builds it for an XML log,
with the game's ``_core_constants``; ``_core.run_game`` builds each hand's so, and is
not called while this is None."""


def _live_at_deal(n: int, rules: RuleSet) -> tuple[int, bool]:
    """The live wall's tiles at the deal, and whether a replacement draw shortens it.

    Live wall: 136 - 14 dead - 13 * 4 dealt (three-player: 108 - 14 - 13 * 3, 55 draws:
    a real sanma hand with three kita drew 52 live tiles before its exhaustive draw);
    every draw, rinshan too, takes one: the dead wall keeps its size by taking from the
    live wall.  Toutenkou (decided here, unverified: no real log exists): 112 tiles with
    20 rinshan tiles set apart for gari and kans plus 10 indicator tiles, and the hand
    ends when no tile is left before the indicators (riichi.wiki, scoring-rules.md §15);
    so 112 - 30 - 39 = 43 live tiles, and a replacement draw comes from the 20 without
    shortening the live wall."""
    if rules.scoring == "toutenkou":
        return 112 - 30 - 39, False
    return (136 - 14 - 52 if n == 4 else 108 - 14 - 39), True


@dataclasses.dataclass(frozen=True, slots=True)
class TableConstants:
    """What ``_core.new_table`` (and ``run_game``) takes of a game, found once a game,
    as ``_TableState.__init__`` finds it each hand: the core reads each field by its
    name (its slot, found once per class), so that a field added or moved here cannot
    shift the others, and a missing one is a TypeError."""

    game: Game
    rules: RuleSet
    n: int
    aka: bool
    kan_dora_now: bool
    live: int
    """The live wall at the deal (``_live_at_deal``)."""
    rinshan_from_live: bool
    dealt_seen: Callable[..., object]
    """``DEALT_SEEN``: the tiles met at the deal (None: the Python loop's case)."""


def _core_constants(game: Game, rules: RuleSet) -> TableConstants | None:
    """What ``_core.new_table`` takes of a game, found once a game.  None where
    ``__init__`` builds the tables: a JSON log (no copy numbers), ``CORE_TABLE``
    switched off, or ``DEALT_SEEN`` (its Python loop then marks the deal)."""
    meta = game.meta
    dealt_seen = DEALT_SEEN
    if meta.format == "tenhou-json" or dealt_seen is None or CORE_TABLE is None:
        return None
    n = 3 if meta.players == 3 else 4
    live, rinshan_from_live = _live_at_deal(n, rules)
    return values.MAKE(  # (fields set in C, not by the frozen __init__: once a game)
        TableConstants,
        game,
        rules,
        n,
        meta.aka,
        rules.kan_dora_immediate,
        live,
        rinshan_from_live,
        dealt_seen,
    )


# Offer kinds: what a ron can be made on.
_OFFER_DISCARD, _OFFER_KAKAN, _OFFER_KITA, _OFFER_ANKAN = 0, 1, 2, 3


class _TableState:
    """Mutable per-hand state.  Private: only ``_Table.run`` leaves it, as frozen values."""

    __slots__ = (
        "after_call",
        "aka",
        "concealed",
        "core_lists",
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
        "seen_other",
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
        # Once per hand, so its lists come from literals and multiplications
        # (per-seat lists of lists one literal per seat): a fifth of the cost of
        # building them in loops, measured on the corpus.
        meta = game.meta
        haipai = hand.haipai
        self.game = game
        self.hand = hand
        self.rules = rules
        n = 3 if meta.players == 3 else 4
        self.n = n
        json = meta.format == "tenhou-json"
        self.json = json
        self.aka = meta.aka
        # Chip (祝儀) rooms reveal every kan dora at once (observed in the corpus chip
        # log); a RuleSet field would be better, until then the chip flag says it.
        self.kan_dora_now = rules.kan_dora_immediate
        dealt = len(haipai)
        if dealt == 4:  # the usual: a literal is cheaper than list(map(list, haipai))
            seats = 4
            h0, h1, h2, h3 = haipai
            concealed = [[*h0], [*h1], [*h2], [*h3]]
            self.melds: list[list[Meld]] = [[], [], [], []]
            self.discards: list[list[int]] = [[], [], [], []]
            self.pao: list[list[tuple[int, int]]] = [[], [], [], []]
        elif dealt < 4:
            seats = 4
            concealed = list(map(list, haipai))
            concealed += [[] for _ in range(4 - dealt)]
            self.melds = [[], [], [], []]
            self.discards = [[], [], [], []]
            self.pao = [[], [], [], []]
        else:
            seats = dealt
            concealed = list(map(list, haipai))
            self.melds = [[] for _ in range(seats)]
            self.discards = [[] for _ in range(seats)]
            self.pao = [[] for _ in range(seats)]
        self.concealed: list[list[int]] = concealed
        if seats == 4:  # literals: half the cost of a multiplication, nine times a hand
            falses = [False, False, False, False]
            minus = [-1, -1, -1, -1]
            self.disc_mask = [0, 0, 0, 0]
            self.nagashi = [True, True, True, True]
        else:
            falses = [False] * seats
            minus = [-1] * seats
            self.disc_mask = [0] * seats
            self.nagashi = [True] * seats
        self.discarded = falses
        self.live, self.rinshan_from_live = _live_at_deal(n, rules)
        self.to_draw = hand.dealer
        self.to_act = -1
        self.after_call = False
        self.last_draw = minus
        self.drawn_rinshan = False
        self.rinshan_due = -1
        self.last_offer: tuple[int, int, int] | None = None
        self.offer_seats: list[int] = []
        self.offer_kinds: list[int] = []
        self.last_disc_pos = minus[:]
        self.riichi_pos = minus[:]
        self.riichi_declared = -1
        self.riichi = falses[:]
        self.riichi_double = falses[:]
        self.ippatsu = falses[:]
        self.ippatsu_before_kakan: list[bool] | None = None
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
        if wall is not None:
            self.wall_dora: tuple[int, ...] | None = wall.dora
            self.dead_ura: tuple[int, ...] | None = wall.ura
        else:
            self.wall_dora = self.dead_ura = None
        self.live_drawn = 0
        self.rinshan_drawn = 0
        self.wall_ok = True
        self.findings: list[Finding] = []
        self.results: list[ResultReplay] = []
        # Tile ids met so far (XML logs carry copy numbers, so a repeat is a fifth
        # copy): a byte per id 0-135 (``_met``), which the core marks in place; the
        # set it replaced cost a third of this method to fill at the deal, and a
        # hashed add per draw.  The core fills it at the deal (``_core.dealt_seen``)
        # unless a tile is met twice there; the loop below is its reference.
        self.seen_other: set[int] | None = None
        dealt_seen = DEALT_SEEN
        seen = None if json or dealt_seen is None else dealt_seen(haipai, hand.dora_indicator)
        if seen is None:
            seen = self.seen = bytearray(136)
            if not json:
                for t in [*chain.from_iterable(haipai), hand.dora_indicator]:
                    if self._met(t):
                        self._find("tile_duplicate", f"tile {t} dealt twice", hand.seq, None)
        self.seen = seen
        self.core_lists = (
            seen,
            concealed,
            self.last_draw,
            self.riichi,
            self.ippatsu,
            self.discards,
            self.disc_mask,
            self.nagashi,
            self.last_disc_pos,
            self.offer_seats,
            self.offer_kinds,
            self.discarded,
            self.riichi_pos,
            self.riichi_double,
            self.scores,
            self.riichi_accepted,
            self.melds,
        )
        """The lists ``_core.play_moves`` plays on (``replay.moves``), in its order:
        none of them is ever replaced during a hand, only changed in place."""

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
        try:
            hand.remove(tile)  # the common case, in one scan of the hand
            return True
        except ValueError:
            pass
        if self.json:
            k = tile >> 2
            red = tile in RED_FIVES
            for t in hand:
                if t >> 2 == k and (t in RED_FIVES) == red:
                    hand.remove(t)
                    return True
        return False

    def _met(self, tile: int) -> bool:
        """Note ``tile`` as met; whether it was met before.  An id outside 0-135 (no
        log's, but a ``Game`` may be built by hand) is kept in a set of its own."""
        if 0 <= tile < 136:
            seen = self.seen
            if seen[tile]:
                return True
            seen[tile] = 1
            return False
        other = self.seen_other
        if other is None:
            other = self.seen_other = set()
        if tile in other:
            return True
        other.add(tile)
        return False

    def _see(self, tile: int, seq: int) -> None:
        if self.json:
            return
        if self._met(tile):
            self._find("tile_duplicate", f"tile {tile} appears twice", seq, None)

    def _reveal_pending(self) -> None:
        if self.dora_pending:
            self.dora_due += self.dora_pending
            self.dora_pending = 0

    def _break_ippatsu(self) -> None:
        ipp = self.ippatsu
        if True in ipp:  # (often none to break)
            ipp[:] = [False] * len(ipp)  # in place: the core holds the same list

    def _dora(self) -> tuple[int, ...]:
        """The dora indicators shown so far: the rebuilt wall's when there is one."""
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
