"""The limits a stranger's document must keep, and the document-level checks.

Owns ``MAX_ELEMENTS`` and ``MAX_ATTRIBUTE_LENGTH`` (read from here at run time, so
a test may lower them on this module) and ``_check_document`` (no DOCTYPE or
ENTITY, no text content, not too many elements).

Must not: walk a document or build events.
"""

from __future__ import annotations

from typing import Final

from lxml import etree

from replay_audit.model.errors import (
    LimitExceededError,
    LogFormatError,
)
from replay_audit.parsers.tenhou_xml.tags import (
    _TEXT_AFTER_TAG,
    _Place,
)

MAX_ELEMENTS: Final = 200_000
"""A full hanchan has ~1,500 elements; anything near this is not a game log."""
MAX_ATTRIBUTE_LENGTH: Final = 65_536
"""The longest real attribute is the SHUFFLE seed (~3,300 characters)."""


def _check_document(root: etree._Element, data: bytes, place: _Place) -> None:
    """Refuse what a log never has: too many elements, nesting, text, CDATA.

    Byte-level tests clear a normal (flat, text-free) file in a few
    microseconds; only a file that fails them gets the exact tree checks, so a
    pretty-printed log (whitespace between tags) is still accepted."""
    if len(root) > MAX_ELEMENTS:
        raise LimitExceededError(f"{len(root)} elements (limit {MAX_ELEMENTS})", **place)
    if (
        data.find(b"</") == data.rfind(b"</")
        and b"<![CDATA[" not in data
        and _TEXT_AFTER_TAG.search(data) is None
    ):
        return
    for index, el in enumerate(root):
        if len(el):
            raise LogFormatError(
                f"nested element <{el[0].tag}> inside <{el.tag}> (logs are flat)",
                index=index,
                **place,
            )
    text = etree.tostring(root, method="text", encoding="unicode").strip()
    if text:
        raise LogFormatError(f"text content {text[:40]!r} (logs have none)", **place)
