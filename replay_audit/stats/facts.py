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

from collections.abc import Callable
from typing import Any

from replay_audit.model.events import (
    ABORTIVE_KINDS,
    Discard,
    Game,
    HandLog,
    RecordedDraw,
    RecordedWin,
)
from replay_audit.model.tiles import is_terminal_or_honor, kind
from replay_audit.native import _core
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
from replay_audit.stats.scan import EVENT_CLASSES, MELD_KINDS, scan_hand
from replay_audit.stats.scan import riichi_wait_kinds as riichi_wait_kinds

YAKU_IPPATSU = 2
YAKU_DOUBLE_RIICHI = 21
YAKU_URA = 53

_ROW: dict[str, Any] = {
    # identity
    "file": None,
    "log_id": None,
    "game_type": None,
    "hand_index": None,
    "label": None,
    "seat": None,
    "name": None,
    "dealer": False,
    "result": None,
    # riichi and calls
    "riichi_declared": False,
    "riichi_accepted": False,
    "riichi_turn": None,
    "riichi_order": None,
    "riichi_waits": None,
    "chased": False,
    "called": False,
    "closed_kan": False,
    "kita": 0,
    # wins
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
    # losses
    "dealt_in": False,
    "deal_in_to": 0,
    "deal_in_payment": 0,
    "deal_in_to_riichi": 0,
    "deal_in_to_open": 0,
    "deal_in_to_dama": 0,
    "pao_paid": 0,
    "lost_to_tsumo": 0,
    # draws
    "exhaustive_draw": False,
    "tenpai_at_draw": None,
    "abortive": False,
    "nagashi": False,
    # points
    "delta": 0,
    "riichi_stick": 0,
    "dealt": "",
    "riichi_win": False,
    "open_win": False,
    "dama_win": False,
    "net": 0,
}
"""A hand-facts row at its defaults, its keys in the columns' order: each row is a
copy with what differs written in (cheaper than a literal of every column)."""
_KEYS = tuple(_ROW)
"""The columns, in order, as the core's ``game_rows`` takes them (it checks them)."""

CORE_ROWS: Callable[..., list[dict[str, Any]] | None] | None = (
    getattr(_core, "game_rows", None) if _core is not None else None
)
"""The core's ``game_rows`` (``src/core/facts_rows.cpp``): a game's rows as
``_facts_for_hand`` writes them, built in C from each hand's scan, the hands it
declines left to ``_facts_for_hand`` (None: a stale build, no core, or switched off by
a test).  ``_facts_for_hand`` stays the reference; ``tests/test_core_facts.py`` holds
the two equal, row for row, over the shared corpus and mutated games."""


# --------------------------------------------------------------------- hand facts


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


def _nagashi_seats(draw: RecordedDraw, n: int, taken: set[int], hand: HandLog) -> set[int]:
    """Who made nagashi mangan: every discard a terminal or honor and none taken
    (``taken``: the seats a call took a discard from).  Falls back to the seats
    that were paid, when no discard pile qualifies (a log cut short or a rule we
    do not know)."""
    kinds: list[list[int]] = [[] for _ in range(n)]
    for ev in hand.events:  # rare (a nagashi draw): the piles are rebuilt only here
        if type(ev) is Discard and ev.seat < n:
            kinds[ev.seat].append(kind(ev.tile))
    by_moves = {
        s
        for s in range(n)
        if kinds[s] and s not in taken and all(is_terminal_or_honor(k) for k in kinds[s])
    }
    if by_moves:
        return by_moves
    return {s for s, d in enumerate(draw.deltas[:n]) if d > 0}


def _riichi_yaku(win: RecordedWin) -> tuple[bool, bool, bool]:
    """Does the recorded win list ippatsu, ura (worth at least one han: Tenhou
    lists ura at 0) and double riichi, by Tenhou id or by JSON name?  One pass
    over the yaku for the three."""
    ippatsu = ura = double = False
    for yid, han in win.yaku:
        if yid == YAKU_IPPATSU:
            ippatsu = True
        elif yid == YAKU_URA:
            if han > 0:
                ura = True
        elif yid == YAKU_DOUBLE_RIICHI:
            double = True
    for name in win.yaku_names:
        if name.startswith("一発"):
            ippatsu = True
        elif name.startswith("裏ドラ"):
            if "(0" not in name:
                ura = True
        elif name.startswith("両立直"):
            double = True
    return ippatsu, ura, double


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
    n = game.meta.players
    meta = game.meta
    base = {**_ROW, "file": meta.source, "log_id": meta.log_id, "game_type": game_type(game)}
    names = [player_key(game, s) for s in range(n)]
    cost = game_rules(game).riichi_cost
    core = CORE_ROWS
    if core is not None:
        ctx = (base, tuple(names), cost, EVENT_CLASSES, MELD_KINDS, _KEYS, ABORTIVE_KINDS)
        got = core(game.hands, n, ctx, lambda hand: _facts_for_hand(hand, n, base, names, cost))
        if got is not None:
            return got
    rows: list[dict[str, Any]] = []
    for hand in game.hands:
        rows.extend(_facts_for_hand(hand, n, base, names, cost))
    return rows


