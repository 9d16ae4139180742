"""An mjlog document: its name, its parse and its checks before the walk.

Owns ``parse_tenhou_xml`` (the entry point: the compiled reader first, see
``from_columns``, the Python walk for what it declines), parsing the
bytes safely (truncated documents kept up to the cut) and refusing what no log
has (``limits``).

Must not: read a hand (``builder``, ``hand``).
"""

from __future__ import annotations

import gc
from typing import Literal

from lxml import etree

from replay_audit.model.errors import (
    LogFormatError,
    NotALogError,
    TruncatedLogError,
)
from replay_audit.model.events import (
    Game,
)
from replay_audit.parsers.tenhou_xml.builder import _Builder
from replay_audit.parsers.tenhou_xml.from_columns import game_from_core
from replay_audit.parsers.tenhou_xml.tags import (
    _Place,
    _xml_parser,
)
from replay_audit.parsers.tenhou_xml.values import log_id_from_name

# ------------------------------------------------------------------- public API

Engine = Literal["auto", "python"]
"""Who reads the document: the compiled reader where it can, or Python only."""


def parse_tenhou_xml(
    data: bytes, source: str = "<bytes>", strict: bool = True, *, engine: Engine = "auto"
) -> Game:
    """Decode one mjlog document (already decompressed) into a ``Game``.

    With ``engine="auto"`` the compiled reader reads the document when it can
    (``from_columns.game_from_core``: the documents Tenhou writes, read whole, where
    ``strict`` changes nothing) and the Python walk reads the rest; ``"python"``
    always walks in Python.  Both give the same ``Game`` (``tests/test_core_mjlog.py``).

    Raises ``NotALogError`` (empty, HTML, not XML, other root),
    ``TruncatedLogError`` (document or game cut short), ``UnknownTagError``,
    ``InvalidValueError``, ``LimitExceededError`` or ``LogFormatError``, each
    naming ``source``, the log id, the hand label and the element index.  With
    ``strict=False`` bad hands and truncation are recorded in ``Game.errors``
    instead (see the module docstring for what is kept).
    """
    if engine == "auto":
        game = game_from_core(data, source)
        if game is not None:
            return game
    elif engine != "python":
        raise ValueError(f"engine must be 'auto' or 'python', not {engine!r}")
    log_id = log_id_from_name(source)
    place: _Place = {"source": source, "log_id": log_id}
    # One event object per element and no cycles among them: the cyclic GC
    # would only walk them again and again (~8% of the parse), so it waits.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        root, truncated = _parse_document(data, strict, place)
        builder = _Builder(source, log_id, strict, data)
        return builder.build(root, truncated)
    finally:
        if paused:
            gc.enable()


# ------------------------------------------------------------- document level


def _parse_document(
    data: bytes, strict: bool, place: _Place
) -> tuple[etree._Element, TruncatedLogError | None]:
    """Parse safely; return the root and, in lenient mode, the truncation error
    when the document had to be recovered."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        raise NotALogError("empty file", **place)
    if not head.startswith(b"<"):
        raise NotALogError("not XML: does not start with '<'", **place)
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        if b"<html" in head.lower() or b"<!doctype html" in head.lower():
            raise NotALogError("an HTML page, not a game log", **place)
        raise LogFormatError("DOCTYPE/ENTITY declarations are refused in game logs", **place)
    try:
        root = etree.fromstring(data, _xml_parser())
    except etree.XMLSyntaxError as exc:
        where = f"line {exc.position[0]}, column {exc.position[1]}"
        if b"<mjloggm" not in head:
            raise NotALogError(f"not an mjlog XML document ({exc.msg})", **place) from exc
        if data.rstrip().endswith(b"</mjloggm>"):
            raise LogFormatError(f"malformed XML at {where}: {exc.msg}", **place) from exc
        error = TruncatedLogError(f"document cut short at {where}: {exc.msg}", **place)
        if strict:
            raise error from exc
        root = etree.fromstring(data, _xml_parser(recover=True))
        if root is None or root.tag != "mjloggm":
            raise error from exc
        if len(root) and not data.rstrip().endswith(b">"):
            root.remove(root[-1])  # the cut element may have lost attributes
        return root, error
    if root.tag != "mjloggm":
        kind = "an HTML page" if str(root.tag).lower() == "html" else f"<{root.tag}>"
        raise NotALogError(f"root element is {kind}, not <mjloggm>", **place)
    return root, None
