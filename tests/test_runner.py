"""The runner: parallel, streamed to Parquet parts, resumable, identical results.

Most tests inject a fake worker (a top-level function with ``audit_file``'s
signature) reading tiny JSON "logs", so the machinery is tested on its own: rows
of mixed types and missing keys, failures after some files, a killed run.
One corpus-marked test runs the real auditor on the real logs.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.auditing.rows import SCHEMA_VERSION, FileAudit
from replay_audit.report.audit_report import AuditReport
from replay_audit.report.store import (
    ABSENT_COLUMN,
    INDEX_NAME,
    PART_SUFFIX,
    PARTS_DIR,
    SOURCE_COLUMN,
    rows_to_table,
    table_to_rows,
)
from replay_audit.report.stored import StoredAuditReport
from replay_audit.report.tables import TABLES
from replay_audit.run.local import audit_files

# --------------------------------------------------------------- fake worker


def fake_worker(path: str, rules: Any = None, *, strict: bool = False) -> FileAudit:
    """A stand-in for ``audit_file``: rows derived from a small JSON spec.

    The rows are deliberately awkward for Parquet: a column mixing ints and
    floats across files, one mixing ints and strings, keys present on some rows
    only, None-only columns. A spec with ``"fail": true`` raises; ``"sleep"``
    slows the file down; ``CALLS_LOG`` (env) records every call.
    """
    raw = Path(path).read_bytes()
    spec = json.loads(raw)
    log = os.environ.get("CALLS_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(path + "\n")
    if spec.get("sleep"):
        time.sleep(spec["sleep"])
    if spec.get("fail"):
        raise RuntimeError(f"boom in {path}")
    n = int(spec["hands"])
    seed = int(spec["seed"])
    fa = FileAudit(path=path, format="fake", sha256=hashlib.sha256(raw).hexdigest())
    fa.games.append(
        {
            "file": path,
            "log_id": Path(path).stem,
            "hands": n,
            "final_points0": 12.5 if seed % 2 else 12,
            "name0": f"p{seed}",
            "note": None,
        }
    )
    for i in range(n):
        row: dict[str, Any] = {"file": path, "hand_index": i, "seq": 3 * i, "dealer": i % 4}
        if (seed + i) % 3:
            row.update(result="ron", rec_fu=30 + i, rec_deltas="1000,-1000,0,0")
        else:
            row.update(result="exhaustive", tenpai="1,0,0,1")
        row["status"] = "ok"
        fa.hands.append(row)
        for seat in range(4):
            fa.hand_facts.append(
                {"file": path, "hand_index": i, "seat": seat, "won": seat == i % 4, "score": 1.5}
            )
    if seed % 3 == 0:
        fa.status = "mismatch"
        fa.findings.append(
            {
                "category": "payment",
                "field": "delta",
                "file": path,
                "hand": "E1-0",
                "hand_index": 0,
                "seq": 1,
                "seat": None if seed % 2 else 2,
                "recorded": 1000 if seed % 2 else "1000",
                "computed": "900",
                "message": "fake",
            }
        )
    fa.game_facts.extend({"file": path, "seat": s, "place": s + 1} for s in range(4))
    return fa


def make_logs(folder: Path, n: int, **extra: Any) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        p = folder / f"log{i:03d}.json"
        p.write_text(json.dumps({"hands": 1 + i % 5, "seed": i, **extra}), encoding="utf-8")
        paths.append(str(p))
    return paths


def assert_same_report(a: AuditReport, b: AuditReport) -> None:
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)
    assert a.summary() == b.summary()


# --------------------------------------------------------------- the row codec

_scalar = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
)
_value = st.recursive(
    _scalar,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3).filter(lambda k: k != "__tuple__"), inner, max_size=3)
    ),
    max_leaves=6,
)
_rows = st.lists(st.dictionaries(st.sampled_from("abcde"), _value, max_size=5), max_size=8)


@settings(max_examples=100, deadline=None)
@given(_rows)
def test_codec_round_trips_rows_exactly(rows: list[dict[str, Any]]) -> None:
    back = table_to_rows(rows_to_table(rows))
    assert back == rows
    for r, b in zip(rows, back, strict=True):
        for k in r:
            assert type(r[k]) is type(b[k])


@settings(max_examples=100, deadline=None)
@given(_rows, st.data())
def test_codec_sources_make_the_table_of_rows_led_by_their_source(
    rows: list[dict[str, Any]], data: st.DataObject
) -> None:
    """``rows_to_table(rows, sources)`` (what the chunk worker writes, without copying
    each row) is the very table of the rows that each begin with ``__source__``."""
    sources = data.draw(
        st.lists(st.sampled_from(["a.xml", "b.xml"]), min_size=len(rows), max_size=len(rows))
    )
    led = [{SOURCE_COLUMN: s, **r} for s, r in zip(sources, rows, strict=True)]
    got, want = rows_to_table(rows, sources), rows_to_table(led)
    assert got.equals(want) and got.schema.equals(want.schema, check_metadata=True)
    assert table_to_rows(got) == led


def test_codec_sources_refuse_a_source_key_or_a_wrong_count() -> None:
    with pytest.raises(ValueError, match="__source__"):
        rows_to_table([{SOURCE_COLUMN: "x"}], ["y"])
    with pytest.raises(ValueError, match="one source per row"):
        rows_to_table([{"a": 1}], [])


def test_codec_rows_with_as_many_keys_but_other_ones_keep_every_column() -> None:
    """Rows of one size whose keys differ (the first row does not name them all)."""
    rows: list[dict[str, Any]] = [{"a": 1, "b": "x"}, {"a": 2, "c": 2.5}, {"c": None, "b": "y"}]
    table = rows_to_table(rows, ["s", "t", "u"])
    assert table.column_names == [SOURCE_COLUMN, "a", "b", "c", ABSENT_COLUMN]
    assert table_to_rows(table) == [
        {SOURCE_COLUMN: s, **r} for s, r in zip("stu", rows, strict=True)
    ]


def test_codec_keeps_nan_and_rejects_unknown_types() -> None:
    back = table_to_rows(rows_to_table([{"x": math.nan}, {"x": 1.0}]))
    assert math.isnan(back[0]["x"]) and back[1]["x"] == 1.0
    with pytest.raises(TypeError, match="column 'x'"):
        rows_to_table([{"x": 1}, {"x": {1, 2}}])


# --------------------------------------------------------------- identical results


def test_one_job_n_jobs_and_stored_give_the_same_report(tmp_path: Path) -> None:
    files = make_logs(tmp_path / "logs", 23)
    ref = audit_files(files, jobs=1, worker=fake_worker)
    assert len(ref.files) == 23 and len(ref.hands) == sum(1 + i % 5 for i in range(23))
    assert set(ref.findings["recorded"].map(type)) == {int, str}
    par = audit_files(files, jobs=2, worker=fake_worker, files_per_part=3)
    assert_same_report(ref, par)
    stored1 = audit_files(files, jobs=1, out=tmp_path / "o1", worker=fake_worker)
    stored2 = audit_files(
        list(reversed(files)), jobs=2, out=tmp_path / "o2", worker=fake_worker, files_per_part=4
    )
    assert isinstance(stored2, StoredAuditReport)
    assert_same_report(ref, stored1)
    assert_same_report(ref, stored2)
    assert_same_report(ref, stored2.load())
    parts = list((tmp_path / "o2" / PARTS_DIR / "hands").glob(f"part-*{PART_SUFFIX}"))
    assert len(parts) == math.ceil(23 / 4)


def test_stored_report_writes_like_a_plain_one(tmp_path: Path) -> None:
    files = make_logs(tmp_path / "logs", 5)
    stored = audit_files(files, jobs=1, out=tmp_path / "o", worker=fake_worker)
    written = stored.write(tmp_path / "o", formats=("csv", "parquet"))
    assert {p.name for p in written} >= {"files.csv", "hands.parquet", "summary.json"}
    again = pd.read_parquet(tmp_path / "o" / "hands.parquet")
    assert len(again) == len(stored.hands)


def _read(folder: Path, name: str, fmt: str) -> pd.DataFrame:
    if fmt == "csv":
        return pd.read_csv(folder / f"{name}.csv", keep_default_na=False, dtype=str)
    return pd.read_parquet(folder / f"{name}.parquet")


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_stored_report_streams_part_by_part_and_equals_the_in_memory_one(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No table is loaded to write CSV or Parquet or to summarise, and what is
    written reads back equal to what an in-memory report writes."""
    files = make_logs(tmp_path / "logs", 23)
    plain = audit_files(files, jobs=1, worker=fake_worker)
    plain.write(tmp_path / "plain", formats=(fmt,))
    stored = audit_files(files, jobs=2, out=tmp_path / "o", worker=fake_worker, files_per_part=4)

    def no_table(self: Any, name: str) -> None:
        raise AssertionError(f"table {name} loaded into memory")

    monkeypatch.setattr(StoredAuditReport, "_table", no_table)
    stored.write(tmp_path / "streamed", formats=(fmt,))
    assert stored.summary() == plain.summary()
    monkeypatch.undo()
    for name in ("files", "games", "hands", "findings"):
        a, b = _read(tmp_path / "plain", name, fmt), _read(tmp_path / "streamed", name, fmt)
        assert list(a.columns) == list(b.columns), name
        pd.testing.assert_frame_equal(a, b, obj=name)


