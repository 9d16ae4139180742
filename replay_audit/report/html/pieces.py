"""The page's small parts: caps, columns, the style sheet, escaping and tables.

Owns ``PageTables`` (what a page reads from a report), the page's limits (``MAX_GAMES``, ``MAX_FINDINGS``, ``MAX_PLAYERS`` and the
chart caps), the players' columns and formulas, the CSS, and turning a DataFrame
into an escaped HTML table.

Must not: compute statistics (``stats``) or read a report.
"""

from __future__ import annotations

import hashlib
import html
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import pandas as pd

from replay_audit.stats.definitions import STATS

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
    out = [table_head(cols, titles)]
    out.extend(_table_rows(df, cols, row_ids=row_ids, links=links, text=text))
    out.append("</tbody></table>")
    return "".join(out)


def table_head(cols: list[str], titles: Mapping[str, str] | None = None) -> str:
    """A table's opening up to its ``<tbody>``: the column headings (with a tooltip
    where ``titles`` has one)."""
    head = "".join(
        f'<th title="{html.escape(titles[c], quote=True)}">{html.escape(c)}</th>'
        if titles and c in titles
        else f"<th>{html.escape(c)}</th>"
        for c in cols
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>"


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
    values = df[cols].to_numpy(dtype=object) if cols else []
    if fixed is None:
        fixed = _fractional_columns(df, cols)
    return rows_html(values, cols, row_ids=row_ids, links=links, text=text, fixed=fixed)


def rows_html(
    rows: Iterable[Sequence[Any]],
    cols: list[str],
    *,
    row_ids: list[str] | None = None,
    links: Mapping[str, list[str | None]] | None = None,
    text: set[str] | frozenset[str] = frozenset(),
    fixed: set[str] | frozenset[str] = frozenset(),
) -> list[str]:
    """The ``<tr>`` rows of cells as a frame's ``to_numpy(dtype=object)`` gives them:
    text cells (``text`` columns, or a string) left-aligned, ``fixed`` columns' floats
    to three places, every other cell ``_esc``'d, linked where ``links`` says.

    A cell's ``<td>`` depends on its column and its value alone, so the rows are
    made column by column: a column without floats gets each distinct value's
    ``<td>`` once (a games table repeats its formats, rules, lobbies, counts and
    players' names; escaping every cell again was a third of the page's games
    section), a column with floats (``0.0`` and ``-0.0`` are one key and two texts
    where fixed) a ``<td>`` a cell; then each row joins its cells.
    ``rows_html_uncached`` is the reference it is held to.
    """
    if links:
        return rows_html_uncached(rows, cols, row_ids=row_ids, links=links, text=text, fixed=fixed)
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        return []
    if not cols:
        columns: list[list[str]] = []
    else:
        columns = [
            _column_cells(values, c in text, c in fixed)
            for c, values in zip(cols, zip(*rows, strict=True), strict=True)
        ]
    ids = [f' id="{r}"' if r else "" for r in row_ids[: len(rows)]] if row_ids else []
    cells = map("".join, zip(*columns, strict=True)) if columns else ("" for _ in rows)
    if not ids:
        return [f"<tr>{c}</tr>" for c in cells]
    return [f"<tr{rid}>{c}</tr>" for rid, c in zip(ids, cells, strict=True)]


def _column_cells(values: Sequence[Any], text: bool, fixed: bool) -> list[str]:
    """Each value's ``<td>`` (``_td``), made once per distinct type and value in a
    column without floats."""
    if any(isinstance(v, float) for v in values):
        return [_td(v, text, fixed) for v in values]
    try:
        keys = list(zip(map(type, values), values, strict=True))
        made = dict.fromkeys(keys, "")
    except TypeError:  # unhashable (a list), or a value that will not compare
        return [_td(v, text, fixed) for v in values]
    for key in made:
        made[key] = _td(key[1], text, fixed)
    return list(map(made.__getitem__, keys))


def _td(v: Any, text: bool, fixed: bool) -> str:
    """One cell of ``rows_html`` (unlinked).  A float's text is made here (``_fmt``'s,
    which escaping leaves as it is: digits, a sign, a point, ``inf``): most of a
    players table's cells are rates."""
    if type(v) is float:
        cls = ' class="t"' if text else ""
        if v != v:
            return f"<td{cls}></td>"
        if fixed:
            return f"<td{cls}>{v:.3f}</td>"
        if v.is_integer() and abs(v) >= 10:
            return f"<td{cls}>{int(v)}</td>"
        return f"<td{cls}>{f'{v:.3f}'.rstrip('0').rstrip('.') if v != 0 else '0'}</td>"
    cls = ' class="t"' if text or isinstance(v, str) else ""
    if fixed and isinstance(v, float) and not math.isnan(v):
        return f"<td{cls}>{v:.3f}</td>"
    return f"<td{cls}>{_esc(v)}</td>"


def rows_html_uncached(
    rows: Iterable[Sequence[Any]],
    cols: list[str],
    *,
    row_ids: list[str] | None = None,
    links: Mapping[str, list[str | None]] | None = None,
    text: set[str] | frozenset[str] = frozenset(),
    fixed: set[str] | frozenset[str] = frozenset(),
) -> list[str]:
    """``rows_html`` a cell at a time (the page's rows as they always were made)."""
    out = []
    for i, row in enumerate(rows):
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


class CellTable(Protocol):
    """A table's cells as its frames' ``to_numpy(dtype=object)`` gives them, chunk by
    chunk (``report.part_frames.CellChunks``)."""

    @property
    def columns(self) -> list[str]: ...

    @property
    def text(self) -> frozenset[str]:
        """The columns of ``object`` dtype."""
        ...

    @property
    def chunks(self) -> Iterable[list[tuple[Any, ...]]]: ...


class PageTables(Protocol):
    """What the page reads from a report: counts, the first rows and the rows it
    shows, never more. ``FrameTables`` answers from DataFrames in memory;
    ``report.stored.StoredAuditReport`` answers part by part from disk, so a stored run of
    any size draws the same page in bounded memory."""

    def page_findings(self, limit: int) -> tuple[pd.Series | None, int, pd.DataFrame]:
        """Category counts (most first), number of findings, the first ``limit``."""
        ...

    def page_game_count(self) -> int: ...

    def page_game_chunks(self) -> Iterable[pd.DataFrame]:
        """The games table in order, in chunks of one dtype per column."""
        ...

    def page_game_cells(self) -> CellTable | None:
        """The cells ``page_game_chunks``' frames hold, made without them, or ``None``
        (the page then reads those frames)."""
        ...

    def page_history_files(self, first: int, also: set[str]) -> tuple[list[str], list[str], int]:
        """Files of the score history in table order that are among the first
        ``first`` or in ``also``; the first ``first``; the number of files."""
        ...

    def page_history(self, files: list[str]) -> pd.DataFrame:
        """The score-history rows of these files."""
        ...
