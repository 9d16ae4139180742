"""The core's CSV rows (``_core.csv_rows``) are the ``csv`` module's, byte for byte.

``report.csv_columns`` writes a stored table's chunks through the core when it is
built (one buffer a chunk) and through the ``csv`` module without it (the
reference).  Here the two are held equal on random cells (text with commas, quotes,
newlines, ``\\r``, empty strings, unicode and surrogate-escaped names; 64-bit
integers; floats with -0.0, 1e16, 1e-5 and NaN; booleans; gaps; one column or
several; any row order), on the fixtures' reports and on the whole shared corpus's
four CSV tables (both writers, and the table read once or twice); and a planted
difference is shown to be caught.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.native import _core
from replay_audit.report import column_plan, csv_columns
from tests.conftest import CORPUS, FIXTURES, need

pytestmark = pytest.mark.skipif(_core is None, reason="the compiled core is not built")

TABLES = ("files", "games", "hands", "findings")

_text = (
    st.text(max_size=6)
    | st.sampled_from(["", ",", '"', "\n", "\r", "\r\n", 'a"b,c', " x ", "天鳳", "名前\n"])
    | st.binary(max_size=6).map(lambda b: b.decode("utf-8", "surrogateescape"))
)
_plain = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.sampled_from([-(2**63), 2**63 - 1, 0, -1, 2**53 + 1])
    | st.floats(allow_nan=True)
    | st.sampled_from([-0.0, 1e16, 1e-5, float("nan"), float("inf"), 0.1, 12.0])
    | _text
)
_number = st.none() | st.floats(allow_nan=True) | st.integers(-(2**53), 2**53)
_KINDS = {0: column_plan.NULL, 1: column_plan.PLAIN, 2: column_plan.FLOAT}


def _reference(columns: list[list[Any]], kinds: list[int], order: list[int] | None) -> bytes:
    """The rows as the Python writer renders them and the ``csv`` module writes them."""
    out = io.StringIO()
    rendered = [csv_columns._rendered(v, _KINDS[k]) for v, k in zip(columns, kinds, strict=True)]
    rows = list(zip(*rendered, strict=True))
    csv.writer(out, lineterminator="\n").writerows(
        rows if order is None else [rows[i] for i in order]
    )
    return out.getvalue().encode("utf-8", "surrogateescape")


def _core_rows(
    columns: list[list[Any]],
    kinds: list[int],
    order: list[int] | None,
    quote_cr: bool | None = None,
) -> bytes:
    assert _core is not None
    cr = csv_columns._QUOTE_CR if quote_cr is None else quote_cr
    return _core.csv_rows(columns, kinds, order, cr, "surrogateescape")


@st.composite
def _chunks(draw: st.DrawFn) -> tuple[list[list[Any]], list[int], list[int] | None]:
    n = draw(st.integers(0, 7))
    kinds = draw(st.lists(st.sampled_from([0, 1, 1, 1, 2]), min_size=1, max_size=4))
    columns = [draw(st.lists(_number if k == 2 else _plain, min_size=n, max_size=n)) for k in kinds]
    order = draw(st.none() | st.permutations(range(n)).map(list))
    return columns, kinds, order


@settings(max_examples=400, deadline=None)
@given(_chunks())
def test_core_rows_are_the_csv_modules(chunk: tuple[list[list[Any]], list[int], Any]) -> None:
    """Any cells, one column or several, in any order: the core's bytes are the
    ``csv`` module's (a lone empty field written ``""`` included)."""
    columns, kinds, order = chunk
    assert _core_rows(columns, kinds, order) == _reference(columns, kinds, order)


@settings(max_examples=100, deadline=None)
@given(st.lists(_text, min_size=1, max_size=5))
def test_core_quotes_text_as_the_csv_module(texts: list[str]) -> None:
    """Text alone, a column of it and a row of it: quoted exactly where QUOTE_MINIMAL
    quotes (comma, quote, newline, and ``\\r`` as this Python's ``csv`` decides)."""
    assert _core_rows([texts], [1], None) == _reference([texts], [1], None)
    row = [[t] for t in texts]
    assert _core_rows(row, [1] * len(row), None) == _reference(row, [1] * len(row), None)


def test_core_refuses_what_strict_utf8_refuses() -> None:
    """A surrogate-escaped name in a file written strictly: an error, as the text file
    the Python writer writes to raises one."""
    assert _core is not None
    name = b"\xff".decode("utf-8", "surrogateescape")
    with pytest.raises(UnicodeEncodeError):
        _core.csv_rows([[name]], [1], None, csv_columns._QUOTE_CR, "strict")
    with pytest.raises(UnicodeEncodeError):
        io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="").write(name)


def test_a_planted_difference_is_caught() -> None:
    """The comparison can fail: ``\\r`` quoted the other way, or an integer of a float
    column written as the integer, differ from the reference."""
    texts = [["a\rb", "x"]]
    assert _core_rows(texts, [1], None) == _reference(texts, [1], None)
    flipped = _core_rows(texts, [1], None, quote_cr=not csv_columns._QUOTE_CR)
    assert flipped != _reference(texts, [1], None)
    ints = [[12, None]]
    assert _core_rows(ints, [2], None) == b'12.0\n""\n'
    assert _core_rows(ints, [1], None) != _reference(ints, [2], None)


