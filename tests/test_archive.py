"""Auditing a phoenix-logs SQLite archive directly (``replay_audit.io.archive``).

Databases are built in ``tmp_path`` with the phoenix-logs schema from the XML
fixtures (and, corpus-marked, from real Phoenix logs); the reference is always
the audit of the same logs as plain files, so every comparison is against the
existing file path, not against values written here.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay_audit.io import archive
from replay_audit.io.paths import iter_log_paths
from replay_audit.io.read import read_bytes, read_log
from replay_audit.model.errors import LimitExceededError, NotALogError, TruncatedLogError
from replay_audit.report.tables import TABLES
from replay_audit.run.api import run_audit
from replay_audit.run.keys import file_sha256

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"

SCHEMA = (
    "CREATE TABLE logs(log_id text primary key, date text, is_tonpusen int, is_sanma int,"
    " is_processed int, was_error int, log_content text, log_hash text)"
)


def make_db(path: Path, rows: Sequence[tuple[str, bytes | str | None]]) -> Path:
    """A database in the phoenix-logs layout (plus its ``last_downloads`` table)."""
    con = sqlite3.connect(path)
    con.execute(SCHEMA)
    con.execute("CREATE TABLE last_downloads(name text, date text)")
    con.executemany(
        "INSERT INTO logs VALUES (?, '2024-01-01', 0, 0, ?, ?, ?, '')",
        [(i, int(bool(c)), int(not c), c) for i, c in rows],
    )
    con.commit()
    con.close()
    return path


def set_content(db: Path, log_id: str, content: bytes | str) -> None:
    con = sqlite3.connect(db)
    con.execute("UPDATE logs SET log_content = ? WHERE log_id = ?", (content, log_id))
    con.commit()
    con.close()


def fixture_logs() -> list[Path]:
    """Clean logs and the replay fixtures (which carry findings on purpose)."""
    return sorted(FIXTURES.glob("*.xml")) + sorted((FIXTURES / "replay").glob("*.xml"))


def logs_and_db(tmp_path: Path, sources: Sequence[Path], data: Any = None) -> tuple[Path, Path]:
    """The same logs twice: as files ``logs/<id>`` and as rows ``<id>`` of ``ph.db``.

    The log id is the file name, so a member ``ph.db::<id>`` maps to ``logs/<id>``
    by a prefix swap and both sort alike.
    """
    folder = tmp_path / "logs"
    folder.mkdir()
    rows = []
    for src in sources:
        raw = data(src) if data else src.read_bytes()
        log_id = src.name.removesuffix(".gz")
        (folder / log_id).write_bytes(raw)
        rows.append((log_id, bz2.compress(raw)))
    return folder, make_db(tmp_path / "ph.db", rows)


def as_files(frame: pd.DataFrame, db: Path, folder: Path) -> pd.DataFrame:
    """The report of the archive with member names turned into the file names."""
    out = frame.copy()
    old, new = f"{db}::", f"{folder}/"
    for col in out.columns:
        if isinstance(out[col].dtype, pd.StringDtype):
            out[col] = out[col].str.replace(old, new, regex=False)
        elif out[col].dtype == object:
            out[col] = out[col].map(lambda v: v.replace(old, new) if isinstance(v, str) else v)
    return out


def assert_same_report(got: Any, ref: Any, db: Path, folder: Path) -> None:
    for name in TABLES:
        a = as_files(getattr(got, name), db, folder)
        pd.testing.assert_frame_equal(a, getattr(ref, name), check_exact=True, obj=name)
    assert got.summary() == ref.summary()


# ------------------------------------------------------------------ the same report


@pytest.mark.parametrize("jobs", [1, 2])
def test_archive_audit_equals_file_audit(tmp_path: Path, jobs: int) -> None:
    sources = fixture_logs()
    folder, db = logs_and_db(tmp_path, sources)
    ref = run_audit([folder / s.name for s in sources], jobs=1)
    assert ref.summary()["findings"] > 0  # the replay fixtures carry findings
    got = run_audit([db], jobs=jobs, out=tmp_path / "o")
    assert len(got.files) == len(sources)
    assert all(f.startswith(f"{db}::") for f in got.files["file"])
    assert_same_report(got, ref, db, folder)


def test_members_in_log_id_order_and_empty_rows_counted(tmp_path: Path) -> None:
    xml = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()
    db = make_db(
        tmp_path / "a.sqlite3",
        [("c", bz2.compress(xml)), ("a", bz2.compress(xml)), ("b", ""), ("d", None)],
    )
    seen: list[archive.ArchiveListing] = []
    paths = [str(p) for p in iter_log_paths([db], on_archive=seen.append)]
    assert paths == [f"{db}::a", f"{db}::c"]
    (listing,) = seen
    assert (len(listing.members), listing.rows, listing.skipped) == (2, 4, 2)
    assert listing.describe() == f"{db}: 2 logs, 2 rows without content skipped"


def test_folder_walk_expands_archives_by_header_not_name(tmp_path: Path) -> None:
    xml = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()
    make_db(tmp_path / "x.db", [("g1", bz2.compress(xml))])
    (tmp_path / "Thumbs.db").write_bytes(b"not sqlite")  # an archive name, not an archive
    (tmp_path / "plain.xml").write_bytes(xml)
    got = [str(p) for p in iter_log_paths([tmp_path])]
    assert got == [str(tmp_path / "plain.xml"), f"{tmp_path / 'x.db'}::g1"]
    # a database named anything is expanded when given by name
    renamed = make_db(tmp_path / "archive.bin", [("g2", bz2.compress(xml))])
    assert [str(p) for p in iter_log_paths([renamed])] == [f"{renamed}::g2"]


# ------------------------------------------------------------------ resume


def test_rerun_reuses_members_and_a_changed_row_alone_is_audited(tmp_path: Path) -> None:
    sources = fixture_logs()
    folder, db = logs_and_db(tmp_path, sources)
    out = tmp_path / "o"
    first = run_audit([db], jobs=2, out=out)
    n = len(sources)
    assert first.run_stats["audited"] == n
    again = run_audit([db], jobs=2, out=out)
    assert (again.run_stats["audited"], again.run_stats["skipped"]) == (0, n)
    # the same log stored at another compression level: other stored bytes
    victim = sources[2].name
    set_content(db, victim, bz2.compress((folder / victim).read_bytes(), 1))
    third = run_audit([db], jobs=2, out=out)
    assert (third.run_stats["audited"], third.run_stats["skipped"]) == (1, n - 1)
    # now a different log under that id: the report follows the new content
    (folder / victim).write_bytes(sources[0].read_bytes())
    set_content(db, victim, bz2.compress(sources[0].read_bytes()))
    fourth = run_audit([db], jobs=1, out=out)
    assert fourth.run_stats["audited"] == 1
    assert_same_report(fourth, run_audit([folder / s.name for s in sources], jobs=1), db, folder)


def test_member_hash_is_the_stored_bytes(tmp_path: Path) -> None:
    blob = bz2.compress((FIXTURES / "replay" / "clean_ron.xml").read_bytes())
    db = make_db(tmp_path / "h.db", [("g", blob)])
    assert file_sha256(f"{db}::g") == hashlib.sha256(blob).hexdigest()
    with pytest.raises(OSError, match="no log 'zz'"):
        file_sha256(f"{db}::zz")


# ------------------------------------------------------------------ bad rows


def test_bad_rows_each_get_their_outcome_and_the_batch_goes_on(tmp_path: Path) -> None:
    xml = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()
    megabyte = bz2.compress(b"<" + b" " * (1 << 20))
    cap = archive.DEFAULT_MAX_BYTES
    bomb = megabyte * (cap // (1 << 20) + 1)  # concatenated streams, past the cap
    assert len(bomb) < 10_000
    db = make_db(
        tmp_path / "bad.db",
        [
            ("a_good", bz2.compress(xml)),
            ("b_corrupt", b"BZh91AY&SY" + b"\x00garbage" * 20),
            ("c_bomb", bomb),
            ("d_not_a_log", bz2.compress(b"GIF89a\x00\x01 not a game")),
            ("e_empty", ""),
            ("f_gzip", gzip.compress(xml)),
            ("g_plain_text", xml.decode()),
            ("h_cut", bz2.compress(xml)[:-40]),
        ],
    )
    seen: list[archive.ArchiveListing] = []
    files = [str(p) for p in iter_log_paths([db], on_archive=seen.append)]
    assert seen[0].skipped == 1 and len(files) == 7
    report = run_audit([*files, f"{db}::z_missing"], jobs=2, out=tmp_path / "o")
    table = report.files.set_index("file")
    expected = {
        "a_good": "ok",
        "b_corrupt": "error",
        "c_bomb": "error",
        "d_not_a_log": "error",
        "f_gzip": "ok",
        "g_plain_text": "ok",
        "h_cut": "error",
        "z_missing": "error",
    }
    assert sorted(table.index) == sorted(f"{db}::{k}" for k in expected)
    assert {k: table.loc[f"{db}::{k}", "status"] for k in expected} == expected
    fields = report.findings.set_index("file")["field"]
    assert fields[f"{db}::b_corrupt"] == "NotALogError"
    assert fields[f"{db}::c_bomb"] == "LimitExceededError"
    assert fields[f"{db}::d_not_a_log"] == "NotALogError"
    assert fields[f"{db}::h_cut"] == "TruncatedLogError"
    missing = table.loc[f"{db}::z_missing", "error"]
    assert str(db) in missing and "'z_missing'" in missing


def test_read_member_errors_name_archive_and_id(tmp_path: Path) -> None:
    xml = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()
    db = make_db(tmp_path / "m.db", [("g", bz2.compress(xml)), ("e", "")])
    assert read_bytes(f"{db}::g") == xml
    assert read_log(f"{db}::g").hands == read_log(xml).hands
    with pytest.raises(NotALogError) as exc:
        read_bytes(f"{db}::nope")
    assert str(db) in str(exc.value) and "nope" in str(exc.value)
    with pytest.raises(NotALogError, match="no content"):
        read_bytes(f"{db}::e")
    with pytest.raises(LimitExceededError):  # the stored blob itself is over the cap
        read_bytes(f"{db}::g", max_bytes=100)
    with pytest.raises(LimitExceededError):  # its decompressed text is
        archive.read_member(db, "g", max_bytes=len(xml) - 1)
    assert archive.read_member(db, "g", max_bytes=len(xml)) == xml


def test_database_without_logs_table_is_one_error_row(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE logs(id text, content blob)")  # wrong columns
    con.commit()
    con.close()
    empty = tmp_path / "nothing.sqlite"
    sqlite3.connect(empty).execute("CREATE TABLE t(x)").connection.close()
    good = tmp_path / "clean_ron.xml"
    good.write_bytes((FIXTURES / "replay" / "clean_ron.xml").read_bytes())
    assert [p for p in iter_log_paths([other, empty])] == [other, empty]
    report = run_audit([other, empty, good], jobs=1)
    table = report.files.set_index("file")
    assert list(table["status"]) == ["ok", "error", "error"]  # sorted by path
    for db in (other, empty):
        message = table.loc[str(db), "error"]
        assert str(db) in message and "`logs` table" in message


def test_an_archive_given_as_a_log_says_so(tmp_path: Path) -> None:
    xml = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()
    db = make_db(tmp_path / "p.db", [("g", bz2.compress(xml))])
    with pytest.raises(NotALogError, match=r"archive of 1 logs.*::LOG_ID"):
        read_bytes(db)


# ------------------------------------------------------------------ bz2


def test_bz2_log_file_is_read_with_the_cap(tmp_path: Path) -> None:
    xml = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()
    f = tmp_path / "g.xml.bz2"
    f.write_bytes(bz2.compress(xml))
    assert read_bytes(f) == xml
    with pytest.raises(LimitExceededError):
        read_bytes(f, max_bytes=len(xml) - 1)


def test_bunzip2_capped_streams_truncation_and_garbage() -> None:
    data = b"<mjloggm ver='2.3'>" + bytes(range(256)) * 50
    packed = bz2.compress(data)
    assert archive.bunzip2_capped(packed + packed) == data + data
    assert archive.bunzip2_capped(packed + b"\x00\x00trailing") == data
    with pytest.raises(TruncatedLogError):
        archive.bunzip2_capped(packed[: len(packed) // 2])
    with pytest.raises(NotALogError):
        archive.bunzip2_capped(b"BZh9" + b"\xff" * 64)
    with pytest.raises(LimitExceededError):
        archive.bunzip2_capped(packed, max_bytes=len(data) - 1)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=3000), st.integers(min_value=0, max_value=4000))
def test_bunzip2_capped_is_bz2_within_the_cap(data: bytes, cap: int) -> None:
    packed = bz2.compress(data)
    if len(data) <= cap:
        assert archive.bunzip2_capped(packed, cap) == data
    else:
        with pytest.raises(LimitExceededError):
            archive.bunzip2_capped(packed, cap)


def test_split_member_only_for_existing_archives(tmp_path: Path) -> None:
    db = make_db(tmp_path / "s.db", [])
    assert archive.split_member(f"{db}::2024x") == (str(db), "2024x")
    assert archive.split_member(f"{tmp_path}/absent.db::x") is None
    assert archive.split_member(f"{db}::") is None
    real = tmp_path / "odd::name.xml"  # a real file whose name has the separator
    real.write_bytes(b"<x/>")
    assert archive.split_member(real) is None


# ------------------------------------------------------------------ CLI


def test_cli_audit_and_explain_a_member(tmp_path: Path, capsys: Any) -> None:
    from replay_audit.cli import EXIT_CLEAN, EXIT_MISMATCH, main

    sources = sorted(FIXTURES.glob("*.xml"))
    _, db = logs_and_db(tmp_path, sources)
    set_content(db, sources[0].name, "")  # not downloaded: skipped, counted
    out = tmp_path / "report"
    assert main(["audit", str(db), "--out", str(out)]) == EXIT_CLEAN
    captured = capsys.readouterr()
    assert f"{db}: {len(sources) - 1} logs, 1 row without content skipped" in captured.err
    files = pd.read_csv(out / "files.csv")
    assert len(files) == len(sources) - 1
    assert files["file"].str.startswith(f"{db}::").all()
    assert main(["audit", str(db), "--out", str(out), "-q"]) == EXIT_CLEAN
    assert "skipped" not in capsys.readouterr().err
    # a member with findings makes the exit code say so
    bad = (FIXTURES / "replay" / "discard_not_held.xml").read_bytes()
    set_content(db, sources[2].name, bz2.compress(bad))
    assert main(["audit", str(db), "--out", str(out), "-q"]) == EXIT_MISMATCH
    capsys.readouterr()
    member = f"{db}::4p_double_yakuman.xml"
    assert main(["explain", member]) == EXIT_CLEAN
    assert "yakuman" in capsys.readouterr().out
    assert main(["explain", f"{db}::absent"]) == 2
    err = capsys.readouterr().err
    assert str(db) in err and "'absent'" in err


# ------------------------------------------------------------------ Dask


def test_dask_engine_reads_members(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    pytest.importorskip("dask.bag")
    sources = fixture_logs()
    _, db = logs_and_db(tmp_path, sources)
    ref = run_audit([db], jobs=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        got = run_audit(
            [db], engine="dask", scheduler=cluster.scheduler_address, out=tmp_path / "o"
        )
    assert got.run_stats["cluster_totals"]["files"] == len(sources)
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(got, name), getattr(ref, name), check_exact=True)


def test_member_games_carry_the_log_id(tmp_path: Path) -> None:
    """A real phoenix-logs row is named by the bare Tenhou id; the game read from it
    must carry that id (and its date), as the file ``<id>.xml`` does."""
    xml = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()
    log_id = "2024041200gm-00a9-0000-1142b3d7"
    db = make_db(tmp_path / "p.db", [(log_id, bz2.compress(xml))])
    (tmp_path / f"{log_id}.xml").write_bytes(xml)
    from_file = run_audit([tmp_path / f"{log_id}.xml"], jobs=1).games
    from_db = run_audit([db], jobs=1).games
    assert from_file["log_id"].tolist() == [log_id]
    assert from_db["log_id"].tolist() == [log_id]
    assert from_db["date"].tolist() == from_file["date"].tolist()


# ------------------------------------------------------------------ real logs


@pytest.mark.corpus
def test_real_phoenix_archive_equals_the_files(tmp_path: Path) -> None:
    folder = CORPUS / "tenhou-xml" / "phoenix-2024"
    if not folder.is_dir():
        pytest.skip("../shared/corpus is absent")
    sources = sorted(folder.glob("*.xml.gz"))[:150]
    logs, db = logs_and_db(tmp_path, sources, data=lambda p: gzip.decompress(p.read_bytes()))
    ref = run_audit([logs / s.name.removesuffix(".gz") for s in sources], jobs=1)
    got = run_audit([db], jobs=1, out=tmp_path / "o")
    assert ref.summary()["files_ok"] == 150
    assert_same_report(got, ref, db, logs)
