"""The report: pandas tables of an audit run and their writers.

``audit(paths)`` runs the per-file worker over every input and gathers the rows
into an ``AuditReport``: ``files`` (every input file with its status),
``games``, ``hands`` (one row per result, recorded and computed side by side),
``findings``, and the per-player fact tables the statistics layer reads.
Writers produce CSV, Parquet, JSON and one self-contained HTML page; every
output carries the schema version and the rules used.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    import pyarrow as pa

    from replay_audit import html

from replay_audit import __version__
from replay_audit.audit import SCHEMA_VERSION, FileAudit, audit_file
from replay_audit.findings import CATEGORIES, INFO
from replay_audit.rules import RuleSet, load_rules
from replay_audit.scoring.points import LIMIT_NAMES
from replay_audit.scoring.yaku import yaku_name

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
GAME_COLUMNS = [
    "file",
    "log_id",
    "format",
    "rules",
    "players",
    "go_type",
    "lobby",
    "rule_disp",
    "date",
    "hands",
    "results",
    "findings",
    "notes",
    "status",
    *[f"{c}{s}" for s in range(4) for c in ("name", "final_score", "final_points")],
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
"""Hand columns derived from the others when a table is built (``_add_names``): the
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
            _add_names(df)
    return df


def yaku_names(ids: Any) -> str | None:
    """The names for a ``rec_yaku``/``comp_yaku`` cell: ``id,han,...`` pairs become
    ``riichi 1, tanyao 1, dora 2``; a yakuman list (ids 36-51, no han) becomes
    ``daisangen, tsuuiisou``.

    >>> yaku_names("19,1,52,1"), yaku_names("39,42"), yaku_names(None)
    ('hatsu 1, dora 1', 'daisangen, tsuuiisou', None)
    """
    if not isinstance(ids, str) or not ids.strip():
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


def _limit_name(code: Any) -> str | None:
    if code is None or code is pd.NA or (isinstance(code, float) and code != code):
        return None
    try:
        return LIMIT_NAMES[int(code)] or None
    except (IndexError, TypeError, ValueError):
        return None


def _is_yakuman_list(ids: Any) -> bool:
    return isinstance(ids, str) and ids.split(",")[0].strip() in {str(i) for i in range(36, 52)}


def _add_names(df: pd.DataFrame) -> None:
    """Fill the derived hand columns (``DERIVED_HAND_COLUMNS``) in place."""
    for side in ("rec", "comp"):
        df[f"{side}_yaku_names"] = [yaku_names(v) for v in df[f"{side}_yaku"]]
        df[f"{side}_limit_name"] = [_limit_name(v) for v in df[f"{side}_limit"]]
    df["note"] = [
        YAKUMAN_FU_NOTE if _is_yakuman_list(r) or _is_yakuman_list(c) else None
        for r, c in zip(df["rec_yaku"], df["comp_yaku"], strict=True)
    ]


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
    try:
        return pd.array([None if v is None or v != v else int(v) for v in col], dtype="Int64")
    except (OverflowError, TypeError, ValueError):
        return col


