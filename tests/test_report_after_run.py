"""What a stored run does after ``audit_file`` is cut without changing what it writes.

The report a run hands back takes each file's part from the run itself, not from
the index (``run.plan.Plan.parts``): the same parts the index gives, fresh or
resumed.  The CSV writer's derived hand columns are computed once per distinct
value (``report.tables._per_value``) and its sort keys without a gap are used as
they are (``report.column_plan.sort_key``): the same cells and the same order.
The collector is held while the CSV tables are written and given back after.
"""

from __future__ import annotations

import gc
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from replay_audit.report.column_plan import sort_key
from replay_audit.report.store import Store
from replay_audit.report.stored import StoredAuditReport
from replay_audit.report.tables import _per_value, is_yakuman_list, limit_name, yaku_names
from replay_audit.run.local import audit_files
from replay_audit.run.plan import MAX_FILES_PER_PART, Plan, chunk_tasks

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _files() -> list[str]:
    return sorted(str(p) for p in FIXTURES.glob("*.xml"))


def test_run_hands_its_report_the_parts_the_index_gives(tmp_path: Path) -> None:
    files = _files()
    out = tmp_path / "o"
    first = audit_files(files[: len(files) // 2], jobs=1, out=out, files_per_part=2)
    assert isinstance(first, StoredAuditReport)
    index = Store(out).read_parts()
    assert first._parts == {p: index[p] for p in first.paths}
    # resumed: half the files reused (their parts from the plan's index), half new
    again = audit_files(files, jobs=1, out=out, files_per_part=2)
    assert isinstance(again, StoredAuditReport)
    index = Store(out).read_parts()
    assert again._parts == {p: index[p] for p in again.paths}
    assert len(set(again._parts.values())) > len(set(first._parts.values()))
    a, b = tmp_path / "a", tmp_path / "b"
    again.write(a, formats=["csv"])
    StoredAuditReport.open(out).write(b, formats=["csv"])
    for name in ("files", "games", "hands", "findings"):
        assert (a / f"{name}.csv").read_bytes() == (b / f"{name}.csv").read_bytes()


def test_csv_write_gives_the_collector_back(tmp_path: Path) -> None:
    report = audit_files(_files()[:3], jobs=1, out=tmp_path / "o")
    assert gc.isenabled()
    report.write(tmp_path / "w", formats=["csv"])
    assert gc.isenabled()
    gc.disable()
    try:
        report.write(tmp_path / "w2", formats=["csv"])
        assert not gc.isenabled()  # the caller's choice stays
    finally:
        gc.enable()


_CELLS = st.one_of(
    st.none(),
    st.sampled_from(["19,1,52,1", "39,42", " ", "x", "36", "1,1,2,1", ""]),
    st.integers(-3, 20),
    st.floats(),
    st.booleans(),
    st.just(pd.NA),
    st.lists(st.integers(0, 3), max_size=2),
)


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(
        x is y or x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y))
        for x, y in zip(a, b, strict=True)
    )


@given(st.lists(_CELLS, max_size=30))
def test_per_value_is_a_call_per_cell(cells: list[Any]) -> None:
    for derive in (yaku_names, limit_name, is_yakuman_list):
        assert _same(_per_value(derive, cells), [derive(v) for v in cells])


def test_limit_name_of_an_infinite_or_unknown_code_is_none() -> None:
    # a float column may hold an infinity (hypothesis found one in a stored hands
    # table): int() refuses it with an OverflowError, which must read as no name; a
    # negative code has none either (it is no index from the names' end)
    assert [limit_name(v) for v in (float("inf"), -float("inf"), 99, -1, -1.5)] == [None] * 5
    assert limit_name(2.0) == limit_name(2) == "haneman"


def test_per_value_over_a_series_of_nan() -> None:
    # a float Series makes a new NaN object at each pass over it
    column = pd.Series([float("nan"), 2.0, float("nan")])
    assert _per_value(limit_name, column) == [limit_name(v) for v in column]


@given(
    st.lists(
        st.tuples(st.one_of(st.none(), st.text(max_size=2)), st.one_of(st.none(), st.integers())),
        max_size=30,
    )
)
def test_sort_key_without_gaps_keeps_the_order(rows: list[tuple[str | None, int | None]]) -> None:
    def tagged(values: list[Any]) -> list[tuple[bool, Any]]:
        return [(False, 0) if v is None else (True, v) for v in values]

    texts, ints = [r[0] for r in rows], [r[1] for r in rows]
    want = sorted(
        range(len(rows)), key=list(zip(tagged(texts), tagged(ints), strict=True)).__getitem__
    )
    got = sorted(
        range(len(rows)), key=list(zip(sort_key(texts), sort_key(ints), strict=True)).__getitem__
    )
    assert got == want


@pytest.mark.parametrize(
    ("files", "jobs", "size"),
    [(2770, 1, 126), (2770, 2, 126), (11080, 2, 126), (600, 2, 75), (10, 2, 2), (0, 3, 1)],
)
def test_parts_hold_at_most_max_files(files: int, jobs: int, size: int) -> None:
    plan = Plan([f"f{i}" for i in range(files)], [], "run", None)
    tasks = chunk_tasks(plan, None, strict=False, jobs=jobs)
    assert max((len(t.paths) for t in tasks), default=1) == size <= MAX_FILES_PER_PART
    assert sum(len(t.paths) for t in tasks) == files
    if files >= 4 * jobs * MAX_FILES_PER_PART // 2:  # (large runs) even work for every job
        assert len(tasks) % jobs == 0
