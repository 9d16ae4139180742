"""The fixed tables of mjlog XML: tag letters, tile sets, valid ids, log ids and
the safe lxml parser.

Owns the prebuilt ``{tag: (action, seat, tile)}`` tables of the hot draw/discard
path, the valid tile ids per tile set, the log-id patterns and ``_xml_parser``
(no entities, no DTD, no network).

Must not: walk a document or build events.
"""

from __future__ import annotations

import re
from typing import Final, TypedDict, TypeVar

from lxml import etree

from replay_audit.model.tiles import SANMA_MISSING_KINDS

DRAW_TAGS: Final = "TUVW"
DISCARD_TAGS: Final = "DEFG"
DRAW_KINDS: Final = ("exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4")

_LOG_ID = re.compile(r"\d{8}(?:\d{2})?gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")
"""``YYYYMMDDHHgm-TTTT-LLLL-hhhhhhhh``: the date and hour, the GO type in hex, the
lobby and a hash.  2006 ids carry no hour (``20061028gm-0001-0000-1af63a72``,
formats.md §6.12), and a championship lobby's number has five digits
(``2021061315gm-0641-11000-f25efe24``, ``../shared/cases``)."""
_LOG_ID_LAST = re.compile(r"(?:^|[._ -])(" + _LOG_ID.pattern + r")$")
"""A log id ending a descriptive name, after a dot, underscore, dash or space."""
_SUFFIXES = (".gz", ".xml", ".mjlog", ".txt")
_TW = re.compile(r"&tw=\d+$")

_DRAW, _DISCARD = 0, 1
TOUTENKOU: Final = 112
"""Tile-set key of a Toutenkou game (its tile count; 4 and 3 key the others)."""
_TEXT_AFTER_TAG = re.compile(rb">[^<]")
_T = TypeVar("_T")


class _Place(TypedDict):
    """The error-location keywords every document-level error is raised with."""

    source: str | None
    log_id: str | None


TOUTENKOU_MISSING_KINDS: Final = SANMA_MISSING_KINDS - {4}
"""Toutenkou (GO 0x800 with 0x10) keeps 1m, 5m and 9m: 112 tiles (scoring-rules.md §15)."""

_MISSING_KINDS: Final = {
    4: frozenset[int](),
    3: SANMA_MISSING_KINDS,
    TOUTENKOU: TOUTENKOU_MISSING_KINDS,
}


def _tile_tag_table(tile_set: int) -> dict[str, tuple[int, int, int]]:
    """``{"T12": (_DRAW, 0, 12), "G135": (_DISCARD, 3, 135), ...}`` for every id
    that can exist in a game with that tile set (4, 3 or ``TOUTENKOU``)."""
    table: dict[str, tuple[int, int, int]] = {}
    missing = _MISSING_KINDS[tile_set]
    for tile in range(136):
        if tile >> 2 in missing:
            continue
        for seat in range(4):
            table[f"{DRAW_TAGS[seat]}{tile}"] = (_DRAW, seat, tile)
            table[f"{DISCARD_TAGS[seat]}{tile}"] = (_DISCARD, seat, tile)
    return table


_TILE_TAGS: Final = {key: _tile_tag_table(key) for key in _MISSING_KINDS}
_VALID_IDS: Final = {
    key: frozenset(t for t in range(136) if t >> 2 not in missing)
    for key, missing in _MISSING_KINDS.items()
}

_SAFE_PARSER_ARGS: Final = {
    "resolve_entities": False,
    "no_network": True,
    "dtd_validation": False,
    "load_dtd": False,
    "huge_tree": False,
    "remove_comments": True,
}


def _xml_parser(recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(recover=recover, **_SAFE_PARSER_ARGS)
