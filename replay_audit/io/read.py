"""Reading logs from disk: a path in, its bytes and its ``Game`` out (the paths
themselves are found by ``io.paths``).

With ``io.paths`` and ``io.archive``, this is the one place that touches files.  Formats are sniffed from content
(``parsers.sniff``), gzip is undone with a size cap, and batch iteration hands
back the error *as a value* for a bad file, so one broken download never stops
an audit of thousands and every input file shows up in the report.

An SQLite archive of logs (the phoenix-logs layout, see ``archive``) expands to
its member paths ``"<db>::<log_id>"``, which ``read_bytes`` reads like files.

Must not: replay, score or audit; it stops at the ``Game`` (or the error).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from replay_audit.io import archive
from replay_audit.io.paths import iter_log_paths
from replay_audit.model.errors import LimitExceededError, LogFormatError, NotALogError
from replay_audit.model.events import Game
from replay_audit.parsers.sniff import (
    DEFAULT_MAX_BYTES,
    gunzip_capped,
    gunzip_one_member,
    is_gzip,
    sniff_format,
)
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml


def read_bytes(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The file's content, gunzipped or bunzipped when it starts with the gzip or
    bz2 magic (not when its name ends in ``.gz``); ``LimitExceededError`` when the
    file or its decompressed content is larger than ``max_bytes``.

    A member path ``"<db>::<log_id>"`` reads that row of an SQLite archive; an
    SQLite file itself is not a log (``NotALogError`` saying why).
    """
    return read_stored(path, max_bytes)[1]


def read_stored(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[bytes, bytes]:
    """``(stored, content)``: the bytes as stored (what the runner's resume key
    hashes, ``run.keys.file_sha256``) and ``read_bytes``'s content (the same object
    when nothing was decompressed), from one read of the file."""
    member = archive.split_member(path)
    if member is not None:
        stored = archive.stored_bytes(*member, max_bytes=max_bytes)
        source = archive.member_path(*member)  # as archive.read_member names it
        return stored, archive.decompress_capped(stored, max_bytes, source=source)
    # the path as given, straight to os.open, the size cap from fstat of the open file,
    # then one read of the whole: no Path is made (parsing it cost about as much as the
    # system calls), nor a file object; errors still name the file as its Path does
    # (``_named``), and an OSError is open()'s, its message naming the path as given
    data = _read_capped(path, max_bytes)
    if isinstance(data, int):  # the size past the cap
        size, name = data, _named(path)
        if archive.is_sqlite(name):
            raise NotALogError(archive.describe_archive(name), source=name)
        raise LimitExceededError(f"file is {size} bytes (limit {max_bytes})", source=name)
    if is_gzip(data):
        # the usual file (one whole member) by ISA-L here, so that no name is made for
        # it; anything else is gunzip_capped's, which tries ISA-L first again
        whole = gunzip_one_member(data, max_bytes)
        return data, whole if whole is not None else gunzip_capped(data, max_bytes, _named(path))
    if archive.is_bz2(data):
        return data, archive.bunzip2_capped(data, max_bytes, source=_named(path))
    if data.startswith(archive.SQLITE_MAGIC):
        name = _named(path)
        raise NotALogError(archive.describe_archive(name), source=name)
    return data, data


def _read_capped(path: str | Path, max_bytes: int) -> bytes | int:
    """The whole file, or its size where that is past ``max_bytes`` (nothing read).

    ``open(path, "rb").read()`` without the file object: a directory is refused
    with open()'s own error, and a file that changed since its ``fstat`` (or a
    pipe) is read to its end all the same."""
    fd = os.open(path, os.O_RDONLY)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        size = st.st_size
        if size > max_bytes:
            return size
        data = os.read(fd, size + 1)  # one call: a regular file reads whole
        if len(data) != size:  # it changed, or is not a regular file: read to its end
            chunks = [data]
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
            data = b"".join(chunks)
        return data
    finally:
        os.close(fd)


def _named(path: str | Path) -> str:
    """The file's name as its errors give it: ``str(Path(path))``, as before
    ``read_bytes`` stopped making a Path (``a//b`` and ``./a`` read ``a/b`` and ``a``)."""
    return str(path if isinstance(path, Path) else Path(path))


def named_bytes(
    path_or_bytes: str | Path | bytes, source: str | None, max_bytes: int
) -> tuple[str, bytes]:
    """The name errors will give and the content, decompressed and capped, of what
    ``read_log`` takes: a path, an archive member or the bytes themselves."""
    if isinstance(path_or_bytes, bytes):
        name = source or "<bytes>"
        data = path_or_bytes
        if is_gzip(data):
            data = gunzip_capped(data, max_bytes, source=name)
        elif len(data) > max_bytes:
            raise LimitExceededError(f"{len(data)} bytes (limit {max_bytes})", source=name)
        return name, data
    return source or str(path_or_bytes), read_bytes(path_or_bytes, max_bytes)


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
    name, data = named_bytes(path_or_bytes, source, max_bytes)
    try:
        fmt = sniff_format(data)
    except NotALogError as exc:
        raise exc.located(source=name) from None
    if fmt == "tenhou-xml":
        return parse_tenhou_xml(data, name, strict=strict)
    # written in parallel by another module owner; imported late so XML works without it
    from replay_audit.parsers.tenhou_json import parse_tenhou_json

    return parse_tenhou_json(data, name, strict=strict)


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
