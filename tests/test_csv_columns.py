"""A stored report's CSV written from its columns equals the pandas-written CSV.

``report.csv_columns.write_table_csv`` renders each cell the way the column's
pandas dtype would and sorts as ``sort_table`` does, without pandas; when a
column holds a mix it does not render, it declines and pandas writes the table.
Here the two writers are held byte-identical on awkward rows cut into parts
(the whole corpus is held equal by ``test_runner``'s corpus test), the columns
writer is shown to be taken for the kinds of columns a report holds, and a slip
in its rendering is shown to be caught.
"""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.report import csv_columns
from replay_audit.report.codec import rows_columns
from replay_audit.report.csv_columns import write_table_csv
from replay_audit.report.stream import ColumnKinds, typed_frame

ROOT = Path(__file__).resolve().parents[1]

_cell = (
    st.none()
    | st.booleans()
    | st.integers(-(2**65), 2**65)
    | st.integers(-3, 14)
    | st.floats(allow_nan=True)
    | st.text(max_size=3)
    | st.sampled_from(["12", "x", "19,1,52,1", "39,42", 'a"b', "a,b", "a\nb", "a\rb", "天鳳"])
)
_KEYS = {
    "games": ["log_id", "players", "final_points0", "name0", "x", "y"],
    "hands": ["hand_index", "seq", "rec_yaku", "comp_yaku", "rec_limit", "note", "x"],
    "findings": ["hand_index", "seq", "hand", "category", "seat", "recorded", "x"],
}


def _pandas_csv(name: str, parts: list[list[dict[str, Any]]]) -> str:
    """What a stored report writes through pandas: each part typed like the whole."""
    kinds = ColumnKinds(name)
    for part in parts:
        kinds.add(part)
    chunks = [typed_frame(name, part, kinds) for part in parts if part] or [
        typed_frame(name, [], kinds)
    ]
    out = io.StringIO()
    for i, df in enumerate(chunks):
        df.to_csv(out, index=False, header=i == 0, lineterminator="\n")
    return out.getvalue()


def _columns_csv(name: str, parts: list[list[dict[str, Any]]], path: Path) -> str | None:
    taken = write_table_csv(path, name, lambda: (rows_columns(p) for p in parts))
    return path.read_bytes().decode("utf-8") if taken else None  # no newline translation


def _parts(rows: list[dict[str, Any]], cuts: list[int]) -> list[list[dict[str, Any]]]:
    bounds = sorted({0, len(rows), *(min(c, len(rows)) for c in cuts)})
    return [rows[a:b] for a, b in itertools.pairwise(bounds)]


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(sorted(_KEYS)),
    st.data(),
    st.lists(st.integers(0, 9), max_size=3),
)
def test_columns_csv_is_the_pandas_csv(
    tmp_path_factory: pytest.TempPathFactory, name: str, data: st.DataObject, cuts: list[int]
) -> None:
    """Rows of any cells, cut into parts anywhere: when the columns writer takes a
    table, its bytes are pandas' (when it declines, pandas writes it anyway)."""
    keys = st.sampled_from(_KEYS[name])
    cells = data.draw(st.lists(st.dictionaries(keys, _cell, max_size=4), max_size=9))
    files = data.draw(st.lists(st.sampled_from(["b", "a", "é", "a,1"]), min_size=len(cells)))
    rows = [{"file": f, **c} for f, c in zip(files, cells, strict=False)]
    parts = _parts(rows, cuts)
    got = _columns_csv(name, parts, tmp_path_factory.mktemp("c") / "t.csv")
    if got is not None:
        assert got == _pandas_csv(name, parts)


_simple = {
    "x": st.none() | st.integers(-(2**53), 2**53),
    "y": st.none() | st.floats(allow_nan=True) | st.integers(-9, 9),
    "name0": st.none() | st.text(max_size=4),
    "players": st.none() | st.integers(-(2**53), 2**53),
    "final_points0": st.floats(allow_nan=False),
    "rule_disp": st.none() | st.booleans(),
}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries({"go_type": st.integers(-(2**63), 2**63 - 1)}, optional=_simple),
        max_size=8,
    ),
    st.lists(st.integers(0, 8), max_size=3),
)
def test_columns_csv_takes_the_kinds_a_report_holds(
    tmp_path_factory: pytest.TempPathFactory, cells: list[dict[str, Any]], cuts: list[int]
) -> None:
    """Text, integers (gaps in an integer column or not; any 64-bit one without a
    gap), floats with integers and NaN, booleans: the columns writer writes them
    all, and as pandas does."""
    rows = [{"file": f"{i % 3}", "log_id": f"{i}", **c} for i, c in enumerate(cells)]
    parts = _parts(rows, cuts)
    got = _columns_csv("games", parts, tmp_path_factory.mktemp("c") / "t.csv")
    assert got is not None
    assert got == _pandas_csv("games", parts)


def test_columns_csv_declines_mixes_pandas_must_render(tmp_path: Path) -> None:
    mixed = [[{"file": "a", "x": 12}], [{"file": "b", "x": "12"}]]
    assert _columns_csv("games", mixed, tmp_path / "m.csv") is None
    big = [[{"file": "a", "x": 2**64}]]
    assert _columns_csv("games", big, tmp_path / "b.csv") is None
    gappy_past_float = [[{"file": "a"}, {"file": "b", "players": 2**53 + 1}]]
    assert _columns_csv("games", gappy_past_float, tmp_path / "g.csv") is None
    text_in_int = [[{"file": "a", "players": "4"}]]
    assert _columns_csv("games", text_in_int, tmp_path / "t.csv") is None
    assert not (tmp_path / "m.csv").exists()


def test_a_rendering_slip_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above can fail: integers of a float column written as
    integers (``12`` where pandas writes ``12.0``) differ from pandas' bytes (the
    Python writer's slip; ``test_csv_rows_core`` plants one in the core's path)."""
    monkeypatch.setattr(csv_columns, "_core", None)
    parts = [[{"file": "a", "x": 12}], [{"file": "b", "x": None}]]
    assert _columns_csv("games", parts, tmp_path / "ok.csv") == _pandas_csv("games", parts)
    monkeypatch.setattr(csv_columns, "_float_cell", lambda v: v)
    slipped = _columns_csv("games", parts, tmp_path / "slip.csv")
    assert slipped is not None and slipped != _pandas_csv("games", parts)
    assert ",12," in slipped.replace("\n", ",") and "12.0" in _pandas_csv("games", parts)


def test_a_stored_csv_report_imports_no_pandas(tmp_path: Path) -> None:
    """Writing a stored run's CSV report (the command line's usual one) never
    loads pandas."""
    from replay_audit.run.local import audit_files

    out = tmp_path / "o"
    audit_files([str(ROOT / "fixtures" / "4p_double_yakuman.xml")], jobs=1, out=out)
    script = (
        "import sys\n"
        "from replay_audit.report.stored import StoredAuditReport\n"
        f"StoredAuditReport.open({str(out)!r}).write({str(out)!r}, ['csv'])\n"
        "print('pandas' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "False"
    assert (out / "hands.csv").read_text(encoding="utf-8").startswith("file,log_id")
