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
"""

from __future__ import annotations

import hashlib
import html
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import pandas as pd

from replay_audit.stats.definitions import STATS
from replay_audit.stats.facts import score_history

__all__ = [
    "FrameTables",
    "PageTables",
    "render_html",
    "render_page",
    "render_players_page",
    "score_history",
]

MAX_GAMES = 2000
"""Games-table rows past which only linked games and the first ones are listed."""
MAX_GAME_CHARTS = 50
MAX_PLAYER_CHARTS = 50
MAX_FINDINGS = 5000
MAX_PLAYERS = 2000
"""Players-table rows shown (most games first): an archive of every lobby has
hundreds of thousands of players, and a page that long helps nobody."""

PLAYER_COLUMNS = (
    "player",
    "game_type",
    "games",
    "avg_place",
    "rate_1",
    "rate_2",
    "rate_3",
    "rate_4",
    "avg_final_points",
    "bust_rate",
    "hands",
    "win_rate",
    "deal_in_rate",
    "riichi_rate",
    "call_rate",
    "dama_rate",
    "tsumo_share",
    "avg_win_hand_value",
    "avg_deal_in_payment",
    "draw_tenpai_rate",
    "riichi_win_rate",
    "riichi_multi_wait_rate",
    "avg_start_shanten",
    "longest_dealer_streak",
    "stable_dan",
    "avg_rate_change",
)
"""The players-table columns the page shows (the full table has ~100)."""

_FORMULAS = {s.key: f"{s.label}: {s.formula}" for s in STATS}

_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{border:1px solid #ddd;padding:2px 6px;text-align:right;vertical-align:top}
th{background:#f3f3f3;position:sticky;top:0}
td.t{text-align:left}
tr:target{background:#fff3b0}
.note{color:#666;font-size:.9em}
figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}
figure.wide{display:block;margin:.5em 0}
svg.chart text{font-family:system-ui,"Noto Sans CJK JP",sans-serif;fill:#222}
figcaption{font-size:.8em;color:#444;max-width:440px}
section.game{margin-top:1.5em}
.scroll{max-height:40em;overflow:auto}
"""


# ------------------------------------------------------------------------ helpers


def _esc(value: Any) -> str:
    return html.escape(_fmt(value), quote=True)


