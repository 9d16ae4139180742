"""One self-contained, offline HTML page for an audit run.

The page must open from a mail attachment or an air-gapped machine, so it
loads nothing: CSS is inline, charts are matplotlib SVG embedded in the
document, and there is no script.  Every piece of text that came from a log
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
import io
import math
import re
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import pandas as pd

from replay_audit.stats.definitions import STATS
from replay_audit.stats.facts import score_history

__all__ = ["FrameTables", "PageTables", "render_html", "render_page", "score_history"]

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
) -> list[str]:
    """The ``<tr>`` rows of ``_table``: a long table is built chunk by chunk from them."""
    out = []
    values = df[cols].to_numpy(dtype=object) if cols else []
    for i, row in enumerate(values):
        rid = f' id="{row_ids[i]}"' if row_ids and row_ids[i] else ""
        cells = []
        for c, v in zip(cols, row, strict=True):
            cls = ' class="t"' if c in text or isinstance(v, str) else ""
            content = _esc(v)
            target = links.get(c, [None] * (i + 1))[i] if links else None
            if target:
                content = f'<a href="#{target}">{content}</a>'
            cells.append(f"<td{cls}>{content}</td>")
        out.append(f"<tr{rid}>{''.join(cells)}</tr>")
    return out


# ------------------------------------------------------------------------- charts


def charts_available() -> bool:
    """matplotlib draws the charts; without it the page still renders, chartless,
    and says so (plotting is an optional extra, stats.md §2.5)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


_ID_RE = re.compile(r'\bid="([^"]+)"')
_URL_RE = re.compile(r"url\(#([^)]+)\)")
_HREF_RE = re.compile(r'href="#([^"]+)"')


def _svg(fig: Any, prefix: str) -> str:
    """The figure as inline SVG, ids made unique to this chart (several SVGs share
    one document) and the XML prolog and metadata dropped."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": prefix}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)
    text = _ID_RE.sub(lambda m: f'id="{prefix}-{m.group(1)}"', text)
    text = _URL_RE.sub(lambda m: f"url(#{prefix}-{m.group(1)})", text)
    text = _HREF_RE.sub(lambda m: f'href="#{prefix}-{m.group(1)}"', text)
    return text


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def score_chart(history: pd.DataFrame, prefix: str) -> str:
    """Scores of every seat at the start of each hand and at the end (one game)."""
    fig = _figure(6.0, 2.8)
    ax = fig.add_subplot()
    order = history.drop_duplicates("hand_index").sort_values("hand_index")
    xs = list(order["hand_index"])
    labels = list(order["label"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # glyphs missing from the font (CJK names)
        for seat, rows in history.groupby("seat", sort=True):
            rows = rows.sort_values("hand_index")
            name = str(rows["name"].iloc[0])
            ax.plot(rows["hand_index"], rows["score"], marker="o", ms=3, label=f"{seat}: {name}")
        ax.axhline(0, color="#999", lw=0.6)
        ax.set_xticks(xs, labels, rotation=60, fontsize=7)
        ax.tick_params(axis="y", labelsize=7)
        ax.set_ylabel("score", fontsize=8)
        ax.legend(fontsize=7, loc="best")
        return _svg(fig, prefix)


def placement_chart(player: Mapping[str, Any], prefix: str, places: int = 4) -> str:
    """Counts of each finishing place for one player."""
    fig = _figure(2.6, 1.8)
    ax = fig.add_subplot()
    counts = [float(player.get(f"place_{k}", 0) or 0) for k in range(1, places + 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ax.bar([str(k) for k in range(1, places + 1)], counts, color="#4a78b5")
        ax.set_xlabel("place", fontsize=7)
        ax.set_ylabel("games", fontsize=7)
        ax.tick_params(labelsize=7)
        return _svg(fig, prefix)


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
    parts = ['<section id="players"><h2>Players</h2>']
    if players is None or players.empty:
        parts.append("<p>No player statistics.</p></section>")
        return "".join(parts)
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
    if not charts_available():
        parts.append('<p class="note">Charts need matplotlib, which is not installed.</p>')
        top = players.head(0)
    else:
        top = players.head(MAX_PLAYER_CHARTS)
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
            f"{_esc(p.get('games'))} games, avg place {_esc(p.get('avg_place'))}, "
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
        rows.extend(_table_rows(df, cols, row_ids=ids, text=text))
    if capped:
        parts.append(
            f'<p class="note">Showing {shown} of {total} games; games.csv / games.parquet '
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
        f'<p class="note">Charts for the first {len(charted)} of {n_games} games; '
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
            parts.append(f"<figure>{score_chart(g, f'sc{i}')}</figure>")
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
