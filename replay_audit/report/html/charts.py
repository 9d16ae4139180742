"""Inline SVG charts: a game's score history and a player's placements.

Owns ``score_chart``, ``placement_chart``, the axis ticks and the seat colours;
no JavaScript, no library.

Must not: read tables other than the one it is given.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

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
    xs, labels, lines = _lines(history)
    scores = [float(v) for v in history["score"].tolist() if v == v]
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
    for n, (seat, steps, name) in enumerate(lines):
        color = SEAT_COLORS[n % len(SEAT_COLORS)]
        points = " ".join(
            f"{_num(px(int(x)))},{_num(py(float(v)))}" for x, v in steps if v == v and int(x) in pos
        )
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{points}"/>')
        for pt in points.split():
            cx, cy = pt.split(",")
            out.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="{color}"/>')
        ly = top + 14 + 20 * n
        out.append(
            f'<rect x="{w - right + 12}" y="{ly - 9}" width="12" height="12" fill="{color}"/>'
        )
        out.append(_text(w - right + 30, ly + 1, f"{seat}: {name}", anchor="start", size=12))
    out.append("</svg>")
    return "".join(out)


Lines = tuple[list[int], list[str], list[tuple[Any, list[tuple[Any, Any]], str]]]
"""A score chart's hands (``hand_index`` in order), their labels, and per seat (in
order) its ``(hand_index, score)`` steps in hand order and its name."""


def _lines(history: pd.DataFrame) -> Lines:
    """``_frame_lines`` from the columns' values in Python: pandas' grouping and sorting
    cost 5 ms a chart (0.25 s of the shared corpus's page).  Where a key is not
    integers or a seat has two rows of one hand (whose order pandas' unstable sort
    decides), ``_frame_lines`` answers."""
    if any(str(history[k].dtype) != "int64" for k in ("hand_index", "seat")):
        return _frame_lines(history)
    hands = history["hand_index"].tolist()
    labels = history["label"].tolist()
    by_seat: dict[int, list[tuple[int, Any, Any]]] = {}
    for hand, seat, score, name in zip(
        hands,
        history["seat"].tolist(),
        history["score"].tolist(),
        history["name"].tolist(),
        strict=True,
    ):
        by_seat.setdefault(seat, []).append((hand, score, name))
    first = dict(zip(reversed(hands), reversed(labels), strict=True))  # (a hand's first label)
    xs = sorted(first)
    lines = []
    for seat in sorted(by_seat):
        steps = sorted(by_seat[seat], key=lambda step: step[0])
        if len({hand for hand, _, _ in steps}) != len(steps):
            return _frame_lines(history)
        lines.append((seat, [(hand, score) for hand, score, _ in steps], str(steps[0][2])))
    return xs, [str(first[x]) for x in xs], lines


def _frame_lines(history: pd.DataFrame) -> Lines:
    """``_lines`` by pandas (the reference the tests hold it to)."""
    order = history.drop_duplicates("hand_index").sort_values("hand_index")
    xs = [int(x) for x in order["hand_index"]]
    labels = [str(v) for v in order["label"]]
    lines = []
    for seat, rows in history.groupby("seat", sort=True):
        rows = rows.sort_values("hand_index")
        steps = list(zip(rows["hand_index"], rows["score"], strict=True))
        lines.append((seat, steps, str(rows["name"].iloc[0])))
    return xs, labels, lines


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
