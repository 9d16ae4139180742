"""The report's tables: their names, columns, types, names added for reading
(yaku, limits) and their row order.

Owns ``TABLES``, the column lists, ``table_frame`` (rows to a typed DataFrame) and
``sort_table``.  Every writer and reader of a report builds its frames here, so an
in-memory report and a stored one have the same tables.

Must not: audit, write files, or read a report folder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from replay_audit.auditing.rows import GAME_COLUMNS as GAME_COLUMNS
from replay_audit.scoring.points import LIMIT_NAMES
from replay_audit.scoring.yaku import yaku_name

if TYPE_CHECKING:
    import pandas as pd

_V = TypeVar("_V")

FORMATS = ("csv", "parquet", "json", "jsonl", "html")

FILE_COLUMNS = [
    "file",
    "format",
    "status",
    "games",
    "hands",
    "results",
    "findings",
    "notes",
    "error",
    "sha256",
]
HAND_COLUMNS = [
    "file",
    "log_id",
    "hand_index",
    "hand",
    "round_index",
    "honba",
    "sticks",
    "dealer",
    "seq",
    "result",
    "winner",
    "from_seat",
    "pao_seat",
    "comp_pao_seat",
    "rec_han",
    "comp_han",
    "rec_fu",
    "comp_fu",
    "rec_points",
    "comp_points",
    "rec_limit",
    "comp_limit",
    "rec_limit_name",
    "comp_limit_name",
    "rec_yaku",
    "comp_yaku",
    "rec_yaku_names",
    "comp_yaku_names",
    "rec_deltas",
    "comp_deltas",
    "tenpai",
    "n_findings",
    "status",
    "note",
]
DERIVED_HAND_COLUMNS = frozenset(
    {"rec_limit_name", "comp_limit_name", "rec_yaku_names", "comp_yaku_names", "note"}
)
"""Hand columns derived from the others when a table is built (``add_derived_columns``): the
words for the codes, so a reader needs no table of Tenhou ids."""
YAKUMAN_FU_NOTE = "yakuman: fu not compared (a yakuman's fu count for nothing)"
FINDING_COLUMNS = [
    "category",
    "field",
    "file",
    "log_id",
    "hand",
    "hand_index",
    "seq",
    "seat",
    "recorded",
    "computed",
    "message",
]


CSV_TABLES = ("files", "games", "hands", "findings")
"""The tables ``tables()`` returns and the CSV, Parquet and JSON writers write."""

TABLE_COLUMNS: dict[str, list[str]] = {
    "files": FILE_COLUMNS,
    "games": GAME_COLUMNS,
    "hands": HAND_COLUMNS,
    "findings": FINDING_COLUMNS,
}
"""The fixed leading columns of each written table (extra columns follow)."""


INT_COLUMNS = frozenset(
    {
        "games",
        "hands",
        "results",
        "findings",
        "notes",
        "players",
        "go_type",
        "lobby",
        "hand_index",
        "round_index",
        "honba",
        "sticks",
        "dealer",
        "seq",
        "winner",
        "from_seat",
        "pao_seat",
        "comp_pao_seat",
        "rec_han",
        "comp_han",
        "rec_fu",
        "comp_fu",
        "rec_points",
        "comp_points",
        "rec_limit",
        "comp_limit",
        "n_findings",
        "seat",
        *(f"final_score{s}" for s in range(4)),
    }
)
"""Integer columns, typed as pandas' nullable ``Int64`` so a missing value
(a draw has no winner) does not turn a seat number into a float."""


def _frame(rows: list[dict[str, Any]], columns: list[str] | None = None) -> pd.DataFrame:
    import pandas as pd  # here, not above: a CSV-only run never imports pandas

    df = pd.DataFrame.from_records(rows)
    if columns is not None:
        for c in columns:
            if c not in df.columns:
                df[c] = None
        df = df[columns + [c for c in df.columns if c not in columns]]
        for c in columns:
            if c in INT_COLUMNS:
                df[c] = _int_column(df[c])
        if columns is HAND_COLUMNS:
            add_derived_columns(df)
    return df


def yaku_names(ids: Any) -> str | None:
    """The names for a ``rec_yaku``/``comp_yaku`` cell: ``id,han,...`` pairs become
    ``riichi 1, tanyao 1, dora 2``; a yakuman list (ids 36-51, no han) becomes
    ``daisangen, tsuuiisou``.

    >>> yaku_names("19,1,52,1"), yaku_names("39,42"), yaku_names(None)
    ('hatsu 1, dora 1', 'daisangen, tsuuiisou', None)
    """
    if not isinstance(ids, str):
        return None
    return _yaku_names(ids)  # a few hundred distinct cells in a whole corpus


@functools.lru_cache(maxsize=4096)
def _yaku_names(ids: str) -> str | None:
    if not ids.strip():
        return None
    try:
        numbers = [int(x) for x in ids.split(",")]
    except ValueError:
        return None
    if 36 <= numbers[0] <= 51:
        return ", ".join(yaku_name(i) for i in numbers)
    return ", ".join(
        f"{yaku_name(i)} {h}" for i, h in zip(numbers[::2], numbers[1::2], strict=False)
    )


def limit_name(code: Any) -> str | None:
    """The name of a ``rec_limit``/``comp_limit`` code; ``None`` for a gap (``None``,
    ``NaN`` or pandas' ``NA``, which ``int()`` refuses) or a code without one (an
    infinity too, which ``int()`` refuses with an ``OverflowError``, or a negative
    code, which would otherwise index the names from their end)."""
    if code is None or (isinstance(code, float) and code != code):
        return None
    try:
        number = int(code)
        return LIMIT_NAMES[number] or None if number >= 0 else None  # (no index from the end)
    except (IndexError, TypeError, ValueError, OverflowError):
        return None


_YAKUMAN_IDS = frozenset(str(i) for i in range(36, 52))


def is_yakuman_list(ids: Any) -> bool:
    return isinstance(ids, str) and ids.split(",")[0].strip() in _YAKUMAN_IDS


def add_derived_columns(table: pd.DataFrame | dict[str, list[Any]]) -> None:
    """Fill the derived hand columns (``DERIVED_HAND_COLUMNS``) in place, in a
    DataFrame or in a dict of column lists (``report.csv_columns`` writes the
    stored CSV from those): one rule for both writers."""
    yakuman: dict[str, list[bool]] = {}
    for side in ("rec", "comp"):
        yaku = table[f"{side}_yaku"]
        table[f"{side}_yaku_names"] = _per_value(yaku_names, yaku)
        table[f"{side}_limit_name"] = _per_value(limit_name, table[f"{side}_limit"])
        yakuman[side] = _per_value(is_yakuman_list, yaku)
    table["note"] = [
        YAKUMAN_FU_NOTE if r or c else None
        for r, c in zip(yakuman["rec"], yakuman["comp"], strict=True)
    ]


def _per_value(derive: Callable[[Any], _V], values: Iterable[Any]) -> list[_V]:
    """``[derive(v) for v in values]``, ``derive`` called once per distinct value.

    Why: a column of the corpus's hands holds a few hundred distinct values in
    28,000 cells, and one Python call per cell was most of the CSV writer's time
    for the derived columns; the lookups run in C.  ``derive`` must give equal
    results for equal values (``1``, ``1.0`` and ``True`` are one key here; the
    three derivations above read them alike); unhashable values, or a comparison
    that cannot answer (pandas' ``NA``), fall back to a call per cell.
    """
    cells = values if type(values) is list else list(values)  # (a Series makes new
    # objects at each pass: a NaN would not find itself)
    try:
        derived = {v: derive(v) for v in dict.fromkeys(cells)}
        return list(map(derived.__getitem__, cells))
    except (TypeError, KeyError):
        return [derive(v) for v in cells]


TABLES = ("files", "games", "hands", "findings", "hand_facts", "game_facts", "score_history")
"""Every table of a report, in the order they are listed."""

SORT_KEYS: dict[str, list[str]] = {
    "files": ["file"],
    "games": ["file", "log_id"],
    "hands": ["file", "hand_index", "seq"],
    "findings": ["file", "hand_index", "seq", "category", "field", "seat"],
    "hand_facts": ["file", "hand_index", "seat"],
    "game_facts": ["file", "seat"],
    "score_history": ["file", "hand_index", "seat"],
}
"""The deterministic row order of each table, whatever order workers finished in."""


def sort_table(name: str, df: pd.DataFrame) -> pd.DataFrame:
    """``df`` in its deterministic order.  Findings with no place in the file (no
    hand, no event: "the game ends without a result") follow the located ones, so
    a file's first finding is the damage itself, not what followed from it."""
    keys = [k for k in SORT_KEYS[name] if k in df.columns]
    if df.empty or not keys:
        return df
    if name == "findings" and "hand" in df.columns and "seq" in df.columns:
        unplaced = df["hand"].isna() & df["seq"].isna()
        order = df.assign(_unplaced=unplaced.to_numpy(dtype=bool))
        keys = [keys[0], "_unplaced", *keys[1:]]
        order = order.sort_values(keys, kind="stable", na_position="first")
        return order.drop(columns="_unplaced").reset_index(drop=True)
    return df.sort_values(keys, kind="stable", na_position="first").reset_index(drop=True)


def table_frame(name: str, rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The table ``name`` of a report from its rows: fixed columns first, typed, sorted."""
    return sort_table(name, _frame(rows, TABLE_COLUMNS.get(name)))


def _int_column(col: pd.Series) -> pd.Series | pd.arrays.IntegerArray:
    """``Int64`` when every value fits in 64 bits; a hostile log can carry a
    20-digit number, and then the column stays as it is rather than failing."""
    import pandas as pd

    if col.dtype == "int64":  # no missing value: the same array, without a Python loop
        return pd.array(col.to_numpy(), dtype="Int64")
    try:
        return pd.array([None if v is None or v != v else int(v) for v in col], dtype="Int64")
    except (OverflowError, TypeError, ValueError):
        return col
