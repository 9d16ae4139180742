"""Logs stored in an SQLite archive (the MahjongRepository/phoenix-logs layout).

Large Tenhou corpora circulate as one SQLite database rather than a million files:
``logs(log_id text primary key, ..., log_content text, log_hash text)`` where
``log_content`` is ``bz2.compress(<mjlog XML>)`` (a BLOB despite the declared type),
``''`` for a row not downloaded yet or whose download failed. Auditing such a file
directly saves extracting it first.

**Member paths.** One log of an archive is named ``"<db path>::<log_id>"``, e.g.
``phoenix-2024.db::2024010100gm-00a9-0000-0123abcd``: a plain string, so it travels
through the runner, the parts, the resume index and the report's ``file``
column like any file path, and a finding names both the archive and the game. The
part after the *last* ``::`` is the log id; a string is a member path only when the
part before it is an existing file and the whole string is not.

Reading opens the database read-only, once per process and database (pool and Dask
workers are separate processes, and an SQLite connection must not cross a
``fork``), selects the row by primary key and undoes bz2 (or gzip) with a hard
output cap, so one bomb row cannot exhaust a worker's memory.

>>> split_member("phoenix.db::2024010100gm-00a9-0000-0123abcd") is None  # no such file
True
>>> is_bz2(bz2.compress(b"<mjloggm/>"))
True

Must not: parse a log's content (``parsers``) or audit anything.
"""

from __future__ import annotations

import bz2
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import quote

from replay_audit.model.errors import LimitExceededError, NotALogError, TruncatedLogError
from replay_audit.parsers.sniff import DEFAULT_MAX_BYTES, gunzip_capped, is_gzip

SQLITE_MAGIC: Final = b"SQLite format 3\x00"
MEMBER_SEP: Final = "::"
ARCHIVE_SUFFIXES: Final = (".db", ".sqlite", ".sqlite3")
"""Names a folder walk or glob checks for the SQLite header (a file named on the
command line is always checked, whatever its name)."""
BZ2_MAGIC: Final = b"BZh"

_LIST_SQL: Final = (
    "SELECT log_id FROM logs WHERE log_id IS NOT NULL AND length(log_content) > 0 ORDER BY log_id"
)
_ROW_SQL: Final = (
    "SELECT CASE WHEN length(log_content) > ? THEN NULL ELSE log_content END,"
    " length(log_content) FROM logs WHERE log_id = ?"
)


@dataclass(frozen=True, slots=True)
class ArchiveListing:
    """The logs of one archive: what an audit expands the database into."""

    path: str
    members: list[str]
    """Member paths (``<path>::<log_id>``) of the rows with content, by log id."""
    rows: int
    """Every row of the ``logs`` table; ``rows - len(members)`` were skipped."""

    @property
    def skipped(self) -> int:
        """Rows without content (never downloaded, or failed) or without an id."""
        return self.rows - len(self.members)

    def describe(self) -> str:
        """``phoenix.db: 1,234 logs, 56 rows without content skipped``."""
        logs, skipped = len(self.members), self.skipped
        return (
            f"{self.path}: {logs:,} log{'' if logs == 1 else 's'}, "
            f"{skipped:,} row{'' if skipped == 1 else 's'} without content skipped"
        )


# ------------------------------------------------------------------ recognising


