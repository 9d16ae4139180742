"""JSON and HTML of a stored run, written part by part, equal the in-memory ones.

A stored run (``audit_files(..., out=...)``) writes ``report.json`` chunk by chunk
and draws the HTML page from counts, first rows and the few games it shows; both
must be byte-identical to what the in-memory report writes for the same run, and
neither may load a whole table.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import lxml.html
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.report import html as rhtml
from replay_audit.report.audit_report import AuditReport
from replay_audit.report.stored import StoredAuditReport
from replay_audit.report.stream import (
    ColumnKinds,
    _nested,
    indented_records,
    json_records,
    typed_frame,
    write_json,
)
from replay_audit.report.tables import table_frame
from replay_audit.run.local import audit_files
from tests.conftest import corpus_sample

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _sibling(name: str) -> ModuleType:
    """A test module next to this one (pytest imports in importlib mode, so not by name);
    registered under its name so the fake worker it defines pickles to workers."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


check = _sibling("test_html").check
fake_worker = _sibling("test_runner").fake_worker
make_logs = _sibling("test_runner").make_logs


def _fixture_files() -> list[str]:
    return sorted(
        str(p)
        for p in FIXTURES.rglob("*")
        if p.is_file() and p.suffix in (".xml", ".json", ".mjlog", ".gz")
    )


def _legacy_json(report: AuditReport) -> str:
    """What ``_write_json`` wrote before it streamed: the one-document reference."""
    doc = {
        "summary": report.summary(),
        **{
            name: json.loads(df.to_json(orient="records", force_ascii=False))
            for name, df in report.tables().items()
        },
    }
    return json.dumps(doc, ensure_ascii=False, indent=1)


def _written(report: AuditReport, folder: Path, fmt: str) -> str:
    report.write(folder, [fmt])
    name = "report.json" if fmt == "json" else "report.html"
    return (folder / name).read_text(encoding="utf-8")


def _no_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_table(self: Any, name: str) -> None:
        raise AssertionError(f"table {name} loaded into memory")

    monkeypatch.setattr(StoredAuditReport, "_table", no_table)