def _fmt(value: Any) -> str:
    """Readable cell text: no ``nan``, integral floats without ``.0``, others to 3 places."""
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value.is_integer() and abs(value) >= 10:
            return str(int(value))
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != 0 else "0"
    if isinstance(value, (list, tuple)):
        return " ".join(_fmt(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items())
    try:
        if pd.isna(value):
            return ""
    except (TypeError, ValueError):
        pass
    return str(value)


def plural(count: Any, word: str) -> str:
    """``1 game``, ``2 games``, ``1,234 games`` (a count read from a table may be a
    float or missing).

    >>> plural(1, "game"), plural(2.0, "game"), plural(1234, "file")
    ('1 game', '2 games', '1,234 files')
    """
    try:
        n = int(count)
    except (TypeError, ValueError):
        return f"{_fmt(count)} {word}s"
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def game_anchor(file: Any) -> str:
    """A stable, HTML-safe id for a game, from its file (unique per run)."""
    return "g-" + hashlib.sha1(str(file).encode("utf-8")).hexdigest()[:12]


def _table(
    df: pd.DataFrame,
    columns: Iterable[str],
    *,
    row_ids: list[str] | None = None,
    links: Mapping[str, list[str | None]] | None = None,
    text_columns: Iterable[str] = (),
    titles: Mapping[str, str] | None = None,
) -> str:
    """An escaped HTML table; ``links[col][i]`` turns that cell into an in-page link."""
    cols = [c for c in columns if c in df.columns]
    text = set(text_columns)
    head = "".join(
        f'<th title="{html.escape(titles[c], quote=True)}">{html.escape(c)}</th>'
        if titles and c in titles
        else f"<th>{html.escape(c)}</th>"
        for c in cols
    )
    out = [f"<table><thead><tr>{head}</tr></thead><tbody>"]
    out.extend(_table_rows(df, cols, row_ids=row_ids, links=links, text=text))
    out.append("</tbody></table>")
    return "".join(out)


def _table_rows(
    df: pd.DataFrame,
    cols: list[str],
    *,
    row_ids: list[str] | None = None,
    links: Mapping[str, list[str | None]] | None = None,
    text: set[str] | frozenset[str] = frozenset(),
    fixed: set[str] | None = None,
) -> list[str]:
    """The ``<tr>`` rows of ``_table``: a long table is built chunk by chunk from them
    (with ``fixed``, the fractional columns, named so that every chunk agrees)."""
    out = []
    values = df[cols].to_numpy(dtype=object) if cols else []
    if fixed is None:
        fixed = _fractional_columns(df, cols)
    for i, row in enumerate(values):
        rid = f' id="{row_ids[i]}"' if row_ids and row_ids[i] else ""
        cells = []
        for c, v in zip(cols, row, strict=True):
            cls = ' class="t"' if c in text or isinstance(v, str) else ""
            if c in fixed and isinstance(v, float) and not math.isnan(v):
                content = f"{v:.3f}"
            else:
                content = _esc(v)
            target = links.get(c, [None] * (i + 1))[i] if links else None
            if target:
                content = f'<a href="#{target}">{content}</a>'
            cells.append(f"<td{cls}>{content}</td>")
        out.append(f"<tr{rid}>{''.join(cells)}</tr>")
    return out


def _fractional_columns(df: pd.DataFrame, cols: list[str]) -> set[str]:
    """Float columns holding a fraction anywhere: their cells all get three decimals,
    so a column of rates reads ``0.250``, ``0.300``, ``0.000`` rather than a mix of
    widths; whole-number columns (counts) stay whole."""
    out = set()
    for c in cols:
        col = df[c]
        if pd.api.types.is_float_dtype(col.dtype):
            v = col.dropna()
            if len(v) and not (v == v.round()).all():
                out.add(c)
    return out


# ------------------------------------------------------------------------- charts


def charts_available() -> bool:
    """Charts are SVG written here, with no plotting library, so they are always
    available; kept as a switch so a page can be drawn without charts."""
    return True


SEAT_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def nice_ticks(low: float, high: float, most: int = 6, *, integer: bool = False) -> list[float]:
    """Round tick values covering ``low``..``high``: steps of 1, 2 or 5 times a power
    of ten, at most ``most`` of them; ``integer`` keeps steps whole (counts).

    >>> nice_ticks(0, 3, integer=True), nice_ticks(-1200, 41000)
    ([0, 1, 2, 3], [-10000, 0, 10000, 20000, 30000, 40000, 50000])
    """
    if high <= low:
        high = low + 1
    raw = (high - low) / max(most - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if integer:
        step = max(1, round(step))
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step:
        ticks.append(int(value) if float(value).is_integer() else value)
        if value >= high:
            break
        value += step
    return ticks


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _text(
    x: float, y: float, text: str, *, size: int = 11, anchor: str = "middle", **extra: str
) -> str:
    attrs = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}" text-anchor="{anchor}"{attrs}>'
        f"{html.escape(text)}</text>"
    )


def score_chart(history: pd.DataFrame, prefix: str) -> str:
    """Scores of every seat at the start of each hand and at the end (one game):
    one line per seat, hand labels below, the players' names in the legend.
    Written as SVG text (scaled to the page's width by its ``viewBox``), so a
    page of fifty games draws in milliseconds, and names in any script are set
    by the browser's fonts."""
    w, h, left, right, top, bottom = 900, 300, 64, 180, 12, 44
    order = history.drop_duplicates("hand_index").sort_values("hand_index")
    xs = [int(x) for x in order["hand_index"]]
    labels = [str(v) for v in order["label"]]
    scores = [float(v) for v in history["score"] if v == v]
    ticks = nice_ticks(min([0.0, *scores]), max([1.0, *scores]))
    lo, hi = ticks[0], ticks[-1]
    span_x = max(len(xs) - 1, 1)
    pos = {x: i for i, x in enumerate(xs)}

    def px(x: int) -> float:
        return left + (w - left - right) * pos[x] / span_x

    def py(v: float) -> float:
        return top + (h - top - bottom) * (hi - v) / ((hi - lo) or 1)

    out = [
        f'<svg id="{prefix}" class="chart" viewBox="0 0 {w} {h}" width="100%" '
        'role="img" xmlns="http://www.w3.org/2000/svg">'
    ]
    for t in ticks:
        y = py(t)
        stroke = "#999" if t == 0 else "#e3e3e3"
        out.append(
            f'<line x1="{left}" x2="{w - right}" y1="{_num(y)}" y2="{_num(y)}" stroke="{stroke}"/>'
        )
        out.append(_text(left - 6, y + 4, f"{int(t):,}", anchor="end"))
    step = max(1, math.ceil(len(xs) / 24))  # a long game: every n-th label
    for i, (x, label) in enumerate(zip(xs, labels, strict=True)):
        if i % step == 0 or i == len(xs) - 1:
            out.append(_text(px(x), h - bottom + 16, label, size=10))
    out.append(
        _text(
            left - 48,
            top + (h - top - bottom) / 2,
            "score",
            anchor="middle",
            transform=f"rotate(-90 {left - 48} {_num(top + (h - top - bottom) / 2)})",
        )
    )
    for n, (seat, rows) in enumerate(history.groupby("seat", sort=True)):
        rows = rows.sort_values("hand_index")
        color = SEAT_COLORS[n % len(SEAT_COLORS)]
        points = " ".join(
            f"{_num(px(int(x)))},{_num(py(float(v)))}"
            for x, v in zip(rows["hand_index"], rows["score"], strict=True)
            if v == v and int(x) in pos
        )
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{points}"/>')
        for pt in points.split():
            cx, cy = pt.split(",")
            out.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="{color}"/>')
        ly = top + 14 + 20 * n
        name = str(rows["name"].iloc[0])
        out.append(
            f'<rect x="{w - right + 12}" y="{ly - 9}" width="12" height="12" fill="{color}"/>'
        )
        out.append(_text(w - right + 30, ly + 1, f"{seat}: {name}", anchor="start", size=12))
    out.append("</svg>")
    return "".join(out)


