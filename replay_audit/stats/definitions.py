"""The definition registry: every statistic as numerator ÷ denominator of counters.

Ratios never add up across files or processes; counters do.  So the
aggregator sums counters (see ``aggregate.py``) and every ratio is derived at
the very end from this one table, which also documents each statistic for the
HTML report and ``--explain`` (stats.md §1.7).  A statistic whose denominator
is zero is ``NaN``, never 0.

Must not: compute anything; it is the registry the aggregator reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

StatKind = Literal["ratio", "value", "stable_dan"]
Reduce = Literal["sum", "max"]


@dataclass(frozen=True, slots=True)
class StatDef:
    """One derived statistic, by ``kind``:

    - ``ratio`` (most): ``numerator / denominator`` (both counter columns);
    - ``value``: the ``numerator`` counter itself (a maximum such as the
      longest dealer streak, or a total such as the summed R change);
    - ``stable_dan``: from the place counters and the group's lobby pt table
      (``tenhou_rank``); ``numerator`` names the counters it reads.

    ``formula`` is the human-readable definition shown as a tooltip; ``label``
    the column heading; ``scale`` multiplies the ratio (e.g. 100 for "per 100")."""

    key: str
    label: str
    numerator: str
    denominator: str
    formula: str
    scale: float = 1.0
    kind: StatKind = "ratio"


@dataclass(frozen=True, slots=True)
class CounterDef:
    """One counter column.  ``reduce`` says how partial counts combine (across
    hands, games, files, workers): most are sums; a ``max`` counter keeps the
    largest value seen (NaN when nothing was seen)."""

    key: str
    meaning: str
    reduce: Reduce = "sum"


COUNTERS: tuple[CounterDef, ...] = (
    # per game (finished games only)
    CounterDef("games", "finished games (with a final owari line)"),
    CounterDef("place_1", "games finished 1st"),
    CounterDef("place_2", "games finished 2nd"),
    CounterDef("place_3", "games finished 3rd"),
    CounterDef("place_4", "games finished 4th (always 0 in three-player)"),
    CounterDef("top2", "games finished 1st or 2nd"),
    CounterDef("not_last", "games not finished last"),
    CounterDef("place_sum", "sum of placements"),
    CounterDef("final_score_sum", "sum of final raw scores"),
    CounterDef("final_points_sum", "sum of final points (uma and oka included)"),
    CounterDef("busts", "games finished below zero"),
    # per hand
    CounterDef("hands", "hands sat in (abortive draws per option; unfinished hands never)"),
    CounterDef("dealer_hands", "hands sat in as dealer"),
    CounterDef("wins", "hands won"),
    CounterDef("tsumo_wins", "hands won by tsumo"),
    CounterDef("ron_wins", "hands won by ron"),
    CounterDef("deal_ins", "deal-ins (per winner or per hand, per option)"),
    CounterDef("riichi_hands", "hands with a riichi declaration"),
    CounterDef("call_hands", "hands with a call that opens the hand (closed kan per option)"),
    CounterDef("riichi_wins", "wins after declaring riichi"),
    CounterDef("open_wins", "wins with an open hand"),
    CounterDef("dama_wins", "wins with a closed hand and no riichi"),
    CounterDef("win_hand_value_sum", "sum of recorded hand values (no honba, no sticks)"),
    CounterDef("win_payment_sum", "sum of recorded win deltas (honba and sticks included)"),
    CounterDef("win_net_sum", "sum of win deltas minus own riichi stick"),
    CounterDef("deal_in_payment_sum", "sum of points paid on deal-ins (honba included)"),
    CounterDef("exhaustive_draws", "hands ending in exhaustive draw (nagashi included)"),
    CounterDef("draw_tenpai", "exhaustive draws where the player was tenpai"),
    CounterDef("draw_tenpai_known", "exhaustive draws where the log tells tenpai or not"),
    CounterDef("riichi_deal_ins", "riichi hands that dealt in (declaration tile included)"),
    CounterDef("riichi_deal_ins_after", "riichi hands that dealt in after the stick was placed"),
    CounterDef("riichi_draws", "riichi hands ending in exhaustive draw"),
    CounterDef("riichi_net_sum", "sum over riichi hands of the score change (minus stick)"),
    CounterDef("first_riichi", "riichi hands where the player was first to declare"),
    CounterDef("chasing_riichi", "riichi hands declared after someone else's"),
    CounterDef("chased_riichi", "riichi hands where someone declared afterwards"),
    CounterDef("riichi_turn_sum", "sum of riichi turns (1 + own discards before)"),
    CounterDef("riichi_waits_known", "riichi hands whose wait could be rebuilt from the moves"),
    CounterDef("riichi_multi_waits", "riichi hands waiting on at least two tile kinds"),
    CounterDef("riichi_wait_kinds_sum", "sum over riichi hands of the kinds waited on"),
    CounterDef("ippatsu_wins", "riichi wins with ippatsu"),
    CounterDef("ura_wins", "riichi wins with ura dora worth at least 1 han"),
    CounterDef("call_wins", "call hands won"),
    CounterDef("call_deal_ins", "call hands that dealt in"),
    CounterDef("call_draws", "call hands ending in exhaustive draw"),
    CounterDef("deal_ins_in_riichi", "deal-in hands while in riichi"),
    CounterDef("deal_ins_open", "deal-in hands while open"),
    CounterDef("deal_in_hands", "hands with at least one deal-in"),
    CounterDef("win_turn_sum", "sum of win turns (1 + own discards before the win)"),
    CounterDef("pao_paid_sum", "points paid as the liable (pao) player"),
    CounterDef("pao_hands", "hands where the player paid pao"),
    CounterDef("hand_net_sum", "sum of per-hand score changes (deltas minus own stick)"),
    CounterDef("yakuman_wins", "wins with a yakuman"),
    CounterDef("double_riichi_wins", "wins with double riichi"),
    CounterDef("nagashi", "nagashi mangan made"),
    CounterDef("abortive_hands", "abortive draws sat in"),
    # starting hands
    CounterDef("start_shanten_hands", "hands whose 13 dealt tiles are known"),
    CounterDef("start_shanten_sum", "sum of the shanten of the 13 dealt tiles"),
    CounterDef("dealer_start_shanten_hands", "dealer hands whose 13 dealt tiles are known"),
    CounterDef("dealer_start_shanten_sum", "sum of dealt-hand shanten as dealer"),
    CounterDef("nondealer_start_shanten_hands", "non-dealer hands whose dealt tiles are known"),
    CounterDef("nondealer_start_shanten_sum", "sum of dealt-hand shanten as non-dealer"),
    # per game, Tenhou ranking
    CounterDef(
        "max_dealer_streak",
        "most repeats as dealer in a row within one game (renchan count)",
        reduce="max",
    ),
    CounterDef("rated_games", "finished games where every seat has an R (rate)"),
    CounterDef("rate_change_sum", "sum of R changes (factor 0.2) over rated games"),
)

STATS: tuple[StatDef, ...] = (
    # per game
    StatDef("rate_1", "1st rate", "place_1", "games", "games 1st ÷ games"),
    StatDef("rate_2", "2nd rate", "place_2", "games", "games 2nd ÷ games"),
    StatDef("rate_3", "3rd rate", "place_3", "games", "games 3rd ÷ games"),
    StatDef("rate_4", "4th rate", "place_4", "games", "games 4th ÷ games"),
    StatDef("top2_rate", "top-2 rate", "top2", "games", "(1st + 2nd) ÷ games"),
    StatDef("avoid_last_rate", "avoid-last rate", "not_last", "games", "1 − last ÷ games"),
    StatDef("avg_place", "average placement", "place_sum", "games", "Σ place ÷ games"),
    StatDef(
        "avg_final_score", "average final score", "final_score_sum", "games", "Σ score ÷ games"
    ),
    StatDef(
        "avg_final_points",
        "average final points",
        "final_points_sum",
        "games",
        "Σ owari points (uma/oka) ÷ games",
    ),
    StatDef("bust_rate", "bust rate", "busts", "games", "games ending below 0 ÷ games"),
    # core per hand
    StatDef("win_rate", "win rate", "wins", "hands", "hands won ÷ hands"),
    StatDef("tsumo_share", "tsumo share", "tsumo_wins", "wins", "tsumo wins ÷ wins"),
    StatDef("deal_in_rate", "deal-in rate", "deal_ins", "hands", "deal-ins ÷ hands"),
    StatDef("riichi_rate", "riichi rate", "riichi_hands", "hands", "riichi hands ÷ hands"),
    StatDef("call_rate", "call rate", "call_hands", "hands", "hands with a call ÷ hands"),
    StatDef("dama_rate", "dama rate", "dama_wins", "wins", "closed no-riichi wins ÷ wins"),
    StatDef(
        "riichi_win_share", "riichi share of wins", "riichi_wins", "wins", "riichi wins ÷ wins"
    ),
    StatDef("open_win_share", "open share of wins", "open_wins", "wins", "open wins ÷ wins"),
    StatDef(
        "exhaustive_draw_rate",
        "exhaustive-draw rate",
        "exhaustive_draws",
        "hands",
        "exhaustive draws ÷ hands",
    ),
    StatDef(
        "draw_tenpai_rate",
        "draw tenpai rate",
        "draw_tenpai",
        "draw_tenpai_known",
        "tenpai at exhaustive draw ÷ exhaustive draws (where the log tells)",
    ),
    StatDef(
        "avg_win_hand_value",
        "average win (hand value)",
        "win_hand_value_sum",
        "wins",
        "Σ recorded hand value (no honba/sticks) ÷ wins",
    ),
    StatDef(
        "avg_win_payment",
        "average win (payment)",
        "win_payment_sum",
        "wins",
        "Σ win delta (honba and sticks included) ÷ wins",
    ),
    StatDef(
        "avg_win_net_income",
        "average win (net income)",
        "win_net_sum",
        "wins",
        "Σ (win delta − own riichi stick) ÷ wins",
    ),
    StatDef(
        "avg_deal_in_payment",
        "average deal-in (payment)",
        "deal_in_payment_sum",
        "deal_ins",
        "Σ points paid on deal-in (honba included) ÷ deal-ins",
    ),
    StatDef(
        "avg_win_turn", "average win turn", "win_turn_sum", "wins", "Σ (1 + own discards) ÷ wins"
    ),
    StatDef(
        "avg_riichi_turn",
        "average riichi turn",
        "riichi_turn_sum",
        "riichi_hands",
        "Σ (1 + own discards before the riichi discard) ÷ riichi hands",
    ),
    # riichi block
    StatDef(
        "riichi_multi_wait_rate",
        "multi-sided riichi rate",
        "riichi_multi_waits",
        "riichi_waits_known",
        "riichi hands waiting on >= 2 tile kinds after the riichi discard ÷ riichi hands",
    ),
    StatDef(
        "avg_riichi_wait_kinds",
        "average riichi wait kinds",
        "riichi_wait_kinds_sum",
        "riichi_waits_known",
        "Σ tile kinds waited on after the riichi discard ÷ riichi hands",
    ),
    StatDef(
        "riichi_win_rate", "riichi win rate", "riichi_wins", "riichi_hands", "won ÷ riichi hands"
    ),
    StatDef(
        "riichi_deal_in_rate",
        "riichi deal-in rate (A)",
        "riichi_deal_ins",
        "riichi_hands",
        "dealt in (declaration tile included) ÷ riichi hands",
    ),
    StatDef(
        "riichi_deal_in_rate_after",
        "riichi deal-in rate (B)",
        "riichi_deal_ins_after",
        "riichi_hands",
        "dealt in after the stick was placed ÷ riichi hands",
    ),
    StatDef(
        "riichi_draw_rate",
        "riichi draw rate",
        "riichi_draws",
        "riichi_hands",
        "exhaustive draws ÷ riichi hands",
    ),
    StatDef(
        "riichi_balance",
        "riichi balance",
        "riichi_net_sum",
        "riichi_hands",
        "Σ score change of riichi hands (deltas − own stick) ÷ riichi hands",
    ),
    StatDef(
        "first_riichi_rate", "first riichi", "first_riichi", "riichi_hands", "first ÷ riichi hands"
    ),
    StatDef(
        "chasing_riichi_rate",
        "chasing riichi",
        "chasing_riichi",
        "riichi_hands",
        "declared after another ÷ riichi hands",
    ),
    StatDef(
        "chased_rate",
        "chased rate",
        "chased_riichi",
        "riichi_hands",
        "another declared afterwards ÷ riichi hands",
    ),
    StatDef("ippatsu_rate", "ippatsu rate", "ippatsu_wins", "riichi_wins", "ippatsu ÷ riichi wins"),
    StatDef("ura_rate", "ura rate", "ura_wins", "riichi_wins", "ura ≥ 1 han ÷ riichi wins"),
    # call block
    StatDef("call_win_rate", "call win rate", "call_wins", "call_hands", "won ÷ call hands"),
    StatDef(
        "call_deal_in_rate",
        "call deal-in rate",
        "call_deal_ins",
        "call_hands",
        "dealt in ÷ call hands",
    ),
    StatDef(
        "call_draw_rate",
        "call draw rate",
        "call_draws",
        "call_hands",
        "exhaustive draws ÷ call hands",
    ),
    StatDef(
        "deal_in_riichi_share",
        "deal-ins while in riichi",
        "deal_ins_in_riichi",
        "deal_in_hands",
        "deal-in hands in riichi ÷ deal-in hands",
    ),
    StatDef(
        "deal_in_open_share",
        "deal-ins while open",
        "deal_ins_open",
        "deal_in_hands",
        "deal-in hands while open ÷ deal-in hands",
    ),
    StatDef(
        "avg_hand_net",
        "gain/loss per hand",
        "hand_net_sum",
        "hands",
        "Σ per-hand score change (deltas − own stick) ÷ hands",
    ),
    # starting hands (起手向聴)
    StatDef(
        "avg_start_shanten",
        "starting shanten",
        "start_shanten_sum",
        "start_shanten_hands",
        "Σ shanten of the 13 dealt tiles (dealer's first draw not included) ÷ hands;"
        " shanten = min(regular, seven pairs, thirteen orphans)",
    ),
    StatDef(
        "avg_start_shanten_dealer",
        "starting shanten (dealer)",
        "dealer_start_shanten_sum",
        "dealer_start_shanten_hands",
        "Σ shanten of the 13 dealt tiles ÷ dealer hands",
    ),
    StatDef(
        "avg_start_shanten_nondealer",
        "starting shanten (non-dealer)",
        "nondealer_start_shanten_sum",
        "nondealer_start_shanten_hands",
        "Σ shanten of the 13 dealt tiles ÷ non-dealer hands",
    ),
    # Tenhou ranking (per game)
    StatDef(
        "longest_dealer_streak",
        "longest dealer streak",
        "max_dealer_streak",
        "",
        "max over games of the repeats as dealer in a row (renchan count: 0 = the"
        " dealership passed at once; win, tenpai draw or abortive draw all repeat)",
        kind="value",
    ),
    StatDef(
        "stable_dan",
        "stable dan",
        "place_1 place_2 place_3 place_4",
        "",
        "dan d where pt1·n1 + pt2·n2 + pt3·n3 = loss(d)·n4 for the lobby's pt table"
        " (Houou unless grouped by lobby; 4-player Tenhou only), e.g. Houou:"
        " ((60·n1 + 30·n2)/n4 − 20)/10",
        kind="stable_dan",
    ),
    StatDef(
        "avg_rate_change",
        "R change per game",
        "rate_change_sum",
        "rated_games",
        "Σ 0.2 × (place score 30/10/−10/−30, 3p 30/0/−30 + (table mean R − own R)/40)"
        " ÷ rated games (0.2: players with 400+ games)",
    ),
    StatDef(
        "total_rate_change",
        "R change (total)",
        "rate_change_sum",
        "",
        "Σ 0.2 × (place score + (table mean R − own R)/40) over rated games",
        kind="value",
    ),
)

COMPOSITES: tuple[tuple[str, str, str, str, str], ...] = (
    # key, label, left stat, right stat, formula
    (
        "win_efficiency",
        "win efficiency",
        "win_rate",
        "avg_win_payment",
        "win rate × average win (payment)",
    ),
    (
        "deal_in_loss",
        "deal-in loss",
        "deal_in_rate",
        "avg_deal_in_payment",
        "deal-in rate × average deal-in (payment)",
    ),
)
"""Products of two statistics (amae's 打点効率 and 銃点損失); their difference is
``net_efficiency``."""

STAT_KEYS = frozenset(s.key for s in STATS) | {c[0] for c in COMPOSITES} | {"net_efficiency"}


def explain(key: str | None = None) -> str:
    """A readable definition of one statistic (or of all of them).

    >>> print(explain("win_rate"))
    win_rate (win rate) = wins / hands: hands won ÷ hands
    """
    lines = []
    for s in STATS:
        if key is None or s.key == key:
            how = f"{s.numerator} / {s.denominator}" if s.kind == "ratio" else s.numerator
            lines.append(f"{s.key} ({s.label}) = {how}: {s.formula}")
    for ckey, label, a, b, formula in COMPOSITES:
        if key is None or ckey == key:
            lines.append(f"{ckey} ({label}) = {a} × {b}: {formula}")
    if key is None or key == "net_efficiency":
        lines.append("net_efficiency = win_efficiency − deal_in_loss")
    if not lines:
        raise KeyError(f"no statistic {key!r}; known: {', '.join(sorted(STAT_KEYS))}")
    return "\n".join(lines)