def test_resumed_stored_csv_holds_every_row_once(tmp_path: Path) -> None:
    """After a resume the parts of two runs interleave; each row is still written once."""
    files = make_logs(tmp_path / "logs", 12)
    out = tmp_path / "o"
    audit_files(files[::2], jobs=1, out=out, worker=fake_worker, files_per_part=2)
    Path(files[0]).write_text(json.dumps({"hands": 2, "seed": 99}), encoding="utf-8")
    resumed = audit_files(files, jobs=2, out=out, worker=fake_worker, files_per_part=2)
    assert resumed.run_stats["skipped"] == 5
    resumed.write(tmp_path / "w", formats=("csv",))
    plain = audit_files(files, jobs=1, worker=fake_worker)
    for name in ("files", "games", "hands", "findings"):
        got = _read(tmp_path / "w", name, "csv")
        want = getattr(plain, name)
        assert len(got) == len(want), name
        keys = [k for k in ("file", "hand_index", "seq") if k in got.columns]
        assert sorted(map(tuple, got[keys].values.tolist())) == sorted(
            tuple(str(v) for v in t) for t in want[keys].values.tolist()
        )


def test_every_input_file_appears_once(tmp_path: Path) -> None:
    files = make_logs(tmp_path / "logs", 4)
    report = audit_files(files + files[:2], jobs=2, out=tmp_path / "o", worker=fake_worker)
    assert sorted(report.files["file"]) == sorted(files)


