"""The sections of the report page: summary, findings, players, games, details.

Owns rendering each section from what ``PageTables`` gives, within the caps of
``pieces``.

Must not: read a report folder or compute statistics.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from replay_audit.report.html import charts, pieces
from replay_audit.report.html.charts import placement_chart, score_chart
from replay_audit.report.html.pieces import (
    _FORMULAS,
    PLAYER_COLUMNS,
    PageTables,
    _esc,
    _table,
    game_anchor,
    plural,
    rows_html,
    table_head,
)

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
    if total > pieces.MAX_FINDINGS:
        parts.append(
            f'<p class="note">Showing the first {pieces.MAX_FINDINGS} of {total} findings; '
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
    players = integer_counts(_page_columns(players))
    parts.append(
        '<p class="note">Rates are numerator ÷ denominator counters; hover a heading for '
        "its definition. Empty cells: the denominator is zero.</p>"
    )
    if len(players) > pieces.MAX_PLAYERS:
        parts.append(
            f'<p class="note">Showing the {pieces.MAX_PLAYERS} players with the most games of '
            f"{len(players)}; <code>replay-audit players REPORT_DIR --out players.csv</code> "
            "writes all of them.</p>"
        )
    parts.append('<div class="scroll">')
    parts.append(
        _table(
            players.head(pieces.MAX_PLAYERS),
            PLAYER_COLUMNS,
            text_columns=("player", "game_type"),
            titles=_FORMULAS,
        )
    )
    parts.append("</div>")
    top = players.head(pieces.MAX_PLAYER_CHARTS if charts.charts_available() else 0)
    if len(top) and len(players) > pieces.MAX_PLAYER_CHARTS:
        parts.append(
            f'<p class="note">Placement charts for the first {pieces.MAX_PLAYER_CHARTS} of '
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


PLACE_COLUMNS = ("place_1", "place_2", "place_3", "place_4")
"""The counters a placement chart reads (``charts.placement_chart``)."""


def _page_columns(players: pd.DataFrame) -> pd.DataFrame:
    """The players table's columns the section reads: those it shows
    (``PLAYER_COLUMNS``, the charts' captions among them) and the placement charts'
    counters.  ``integer_counts`` types each column on its own, so typing these
    alone gives the cells typing all ~100 gives (a third of the section's time went
    to the others, and to each chart's row of all of them)."""
    wanted = dict.fromkeys((*PLAYER_COLUMNS, *PLACE_COLUMNS))
    return players[[c for c in players.columns if c in wanted]]


def _games_section(tables: PageTables, keep: set[str]) -> tuple[str, set[str]]:
    """Every game, or past ``pieces.MAX_GAMES`` games the ones in ``keep`` (link targets)
    plus the first others up to the cap, read chunk by chunk; and the row ids."""
    parts = ['<section id="games"><h2>Games</h2>']
    anchors: set[str] = set()
    total = tables.page_game_count()
    if total == 0:
        parts.append("<p>No games.</p></section>")
        return "".join(parts), anchors
    capped = total > pieces.MAX_GAMES
    budget = max(0, pieces.MAX_GAMES - len(keep))
    rows: list[str] = []
    head = ""
    shown = others = 0
    for cols, text, chunk in _game_rows(tables):
        if not head:
            head = table_head(cols)
        at = cols.index("file")
        files = [row[at] for row in chunk]
        if capped:
            mask = []
            for f in files:
                forced = str(f) in keep
                mask.append(forced or others < budget)
                others += not forced and others < budget
            chunk = [row for row, m in zip(chunk, mask, strict=True) if m]
            files = [f for f, m in zip(files, mask, strict=True) if m]
        shown += len(chunk)
        ids = [game_anchor(f) for f in files]
        anchors.update(ids)
        fixed = {c for c in cols if c.startswith("final_points")}
        rows.extend(rows_html(chunk, cols, row_ids=ids, text=text, fixed=fixed))
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


def _game_rows(
    tables: PageTables,
) -> Iterator[tuple[list[str], frozenset[str], Sequence[Sequence[Any]]]]:
    """The games table chunk by chunk: its columns, its text columns
    (of ``object`` dtype) and the chunk's rows of cells; from ``page_game_cells``
    where the tables give them, else from ``page_game_chunks``' frames."""
    cells = tables.page_game_cells()
    if cells is not None:
        for chunk in cells.chunks:
            yield cells.columns, cells.text, chunk
        return
    cols: list[str] = []
    text: frozenset[str] = frozenset()
    for df in tables.page_game_chunks():
        if not cols:
            cols = list(df.columns)
            text = frozenset(c for c in cols if df[c].dtype == object)
        yield cols, text, list(df[cols].to_numpy(dtype=object))


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
        parts.append(_score_table(g, gid))
        parts.append("</section>")
    parts.append("</section>")
    return "".join(parts)


def _score_table(g: pd.DataFrame, gid: str) -> str:
    """One game's hand-by-hand score table, a row per hand (``gid-h<hand_index>``,
    ``gid-final``), a column per seat: from ``_wide_cells`` where it answers, else
    from ``_wide``'s frame (the reference ``score_table_by_frame`` draws)."""
    cells = _wide_cells(g)
    if cells is None:
        return score_table_by_frame(g, gid)
    cols, hands, labels, rows = cells
    return (
        table_head(cols)
        + "".join(rows_html(rows, cols, row_ids=_row_ids(gid, hands, labels), text={"label"}))
        + "</tbody></table>"
    )


def score_table_by_frame(g: pd.DataFrame, gid: str) -> str:
    """``_score_table`` through ``_wide``'s frame and ``_table``."""
    wide = _wide(g)
    row_ids = _row_ids(gid, wide["hand_index"], wide["label"])
    cols = ["label", *[c for c in wide.columns if c not in ("hand_index", "label")]]
    return _table(wide, cols, row_ids=row_ids, text_columns=("label",))


def _row_ids(gid: str, hands: Iterable[Any], labels: Iterable[Any]) -> list[str]:
    return [
        f"{gid}-h{int(h)}" if lbl != "final" else f"{gid}-final"
        for h, lbl in zip(hands, labels, strict=True)
    ]


def _wide_cells(
    g: pd.DataFrame,
) -> tuple[list[str], list[int], list[str], list[tuple[Any, ...]]] | None:
    """``_wide``'s table as the page's cells, without a frame: the columns shown
    (``label``, then ``seat: name``), each row's hand and label, and its cells (the
    label, then each seat's score: an ``int``, or where a seat misses a hand a
    ``float``, ``NaN`` for the gap, as the frame's ``float64`` column gives them).
    A frame and ``_table`` a game cost 4 ms, two thirds of the page's score tables.
    ``None`` (``_wide`` and ``_table`` answer) unless the hands, seats and scores are
    ``int64`` and every label is text."""
    if any(str(g[k].dtype) != "int64" for k in ("hand_index", "seat", "score")):
        return None
    labels = g["label"].tolist()
    if not all(type(label) is str for label in labels):
        return None
    seat_list = g["seat"].tolist()
    cells: dict[tuple[int, str], dict[int, int]] = {}
    for hand, label, seat, score in zip(
        g["hand_index"].tolist(), labels, seat_list, g["score"].tolist(), strict=True
    ):
        cells.setdefault((hand, label), {}).setdefault(seat, score)
    seats = sorted({s for row in cells.values() for s in row})
    keys = sorted(cells)
    names: dict[int, Any] = {}
    for seat, name in zip(seat_list, g["name"].tolist(), strict=True):
        names.setdefault(seat, name)
    cols = ["label", *(f"{seat}: {names.get(seat, '')}" for seat in seats)]
    if all(len(cells[k]) == len(seats) for k in keys):
        rows = [(k[1], *(cells[k][s] for s in seats)) for k in keys]
    else:
        nan = float("nan")
        rows = [(k[1], *(float(cells[k].get(s, nan)) for s in seats)) for k in keys]
    return cols, [k[0] for k in keys], [k[1] for k in keys], rows


def _wide(g: pd.DataFrame) -> pd.DataFrame:
    """One game's score history as a hand-by-hand table: a row per hand (``hand_index``,
    ``label``), a column per seat headed ``seat: name``.

    ``_pivoted``'s frame, built from the rows' values in Python: pandas' ``pivot_table``
    cost 8 ms a game, most of the page's score tables (0.4 s of CPU for the shared
    corpus's 54 detailed games), for some forty rows of four seats.  Scores with a gap
    or not integers, or keys with a gap, go through ``_pivoted`` (``first`` skips a
    missing score there, and a row of nothing but gaps is dropped).
    """
    keys = ("hand_index", "label", "seat")
    if str(g["score"].dtype) != "int64" or any(g[k].isna().any() for k in keys):
        return _pivoted(g)
    cells: dict[tuple[Any, Any], dict[Any, Any]] = {}
    for hand, label, seat, score in zip(*(g[k].tolist() for k in (*keys, "score")), strict=True):
        cells.setdefault((hand, label), {}).setdefault(seat, score)
    seats = sorted({s for row in cells.values() for s in row})
    rows = sorted(cells)
    whole = all(len(cells[r]) == len(seats) for r in rows)
    columns: dict[Any, Any] = {
        "hand_index": pd.Series([r[0] for r in rows], dtype=g["hand_index"].dtype),
        "label": pd.Series([r[1] for r in rows], dtype=g["label"].dtype),
    }
    for seat in seats:
        scores = [cells[r].get(seat) for r in rows]
        columns[seat] = pd.Series(scores, dtype="int64" if whole else "float64")
    return _headed(pd.DataFrame(columns), g)


def _pivoted(g: pd.DataFrame) -> pd.DataFrame:
    """``_wide``'s table by ``pivot_table`` (the reference the tests hold it to)."""
    wide = g.pivot_table(
        index=["hand_index", "label"], columns="seat", values="score", aggfunc="first"
    ).reset_index()
    return _headed(wide, g)


def _headed(wide: pd.DataFrame, g: pd.DataFrame) -> pd.DataFrame:
    """The seat columns headed ``seat: name`` (the name of the seat's first row)."""
    names: dict[Any, Any] = {}
    for seat, name in zip(g["seat"].tolist(), g["name"].tolist(), strict=True):
        names.setdefault(seat, name)
    wide.columns = [c if isinstance(c, str) else f"{c}: {names.get(c, '')}" for c in wide.columns]
    return wide
