"""Reading logs from disk: paths, folders and globs in; ``Game`` values out.

This is the one place that touches files.  Formats are sniffed from content
(``parsers.sniff``), gzip is undone with a size cap, and batch iteration hands
back the error *as a value* for a bad file, so one broken download never stops
an audit of thousands and every input file shows up in the report.

An SQLite archive of logs (the phoenix-logs layout, see ``archive``) expands to
its member paths ``"<db>::<log_id>"``, which ``read_bytes`` reads like files.

Must not: replay, score or audit; it stops at the ``Game`` (or the error).
"""

from __future__ import annotations

import bz2
import glob
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Final

from replay_audit.io import archive
from replay_audit.model.errors import LimitExceededError, LogFormatError, NotALogError
from replay_audit.model.events import Game
from replay_audit.parsers.sniff import DEFAULT_MAX_BYTES, gunzip_capped, is_gzip, sniff_format
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml

LOG_SUFFIXES: Final = (".xml", ".mjlog", ".json", ".gz", ".txt")
"""Names a folder walk picks up (``.xml.gz`` and ``.json.gz`` end in ``.gz``)."""
SKIPPED_NAMES: Final = ("manifest", "readme")
"""Bookkeeping files that live next to logs (``manifest.tsv``, ``README.txt``)."""
_GLOB_CHARS: Final = frozenset("*?[")


