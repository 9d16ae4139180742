"""Facts first: one flat row per (hand, seat) and per (game, seat).

Statistics are ratios of counters, and counters are sums of facts; keeping the
facts as plain rows (not as running totals) lets one fact table feed every
convention (double ron, abortive draws, closed kans), merge across files and
processes, and be exported for users who want their own numbers (stats.md
§1.7).  These functions read only the events of ``replay_audit.model.events``: the
moves and the *recorded* results.  Statistics describe what happened at the
table, so they use what the log says, not what the scorer recomputes.

Units follow ``model.events``: whole points, absolute seats (0 = East in East 1).

This module owns the per-(hand, seat) facts (``hand_facts``); the identity of a
game and its players is ``stats.identity`` and the per-game facts
``stats.game_facts``, whose names are re-exported here for the old path.

Must not: aggregate, read files or render.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_not
from typing import Any

from replay_audit.model.events import (
    Call,
    Discard,
    Draw,
    Game,
    HandLog,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.meld import MeldKind
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import is_terminal_or_honor, kind
from replay_audit.replay.waits import riichi_wait_mask
from replay_audit.stats.game_facts import dealer_streaks as dealer_streaks
from replay_audit.stats.game_facts import game_facts as game_facts
from replay_audit.stats.game_facts import placements as placements
from replay_audit.stats.game_facts import score_history as score_history
from replay_audit.stats.identity import ANONYMOUS_NAMES as ANONYMOUS_NAMES
from replay_audit.stats.identity import game_rules as game_rules
from replay_audit.stats.identity import game_type as game_type
from replay_audit.stats.identity import lobby as lobby
from replay_audit.stats.identity import platform as platform
from replay_audit.stats.identity import player_key as player_key
from replay_audit.stats.identity import seats as seats
from replay_audit.stats.identity import start_shanten as start_shanten

YAKU_IPPATSU = 2
YAKU_DOUBLE_RIICHI = 21
YAKU_URA = 53

_CALLS_THAT_TAKE = (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)
_TILE_MOVES = frozenset({Draw, Discard, Call})


# --------------------------------------------------------------------- hand facts


@dataclass(slots=True)
class _SeatState:
    """What one seat did during a hand, gathered in one pass over the moves."""

    discards: int = 0
    discards_taken: bool = False
    riichi_declared: bool = False
    riichi_accepted: bool = False
    riichi_turn: int | None = None
    riichi_order: int | None = None
    riichi_waits: int | None = None
    """Tile kinds the hand waits on after the riichi discard (None: not yet, or unknown)."""
    riichi_pending: bool = False
    opened: bool = False
    ankan: bool = False
    kita: int = 0
    win_turn: int | None = None


def riichi_wait_kinds(hand: HandLog, seat: int, stop: int) -> int | None:
    """How many tile kinds ``seat`` waits on once ``hand.events[stop]`` (its riichi
    discard) is made; None when the concealed tiles cannot be rebuilt.

    Only riichi hands need their tiles, so they are rebuilt here, from the deal
    and the seat's own moves, rather than tracked for every seat on every move.
    Waits are counted as Tenhou counts tenpai: a kind the hand holds all four of
    is not a wait.
    """
    if seat >= len(hand.haipai) or len(hand.haipai[seat]) != 13:
        return None
    tiles = list(hand.haipai[seat])
    events = hand.events[: stop + 1]
    try:
        # only draws, discards and calls move tiles: the rest is dropped in C
        for ev in compress(events, map(_TILE_MOVES.__contains__, map(type, events))):
            if ev.seat != seat:  # type: ignore[union-attr]  # a Draw, Discard or Call
                continue
            t = type(ev)  # exact type tests: mypy cannot narrow through ``t``, hence the ignores
            if t is Draw:
                tiles.append(ev.tile)  # type: ignore[union-attr]  # t is Draw
            elif t is Discard:
                tiles.remove(ev.tile)  # type: ignore[union-attr]  # t is Discard
            else:
                call: Call = ev  # type: ignore[assignment]  # t is Call
                m = call.meld
                if m.kind is MeldKind.KAKAN:
                    used: Iterable[int] = (m.added,) if m.added is not None else ()
                elif m.kind in _CALLS_THAT_TAKE:
                    used = [x for x in m.tiles if x != m.called]
                else:
                    used = m.tiles
                for x in used:
                    tiles.remove(x)
    except ValueError:  # a move the log does not explain: the replay reports it
        return None
    if len(tiles) % 3 != 1:
        return None
    counts = [0] * 34
    for x in tiles:
        counts[x >> 2] += 1
    return riichi_wait_mask(counts).bit_count()


def _draw_tenpai(draw: RecordedDraw, seat: int) -> bool | None:
    """Was ``seat`` tenpai at this exhaustive draw?

    XML shows the tenpai hands; JSON shows none, so the noten payments tell
    (positive delta = tenpai), and when no payment was made the status string
    says all-tenpai or all-noten.  ``None`` when the log cannot tell (a JSON
    nagashi mangan, whose payments are not noten payments)."""
    if draw.shown is not None:
        return seat in draw.shown_seats
    if draw.kind != "exhaustive":
        return None
    if any(draw.deltas):
        return draw.deltas[seat] > 0
    status = draw.status_string or ""
    if "全員聴牌" in status:
        return True
    if "全員不聴" in status or "流局" in status:
        return False
    return None


def _nagashi_seats(draw: RecordedDraw, states: list[_SeatState], hand: HandLog) -> set[int]:
    """Who made nagashi mangan: every discard a terminal or honor and none taken.
    Falls back to the seats that were paid, when no discard pile qualifies
    (a log cut short or a rule we do not know)."""
    n = len(states)
    kinds: list[list[int]] = [[] for _ in range(n)]
    for ev in hand.events:  # rare (a nagashi draw): the piles are rebuilt only here
        if type(ev) is Discard and ev.seat < n:
            kinds[ev.seat].append(kind(ev.tile))
    by_moves = {
        s
        for s, st in enumerate(states)
        if kinds[s] and not st.discards_taken and all(is_terminal_or_honor(k) for k in kinds[s])
    }
    if by_moves:
        return by_moves
    return {s for s, d in enumerate(draw.deltas[: len(states)]) if d > 0}


def _index_of(events: Sequence[object], ev: object) -> int:
    """Where ``ev`` (this very object) sits in ``events``."""
    for i, x in enumerate(events):
        if x is ev:
            return i
    raise ValueError("event not in its hand")  # pragma: no cover - ev comes from events


def _has_yaku(win: RecordedWin, yaku_id: int, json_prefix: str, *, positive: bool = False) -> bool:
    """Does the recorded win list this yaku (by Tenhou id, or by JSON name)?
    ``positive``: only when it is worth at least one han (Tenhou lists ura at 0)."""
    for yid, han in win.yaku:
        if yid == yaku_id and (han > 0 or not positive):
            return True
    for name in win.yaku_names:
        if name.startswith(json_prefix):
            if positive and "(0" in name:
                continue
            return True
    return False


def hand_facts(game: Game) -> list[dict[str, Any]]:
    """One row per (hand, seat that sat in it).

    Columns (booleans unless stated):

    - identity: ``file, log_id, game_type, hand_index, label, seat, name, dealer``
    - ``result``: ``win`` / ``exhaustive`` / ``nagashi`` / ``abortive`` / ``none``
      (``none``: the log ends before the hand does)
    - ``riichi_declared`` (REACH step 1, so a declaration tile that deals in
      counts), ``riichi_accepted`` (the stick was placed), ``riichi_turn`` (1 +
      own discards before the riichi discard), ``riichi_order`` (1 = first
      riichi of the hand), ``chased`` (someone declared after this seat)
    - ``called``: chi, pon or open kan (opens the hand); ``closed_kan``: made an
      ankan (does not open); ``kita``: count of north tiles set aside
    - ``won, won_tsumo, won_ron``; ``win_hand_value`` (``RecordedWin.points``:
      han/fu value without honba and sticks), ``win_payment`` (the recorded
      delta: value + honba + sticks), ``win_turn``; ``ippatsu``, ``ura`` (ura
      worth > 0 han), ``double_riichi``, ``yakuman``
    - ``dealt_in`` and ``deal_in_to`` (count of winners off this seat's tile:
      2 for a double ron); ``deal_in_payment`` (sum of what those wins took from
      this seat, honba included; pao shares excluded); ``deal_in_to_riichi``,
      ``deal_in_to_open``, ``deal_in_to_dama`` (counts by the winner's state)
    - ``pao_paid`` (points paid as the liable player, never a deal-in),
      ``lost_to_tsumo`` (points paid to others' tsumo, pao excluded)
    - ``exhaustive_draw`` (wall ran out, nagashi included), ``tenpai_at_draw``
      (``None`` if not an exhaustive draw or unknown), ``abortive``, ``nagashi``
    - ``riichi_win``, ``dama_win`` (won closed, no riichi; ankan keeps a hand
      closed), ``open_win``
    - ``delta`` (sum of recorded deltas this hand), ``riichi_stick``
      (points put down as a riichi stick), ``net`` (delta − riichi_stick: the
      score change the hand caused)
    - ``dealt``: the seat's 13 dealt tile ids as a hex string (2 digits per
      tile, empty for a 3-player placeholder).  The starting shanten is
      computed from it at aggregation time (``start_shanten``), not here:
      facts run in every audit and a shanten per seat and hand would cost
      several times the rest of the facts.
    """
    rules = game_rules(game)
    gtype = game_type(game)
    names = [player_key(game, s) for s in range(game.meta.players)]
    rows: list[dict[str, Any]] = []
    for hand in game.hands:
        rows.extend(_facts_for_hand(game, hand, rules, gtype, names))
    return rows


def _facts_for_hand(
    game: Game, hand: HandLog, rules: RuleSet, gtype: str, names: list[str] | None = None
) -> list[dict[str, Any]]:
    n = game.meta.players
    states = [_SeatState() for _ in range(n)]
    ndisc = [0] * n  # discards per seat so far (``_SeatState.discards`` written at the end)
    pending = [False] * n  # riichi declared, riichi discard not yet made
    any_pending = False
    last_discarder: int | None = None
    declared_order = 0
    wins: list[RecordedWin] = []
    draws: list[RecordedDraw] = []
    events = hand.events
    # Draws (a third of the events) say nothing here: they are dropped in C
    # (``compress`` over the events' types) before the loop.
    for ev in compress(events, map(is_not, map(type, events), repeat(Draw))):
        # The event types are final classes: an exact type test suffices, and is
        # cheaper than isinstance.  mypy cannot narrow ``ev`` through ``t``, so each
        # branch binds a narrowed local under one ignore.
        t = type(ev)
        if t is Discard:
            ds: int = ev.seat  # type: ignore[union-attr]  # t is Discard
            if ds < n:
                ndisc[ds] += 1
                if any_pending and pending[ds]:  # the riichi discard: the wait is now fixed
                    pending[ds] = False
                    any_pending = any(pending)
                    states[ds].riichi_waits = riichi_wait_kinds(hand, ds, _index_of(events, ev))
            last_discarder = ds
        elif t is Call:
            call: Call = ev  # type: ignore[assignment]  # t is Call
            if call.seat >= n:
                continue
            meld = call.meld
            mk = meld.kind
            if meld.opened:
                states[call.seat].opened = True
            if mk is MeldKind.ANKAN:
                states[call.seat].ankan = True
            elif mk is MeldKind.KITA:
                states[call.seat].kita += 1
            if mk in _CALLS_THAT_TAKE:
                taken_from = meld.from_seat if meld.from_seat is not None else last_discarder
                if taken_from is not None and taken_from < n:
                    states[taken_from].discards_taken = True
        elif t is RiichiDeclare:
            rd: RiichiDeclare = ev  # type: ignore[assignment]  # t is RiichiDeclare
            if rd.seat < n and not states[rd.seat].riichi_declared:
                st = states[rd.seat]
                st.riichi_declared = True
                st.riichi_turn = ndisc[rd.seat] + 1
                declared_order += 1
                st.riichi_order = declared_order
                st.riichi_pending = True
                pending[rd.seat] = True
                any_pending = True
        elif t is RiichiAccept:
            ra: RiichiAccept = ev  # type: ignore[assignment]  # t is RiichiAccept
            if ra.seat < n:
                states[ra.seat].riichi_accepted = True
        elif t is RecordedWin:
            win: RecordedWin = ev  # type: ignore[assignment]  # t is RecordedWin
            if win.seat < n and states[win.seat].win_turn is None:
                states[win.seat].win_turn = ndisc[win.seat] + 1
            wins.append(win)
        elif t is RecordedDraw:
            draws.append(ev)  # type: ignore[arg-type]  # t is RecordedDraw
    for seat in range(n):
        st = states[seat]
        st.discards = ndisc[seat]
        st.riichi_pending = pending[seat]

    if wins:
        result = "win"
    elif any(d.is_abortive for d in draws):
        result = "abortive"
    elif any(d.kind == "nm" for d in draws):
        result = "nagashi"
    elif draws:
        result = "exhaustive"
    else:
        result = "none"

    meta = game.meta
    file, log_id, hand_index, label, dealer = (
        meta.source,
        meta.log_id,
        hand.index,
        hand.label,
        hand.dealer,
    )
    if names is None:
        names = [player_key(game, s) for s in range(n)]
    haipai = hand.haipai
    n_haipai = len(haipai)
    exhaustive_draw = result in ("exhaustive", "nagashi")
    abortive = result == "abortive"
    cost = rules.riichi_cost
    rows: list[dict[str, Any]] = []
    for seat in range(n):
        st = states[seat]
        order = st.riichi_order
        # one literal, identity keys then the facts (the
        # columns' order); the last four are filled in below
        rows.append(
            {
                "file": file,
                "log_id": log_id,
                "game_type": gtype,
                "hand_index": hand_index,
                "label": label,
                "seat": seat,
                "name": names[seat],
                "dealer": dealer == seat,
                "result": result,
                "riichi_declared": st.riichi_declared,
                "riichi_accepted": st.riichi_accepted,
                "riichi_turn": st.riichi_turn,
                "riichi_order": order,
                "riichi_waits": st.riichi_waits,
                "chased": order is not None and order < declared_order,
                "called": st.opened,
                "closed_kan": st.ankan,
                "kita": st.kita,
                "won": False,
                "won_tsumo": False,
                "won_ron": False,
                "win_hand_value": None,
                "win_payment": None,
                "win_turn": None,
                "ippatsu": False,
                "ura": False,
                "double_riichi": False,
                "yakuman": False,
                "dealt_in": False,
                "deal_in_to": 0,
                "deal_in_payment": 0,
                "deal_in_to_riichi": 0,
                "deal_in_to_open": 0,
                "deal_in_to_dama": 0,
                "pao_paid": 0,
                "lost_to_tsumo": 0,
                "exhaustive_draw": exhaustive_draw,
                "tenpai_at_draw": None,
                "abortive": abortive,
                "nagashi": False,
                "delta": 0,
                "riichi_stick": cost if st.riichi_accepted else 0,
                "dealt": bytes(haipai[seat]).hex() if seat < n_haipai else "",
                "riichi_win": False,
                "open_win": False,
                "dama_win": False,
                "net": 0,
            }
        )

    for w in wins:
        if w.seat >= n:
            continue
        deltas = w.deltas
        winner = rows[w.seat]
        wst = states[w.seat]
        winner["won"] = True
        winner["won_tsumo"] = winner["won_tsumo"] or w.tsumo
        winner["won_ron"] = winner["won_ron"] or not w.tsumo
        winner["win_hand_value"] = (winner["win_hand_value"] or 0) + (w.points or 0)
        if deltas:
            winner["win_payment"] = (winner["win_payment"] or 0) + deltas[w.seat]
        winner["win_turn"] = wst.win_turn
        winner["ippatsu"] = winner["ippatsu"] or _has_yaku(w, YAKU_IPPATSU, "一発")
        winner["ura"] = winner["ura"] or _has_yaku(w, YAKU_URA, "裏ドラ", positive=True)
        winner["double_riichi"] = winner["double_riichi"] or _has_yaku(
            w, YAKU_DOUBLE_RIICHI, "両立直"
        )
        winner["yakuman"] = winner["yakuman"] or bool(w.yakuman)
        pao = w.pao_seat if w.pao_seat is not None and w.pao_seat < n else None
        if not w.tsumo and w.from_seat < n:
            loser = rows[w.from_seat]
            loser["dealt_in"] = True
            loser["deal_in_to"] += 1
            if deltas:
                loser["deal_in_payment"] += -deltas[w.from_seat]
            if wst.riichi_declared:
                loser["deal_in_to_riichi"] += 1
            elif wst.opened:
                loser["deal_in_to_open"] += 1
            else:
                loser["deal_in_to_dama"] += 1
        if pao is not None and pao != w.from_seat and deltas:
            rows[pao]["pao_paid"] += -deltas[pao]
        if w.tsumo and deltas:
            for s in range(n):
                if s != w.seat and s != pao:
                    rows[s]["lost_to_tsumo"] += -deltas[s]

    for d in draws:
        if d.kind in ("exhaustive", "nm"):
            for seat in range(n):
                rows[seat]["tenpai_at_draw"] = _draw_tenpai(d, seat)
        if d.kind == "nm":
            for seat in _nagashi_seats(d, states, hand):
                rows[seat]["nagashi"] = True

    results: tuple[RecordedWin | RecordedDraw, ...] = (*wins, *draws)
    for res in results:
        for seat, dv in enumerate(res.deltas[:n]):
            rows[seat]["delta"] += dv

    for seat, row in enumerate(rows):
        st = states[seat]
        row["riichi_win"] = row["won"] and st.riichi_declared
        row["open_win"] = row["won"] and st.opened
        row["dama_win"] = row["won"] and not st.opened and not st.riichi_declared
        row["net"] = row["delta"] - row["riichi_stick"]
    return rows