def placement_chart(player: Mapping[str, Any], prefix: str, places: int = 4) -> str:
    """How often one player finished in each place: a bar per place, a count on
    each bar, whole-number ticks (these are games)."""
    w, h, left, bottom, top = 240, 150, 34, 30, 10
    counts = [int(float(player.get(f"place_{k}", 0) or 0)) for k in range(1, places + 1)]
    ticks = nice_ticks(0, max([1, *counts]), 5, integer=True)
    hi = ticks[-1]
    plot_w, plot_h = w - left - 8, h - top - bottom
    bar = plot_w / places
    out = [
        f'<svg id="{prefix}" class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
        'role="img" xmlns="http://www.w3.org/2000/svg">'
    ]
    for t in ticks:
        y = top + plot_h * (1 - t / hi)
        out.append(
            f'<line x1="{left}" x2="{w - 8}" y1="{_num(y)}" y2="{_num(y)}" stroke="#e3e3e3"/>'
        )
        out.append(_text(left - 5, y + 4, str(int(t)), anchor="end", size=10))
    for k, c in enumerate(counts):
        x = left + bar * k + bar * 0.15
        y = top + plot_h * (1 - c / hi)
        out.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(bar * 0.7)}" '
            f'height="{_num(top + plot_h - y)}" fill="#4a78b5"/>'
        )
        if c:
            out.append(_text(x + bar * 0.35, y - 2, str(c), size=10))
        out.append(_text(x + bar * 0.35, h - bottom + 14, f"{k + 1}", size=10))
    out.append(_text(left + plot_w / 2, h - 3, "place", size=10))
    out.append("</svg>")
    return "".join(out)


# ----------------------------------------------------------------------- sections


def _summary_section(summary: Mapping[str, Any]) -> str:
    rows = "".join(
        f'<tr><th class="t">{_esc(k)}</th><td class="t">{_esc(v)}</td></tr>'
        for k, v in summary.items()
    )
    return f'<section id="summary"><h2>Run summary</h2><table>{rows}</table></section>'


def _gid(file: Any) -> str | None:
    """The anchor of a finding's game, none for a finding without a file."""
    if file is None or (not isinstance(file, str) and pd.isna(file)):
        return None
    return game_anchor(file)


