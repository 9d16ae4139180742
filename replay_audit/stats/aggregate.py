"""Statistics late: sum fact rows into counters, then divide (definitions.py).

The disputed counting conventions of stats.md §1.4 are keyword options here,
applied to the facts at aggregation time, so one fact table answers every
convention:

- ``double_ron``: ``"per_winner"`` (default) counts a double ron as two
  deal-ins for the discarder, so that wins = tsumo wins + deal-ins over any
  complete set of players; ``"per_hand"`` counts it once (kobalab's choice).
- ``count_abortive_as_hands``: abortive draws are hands in the denominator
  (default, amae) or are dropped entirely (taopp).
- ``closed_kan_is_call``: an ankan counts as a call for the call rate and
  makes a win non-dama (default False: an ankan keeps the hand closed).

Most counters are sums; a few are maxima (``CounterDef.reduce``, e.g. the
longest dealer streak).  ``combine`` merges partial counter tables (per file,
per worker) with each column's own reducer, so the result is the same as
counting everything at once.

Must not: build fact rows (``stats.facts``) or render anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, Protocol, TypedDict

import numpy as np
import pandas as pd

from replay_audit.model.events import Game
from replay_audit.stats.definitions import COMPOSITES, COUNTERS, STATS
from replay_audit.stats.facts import hand_facts
from replay_audit.stats.game_facts import game_facts
from replay_audit.stats.identity import start_shanten
from replay_audit.stats.tenhou_rank import DEFAULT_PT_TABLES, PtTable, stable_dan

DoubleRon = Literal["per_winner", "per_hand"]


class FactFrames(Protocol):
    """An in-memory audit report (``report.AuditReport``): both fact tables whole."""

    @property
    def hand_facts(self) -> pd.DataFrame: ...

    @property
    def game_facts(self) -> pd.DataFrame: ...


class FactChunks(Protocol):
    """A stored audit report (``report.stored.StoredAuditReport``): the fact tables part
    by part, ``(hand_facts, game_facts)`` of the same files in each part."""

    def fact_chunks(self) -> Iterable[tuple[pd.DataFrame, pd.DataFrame]]: ...


Source = str | Path | Game | Iterable[Game | str | Path] | FactFrames | FactChunks
"""Paths, a folder, an iterable of ``Game`` (or of paths), or an object with
``hand_facts`` and ``game_facts`` DataFrames (the audit report); ``players``
also takes a stored report's ``fact_chunks``."""


class CountOptions(TypedDict):
    """The counting conventions of ``counters`` (stats.md §1.4), passed on as a group."""

    double_ron: DoubleRon
    count_abortive_as_hands: bool
    closed_kan_is_call: bool


# ------------------------------------------------------------------------ sources


