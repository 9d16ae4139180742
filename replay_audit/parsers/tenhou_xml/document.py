"""An mjlog document: its name, its parse and its checks before the walk.

Owns ``parse_tenhou_xml`` (the entry point), ``log_id_from_name``, parsing the
bytes safely (truncated documents kept up to the cut) and refusing what no log
has (``limits``).

Must not: read a hand (``builder``, ``hand``).
"""

from __future__ import annotations

import gc

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
from replay_audit.parsers.tenhou_xml.tags import (
    _LOG_ID_LAST,
    _SUFFIXES,
    _TW,
    _Place,
    _xml_parser,
)

# ------------------------------------------------------------------- public API


def log_id_from_name(name: str) -> str | None:
    """The Tenhou log id a file name carries, or None.

    >>> log_id_from_name("logs/2019021004gm-00a9-0000-e2f6516d&tw=2.mjlog")
    '2019021004gm-00a9-0000-e2f6516d'
    >>> log_id_from_name("double_ron.2024040112gm-00a9-0000-0123abcd.xml")
    '2024040112gm-00a9-0000-0123abcd'
    >>> log_id_from_name("archives/phoenix-2024.db::2024040112gm-00a9-0000-0123abcd")
    '2024040112gm-00a9-0000-0123abcd'
    >>> log_id_from_name("3p_kita_2024030112gm-00b9-0000-3a7c0f19.xml")
    '2024030112gm-00b9-0000-3a7c0f19'
    >>> log_id_from_name("era2006_20061028gm-0001-0000-1af63a72.xml.gz")
    '20061028gm-0001-0000-1af63a72'
    >>> log_id_from_name("2021061315gm-0641-11000-f25efe24.xml")
    '2021061315gm-0641-11000-f25efe24'
    >>> log_id_from_name("bye.xml.gz") is None
    True
    >>> log_id_from_name("x2024040112gm-00a9-0000-0123abcd.xml") is None  # not a word of its own
    True
    """
    # an archive member (``replay_audit.io.archive``) is named DB::LOG_ID
    base = name.replace("\\", "/").rsplit("/", 1)[-1].rsplit("::", 1)[-1]
    changed = True
    while changed:
        changed = False
        for suffix in _SUFFIXES:
            if base.lower().endswith(suffix):
                base = base[: -len(suffix)]
                changed = True
        stripped = _TW.sub("", base)
        if stripped != base:
            base, changed = stripped, True
    # a descriptive name may end in the id: "double_ron.2024...-0123abcd.xml",
    # "3p_kita_2024...-3a7c0f19.xml"
    m = _LOG_ID_LAST.search(base)
    return m.group(1) if m else None


def parse_tenhou_xml(data: bytes, source: str = "<bytes>", strict: bool = True) -> Game:
    """Decode one mjlog document (already decompressed) into a ``Game``.

    Raises ``NotALogError`` (empty, HTML, not XML, other root),
    ``TruncatedLogError`` (document or game cut short), ``UnknownTagError``,
    ``InvalidValueError``, ``LimitExceededError`` or ``LogFormatError``, each
    naming ``source``, the log id, the hand label and the element index.  With
    ``strict=False`` bad hands and truncation are recorded in ``Game.errors``
    instead (see the module docstring for what is kept).
    """
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