def _findings_section(
    counts: pd.Series | None, total: int, shown: pd.DataFrame, detailed: set[str], rows: set[str]
) -> str:
    """The counts, then the first findings, linked to their hand in a detail section
    (``detailed``) or else to their game's row (``rows``; an unreadable file has none)."""
    parts = ['<section id="findings"><h2>Findings</h2>']
    if total == 0 or shown.empty:
        parts.append("<p>No findings: every recorded value matched.</p></section>")
        return "".join(parts)
    if counts is not None:
        parts.append(
            '<p class="note">'
            + ", ".join(f"{_esc(k)}: {int(v)}" for k, v in counts.items())
            + "</p>"
        )
    if total > MAX_FINDINGS:
        parts.append(
            f'<p class="note">Showing the first {MAX_FINDINGS} of {total} findings; '
            "the CSV/Parquet outputs hold all of them.</p>"
        )
    links: list[str | None] = []
    for _, f in shown.iterrows():
        gid = _gid(f.get("file"))
        hi = f.get("hand_index")
        if gid and gid in detailed and hi is not None and not pd.isna(hi):
            links.append(f"{gid}-h{int(hi)}")
        else:
            links.append(gid if gid in rows else None)
    cols = [
        c
        for c in (
            "category",
            "field",
            "file",
            "log_id",
            "hand",
            "seq",
            "seat",
            "recorded",
            "computed",
            "message",
        )
        if c in shown.columns
    ]
    link_col = "hand" if "hand" in cols else cols[0]
    file_links = [g if (g := _gid(f)) in rows else None for f in shown.get("file", [])]
    parts.append('<div class="scroll">')
    parts.append(
        _table(
            shown,
            cols,
            links={link_col: links, "file": file_links},
            text_columns=("category", "field", "file", "log_id", "hand", "message"),
        )
    )
    parts.append("</div></section>")
    return "".join(parts)


def _players_section(players: pd.DataFrame) -> str:
    from replay_audit.stats import integer_counts

    parts = ['<section id="players"><h2>Players</h2>']
    if players is None or players.empty:
        parts.append("<p>No player statistics.</p></section>")
        return "".join(parts)
    players = integer_counts(players)
    parts.append(
        '<p class="note">Rates are numerator ÷ denominator counters; hover a heading for '
        "its definition. Empty cells: the denominator is zero.</p>"
    )
    if len(players) > MAX_PLAYERS:
        parts.append(
            f'<p class="note">Showing the {MAX_PLAYERS} players with the most games of '
            f"{len(players)}; <code>replay-audit players REPORT_DIR --out players.csv</code> "
            "writes all of them.</p>"
        )
    parts.append('<div class="scroll">')
    parts.append(
        _table(
            players.head(MAX_PLAYERS),
            PLAYER_COLUMNS,
            text_columns=("player", "game_type"),
            titles=_FORMULAS,
        )
    )
    parts.append("</div>")
    top = players.head(MAX_PLAYER_CHARTS if charts_available() else 0)
    if len(top) and len(players) > MAX_PLAYER_CHARTS:
        parts.append(
            f'<p class="note">Placement charts for the first {MAX_PLAYER_CHARTS} of '
            f"{len(players)} players (most games first).</p>"
        )
    for i, (_, p) in enumerate(top.iterrows()):
        places = 3 if str(p.get("game_type", "")).find("-3p") >= 0 else 4
        chart = placement_chart(p.to_dict(), f"pc{i}", places)
        caption = (
            f"<b>{_esc(p.get('player'))}</b> ({_esc(p.get('game_type'))}): "
            f"{html.escape(plural(p.get('games'), 'game'))}, avg place {_esc(p.get('avg_place'))}, "
            f"win {_esc(p.get('win_rate'))}, deal-in {_esc(p.get('deal_in_rate'))}, "
            f"riichi {_esc(p.get('riichi_rate'))}, call {_esc(p.get('call_rate'))}"
        )
        parts.append(f"<figure>{chart}<figcaption>{caption}</figcaption></figure>")
    parts.append("</section>")
    return "".join(parts)


def _games_section(tables: PageTables, keep: set[str]) -> tuple[str, set[str]]:
    """Every game, or past ``MAX_GAMES`` games the ones in ``keep`` (link targets)
    plus the first others up to the cap, read chunk by chunk; and the row ids."""
    parts = ['<section id="games"><h2>Games</h2>']
    anchors: set[str] = set()
    total = tables.page_game_count()
    if total == 0:
        parts.append("<p>No games.</p></section>")
        return "".join(parts), anchors
    capped = total > MAX_GAMES
    budget = max(0, MAX_GAMES - len(keep))
    rows: list[str] = []
    head = ""
    text: set[str] = set()
    cols: list[str] = []
    shown = others = 0
    for df in tables.page_game_chunks():
        if not head:
            cols = list(df.columns)
            text = {c for c in cols if df[c].dtype == object}
            head = _table(df.head(0), cols, text_columns=text).removesuffix("</tbody></table>")
        if capped:
            mask = []
            for f in df["file"]:
                forced = str(f) in keep
                mask.append(forced or others < budget)
                others += not forced and others < budget
            df = df[mask]
        shown += len(df)
        ids = [game_anchor(f) for f in df["file"]]
        anchors.update(ids)
        fixed = {c for c in cols if c.startswith("final_points")}
        rows.extend(_table_rows(df, cols, row_ids=ids, text=text, fixed=fixed))
    if capped:
        parts.append(
            f'<p class="note">Showing {shown} of {plural(total, "game")}; games.csv / games.parquet '
            "hold all (shown: every game a finding or score table links to, then the "
            "first ones).</p>"
        )
    parts.append('<div class="scroll">')
    parts.append(head + "".join(rows) + "</tbody></table>")
    parts.append("</div></section>")
    return "".join(parts), anchors


