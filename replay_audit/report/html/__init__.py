"""One self-contained, offline HTML page for an audit run.

The page must open from a mail attachment or an air-gapped machine, so it
loads nothing: CSS is inline, charts are SVG written into the document (no
plotting library: a first run draws its page in milliseconds), and there is no
script.  Every piece of text that came from a log
(player names, file names, messages) is escaped, because names are chosen by
players.  Big runs stay a reasonable size by capping the per-game and
per-player charts, the findings rows and the games rows, each cap stated on
the page; the page reads its tables through ``PageTables``, so a stored run
draws it part by part, never holding a whole table.

Sections: run summary, findings (each linked to its hand or game), players
(main rates with their definitions as tooltips, a placement chart each),
games (one row each, the anchor findings link to) and per-game score charts
with a hand-by-hand score table.

The package: ``page`` (``render_page``, ``render_html``, ``FrameTables``) <-
``sections`` <- ``charts`` and ``pieces`` (caps, columns, CSS, tables,
``PageTables``).  The caps are read from ``pieces`` at render time.  The old
module's names are re-exported here.

Must not: compute statistics, read a report folder or write files.
"""

from __future__ import annotations

from replay_audit.report.html.charts import (
    SEAT_COLORS,
    charts_available,
    nice_ticks,
    placement_chart,
    score_chart,
)
from replay_audit.report.html.page import (
    FrameTables,
    combine_counts,
    render_html,
    render_page,
    render_players_page,
)
from replay_audit.report.html.pieces import (
    MAX_FINDINGS,
    MAX_GAME_CHARTS,
    MAX_GAMES,
    MAX_PLAYER_CHARTS,
    MAX_PLAYERS,
    PLAYER_COLUMNS,
    PageTables,
    game_anchor,
    plural,
)
from replay_audit.stats.game_facts import score_history

__all__ = [
    "MAX_FINDINGS",
    "MAX_GAMES",
    "MAX_GAME_CHARTS",
    "MAX_PLAYERS",
    "MAX_PLAYER_CHARTS",
    "PLAYER_COLUMNS",
    "SEAT_COLORS",
    "FrameTables",
    "PageTables",
    "charts_available",
    "combine_counts",
    "game_anchor",
    "nice_ticks",
    "placement_chart",
    "plural",
    "render_html",
    "render_page",
    "render_players_page",
    "score_chart",
    "score_history",
]
