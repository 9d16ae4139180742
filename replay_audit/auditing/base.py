"""The state of one game's audit, and the small helpers every part of it shares.

Owns ``_AuditorBase`` (the game, its rules and era, the findings and ``hands``
rows collected so far, ``add`` for a finding with its place, and the replay),
``_Outcome`` (how a hand ended, carried to the next hand's checks) and the
comparison helpers of the score chain.

Must not: compare a result (``auditing.hands``, ``auditing.wins``) or compute a
value itself; it only holds and records.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from replay_audit.auditing.engine import engine
from replay_audit.model.events import (
    Game,
    GameMeta,
    HandLog,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
)
from replay_audit.model.findings import INFO, Finding
from replay_audit.model.rules.eras import Era
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.replay.table import replay_game  # (not lazily: a game's import cost)

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit.model.dating import LogWindow
    from replay_audit.replay.values import GameReplay
    from replay_audit.scoring.context import WinValue
    from replay_audit.scoring.flow import HandOutcome, HandState


class _Outcome(TypedDict):
    """How a hand ended, as the audit carries it to the next hand's checks
    (``_expected_next`` turns it into a ``scoring.flow.HandOutcome``)."""

    winners: tuple[int, ...]
    dealer_won: bool
    draw_kind: str | None
    dealer_tenpai: bool | None
    sticks: int
    """Riichi sticks left on the table after the hand."""
    honba: int
    """The hand's computed honba (like the round and dealer below: the flow goes on
    from what was computed, so one wrong INIT is reported once, not again at the
    next hand)."""
    round_index: int
    dealer: int
    riichi: int
    """Riichi sticks placed this hand."""
    log_end: tuple[int, ...]
    """The scores after the hand by the log's own account: its recorded start, less
    its riichi sticks, plus its recorded payments."""
    tenpai: tuple[bool, ...]
    """Each seat's tenpai at an exhaustive draw (empty otherwise)."""


# ---------------------------------------------------------------------- one game


def _fmt(value: object) -> object:
    """Printable, comparable cell value (tuples become ``a,b,c``, nested ones flat).

    >>> _fmt(((1, 2), (52, 1))), _fmt([0, -8000]), _fmt(3)
    ('1,2,52,1', '0,-8000', 3)
    """
    if isinstance(value, tuple | list):
        return _joined(value)
    return value


_PLAIN = frozenset({int, bool, str, float, type(None)})
"""Cell types printed by ``str`` as they are (the common case: no nested tuples)."""


def _joined(values: Sequence[object]) -> str:
    if _PLAIN.issuperset(map(type, values)):  # flat (payments, tenpai): joined in C
        return ",".join(map(str, values))
    return ",".join([_joined(v) if isinstance(v, tuple | list) else str(v) for v in values])


def _flat(values: Iterable[object]) -> str:
    """``_fmt`` of values none of which is a tuple or list (payments, yakuman ids),
    without looking.

    >>> _flat((0, -8000, 8000)), _flat(())
    ('0,-8000,8000', '')
    """
    return ",".join(map(str, values))


def _payments_cell(deltas: tuple[int, ...], players: int) -> str:
    """``_flat(deltas[:players])``, remembered in ``_PAYMENT_CELLS`` by ``(deltas,
    players)``: the same payments (a 3900 ron, a 1000-2000 tsumo ...) come back
    game after game, and every win writes two.

    >>> _payments_cell((0, -8000, 8000, 0), 3), _payments_cell([0, 1000], 2)
    ('0,-8000,8000', '0,1000')
    """
    try:
        text = _PAYMENT_CELLS.get((deltas, players))
    except TypeError:  # a list where a tuple belongs: joined every time
        return _flat(deltas[:players])
    if text is None:
        if len(_PAYMENT_CELLS) >= _PAYMENT_CELLS_MAX:
            _PAYMENT_CELLS.clear()
        text = _PAYMENT_CELLS[deltas, players] = _flat(deltas[:players])
    return text