@dataclass
class AuditReport:
    files: pd.DataFrame
    games: pd.DataFrame
    hands: pd.DataFrame
    findings: pd.DataFrame
    hand_facts: pd.DataFrame = field(default_factory=pd.DataFrame)
    game_facts: pd.DataFrame = field(default_factory=pd.DataFrame)
    score_history: pd.DataFrame = field(default_factory=pd.DataFrame)
    rules: str = "auto"
    rule_overrides: dict[str, str] = field(default_factory=dict)
    """``--rule KEY=VALUE`` fields changed from the preset; ``summary.json`` lists them."""

    @classmethod
    def from_file_audits(cls, audits: Iterable[FileAudit], rules: str = "auto") -> AuditReport:
        rows: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
        for fa in audits:
            rows["files"].append(fa.file_row())
            for name in TABLES[1:]:
                rows[name].extend(getattr(fa, name))
        return cls(**{name: table_frame(name, rows[name]) for name in TABLES}, rules=rules)

    def sorted(self) -> AuditReport:
        """Deterministic row order whatever order the workers finished in."""
        return AuditReport(
            **{name: sort_table(name, getattr(self, name)) for name in TABLES},
            rules=self.rules,
            rule_overrides=self.rule_overrides,
        )

    # -- summaries
    @property
    def clean(self) -> bool:
        """No problem found (notes do not count)."""
        return self.findings.empty or bool((self.findings["category"] == INFO).all())

    def summary(self) -> dict[str, Any]:
        by_cat = (
            self.findings["category"].value_counts().to_dict() if not self.findings.empty else {}
        )
        notes = int(by_cat.pop(INFO, 0))
        status = self.files["status"].value_counts().to_dict() if not self.files.empty else {}
        return {
            "schema_version": SCHEMA_VERSION,
            "tool_version": __version__,
            "rules": self.rules,
            "files": len(self.files),
            "files_ok": int(status.get("ok", 0)),
            "files_mismatch": int(status.get("mismatch", 0)),
            "files_error": int(status.get("error", 0)),
            "games": len(self.games),
            "hands": int(self.games["hands"].sum()) if not self.games.empty else 0,
            "results": len(self.hands),
            "findings": len(self.findings) - notes,
            "findings_by_category": {c: int(by_cat.get(c, 0)) for c in CATEGORIES if by_cat.get(c)},
            "notes": notes,
            **self._overrides(),
        }

    def _overrides(self) -> dict[str, Any]:
        """The summary's record of changed rule fields (absent when none were)."""
        return {"rule_overrides": dict(self.rule_overrides)} if self.rule_overrides else {}

    def summary_text(self) -> str:
        s = self.summary()
        lines = [
            f"files:    {s['files']} ({s['files_ok']} ok, {s['files_mismatch']} with mismatches, {s['files_error']} unreadable)",
            f"games:    {s['games']}",
            f"hands:    {s['hands']} ({s['results']} results)",
            f"findings: {s['findings']}",
        ]
        lines += [f"  {cat:<11} {n}" for cat, n in s["findings_by_category"].items()]
        if s["notes"]:
            lines.append(
                f"notes:    {s['notes']} (info rows: what the audit inferred or could not check)"
            )
        return "\n".join(lines)

    # -- writers
    def tables(self) -> dict[str, pd.DataFrame]:
        return {name: getattr(self, name) for name in CSV_TABLES}

    def table_chunks(self, name: str) -> Iterable[pd.DataFrame]:
        """Table ``name`` in pieces that, written one after the other, write the whole
        table: here the table itself; a stored report yields one part at a time."""
        return [getattr(self, name)]

    def write(
        self,
        out: str | Path,
        formats: Iterable[str] = ("csv",),
        on_format: Callable[[str], None] | None = None,
    ) -> list[Path]:
        """Write the report under the folder ``out``; returns the files written.

        Each table goes to ``out/<table>.<ext>``; nothing is written outside ``out``.
        ``on_format(fmt)`` is called before each format is written (a large run
        spends minutes here, and the command line says which part it is in).
        """
        folder = Path(out)
        formats = list(formats)
        for fmt in formats:
            if fmt not in FORMATS:
                raise ValueError(f"unknown report format {fmt!r}; choose from {', '.join(FORMATS)}")
        folder.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for fmt in formats:
            if on_format is not None:
                on_format(fmt)
            written.extend(self._write_format(fmt, folder))
        meta = folder / "summary.json"
        meta.write_text(json.dumps(self.summary(), indent=2, ensure_ascii=False), encoding="utf-8")
        written.append(meta)
        return written

    def _write_format(self, fmt: str, folder: Path) -> list[Path]:
        return _WRITERS[fmt](self, folder)

    def _page_tables(self) -> html.PageTables:
        """What the HTML page reads; a stored report reads it part by part instead."""
        from replay_audit import html

        return html.FrameTables(self.findings, self.games, self.score_history)

    def write_html(self, path: str | Path) -> Path:
        from replay_audit import html, stats

        players = stats.players(self)  # a stored report sums it part by part
        page = html.render_page(summary=self.summary(), tables=self._page_tables(), players=players)
        p = Path(path)
        p.write_text(page, encoding="utf-8")
        return p