# ----------------------------------------------------------------- the JSON layout


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4), max_size=3),
    st.lists(
        st.lists(
            st.fixed_dictionaries(
                {"a": st.integers(-5, 5), "b": st.text(max_size=3) | st.none()},
            ),
            max_size=3,
        ),
        max_size=3,
    ),
)
def test_write_json_equals_one_json_dumps(
    summary: dict[str, Any], chunks: list[list[dict[str, Any]]]
) -> None:
    """Streamed chunk by chunk, the document is ``json.dumps(doc, indent=1)`` exactly."""
    import tempfile

    frames = [pd.DataFrame(c, columns=["a", "b"]) for c in chunks]
    whole = [{"a": r["a"], "b": r["b"]} for c in chunks for r in c]
    want = json.dumps({"summary": summary, "t": whole, "u": []}, ensure_ascii=False, indent=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.json"
        write_json(path, summary, [("t", frames), ("u", [pd.DataFrame()])])
        assert path.read_text(encoding="utf-8") == want


_JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63 - 2, max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5)
    | st.sampled_from(["%s", "%", '"q"', "a\\b", "\n\t\x00", "東 ÿ", "\ud800"])
)
_JSON_VALUES = st.recursive(
    _JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
_KEYS = st.lists(
    st.text(max_size=4) | st.sampled_from(["%s", "%(a)s", "%%", '"', "東"]), unique=True, max_size=5
)


@settings(max_examples=200, deadline=None)
@given(
    _KEYS,
    st.lists(st.lists(_JSON_VALUES, min_size=5, max_size=5), max_size=6),
    st.sampled_from(["plain", "ints", "texts", "floats", "gaps"]),
    st.integers(0, 3),
)
def test_indented_records_are_the_records_json_dumps_lays_out(
    keys: list[str], cells: list[list[Any]], column_kind: str, level: int
) -> None:
    """``indented_records`` (a template per chunk, a column's texts at once) writes
    each record as ``_nested`` (``json.dumps(record, indent=1)``, indented) does,
    whatever the values (nested ones, NaN, big integers, ``%`` in keys and values)."""
    if column_kind == "ints":  # whole columns of one kind take the ``map`` path
        cells = [[i * 7 - 3 + j for j in range(5)] for i in range(len(cells))]
    elif column_kind == "texts":
        cells = [[f"t%s{i}\u6771{j}" for j in range(5)] for i in range(len(cells))]
    elif column_kind == "floats":  # (and a column with a NaN, one with an infinity)
        cells = [
            [i / 7, -0.0, 1e300 * 10 if i else 1.5, float("nan"), 2.0] for i in range(len(cells))
        ]
    elif column_kind == "gaps":  # one kind and None: texts, integers, floats
        cells = [
            [None if (i + j) % 3 == 0 else v for j, v in enumerate(("x", 5, 0.25, True, None))]
            for i in range(len(cells))
        ]
    records = [dict(zip(keys, row, strict=False)) for row in cells]
    assert indented_records(records, level) == [_nested(r, level) for r in records]


def test_indented_records_with_other_keys_in_other_records() -> None:
    records = [{"a": 1, "b": [1, {"c": None}]}, {"b": 2, "a": 1}, {"a": 1}, {}]
    assert indented_records(records, 2) == [_nested(r, 2) for r in records]
    assert indented_records([{}, {}], 1) == ["{}", "{}"]
    assert indented_records([], 2) == []


_CELLS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([2**63, -(2**63) - 1, 2**64, 0.0, -0.0, 1.5, float("nan"), float("inf")])
    | st.sampled_from(["x", "7", "-2", "1e3", "", "99999999999999999999"])
    | st.lists(st.integers(0, 2), max_size=2)
)
_ROW_KEYS = st.sampled_from(["file", "hand", "seq", "han", "x", "y", "z"])  # fixed, int, other


def _samples(kinds: ColumnKinds) -> list[tuple[str, list[tuple[Any, str]]]]:
    """Every column's kinds and their samples, in order (``repr``: NaN is itself)."""
    return [(c, [(k, repr(v)) for k, v in d.items()]) for c, d in kinds.samples.items()]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["hands", "games", "nosuchtable"]),
    st.lists(st.lists(st.dictionaries(_ROW_KEYS, _CELLS, max_size=5), max_size=6), max_size=4),
)
def test_column_kinds_add_is_the_cell_by_cell_pass(
    name: str, chunks: list[list[dict[str, Any]]]
) -> None:
    """``ColumnKinds.add`` (column by column, distinct values once) notes what
    ``add_row_by_row`` notes: columns, kinds, samples and gaps, in the same order."""
    fast, slow = ColumnKinds(name), ColumnKinds(name)
    for rows in chunks:
        fast.add(rows)
        slow.add_row_by_row(rows)
        assert fast.rows == slow.rows
        assert _samples(fast) == _samples(slow)
    assert [sorted(r) for r in fast.sample_rows()] == [sorted(r) for r in slow.sample_rows()]


def test_typed_chunks_take_the_whole_tables_dtypes() -> None:
    """An all-int part of a column another part made float is written as floats."""
    parts = [[{"file": "a", "x": 1, "y": True}], [{"file": "b", "x": None, "z": "s"}]]
    kinds = ColumnKinds("games")
    for rows in parts:
        kinds.add(rows)
    whole = pd.DataFrame.from_records([r for p in parts for r in p])
    first = typed_frame("games", parts[0], kinds)
    assert first["x"].dtype == whole["x"].dtype == "float64"
    assert first["y"].dtype == whole["y"].dtype == object
    assert first["z"].isna().all() and "z" in first.columns