# ------------------------------------------------------- the column classing (first pass)


def _core_class(values: list[Any], bits_of: Any = column_plan._TYPE_BITS) -> Any:
    """``_core.column_class``'s answer as ``column_class_python`` gives it (or None)."""
    assert _core is not None
    got = _core.column_class(values)
    if got is None:
        return None
    bits, low, high = got
    return {t for b, t in bits_of if bits & b}, low, high


_classed = _plain | st.integers(-(2**70), 2**70) | st.tuples(st.integers())


@settings(max_examples=300, deadline=None)
@given(st.lists(_classed, max_size=8))
def test_core_column_class_is_the_python_pass(values: list[Any]) -> None:
    """Any values: the core learns the Python pass's types and int range, or declines
    (a value of another type, an int past 64 bits) and the Python pass answers."""
    got = _core_class(values)
    other = any(type(v) not in (type(None), bool, int, float, str) for v in values)
    big = any(type(v) is int and not -(2**63) <= v < 2**63 for v in values)
    assert (got is None) == (other or big)
    if got is not None:
        assert got == column_plan.column_class_python(values)


def test_a_planted_column_class_difference_is_caught() -> None:
    """bool and int told apart the wrong way round differ from the Python pass."""
    values = [True, None]
    assert _core_class(values) == column_plan.column_class_python(values)
    swapped = ((1, type(None)), (4, bool), (2, int), (8, float), (16, str))
    assert _core_class(values, swapped) != column_plan.column_class_python(values)


# ------------------------------------------------------- whole tables: fixtures, corpus


def _tables(out: Path, folder: Path, *, core: bool, held: int, mp: pytest.MonkeyPatch) -> None:
    """The four CSV tables of the stored run in ``out`` written to ``folder``."""
    from replay_audit.report.stored import StoredAuditReport

    with mp.context() as m:
        if not core:
            m.setattr(csv_columns, "_core", None)
        m.setattr(csv_columns, "HELD_CELLS", held)
        folder.mkdir()
        StoredAuditReport.open(out)._write_csv_columns(folder)


def _assert_writers_agree(out: Path, tmp: Path, mp: pytest.MonkeyPatch) -> dict[str, bytes]:
    """The four tables written by both writers (the core's with the table read once and
    read twice) are the same bytes; the reference's bytes, by table."""
    _tables(out, tmp / "py", core=False, held=0, mp=mp)  # the reference, read twice
    _tables(out, tmp / "core", core=True, held=csv_columns.HELD_CELLS, mp=mp)
    _tables(out, tmp / "core_reread", core=True, held=0, mp=mp)
    for name in TABLES:
        ref = (tmp / "py" / f"{name}.csv").read_bytes()
        assert (tmp / "core" / f"{name}.csv").read_bytes() == ref, name
        assert (tmp / "core_reread" / f"{name}.csv").read_bytes() == ref, name
    return {name: (tmp / "py" / f"{name}.csv").read_bytes() for name in TABLES}


@pytest.fixture(scope="module")
def fixtures_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from replay_audit.run.local import audit_files

    logs = sorted(str(p) for p in FIXTURES.glob("*.xml")) + sorted(
        str(p) for p in FIXTURES.glob("*.json")
    )
    out = tmp_path_factory.mktemp("fx") / "o"
    audit_files(logs, jobs=1, out=out)
    return out


def test_fixtures_tables_are_the_python_writers(
    fixtures_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = _assert_writers_agree(fixtures_run, tmp_path, monkeypatch)
    assert tables["hands"].count(b"\n") > 10


def test_a_planted_difference_in_a_table_is_caught(
    fixtures_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A core that swaps two rows of a chunk is told apart from the reference."""
    assert _core is not None
    real = _core

    class Slipped:
        column_class = staticmethod(real.column_class)

        @staticmethod
        def csv_rows(*args: Any) -> bytes:
            lines = real.csv_rows(*args).splitlines(keepends=True)
            if len(lines) > 1:
                lines[0], lines[1] = lines[1], lines[0]
            return b"".join(lines)

    monkeypatch.setattr(csv_columns, "_core", Slipped)
    with pytest.raises(AssertionError):
        _assert_writers_agree(fixtures_run, tmp_path, monkeypatch)


@pytest.mark.corpus
def test_corpus_tables_are_the_python_writers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole shared corpus's four CSV tables: the core's bytes are the Python
    writer's (read once, or read again when the table is past ``HELD_CELLS``)."""
    from replay_audit.run.api import run_audit

    run_audit([need(CORPUS)], jobs=2, out=tmp_path / "o")
    tables = _assert_writers_agree(tmp_path / "o", tmp_path, monkeypatch)
    assert tables["hands"].count(b"\n") > 27_938 and tables["findings"].count(b"\n") > 4