def _detail_section(
    history: pd.DataFrame, files: list[str], charted: set[str], n_games: int
) -> str:
    parts = ['<section id="scores"><h2>Scores by hand</h2>']
    if not files:
        parts.append("<p>No score history.</p></section>")
        return "".join(parts)
    parts.append(
        f'<p class="note">Charts for the first {len(charted)} of {plural(n_games, "game")}; '
        "games with findings also get their hand-by-hand table.</p>"
    )
    groups = {f: g for f, g in history.groupby("file", sort=False)}
    for i, file in enumerate(files):
        g = groups[file]
        gid = game_anchor(file)
        log_id = g["log_id"].iloc[0] if "log_id" in g else None
        parts.append(f'<section class="game" id="{gid}-detail">')
        parts.append(
            f'<h3><a href="#{gid}">{_esc(log_id or file)}</a> <span class="note">{_esc(file)}</span></h3>'
        )
        if file in charted:
            parts.append(f'<figure class="wide">{score_chart(g, f"sc{i}")}</figure>')
        wide = g.pivot_table(
            index=["hand_index", "label"], columns="seat", values="score", aggfunc="first"
        ).reset_index()
        names = g.drop_duplicates("seat").set_index("seat")["name"].to_dict()
        wide.columns = [
            c if isinstance(c, str) else f"{c}: {names.get(c, '')}" for c in wide.columns
        ]
        row_ids = [
            f"{gid}-h{int(h)}" if lbl != "final" else f"{gid}-final"
            for h, lbl in zip(wide["hand_index"], wide["label"], strict=True)
        ]
        cols = ["label", *[c for c in wide.columns if c not in ("hand_index", "label")]]
        parts.append(_table(wide, cols, row_ids=row_ids, text_columns=("label",)))
        parts.append("</section>")
    parts.append("</section>")
    return "".join(parts)


# -------------------------------------------------------------------------- page


class PageTables(Protocol):
    """What the page reads from a report: counts, the first rows and the rows it
    shows, never more. ``FrameTables`` answers from DataFrames in memory;
    ``runner.StoredAuditReport`` answers part by part from disk, so a stored run of
    any size draws the same page in bounded memory."""

    def page_findings(self, limit: int) -> tuple[pd.Series | None, int, pd.DataFrame]:
        """Category counts (most first), number of findings, the first ``limit``."""
        ...

    def page_game_count(self) -> int: ...

    def page_game_chunks(self) -> Iterable[pd.DataFrame]:
        """The games table in order, in chunks of one dtype per column."""
        ...

    def page_history_files(self, first: int, also: set[str]) -> tuple[list[str], list[str], int]:
        """Files of the score history in table order that are among the first
        ``first`` or in ``also``; the first ``first``; the number of files."""
        ...

    def page_history(self, files: list[str]) -> pd.DataFrame:
        """The score-history rows of these files."""
        ...


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

    Bounded whatever the run's size: at most ``MAX_FINDINGS`` findings rows; the
    games table lists every game up to ``MAX_GAMES``, past it the games the shown
    findings and detail sections link to plus the first others up to the cap;
    score charts for the first ``MAX_GAME_CHARTS`` games; hand-by-hand tables for
    those and the games of the shown findings (whose rows link to
    ``#<game>-h<hand_index>``, else to the game's row); one placement chart per
    player for the first ``MAX_PLAYER_CHARTS`` players.
    """
    counts, n_findings, shown = tables.page_findings(MAX_FINDINGS)
    with_findings = (
        {str(f) for f in shown["file"].dropna()} if not shown.empty and "file" in shown else set()
    )
    ordered, firsts, n_history = tables.page_history_files(MAX_GAME_CHARTS, with_findings)
    charted = set(firsts) if charts_available() else set()
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
