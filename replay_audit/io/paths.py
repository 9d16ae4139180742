"""Finding the logs: files, folders (searched recursively), globs and SQLite
archives, in a stable order.

Owns ``iter_log_paths`` (what a run audits), ``looks_like_log`` (a file's first
bytes sniffed) and the names and suffixes that count as logs.

Must not: read a whole log or parse it (``io.read``).
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
from replay_audit.model.errors import LogFormatError
from replay_audit.parsers.sniff import is_gzip

LOG_SUFFIXES: Final = (".xml", ".mjlog", ".json", ".gz", ".txt")
"""Names a folder walk picks up (``.xml.gz`` and ``.json.gz`` end in ``.gz``)."""
SKIPPED_NAMES: Final = ("manifest", "readme")
"""Bookkeeping files that live next to logs (``manifest.tsv``, ``README.txt``)."""
_GLOB_CHARS: Final = frozenset("*?[")


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
