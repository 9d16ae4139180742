"""A log's events as an Arrow table, read by the compiled core without building a
Python object per event: for people who build data sets from many logs.

``events_table`` takes what ``read_log`` takes (a path, an archive member or bytes,
gzip or not) and returns ``parsers.tenhou_xml.columns.mjlog_events``'s table, whose
docstring lists the columns; ``pa.concat_tables`` joins the tables of many files and
``table.to_pandas()`` gives a DataFrame.

Must not: build a ``Game`` (``read``), or quietly give a partial table: a document
the compiled reader declines raises an error that says why and points to ``read_log``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from replay_audit.io.read import named_bytes
from replay_audit.model.errors import LogFormatError, NotALogError
from replay_audit.native import HAVE_CORE, _core
from replay_audit.parsers.sniff import DEFAULT_MAX_BYTES, sniff_format
from replay_audit.parsers.tenhou_xml import limits
from replay_audit.parsers.tenhou_xml.columns import mjlog_events

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["events_table"]


def events_table(
    path_or_bytes: str | Path | bytes,
    *,
    source: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pa.Table:
    """The events of one Tenhou mjlog XML log, one row per event in document order.

    Raises ``LogFormatError`` naming the file when the log is not mjlog XML (a
    tenhou.net/6 JSON log: use ``read_log``), when the compiled core is not built,
    or when the core declines the document (an unusual or damaged log: the message
    says why; ``read_log`` reads it or names the fault).

    >>> from pathlib import Path
    >>> table = events_table(Path("fixtures/replay/clean_ron.xml"))
    >>> table.num_rows > 0, table.column_names[:4]
    (True, ['hand', 'seq', 'kind', 'seat'])
    """
    name, data = named_bytes(path_or_bytes, source, max_bytes)
    try:
        fmt = sniff_format(data)
    except NotALogError as exc:
        raise exc.located(source=name) from None
    if fmt != "tenhou-xml":
        raise LogFormatError(
            f"events_table reads mjlog XML; this log is {fmt} (read_log reads it)", source=name
        )
    if not HAVE_CORE:
        raise LogFormatError(
            "events_table needs the compiled core (this install has none); read_log reads the log",
            source=name,
        )
    table = mjlog_events(data)
    if table is None:
        why = _core.mjlog_decline_reason(data, limits.MAX_ELEMENTS, limits.MAX_ATTRIBUTE_LENGTH)
        raise LogFormatError(
            f"the compiled reader declines this document ({why}); read_log reads it "
            "or names the fault",
            source=name,
        )
    return table