def _facts_for_hand(
    hand: HandLog, n: int, base: dict[str, Any], names: list[str], cost: int
) -> list[dict[str, Any]]:
    """The rows of one hand: ``base`` (the game's row, every column in order) copied
    per seat, with what differs from its defaults written in: what each seat did
    comes from the hand's scan (``stats.scan``), its wins and draws after that."""
    seat_facts, declared, wins, draws, dealt = scan_hand(hand, n)
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

    delta = [0] * n
    results: tuple[RecordedWin | RecordedDraw, ...] = (*wins, *draws)
    for res in results:
        for seat, dv in enumerate(res.deltas[:n]):
            delta[seat] += dv

    hand_row = base.copy()
    hand_row["hand_index"] = hand.index
    hand_row["label"] = hand.label
    hand_row["result"] = result
    if result == "exhaustive" or result == "nagashi":
        hand_row["exhaustive_draw"] = True
    elif result == "abortive":
        hand_row["abortive"] = True
    dealer = hand.dealer
    n_dealt = len(dealt)
    rows: list[dict[str, Any]] = []
    for seat in range(n):
        row = hand_row.copy()  # every column, in order, at its default
        row["seat"] = seat
        row["name"] = names[seat]
        if seat == dealer:
            row["dealer"] = True
        if seat < n_dealt:
            row["dealt"] = dealt[seat]
        row["delta"] = row["net"] = delta[seat]
        facts = seat_facts[seat]
        if facts is not None:
            order = facts.riichi_order
            if facts.riichi_turn is not None:
                row["riichi_declared"] = True
                row["riichi_turn"] = facts.riichi_turn
                row["riichi_order"] = order
                row["riichi_waits"] = facts.riichi_waits
                row["chased"] = order is not None and order < declared
            if facts.riichi_accepted:
                row["riichi_accepted"] = True
                row["riichi_stick"] = cost
                row["net"] = delta[seat] - cost
            if facts.called:
                row["called"] = True
            if facts.closed_kan:
                row["closed_kan"] = True
            if facts.kita:
                row["kita"] = facts.kita
            if facts.win_turn is not None:
                row["win_turn"] = facts.win_turn
        rows.append(row)

    for w in wins:
        if w.seat < n:
            _add_win(rows, w, n)

    for d in draws:
        if d.kind in ("exhaustive", "nm"):
            for seat in range(n):
                rows[seat]["tenpai_at_draw"] = _draw_tenpai(d, seat)
        if d.kind == "nm":
            taken = {s for s, f in enumerate(seat_facts) if f is not None and f.discards_taken}
            for seat in _nagashi_seats(d, n, taken, hand):
                rows[seat]["nagashi"] = True
    return rows


def _add_win(rows: list[dict[str, Any]], w: RecordedWin, n: int) -> None:
    """Write one recorded win into the hand's rows: the winner's, the loser's (a
    ron), the liable player's (pao) and the payers' of a tsumo.  The winner's row
    already says whether it declared riichi and called (every event is read)."""
    deltas = w.deltas
    tsumo = w.tsumo
    winner = rows[w.seat]
    riichi = winner["riichi_declared"]
    opened = winner["called"]
    winner["won"] = True
    if tsumo:
        winner["won_tsumo"] = True
    else:
        winner["won_ron"] = True
    winner["win_hand_value"] = (winner["win_hand_value"] or 0) + (w.points or 0)
    if deltas:
        winner["win_payment"] = (winner["win_payment"] or 0) + deltas[w.seat]
    ippatsu, ura, double = _riichi_yaku(w)
    if ippatsu:
        winner["ippatsu"] = True
    if ura:
        winner["ura"] = True
    if double:
        winner["double_riichi"] = True
    if w.yakuman:
        winner["yakuman"] = True
    winner["riichi_win"] = riichi
    winner["open_win"] = opened
    winner["dama_win"] = not opened and not riichi
    pao = w.pao_seat if w.pao_seat is not None and w.pao_seat < n else None
    if not tsumo and w.from_seat < n:
        loser = rows[w.from_seat]
        loser["dealt_in"] = True
        loser["deal_in_to"] += 1
        if deltas:
            loser["deal_in_payment"] += -deltas[w.from_seat]
        if riichi:
            loser["deal_in_to_riichi"] += 1
        elif opened:
            loser["deal_in_to_open"] += 1
        else:
            loser["deal_in_to_dama"] += 1
    if pao is not None and pao != w.from_seat and deltas:
        rows[pao]["pao_paid"] += -deltas[pao]
    if tsumo and deltas:
        for s in range(n):
            if s != w.seat and s != pao:
                rows[s]["lost_to_tsumo"] += -deltas[s]
