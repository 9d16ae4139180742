"""The report page and the players page, whole.

Owns ``PageTables`` (what a page reads from a report: in memory ``FrameTables``,
on disk ``StoredAuditReport``), ``combine_counts``, ``render_page``,
``render_players_page`` and ``render_html``.

Must not: write files (``AuditReport.write_html`` does) or compute statistics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from replay_audit.report.html import charts, pieces
from replay_audit.report.html.pieces import _CSS, PageTables, _esc, game_anchor
from replay_audit.report.html.sections import (
    _detail_section,
    _findings_section,
    _games_section,
    _players_section,
    _summary_section,
)

# -------------------------------------------------------------------------- page


def combine_counts(counts: Iterable[pd.Series]) -> pd.Series | None:
    """``value_counts()`` of a column from the unsorted counts of its chunks: summed in
    order of first appearance, then sorted as ``value_counts`` sorts (most first)."""
    counts = [c for c in counts if c is not None]
    if not counts:
        return None
    total = pd.concat(counts).groupby(level=0, sort=False).sum()
    return total.sort_values(ascending=False)


@dataclass(frozen=True, slots=True)
class FrameTables:
    """``PageTables`` over DataFrames already in memory."""

    findings: pd.DataFrame
    games: pd.DataFrame
    history: pd.DataFrame

    def page_findings(self, limit: int) -> tuple[pd.Series | None, int, pd.DataFrame]:
        f = self.findings
        counts = combine_counts([f["category"].value_counts(sort=False)] if "category" in f else [])
        return counts, len(f), f.head(limit)

    def page_game_count(self) -> int:
        return 0 if self.games.empty else len(self.games)

    def page_game_chunks(self) -> Iterable[pd.DataFrame]:
        return [self.games]

    def page_game_cells(self) -> None:
        return None  # (the frame is at hand)

    def page_history_files(self, first: int, also: set[str]) -> tuple[list[str], list[str], int]:
        h = self.history
        if h.empty or "file" not in h:
            return [], [], 0
        files = [str(f) for f in h["file"].dropna().drop_duplicates()]
        ordered = [f for i, f in enumerate(files) if i < first or f in also]
        return ordered, files[:first], int(h["file"].nunique())

    def page_history(self, files: list[str]) -> pd.DataFrame:
        h = self.history
        if h.empty or "file" not in h:
            return h
        return h[h["file"].astype(str).isin(set(files))]


def render_page(
    *,
    summary: Mapping[str, Any],
    tables: PageTables,
    players: pd.DataFrame,
    title: str = "replay_audit report",
) -> str:
    """The whole report as one HTML string (UTF-8, no external resources).

    Bounded whatever the run's size: at most ``pieces.MAX_FINDINGS`` findings rows; the
    games table lists every game up to ``pieces.MAX_GAMES``, past it the games the shown
    findings and detail sections link to plus the first others up to the cap;
    score charts for the first ``pieces.MAX_GAME_CHARTS`` games; hand-by-hand tables for
    those and the games of the shown findings (whose rows link to
    ``#<game>-h<hand_index>``, else to the game's row); one placement chart per
    player for the first ``pieces.MAX_PLAYER_CHARTS`` players.
    """
    counts, n_findings, shown = tables.page_findings(pieces.MAX_FINDINGS)
    with_findings = (
        {str(f) for f in shown["file"].dropna()} if not shown.empty and "file" in shown else set()
    )
    ordered, firsts, n_history = tables.page_history_files(pieces.MAX_GAME_CHARTS, with_findings)
    charted = set(firsts) if charts.charts_available() else set()
    detail_files = [f for f in ordered if f in charted or f in with_findings]
    detailed = {game_anchor(f) for f in detail_files}
    history = tables.page_history(detail_files)
    if not history.empty:
        history = history.assign(file=history["file"].astype(str))

    games_html, game_rows = _games_section(tables, with_findings | set(detail_files))
    body = [
        f"<h1>{_esc(title)}</h1>",
        '<p class="note"><a href="#summary">summary</a> · <a href="#findings">findings</a> · '
        '<a href="#players">players</a> · <a href="#games">games</a> · '
        '<a href="#scores">scores</a></p>',
        _summary_section(summary),
        _findings_section(counts, n_findings, shown, detailed, game_rows),
        _players_section(players),
        games_html,
        _detail_section(history, detail_files, charted, n_history),
    ]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )


def render_players_page(players: pd.DataFrame, *, title: str = "replay_audit players") -> str:
    """The ``replay-audit players --out FILE.html`` page: the audit page's players
    section on its own (UTF-8, so names in any script read right; counts whole;
    definitions as tooltips; a placement chart each for the first players)."""
    from replay_audit.stats import integer_counts

    table = integer_counts(players) if players is not None else pd.DataFrame()
    n = len(table)
    body = [
        f"<h1>{_esc(title)}</h1>",
        f'<p class="note">{n:,} player row{"" if n == 1 else "s"}, most games first.</p>',
        _players_section(table),
    ]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )


def render_html(
    *,
    summary: Mapping[str, Any],
    findings: pd.DataFrame,
    games: pd.DataFrame,
    players: pd.DataFrame,
    score_history: pd.DataFrame,
    title: str = "replay_audit report",
) -> str:
    """``render_page`` over whole DataFrames.

    ``games`` needs a ``file`` column (anchors are per file); ``score_history``
    has one row per game, hand and seat (``file, log_id, hand_index, label,
    seat, name, score``, see ``stats.score_history``).
    """
    tables = FrameTables(
        findings if findings is not None else pd.DataFrame(),
        games if games is not None else pd.DataFrame(),
        score_history if score_history is not None else pd.DataFrame(),
    )
    return render_page(summary=summary, tables=tables, players=players, title=title)