_cell = (
    st.none()
    | st.booleans()
    | st.integers(-(2**65), 2**65)
    | st.floats(allow_nan=True)
    | st.text(max_size=3)
    | st.sampled_from(["12", "x"])
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.dictionaries(st.sampled_from(["seat", "x", "y"]), _cell, max_size=3), max_size=9),
    st.lists(st.integers(0, 9), max_size=3),
)
def test_typed_chunks_write_what_the_whole_table_writes(
    cells: list[dict[str, Any]], cuts: list[int]
) -> None:
    """Rows cut into chunks anywhere: the chunks' records are the whole table's
    (``seat`` is an integer column, typed ``Int64`` only when every value fits)."""
    rows = [{"file": f"{i:03d}", **c} for i, c in enumerate(cells)]
    bounds = sorted({0, len(rows), *(min(c, len(rows)) for c in cuts)})
    parts = [rows[a:b] for a, b in itertools.pairwise(bounds)]
    kinds = ColumnKinds("game_facts")
    for part in parts:
        kinds.add(part)
    whole = table_frame("game_facts", rows)
    chunks = [typed_frame("game_facts", part, kinds) for part in parts] or [
        typed_frame("game_facts", [], kinds)
    ]
    assert [list(c.columns) for c in chunks] == [list(whole.columns)] * len(chunks)
    assert list(json_records(chunks)) == list(json_records([whole]))


# ----------------------------------------------------------------- fake rows


@pytest.mark.parametrize("per_part", [1, 4])
def test_stored_json_and_csv_are_byte_identical_on_awkward_rows(
    tmp_path: Path, per_part: int
) -> None:
    """Fake rows mixing ints, floats and strings; with one file a part, a column is
    all-int in some parts and float in the whole table (``12`` there, ``12.0`` here)."""
    files = make_logs(tmp_path / "logs", 13)
    plain = audit_files(files, jobs=1, worker=fake_worker)
    stored = audit_files(
        files, jobs=2, out=tmp_path / "o", worker=fake_worker, files_per_part=per_part
    )
    want = _written(plain, tmp_path / "plain", "json")
    assert want == _legacy_json(plain)
    assert _written(stored, tmp_path / "stored", "json") == want
    plain.write(tmp_path / "plain", ["csv"])
    stored.write(tmp_path / "stored", ["csv"])
    for name in ("files", "games", "hands", "findings"):
        a = (tmp_path / "plain" / f"{name}.csv").read_bytes()
        assert a == (tmp_path / "stored" / f"{name}.csv").read_bytes(), name


def test_combine_counts_orders_like_value_counts() -> None:
    values = list("abcabcddeeffa") + list("gg")
    whole = pd.Series(values).value_counts()
    for cut in range(len(values) + 1):
        parts = [pd.Series(values[:cut]), pd.Series(values[cut:])]
        got = rhtml.combine_counts(p.value_counts(sort=False) for p in parts)
        assert got is not None
        assert list(got.items()) == list(whole.items())


# ----------------------------------------------------------------- real audits


@pytest.fixture(scope="module")
def fixture_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[AuditReport, Path]:
    files = _fixture_files()
    plain = audit_files(files, jobs=1)
    out = tmp_path_factory.mktemp("fixtures-stored")
    audit_files(files, jobs=1, out=out, files_per_part=3)
    return plain, out