def read_bytes(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The file's content, gunzipped or bunzipped when it starts with the gzip or
    bz2 magic (not when its name ends in ``.gz``); ``LimitExceededError`` when the
    file or its decompressed content is larger than ``max_bytes``.

    A member path ``"<db>::<log_id>"`` reads that row of an SQLite archive; an
    SQLite file itself is not a log (``NotALogError`` saying why).
    """
    member = archive.split_member(path)
    if member is not None:
        return archive.read_member(*member, max_bytes=max_bytes)
    p = Path(path)
    size = p.stat().st_size
    if size > max_bytes:
        if archive.is_sqlite(p):
            raise NotALogError(archive.describe_archive(p), source=str(p))
        raise LimitExceededError(f"file is {size} bytes (limit {max_bytes})", source=str(p))
    data = p.read_bytes()
    if is_gzip(data):
        return gunzip_capped(data, max_bytes, source=str(p))
    if archive.is_bz2(data):
        return archive.bunzip2_capped(data, max_bytes, source=str(p))
    if data.startswith(archive.SQLITE_MAGIC):
        raise NotALogError(archive.describe_archive(p), source=str(p))
    return data


def read_log(
    path_or_bytes: str | Path | bytes,
    *,
    strict: bool = True,
    source: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> Game:
    """Read one log (path or raw bytes, gzip or not, XML or JSON) into a ``Game``.

    Every error is a ``LogFormatError`` naming the file; ``strict=False``
    keeps the readable hands of a damaged log (see ``parsers.tenhou_xml``).
    """
    if isinstance(path_or_bytes, bytes):
        name = source or "<bytes>"
        data = path_or_bytes
        if is_gzip(data):
            data = gunzip_capped(data, max_bytes, source=name)
        elif len(data) > max_bytes:
            raise LimitExceededError(f"{len(data)} bytes (limit {max_bytes})", source=name)
    else:
        name = source or str(path_or_bytes)
        data = read_bytes(path_or_bytes, max_bytes)
    try:
        fmt = sniff_format(data)
    except NotALogError as exc:
        raise exc.located(source=name) from None
    if fmt == "tenhou-xml":
        return parse_tenhou_xml(data, name, strict=strict)
    # written in parallel by another module owner; imported late so XML works without it
    from replay_audit.parsers.tenhou_json import parse_tenhou_json

    return parse_tenhou_json(data, name, strict=strict)


def iter_log_paths(
    paths: Iterable[str | Path],
    on_archive: Callable[[archive.ArchiveListing], None] | None = None,
) -> Iterator[Path]:
    """Expand files, folders (recursively, sorted, log suffixes only, no
    manifest/README) and glob patterns into file paths, each once.  A path
    that does not exist is yielded as is, so the caller reports it.

    An SQLite archive expands to its member paths in ``log_id`` order: a file
    named here whatever its suffix, one found by a walk or glob when named
    ``.db``/``.sqlite``/``.sqlite3`` (checked by its header).  Rows without
    content are not logs and are skipped; ``on_archive`` receives each archive's
    listing (with the skipped count) before its members, so a caller can say so.
    An archive without a usable ``logs`` table is yielded as itself: reading it
    then fails with the reason, one error row in a report.  A member path
    (``db::log_id`` with ``db`` an SQLite file) is yielded as given, so an
    expanded list can be expanded again cheaply.
    """
    seen: set[Path] = set()
    members: set[str] = set()  # strings hash fast: an archive may hold a million
    archives: dict[str, bool] = {}  # db part of a member path -> is an SQLite file

    def is_member(text: str) -> bool:
        # no stat per member: the db part is checked once per call
        db, _, log_id = text.rpartition(archive.MEMBER_SEP)
        if not db or not log_id:
            return False
        if db not in archives:
            archives[db] = archive.is_sqlite(db)
        return archives[db]

    for item in paths:
        text = str(item)
        if archive.MEMBER_SEP in text and is_member(text):
            if text not in members:
                members.add(text)
                yield Path(text)
            continue
        p = Path(text)
        named = False
        if p.is_dir():
            found: Iterable[Path] = sorted(f for f in _walk(p) if _is_log_file(f) or _is_archive(f))
        elif not p.exists() and _GLOB_CHARS.intersection(text):
            found = sorted(Path(m) for m in glob.glob(text, recursive=True))
            found = [f for f in found if f.is_file()]
        else:
            found = [p]
            named = True
        for f in found:
            if f in seen:
                continue
            seen.add(f)
            if (named or _is_archive_name(f)) and archive.is_sqlite(f):
                try:
                    listing = archive.list_members(f)
                except LogFormatError:
                    yield f
                    continue
                if on_archive is not None:
                    on_archive(listing)
                for m in listing.members:
                    if m not in members:
                        members.add(m)
                        yield Path(m)
            else:
                yield f


def _is_archive_name(path: Path) -> bool:
    return path.name.lower().endswith(archive.ARCHIVE_SUFFIXES) and path.is_file()


def _is_archive(path: Path) -> bool:
    """An SQLite file with an archive name (a ``Thumbs.db`` in a walk is not a log)."""
    return _is_archive_name(path) and archive.is_sqlite(path)


def _walk(top: Path) -> Iterator[Path]:
    """Every entry under ``top``, following symlinked folders (a corpus is often
    a folder of links) but entering each real folder once, so a link loop ends."""
    visited: set[str] = set()
    for root, dirs, files in os.walk(top, followlinks=True):
        real = os.path.realpath(root)
        if real in visited:
            dirs[:] = []
            continue
        visited.add(real)
        dirs[:] = [d for d in dirs if os.path.realpath(os.path.join(root, d)) not in visited]
        base = Path(root)
        for name in files:
            yield base / name


def _is_log_file(path: Path) -> bool:
    name = path.name.lower()
    # a dangling symlink named like a log is kept so the report shows it as unreadable
    if not (path.is_file() or path.is_symlink()) or name.startswith("."):
        return False
    if any(name.startswith(s) for s in SKIPPED_NAMES):
        return False
    if name.endswith(LOG_SUFFIXES):
        return True
    # a download saved without a suffix (``2024041200gm-00a9-0000-1142b3d7``) or
    # with the query string (``...&tw=2``): the content decides
    suffix = path.suffix
    return (not suffix or not suffix[1:].isalnum()) and looks_like_log(path)


SNIFF_BYTES: Final = 4096


def looks_like_log(path: Path) -> bool:
    """Whether the file's first bytes (gunzipped or bunzipped when compressed) start
    a Tenhou log: ``<mjloggm`` for XML, or a JSON object naming a tenhou.net/6
    key early on.  Only for names a walk would otherwise skip, so a folder of
    extension-less downloads is found; a file that cannot be read is no log."""
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return False
    try:
        if is_gzip(head):
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, SNIFF_BYTES)
        elif archive.is_bz2(head):
            head = bz2.BZ2Decompressor().decompress(head, SNIFF_BYTES)
    except (zlib.error, OSError, EOFError):
        return False
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"<mjloggm"):
        return True
    return head.startswith(b"{") and any(k in head for k in (b'"log"', b'"title"', b'"rule"'))


def iter_games(
    paths: Iterable[str | Path], strict: bool = False
) -> Iterator[tuple[Path, Game | LogFormatError]]:
    """``(path, Game)`` for every log, or ``(path, error)`` when a file cannot be
    read at all (missing, unreadable, not a log): a batch never stops on a bad
    file.  ``strict`` is passed to the parsers (lenient by default: damaged
    hands are recorded in ``Game.errors``)."""
    for path in iter_log_paths(paths):
        try:
            yield path, read_log(path, strict=strict)
        except LogFormatError as exc:
            yield path, exc.located(source=str(path))
        except OSError as exc:
            yield (
                path,
                NotALogError(f"cannot read the file: {exc.strerror or exc}", source=str(path)),
            )
