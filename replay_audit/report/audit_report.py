"""``AuditReport``: the pandas tables of an audit run and their writers.

Owns the report object (``files``, ``games``, ``hands``, ``findings`` and the
per-player fact tables), ``summary()`` and writing it as CSV, Parquet, JSON,
JSONL and one HTML page; every output carries the schema version and the rules.

Must not: audit files (``report.api`` gathers audits into a report) or parse logs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replay_audit._version import __version__
from replay_audit.auditing.rows import SCHEMA_VERSION, FileAudit
from replay_audit.model.findings import CATEGORIES, INFO
from replay_audit.report.tables import CSV_TABLES, FORMATS, TABLES, sort_table, table_frame

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from replay_audit.report import html


def _empty_frame() -> pd.DataFrame:
    """An empty table; pandas is imported when a report is built, not with this
    module (a stored report writing CSV only never needs it: ``report.csv_columns``)."""
    import pandas as pd

    return pd.DataFrame()


@dataclass
class AuditReport:
    files: pd.DataFrame
    games: pd.DataFrame
    hands: pd.DataFrame
    findings: pd.DataFrame
    hand_facts: pd.DataFrame = field(default_factory=lambda: _empty_frame())
    game_facts: pd.DataFrame = field(default_factory=lambda: _empty_frame())
    score_history: pd.DataFrame = field(default_factory=lambda: _empty_frame())
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
        from replay_audit.report import html

        return html.FrameTables(self.findings, self.games, self.score_history)

    def write_html(self, path: str | Path) -> Path:
        from replay_audit import stats
        from replay_audit.report import html

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
        write_csv_table(report, name, p)
        out.append(p)
    return out


def write_csv_table(report: AuditReport, name: str, path: Path) -> None:
    """One table's CSV through pandas, chunk by chunk."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        for i, df in enumerate(report.table_chunks(name)):
            df.to_csv(f, index=False, header=i == 0)


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
    from replay_audit.report.stream import write_json

    tables = ((name, report.table_chunks(name)) for name in CSV_TABLES)
    return [write_json(folder / "report.json", report.summary(), tables)]


def _write_jsonl(report: AuditReport, folder: Path) -> list[Path]:
    """One JSON Lines file per table (``hands.jsonl`` …), a record per line: files
    that stream and concatenate (stats.md 2.4), the records of ``report.json``."""
    from replay_audit.report.stream import write_jsonl

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