def test_fixture_run_json_and_html_identical(
    fixture_runs: tuple[AuditReport, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain, out = fixture_runs
    assert len(plain.findings) > 0 and len(plain.games) > 5
    want_json = _written(plain, tmp_path / "plain", "json")
    want_html = _written(plain, tmp_path / "plain", "html")
    assert want_json == _legacy_json(plain)
    stored = StoredAuditReport.open(out)
    _no_tables(monkeypatch)
    assert _written(stored, tmp_path / "stored", "json") == want_json
    assert _written(stored, tmp_path / "stored", "html") == want_html


def test_stored_write_json_html_loads_no_whole_table(
    fixture_runs: tuple[AuditReport, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plain, out = fixture_runs
    stored = StoredAuditReport.open(out)
    _no_tables(monkeypatch)
    written = stored.write(tmp_path / "w", ["json", "html"])
    assert {p.name for p in written} == {"report.json", "report.html", "summary.json"}


def _shown_games(page: str) -> list[str]:
    doc = lxml.html.document_fromstring(page)
    return [tr.get("id") for tr in doc.get_element_by_id("games").iter("tr") if tr.get("id")]


@pytest.mark.parametrize("cap", [3, 0])
def test_capped_games_table_keeps_linked_games(
    fixture_runs: tuple[AuditReport, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cap: int,
) -> None:
    plain, out = fixture_runs
    monkeypatch.setattr(rhtml.pieces, "MAX_GAMES", cap)
    monkeypatch.setattr(rhtml.pieces, "MAX_GAME_CHARTS", 2)
    page = _written(plain, tmp_path / "plain", "html")
    assert page == _written(StoredAuditReport.open(out), tmp_path / "stored", "html")
    check(page)  # well formed, and every href="#..." lands on an id of the page
    shown = _shown_games(page)
    games = list(plain.games["file"])
    linked = set(plain.findings["file"].dropna()) & set(games)
    linked |= set(plain.score_history["file"].drop_duplicates().head(2))
    # the linked games, plus the first others until the cap
    others = [f for f in games if f not in linked]
    budget = max(0, cap - len(linked))
    want = [rhtml.game_anchor(f) for f in games if f in linked or f in others[:budget]]
    assert shown == want and len(want) < len(games)
    assert f"Showing {len(want)} of {len(games)} games; games.csv / games.parquet hold all" in page
    links = set(re.findall(r'href="#([^"]+)"', page))
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    assert links <= ids


def test_small_page_has_no_cap_note(fixture_runs: tuple[AuditReport, Path], tmp_path: Path) -> None:
    plain, _out = fixture_runs
    page = _written(plain, tmp_path / "p", "html")
    assert "hold all" not in page
    assert len(_shown_games(page)) == len(plain.games)


# ----------------------------------------------------------------- the corpus


def test_jsonl_tables_are_the_json_documents_records_stored_or_not(
    fixture_runs: tuple[AuditReport, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--format jsonl``: one file per table, a record per line; the records are
    those of ``report.json``, and a stored run writes the same bytes part by part."""
    plain, out = fixture_runs
    written = plain.write(tmp_path / "plain", ["jsonl", "json"])
    doc = json.loads((tmp_path / "plain" / "report.json").read_text(encoding="utf-8"))
    names = [p.name for p in written if p.suffix == ".jsonl"]
    assert names == [f"{name}.jsonl" for name in doc if name != "summary"]
    for name in names:
        lines = (tmp_path / "plain" / name).read_text(encoding="utf-8").splitlines()
        assert [json.loads(line) for line in lines] == doc[name[: -len(".jsonl")]]
    assert len(doc["findings"]) > 0
    stored = StoredAuditReport.open(out)
    _no_tables(monkeypatch)
    stored.write(tmp_path / "stored", ["jsonl"])
    for name in names:
        want = (tmp_path / "plain" / name).read_bytes()
        assert (tmp_path / "stored" / name).read_bytes() == want


@pytest.mark.corpus
def test_corpus_subset_json_and_html_identical(
    corpus: Path, corpus_sample_audit: AuditReport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = corpus_sample(corpus)
    assert len(files) > 200  # every non-Phoenix log and 174 Phoenix ones
    plain = corpus_sample_audit
    stored = audit_files(files, jobs=2, out=tmp_path / "o", files_per_part=9)
    want_json = _written(plain, tmp_path / "plain", "json")
    want_html = _written(plain, tmp_path / "plain", "html")
    _no_tables(monkeypatch)
    assert _written(stored, tmp_path / "stored", "json") == want_json
    assert _written(stored, tmp_path / "stored", "html") == want_html
