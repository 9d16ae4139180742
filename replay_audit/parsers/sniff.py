"""Tell the log formats apart by their first bytes, and undo gzip safely.

Files are recognised by content, never by name: Tenhou's ``.mjlog`` files are
gzip, downloads keep odd suffixes (``&tw=2``), and a renamed HTML error page
must not reach a parser.  Decompression is streamed with a hard cap so a
small gzip bomb cannot exhaust memory.  The usual file (one whole gzip member
within the cap) is inflated by ISA-L (``isal``), about twice as fast as zlib on
the corpus; anything else, and every error, by the zlib loop, so the bytes and
the errors are zlib's either way.

>>> sniff_format(b'\\xef\\xbb\\xbf  {"log": []}')
'tenhou-json'
>>> sniff_format(b'<mjloggm ver="2.3">')
'tenhou-xml'
>>> is_gzip(gzip_compress(b"x"))
True

Must not: parse a whole log; it only tells formats apart and undoes compression.
"""

from __future__ import annotations

import gzip
import zlib
from types import ModuleType
from typing import Final

from replay_audit.model.errors import LimitExceededError, NotALogError, TruncatedLogError
from replay_audit.model.events import LogFormat

GZIP_MAGIC: Final = b"\x1f\x8b"
DEFAULT_MAX_BYTES: Final = 64 * 1024 * 1024
"""64 MiB: a Phoenix hanchan is ~15 KB of XML, so this is generous."""
_CHUNK: Final = 256 * 1024
_BOM: Final = b"\xef\xbb\xbf"


def _isal() -> ModuleType | None:
    try:
        from isal import isal_zlib
    except ImportError:  # a platform without its wheel: zlib alone, as fast as before
        return None
    return isal_zlib


_FAST: Final = _isal()
"""ISA-L's zlib-compatible module (same streams, same checks), or None."""


def is_gzip(data: bytes) -> bool:
    return data[:2] == GZIP_MAGIC


def gzip_compress(data: bytes) -> bytes:
    """Convenience for tests and doctests."""
    return gzip.compress(data)


def gunzip_capped(data: bytes, max_bytes: int = DEFAULT_MAX_BYTES, source: str = "") -> bytes:
    """Decompress gzip (possibly several members) without ever holding more
    than ``max_bytes`` of output; ``LimitExceededError`` past the cap,
    ``TruncatedLogError`` when the stream ends early."""
    whole = gunzip_one_member(data, max_bytes)  # the usual file, by ISA-L
    if whole is not None:
        return whole
    out = bytearray()
    rest = data
    while rest:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pos = 0
        try:
            while not d.eof:
                if pos < len(rest):
                    chunk = rest[pos : pos + _CHUNK]
                    pos += len(chunk)
                else:
                    chunk = b""
                    if not d.unconsumed_tail:
                        raise TruncatedLogError("gzip stream ends early", source=source or None)
                piece = d.decompress(d.unconsumed_tail + chunk, max_bytes + 1 - len(out))
                out += piece
                if len(out) > max_bytes:
                    raise LimitExceededError(
                        f"decompresses to more than {max_bytes} bytes", source=source or None
                    )
        except zlib.error as exc:
            raise NotALogError(f"broken gzip data: {exc}", source=source or None) from exc
        rest = d.unused_data.lstrip(b"\x00")  # concatenated members; padding zeros
        if rest and not is_gzip(rest):
            break
    return bytes(out)


def gunzip_one_member(data: bytes, max_bytes: int) -> bytes | None:
    """The content of ``data`` when it is exactly one whole gzip member of at most
    ``max_bytes`` (nearly every log file), by ISA-L; None for anything else (several
    members, padding, a cut or damaged stream, too much output, no ``isal``), which
    ``gunzip_capped``'s zlib loop then reads, or refuses, as it always has."""
    if _FAST is None:
        return None
    d = _FAST.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out: bytes = d.decompress(data, max_bytes + 1)
    except _FAST.error:
        return None
    if not d.eof or d.unused_data or d.unconsumed_tail or len(out) > max_bytes:
        return None
    return out


def sniff_format(data: bytes) -> LogFormat:
    """``"tenhou-json"`` when the text starts with ``{``, ``"tenhou-xml"`` with
    ``<`` (after a BOM and whitespace); ``NotALogError`` otherwise."""
    if data.startswith(b"<"):  # (nearly every log: what the lines below find for it)
        return "tenhou-xml"
    head = data[:64]
    if head.startswith(_BOM):
        head = head[len(_BOM) :]
    head = head.lstrip()
    if head.startswith(b"{"):
        return "tenhou-json"
    if head.startswith(b"<"):
        return "tenhou-xml"
    if not head:
        raise NotALogError("empty file")
    raise NotALogError(f"neither XML nor JSON: starts with {bytes(head[:8])!r}")