def is_sqlite(path: str | Path) -> bool:
    """The file starts with the SQLite header (by content, never by name)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def is_bz2(data: bytes) -> bool:
    """bz2 magic plus a valid block-size digit (so a text starting "BZh" is not one)."""
    return data[:3] == BZ2_MAGIC and len(data) > 3 and 0x31 <= data[3] <= 0x39


def member_path(db: str | Path, log_id: str) -> str:
    """The virtual path naming one log of an archive."""
    return f"{db}{MEMBER_SEP}{log_id}"


def split_member(path: str | Path) -> tuple[str, str] | None:
    """``(db path, log id)`` when ``path`` names a member of an existing file,
    else None (a real file whose name contains ``::`` stays a file)."""
    text = os.fspath(path)
    if MEMBER_SEP not in text:
        return None
    db, _, log_id = text.rpartition(MEMBER_SEP)
    if not db or not log_id or not os.path.isfile(db) or os.path.exists(text):
        return None
    return db, log_id


# ------------------------------------------------------------------ connections

_CONNECTIONS: dict[tuple[int, str, int, int], sqlite3.Connection] = {}
_LOCK = threading.Lock()


def _connect(db: str) -> sqlite3.Connection:
    """The process's read-only connection to ``db``.

    Keyed by process id (a connection inherited through ``fork`` is never used,
    as SQLite requires) and by the file's identity (a database replaced under the
    same name gets a fresh connection).
    """
    st = os.stat(db)
    real = os.path.realpath(db)
    key = (os.getpid(), real, st.st_dev, st.st_ino)
    with _LOCK:
        con = _CONNECTIONS.get(key)
        if con is None:
            uri = f"file:{quote(real)}?mode=ro"
            con = sqlite3.connect(uri, uri=True, check_same_thread=False)
            _CONNECTIONS[key] = con
        return con


def _schema_error(db: str, exc: sqlite3.Error | None = None) -> NotALogError:
    why = f" ({exc})" if exc is not None else ""
    return NotALogError(
        "an SQLite database without a phoenix-logs `logs` table "
        f"(columns log_id, log_content){why}",
        source=db,
    )


def _check_schema(con: sqlite3.Connection, db: str) -> None:
    try:
        cols = {row[1] for row in con.execute("PRAGMA table_info(logs)")}
    except sqlite3.Error as exc:
        raise _schema_error(db, exc) from None
    if not {"log_id", "log_content"} <= cols:
        raise _schema_error(db)


# ------------------------------------------------------------------ listing


def list_members(db: str | Path) -> ArchiveListing:
    """Every log of the archive as a member path, in ``log_id`` order, rows with
    empty content left out (they are not logs yet) but counted.

    One SELECT over the primary key; the only per-row work is building the string.
    ``NotALogError`` (naming the file) when the database has no usable ``logs`` table.
    """
    name = os.fspath(db)
    try:
        con = _connect(name)
        _check_schema(con, name)
        prefix = name + MEMBER_SEP
        members = [prefix + str(log_id) for (log_id,) in con.execute(_LIST_SQL)]
        (rows,) = con.execute("SELECT COUNT(*) FROM logs").fetchone()
    except sqlite3.Error as exc:
        raise _schema_error(name, exc) from None
    return ArchiveListing(name, members, int(rows))


def describe_archive(db: str | Path) -> str:
    """Why an SQLite file given as a log cannot be read as one (for its error row)."""
    try:
        listing = list_members(db)
    except NotALogError as exc:
        return exc.message
    return (
        f"an SQLite archive of {len(listing.members):,} logs: audit the database itself "
        f"or name one log as {os.fspath(db)}::LOG_ID"
    )


# ------------------------------------------------------------------ reading


def stored_bytes(db: str | Path, log_id: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The row's ``log_content`` as stored (compressed): what the resume key hashes.

    ``NotALogError`` naming archive and id when there is no such row or it has no
    content; ``LimitExceededError`` (without loading it) when it is over ``max_bytes``.
    """
    name = os.fspath(db)
    source = member_path(name, log_id)
    try:
        row = _connect(name).execute(_ROW_SQL, (max_bytes, log_id)).fetchone()
    except sqlite3.Error as exc:
        raise _schema_error(name, exc).located(log_id=log_id) from None
    if row is None:
        raise NotALogError(f"no log {log_id!r} in the archive {name}", source=source)
    value, size = row
    if not size:
        raise NotALogError(
            "the archive row has no content (not downloaded, or the download failed)",
            source=source,
        )
    if value is None:
        raise LimitExceededError(f"archive row is {size} bytes (limit {max_bytes})", source=source)
    if isinstance(value, str):  # content stored as TEXT (plain XML or JSON)
        return value.encode("utf-8", "surrogatepass")
    return bytes(value)


def read_member(db: str | Path, log_id: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The log's text: the stored content with bz2 or gzip undone (sniffed by
    magic; plain content passes through), never more than ``max_bytes``."""
    data = stored_bytes(db, log_id, max_bytes)
    return decompress_capped(data, max_bytes, source=member_path(os.fspath(db), log_id))


def decompress_capped(data: bytes, max_bytes: int = DEFAULT_MAX_BYTES, source: str = "") -> bytes:
    """Undo bz2 or gzip when the data starts with its magic; plain data is returned
    as is (the format sniffer then decides whether it is a log)."""
    if is_bz2(data):
        return bunzip2_capped(data, max_bytes, source)
    if is_gzip(data):
        return gunzip_capped(data, max_bytes, source)
    if len(data) > max_bytes:
        raise LimitExceededError(f"{len(data)} bytes (limit {max_bytes})", source=source or None)
    return data


def bunzip2_capped(data: bytes, max_bytes: int = DEFAULT_MAX_BYTES, source: str = "") -> bytes:
    """Decompress bz2 (possibly several concatenated streams) without ever holding
    more than ``max_bytes`` of output: ``LimitExceededError`` past the cap,
    ``TruncatedLogError`` when a stream ends early, ``NotALogError`` when broken.

    >>> bunzip2_capped(bz2.compress(b"abc") * 2)
    b'abcabc'
    """
    where = source or None
    out = bytearray()
    rest = data
    while rest:
        d = bz2.BZ2Decompressor()
        pending = rest
        try:
            while not d.eof:
                if not pending and d.needs_input:
                    raise TruncatedLogError("bz2 stream ends early", source=where)
                out += d.decompress(pending, max_bytes + 1 - len(out))
                pending = b""
                if len(out) > max_bytes:
                    raise LimitExceededError(
                        f"decompresses to more than {max_bytes} bytes", source=where
                    )
        except (OSError, ValueError, EOFError) as exc:
            raise NotALogError(f"broken bz2 data: {exc}", source=where) from exc
        rest = d.unused_data
        if not is_bz2(rest):
            break
    return bytes(out)