def fact_frames(games: Iterable[Game]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(hand_facts, game_facts)`` as DataFrames for many games, in one pass."""
    hand_rows: list[dict[str, Any]] = []
    game_rows: list[dict[str, Any]] = []
    for game in games:
        hand_rows.extend(hand_facts(game))
        game_rows.extend(game_facts(game))
    return pd.DataFrame(hand_rows), pd.DataFrame(game_rows)


def _games_from_paths(paths: list[Path]) -> Iterable[Game]:
    """Read logs with the project's reader (``replay_audit.io``), skipping what it
    reports as unreadable: statistics cover what could be read."""
    from replay_audit.io.read import iter_games

    for _path, game in iter_games(paths):  # (path, Game) or (path, error)
        if isinstance(game, Game):
            yield game


def _frames(source: Source) -> tuple[pd.DataFrame, pd.DataFrame]:
    if hasattr(source, "hand_facts") and hasattr(source, "game_facts"):
        hf, gf = source.hand_facts, source.game_facts
        if isinstance(hf, pd.DataFrame) and isinstance(gf, pd.DataFrame):
            return hf, gf
    if isinstance(source, Game):
        return fact_frames([source])
    if isinstance(source, (str, Path)):
        return fact_frames(_games_from_paths([Path(source)]))
    if not isinstance(source, Iterable):
        raise TypeError("a stats source holds Game objects, paths, or hand/game fact frames")
    items = list(source)
    games = [g for g in items if isinstance(g, Game)]
    paths = [Path(p) for p in items if isinstance(p, (str, Path))]
    if len(games) + len(paths) != len(items):
        raise TypeError("a stats source holds Game objects, paths, or hand/game fact frames")
    if paths:
        games.extend(_games_from_paths(paths))
    return fact_frames(games)


# ----------------------------------------------------------------------- counters


def _hand_counters(
    hf: pd.DataFrame, *, double_ron: DoubleRon, closed_kan_is_call: bool
) -> pd.DataFrame:
    """Additive counters per hand row (one column per counter)."""

    def b(col: str) -> pd.Series:
        """A fact column as booleans (a missing value is False)."""
        return hf[col].fillna(False).astype(bool)

    won, riichi = b("won"), b("riichi_declared")
    called = b("called") | (b("closed_kan") if closed_kan_is_call else False)
    dealt = b("dealt_in")
    draw = b("exhaustive_draw")
    stick = hf["riichi_stick"].fillna(0)
    tenpai = hf["tenpai_at_draw"]
    win_payment = hf["win_payment"].astype(float).fillna(0)
    deal_ins = hf["deal_in_to"] if double_ron == "per_winner" else dealt.astype(int)
    c: dict[str, Any] = {}  # (one frame at the end: a column set at a time cost 0.2 s)
    c["hands"] = 1
    c["dealer_hands"] = b("dealer").astype(int)
    c["wins"] = won.astype(int)
    c["tsumo_wins"] = b("won_tsumo").astype(int)
    c["ron_wins"] = (won & ~b("won_tsumo")).astype(int)
    c["deal_ins"] = deal_ins.astype(int)
    c["riichi_hands"] = riichi.astype(int)
    c["call_hands"] = called.astype(int)
    c["riichi_wins"] = (won & riichi).astype(int)
    c["open_wins"] = (won & b("called")).astype(int)
    c["dama_wins"] = (won & ~riichi & ~called).astype(int)
    c["win_hand_value_sum"] = hf["win_hand_value"].astype(float).fillna(0)
    c["win_payment_sum"] = win_payment
    c["win_net_sum"] = np.where(won, win_payment - stick, 0.0)
    c["deal_in_payment_sum"] = hf["deal_in_payment"].fillna(0)
    c["exhaustive_draws"] = draw.astype(int)
    c["draw_tenpai"] = (draw & (tenpai == True)).astype(int)  # noqa: E712
    c["draw_tenpai_known"] = (draw & tenpai.notna()).astype(int)
    c["riichi_deal_ins"] = (riichi & dealt).astype(int)
    c["riichi_deal_ins_after"] = (b("riichi_accepted") & dealt).astype(int)
    c["riichi_draws"] = (riichi & draw).astype(int)
    c["riichi_net_sum"] = np.where(riichi, hf["net"], 0)
    order = hf["riichi_order"]
    c["first_riichi"] = (riichi & (order == 1)).astype(int)
    c["chasing_riichi"] = (riichi & (order > 1)).astype(int)
    c["chased_riichi"] = (riichi & b("chased")).astype(int)
    c["riichi_turn_sum"] = hf["riichi_turn"].astype(float).fillna(0)
    rw = hf["riichi_waits"].astype(float) if "riichi_waits" in hf else pd.Series(np.nan, hf.index)
    c["riichi_waits_known"] = (riichi & rw.notna()).astype(int)
    c["riichi_multi_waits"] = (riichi & (rw >= 2)).astype(int)
    c["riichi_wait_kinds_sum"] = rw.where(riichi, 0).fillna(0)
    c["ippatsu_wins"] = (won & riichi & b("ippatsu")).astype(int)
    c["ura_wins"] = (won & riichi & b("ura")).astype(int)
    c["call_wins"] = (called & won).astype(int)
    c["call_deal_ins"] = (called & dealt).astype(int)
    c["call_draws"] = (called & draw).astype(int)
    c["deal_ins_in_riichi"] = (dealt & riichi).astype(int)
    c["deal_ins_open"] = (dealt & b("called")).astype(int)
    c["deal_in_hands"] = dealt.astype(int)
    c["win_turn_sum"] = hf["win_turn"].astype(float).fillna(0)
    c["pao_paid_sum"] = hf["pao_paid"].fillna(0)
    c["pao_hands"] = (hf["pao_paid"].fillna(0) > 0).astype(int)
    c["hand_net_sum"] = hf["net"].fillna(0)
    c["yakuman_wins"] = (won & b("yakuman")).astype(int)
    c["double_riichi_wins"] = (won & b("double_riichi")).astype(int)
    c["nagashi"] = b("nagashi").astype(int)
    c["abortive_hands"] = b("abortive").astype(int)
    sh = _start_shanten(hf)
    known = sh.notna()
    dealer = b("dealer")
    c["start_shanten_hands"] = known.astype(int)
    c["start_shanten_sum"] = sh.fillna(0)
    c["dealer_start_shanten_hands"] = (known & dealer).astype(int)
    c["dealer_start_shanten_sum"] = sh.where(dealer, 0).fillna(0)
    c["nondealer_start_shanten_hands"] = (known & ~dealer).astype(int)
    c["nondealer_start_shanten_sum"] = sh.where(~dealer, 0).fillna(0)
    return pd.DataFrame(c, index=hf.index)


def _start_shanten(hf: pd.DataFrame) -> pd.Series:
    """Shanten of each row's 13 dealt tiles (NaN when unknown), from the
    ``dealt`` fact column, one call per row: dealt hands hardly repeat (the shared
    corpus's 113,116 are all distinct), so finding the distinct ones first and
    mapping them back cost more (0.2 s there) than it spared."""
    if "dealt" not in hf:
        return pd.Series(np.nan, index=hf.index, dtype=float)
    values = list(map(start_shanten, hf["dealt"].fillna("").tolist()))  # (a list: walking
    # an Arrow-backed text column cell by cell cost 0.4 s over the corpus)
    return pd.Series(values, index=hf.index, dtype=float)


def _game_counters(gf: pd.DataFrame) -> pd.DataFrame:
    place = gf["place"].astype(float)
    players = gf["players"].astype(float)
    c: dict[str, Any] = {}
    c["games"] = 1
    for k in (1, 2, 3, 4):
        c[f"place_{k}"] = (place == k).astype(int)
    c["top2"] = (place <= 2).astype(int)
    c["not_last"] = (place < players).astype(int)
    c["place_sum"] = place
    c["final_score_sum"] = gf["final_score"].astype(float)
    c["final_points_sum"] = gf["final_points"].astype(float)
    c["busts"] = gf["bust"].astype(bool).astype(int)
    nan = pd.Series(np.nan, index=gf.index)
    c["max_dealer_streak"] = gf["dealer_streak"].astype(float) if "dealer_streak" in gf else nan
    change = gf["rate_change"].astype(float) if "rate_change" in gf else nan
    c["rated_games"] = change.notna().astype(int)
    c["rate_change_sum"] = change.fillna(0)
    return pd.DataFrame(c, index=gf.index)


REDUCERS: dict[str, str] = {c.key: c.reduce for c in COUNTERS}
"""Counter column → ``"sum"`` or ``"max"`` (how partial counts combine)."""


def _reduce(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Group rows (facts turned counters, or partial counter tables) by
    ``keys`` and reduce each counter with its own reducer: sums count NaN as
    0, maxima skip NaN (and stay NaN when nothing was seen)."""
    names = [c.key for c in COUNTERS]
    for name in names:
        if name not in frame:
            frame[name] = 0 if REDUCERS[name] == "sum" else np.nan
    grouped = frame.groupby(keys, sort=True, dropna=False)
    sums = [n for n in names if REDUCERS[n] == "sum"]
    maxes = [n for n in names if REDUCERS[n] == "max"]
    out = grouped[sums].sum(min_count=0)
    if maxes:
        out = out.join(grouped[maxes].max())
    return out[names].reset_index()


def combine(
    tables: Iterable[pd.DataFrame], *, by: tuple[str, ...] = ("name", "game_type")
) -> pd.DataFrame:
    """Merge counter tables of disjoint sets of games (per file, per worker)
    into the table of their union: summed counters add, maximum counters take
    the larger.  ``combine([counters(a), counters(b)]) == counters(a ∪ b)``."""
    parts = [t for t in tables if len(t)]
    keys = list(by)
    if not parts:
        return pd.DataFrame(columns=[*keys, *(c.key for c in COUNTERS)])
    return _reduce(pd.concat(parts, ignore_index=True), keys)


def counters(
    hand_facts_df: pd.DataFrame,
    game_facts_df: pd.DataFrame,
    *,
    double_ron: DoubleRon = "per_winner",
    count_abortive_as_hands: bool = True,
    closed_kan_is_call: bool = False,
    by: tuple[str, ...] = ("name", "game_type"),
) -> pd.DataFrame:
    """Summed counters per group (default: per player and game type).

    Counters combine: counters of two disjoint sets of games merged by
    ``combine`` (sums, or maxima for ``reduce="max"`` counters) equal the
    counters of their union.  Unfinished hands (the log ends mid-hand) and
    unfinished games (no ``owari``) are never counted."""
    if double_ron not in ("per_winner", "per_hand"):
        raise ValueError(f"double_ron must be 'per_winner' or 'per_hand', not {double_ron!r}")
    keys = list(by)
    names = [c.key for c in COUNTERS]
    parts = []
    if len(hand_facts_df):
        hf = hand_facts_df[hand_facts_df["result"] != "none"]
        if not count_abortive_as_hands:
            hf = hf[~hf["abortive"].astype(bool)]
        hc = _hand_counters(hf, double_ron=double_ron, closed_kan_is_call=closed_kan_is_call)
        parts.append(pd.concat([hf[keys], hc], axis=1))
    if len(game_facts_df):
        gf = game_facts_df[game_facts_df["complete"].astype(bool)]
        gc = _game_counters(gf)
        parts.append(pd.concat([gf[keys], gc], axis=1))
    if not parts:
        return pd.DataFrame(columns=[*keys, *names])
    return _reduce(pd.concat(parts, ignore_index=True), keys)


def derive(counts: pd.DataFrame, *, pt_tables: dict[str, PtTable] | None = None) -> pd.DataFrame:
    """Add every statistic of the registry to a counter table (NaN where n = 0).

    ``pt_tables`` maps a group's ``game_type`` to the lobby table its stable
    dan uses (default ``tenhou_rank.DEFAULT_PT_TABLES``); groups without a
    table get NaN.

    Each statistic is computed on the columns' float arrays and the new columns
    joined to the table at once: a pandas operation and a column set per
    statistic took 0.07 s for the shared corpus's thousand players, for the same
    divisions (``numerator / denominator`` where it is above zero, times the
    scale, in that order).  ``derive_by_frame`` is the reference it is held to."""
    tables = DEFAULT_PT_TABLES if pt_tables is None else pt_tables
    new: dict[str, Any] = {}
    for s in STATS:
        if s.kind == "value":
            new[s.key] = counts[s.numerator].to_numpy(dtype=float)
        elif s.kind == "stable_dan":
            new[s.key] = _stable_dans(counts, tables)
        else:
            den = counts[s.denominator].to_numpy(dtype=float)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = counts[s.numerator].to_numpy(dtype=float) / np.where(den > 0, den, np.nan)
            new[s.key] = ratio * s.scale
    for key, _label, a, b, _formula in COMPOSITES:
        new[key] = new[a] * new[b]
    new["net_efficiency"] = new["win_efficiency"] - new["deal_in_loss"]
    if not len(counts) or any(k in counts.columns for k in new):
        return derive_by_frame(counts, pt_tables=pt_tables)  # (the frame's dtypes, its
        # columns replaced in place: the reference's own answer)
    return pd.concat([counts, pd.DataFrame(new, index=counts.index)], axis=1)


def derive_by_frame(
    counts: pd.DataFrame, *, pt_tables: dict[str, PtTable] | None = None
) -> pd.DataFrame:
    """``derive`` a statistic at a time on the frame (the reference)."""
    tables = DEFAULT_PT_TABLES if pt_tables is None else pt_tables
    out = counts.copy()
    for s in STATS:
        if s.kind == "value":
            out[s.key] = out[s.numerator].astype(float)
        elif s.kind == "stable_dan":
            out[s.key] = _stable_dans(out, tables)
        else:
            den = out[s.denominator].astype(float)
            out[s.key] = out[s.numerator].astype(float).div(den.where(den > 0)) * s.scale
    for key, _label, a, b, _formula in COMPOSITES:
        out[key] = out[a] * out[b]
    out["net_efficiency"] = out["win_efficiency"] - out["deal_in_loss"]
    return out


def _stable_dans(counts: pd.DataFrame, tables: dict[str, PtTable]) -> list[float]:
    if "game_type" not in counts:
        return [float("nan")] * len(counts)
    places = counts[["place_1", "place_2", "place_3", "place_4"]].astype(float).to_numpy()
    out = []
    for gtype, row in zip(counts["game_type"], places, strict=True):
        table = tables.get(str(gtype))
        out.append(stable_dan(row, table) if table is not None else float("nan"))
    return out


def _with_lobby(frame: pd.DataFrame, lobbies: dict[str, str | None]) -> pd.DataFrame:
    """``game_type`` + ``-lobby`` (e.g. ``tenhou-4p-hanchan-tokujou``) for rows
    of games whose lobby is known; the lobby comes from the game facts by file."""
    if not len(frame):
        return frame
    lob = frame["file"].map(lobbies)
    gtype = frame["game_type"].where(lob.isna(), frame["game_type"] + "-" + lob.astype(str))
    return frame.assign(game_type=gtype)


def _grouped_counters(
    hf: pd.DataFrame, gf: pd.DataFrame, by_game_type: bool, by_lobby: bool, options: CountOptions
) -> pd.DataFrame:
    """``counters`` per (name, game type), the game type split or merged per option."""
    if by_lobby and by_game_type and len(gf) and "lobby" in gf:
        lobbies: dict[str, str | None] = dict(zip(gf["file"], gf["lobby"], strict=False))
        hf, gf = _with_lobby(hf, lobbies), _with_lobby(gf, lobbies)
    if not by_game_type:
        hf = hf.assign(game_type="all") if len(hf) else hf
        gf = gf.assign(game_type="all") if len(gf) else gf
    return counters(hf, gf, by=("name", "game_type"), **options)


def log_day(value: str | None) -> str | None:
    """A date bound as ``YYYYMMDD`` (from ``YYYY-MM-DD`` or ``YYYYMMDD``), the form
    Tenhou log ids start with; ``ValueError`` for anything else.

    >>> log_day("2024-04-12"), log_day("20240412"), log_day(None)
    ('20240412', '20240412', None)
    """
    if value is None:
        return None
    digits = value.replace("-", "")
    if len(digits) != 8 or not digits.isdigit():
        raise ValueError(f"a date is YYYY-MM-DD or YYYYMMDD, not {value!r}")
    return digits


def _in_window(
    hf: pd.DataFrame, gf: pd.DataFrame, since: str | None, until: str | None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The facts of the games played from ``since`` to ``until`` (days, inclusive).

    The game facts carry the date (``YYYYMMDDHH`` from the log id); hand facts
    follow their game by file.  A game without a date is outside every window:
    counting it would put games of unknown day into a monthly table."""
    if since is None and until is None:
        return hf, gf
    if not len(gf) or "date" not in gf:
        return hf.iloc[0:0], gf.iloc[0:0]
    day = gf["date"].astype("string").str[:8]
    keep = day.notna()
    if since is not None:
        keep &= day >= since
    if until is not None:
        keep &= day <= until
    gf = gf[keep.fillna(False).astype(bool)]
    if "file" not in hf:  # no hand at all (a log cut after its header): nothing to pick
        return hf, gf
    return hf[hf["file"].isin(set(gf["file"]))], gf


def _batched(
    chunks: Iterable[tuple[pd.DataFrame, pd.DataFrame]], batch_rows: int = 100_000
) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """Fact chunks joined into batches of about ``batch_rows`` hand facts: counting
    costs a fixed ~0.1 s of pandas work per call, and a small run's parts hold a
    file or two each, so counting part by part made a report of 8 logs spend a
    second here.  Memory stays bounded by the batch size."""
    hands: list[pd.DataFrame] = []
    games: list[pd.DataFrame] = []
    rows = 0

    def joined(frames: list[pd.DataFrame]) -> pd.DataFrame:
        frames = [f for f in frames if len(f.columns)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    for hf, gf in chunks:
        hands.append(hf)
        games.append(gf)
        rows += len(hf)
        if rows >= batch_rows:
            yield joined(hands), joined(games)
            hands, games, rows = [], [], 0
    if hands:
        yield joined(hands), joined(games)


def _combine_stream(tables: Iterable[pd.DataFrame], batch_rows: int = 200_000) -> pd.DataFrame:
    """``combine`` over many partial tables without holding them all: partial
    tables are merged whenever their rows add up to ``batch_rows``."""
    total = combine([])
    pending: list[pd.DataFrame] = []
    rows = 0
    for table in tables:
        pending.append(table)
        rows += len(table)
        if rows >= batch_rows:
            total = combine([total, *pending])
            pending, rows = [], len(total)
    return combine([total, *pending])


# ------------------------------------------------------------------------ public


def players(
    source: Source,
    *,
    double_ron: DoubleRon = "per_winner",
    count_abortive_as_hands: bool = True,
    closed_kan_is_call: bool = False,
    by_game_type: bool = True,
    by_lobby: bool = False,
    min_games: int = 0,
    pt_tables: dict[str, PtTable] | None = None,
    since: str | None = None,
    until: str | None = None,
) -> pd.DataFrame:
    """One row per player (and per game type unless ``by_game_type=False``):
    the counters of ``definitions.COUNTERS`` (so every rate's ``n`` is at hand)
    followed by every statistic of ``definitions.STATS``.

    Sorted by games then hands, most first.  ``min_games`` drops players with
    fewer finished games (leaderboards want a threshold, stats.md §1.6).

    ``by_lobby`` splits Tenhou game types by ranked lobby
    (``tenhou-4p-hanchan-houou`` …), so each group's stable dan uses its own
    lobby's pt table; otherwise Tenhou 4-player groups use the Houou table.
    ``pt_tables`` overrides the game type → table mapping
    (``tenhou_rank.DEFAULT_PT_TABLES``).  ``since`` / ``until`` (``YYYY-MM-DD``,
    inclusive) count only the games of those days, by the date of the log id;
    games without one are left out when either is given."""
    first, last = log_day(since), log_day(until)
    options: CountOptions = {
        "double_ron": double_ron,
        "count_abortive_as_hands": count_abortive_as_hands,
        "closed_kan_is_call": closed_kan_is_call,
    }
    chunks = getattr(source, "fact_chunks", None)
    if callable(chunks):  # a stored report: a few parts at a time, in flat memory
        counts = _combine_stream(
            _grouped_counters(*_in_window(hf, gf, first, last), by_game_type, by_lobby, options)
            for hf, gf in _batched(chunks())
        )
    else:
        hf, gf = _in_window(*_frames(source), first, last)
        counts = _grouped_counters(hf, gf, by_game_type, by_lobby, options)
    out = derive(counts, pt_tables=pt_tables)
    if min_games:
        out = out[out["games"] >= min_games]
    out = out.rename(columns={"name": "player"})
    return out.sort_values(
        ["games", "hands", "player"], ascending=[False, False, True], kind="stable"
    ).reset_index(drop=True)


def games_table(source: Source) -> pd.DataFrame:
    """One row per game: file, log id, date, game type, rule preset, hands,
    complete, then per seat ``name_k, score_k, place_k, points_k`` (k = 0..3;
    empty for the missing seat of a three-player game)."""
    _hf, gf = _frames(source)
    if not len(gf):
        return pd.DataFrame()
    head = [
        "file",
        "log_id",
        "date",
        "game_type",
        "platform",
        "rules",
        "players",
        "hands",
        "complete",
    ]
    rows = []
    for _file, group in gf.groupby("file", sort=False):
        first = group.iloc[0]
        row = {k: first[k] for k in head}
        for _, r in group.iterrows():
            s = int(r["seat"])
            row[f"name_{s}"] = r["name"]
            row[f"score_{s}"] = r["final_score"]
            row[f"place_{s}"] = r["place"]
            row[f"points_{s}"] = r["final_points"]
        rows.append(row)
    out = pd.DataFrame(rows)
    cols = head + [f"{p}_{s}" for s in range(4) for p in ("name", "score", "place", "points")]
    for c in cols:
        if c not in out:
            out[c] = None
    return out[cols]


FRACTIONAL_COUNTERS = frozenset({"final_points_sum", "rate_change_sum"})
"""Counters that sum fractions (uma and oka make ``+42.6``); every other counter
counts or sums whole numbers."""


def integer_counts(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (``players()``) with its whole-number counters as ``Int64``: the
    sums are floats while they are computed (NaN for a ``max`` counter that saw
    nothing), but a CSV or a page should say ``12`` games, not ``12.0``."""
    from replay_audit.stats.definitions import COUNTERS

    out = table.copy()
    for c in COUNTERS:
        if c.key in out.columns and c.key not in FRACTIONAL_COUNTERS:
            col = out[c.key]
            whole = col.dropna()
            if (whole == whole.round()).all():
                out[c.key] = col.round().astype("Int64")
    return out