_PAYMENT_CELLS: dict[tuple[tuple[int, ...], int], str] = {}
"""``_payments_cell``'s texts; ``auditing.wins`` asks it first, without a call."""
_PAYMENT_CELLS_MAX = 4096


def _yaku_set(yaku: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Yaku compared as a set, ignoring zero-han entries (``53,0``)."""
    return tuple(sorted((i, h) for i, h in yaku if h))


YakuCell = tuple[tuple[tuple[int, int], ...], str, int]
"""``_yaku_set`` of a yaku list, its cell text (``_fmt``) and its han (the sum
over the list, as ``RecordedWin.han`` counts them)."""
_YAKU_CELLS: dict[tuple[tuple[int, int], ...], YakuCell] = {}
_YAKU_CELLS_MAX = 8192
"""Entries kept before ``_YAKU_CELLS`` starts over: the whole shared corpus has
about 4000 different yaku lists (recorded, in Tenhou's order, and computed), and
500 Phoenix games ask 8700 times for 1500 of them."""


def _yaku_cell(yaku: tuple[tuple[int, int], ...]) -> YakuCell:
    """``(_yaku_set(yaku), _fmt(_yaku_set(yaku)), han)``, remembered by the yaku
    tuple: every win asks for them, for the recorded and for the computed yaku,
    and sorting, joining and adding them again was a tenth of the auditor's own
    time.

    >>> _yaku_cell(((1, 1), (53, 0), (0, 1)))
    (((0, 1), (1, 1)), '0,1,1,1', 2)
    """
    try:
        cell = _YAKU_CELLS.get(yaku)
    except TypeError:  # lists where tuples belong: worked out every time
        return _new_yaku_cell(yaku)
    if cell is None:
        if len(_YAKU_CELLS) >= _YAKU_CELLS_MAX:
            _YAKU_CELLS.clear()
        cell = _YAKU_CELLS[yaku] = _new_yaku_cell(yaku)
    return cell


def _new_yaku_cell(yaku: Sequence[tuple[int, int]]) -> YakuCell:
    found = _yaku_set(yaku)
    return found, _joined(found), sum(h for _, h in yaku)


class _AuditorBase:
    """The state of one game audit and how a finding is recorded."""

    def __init__(
        self, game: Game, rules: RuleSet, era: Era | None = None, *, read_lobby: bool = False
    ) -> None:
        self.game = game
        self.rules = rules
        self.era = era if era is not None else Era()
        """The readings the log's dates leave open (none for the caller's own rules)."""
        self.window: LogWindow | None = era.window if era is not None else None
        """The log's ``log_window`` where ``era`` was read from it (``era_of``), else
        ``None`` (worked out where it is needed)."""
        self.read_lobby = read_lobby
        """Rules detected, not given: read what the lobby does not record off the log."""
        self.meta = game.meta
        self.findings: list[Finding] = []
        self.hand_rows: list[dict[str, Any]] = []
        self.win_values: dict[int, WinValue | None] = {}
        """The scorer's value of each recorded win, by ``id`` (for the chips)."""
        self._flagged: set[int | None] = set()
        """The hands with a problem among the first ``_flags_seen`` findings
        (``_ScoreChain._flagged_hands``)."""
        self._flags_seen = 0
        self._core_rules: tuple[RuleSet, Any] | None = None
        """``rules`` and the core's form of them (``auditing.wins``), or None."""

    # -- helpers
    def add(
        self, category: str, fld: str, message: str, hand: HandLog | None = None, **kw: Any
    ) -> None:
        self.findings.append(
            Finding(
                category=category,
                field=fld,
                message=message,
                file=self.meta.source,
                log_id=self.meta.log_id,
                hand=hand.label if hand else None,
                hand_index=hand.index if hand else None,
                **kw,
            )
        )

    def replay(self) -> GameReplay:
        """Replay the game; its findings are the audit's first."""
        replay = replay_game(self.game, self.rules)
        self.findings.extend(replay.findings)
        return replay


def _same_state(state: HandState | None, hand: HandLog) -> bool:
    """Whether ``hand`` starts in ``state`` (round, honba, sticks, dealer)."""
    return state is not None and (
        state.round_index,
        state.honba,
        state.sticks,
        state.dealer,
    ) == (hand.round_index, hand.honba, hand.sticks, hand.dealer)


def _as_logged(hand: HandLog, outcome: _Outcome) -> _Outcome:
    """``outcome`` with the hand's state as its INIT recorded it (for the log's own
    account of where the game goes next)."""
    logged = dict(outcome)
    logged.update(
        round_index=hand.round_index,
        honba=hand.honba,
        dealer=hand.dealer,
        dealer_won=hand.dealer in outcome["winners"],
        dealer_tenpai=(
            outcome["tenpai"][hand.dealer]
            if hand.dealer < len(outcome["tenpai"])
            else outcome["dealer_tenpai"]
        ),
        sticks=0 if outcome["winners"] else hand.sticks + outcome["riichi"],
    )
    return logged  # type: ignore[return-value]  # the same keys as ``outcome``


def _problems(findings: Sequence[Finding]) -> int:
    """How many of ``findings`` are problems (notes left out)."""
    return sum(1 for f in findings if f.category != INFO)


def _is_editor_export(meta: GameMeta) -> bool:
    """A tenhou.net/6 editor or viewer export (formats.md §4.1, kind 2): no ``ver``
    and no log id, often one hand, never final scores.  An official download has
    both, so its missing ``sc`` is a finding."""
    return meta.format == "tenhou-json" and meta.log_id is None and "ver" not in dict(meta.extra)


def _scores_agree(a: Sequence[int], b: Sequence[int], players: int) -> bool:
    return tuple(a[:players]) == tuple(b[:players])


def _chain_start(
    hand: HandLog, computed: tuple[int, ...], players: int, riichi_cost: int
) -> tuple[int, ...]:
    """Where the score chain goes on after a start-score mismatch (already reported).

    If the hand's own records agree with its INIT scores (the first result's
    "before" scores equal INIT less this hand's riichi sticks), the INIT is
    trusted and our chain resyncs to it, so one wrong computation upstream is
    reported once, not in every later hand.  If they disagree, or nothing in the
    hand vouches for its INIT (JSON results record no "before" scores), the
    INIT itself is the odd one out and the computed chain goes on (the next
    transition resyncs if the log's own account of this hand leads there).
    """
    scores = list(hand.scores)
    for ev in hand.events:
        if type(ev) is RiichiAccept:
            scores[ev.seat] -= riichi_cost
        elif isinstance(ev, RecordedWin | RecordedDraw):
            if ev.scores_before and _scores_agree(ev.scores_before, scores, players):
                return hand.scores
            break
    return computed


def _expected_next(
    prev: HandLog, outcome: _Outcome, scores: tuple[int, ...], rules: RuleSet, meta: GameMeta
) -> HandState | None:
    """The next hand's state per the rules, or None when the game is over
    (``scoring.flow.next_hand`` of the hand's computed state, round, honba,
    sticks, dealer and scores, not built as a ``HandState`` since only the next
    one is kept)."""
    if rules.max_hands and prev.index + 1 >= rules.max_hands:
        return None
    out = _flow_outcome(
        outcome["winners"],
        outcome["dealer_won"],
        outcome["draw_kind"],
        bool(outcome["dealer_tenpai"]),
    )
    return engine().next_hand_from(
        outcome["round_index"],
        outcome["honba"],
        outcome["sticks"],
        outcome["dealer"],
        tuple(scores[: meta.players]),
        out,
        rules,
        "hanchan" if meta.hanchan else "tonpuu",
    )


@functools.lru_cache(maxsize=256)
def _flow_outcome(
    winners: tuple[int, ...], dealer_won: bool, draw_kind: str | None, dealer_tenpai: bool
) -> HandOutcome:
    """The ``scoring.flow.HandOutcome`` of these values, made once: a frozen value,
    and the same few (who won, whether the dealer did, the draw's kind) end
    nearly every hand."""
    return engine().hand_outcome(
        winners=winners, dealer_won=dealer_won, draw_kind=draw_kind, dealer_tenpai=dealer_tenpai
    )