# --------------------------------------------------------------- resume


def _calls(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").split() if log.exists() else []


def test_rerun_skips_audited_files_and_reaudits_changed_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = make_logs(tmp_path / "logs", 12)
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("CALLS_LOG", str(calls))
    out = tmp_path / "o"
    first = audit_files(files, jobs=2, out=out, worker=fake_worker)
    assert sorted(_calls(calls)) == sorted(files)
    calls.unlink()
    second = audit_files(files, jobs=2, out=out, worker=fake_worker)
    assert _calls(calls) == []
    assert isinstance(second, StoredAuditReport)
    assert second.run_stats["skipped"] == 12 and second.run_stats["audited"] == 0
    assert_same_report(first, second)
    # new content at one path, other rules: audited again; the old rows are superseded
    Path(files[5]).write_text(json.dumps({"hands": 7, "seed": 5}), encoding="utf-8")
    third = audit_files(files, jobs=2, out=out, worker=fake_worker)
    assert _calls(calls) == [files[5]]
    assert third.hands[third.hands["file"] == files[5]].shape[0] == 7
    assert len(third.files) == 12
    from replay_audit.model.rules.presets import PRESETS

    calls.unlink()
    audit_files(files, PRESETS["tenhou-4p"], jobs=2, out=out, worker=fake_worker)
    assert sorted(_calls(calls)) == sorted(files)
    calls.unlink()
    audit_files(files, jobs=1, out=out, resume=False, worker=fake_worker)
    assert sorted(_calls(calls)) == sorted(files)


def test_rerun_after_a_code_change_reaudits_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows written by another version of the auditor are never reused."""
    from replay_audit.run import keys as runner

    files = make_logs(tmp_path / "logs", 6)
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("CALLS_LOG", str(calls))
    out = tmp_path / "o"
    audit_files(files, jobs=1, out=out, worker=fake_worker)
    index = [json.loads(x) for x in (out / PARTS_DIR / INDEX_NAME).read_text().splitlines()]
    assert {e["code"] for e in index} == {runner.work_key(fake_worker)}
    assert runner.code_fingerprint() in runner.work_key(fake_worker)
    calls.unlink()
    monkeypatch.setattr(runner, "code_fingerprint", lambda: "another-version")
    again = audit_files(files, jobs=1, out=out, worker=fake_worker)
    assert sorted(_calls(calls)) == sorted(files)
    assert again.run_stats["skipped"] == 0 and len(again.files) == 6


def test_sources_fingerprint_changes_with_any_source_or_rule_file(tmp_path: Path) -> None:
    from replay_audit.run.keys import sources_fingerprint

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "r.toml").write_text("name = 'r'\n")
    (tmp_path / "notes.txt").write_text("ignored")
    first = sources_fingerprint(tmp_path)
    (tmp_path / "notes.txt").write_text("still ignored")
    assert sources_fingerprint(tmp_path) == first
    (tmp_path / "sub" / "r.toml").write_text("name = 's'\n")
    second = sources_fingerprint(tmp_path)
    assert second != first
    (tmp_path / "a.py").rename(tmp_path / "b.py")
    assert sources_fingerprint(tmp_path) not in (first, second)


def test_failure_midway_keeps_finished_chunks_and_resume_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = make_logs(tmp_path / "logs", 30)
    bad = files[17]
    Path(bad).write_text(json.dumps({"hands": 2, "seed": 17, "fail": True}), encoding="utf-8")
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("CALLS_LOG", str(calls))
    out = tmp_path / "o"
    with pytest.raises(RuntimeError, match="boom"):
        audit_files(files, jobs=1, out=out, worker=fake_worker, files_per_part=5)
    index = [json.loads(x) for x in (out / PARTS_DIR / INDEX_NAME).read_text().splitlines()]
    done = [e["path"] for e in index]
    assert done == files[:15]  # three whole chunks of five; the chunk of the bad file is lost
    Path(bad).write_text(json.dumps({"hands": 2, "seed": 17}), encoding="utf-8")
    calls.unlink()
    resumed = audit_files(files, jobs=2, out=out, worker=fake_worker, files_per_part=5)
    assert sorted(_calls(calls)) == sorted(files[15:])
    assert_same_report(resumed, audit_files(files, jobs=1, worker=fake_worker))


def test_parallel_failure_propagates_after_indexing_finished_chunks(tmp_path: Path) -> None:
    files = make_logs(tmp_path / "logs", 16)
    Path(files[-1]).write_text(json.dumps({"hands": 1, "seed": 0, "fail": True}))
    out = tmp_path / "o"
    with pytest.raises(RuntimeError, match="boom"):
        audit_files(files, jobs=2, out=out, worker=fake_worker, files_per_part=2)
    index = (out / PARTS_DIR / INDEX_NAME).read_text().splitlines()
    assert 0 < len(index) <= 14  # the failing chunk is never indexed


_KILL_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from test_runner import fake_worker
from replay_audit.run.local import audit_files
files = sys.argv[2:]
audit_files(files, jobs=2, out=sys.argv[1], worker=fake_worker, files_per_part=2)
"""


def test_killed_run_resumes_without_redoing_audited_files(tmp_path: Path) -> None:
    files = make_logs(tmp_path / "logs", 24, sleep=0.1)
    out = tmp_path / "o"
    script = tmp_path / "run.py"
    script.write_text(_KILL_SCRIPT.format(tests=str(Path(__file__).parent)), encoding="utf-8")
    calls = tmp_path / "calls.txt"
    env = {**os.environ, "CALLS_LOG": str(calls)}
    proc = subprocess.Popen(
        [sys.executable, str(script), str(out), *files], env=env, start_new_session=True
    )
    index = out / PARTS_DIR / INDEX_NAME
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if index.exists() and len(index.read_text().splitlines()) >= 6:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, mid-way
    proc.wait()
    before = {json.loads(x)["path"] for x in index.read_text().splitlines() if x.strip()}
    assert 6 <= len(before) < len(files)
    calls.unlink()
    env_calls = os.environ.get("CALLS_LOG")
    os.environ["CALLS_LOG"] = str(calls)
    try:
        resumed = audit_files(files, jobs=2, out=out, worker=fake_worker, files_per_part=2)
    finally:
        if env_calls is None:
            del os.environ["CALLS_LOG"]
        else:
            os.environ["CALLS_LOG"] = env_calls
    redone = set(_calls(calls))
    assert not redone & before
    assert redone | before == set(files)
    assert isinstance(resumed, StoredAuditReport)
    assert resumed.run_stats["skipped"] == len(before)
    assert_same_report(resumed, audit_files(files, jobs=1, worker=fake_worker))


# --------------------------------------------------------------- progress


def test_progress_bar_goes_to_stderr_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = make_logs(tmp_path / "logs", 6)
    audit_files(files, jobs=1, progress=True, worker=fake_worker)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "6/6" in captured.err and "hands" in captured.err
    audit_files(files, jobs=1, progress=False, worker=fake_worker)
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------- the real auditor


@pytest.mark.corpus
@pytest.mark.usefixtures("start_shanten_once")  # players() of both reports: the same hands
def test_real_audit_is_identical_for_one_job_and_two_jobs_stored(
    corpus: Path, corpus_sample_audit: AuditReport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus sample (``tests.conftest.corpus_sample``: every log that is not a
    Phoenix one, every sixteenth Phoenix one), once in this process and once on two
    workers via Parquet; the stored CSV is written from the parts' columns
    (``report.csv_columns``, no table falls back to pandas) and equals the
    pandas-written one byte for byte.  The whole corpus's one-job run is pinned by
    ``tests/test_corpus_pin.py``; how a run is split and written does not depend on
    which logs it reads, and the sample holds every kind of row the corpus has."""
    from tests.conftest import corpus_sample  # (inside: the kill test's script imports this module)

    files = corpus_sample(corpus)
    ref = corpus_sample_audit
    par = audit_files(files, jobs=2, out=tmp_path / "o", files_per_part=25)
    assert isinstance(par, StoredAuditReport)
    assert_same_report(ref, par)
    assert list(ref.files["file"]) == files
    assert len(list((tmp_path / "o" / PARTS_DIR / "files").iterdir())) > 4  # parts of 25 files
    assert set(ref.findings["category"]) >= {"info", "payment", "replay", "hand_value"}
    ref.write(tmp_path / "ref", ["csv", "parquet"])
    from replay_audit.report import stored_tables

    def no_pandas_csv(*args: Any) -> None:
        raise AssertionError("a corpus table fell back to the pandas CSV writer")

    monkeypatch.setattr(stored_tables, "write_csv_table", no_pandas_csv)
    par.write(tmp_path / "par", ["csv", "parquet"])  # streamed part by part
    monkeypatch.undo()
    for name in ("files", "games", "hands", "findings"):
        assert (tmp_path / "ref" / f"{name}.csv").read_bytes() == (
            tmp_path / "par" / f"{name}.csv"
        ).read_bytes()
        pd.testing.assert_frame_equal(
            _read(tmp_path / "ref", name, "parquet"), _read(tmp_path / "par", name, "parquet")
        )
    from replay_audit.stats import players

    pd.testing.assert_frame_equal(players(par), players(ref), check_dtype=False)


def test_outputs_name_the_schema_and_tool_version(tmp_path: Path) -> None:
    """summary.json and every Parquet table carry the schema and tool version
    (stats.md 2.4), stored and in-memory reports alike, so old files can be migrated."""
    import pyarrow.parquet as pq

    import replay_audit

    log = str(Path(__file__).resolve().parents[1] / "fixtures" / "4p_double_yakuman.xml")
    for report in (audit_files([log], jobs=1), audit_files([log], jobs=1, out=tmp_path / "o")):
        assert report.summary()["tool_version"] == replay_audit.__version__
        folder = tmp_path / f"w{id(report)}"
        report.write(folder, ["parquet"])
        meta = pq.read_schema(folder / "hands.parquet").metadata
        assert meta[b"replay_audit.version"] == replay_audit.__version__.encode()
        assert meta[b"replay_audit.schema_version"] == str(SCHEMA_VERSION).encode()
        assert json.loads((folder / "summary.json").read_text())["tool_version"]


def mark_worker(path: str, rules: Any = None, *, strict: bool = False) -> FileAudit:
    """``fake_worker``, noting in ``MARK_LOG`` whether this worker has the mark its
    parent set on ``run.local`` (a forked worker has it; a spawned one imports anew)."""
    from replay_audit.run import local

    with open(os.environ["MARK_LOG"], "a", encoding="utf-8") as f:
        f.write(f"{getattr(local, 'PARENT_MARK', False)}\n")
    return fake_worker(path, rules, strict=strict)


_SPAWN_DEFAULT_SCRIPT = """
import multiprocessing, sys
sys.path.insert(0, {tests!r})
if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")  # as Python 3.14 makes forkserver the default
    from replay_audit.run import local
    from test_runner import mark_worker
    local.PARENT_MARK = True
    local.audit_files(sys.argv[1:], jobs=2, out=None, worker=mark_worker, files_per_part=1)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_workers_fork_on_linux_whatever_the_default_start_method(tmp_path: Path) -> None:
    """The pool's workers start with the parent's modules (``local._pool_context``),
    even where the interpreter's default start method would import them again."""
    files = make_logs(tmp_path / "logs", 4)
    script = tmp_path / "run.py"
    script.write_text(_SPAWN_DEFAULT_SCRIPT.format(tests=str(Path(__file__).parent)))
    marks = tmp_path / "marks.txt"
    env = {**os.environ, "MARK_LOG": str(marks)}
    subprocess.run([sys.executable, str(script), *files], env=env, check=True, timeout=120)
    assert marks.read_text().split() == ["True"] * 4
