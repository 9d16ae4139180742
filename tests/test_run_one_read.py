"""One read per audited file: the runner's resume key comes from the bytes the
auditor read (``FileAudit.stored_sha256``), not from a second read of every file.

The index must hold what it held when the runner hashed each file itself
(``run.keys.file_sha256``): the digest of the bytes as stored (gzip, bz2 or plain;
an archive member's stored row), None for a file that cannot be read, and the
same digest for a file the auditor read but could not decompress.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import json
from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file, validate_file
from replay_audit.run import chunk
from replay_audit.run.keys import Worker, file_sha256
from replay_audit.run.local import audit_files
from tests.conftest import FIXTURES
from tests.test_archive import make_db

LOG = (FIXTURES / "replay" / "clean_ron.xml").read_bytes()


def _inputs(tmp_path: Path) -> dict[str, bytes | None]:
    """Input path -> its stored bytes (None: cannot be read)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    stored: dict[str, bytes | None] = {
        "plain.xml": LOG,
        "packed.xml.gz": gzip.compress(LOG),
        "packed.xml.bz2": bz2.compress(LOG),
        "broken.xml.gz": gzip.compress(LOG)[:40],  # read, but not decompressed
        "not_a_log.txt": b"hello",
    }
    out: dict[str, bytes | None] = {}
    for name, data in stored.items():
        assert data is not None
        (folder / name).write_bytes(data)
        out[str(folder / name)] = data
    blob = bz2.compress(LOG)
    db = make_db(tmp_path / "a.db", [("g", blob)])
    out[f"{db}::g"] = blob
    out[str(folder / "missing.xml")] = None
    return out


def test_the_index_key_is_the_stored_bytes_digest_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = _inputs(tmp_path)
    hashed: list[str] = []

    def counted(path: str | Path) -> str:
        hashed.append(str(path))
        return file_sha256(path)

    monkeypatch.setattr(chunk, "file_sha256", counted)
    audit_files(list(inputs), jobs=1, out=tmp_path / "o")
    lines = (tmp_path / "o" / "parts" / "index.jsonl").read_text(encoding="utf-8").splitlines()
    got = {e["path"]: e["sha256"] for e in map(json.loads, lines)}
    want = {p: None if b is None else hashlib.sha256(b).hexdigest() for p, b in inputs.items()}
    assert got == want
    # a second read only where the auditor could not give the digest
    broken = [p for p in inputs if p.endswith(("broken.xml.gz", "missing.xml"))]
    assert sorted(hashed) == sorted(broken)


def test_the_validate_worker_gives_the_key_from_its_read_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = {p: b for p, b in _inputs(tmp_path).items() if p.endswith((".gz", ".xml"))}
    hashed: list[str] = []

    def counted(path: str | Path) -> str:
        hashed.append(str(path))
        return file_sha256(path)

    monkeypatch.setattr(chunk, "file_sha256", counted)
    audit_files(list(inputs), jobs=1, out=tmp_path / "o", worker=validate_file)
    lines = (tmp_path / "o" / "parts" / "index.jsonl").read_text(encoding="utf-8").splitlines()
    got = {e["path"]: e["sha256"] for e in map(json.loads, lines)}
    want = {p: None if b is None else hashlib.sha256(b).hexdigest() for p, b in inputs.items()}
    assert got == want
    assert sorted(hashed) == sorted(
        p for p in inputs if p.endswith(("broken.xml.gz", "missing.xml"))
    )


@pytest.mark.parametrize("worker", [audit_file, validate_file])
def test_the_stored_digest_only_when_asked(tmp_path: Path, worker: Worker) -> None:
    """A direct caller does not need the resume key: a gzip file is hashed once
    (its content, the ``files`` row's ``sha256``) unless ``stored_digest`` asks."""
    packed = tmp_path / "p.xml.gz"
    packed.write_bytes(gzip.compress(LOG))
    plain = tmp_path / "p.xml"
    plain.write_bytes(LOG)
    content = hashlib.sha256(LOG).hexdigest()
    fa = worker(packed, stored_digest=True)
    assert fa.stored_sha256 == hashlib.sha256(packed.read_bytes()).hexdigest()
    assert fa.sha256 == content  # the content's, as before
    assert worker(plain, stored_digest=True).stored_sha256 == content  # nothing undone
    quiet = worker(packed)
    assert quiet.stored_sha256 is None
    assert quiet.sha256 == content
    assert quiet.file_row() == fa.file_row()
    assert worker(tmp_path / "none.xml", stored_digest=True).stored_sha256 is None
