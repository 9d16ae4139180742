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
``riichi_accept_misplaced``
                           the riichi stick (REACH step 2) placed other than
                           right after the riichi discard
``kuikae``                 right after a chi or pon, a discard of a kind the call
                           forbids (``RuleSet.kuikae``)
``kan_empty_wall``         a kan (or kita) with no live tile left
``fifth_kan``              a fifth kan
``kita_not_allowed``       kita in a game without nukidora, or a non-North
``dora_timing``            a DORA event where Tenhou's timing has none, or none
                           where it has one (an ankan's before its replacement draw)
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
``draw_mid_turn``          a draw (but a kyuushu) while a seat has yet to discard
``seed``                   the game's SHUFFLE seed cannot be used (cut short or
                           damaged; an unknown generator's is a note): once
                           per game, and the walls are then not rebuilt
=========================  ==================================================

At exhaustive draws the computed tenpai seats are compared with the shown
hands (XML only) as ``Finding(category="draw", field="tenpai")``; an abortive
draw's shown seats with those its rule shows (``field="hand_shown"``).

The loop is the hot path (a million games): integer tiles, plain lists per
seat, no dict churn and no copies; dispatch is a ``type(ev) is X`` chain.

This module owns ``replay_game``, ``replay_hand`` and ``_Table`` (the event
dispatch over the rooms of ``replay.moves``, ``riichi``, ``calls`` and
``results``).

Must not: read a recorded result to decide anything, or import the auditor,
the report or the runner.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from replay_audit.model.events import (
    Call,
    Discard,
    Draw,
    Game,
    HandLog,
    NewDora,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.findings import Finding
from replay_audit.model.meld import MeldKind
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.native import _core
from replay_audit.replay import moves, results, values
from replay_audit.replay.moves import _CHI, _PON
from replay_audit.replay.results import _Results
from replay_audit.replay.state import _TH_MASK, _core_constants
from replay_audit.replay.values import GameReplay, HandReplay, ResultReplay
from replay_audit.replay.walls import _HandWall, _WallSource
from replay_audit.scoring.context import DrawContext, WinContext

__all__ = [
    "GameReplay",
    "HandReplay",
    "ResultReplay",
    "replay_game",
    "replay_hand",
]

CORE_RUN = getattr(_core, "run_hand", None) if _core is not None else None
"""The core's ``run_hand`` (None: a stale build, no core, or switched off by a test):
``_Table.run`` for an XML log in one call a hand, calling back into the rooms below for
what it does not play itself; ``run``'s own loop is its reference
(``tests/test_core_replay_hand.py`` holds them equal on the corpus)."""

CORE_GAME = getattr(_core, "run_game", None) if _core is not None else None
"""The core's ``run_game`` (None: a stale build, no core, or switched off by a test):
``replay_game``'s loop over an XML game's hands in one call, each hand's table built by
the core (``state.CORE_TABLE``'s ``new_table``) and run as ``CORE_RUN`` runs it; that
loop (``_set_table`` then ``CORE_RUN``) is its reference
(``tests/test_core_replay_table.py`` holds them equal on the corpus)."""


@dataclasses.dataclass(frozen=True, slots=True)
class RunClasses:
    """What ``_core.run_hand`` (and ``run_game``) dispatches on and makes: the core
    reads each field by its name (its slot, found once per class), so that a field
    added or moved here cannot shift the others, and a missing one is a TypeError."""

    draw: type
    discard: type
    th_mask: int
    """``state._TH_MASK``: the terminal and honor kinds' bits."""
    riichi_declare: type
    riichi_accept: type
    call: type
    chi: object
    """``MeldKind.CHI``."""
    pon: object
    """``MeldKind.PON``."""
    new_dora: type
    win: type
    draw_result: type
    win_context: type
    result_replay: type
    hand_replay: type
    draw_context: type
    """What an exhaustive draw the core makes carries (``scoring.context.DrawContext``)."""
    ankan: object
    """``MeldKind.ANKAN``: the core plays the ankan and kakan that find nothing."""
    kakan: object
    """``MeldKind.KAKAN``."""
    daiminkan: object
    """``MeldKind.DAIMINKAN``: the core plays the chi, pon and daiminkan that find
    nothing outside its runs too, their pao with them."""
    kita: object
    """``MeldKind.KITA`` (no set, when pao counts them)."""


_RUN_CLASSES = RunClasses(
    draw=Draw,
    discard=Discard,
    th_mask=_TH_MASK,
    riichi_declare=RiichiDeclare,
    riichi_accept=RiichiAccept,
    call=Call,
    chi=_CHI,
    pon=_PON,
    new_dora=NewDora,
    win=RecordedWin,
    draw_result=RecordedDraw,
    win_context=WinContext,
    result_replay=ResultReplay,
    hand_replay=HandReplay,
    draw_context=DrawContext,
    ankan=MeldKind.ANKAN,
    kakan=MeldKind.KAKAN,
    daiminkan=MeldKind.DAIMINKAN,
    kita=MeldKind.KITA,
)
"""What ``_core.run_hand`` dispatches on and makes, made once."""


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
    # The core's loop called here for each hand, its arguments found once a game (what
    # ``replay_hand`` and ``_Table.run`` do, less two calls a hand).
    core = _core_run(game, rules)
    logs = game.hands
    walls_of = walls.for_hands(logs) if walls is not None else [None] * len(logs)
    whole = CORE_GAME
    consts = _core_constants(game, rules) if core is not None and whole is not None else None
    if consts is not None and whole is not None and core is not None and type(logs) is tuple:
        # The loop below in one core call: each hand's table built by the core (as
        # ``_set_table`` builds it, which the core calls where it declines), then run.
        hands, findings = whole(_Table, logs, walls_of, walls, _set_table, consts, core[1])
    else:
        out: list[HandReplay] = []
        found: list[Finding] = []
        for hand, wall in zip(logs, walls_of, strict=True):
            table = _set_table(game, hand, rules, walls, wall)
            done = table.run() if core is None else core[0](table, hand.events, core[1])
            out.append(done)
            if done.findings:
                found += done.findings
        hands = tuple(out)
        findings = tuple(found)
    dice = _dice_findings(game, logs, walls_of) if walls is not None else ()
    if dice:
        findings = (*findings, *dice)
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
    return values.MAKE(GameReplay, game, hands, findings)  # (fields set in C)


def _dice_findings(
    game: Game, hands: Sequence[HandLog], walls: Sequence[_HandWall | None]
) -> tuple[Finding, ...]:
    """A finding for each hand whose INIT dice are not those its wall was rolled with:
    the seed gives the dice with the tiles (``replay_audit.wall``; all 28,211 hands of
    the corpus with a wall, three-player and 2009 walls among them, write its dice).
    A loop over the game's walls, apart from the tables: the dice play no part in
    the moves."""
    found: list[Finding] = []
    for hand, wall in zip(hands, walls, strict=True):
        if wall is not None and wall.dice is not None and hand.dice != wall.dice:
            found.append(
                Finding(
                    category="replay",
                    field="dice",
                    message="the dice INIT writes are not those the seed rolled for this hand",
                    file=game.meta.source,
                    log_id=game.meta.log_id,
                    hand=hand.label,
                    hand_index=hand.index,
                    seq=hand.seq,
                    recorded=",".join(map(str, hand.dice)),
                    computed=",".join(map(str, wall.dice)),
                )
            )
    return tuple(found)


def replay_hand(
    game: Game, hand: HandLog, rules: RuleSet, walls: _WallSource | None = None
) -> HandReplay:
    """Replay one hand; ``walls`` is the game's wall source (``replay_game`` makes
    one; without it the hand is replayed with no wall)."""
    wall = walls.for_hand(hand) if walls is not None else None
    return _set_table(game, hand, rules, walls, wall).run()


def _set_table(
    game: Game, hand: HandLog, rules: RuleSet, walls: _WallSource | None, wall: _HandWall | None
) -> _Table:
    """The table of one hand at its deal, with its wall (``walls.for_hand(hand)``; a
    finding if the game's seed gives none that matches the deal)."""
    table = _Table(game, hand, rules, wall)
    if wall is None and walls is not None and walls.usable and walls.seeded(hand):
        table._find(
            "wall", "no wall rebuilt from the seed matches this hand's deal", hand.seq, None
        )
    return table


@dataclasses.dataclass(frozen=True, slots=True)
class RunArgs:
    """What ``_core.run_hand`` (and ``run_game``) takes besides the table and the
    events, one per game: the core reads each field by its name, as ``RunClasses``."""

    play: Callable[..., int]
    """The core's ``play_moves`` (or what a test puts in its place)."""
    checks: Callable[..., object] | None
    """The core's ``win_checks``; None: every win made by the table's ``_win``."""
    make: Callable[..., object]
    """``values.MAKE``."""
    classes: RunClasses
    riichi_cost: int
    chi_allowed: bool


def _core_run(game: Game, rules: RuleSet) -> tuple[Callable[..., HandReplay], RunArgs] | None:
    """``_core.run_hand`` and its arguments after the table and the events, for a game
    whose hands it plays (an XML log, the core's moves there); None: ``_Table.run``'s
    own loop plays them.  The core's shares as they are now (a test may have replaced
    any of them)."""
    core = CORE_RUN
    play = moves.CORE_MOVES
    if core is None or play is None or game.meta.format == "tenhou-json":
        return None
    checks = results.CORE_WIN_CHECKS if rules.scoring != "toutenkou" else None
    args = (play, checks, values.MAKE, _RUN_CLASSES, rules.riichi_cost, rules.chi)
    return core, values.MAKE(RunArgs, *args)  # (fields set in C, not by the frozen __init__)


class _Table(_Results):
    """One hand's replay: the rooms of ``replay.moves``, ``replay.riichi``,
    ``replay.calls`` and ``replay.results`` over the state of ``replay.state``;
    ``run`` dispatches each event to its room."""

    __slots__ = ()

    # ------------------------------------------------------------------ main loop

    def run(self) -> HandReplay:
        events = self.hand.events
        n = len(events)
        i = 0
        # A run of draws and discards: the core plays what it can of it (``_moves``'
        # common case, and the riichi steps, chi and pon between its moves) on the table
        # itself (its ``core_lists`` and counters); when it declines the first move,
        # ``_moves`` plays that one; without the core (or for JSON logs, which carry no
        # copy numbers), ``_moves`` plays the whole run.  Called here, not through a
        # method: about five runs a hand, and the rules' values read once a hand.
        play = moves.CORE_MOVES if not self.json else None
        rules = self.rules
        cost = rules.riichi_cost
        chi = rules.chi
        core = _core_run(self.game, rules)
        if core is not None:  # the same loop and ending in one core call
            return core[0](self, events, core[1])
        while i < n:
            ev = events[i]
            t = type(ev)
            if t is Draw or t is Discard:
                if play is None:
                    i = self._moves(events, i)
                    continue
                j: int = play(
                    self,
                    events,
                    i,
                    Draw,
                    Discard,
                    _TH_MASK,
                    RiichiDeclare,
                    RiichiAccept,
                    cost,
                    Call,
                    _CHI,
                    _PON,
                    chi,
                )
                i = j if j >= 0 else self._moves(events, i, i + 1)
                continue
            i += 1
            if t is Call:
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
        wall_dora = self.wall_dora
        indicators = self.indicators
        if wall_dora is not None and tuple(indicators) != wall_dora[: len(indicators)]:
            self._check_wall_dora()  # it finds the difference
        ura_source: str | None = None
        for r in self.results:  # a loop, not any(): no generator per hand
            if r.win is not None and r.win.riichi:
                ura_source = "wall" if self.dead_ura is not None else "log"
                break
        return values.MAKE(
            HandReplay,
            self.hand,
            tuple(self.results),
            tuple(self.findings),
            tuple(self.riichi_accepted),
            self._dora(),
            ura_source,
            self.sticks,
            tuple(self.scores),
        )