def _write_csv(report: AuditReport, folder: Path) -> list[Path]:
    """One CSV file per table, chunk by chunk (a stored report holds one part at a
    time; its chunks are typed like the whole table, so the bytes are the same)."""
    out = []
    for name in CSV_TABLES:
        p = folder / f"{name}.csv"
        with open(p, "w", encoding="utf-8", newline="") as f:
            for i, df in enumerate(report.table_chunks(name)):
                df.to_csv(f, index=False, header=i == 0)
        out.append(p)
    return out


def _write_parquet(report: AuditReport, folder: Path) -> list[Path]:
    import pyarrow.parquet as pq

    out = []
    for name, df in report.tables().items():
        p = folder / f"{name}.parquet"
        pq.write_table(parquet_table(df, report.rules), p)
        out.append(p)
    return out


def parquet_table(df: pd.DataFrame, rules: str) -> pa.Table:
    """A report table as Arrow, with the schema version and rules in its metadata."""
    import pyarrow as pa

    table = pa.Table.from_pandas(_parquet_safe(df), preserve_index=False)
    return table.replace_schema_metadata(
        {
            **(table.schema.metadata or {}),
            b"replay_audit.schema_version": str(SCHEMA_VERSION).encode(),
            b"replay_audit.version": __version__.encode(),
            b"replay_audit.rules": rules.encode(),
        }
    )


def _parquet_safe(df: pd.DataFrame) -> pd.DataFrame:
    """Object columns with mixed types become strings so Arrow can type them."""
    df = df.copy()
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].map(
                lambda v: None if v is None or (isinstance(v, float) and v != v) else str(v)
            )
    return df


def _write_json(report: AuditReport, folder: Path) -> list[Path]:
    """``json.dumps(doc, ensure_ascii=False, indent=1)`` of the summary and the tables
    (each as ``df.to_json(orient="records")``), by the writer a stored report streams with."""
    from replay_audit.report_stream import write_json

    tables = ((name, report.table_chunks(name)) for name in CSV_TABLES)
    return [write_json(folder / "report.json", report.summary(), tables)]


def _write_jsonl(report: AuditReport, folder: Path) -> list[Path]:
    """One JSON Lines file per table (``hands.jsonl`` …), a record per line: files
    that stream and concatenate (stats.md 2.4), the records of ``report.json``."""
    from replay_audit.report_stream import write_jsonl

    return [write_jsonl(folder / f"{name}.jsonl", report.table_chunks(name)) for name in CSV_TABLES]


def _write_html(report: AuditReport, folder: Path) -> list[Path]:
    return [report.write_html(folder / "report.html")]


_WRITERS: dict[str, Callable[[AuditReport, Path], list[Path]]] = {
    "csv": _write_csv,
    "parquet": _write_parquet,
    "json": _write_json,
    "jsonl": _write_jsonl,
    "html": _write_html,
}


# ----------------------------------------------------------------------- the API


def iter_file_audits(
    paths: Iterable[str | Path],
    rules: RuleSet | str | None = None,
    *,
    strict: bool = False,
    with_facts: bool = True,
) -> Iterator[FileAudit]:
    from replay_audit.io import iter_log_paths

    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    for path in iter_log_paths(paths):
        yield audit_file(path, rule_set, strict=strict, with_facts=with_facts)


def audit(
    paths: str | Path | Iterable[str | Path],
    rules: RuleSet | str | None = None,
    *,
    strict: bool = False,
) -> AuditReport:
    """Audit files, folders or globs; one ``AuditReport`` over all of them.

    ``rules`` is a ``RuleSet``, a preset name or a TOML file; ``None`` detects
    the rules of each game from the log itself.
    """
    if isinstance(paths, str | Path):
        paths = [paths]
    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    name = rule_set.name if rule_set is not None else "auto"
    return AuditReport.from_file_audits(
        iter_file_audits(paths, rule_set, strict=strict), rules=name
    )
